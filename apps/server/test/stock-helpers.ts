import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../src/platform/db/db.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Every balance equals the sum of its ledger rows, and no balance is negative; and per material ×
 * warehouse, the valuation row's quantity is the sum of its balances, its value the sum of its
 * ledger amounts, never negative, and 0 without stock. Answers the violations.
 */
export async function stockInvariantViolations(db: Db): Promise<string[]> {
  const r = await sql<{ k: string; balance: string; ledger: string }>`
    WITH l AS (
      SELECT material_id, warehouse_id, location_id, batch_no, quality_status, sum(quantity) AS q
        FROM stock_ledger GROUP BY 1, 2, 3, 4, 5
    )
    SELECT concat_ws('/', coalesce(b.material_id, l.material_id), coalesce(b.warehouse_id, l.warehouse_id),
                     coalesce(b.location_id, l.location_id), coalesce(b.batch_no, l.batch_no), coalesce(b.quality_status, l.quality_status)) AS k,
           coalesce(b.quantity, 0)::text AS balance, coalesce(l.q, 0)::text AS ledger
      FROM stock_balance b
      FULL JOIN l ON l.material_id = b.material_id AND l.warehouse_id = b.warehouse_id
                 AND l.location_id IS NOT DISTINCT FROM b.location_id AND l.batch_no = b.batch_no AND l.quality_status = b.quality_status
     WHERE coalesce(b.quantity, 0) <> coalesce(l.q, 0) OR coalesce(b.quantity, 0) < 0 OR coalesce(l.q, 0) < 0`.execute(
    db,
  );
  return [
    ...r.rows.map((x) => `${x.k}: balance ${x.balance}, ledger ${x.ledger}`),
    ...(await stockValueViolations(db)),
    ...(await unitPartViolations(db)),
  ];
}

/**
 * Entry-unit parts (docs/architecture.md, "Unit conversion"): each part is the sum of the ledger
 * rows that moved it (in its unit and in the base unit), both positive, and a balance row's parts
 * never hold more than the row.
 */
export async function unitPartViolations(db: Db): Promise<string[]> {
  const r = await sql<{ k: string; part: string; ledger: string }>`
    WITH l AS (
      SELECT material_id, warehouse_id, location_id, batch_no, quality_status, unit_id,
             sum(unit_quantity) AS uq, sum(quantity) AS q
        FROM stock_ledger WHERE unit_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6
    )
    SELECT concat_ws('/', coalesce(p.material_id, l.material_id), coalesce(p.warehouse_id, l.warehouse_id),
                     coalesce(p.location_id, l.location_id), coalesce(p.batch_no, l.batch_no),
                     coalesce(p.quality_status, l.quality_status), coalesce(p.unit_id, l.unit_id)) AS k,
           coalesce(p.quantity, 0) || ' ↔ ' || coalesce(p.base_quantity, 0) AS part,
           coalesce(l.uq, 0) || ' ↔ ' || coalesce(l.q, 0) AS ledger
      FROM stock_unit_balance p
      FULL JOIN l ON l.material_id = p.material_id AND l.warehouse_id = p.warehouse_id
                 AND l.location_id IS NOT DISTINCT FROM p.location_id AND l.batch_no = p.batch_no
                 AND l.quality_status = p.quality_status AND l.unit_id = p.unit_id
     WHERE coalesce(p.quantity, 0) <> coalesce(l.uq, 0) OR coalesce(p.base_quantity, 0) <> coalesce(l.q, 0)
    UNION ALL
    SELECT concat_ws('/', b.material_id, b.warehouse_id, b.location_id, b.batch_no, b.quality_status), b.quantity::text,
           'parts ' || sum(p.base_quantity)
      FROM stock_balance b JOIN stock_unit_balance p
        ON p.material_id = b.material_id AND p.warehouse_id = b.warehouse_id AND p.location_id IS NOT DISTINCT FROM b.location_id
       AND p.batch_no = b.batch_no AND p.quality_status = b.quality_status
     GROUP BY b.id HAVING sum(p.base_quantity) > b.quantity`.execute(db);
  return r.rows.map((x) => `part ${x.k}: ${x.part}, ledger ${x.ledger}`);
}

/** Per material × warehouse: quantity = Σ balances, value = Σ ledger amounts ≥ 0, 0 when empty. */
export async function stockValueViolations(db: Db): Promise<string[]> {
  const r = await sql<{ k: string; q: string; bq: string; v: string; lv: string }>`
    WITH k AS (SELECT material_id, warehouse_id FROM stock_balance UNION SELECT material_id, warehouse_id FROM stock_ledger
               UNION SELECT material_id, warehouse_id FROM stock_value),
    f AS (
      SELECT k.material_id || '/' || k.warehouse_id AS k,
             coalesce(v.quantity, 0) AS q, coalesce((SELECT sum(b.quantity) FROM stock_balance b
                                                      WHERE b.material_id = k.material_id AND b.warehouse_id = k.warehouse_id), 0) AS bq,
             coalesce(v.value, 0) AS v, coalesce((SELECT sum(s.amount) FROM stock_ledger s
                                                  WHERE s.material_id = k.material_id AND s.warehouse_id = k.warehouse_id), 0) AS lv
        FROM k LEFT JOIN stock_value v ON v.material_id = k.material_id AND v.warehouse_id = k.warehouse_id)
    SELECT k, q::text, bq::text, v::text, lv::text FROM f
     WHERE q <> bq OR v <> lv OR v < 0 OR (q = 0 AND v <> 0)`.execute(db);
  return r.rows.map((x) => `${x.k}: value row ${x.q} worth ${x.v}, balances ${x.bq}, ledger amounts ${x.lv}`);
}

export interface StockWorld {
  warehouseId: number;
  otherWarehouseId: number;
  locationA: number;
  locationB: number;
  material: (overrides?: Record<string, unknown>) => Promise<Record<string, any>>;
  inbound: (
    lines: Record<string, unknown>[],
    extra?: Record<string, unknown>,
  ) => Promise<Record<string, any>>;
  outbound: (
    lines: Record<string, unknown>[],
    extra?: Record<string, unknown>,
  ) => Promise<Record<string, any>>;
  post: (kind: string, id: number, key?: string) => Promise<{ status: number; body: any }>;
  balance: (materialId: number, extra?: Record<string, unknown>) => Promise<number>;
}

export async function stockWorld(t: TestApp, f: Factory, token: string): Promise<StockWorld> {
  const wh = await f.create('warehouse-management', { type: 'raw', name: '原材料仓' });
  const other = await f.create('warehouse-management', { type: 'semi', name: '半成品仓' });
  const locA = await f.create('shelf-location', { warehouseId: wh.id, name: 'A-01' });
  const locB = await f.create('shelf-location', { warehouseId: wh.id, name: 'A-02' });
  const create = async (
    kind: string,
    type: string,
    lines: Record<string, unknown>[],
    extra: Record<string, unknown> = {},
  ) => {
    const r = await t.call('POST', `/api/v1/${kind}/add`, {
      token,
      body: { type, warehouseId: wh.id, bizDate: '2026-11-22', lines, ...extra },
    });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
    return r.body.result;
  };
  return {
    warehouseId: wh.id,
    otherWarehouseId: other.id,
    locationA: locA.id,
    locationB: locB.id,
    material: (o = {}) => f.create('material-info', o),
    inbound: (lines, extra) => create('stock-inbound', 'purchase', lines, extra),
    outbound: (lines, extra) => create('stock-outbound', 'requisition', lines, extra),
    post: async (kind, id, key) => {
      const r = await t.call('POST', `/api/v1/${kind}/post/${id}`, {
        token,
        headers: key ? { 'idempotency-key': key } : {},
      });
      return { status: r.status, body: r.body };
    },
    balance: async (materialId, extra = {}) => {
      const r = await t.call('GET', '/api/v1/stock-balance/page', {
        token,
        query: { materialId, pageNum: 0, ...extra },
      });
      return r.body.result.list.reduce((s: number, b: any) => s + Number(b.quantity), 0);
    },
  };
}

/** A test file's app, admin token and stock world (beforeAll). */
export async function openStockWorld(): Promise<{ t: TestApp; token: string; w: StockWorld }> {
  const t = await createTestApp();
  const token = await t.login();
  const w = await stockWorld(
    t,
    factory(t, async () => token),
    token,
  );
  return { t, token, w };
}

/** Closes it (afterAll), checking the invariants over everything the file posted first. */
export async function closeStockWorld(t: TestApp) {
  expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  await t.close();
}

/** The result of a call that must succeed (its body shown when it does not). */
export function ok(r: { status: number; body: any }) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
}

/** A posted purchase receipt of one line into the world's warehouse. */
export const receive = async (w: StockWorld, materialId: number, quantity: number, unitPrice: string) =>
  ok(await w.post('stock-inbound', (await w.inbound([{ materialId, quantity, unitPrice }])).id));

/** A posted requisition of one line out of the world's warehouse. */
export const issue = async (w: StockWorld, materialId: number, quantity: number) =>
  ok(await w.post('stock-outbound', (await w.outbound([{ materialId, quantity }])).id));
