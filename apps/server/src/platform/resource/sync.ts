import type { ResourceDef } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { badRequest } from '../errors.ts';
import type { App } from '../http/route.ts';
import { route } from '../http/route.ts';
import { baseQuery } from './query.ts';
import { gate, hideFields, inScope } from './scope.ts';

/**
 * Sync (issue 44 §5): what changed in a resource's list since a moment, for a client that keeps
 * a copy (a finance system, a terminal) instead of reading whole lists again.
 *
 * - Rows come in the order of (updated_at, id), `limit` at a time; `nextCursor` continues after
 *   the last one (microseconds and id, so rows written in the same millisecond are not lost).
 * - `deleted` names the records deleted since `updatedSince` (from the audit log, kept as long as
 *   it is: RETAIN_AUDIT_DAYS); it comes with the first page only.
 * - `syncFrom` is the `updatedSince` of the next round: the database time of this read less a
 *   margin, so a transaction that was still open during the read (its rows carry its start time)
 *   is read next time. A row can therefore come twice; its `version` tells which copy is newer.
 */
export const SYNC_MAX_LIMIT = 500;
/** How far before the read the next round starts (longest expected write transaction). */
export const SYNC_MARGIN_SECONDS = 60;
/** Deletions named in one answer at most; more is a sign the client should read the list whole. */
export const SYNC_MAX_DELETED = 5000;

const cursorSchema = z
  .string()
  .regex(/^\d{1,19}\.\d{1,19}$/, '游标不正确')
  .optional();

export const syncQuery = z.strictObject({
  updatedSince: z.iso.datetime({
    offset: true,
    error: '更新时间格式不正确，应为 ISO 8601（如 2026-11-29T08:00:00+08:00）',
  }),
  cursor: cursorSchema,
  limit: z.coerce
    .number({ error: '条数不正确' })
    .int('条数不正确')
    .min(1, '条数不正确')
    .max(SYNC_MAX_LIMIT, `条数最多 ${SYNC_MAX_LIMIT}`)
    .optional(),
});

export function syncAnswerSchema(row: z.ZodType): z.ZodType {
  return z.object({
    list: z.array(row),
    deleted: z.array(z.object({ id: z.string(), deletedAt: z.string() })),
    hasMore: z.boolean(),
    nextCursor: z.string().nullable(),
    syncFrom: z.string(),
  });
}

export function registerSync(app: App, def: ResourceDef, row: z.ZodType) {
  route(app, {
    method: 'GET',
    url: `/api/v1/${def.name}/changes`,
    ...gate(def, 'list'),
    query: syncQuery,
    response: z.lazy(() => syncAnswerSchema(row)),
    async handler({ query, user, app: { db } }) {
      const limit = query.limit ?? 100;
      const since = sql`${query.updatedSince}::timestamptz`;
      const at = (us: string) => sql`(timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond')`;
      let q = inScope(baseQuery(db, def), user, def, 'list')
        .select(sql<string>`(extract(epoch FROM t.updated_at) * 1000000)::bigint::text`.as('sync_us'))
        .where(sql<boolean>`t.updated_at > ${since}`);
      if (query.cursor) {
        const [us, id] = query.cursor.split('.');
        q = q.where(sql<boolean>`(t.updated_at, t.id) > (${at(us)}, ${id}::bigint)`);
      }
      const rows = (await q
        .orderBy(sql.ref('t.updated_at'))
        .orderBy(sql.ref('t.id'))
        .limit(limit + 1)
        .execute()) as Record<string, any>[];
      const hasMore = rows.length > limit;
      const list = rows.slice(0, limit);
      const last = list.at(-1);
      const nextCursor = hasMore && last ? `${last.syncUs}.${last.id}` : null;
      for (const r of list) delete r.syncUs;
      let deleted: { id: string; deletedAt: string }[] = [];
      if (!query.cursor) {
        const gone = await sql<{ id: string; deletedAt: string }>`
          SELECT entity_id AS id, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "deletedAt"
            FROM audit_log
           WHERE entity = ${def.name} AND action = 'delete' AND at > ${since}
           ORDER BY at, id
           LIMIT ${SYNC_MAX_DELETED + 1}`.execute(db);
        if (gone.rows.length > SYNC_MAX_DELETED)
          throw badRequest(`删除的记录超过 ${SYNC_MAX_DELETED} 条，请整表重新读取`);
        deleted = gone.rows;
      }
      const { rows: now } = await sql<{ syncFrom: string }>`
        SELECT to_char((now() - ${SYNC_MARGIN_SECONDS} * interval '1 second') AT TIME ZONE 'UTC',
                       'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "syncFrom"`.execute(db);
      return { list: hideFields(user, def, list), deleted, hasMore, nextCursor, syncFrom: now[0].syncFrom };
    },
  });
}
