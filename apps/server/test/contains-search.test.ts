import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// Contains-filters on the big master tables are served by trigram indexes (migration 0032), on
// PGlite as on PostgreSQL: the extension loads, the indexes exist, and the planner can use them.
describe('contains-search indexes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('loads pg_trgm and indexes the searched columns of materials, customers, suppliers, equipment and users', async () => {
    const ext = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`.execute(t.database.db);
    expect(ext.rows[0].n).toBe(1);
    const idx = await sql<{
      indexname: string;
    }>`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%\_trgm'`.execute(t.database.db);
    expect(idx.rows.map((r) => r.indexname).sort()).toEqual(
      [
        'app_user_first_name_trgm',
        'app_user_user_name_trgm',
        'customer_code_trgm',
        'customer_name_trgm',
        'equipment_code_trgm',
        'equipment_name_trgm',
        'material_code_trgm',
        'material_name_trgm',
        'material_spec_trgm',
        'supplier_code_trgm',
        'supplier_name_trgm',
      ].sort(),
    );
  });

  it('answers a material contains-filter through the trigram index, and finds the same rows', async () => {
    const token = await t.login();
    const db = t.database.db;
    // 50,000 materials, analysed, so the planner weighs the indexes on real statistics.
    await sql`INSERT INTO material_type (code, name) VALUES ('TRGM', '测试类型')`.execute(db);
    await sql`INSERT INTO material_unit (code, name) VALUES ('TRGM', '个')`.execute(db);
    await sql`INSERT INTO material (code, name, material_type_id, unit_id)
      SELECT 'T' || i, (ARRAY['深沟球轴承','圆锥滚子轴承','内圈','外圈'])[1 + i % 4] || ' ' || (6000 + i % 700),
        (SELECT id FROM material_type WHERE code = 'TRGM'), (SELECT id FROM material_unit WHERE code = 'TRGM')
      FROM generate_series(1, 50000) i`.execute(db);
    await sql`ANALYZE material`.execute(db);
    // Whether a sequential scan is cheaper at this size depends on the sampled statistics; with
    // it ruled out, the planner must still prefer the trigram index to a full scan of any other.
    const plan = await db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('enable_seqscan', 'off', true)`.execute(trx);
      return sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM material WHERE name ILIKE '%6204%'`.execute(
        trx,
      );
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('material_name_trgm');
    const page = await t.call('GET', '/api/v1/material-info/page', {
      token,
      query: { pageNum: 1, pageSize: 50, name: '6204' },
    });
    expect(page.status).toBe(200);
    const direct = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM material WHERE name ILIKE '%6204%'`.execute(db);
    expect(direct.rows[0].n).toBe(72);
    expect(page.body.result.total).toBe(72);
    expect(page.body.result.list.every((m: { name: string }) => m.name.includes('6204'))).toBe(true);
  });
});
