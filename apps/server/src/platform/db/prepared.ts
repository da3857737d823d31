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
  // Text → name, in order of use (a Map iterates in insertion order; a hit moves to the end).
  const named = new Map<string, string>();
  const connection = (client as unknown as { connection: NamedStatements }).connection;
  const nameOf = (text: string) => {
    let name = named.get(text);
    if (name) {
      named.delete(text);
      named.set(text, name);
      return name;
    }
    if (named.size >= max) {
      const [oldest, old] = named.entries().next().value as [string, string];
      named.delete(oldest);
      delete connection.parsedStatements[old];
      delete connection.submittedNamedStatements?.[old];
      // Queued before the statement that takes its place. In a failed transaction it fails too
      // (so does what follows): the statement stays on the server under a name not used again.
      query.call(client, `DEALLOCATE ${old}`).catch(() => undefined);
    }
    name = `ringmes_${++serial}`;
    named.set(text, name);
    return name;
  };
  client.query = function (this: pg.PoolClient, text: unknown, ...rest: any[]) {
    if (typeof text === 'string' && isMarked(text) && Array.isArray(rest[0]))
      return query.call(this, { name: nameOf(text), text, values: rest[0] }, ...rest.slice(1));
    return query.call(this, text, ...rest);
  } as any;
}
