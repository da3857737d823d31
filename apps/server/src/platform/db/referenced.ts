import { conflict } from '../errors.ts';
import type { Db } from './db.ts';

/**
 * The "not while referenced" rule of a delete that the database's foreign keys do not say in the
 * user's words: 409 with `message` while a row of `table` still names `id` in `column` (a
 * department's sub-departments and users, a menu's children). One probe on the column's index.
 */
export async function refuseWhileReferenced(
  db: Db,
  { table, column, id }: { table: string; column: string; id: number },
  message: string,
): Promise<void> {
  const used = await db.selectFrom(table).select('id').where(column, '=', id).limit(1).executeTakeFirst();
  if (used) throw conflict(message);
}
