import { sql } from 'kysely';
import type { Db } from './db/db.ts';

/**
 * Next document number of a type for a day, e.g. `XS20261122-0001`. The counter row is created
 * or incremented by one atomic statement, so concurrent callers never receive the same number;
 * call it inside the transaction that saves the document so an aborted save leaves no gap.
 */
export async function nextDocNo(
  db: Db,
  prefix: string,
  timeZone = 'Asia/Shanghai',
  at = new Date(),
): Promise<string> {
  const day = businessDay(at, timeZone);
  const r = await sql<{ value: number }>`
    INSERT INTO doc_counter (doc_type, day, value) VALUES (${prefix}, ${day}, 1)
    ON CONFLICT (doc_type, day) DO UPDATE SET value = doc_counter.value + 1
    RETURNING value`.execute(db);
  const n = r.rows[0].value;
  return `${prefix}${day.replaceAll('-', '')}-${String(n).padStart(n > 9999 ? 5 : 4, '0')}`;
}

/** Noon of a business date in the factory's zone: the instant its document number is dated by. */
export const dayInstant = (day: string) => new Date(`${day}T12:00:00+08:00`);

/** The calendar day of an instant in the factory's time zone, as `YYYY-MM-DD`. */
export function businessDay(at = new Date(), timeZone = 'Asia/Shanghai'): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
