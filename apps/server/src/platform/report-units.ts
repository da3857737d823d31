import Decimal from 'decimal.js';

/**
 * Quantities per unit for a report's rows and totals. `sums` holds, per row key and base unit,
 * `n` (facts) and each measure's sum; each row and the totals get `units` — per measure its sums
 * per unit, most facts first — and keep the measure's own figure only when one unit is summed:
 * 件 and kg never make one figure (null otherwise). Ratios are taken before, from the plain sums.
 */
export function attachUnits(
  measures: string[],
  report: { rows: Record<string, any>[]; totals: Record<string, any> },
  sums: Record<string, any>[],
) {
  const perKey = new Map<string, Record<string, any>[]>();
  for (const s of sums) {
    const list = perKey.get(s.key);
    if (list) list.push(s);
    else perKey.set(s.key, [s]);
  }
  const total = new Map<string, { n: number; sums: Record<string, Decimal> }>();
  for (const s of sums) {
    const t = total.get(s.unitName) ?? { n: 0, sums: {} };
    t.n += s.n;
    for (const m of measures) t.sums[m] = (t.sums[m] ?? new Decimal(0)).plus(s[m]);
    total.set(s.unitName, t);
  }
  const attach = (
    row: Record<string, any>,
    list: { unitName: string; n: number; sums: Record<string, string> }[],
  ) => {
    list.sort((a, b) => b.n - a.n || (a.unitName < b.unitName ? -1 : a.unitName > b.unitName ? 1 : 0));
    row.units = Object.fromEntries(
      measures.map((m) => [
        m,
        list
          .map((u) => ({ unitName: u.unitName, quantity: u.sums[m] }))
          .filter((u) => !new Decimal(u.quantity).isZero() || list.length === 1),
      ]),
    );
    for (const m of measures) if (row.units[m].length > 1) row[m] = null;
  };
  for (const r of report.rows)
    attach(
      r,
      (perKey.get(r.key) ?? []).map((s) => ({
        unitName: s.unitName,
        n: s.n,
        sums: Object.fromEntries(measures.map((m) => [m, s[m]])),
      })),
    );
  attach(
    report.totals,
    [...total].map(([unitName, t]) => ({
      unitName,
      n: t.n,
      sums: Object.fromEntries(measures.map((m) => [m, t.sums[m].toFixed()])),
    })),
  );
}
