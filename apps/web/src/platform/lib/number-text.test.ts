import { describe, expect, it } from 'vitest';
import { MONEY, moneyText, numberText, QUANTITY, quantityText } from './number-text.ts';

describe('numberText', () => {
  it('writes decimal strings with separators and the places asked for', () => {
    expect(quantityText('3000.0000')).toBe('3,000');
    expect(quantityText('12.34567')).toBe('12.3457');
    expect(moneyText('1234.5')).toBe('1,234.50');
    expect(moneyText(-0.005)).toBe('-0.01');
    expect(numberText('0.123456', { min: 2, max: 6 })).toBe('0.123456');
    expect(numberText('2', { min: 2, max: 6 })).toBe('2.00');
  });

  it('answers the given text for a missing value and the raw text for a non-number', () => {
    expect(quantityText(null)).toBe('');
    expect(numberText(undefined, { ...MONEY, empty: '-' })).toBe('-');
    expect(numberText('', { ...QUANTITY, empty: '-' })).toBe('-');
    expect(quantityText('n/a')).toBe('n/a');
  });
});
