/**
 * Unit conversion (单位换算) as an exact ratio: 「unitQuantity 该单位 = baseQuantity 基本单位」,
 * entered in whichever direction is exact — 「1 套 = 0.235 kg」 is unitQuantity 0.235 (kg) and
 * baseQuantity 1 (套); 「1 箱 = 100 套」 is 1 and 100. No factor with six decimals stands between
 * them (1 ÷ 0.235 = 4.255319…), so nothing drifts through a rounded factor.
 *
 * The rounding rule (docs/architecture.md, "Unit conversion"): a quantity converts once per line,
 * quantity × baseQuantity ÷ unitQuantity, rounded half away from zero to the precision (小数位数)
 * of the unit it lands in, computed exactly: decimals as scaled BigInts (no binary float, no
 * rounded intermediate, and no decimal.js, so the forms that show conversions stay small).
 */

/** A decimal value: a string, a number, or anything whose `toString()` is one (a Decimal). */
type Num = string | number | { toString(): string };

/** unitQuantity of the unit = baseQuantity of the material's base unit. Decimal strings, both > 0. */
export interface UnitRatio {
  unitQuantity: string;
  baseQuantity: string;
}

/** The base unit itself: 1 = 1. */
export const SAME_UNIT: UnitRatio = { unitQuantity: '1', baseQuantity: '1' };

/** A decimal as digits × 10^-scale. */
interface Scaled {
  digits: bigint;
  scale: number;
}

/** Parses '12.5', '-0.235', '1e-7', 3 … exactly; throws on anything else. */
function scaled(v: Num): Scaled {
  const s = String(v).trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m || (m[2] === '' && !m[3])) throw new RangeError(`not a decimal: ${s}`);
  const frac = m[3] ?? '';
  let digits = BigInt(`${m[2] || '0'}${frac}`);
  let scale = frac.length - Number(m[4] ?? 0);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: m[1] === '-' ? -digits : digits, scale };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** digits × 10^-places as a fixed-point string with exactly `places` decimals. */
function fixed(digits: bigint, places: number): string {
  const negative = digits < 0n;
  const s = (negative ? -digits : digits).toString().padStart(places + 1, '0');
  const body = places > 0 ? `${s.slice(0, -places)}.${s.slice(-places)}` : s;
  return negative ? `-${body}` : body;
}

/** a × b, exactly. */
function times(a: Num, b: Num): string {
  const x = scaled(a);
  const y = scaled(b);
  return fixed(x.digits * y.digits, x.scale + y.scale);
}

/** Whether two decimals are equal, exactly. */
function same(a: Num, b: Num): boolean {
  const x = scaled(a);
  const y = scaled(b);
  const k = Math.max(x.scale, y.scale);
  return x.digits * pow10(k - x.scale) === y.digits * pow10(k - y.scale);
}

/**
 * numerator ÷ denominator rounded half away from zero to `places`, exactly: an integer division of
 * the scaled values, the remainder deciding (2 × remainder ≥ denominator rounds away from zero).
 */
export function roundRatio(numerator: Num, denominator: Num, places: number): string {
  const n = scaled(numerator);
  const d = scaled(denominator);
  if (d.digits === 0n) throw new RangeError('division by zero');
  const p = Math.max(0, places);
  // n ÷ d × 10^p = (N × 10^(sd + p)) ÷ (D × 10^sn)
  const a = (n.digits < 0n ? -n.digits : n.digits) * pow10(d.scale + p);
  const b = (d.digits < 0n ? -d.digits : d.digits) * pow10(n.scale);
  let q = a / b;
  if ((a - q * b) * 2n >= b) q += 1n;
  const negative = n.digits < 0n !== d.digits < 0n;
  return fixed(negative ? -q : q, p);
}

/** A quantity counted in a unit, in the base unit: q × base ÷ unit, to the base unit's precision. */
export function toBaseQuantity(quantity: Num, ratio: UnitRatio, basePrecision: number): string {
  return roundRatio(times(quantity, ratio.baseQuantity), ratio.unitQuantity, basePrecision);
}

/** A base-unit quantity counted in the unit: base × unit ÷ base, to the unit's precision. */
export function fromBaseQuantity(base: Num, ratio: UnitRatio, unitPrecision: number): string {
  return roundRatio(times(base, ratio.unitQuantity), ratio.baseQuantity, unitPrecision);
}

/**
 * A base quantity as a quantity of the unit, when it is one exactly within the unit's precision
 * (an order's open 150 套 is 1.5 箱 of 100 only if 箱 takes one decimal): that quantity, or null.
 */
export function exactlyInUnit(base: Num, ratio: UnitRatio, unitPrecision: number): string | null {
  const inUnit = fromBaseQuantity(base, ratio, unitPrecision);
  // inUnit × baseQuantity = base × unitQuantity
  return same(times(inUnit, ratio.baseQuantity), times(base, ratio.unitQuantity)) ? inUnit : null;
}

/** How many base units one of the unit is, to `places` (a display and a ratio for BOM usage; never to convert stock). */
export function ratioFactor(ratio: UnitRatio, places = 10): string {
  return roundRatio(ratio.baseQuantity, ratio.unitQuantity, places);
}

/** Why a ratio cannot be stored, or null: both sides must be positive numbers. */
export function ratioProblem(ratio: { unitQuantity?: Num | null; baseQuantity?: Num | null }): string | null {
  for (const v of [ratio.unitQuantity, ratio.baseQuantity]) {
    if (v === null || v === undefined || v === '') return '请填写换算的两边数量';
    let d: Scaled;
    try {
      d = scaled(v);
    } catch {
      return '换算数量必须是数字';
    }
    if (d.digits <= 0n) return '换算数量必须大于 0';
  }
  return null;
}

/** A number as people write it: no trailing zeros ('0.235000' → '0.235', '100.000000' → '100'). */
function plain(v: Num): string {
  const x = scaled(v);
  const s = fixed(x.digits, x.scale);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** 1 of one unit in the other: 「= 4.255319」 when exact to `places`, else 「≈ 4.255319」. */
function perOne(numerator: Num, denominator: Num, places: number): string {
  const shown = roundRatio(numerator, denominator, places);
  return `${same(times(shown, denominator), numerator) ? '=' : '≈'} ${plain(shown)}`;
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
