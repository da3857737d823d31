import { sql } from 'kysely';
import type { Db } from '../db/db.ts';

/** The one PostgreSQL channel of the live screens. */
export const LIVE_CHANNEL = 'ringmes_live';

/** What changed: a kind of record and, when known, the workshop kind it belongs to. */
export interface LiveEvent {
  /** `work-report`, `dispatch`, `repair`. */
  topic: string;
  /** The workshop kind (`machine`, …); absent when the change may touch every workshop. */
  workshop?: string | null;
}

/**
 * Tells every server process that something the live screens show changed. Called inside the
 * writing transaction: PostgreSQL delivers the notification on commit (never on rollback) to
 * every connection listening on the channel, and folds identical notifications of one
 * transaction into one.
 */
export async function liveNotify(db: Db, event: LiveEvent): Promise<void> {
  const payload = JSON.stringify({ t: event.topic, w: event.workshop ?? null });
  await sql`SELECT pg_notify(${LIVE_CHANNEL}, ${payload})`.execute(db);
}

export function parseLiveEvent(payload: string): LiveEvent | undefined {
  try {
    const v = JSON.parse(payload);
    if (typeof v?.t !== 'string') return undefined;
    return { topic: v.t, workshop: typeof v.w === 'string' ? v.w : null };
  } catch {
    return undefined;
  }
}
