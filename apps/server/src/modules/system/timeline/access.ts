import { columnOf, permissionsFor, RESOURCES, type ResourceDef } from '@ringmes/domain';
import { sql } from 'kysely';
import { type AuthUser, can } from '../../../platform/auth/sessions.ts';
import type { Db } from '../../../platform/db/db.ts';
import { forbidden, notFound } from '../../../platform/errors.ts';
import { targetOfResource } from '../../../platform/resource/refs.ts';
import { assertInScope } from '../../../platform/resource/scope.ts';

/**
 * Who may see a record's timeline (and comment on it, attach files to it): whoever may read the
 * record — its resource's list permission, resource-wide or in the record's scope, and the owner
 * rule (an operator sees his own reports only). The same rule as `GET …/info/{id}`.
 */

const BY_NAME = new Map(RESOURCES.map((d) => [d.name, d]));

/** The declaration named in a URL; 404 for an unknown name, 403 without any read permission of it. */
export function readableResource(user: AuthUser, name: string): ResourceDef {
  const def = BY_NAME.get(name);
  if (!def) throw notFound('没有这类单据或档案');
  if (!mayList(user, def)) throw forbidden(`没有查看${def.label}的权限`);
  return def;
}

/** Does the user hold a read permission of `def` (resource-wide or for some scope)? */
export const mayList = (user: AuthUser, def: ResourceDef) =>
  permissionsFor(def, 'list').some((p) => can(user, p));

/** What the timeline needs of a record: its id, number or code, name, and the fields its scope and owner rules read. */
export interface RecordHead {
  id: number;
  /** The document number or the code (`XS20261122-0001`, `6204-2RS`). */
  code: string | null;
  /** The record's name where it has one besides its code. */
  name: string | null;
  [field: string]: unknown;
}

/** Reads a record's head and checks that the user may read it (404 when missing, 403 outside his scope). */
export async function readableRecord(
  db: Db,
  user: AuthUser,
  def: ResourceDef,
  id: number,
): Promise<RecordHead> {
  const t = targetOfResource(def);
  const extra = [def.scopedPermissions?.field, def.owner?.field].filter((f): f is string => Boolean(f));
  const row = (
    await sql<RecordHead>`
      SELECT id, ${t.code ? sql.ref(t.code) : sql`NULL`}::text AS code,
             ${t.label !== t.code ? sql.ref(t.label) : sql`NULL`}::text AS name
             ${sql.join(
               extra.map((f) => sql`, ${sql.ref(columnOf(f))} AS ${sql.ref(f)}`),
               sql``,
             )}
        FROM ${sql.table(def.table)} WHERE id = ${id}`.execute(db)
  ).rows[0];
  if (!row) throw notFound(`${def.label}不存在或已被删除`);
  assertInScope(user, def, 'list', { ...row, docNo: row.code });
  return { ...row, id: Number(row.id) };
}

/** A record's title as messages and the timeline show it: `销售订单 XS20261122-0001`. */
export const recordTitle = (def: ResourceDef, head: RecordHead) =>
  `${def.label} ${[head.code, head.name].filter(Boolean).join(' ') || `#${head.id}`}`;
