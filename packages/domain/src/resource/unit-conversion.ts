import Decimal from 'decimal.js';

/**
 * Unit conversion (单位换算) as an exact ratio: 「unitQuantity 该单位 = baseQuantity 基本单位」,
 * entered in whichever direction is exact — 「1 套 = 0.235 kg」 is unitQuantity 0.235 (kg) and
 * baseQuantity 1 (套); 「1 箱 = 100 套」 is 1 and 100. No factor with six decimals stands between
 * them (1 ÷ 0.235 = 4.255319…), so nothing drifts through a rounded factor.
 *
 * The rounding rule (docs/architecture.md, "Unit conversion"): a quantity converts once per line,
 * quantity × baseQuantity ÷ unitQuantity, rounded half away from zero to the precision (小数位数)
 * of the unit it lands in, computed exactly (no binary float, no rounded intermediate).
 */

/** 80 significant digits hold any numeric(18,4) × numeric(18,6) × 10⁴ exactly. */
const X = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_DOWN });
type Num = Decimal.Value;

/** unitQuantity of the unit = baseQuantity of the material's base unit. Decimal strings, both > 0. */
export interface UnitRatio {
  unitQuantity: string;
  baseQuantity: string;
}

/** The base unit itself: 1 = 1. */
export const SAME_UNIT: UnitRatio = { unitQuantity: '1', baseQuantity: '1' };

/**
 * numerator ÷ denominator rounded half away from zero to `places`, exactly: the quotient is an
 * integer division of exact decimals, and the remainder decides (2 × remainder ≥ denominator).
 */
export function roundRatio(numerator: Num, denominator: Num, places: number): string {
  const n = new X(numerator);
  const d = new X(denominator);
  if (d.isZero()) throw new RangeError('division by zero');
  const scale = new X(10).pow(Math.max(0, places));
  const a = n.abs().times(scale);
  const b = d.abs();
  const q = a.dividedToIntegerBy(b);
  const r = a.minus(q.times(b));
  const up = r.times(2).gte(b) ? q.plus(1) : q;
  const negative = n.isNegative() !== d.isNegative() && !up.isZero();
  return up
    .dividedBy(scale)
    .times(negative ? -1 : 1)
    .toFixed(Math.max(0, places));
}

/** A quantity counted in a unit, in the base unit: q × base ÷ unit, to the base unit's precision. */
export function toBaseQuantity(quantity: Num, ratio: UnitRatio, basePrecision: number): string {
  return roundRatio(new X(quantity).times(ratio.baseQuantity), ratio.unitQuantity, basePrecision);
}

/** A base-unit quantity counted in the unit: base × unit ÷ base, to the unit's precision. */
export function fromBaseQuantity(base: Num, ratio: UnitRatio, unitPrecision: number): string {
  return roundRatio(new X(base).times(ratio.unitQuantity), ratio.baseQuantity, unitPrecision);
}

/**
 * A base quantity as a whole number of the unit, when it is one exactly (an order's open 150 套 is
 * 1.5 箱 of 100 only if 箱 takes one decimal): the quantity in the unit, or null.
 */
export function exactlyInUnit(base: Num, ratio: UnitRatio, unitPrecision: number): string | null {
  const inUnit = fromBaseQuantity(base, ratio, unitPrecision);
  const back = new X(inUnit).times(ratio.baseQuantity).dividedBy(ratio.unitQuantity);
  return back.eq(new X(base)) ? inUnit : null;
}

/** How many base units one of the unit is, to `places` (a display and a ratio for BOM usage; never to convert stock). */
export function ratioFactor(ratio: UnitRatio, places = 10): string {
  return roundRatio(ratio.baseQuantity, ratio.unitQuantity, places);
}

/** Why a ratio cannot be stored, or null: both sides must be positive numbers. */
export function ratioProblem(ratio: { unitQuantity?: Num | null; baseQuantity?: Num | null }): string | null {
  for (const v of [ratio.unitQuantity, ratio.baseQuantity]) {
    if (v === null || v === undefined || v === '') return '请填写换算的两边数量';
    let d: Decimal;
    try {
      d = new X(v);
    } catch {
      return '换算数量必须是数字';
    }
    if (!d.isFinite() || d.lte(0)) return '换算数量必须大于 0';
  }
  return null;
}

/** A number as people write it: no trailing zeros ('0.235000' → '0.235', '100.000000' → '100'). */
function plain(v: Num): string {
  const s = new X(v).toFixed();
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** 1 of `from` in `to`: 「= 4.255319」 when exact to `places`, else 「≈ 4.255319」. */
function perOne(numerator: Num, denominator: Num, places: number): string {
  const exact = new X(numerator).dividedBy(denominator);
  const shown = roundRatio(numerator, denominator, places);
  return `${new X(shown).eq(exact) ? '=' : '≈'} ${plain(shown)}`;
}

/**
 * The ratio read both ways, as the material form shows it under its lines:
 * [「1 kg ≈ 4.255319 套」, 「1 套 = 0.235 kg」].
 */
export function ratioSentences(
  ratio: UnitRatio,
  unitName: string,
  baseName: string,
  places = 6,
): [string, string] {
  return [
    `1 ${unitName} ${perOne(ratio.baseQuantity, ratio.unitQuantity, places)} ${baseName}`,
    `1 ${baseName} ${perOne(ratio.unitQuantity, ratio.baseQuantity, places)} ${unitName}`,
  ];
}

/** 「0.235 kg = 1 套」: the ratio as it was entered. */
export function ratioText(ratio: UnitRatio, unitName: string, baseName: string): string {
  return `${plain(ratio.unitQuantity)} ${unitName} = ${plain(ratio.baseQuantity)} ${baseName}`;
}

/** Codes and names by which a unit is the kilogram: its conversion is the material's unit weight. */
export const KILOGRAM_CODES = ['KG'];
export const KILOGRAM_NAMES = ['kg', '千克', '公斤'];

export function isKilogram(unit: { code?: string | null; name?: string | null }): boolean {
  return (
    KILOGRAM_CODES.includes(String(unit.code ?? '').toUpperCase()) ||
    KILOGRAM_NAMES.includes(String(unit.name ?? '').toLowerCase())
  );
}

/** The unit weight (kg per base unit) a kilogram conversion says: unitQuantity ÷ baseQuantity, to `places`. */
export function weightOf(kilogram: UnitRatio, places = 6): string {
  return roundRatio(kilogram.unitQuantity, kilogram.baseQuantity, places);
}
