import { materialInfoResource, materialUnitResource, saleOrderResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNT_CAP } from '../src/platform/paging.ts';
import { totalOrderColumns } from '../src/platform/resource/query.ts';
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
    await sql`INSERT INTO material_type (code, name, order_num, created_by)
      SELECT 'CAPT' || i, '类型' || i, i, (SELECT min(id) FROM app_user) FROM generate_series(1, 45) i`.execute(
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

  it('reads a deep page by its ids first: the same rows, order and labels as reading it whole', async () => {
    const expected = async (sortDesc: boolean, skip: number) =>
      (
        await sql<{
          id: number;
        }>`SELECT id FROM material_unit ORDER BY code ${sql.raw(sortDesc ? 'DESC' : 'ASC')},
                                  id ${sql.raw(sortDesc ? 'DESC' : 'ASC')} LIMIT 20 OFFSET ${skip}`.execute(
          t.database.db,
        )
      ).rows.map((r) => Number(r.id));
    for (const [pageNum, sortOrder] of [
      [2, 'asc'],
      [250, 'desc'],
      [COUNT_CAP / 20, 'asc'],
    ] as const) {
      const r = await t.call('GET', PAGE, {
        token,
        query: { pageNum, pageSize: 20, sortField: 'code', sortOrder },
      });
      expect(r.status).toBe(200);
      const list = r.body.result.list as { id: number; code: string; createdByName?: string }[];
      expect(list.map((x) => x.id)).toEqual(await expected(sortOrder === 'desc', (pageNum - 1) * 20));
      // The whole row, labels included (the seeded units were made by no user: no label).
      expect(list[0].code).toMatch(/^CAP\d{6}$/);
      expect(Object.keys(list[0])).toEqual(Object.keys(r.body.result.list[1]));
    }
    // A page past the middle of an exact count is read from the end, ids first too.
    const types = await t.call('GET', '/api/v1/material-type/page', {
      token,
      query: { pageNum: 3, pageSize: 20, sortField: 'code', sortOrder: 'asc' },
    });
    expect(types.body.result.total).toBeLessThan(60);
    const ids = (
      await sql<{ id: number }>`SELECT id FROM material_type ORDER BY code, id LIMIT 20 OFFSET 40`.execute(
        t.database.db,
      )
    ).rows.map((r) => Number(r.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(types.body.result.list.map((x: { id: number }) => x.id)).toEqual(ids);
    const admin = (
      await sql<{ n: string }>`SELECT first_name AS n FROM app_user ORDER BY id LIMIT 1`.execute(
        t.database.db,
      )
    ).rows[0].n;
    expect(
      types.body.result.list.filter((x: { code: string }) => x.code.startsWith('CAPT'))[0].createdByName,
    ).toBe(admin);
  });

  it('orders by a unique, never-null column without the id; by any other column with the id after it', async () => {
    expect([...totalOrderColumns(materialInfoResource)].sort()).toEqual(['t.code', 't.id']);
    expect(totalOrderColumns(saleOrderResource).has('t.doc_no')).toBe(true);
    expect(totalOrderColumns(materialUnitResource).has('t.name')).toBe(false);
    // Rows of one name keep their order by id on every page (the id still breaks those ties).
    await sql`INSERT INTO material_unit (code, name)
      SELECT 'TIE' || lpad(i::text, 3, '0'), '同名单位' FROM generate_series(1, 30) i`.execute(t.database.db);
    const tied = (
      await sql<{ id: number }>`SELECT id FROM material_unit WHERE name = '同名单位' ORDER BY id`.execute(
        t.database.db,
      )
    ).rows.map((r) => Number(r.id));
    const pages = [];
    for (const pageNum of [1, 2]) {
      const r = await t.call('GET', PAGE, {
        token,
        query: { pageNum, pageSize: 20, name: '同名单位', sortField: 'name', sortOrder: 'asc' },
      });
      expect(r.status).toBe(200);
      pages.push(...r.body.result.list.map((x: { id: number }) => x.id));
    }
    expect(pages).toEqual(tied);
  });

  it('plans for storage read at random nearly as fast as in sequence (random_page_cost 1.1, both databases)', async () => {
    const r = await sql<{ randomPageCost: string }>`SHOW random_page_cost`.execute(t.database.db);
    expect(r.rows[0].randomPageCost).toBe('1.1');
  });

  it('reads a list’s reference names by index, not by a sequential scan per row, in embedded mode', async () => {
    const db = t.database.db;
    // A reference table of one page (a unit, a type, a warehouse): a sequential scan looks cheapest.
    await sql`CREATE TABLE IF NOT EXISTS seq_probe_kind (id bigint PRIMARY KEY, name text NOT NULL)`.execute(
      db,
    );
    await sql`INSERT INTO seq_probe_kind VALUES (1, 'a'), (2, 'b'), (3, 'c') ON CONFLICT DO NOTHING`.execute(
      db,
    );
    await sql`ANALYZE seq_probe_kind`.execute(db);
    const plan = await sql`
      EXPLAIN SELECT m.code, (SELECT k.name FROM seq_probe_kind k WHERE k.id = m.id % 3 + 1) AS kind_name
        FROM material m ORDER BY m.code LIMIT 20`.execute(db);
    const text = plan.rows.map((r) => Object.values(r as object)[0]).join('\n');
    expect(text).toMatch(/seq_probe_kind/);
    // PostgreSQL scans it in sequence as it likes; PGlite would pay a file-size call per row.
    if (t.database.kind === 'pglite') expect(text).not.toMatch(/Seq Scan on seq_probe_kind/);
    await sql`DROP TABLE seq_probe_kind`.execute(db);
  });

  it('answers the first page and its count from one statement: same rows and keys as any page, 0 when nothing matches', async () => {
    const one = await t.call('GET', PAGE, {
      token,
      query: { pageNum: 1, pageSize: 20, sortField: 'code', sortOrder: 'asc' },
    });
    const two = await t.call('GET', PAGE, {
      token,
      query: { pageNum: 2, pageSize: 20, sortField: 'code', sortOrder: 'asc' },
    });
    expect(Object.keys(one.body.result.list[0])).toEqual(Object.keys(two.body.result.list[0]));
    expect('pageTotal' in one.body.result.list[0]).toBe(false);
    const first = (
      await sql<{ id: number }>`SELECT id FROM material_unit ORDER BY code, id LIMIT 20`.execute(
        t.database.db,
      )
    ).rows.map((r) => Number(r.id));
    expect(one.body.result.list.map((x: { id: number }) => x.id)).toEqual(first);
    const none = await t.call('GET', PAGE, {
      token,
      query: { pageNum: 1, pageSize: 20, name: '没有这个单位' },
    });
    expect(none.body.result).toEqual({ list: [], total: 0, pageNum: 1, pageSize: 20 });
    const few = await t.call('GET', '/api/v1/material-type/page', {
      token,
      query: { pageNum: 1, pageSize: 20, code: 'CAPT1' },
    });
    const n = (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM material_type WHERE code ILIKE '%CAPT1%'`.execute(t.database.db)
    ).rows[0].n;
    expect(few.body.result.total).toBe(n);
    expect(few.body.result.list).toHaveLength(Math.min(n, 20));
  });

  it('keeps the exact total (and no totalExact field) under the cap, also on the last page', async () => {
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

  it('answers every page, read forward or from the end, and one past the end, as LIMIT/OFFSET would', async () => {
    const all = (
      await sql<{ id: number }>`SELECT id FROM material_type ORDER BY code DESC, id DESC`.execute(
        t.database.db,
      )
    ).rows.map((r) => Number(r.id));
    const size = 7; // odd, so the middle falls inside a page
    const pages = Math.ceil(all.length / size);
    for (let pageNum = 1; pageNum <= pages + 1; pageNum++) {
      const r = await t.call('GET', '/api/v1/material-type/page', {
        token,
        query: { pageNum, pageSize: size, sortField: 'code', sortOrder: 'desc' },
      });
      expect(r.body.result.total).toBe(all.length);
      expect(
        r.body.result.list.map((x: { id: number }) => x.id),
        `page ${pageNum}`,
      ).toEqual(all.slice((pageNum - 1) * size, pageNum * size));
      for (const row of r.body.result.list) expect(row).not.toHaveProperty('pageTotal');
    }
  });

  it('counts the whole stock ledger up to the cap, pages it newest first; a material or a document counted exactly', async () => {
    const db = t.database.db;
    const ids = await sql<{ m: number; w: number }>`
      WITH m AS (INSERT INTO material (code, name, material_type_id, unit_id)
                 VALUES ('CAP-LEDGER', '台账物料', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit))
                 RETURNING id),
           w AS (INSERT INTO warehouse (code, name, type) VALUES ('CAP-WH', '台账仓', 'raw') RETURNING id)
      SELECT (SELECT id FROM m) AS m, (SELECT id FROM w) AS w`.execute(db);
    const { m, w } = ids.rows[0];
    await sql`INSERT INTO stock_ledger (material_id, warehouse_id, quantity, doc_type, doc_kind, doc_id, doc_no)
      SELECT ${m}, ${w}, 1, 'stock-inbound', 'purchase', i, 'RK-CAP-' || (i % 3)
        FROM generate_series(1, ${COUNT_CAP + 30}) i`.execute(db);
    // Its balance, as posting would have left it (the material's running balances start from it).
    await sql`INSERT INTO stock_balance (material_id, warehouse_id, quantity) VALUES (${m}, ${w}, ${COUNT_CAP + 30})`.execute(
      db,
    );
    const newest = async (skip: number) =>
      (
        await sql<{
          id: number;
        }>`SELECT id FROM stock_ledger ORDER BY id DESC LIMIT 20 OFFSET ${skip}`.execute(db)
      ).rows.map((r) => Number(r.id));
    for (const pageNum of [1, 2, COUNT_CAP / 20]) {
      const r = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { pageNum, pageSize: 20 } });
      expect(r.status).toBe(200);
      expect(r.body.result).toMatchObject({ total: COUNT_CAP, totalExact: false });
      expect(r.body.result.list.map((x: { id: number }) => x.id)).toEqual(await newest((pageNum - 1) * 20));
      expect(r.body.result.list[0]).toMatchObject({ materialCode: 'CAP-LEDGER', warehouseName: '台账仓' });
    }
    // Narrowed under the cap: exact, and the last page read from the other end.
    const doc = await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { docNo: 'RK-CAP-1', pageNum: 1, pageSize: 20 },
    });
    const n = (
      await sql<{ n: number }>`SELECT count(*)::int AS n FROM stock_ledger WHERE doc_no = 'RK-CAP-1'`.execute(
        db,
      )
    ).rows[0].n;
    expect(doc.body.result.total).toBe(n);
    expect('totalExact' in doc.body.result).toBe(false);
    const lastPage = Math.ceil(n / 20);
    const last = await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { docNo: 'RK-CAP-1', pageNum: lastPage, pageSize: 20 },
    });
    const expected = (
      await sql<{ id: number }>`SELECT id FROM stock_ledger WHERE doc_no = 'RK-CAP-1' ORDER BY id DESC
                                 OFFSET ${(lastPage - 1) * 20}`.execute(db)
    ).rows.map((r) => Number(r.id));
    expect(last.body.result.list.map((x: { id: number }) => x.id)).toEqual(expected);
    // One material's ledger: the exact count and its totals.
    const mat = await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { materialId: m, pageNum: 1, pageSize: 20 },
    });
    expect(mat.body.result.total).toBe(COUNT_CAP + 30);
    expect(mat.body.result.summary.inQuantity).toBe(`${COUNT_CAP + 30}.0000`);

    // Past the cap by keyset: the moves older than a given one, at any depth, and on to the end.
    const all = (
      await sql<{ id: number }>`SELECT id FROM stock_ledger ORDER BY id DESC`.execute(db)
    ).rows.map((r) => Number(r.id));
    const deep = all.length - 25; // 24 older moves than this one: a full page, then 4
    const keyset = async (query: Record<string, unknown>) =>
      (await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { pageSize: 20, ...query } })).body;
    const p1 = await keyset({ beforeId: all[deep] });
    expect(p1.result.list.map((x: { id: number }) => x.id)).toEqual(all.slice(deep + 1, deep + 21));
    expect(p1.result).toMatchObject({ total: COUNT_CAP, totalExact: false, nextBeforeId: all[deep + 20] });
    const p2 = await keyset({ beforeId: p1.result.nextBeforeId });
    expect(p2.result.list.map((x: { id: number }) => x.id)).toEqual(all.slice(deep + 21));
    expect(p2.result.nextBeforeId).toBeNull();
    // A material's ledger by keyset keeps its running balance: the quantity after each move.
    const matAll = (
      await sql<{ id: number; after: string }>`
        SELECT id, sum(quantity) OVER (ORDER BY id)::text AS after FROM stock_ledger WHERE material_id = ${m}
         ORDER BY id DESC`.execute(db)
    ).rows;
    const from = matAll.length - 10;
    const mp = await keyset({ materialId: m, beforeId: Number(matAll[from].id) });
    expect(mp.result.total).toBe(COUNT_CAP + 30);
    expect(mp.result.nextBeforeId).toBeNull();
    expect(
      mp.result.list.map((x: { id: number; balanceAfter: string }) => [x.id, Number(x.balanceAfter)]),
    ).toEqual(matAll.slice(from + 1).map((r) => [Number(r.id), Number(r.after)]));
    // The whole ledger at once is not mixed with a keyset.
    const mixed = await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { pageNum: 0, beforeId: all[5] },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.message).toContain('beforeId');
  });
  it('reads a business-date range of the ledger by business date, newest first, by page and by keyset', async () => {
    const db = t.database.db;
    const ids = await sql<{ m: number; w: number }>`
      WITH m AS (INSERT INTO material (code, name, material_type_id, unit_id)
                 VALUES ('DATE-LEDGER', '日期台账物料', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit))
                 RETURNING id),
           w AS (INSERT INTO warehouse (code, name, type) VALUES ('DATE-WH', '日期台账仓', 'raw') RETURNING id)
      SELECT (SELECT id FROM m) AS m, (SELECT id FROM w) AS w`.execute(db);
    const { m, w } = ids.rows[0];
    // 30 moves a day in 2001-03, dates growing with the ids as in a real ledger, then one move
    // booked late for 2001-03-02 (a higher id, an earlier business date).
    await sql`INSERT INTO stock_ledger (material_id, warehouse_id, quantity, doc_type, doc_kind, doc_id, doc_no, biz_date)
      SELECT ${m}, ${w}, 1, 'stock-inbound', 'purchase', i, 'RK-DATE-' || i, DATE '2001-03-01' + (i / 30)
        FROM generate_series(0, 299) i`.execute(db);
    await sql`INSERT INTO stock_ledger (material_id, warehouse_id, quantity, doc_type, doc_kind, doc_id, doc_no, biz_date)
      VALUES (${m}, ${w}, 1, 'stock-inbound', 'purchase', 999, 'RK-DATE-LATE', DATE '2001-03-02')`.execute(
      db,
    );
    const expected = (
      await sql<{ id: number }>`SELECT id FROM stock_ledger
        WHERE biz_date BETWEEN DATE '2001-03-02' AND DATE '2001-03-04' ORDER BY biz_date DESC, id DESC`.execute(
        db,
      )
    ).rows.map((r) => Number(r.id));
    expect(expected).toHaveLength(91);
    const range = { bizDateFrom: '2001-03-02', bizDateTo: '2001-03-04', pageSize: 20 };
    const page = async (query: Record<string, unknown>) => {
      const r = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { ...range, ...query } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.result;
    };
    const p1 = await page({ pageNum: 1 });
    expect(p1.total).toBe(91);
    expect(p1.list.map((x: { id: number }) => x.id)).toEqual(expected.slice(0, 20));
    // The late move heads its day's moves (page 4), not the range's.
    const p4 = await page({ pageNum: 4 });
    expect(p4.list.map((x: { id: number }) => x.id)).toEqual(expected.slice(60, 80));
    expect(p4.list[0].docNo).toBe('RK-DATE-LATE');
    expect(p1.list.some((x: { docNo: string }) => x.docNo === 'RK-DATE-LATE')).toBe(false);
    const last = await page({ pageNum: 5 });
    expect(last.list.map((x: { id: number }) => x.id)).toEqual(expected.slice(80));
    // By keyset in the same order, to the end.
    const seen: number[] = [];
    let beforeId: number | null = expected[4];
    while (beforeId != null) {
      const r = await page({ beforeId });
      seen.push(...r.list.map((x: { id: number }) => x.id));
      beforeId = r.nextBeforeId;
    }
    expect(seen).toEqual(expected.slice(5));
  });
});
