import { sql } from 'kysely';
import type { Database, Db } from './db.ts';

/**
 * The embedded database is PostgreSQL in single-user mode: no autovacuum, so no statistics and
 * no dead rows reclaimed unless the application asks. Without statistics the planner guesses, and
 * guesses badly: the 待检验 recipients query on the demo data was many times slower than once
 * analysed. So, on PGlite only:
 * - at start, a database with no statistics of its own tables is analysed (after the server
 *   listens, so requests in that moment wait for it);
 * - every six hours, VACUUM (ANALYZE): what autovacuum would have done meanwhile.
 * On PostgreSQL the server's autovacuum does this.
 */
export const PGLITE_VACUUM_MS = 6 * 60 * 60 * 1000;

/** Analyses the database when none of its tables has statistics yet; answers whether it did. */
export async function analyzeIfUnanalyzed(db: Db): Promise<boolean> {
  const r = await sql<{ has: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
                    WHERE c.relnamespace = 'public'::regnamespace) AS has`.execute(db);
  if (r.rows[0].has) return false;
  await sql`ANALYZE`.execute(db);
  return true;
}

export function startPgliteMaintenance(
  database: Database,
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void },
): () => void {
  if (database.kind !== 'pglite') return () => {};
  const timed = async (what: string, run: () => Promise<unknown>) => {
    const t0 = performance.now();
    try {
      if ((await run()) !== false) log.info({ ms: Math.round(performance.now() - t0) }, what);
    } catch (err) {
      log.error({ err }, `${what}失败`);
    }
  };
  void timed('内嵌数据库统计信息已生成', () => analyzeIfUnanalyzed(database.db));
  const timer = setInterval(
    () => void timed('内嵌数据库已清理并更新统计信息', () => sql`VACUUM (ANALYZE)`.execute(database.db)),
    PGLITE_VACUUM_MS,
  );
  timer.unref();
  return () => clearInterval(timer);
}
