import { toBaseQuantity as convert, type UnitRatio } from '@ringmes/domain';

/**
 * Exact quantity arithmetic for the screens, so what a form shows as you type is what the server
 * stores: base quantity = quantity × base ÷ unit of the unit's exact ratio, half away from zero to
 * the base unit's precision (`toBaseQuantity` in packages/domain, the server's round_ratio), shown
 * to the 4 places quantities are stored with. Decimals are carried as scaled BigInts or decimal.js,
 * never as binary floats.
 */

const SCALE = 4;

/** A decimal string or number as [digits, scale]; undefined when it is no number. */
function parse(v: number | string): [bigint, number] | undefined {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? v.toFixed(10) : '') : v.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const frac = m[3] ?? '';
  const digits = BigInt(`${m[2] || '0'}${frac}`);
  return [m[1] === '-' ? -digits : digits, frac.length];
}

/** Rounds [digits, scale] to 4 places, half away from zero. */
function round4([digits, scale]: [bigint, number]): bigint {
  if (scale <= SCALE) return digits * 10n ** BigInt(SCALE - scale);
  const div = 10n ** BigInt(scale - SCALE);
  const neg = digits < 0n;
  const abs = neg ? -digits : digits;
  const q = (abs + div / 2n) / div;
  return neg ? -q : q;
}

function format(scaled: bigint): string {
  const neg = scaled < 0n;
  const s = (neg ? -scaled : scaled).toString().padStart(SCALE + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`;
}

/**
 * A line's quantity in its material's base unit, converted once as posting converts it (4 places
 * shown), or undefined while the quantity or the unit's ratio is unknown.
 */
export function toBaseQuantity(
  quantity: number | string | null | undefined,
  ratio: UnitRatio | null | undefined,
  basePrecision: number,
): string | undefined {
  if (quantity === null || quantity === undefined || quantity === '' || !ratio) return undefined;
  const q = parse(quantity);
  if (!q) return undefined;
  return format(
    round4(
      parse(
        convert(typeof quantity === 'number' ? quantity.toFixed(10) : quantity, ratio, basePrecision),
      ) as [bigint, number],
    ),
  );
}

/** Compares two decimals: negative, zero or positive. */
export function compareQuantity(a: number | string, b: number | string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 0;
  const d = round4(x) - round4(y);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export interface UnitTotal {
  unitName: string;
  quantity: string;
}

/**
 * Quantities summed per unit, in the order each unit first appears: 粒, 件, g and 套 are never
 * added into one figure. Items without a quantity or a unit are left out.
 */
export function totalsByUnit(
  items: readonly { unitName?: string | null; quantity?: number | string | null }[],
): UnitTotal[] {
  const sums = new Map<string, bigint>();
  for (const it of items) {
    if (!it.unitName || it.quantity === null || it.quantity === undefined || it.quantity === '') continue;
    const p = parse(it.quantity);
    if (!p) continue;
    sums.set(it.unitName, (sums.get(it.unitName) ?? 0n) + round4(p));
  }
  return [...sums].map(([unitName, q]) => ({ unitName, quantity: format(q) }));
}

export interface Shortage {
  /** 1-based line numbers drawing from the same stock. */
  lines: number[];
  need: string;
  available: string;
}

/**
 * The lines that ask for more than their stock holds. Lines drawing from the same stock (same
 * key) are added up first: two lines of 60 from a heat of 100 are both short.
 */
export function shortages(
  lines: readonly { key?: string; need?: string }[],
  availableOf: (key: string) => string | undefined,
): Shortage[] {
  const groups = new Map<string, { lines: number[]; need: bigint }>();
  lines.forEach((l, i) => {
    if (!l.key || l.need === undefined) return;
    const p = parse(l.need);
    if (!p) return;
    const g = groups.get(l.key) ?? { lines: [], need: 0n };
    g.lines.push(i + 1);
    g.need += round4(p);
    groups.set(l.key, g);
  });
  const out: Shortage[] = [];
  for (const [key, g] of groups) {
    const have = availableOf(key);
    const h = have === undefined ? undefined : parse(have);
    if (h && g.need > round4(h))
      out.push({ lines: g.lines, need: format(g.need), available: format(round4(h)) });
  }
  return out;
}
