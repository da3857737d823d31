import { describe, expect, it } from 'vitest';
import { compareQuantity, shortages, toBaseQuantity, totalsByUnit } from './quantities.ts';

describe('base quantity as you type', () => {
  const box = { unitQuantity: '1', baseQuantity: '50' };
  // 「1 套 = 0.235 kg」 kept as 0.235 kg = 1 套.
  const kg = { unitQuantity: '0.235', baseQuantity: '1' };

  it('converts by the exact ratio (2 箱 of 50 → 100; 10 kg → 42.5532 套, not 10 × 4.255319)', () => {
    expect(toBaseQuantity(2, box, 0)).toBe('100.0000');
    expect(toBaseQuantity('2.5', { unitQuantity: '1', baseQuantity: '1' }, 4)).toBe('2.5000');
    expect(toBaseQuantity('10', kg, 4)).toBe('42.5532');
    expect(toBaseQuantity('1000', kg, 4)).toBe('4255.3191');
  });

  it('rounds half away from zero to the base unit’s precision, exactly, as the server does', () => {
    expect(toBaseQuantity('1', kg, 0)).toBe('4.0000'); // 4.255… whole 套
    expect(toBaseQuantity('0.5', { unitQuantity: '1', baseQuantity: '1' }, 0)).toBe('1.0000');
    expect(toBaseQuantity(0.1, { unitQuantity: '1', baseQuantity: '0.3' }, 4)).toBe('0.0300');
    expect(toBaseQuantity(1, { unitQuantity: '1', baseQuantity: '0.00005' }, 4)).toBe('0.0001');
    expect(toBaseQuantity(1, { unitQuantity: '1', baseQuantity: '0.00004999' }, 4)).toBe('0.0000');
  });

  it('is unknown while the quantity or the ratio is', () => {
    expect(toBaseQuantity(undefined, box, 0)).toBeUndefined();
    expect(toBaseQuantity(2, undefined, 0)).toBeUndefined();
    expect(toBaseQuantity('abc', box, 0)).toBeUndefined();
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
