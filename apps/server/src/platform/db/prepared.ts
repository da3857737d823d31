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
export const MAX_NAMES = 200;
const names = new Map<string, string>();

export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`/*prepared*/ ${query}`;
}

/** The same mark for a query builder's select: `.modifyFront(PREPARED)` puts it right after `select`. */
export const PREPARED = sql.raw(MARK);
const MARK_AFTER_SELECT = `select ${MARK}`;
/** A statement text marked by `prepared` or `PREPARED`. */
export const isMarked = (text: string) => text.startsWith(MARK) || text.startsWith(MARK_AFTER_SELECT);

export function namePreparedStatements(client: pg.PoolClient) {
  const query = client.query as (...args: any[]) => any;
  client.query = function (this: pg.PoolClient, text: unknown, ...rest: any[]) {
    if (typeof text === 'string' && isMarked(text) && Array.isArray(rest[0])) {
      let name = names.get(text);
      // A bounded set: a statement that is not of a fixed shape must not grow it without end.
      if (!name && names.size < MAX_NAMES) {
        name = `ringmes_${names.size + 1}`;
        names.set(text, name);
      }
      if (name) return query.call(this, { name, text, values: rest[0] }, ...rest.slice(1));
    }
    return query.call(this, text, ...rest);
  } as any;
}
