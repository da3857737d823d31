import { createRequire } from 'node:module';
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

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
function pipelined(text: string, parameters: ReadonlyArray<unknown>): Uint8Array {
  const { serialize } = protocol;
  const parts = [
    serialize.parse({ text, types: [] }),
    serialize.bind({ values: parameters.map((v) => prepareValue(v)) as any[] }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

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
export function pglitePool(db: PGlite): PostgresPool {
  // PGlite's parsers by type OID, ours included, and those of the array types it reads at start.
  const { parsers } = db as unknown as { parsers: Record<number, (value: string) => unknown> };
  let busy = false;
  const waiters: Array<() => void> = [];

  const client: PostgresPoolClient = {
    async query(sql: string, parameters: ReadonlyArray<unknown>) {
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
      const messages = await db.runExclusive(() =>
        db.execProtocolStream(pipelined(sql, parameters), { syncToFs: false }),
      );
      const r = parse.parseResults(messages, parsers as any, { rowMode: 'object' })[0];
      return {
        command: (r as any).command,
        rowCount: r.affectedRows ?? r.rows.length,
        rows: r.rows as any[],
      };
    },
    release() {
      const next = waiters.shift();
      if (next) next();
      else busy = false;
    },
  } as PostgresPoolClient;

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
