import { describe, expect, it } from 'vitest';
import { rmbUpper } from './rmb-upper.ts';

describe('金额大写', () => {
  it('writes 元, 角 and 分 with the zeros an invoice writes', () => {
    expect(rmbUpper('310.00')).toBe('叁佰壹拾元整');
    expect(rmbUpper('1005')).toBe('壹仟零伍元整');
    expect(rmbUpper('100000.00')).toBe('壹拾万元整');
    expect(rmbUpper('100001.00')).toBe('壹拾万零壹元整');
    expect(rmbUpper('10010.50')).toBe('壹万零壹拾元伍角');
    expect(rmbUpper('2003.07')).toBe('贰仟零叁元零柒分');
    expect(rmbUpper('120000000.10')).toBe('壹亿贰仟万元壹角');
    expect(rmbUpper('0.05')).toBe('伍分');
    expect(rmbUpper('0.00')).toBe('零元整');
    expect(rmbUpper('-6.20')).toBe('负陆元贰角');
  });
});
