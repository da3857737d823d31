/** A decimal string or number as [digits, scale]; undefined when it is no number. */
function parse(v: number | string): [bigint, number] | undefined {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const frac = m[3] ?? '';
  const digits = BigInt(`${m[2] || '0'}${frac}`);
  return [m[1] === '-' ? -digits : digits, frac.length];
}

/**
 * A line's amount as the server computes it (`priceOrder`): quantity × unit price, rounded once
 * to the fen, half away from zero, in exact decimals (never binary floats). Undefined while
 * either is missing.
 */
export function lineAmount(
  quantity: number | string | null | undefined,
  price: number | string | null | undefined,
): string | undefined {
  if (quantity == null || quantity === '' || price == null || price === '') return undefined;
  const q = parse(quantity);
  const p = parse(price);
  if (!q || !p) return undefined;
  const digits = q[0] * p[0];
  const scale = q[1] + p[1];
  let fen: bigint;
  if (scale <= 2) fen = digits * 10n ** BigInt(2 - scale);
  else {
    const div = 10n ** BigInt(scale - 2);
    const neg = digits < 0n;
    const abs = neg ? -digits : digits;
    const r = (abs + div / 2n) / div;
    fen = neg ? -r : r;
  }
  const neg = fen < 0n;
  const s = (neg ? -fen : fen).toString().padStart(3, '0');
  return `${neg ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}
