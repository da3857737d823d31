import type { AuthUser } from './auth/sessions.ts';
import type { Db } from './db/db.ts';

export interface AuditEntry {
  entity: string;
  entityId: string | number | null;
  action: string;
  before?: unknown;
  after?: unknown;
}

/** Appends an audit-log row; call it with the transaction that makes the change. */
export async function audit(
  db: Db,
  user: AuthUser | undefined,
  entry: AuditEntry,
  requestId?: string,
): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      entity: entry.entity,
      entityId: entry.entityId === null ? null : String(entry.entityId),
      action: entry.action,
      beforeData: entry.before === undefined ? null : JSON.stringify(strip(entry.before)),
      afterData: entry.after === undefined ? null : JSON.stringify(strip(entry.after)),
      userId: user?.id ?? null,
      userName: user?.userName ?? null,
      requestId: requestId ?? null,
    })
    .execute();
}

/** Never store secrets in the audit trail. */
function strip(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data;
  const { passwordHash, passWord, password, ...rest } = data as Record<string, unknown>;
  return rest;
}
