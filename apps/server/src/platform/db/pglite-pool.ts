import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

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
      const r = await db.query(sql, parameters as unknown[], { rowMode: 'object' });
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
