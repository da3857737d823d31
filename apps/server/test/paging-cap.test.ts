import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../src/platform/paging.ts';
import { createTestApp, type TestApp } from './helpers.ts';

// Issue 10 §4: a resource list counts at most COUNT_CAP rows; above it the page says so
// (totalExact: false, total = the cap) and pages forward; below it the answer is unchanged.
describe('capped counts on resource lists', () => {
  let t: TestApp;
  let token: string;
  const PAGE = '/api/v1/material-unit/page';
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
    await sql`INSERT INTO material_unit (code, name)
      SELECT 'CAP' || lpad(i::text, 6, '0'), '计量单位' || i FROM generate_series(1, ${COUNT_CAP + 25}) i`.execute(
      t.database.db,
    );
  });
  afterAll(() => t?.close());

  it('answers the cap and totalExact: false above it, and its pages are full and distinct', async () => {
    const first = await t.call('GET', PAGE, { token, query: { pageNum: 1, pageSize: 20 } });
    expect(first.status).toBe(200);
    expect(first.body.result.total).toBe(COUNT_CAP);
    expect(first.body.result.totalExact).toBe(false);
    expect(first.body.result.list).toHaveLength(20);
    const last = await t.call('GET', PAGE, { token, query: { pageNum: COUNT_CAP / 20, pageSize: 20 } });
    expect(last.status).toBe(200);
    expect(last.body.result.list).toHaveLength(20);
    const ids = new Set(first.body.result.list.map((r: { id: number }) => r.id));
    expect(last.body.result.list.some((r: { id: number }) => ids.has(r.id))).toBe(false);
  });

  it('keeps the exact total (and no totalExact field) under the cap, also on the last page', async () => {
    await sql`INSERT INTO material_type (code, name, order_num)
      SELECT 'CAPT' || i, '类型' || i, i FROM generate_series(1, 45) i`.execute(t.database.db);
    const r = await t.call('GET', '/api/v1/material-type/page', {
      token,
      query: { pageNum: 1, pageSize: 20 },
    });
    expect(r.status).toBe(200);
    const total = r.body.result.total;
    expect(total).toBeGreaterThanOrEqual(45);
    expect('totalExact' in r.body.result).toBe(false);
    const lastPage = Math.ceil(total / 20);
    const last = await t.call('GET', '/api/v1/material-type/page', {
      token,
      query: { pageNum: lastPage, pageSize: 20 },
    });
    expect(last.body.result.list).toHaveLength(total - (lastPage - 1) * 20);
  });
});
