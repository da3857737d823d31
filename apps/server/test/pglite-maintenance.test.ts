import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { analyzeIfUnanalyzed, startPgliteMaintenance } from '../src/platform/db/pglite-maintenance.ts';

/**
 * The embedded database has no autovacuum: a database without statistics is analysed once at
 * start (pglite-maintenance.ts), and then never again at start.
 */
let d: Database;
beforeAll(async () => {
  d = await openDatabase({ dataDir: 'memory://' });
  await sql`CREATE TABLE m (id bigint PRIMARY KEY, code text)`.execute(d.db);
  await sql`INSERT INTO m SELECT i, 'C' || i FROM generate_series(1, 500) i`.execute(d.db);
});
afterAll(() => d?.close());

const statistics = async () =>
  (
    await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 'public'`.execute(
      d.db,
    )
  ).rows[0].n;

describe('PGlite maintenance', () => {
  it('analyses a database that has no statistics at start, once, and only on PGlite', async () => {
    const lines: string[] = [];
    const log = {
      info: (_: object, m: string) => lines.push(m),
      error: (_: object, m: string) => lines.push(m),
    };
    expect(await statistics()).toBe(0);
    startPgliteMaintenance({ ...d, kind: 'postgres' }, log)();
    await new Promise((r) => setTimeout(r, 100));
    expect(await statistics()).toBe(0);

    const stop = startPgliteMaintenance(d, log);
    for (let i = 0; i < 50 && !lines.length; i++) await new Promise((r) => setTimeout(r, 100));
    stop();
    expect(lines).toEqual(['内嵌数据库统计信息已生成']);
    expect(await statistics()).toBe(2);
    expect(await analyzeIfUnanalyzed(d.db)).toBe(false);
  });
});
