import { createRequire } from 'node:module';
import { type PGlite, protocol, types } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { Parser } from 'pg-protocol/dist/parser.js';

/** node-postgres's own text form of a parameter (arrays, dates, JSON, buffers as binary). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown;
};

/**
 * One statement with bound parameters as a single pipelined message — Parse, Bind, Describe,
 * Execute, Sync — the way a network client sends it, so PGlite runs it in one pass through its
 * WebAssembly backend. (PGlite's own `query` makes six passes, one per message, and a Describe of
 * the statement first to pick the parameters' serialisers; node-postgres's text forms need none:
 * PostgreSQL infers each parameter's type from the statement, as it does for the server mode.)
 */
function pipelined(
  text: string,
  parameters: ReadonlyArray<unknown>,
  statement: { name: string; parse: boolean; evict?: string },
): Uint8Array {
  const { serialize } = protocol;
  const parts = [
    // Closing a statement works in an aborted transaction too, and a missing one is no error.
    ...(statement.evict ? [serialize.close({ type: 'S', name: statement.evict })] : []),
    ...(statement.parse ? [serialize.parse({ text, name: statement.name, types: [] })] : []),
    serialize.bind({ statement: statement.name, values: parameters.map((v) => prepareValue(v)) as any[] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ];
  return concat(parts);
}

/** Protocol messages sent as one. */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The commands whose row counts make `affectedRows` (as PGlite's `parseResults` sums them). */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** PGlite's parsers by type OID, for the types the instance's own set leaves to them. */
const DEFAULT_PARSERS = types.parsers as unknown as Record<number, (value: string, oid: number) => unknown>;

/**
 * The answer to one pipelined statement, read from the backend's raw messages with node-postgres's
 * protocol parser (Buffer strings; PGlite's own parser copied every field into a new buffer for a
 * TextDecoder, a large share of the embedded server's CPU under a list load), values by PGlite's parsers
 * (ours included), as PGlite's `parseResults` reads them: rows as objects, the rows affected by
 * INSERT, UPDATE, DELETE, COPY and MERGE. An error answer is thrown; notifications are handed on.
 */
function readResult(
  chunks: Buffer[],
  parsers: Record<number, (value: string, oid: number) => unknown>,
  onNotification: (channel: string, payload: string) => void,
) {
  const parser = new Parser();
  let fields: { name: string; dataTypeID: number }[] = [];
  const rows: Record<string, unknown>[] = [];
  let command: string | undefined;
  let affectedRows = 0;
  let error: unknown;
  const onMessage = (m: any) => {
    switch (m.name) {
      case 'rowDescription':
        fields = m.fields;
        break;
      case 'dataRow': {
        const row: Record<string, unknown> = {};
        const values: (string | null)[] = m.fields;
        for (let i = 0; i < values.length; i++) {
          const v = values[i];
          const f = fields[i];
          const read = parsers[f.dataTypeID] ?? DEFAULT_PARSERS[f.dataTypeID];
          row[f.name] = v === null ? null : read ? read(v, f.dataTypeID) : v;
        }
        rows.push(row);
        break;
      }
      case 'commandComplete': {
        const words = String(m.text).split(' ');
        command = words[0];
        if (COUNTED.has(command)) affectedRows += Number.parseInt(words[words.length - 1], 10) || 0;
        break;
      }
      case 'error':
        error ??= m;
        break;
      case 'notification':
        queueMicrotask(() => onNotification(m.channel, m.payload));
        break;
    }
  };
  for (const c of chunks) parser.parse(c, onMessage);
  if (error) throw error;
  return { command, affectedRows, rows };
}

/** How many statement texts stay named on the PGlite backend (more than the demo seed uses; each keeps its plans). */
export const NAMES = 1000;

/**
 * A turn of the event loop. PGlite runs each statement synchronously in WebAssembly; awaited one
 * after another (a transaction's statements, the queue of waiting requests) they would hold the
 * loop for the whole queue, and timers, sockets and other requests' parsing would wait behind it.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Presents one PGlite instance as a Kysely `PostgresPool` of size one. PGlite is a single
 * backend, so a connection is handed to one user at a time (a transaction keeps it until it
 * commits); other callers queue. This keeps "one SQL dialect": Kysely's Postgres driver runs
 * the same statements here and on a real server. Every statement first gives the event loop a
 * turn (`nextTurn`), so the loop is never held longer than one statement.
 */
type RunQuery = (
  sql: string,
  parameters: ReadonlyArray<unknown>,
) => Promise<{ command: string; rowCount: number; rows: any[] }>;

/**
 * Kysely's `stream` on the embedded database: the statement runs whole at the first read (one
 * backend, nothing to gain from a portal) and the rows are handed out in the batches asked for.
 */
export class PgliteCursor {
  private rows?: any[];
  private next = 0;
  private runQuery?: RunQuery;

  constructor(
    private readonly text: string,
    private readonly values: unknown[],
  ) {}

  on(runQuery: RunQuery): this {
    this.runQuery = runQuery;
    return this;
  }

  async read(n: number): Promise<any[]> {
    if (!this.runQuery) throw new Error('cursor not submitted');
    this.rows ??= (await this.runQuery(this.text, this.values)).rows;
    const out = this.rows.slice(this.next, this.next + n);
    this.next += out.length;
    return out;
  }

  async close(): Promise<void> {
    this.rows = [];
  }
}

export function pglitePool(
  db: PGlite,
  names = NAMES,
  onNotification: (channel: string, payload: string) => void = () => {},
): PostgresPool {
  // PGlite's parsers by type OID, ours included, and those of the array types it reads at start.
  const { parsers } = db as unknown as { parsers: Record<number, (value: string) => unknown> };
  // Every statement with parameters is parsed once on this backend and then only bound, as a
  // driver that prepares statements does: PostgreSQL plans the first runs for their values and
  // then settles on a generic plan where it costs no more. In WebAssembly parsing and planning are
  // a large part of a short statement (the demo seed runs markedly faster; bench cold-start). The
  // names are kept for the most recently used texts; the oldest is closed to make room.
  const named = new Map<string, string>();
  let serial = 0;
  const statementFor = (text: string) => {
    const known = named.get(text);
    if (known) {
      named.delete(text);
      named.set(text, known);
      return { name: known, parse: false };
    }
    let evict: string | undefined;
    if (named.size >= names) {
      const [oldest, name] = named.entries().next().value as [string, string];
      named.delete(oldest);
      evict = name;
    }
    return { name: `ringmes_${++serial}`, parse: true, evict };
  };
  const run = async (text: string, parameters: ReadonlyArray<unknown>) => {
    const statement = statementFor(text);
    try {
      const chunks: Buffer[] = [];
      await db.runExclusive(() =>
        db.execProtocolRawStream(pipelined(text, parameters, statement), {
          syncToFs: false,
          // A view of WebAssembly memory, valid during the call: copied.
          onRawData: (data) => chunks.push(Buffer.from(data)),
        }),
      );
      const result = readResult(chunks, parsers, onNotification);
      if (statement.parse && statement.name) named.set(text, statement.name);
      return result;
    } catch (err) {
      // A first run that failed may or may not have left its statement: close it either way.
      if (statement.parse && statement.name) {
        const message = concat([
          protocol.serialize.close({ type: 'S', name: statement.name }),
          protocol.serialize.sync(),
        ]);
        await db
          .runExclusive(() => db.execProtocolStream(message, { syncToFs: false, throwOnError: false }))
          .catch(() => undefined);
      }
      throw err;
    }
  };
  let busy = false;
  const waiters: Array<() => void> = [];

  const runQuery: RunQuery = async (sql, parameters) => {
    await nextTurn();
    // Like node-postgres: no parameters → simple protocol, which also runs several statements
    // (migrations); otherwise the extended protocol with bound parameters.
    if (parameters.length === 0) {
      const results = await db.exec(sql, { rowMode: 'object' });
      const last = results[results.length - 1];
      return {
        command: (last as any)?.command,
        rowCount: last?.affectedRows ?? 0,
        rows: (last?.rows ?? []) as any[],
      };
    }
    const r = await run(sql, parameters);
    return {
      command: (r as any).command,
      rowCount: r.affectedRows ?? r.rows.length,
      rows: r.rows as any[],
    };
  };

  const client = {
    query(sql: string | PgliteCursor, parameters: ReadonlyArray<unknown>) {
      // Kysely's `stream` hands over a cursor and reads it in batches.
      if (sql instanceof PgliteCursor) return sql.on(runQuery);
      return runQuery(sql, parameters);
    },
    release() {
      const next = waiters.shift();
      if (next) next();
      else busy = false;
    },
  } as unknown as PostgresPoolClient;

  return {
    async connect() {
      if (!busy) {
        busy = true;
        return client;
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
      return client;
    },
    async end() {
      await db.close();
    },
  };
}
