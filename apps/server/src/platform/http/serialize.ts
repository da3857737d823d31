/**
 * Formats every Date in an answer as `YYYY-MM-DD HH:mm:ss` in the configured time zone. Dates are
 * replaced in a copy before `JSON.stringify` runs without a replacer (a replacer function takes
 * V8 off its fast path: several times slower on list pages); formatted instants are memoised.
 */
export function makeSerializer(timeZone: string) {
  const fmt = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const memo = new Map<number, string>();
  const formatDate = (d: Date): string | null => {
    const t = d.getTime();
    if (Number.isNaN(t)) return null;
    let s = memo.get(t);
    if (s === undefined) {
      s = fmt.format(d);
      if (memo.size >= 10_000) memo.clear();
      memo.set(t, s);
    }
    return s;
  };
  const convert = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof Date) return formatDate(v);
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const c = convert(v[i]);
        if (c !== v[i]) {
          out ??= v.slice();
          out[i] = c;
        }
      }
      return out ?? v;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v; // Buffer, Map, class instances: as before
    let out: Record<string, unknown> | undefined;
    for (const k in v as Record<string, unknown>) {
      const raw = (v as Record<string, unknown>)[k];
      // Most values of a row are strings, numbers or null: no call for those.
      if (raw === null || typeof raw !== 'object') continue;
      const c = raw instanceof Date ? formatDate(raw) : convert(raw);
      if (c !== raw) {
        out ??= { ...(v as Record<string, unknown>) };
        out[k] = c;
      }
    }
    return out ?? v;
  };
  return (payload: unknown) => JSON.stringify(convert(payload));
}
