import { describe, expect, it } from 'vitest';
import { lineAmount } from './line-amount.ts';

describe('a line amount as the server computes it', () => {
  it('is quantity × price rounded once to the fen, half away from zero', () => {
    expect(lineAmount(50, '6.2')).toBe('310.00');
    expect(lineAmount('3', '62.000000')).toBe('186.00');
    expect(lineAmount('0.005', '1')).toBe('0.01');
    expect(lineAmount('1.5', '0.333333')).toBe('0.50');
    expect(lineAmount('7', '0.145')).toBe('1.02');
    expect(lineAmount(0.1, 0.3)).toBe('0.03');
  });
  it('is unknown while the quantity or the price is', () => {
    expect(lineAmount(undefined, '6.2')).toBeUndefined();
    expect(lineAmount(5, null)).toBeUndefined();
    expect(lineAmount('', '1')).toBeUndefined();
  });
});
