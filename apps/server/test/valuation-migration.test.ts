// Migration 0060 (issue 37 §2) on stock posted before it: each material × warehouse is worth the
// sum of its ledger amounts, and a pair the old valuation left empty with a value, or with a
// negative value, gets one 成本调整 row (quantity 0) that brings it to 0. The old rows below are
// what the old posting wrote in those cases (figures worked by hand).
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { databaseBefore } from './before-migration.ts';
import { stockValueViolations } from './stock-helpers.ts';

let database: Database;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ database, close } = await databaseBefore('0060'));
});
afterAll(() => close?.());

it('values existing stock by its ledger and adjusts what the old valuation left', async () => {
  const db = database.db;
  const id = async (q: RawBuilder<{ id: number }>) => Number((await q.execute(db)).rows[0].id);
  const unit = await id(sql`INSERT INTO material_unit (code, name) VALUES ('PCS0060', '件') RETURNING id`);
  const type = await id(sql`INSERT INTO material_type (code, name) VALUES ('T0060', '原材料') RETURNING id`);
  const wh = async (code: string) =>
    id(sql`INSERT INTO warehouse (code, name, type) VALUES (${code}, ${code}, 'raw') RETURNING id`);
  const w1 = await wh('W0060A');
  const w2 = await wh('W0060B');
  const material = async (code: string) =>
    id(
      sql`INSERT INTO material (code, name, material_type_id, unit_id) VALUES (${code}, ${code}, ${type}, ${unit}) RETURNING id`,
    );
  const [a, b, c] = [await material('A0060'), await material('B0060'), await material('C0060')];
  let doc = 0;
  const row = (m: number, w: number, q: string, amount: string) =>
    sql`INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no)
        VALUES (${m}, ${w}, ${q}, 0, ${amount}, 'stock-inbound', 'inbound', ${++doc}, ${`OLD${doc}`})`.execute(
      db,
    );
  const stock = (m: number, w: number, q: string) =>
    sql`INSERT INTO stock_balance (material_id, warehouse_id, quantity) VALUES (${m}, ${w}, ${q})`.execute(
      db,
    );
  const cost = (m: number, q: string, avg: string) =>
    sql`INSERT INTO material_cost (material_id, quantity, avg_cost) VALUES (${m}, ${q}, ${avg})`.execute(db);

  // A, the issue's example: 100 @ 12, issue 60 (−720), 20 @ 15, the issue reversed at +720 with the
  // average left at 13: the old stock showed 120 × 13 = 1,560.00; the ledger sums to 1,500.00.
  for (const [q, v] of [
    ['100', '1200'],
    ['-60', '-720'],
    ['20', '300'],
    ['60', '720'],
  ])
    await row(a, w1, q, v);
  await stock(a, w1, '120');
  await cost(a, '120', '13');
  // B, one average over two warehouses: 10 @ 1 in W1, 10 @ 3 in W2 (average 2), W1's 10 issued at
  // 2 (−20.00): W1 has no stock and −10.00; W2 has 10 worth 30.00.
  await row(b, w1, '10', '10');
  await row(b, w2, '10', '30');
  await row(b, w1, '-10', '-20');
  await stock(b, w1, '0');
  await stock(b, w2, '10');
  await cost(b, '10', '2');
  // C: 10 @ 1 in W1, 10 @ 5 in W2 (average 3), 5 issued from W1 at 3 (−15.00): W1 has 5 worth −5.00.
  await row(c, w1, '10', '10');
  await row(c, w2, '10', '50');
  await row(c, w1, '-5', '-15');
  await stock(c, w1, '5');
  await stock(c, w2, '10');
  await cost(c, '15', '3');

  expect(await migrate(db)).toContain('0060_stock_value.sql');
  expect(await stockValueViolations(db)).toEqual([]);
  const values = await sql<{ m: number; w: number; q: string; v: string; avg: string | null }>`
    SELECT material_id AS m, warehouse_id AS w, quantity::text AS q, value::text AS v, avg_cost::text AS avg
      FROM stock_value WHERE material_id IN (${a}, ${b}, ${c}) ORDER BY material_id, warehouse_id`.execute(
    db,
  );
  expect(values.rows.map((r) => [Number(r.m), Number(r.w), r.q, r.v, r.avg])).toEqual([
    [a, w1, '120.0000', '1500.00', '12.500000'],
    [b, w1, '0.0000', '0.00', '2.000000'],
    [b, w2, '10.0000', '30.00', '3.000000'],
    [c, w1, '5.0000', '0.00', '0.000000'],
    [c, w2, '10.0000', '50.00', '5.000000'],
  ]);
  const adjustments = await sql<{ m: number; w: number; q: string; amount: string; docNo: string }>`
    SELECT material_id AS m, warehouse_id AS w, quantity::text AS q, amount::text AS amount, doc_no
      FROM stock_ledger WHERE doc_type = 'valuation' ORDER BY material_id, warehouse_id`.execute(db);
  expect(adjustments.rows.map((r) => [Number(r.m), Number(r.w), r.q, r.amount, r.docNo])).toEqual([
    [b, w1, '0.0000', '10.00', 'CBTZ-0060'],
    [c, w1, '0.0000', '5.00', 'CBTZ-0060'],
  ]);
  // material_cost stays readable: the average over the material's warehouses (1,500 ÷ 120; 50 ÷ 15, W1 now worth 0).
  const avg = await sql<{ m: number; avg: string }>`
    SELECT material_id AS m, avg_cost::text AS avg FROM material_cost WHERE material_id IN (${a}, ${c}) ORDER BY material_id`.execute(
    db,
  );
  expect(avg.rows.map((r) => [Number(r.m), r.avg])).toEqual([
    [a, '12.500000'],
    [c, '3.333333'],
  ]);
}, 120_000);
