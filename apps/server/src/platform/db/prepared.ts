import { type RawBuilder, sql } from 'kysely';
import type pg from 'pg';

/**
 * Hot statements of a fixed shape (stock posting) run as named prepared statements on
 * PostgreSQL: each connection parses them once and may reuse a generic plan, which saves the
 * server most of the parse and plan work per call. `prepared(query)` marks a statement with a
 * leading comment; `namePreparedStatements(client)` turns marked texts into named statements.
 * Everything else runs as before. On PGlite, where parsing and planning cost more, the pool names
 * every statement with parameters (platform/db/pglite-pool.ts).
 */
const MARK = '/*prepared*/';
/**
 * How many marked texts each connection keeps named: the most recently used; the oldest is
 * deallocated to make room. A statement first seen late in a long day (or in a test worker whose
 * files marked many) is named like any other, and no set of shapes grows without end.
 */
export const MAX_NAMES = 200;
/** Names are never reused on a connection (a failed DEALLOCATE leaves its statement behind). */
let serial = 0;

export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`/*prepared*/ ${query}`;
}

/** The same mark for a query builder's select: `.modifyFront(PREPARED)` puts it right after `select`. */
export const PREPARED = sql.raw(MARK);
const MARK_AFTER_SELECT = `select ${MARK}`;
/** A statement text marked by `prepared` or `PREPARED`. */
export const isMarked = (text: string) => text.startsWith(MARK) || text.startsWith(MARK_AFTER_SELECT);

/** node-postgres' record of the names a connection has parsed (or sent to be parsed). */
interface NamedStatements {
  parsedStatements: Record<string, string>;
  submittedNamedStatements?: Record<string, string>;
}

export function namePreparedStatements(client: pg.PoolClient, max = MAX_NAMES) {
  const query = client.query as (...args: any[]) => any;
  // Text → its name and when it was last used (one lookup of the long text per call; the least
  // recently used is looked for only when a new text needs room).
  const named = new Map<string, { name: string; used: number }>();
  let tick = 0;
  const connection = (client as unknown as { connection: NamedStatements }).connection;
  const nameOf = (text: string) => {
    const hit = named.get(text);
    if (hit) {
      hit.used = ++tick;
      return hit.name;
    }
    if (named.size >= max) {
      let oldest: string | undefined;
      let least = Number.POSITIVE_INFINITY;
      for (const [t, e] of named) {
        if (e.used < least) {
          least = e.used;
          oldest = t;
        }
      }
      const old = (named.get(oldest as string) as { name: string }).name;
      named.delete(oldest as string);
      delete connection.parsedStatements[old];
      delete connection.submittedNamedStatements?.[old];
      // Queued before the statement that takes its place. In a failed transaction it fails too
      // (so does what follows): the statement stays on the server under a name not used again.
      query.call(client, `DEALLOCATE ${old}`).catch(() => undefined);
    }
    const name = `ringmes_${++serial}`;
    named.set(text, { name, used: ++tick });
    return name;
  };
  client.query = function (this: pg.PoolClient, text: unknown, ...rest: any[]) {
    if (typeof text === 'string' && isMarked(text) && Array.isArray(rest[0]))
      return query.call(this, { name: nameOf(text), text, values: rest[0] }, ...rest.slice(1));
    return query.call(this, text, ...rest);
  } as any;
}
