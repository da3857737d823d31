import { type RawBuilder, sql } from 'kysely';
import type { AuthUser } from './auth/sessions.ts';
import type { Db } from './db/db.ts';
import { prepared } from './db/prepared.ts';

export interface AuditEntry {
  entity: string;
  entityId: string | number | null;
  action: string;
  before?: unknown;
  after?: unknown;
}

/**
 * The INSERT of one audit-log row, as a statement fragment: run it with `audit()`, or embed it
 * as a data-modifying CTE in a larger statement of the same transaction (stock posting does).
 */
export function auditInsert(
  user: AuthUser | undefined,
  entry: AuditEntry,
  requestId?: string,
): RawBuilder<unknown> {
  return sql`INSERT INTO audit_log (entity, entity_id, action, before_data, after_data, user_id, user_name, request_id)
             VALUES (${entry.entity}, ${entry.entityId === null ? null : String(entry.entityId)}, ${entry.action},
                     ${json(entry.before)}::jsonb, ${json(entry.after)}::jsonb, ${user?.id ?? null}, ${user?.userName ?? null},
                     ${requestId ?? null})`;
}

/** Appends an audit-log row; call it with the transaction that makes the change. */
export async function audit(
  db: Db,
  user: AuthUser | undefined,
  entry: AuditEntry,
  requestId?: string,
): Promise<void> {
  await prepared(auditInsert(user, entry, requestId)).execute(db);
}

/** Audit rows of many changes made at once (documents made in bulk), one statement per 1,000 rows. */
export async function auditMany(db: Db, rows: { user: AuthUser | undefined; entry: AuditEntry }[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const col = <T>(f: (r: (typeof part)[number]) => T) => part.map(f);
    await prepared(sql`
      INSERT INTO audit_log (entity, entity_id, action, before_data, after_data, user_id, user_name)
      SELECT * FROM unnest(${col((r) => r.entry.entity)}::text[],
                           ${col((r) => (r.entry.entityId === null ? null : String(r.entry.entityId)))}::text[],
                           ${col((r) => r.entry.action)}::text[], ${col((r) => json(r.entry.before))}::jsonb[],
                           ${col((r) => json(r.entry.after))}::jsonb[], ${col((r) => r.user?.id ?? null)}::bigint[],
                           ${col((r) => r.user?.userName ?? null)}::text[])`).execute(db);
  }
}

/** An audit row's before or after data as stored: JSON without secrets. */
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(strip(v)));

/** Never store secrets in the audit trail. */
function strip(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  const { passwordHash, passWord, password, ...rest } = data as Record<string, unknown>;
  return rest;
}
