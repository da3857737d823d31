import { describe, expect, it } from 'vitest';
import { compareQuantity, shortages, toBaseQuantity, totalsByUnit } from './quantities.ts';

describe('base quantity as you type', () => {
  it('converts with the unit factor (2 箱 of 50 → 100)', () => {
    expect(toBaseQuantity(2, '50.000000')).toBe('100.0000');
    expect(toBaseQuantity('2.5', '1')).toBe('2.5000');
  });

  it('rounds to 4 places half away from zero, exactly, as the server does', () => {
    expect(toBaseQuantity(0.1, '0.3')).toBe('0.0300');
    expect(toBaseQuantity(1, '0.00005')).toBe('0.0001');
    expect(toBaseQuantity(1, '0.00004999')).toBe('0.0000');
    expect(toBaseQuantity(3, '0.333333')).toBe('1.0000');
    expect(toBaseQuantity(1.0001, '1.000050')).toBe('1.0002');
  });

  it('is unknown while the quantity or the factor is', () => {
    expect(toBaseQuantity(undefined, '50')).toBeUndefined();
    expect(toBaseQuantity(2, undefined)).toBeUndefined();
    expect(toBaseQuantity('abc', '1')).toBeUndefined();
  });
});

describe('totals by unit', () => {
  it('never adds 粒, 件, g and 套 into one figure', () => {
    expect(
      totalsByUnit([
        { unitName: '粒', quantity: '100.0000' },
        { unitName: '件', quantity: '3' },
        { unitName: '粒', quantity: 20.5 },
        { unitName: 'g', quantity: '0.1' },
        { unitName: 'g', quantity: '0.2' },
        { unitName: '套', quantity: null },
      ]),
    ).toEqual([
      { unitName: '粒', quantity: '120.5000' },
      { unitName: '件', quantity: '3.0000' },
      { unitName: 'g', quantity: '0.3000' },
    ]);
  });
});

describe('compare quantities', () => {
  it('compares decimals exactly', () => {
    expect(compareQuantity('100.0001', '100')).toBe(1);
    expect(compareQuantity('0.3', 0.1 + 0.2)).toBe(0);
    expect(compareQuantity('5', '12')).toBe(-1);
  });
});

describe('lines above what is available', () => {
  it('adds up the lines drawing from the same stock and names them', () => {
    const available: Record<string, string> = { heat1: '100.0000', heat2: '5', heat3: '0' };
    expect(
      shortages(
        [
          { key: 'heat1', need: '60' },
          { key: 'heat2', need: '5' },
          { key: 'heat1', need: '60.0000' },
          { key: undefined, need: '1' },
          { key: 'heat3', need: undefined },
          { key: 'unknown', need: '9' },
        ],
        (k) => available[k],
      ),
    ).toEqual([{ lines: [1, 3], need: '120.0000', available: '100.0000' }]);
  });
});
