import Decimal from 'decimal.js';

/**
 * Unit precision (小数位数): how many digits after the point a quantity counted in a unit may
 * have. Counted units (件, 套, 个, 粒) take whole numbers only (0); measured ones (kg, 米, 升) up
 * to the 4 places every quantity column keeps. The server refuses, and the forms flag, a quantity
 * that does not fit the unit it is counted in (issue 34: no 100.5 套 flow cards, no 0.0001-piece
 * reports). One rule, one message, for both.
 */

import { MAX_UNIT_PRECISION } from './precision-limit.ts';

export { MAX_UNIT_PRECISION };

/** Digits after the point that count (trailing zeros do not): '10.5000' → 1, '3' → 0, 1e-4 → 4. */
export function decimalPlaces(quantity: string | number): number {
  let s = typeof quantity === 'number' ? String(quantity) : quantity.trim();
  let shift = 0;
  const e = /^([^eE]*)[eE]([+-]?\d+)$/.exec(s);
  if (e) {
    s = e[1];
    shift = Number(e[2]);
  }
  const dot = s.indexOf('.');
  const fraction = dot < 0 ? '' : s.slice(dot + 1).replace(/0+$/, '');
  return Math.max(0, fraction.length - shift);
}

/** Whether a quantity has no more digits after the point than the unit allows. */
export function fitsPrecision(quantity: string | number, precision: number): boolean {
  return decimalPlaces(quantity) <= precision;
}

/** What a unit allows, in words: 「只能填整数」 or 「最多 3 位小数」. */
export function precisionRule(precision: number): string {
  return precision <= 0 ? '只能填整数' : `最多 ${precision} 位小数`;
}

/** A quantity as a person typed it, without the stored scale's trailing zeros: '10.5000' → '10.5'. */
export function shownQuantity(quantity: string | number): string {
  const s = String(quantity).trim();
  return /^-?\d+\.\d*$/.test(s) ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** 「数量 10.5 不符合单位「件」的精度：只能填整数」 — the server's field error and the form's inline message. */
export function precisionMessage(
  label: string,
  quantity: string | number,
  unitName: string,
  precision: number,
): string {
  return `${label} ${shownQuantity(quantity)} 不符合单位「${unitName}」的精度：${precisionRule(precision)}`;
}

/**
 * A quantity the system computes (a BOM explosion, a shortage) made countable: rounded up to what
 * the unit allows, since 8.16 balls needed are 9 balls to issue or buy.
 */
export function roundUpToPrecision(quantity: Decimal.Value, precision: number): string {
  return new Decimal(quantity).toDecimalPlaces(Math.max(0, precision), Decimal.ROUND_UP).toString();
}

/** An input's step for a unit: 1, 0.1, 0.01… */
export function precisionStep(precision: number): string {
  return precision <= 0 ? '1' : `0.${'0'.repeat(precision - 1)}1`;
}
