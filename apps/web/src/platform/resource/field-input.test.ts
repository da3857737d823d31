import type { FieldDef } from '@ringmes/domain';
import { messageKindLabel } from '@ringmes/domain';
import { describe, expect, it } from 'vitest';
import { inputDecimal } from './field-input.tsx';

const price: FieldDef = { name: 'standardCost', label: '标准成本', kind: 'price' };

describe('money in forms', () => {
  it('shows 2 places, more only when they count (18.500000 → 18.50)', () => {
    expect(inputDecimal(price, '18.500000')).toBe('18.50');
    expect(inputDecimal(price, '3.141500')).toBe('3.1415');
    expect(inputDecimal(price, '7')).toBe('7');
    expect(inputDecimal({ ...price, kind: 'quantity' }, '2.5000')).toBe('2.5000');
  });
});

describe('消息中心 types', () => {
  it('have Chinese labels, never the raw code', () => {
    expect(messageKindLabel('system')).toBe('系统通知');
    expect(messageKindLabel('export')).toBe('导出');
    expect(messageKindLabel('stock-alert')).toBe('库存预警');
    expect(messageKindLabel('whatever')).toBe('通知');
  });
});
