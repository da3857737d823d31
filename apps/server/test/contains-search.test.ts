import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseless } from '../src/platform/db/like.ts';
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
        // 全局搜索 by document number (migration 0073): one per numbered table.
        ...[
          'equipment_repair',
          'flow_card',
          'inspection_record',
          'inspection_task',
          'maintenance_record',
          'outsourcing_order',
          'payable',
          'payment',
          'production_order',
          'purchase_order',
          'purchase_requisition',
          'receipt',
          'receivable',
          'sale_order',
          'stock_inbound',
          'stock_outbound',
          'stock_transfer',
          'stock_up_order',
          'stocktake',
          'technical_document',
          'work_dispatch',
          'work_report',
        ].map((table) => `${table}_doc_no_trgm`),
        'workshop_task_task_no_trgm',
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

  it('matches a fragment without letters of case by LIKE, the same rows as ILIKE; letters still ignore case', async () => {
    expect(caseless('轴承 6204-2RS')).toBe(false);
    expect(caseless('轴承')).toBe(true);
    expect(caseless('6204-2')).toBe(true);
    expect(caseless('\u0307')).toBe(false);
    expect(caseless('é')).toBe(false);
    const token = await t.login();
    const db = t.database.db;
    await sql`INSERT INTO material (code, name, spec, material_type_id, unit_id)
      VALUES ('CASE-1', '圆锥滚子轴承 Taper', 'RS', (SELECT id FROM material_type WHERE code = 'TRGM'),
              (SELECT id FROM material_unit WHERE code = 'TRGM')),
             ('case-2', '滚子 taper', 'rs', (SELECT id FROM material_type WHERE code = 'TRGM'),
              (SELECT id FROM material_unit WHERE code = 'TRGM'))`.execute(db);
    const count = async (query: Record<string, string>) =>
      (
        await t.call('GET', '/api/v1/material-info/page', {
          token,
          query: { pageNum: '1', pageSize: '10', ...query },
        })
      ).body.result.total;
    const ilike = async (column: string, fragment: string) =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM material
          WHERE ${sql.ref(column)} ILIKE ${`%${fragment}%`}`.execute(db)
      ).rows[0].n;
    expect(caseless('滚子轴承 620')).toBe(true);
    const n = await ilike('name', '滚子轴承 620');
    expect(n).toBeGreaterThan(20);
    expect(await count({ name: '滚子轴承 620' })).toBe(n);
    expect(await count({ name: 'TAPER' })).toBe(2);
    expect(await count({ keyword: 'Case-' })).toBe(2);
    expect(await count({ keyword: 'Rs' })).toBe(2);
    const options = await t.call('GET', '/api/v1/material-info/options', {
      token,
      query: { keyword: 'case-' },
    });
    expect(options.body.result.map((o: { code: string }) => o.code).sort()).toEqual(['CASE-1', 'case-2']);
  });
});
