import { describe, expect, it } from 'vitest';
import {
  decimalPlaces,
  fitsPrecision,
  precisionMessage,
  precisionRule,
  precisionStep,
  roundUpToPrecision,
  shownQuantity,
} from './precision.ts';

describe('unit precision', () => {
  it('counts the digits after the point that matter', () => {
    expect(decimalPlaces('10')).toBe(0);
    expect(decimalPlaces('10.5000')).toBe(1);
    expect(decimalPlaces('0.0001')).toBe(4);
    expect(decimalPlaces(' 2.125 ')).toBe(3);
    expect(decimalPlaces(100.5)).toBe(1);
    expect(decimalPlaces(1e-4)).toBe(4);
    expect(decimalPlaces('1.5e1')).toBe(0);
    expect(decimalPlaces('12.')).toBe(0);
  });

  it('lets whole numbers through a counted unit and nothing else', () => {
    expect(fitsPrecision('100', 0)).toBe(true);
    expect(fitsPrecision('100.0000', 0)).toBe(true);
    expect(fitsPrecision('100.5', 0)).toBe(false);
    expect(fitsPrecision('0.0001', 0)).toBe(false);
    expect(fitsPrecision(1.5, 0)).toBe(false);
  });

  it('lets a measured unit take up to its places', () => {
    expect(fitsPrecision('2.125', 3)).toBe(true);
    expect(fitsPrecision('2.1250', 3)).toBe(true);
    expect(fitsPrecision('2.1234', 3)).toBe(false);
    expect(fitsPrecision('2.12345', 4)).toBe(false);
  });

  it('says what is wrong in the words the server and the form share', () => {
    expect(precisionRule(0)).toBe('只能填整数');
    expect(precisionRule(3)).toBe('最多 3 位小数');
    expect(precisionMessage('数量', '10.5000', '件', 0)).toBe('数量 10.5 不符合单位「件」的精度：只能填整数');
    expect(precisionMessage('数量', 2.1234, 'kg', 3)).toBe(
      '数量 2.1234 不符合单位「kg」的精度：最多 3 位小数',
    );
    expect(shownQuantity('120.0000')).toBe('120');
  });

  it('rounds computed needs up to what can be counted', () => {
    expect(roundUpToPrecision('8.16', 0)).toBe('9');
    expect(roundUpToPrecision('8', 0)).toBe('8');
    expect(roundUpToPrecision('0.1224', 3)).toBe('0.123');
    expect(roundUpToPrecision('0.1224', 4)).toBe('0.1224');
  });

  it('steps an input by the smallest amount the unit allows', () => {
    expect(precisionStep(0)).toBe('1');
    expect(precisionStep(1)).toBe('0.1');
    expect(precisionStep(3)).toBe('0.001');
  });
});
