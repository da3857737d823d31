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
  const serialize = (payload: unknown) => JSON.stringify(convert(payload));

  /**
   * The text of `serialize` for an envelope whose `result` (or `result.list`) is a long array, as
   * pieces: the envelope up to the array, SLICE_ROWS rows at a time with a turn of the event loop
   * before each, then the rest. 3,200 work reports were one long synchronous stretch (the rows,
   * the string of megabytes, its copy to the socket), and each statement of every posting
   * waited it out. `turn` is awaited before each slice. Undefined: not long, `serialize` it.
   */
  const inSlices = (
    payload: { result?: unknown },
    turn: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve)),
  ): AsyncGenerator<string> | undefined => {
    const result = payload.result as { list?: unknown } | unknown[] | JsonRows | null | undefined;
    const list = result instanceof JsonRows || Array.isArray(result) ? result : result?.list;
    const rows = list instanceof JsonRows || Array.isArray(list) ? list : undefined;
    if (!rows || (Array.isArray(rows) && rows.length <= SLICE_ROWS)) return undefined;
    const shell =
      result === rows
        ? { ...payload, result: ROWS_MARK }
        : { ...payload, result: { ...result, list: ROWS_MARK } };
    const [head, tail] = serialize(shell).split(JSON.stringify(ROWS_MARK));
    return (async function* () {
      yield `${head}[`;
      if (rows instanceof JsonRows) {
        // Rows PostgreSQL wrote: joined, not parsed.
        for (let i = 0; i < rows.texts.length; i += JSON_SLICE_ROWS) {
          await turn();
          const text = rows.texts.slice(i, i + JSON_SLICE_ROWS).join(',');
          yield i ? `,${text}` : text;
        }
      } else {
        let first = true;
        for (let i = 0; i < rows.length; i += SLICE_ROWS) {
          await turn();
          const text = JSON.stringify(convert(rows.slice(i, i + SLICE_ROWS)));
          if (text.length <= 2) continue;
          yield first ? text.slice(1, -1) : `,${text.slice(1, -1)}`;
          first = false;
        }
      }
      yield `]${tail}`;
    })();
  };

  return Object.assign(serialize, { inSlices });
}

/** Rows written between two turns of the event loop (`inSlices`). */
const SLICE_ROWS = 200;
/** Rows of JSON text (`JsonRows`) joined between two turns of the event loop. */
const JSON_SLICE_ROWS = 1000;

/**
 * A list whose rows are JSON texts already in the answer's shape (written by PostgreSQL,
 * `platform/resource/all-rows-json.ts`): `inSlices` joins them as they are. Anything else that
 * serializes it (`toJSON`) gets the rows parsed.
 */
export class JsonRows {
  constructor(readonly texts: string[]) {}
  get length(): number {
    return this.texts.length;
  }
  toJSON(): unknown[] {
    return this.texts.map((t) => JSON.parse(t));
  }
}
/** Where the rows go in the text of a sliced answer's envelope. */
const ROWS_MARK = '\u0000rows\u0000';
