import { describe, expect, it } from 'vitest';
import {
  exactlyInUnit,
  fromBaseQuantity,
  isKilogram,
  ratioFactor,
  ratioProblem,
  ratioSentences,
  ratioText,
  roundRatio,
  toBaseQuantity,
  weightOf,
} from './unit-conversion.ts';

// 「1 套 = 0.235 kg」: the material counts in 套, is bought in kg.
const KG = { unitQuantity: '0.235', baseQuantity: '1' };
const BOX = { unitQuantity: '1', baseQuantity: '100' };

describe('roundRatio', () => {
  it('rounds half away from zero, exactly', () => {
    expect(roundRatio(1, 8, 2)).toBe('0.13'); // 0.125
    expect(roundRatio(-1, 8, 2)).toBe('-0.13');
    expect(roundRatio(1, 8, 1)).toBe('0.1'); // 0.125 → 0.1
    expect(roundRatio(5, 2, 0)).toBe('3');
    expect(roundRatio(1, 3, 4)).toBe('0.3333');
    expect(roundRatio(2, 3, 4)).toBe('0.6667');
    expect(roundRatio(0, 7, 3)).toBe('0.000');
    expect(roundRatio(-1, 3, 0)).toBe('0');
    // As decimal.js writes small and large values: 1e-7, 2.5e+21.
    expect(roundRatio('1e-7', 1, 7)).toBe('0.0000001');
    expect(roundRatio('2.5e+21', '1e21', 0)).toBe('3');
  });

  it('decides a tie hidden past any binary float: 0.4999…95 is not 0.5', () => {
    // 4,999,999,999,999,999,995 ÷ 10^19 = 0.4999999999999999995: a float says 0.5 and rounds up.
    expect(roundRatio('4999999999999999995', '10000000000000000000', 0)).toBe('0');
    expect(roundRatio('5000000000000000000', '10000000000000000000', 0)).toBe('1');
  });
});

describe('a conversion kept as a ratio', () => {
  it('converts 1 kg to 4.2553 套 and 10 kg to 42.5532 套 (10 ÷ 0.235 = 42.553191…), never through 4.255319', () => {
    expect(toBaseQuantity(1, KG, 4)).toBe('4.2553');
    expect(toBaseQuantity(10, KG, 4)).toBe('42.5532');
    expect(toBaseQuantity(3, KG, 4)).toBe('12.7660'); // 12.765957…
    // The old six-decimal factor made 10 kg 42.55319 → 42.5532 too, but 1000 kg 4255.3190
    // instead of 4255.3191 (1000 ÷ 0.235 = 4255.319148…).
    expect(toBaseQuantity(1000, KG, 4)).toBe('4255.3191');
  });

  it('respects the precision of the unit it lands in: whole 套 for a counted unit', () => {
    expect(toBaseQuantity(1, KG, 0)).toBe('4'); // 4.255…
    expect(toBaseQuantity(10, KG, 0)).toBe('43'); // 42.55…
    expect(toBaseQuantity('0.5', BOX, 0)).toBe('50');
    expect(fromBaseQuantity(43, KG, 3)).toBe('10.105'); // 43 × 0.235
    expect(fromBaseQuantity(150, BOX, 0)).toBe('2'); // 1.5 → 2
  });

  it('says when a base quantity is an exact quantity of the unit', () => {
    expect(exactlyInUnit(150, BOX, 1)).toBe('1.5');
    expect(exactlyInUnit(150, BOX, 0)).toBeNull();
    expect(exactlyInUnit('42.5532', KG, 3)).toBeNull(); // 10.000002 kg
    expect(exactlyInUnit(200, KG, 3)).toBe('47.000');
  });

  it('reads either way: 「1 套 = 0.235 kg」 and 「1 kg ≈ 4.255319 套」 are the same ratio', () => {
    expect(ratioSentences(KG, 'kg', '套')).toEqual(['1 kg ≈ 4.255319 套', '1 套 = 0.235 kg']);
    expect(ratioSentences(BOX, '箱', '套')).toEqual(['1 箱 = 100 套', '1 套 = 0.01 箱']);
    expect(ratioText({ unitQuantity: '0.235000', baseQuantity: '1.000000' }, 'kg', '套')).toBe(
      '0.235 kg = 1 套',
    );
    expect(ratioFactor(KG)).toBe('4.2553191489');
    expect(ratioFactor(BOX, 6)).toBe('100.000000');
  });

  it('refuses a side that is missing, zero or negative', () => {
    expect(ratioProblem(KG)).toBeNull();
    expect(ratioProblem({ unitQuantity: '0', baseQuantity: '1' })).toBe('换算数量必须大于 0');
    expect(ratioProblem({ unitQuantity: '1', baseQuantity: null })).toBe('请填写换算的两边数量');
    expect(ratioProblem({ unitQuantity: 'x', baseQuantity: '1' })).toBe('换算数量必须是数字');
  });

  it('takes the unit weight from the kilogram conversion', () => {
    expect(weightOf(KG)).toBe('0.235000');
    expect(weightOf({ unitQuantity: '1', baseQuantity: '487.19' })).toBe('0.002053');
    expect(isKilogram({ code: 'kg', name: '千克' })).toBe(true);
    expect(isKilogram({ code: 'KGS', name: '公斤' })).toBe(true);
    expect(isKilogram({ code: 'G', name: '克' })).toBe(false);
  });
});
