import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, downloadWorkbook, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const call = (method: string, url: string, body?: Record<string, unknown>, query?: Record<string, unknown>) =>
  t.call(method, url, { token, body, query });

/** The rollup must always equal the same figures aggregated from the order lines. */
async function rollupDrift(kind: 'sale' | 'purchase') {
  const [table, lines, parent, party, done, open] =
    kind === 'sale'
      ? [
          'sale_order',
          'sale_order_line',
          'sale_order_id',
          'customer_id',
          'l.shipped_quantity',
          `('approved','producing','partly-shipped')`,
        ]
      : [
          'purchase_order',
          'purchase_order_line',
          'purchase_order_id',
          'supplier_id',
          '(l.received_quantity - l.returned_quantity)',
          `('approved','partly-received')`,
        ];
  const r = await sql<Record<string, any>>`
    WITH raw AS (
      SELECT date_trunc('month', o.order_date)::date AS month, ${sql.ref(`o.${party}`)} AS party_id, l.material_id,
             count(*)::int AS line_count, sum(l.base_quantity) AS ordered_quantity, sum(l.amount) AS ordered_amount,
             sum(${sql.raw(done)}) AS done_quantity,
             sum(CASE WHEN o.status IN ${sql.raw(open)} THEN greatest(l.base_quantity - ${sql.raw(done)}, 0) ELSE 0 END) AS open_quantity,
             count(l.completed_on)::int AS completed_lines,
             count(*) FILTER (WHERE l.completed_on <= l.delivery_date)::int AS on_time_lines
        FROM ${sql.table(lines)} l JOIN ${sql.table(table)} o ON o.id = ${sql.ref(`l.${parent}`)}
       WHERE o.status <> 'draft' GROUP BY 1, 2, 3),
    roll AS (SELECT month, party_id, material_id, line_count, ordered_quantity, ordered_amount, done_quantity,
                    open_quantity, completed_lines, on_time_lines
               FROM order_report_month WHERE kind = ${kind} AND line_count > 0 AND party_id <> 0 AND material_id <> 0)
    (SELECT 'raw' AS side, * FROM raw EXCEPT SELECT 'raw', * FROM roll)
    UNION ALL
    (SELECT 'roll', * FROM roll EXCEPT SELECT 'roll', * FROM raw)`.execute(t.database.db);
  return r.rows;
}

/** Summary rows (month, party, 0) and (month, 0, material) must equal the sums of their detail rows. */
async function summaryDrift(kind: 'sale' | 'purchase') {
  const r = await sql<Record<string, any>>`
    SELECT s.month, s.party_id, s.material_id FROM order_report_month s
     WHERE s.kind = ${kind} AND (s.party_id = 0) <> (s.material_id = 0)
       AND ROW(s.line_count::bigint, s.ordered_amount, s.done_quantity, s.open_quantity, s.on_time_lines::bigint) IS DISTINCT FROM (
         SELECT ROW(COALESCE(sum(f.line_count), 0), COALESCE(sum(f.ordered_amount), 0), COALESCE(sum(f.done_quantity), 0),
                COALESCE(sum(f.open_quantity), 0), COALESCE(sum(f.on_time_lines), 0))
           FROM order_report_month f
          WHERE f.kind = s.kind AND f.month = s.month AND f.party_id <> 0 AND f.material_id <> 0
            AND (s.party_id = 0 OR f.party_id = s.party_id) AND (s.material_id = 0 OR f.material_id = s.material_id))`.execute(
    t.database.db,
  );
  return r.rows;
}

describe('销售统计报表', () => {
  it('follows approval, on-time and late shipping, a reversal and closing short; equals the raw figures', async () => {
    const c = await f.create('customer');
    // One unit for both products: the figures here add up (quantities-per-unit.test.ts: several units).
    const unit = await f.create('material-unit');
    const [p1, p2] = [
      await f.create('material-info', { unitId: unit.id }),
      await f.create('material-info', { unitId: unit.id }),
    ];
    const stock = await w.inbound([
      { materialId: p1.id, quantity: 100 },
      { materialId: p2.id, quantity: 100 },
    ]);
    ok(await w.post('stock-inbound', stock.id));
    const order = ok(
      await call('POST', '/api/v1/sale-order/add', {
        customerId: c.id,
        orderDate: '2026-10-05',
        deliveryDate: '2026-10-20',
        lines: [
          { materialId: p1.id, quantity: 10, unitPrice: '12.5' },
          { materialId: p2.id, quantity: 20, unitPrice: '3', deliveryDate: '2026-10-10' },
        ],
      }),
    );
    const report = (q: Record<string, unknown>) =>
      call('GET', '/api/v1/sale-order/report', undefined, { partyId: c.id, ...q }).then(ok);
    expect((await report({})).rows).toEqual([]);
    ok(await call('POST', `/api/v1/sale-order/approve/${order.id}`, {}));
    let r = await report({ groupBy: 'month' });
    expect(r.rows).toEqual([
      expect.objectContaining({
        key: '2026-10',
        lineCount: 2,
        orderedAmount: '185.00',
        openQuantity: '30.0000',
        // Both lines were promised in October, long past: due, nothing shipped, 0 % on time
        // (on-time-delivery.test.ts has the definition).
        dueLines: 2,
        onTimeLines: 0,
        onTimeRate: 0,
      }),
    ]);
    // Line 1 shipped in full on 10-15 (on time), line 2 on 10-12 (after its 10-10): 50 %.
    const ship = async (materialId: number, quantity: number, bizDate: string) => {
      const d = ok(
        await call('POST', '/api/v1/stock-outbound/add', {
          type: 'sales',
          warehouseId: w.warehouseId,
          bizDate,
          saleOrderId: order.id,
          lines: [{ materialId, quantity }],
        }),
      );
      ok(await w.post('stock-outbound', d.id));
      return d;
    };
    await ship(p1.id, 10, '2026-10-15');
    const late = await ship(p2.id, 20, '2026-10-12');
    r = await report({ groupBy: 'material' });
    expect(r.totals).toMatchObject({
      completedLines: 2,
      onTimeLines: 1,
      onTimeRate: 50,
      doneQuantity: '30.0000',
      openQuantity: '0.0000',
    });
    expect(r.rows.map((x: any) => x.label)).toEqual([p1.name, p2.name]);
    expect(await rollupDrift('sale')).toEqual([]);
    // Reversing the late shipment reopens the line; it is no longer completed.
    ok(await call('POST', `/api/v1/stock-outbound/reverse/${late.id}`, {}));
    r = await report({});
    expect(r.totals).toMatchObject({
      completedLines: 1,
      onTimeLines: 1,
      lateLines: 1,
      openQuantity: '20.0000',
      openAmount: '60.00',
    });
    // Closing short keeps what was ordered and shipped, and nothing stays open.
    ok(await call('POST', `/api/v1/sale-order/close/${order.id}`, { reason: '客户取消余量' }));
    r = await report({ groupBy: 'party' });
    expect(r.rows[0]).toMatchObject({
      label: c.name,
      orderedAmount: '185.00',
      openQuantity: '0.0000',
      doneQuantity: '10.0000',
      // Line 2, closed with nothing shipped, was cancelled rather than delivered late.
      dueLines: 1,
      onTimeRate: 100,
    });
    expect(r.months).toEqual([expect.objectContaining({ month: '2026-10', orderedAmount: '185.00' })]);
    expect(r.top[0]).toMatchObject({ label: c.name, orderedAmount: '185.00' });
    expect(await rollupDrift('sale')).toEqual([]);
    expect(await summaryDrift('sale')).toEqual([]);
    // Filtering by product too reads the detail rows: the same figures.
    const both = await report({ groupBy: 'party', materialId: p1.id });
    expect(both.rows[0]).toMatchObject({ orderedAmount: '125.00', doneQuantity: '10.0000' });
  });

  it('filters by months, refuses a bad month or grouping, and exports Excel', async () => {
    const bad = await call('GET', '/api/v1/sale-order/report', undefined, { from: '2026-13' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('月份格式应为 YYYY-MM');
    const grouping = await call('GET', '/api/v1/sale-order/report', undefined, { groupBy: 'x' });
    expect(grouping.status).toBe(400);
    const none = ok(await call('GET', '/api/v1/sale-order/report', undefined, { from: '2030-01' }));
    expect(none.rows).toEqual([]);
    const file = ok(await call('GET', '/api/v1/sale-order/report/export', undefined, { groupBy: 'party' }));
    expect(file.fileName).toMatch(/销售统计报表.*\.xlsx$/);
    const viewer = (await t.userWith(['sale:order:list'])).token;
    expect((await t.call('GET', '/api/v1/sale-order/report', { token: viewer })).status).toBe(403);
  });
});

describe('rebuild', () => {
  it('POST /api/v1/order-report/rebuild recounts every row from the lines (system:setting:edit)', async () => {
    await sql`UPDATE order_report_month SET ordered_amount = ordered_amount + 1`.execute(t.database.db);
    expect((await rollupDrift('sale')).length).toBeGreaterThan(0);
    const r = ok(await call('POST', '/api/v1/order-report/rebuild', {}));
    expect(r.sale).toBeGreaterThan(0);
    expect(await rollupDrift('sale')).toEqual([]);
    expect(await summaryDrift('sale')).toEqual([]);
    const viewer = (await t.userWith(['sale:report:query'])).token;
    expect((await t.call('POST', '/api/v1/order-report/rebuild', { token: viewer, body: {} })).status).toBe(
      403,
    );
  });
});

describe('采购明细报表', () => {
  it('counts net receipts, on-time lines and the average price; equals the raw figures', async () => {
    const s = await f.create('supplier');
    const m = await f.create('material-info', { standardCost: '4' });
    const o = ok(
      await call('POST', '/api/v1/purchase-order/add', {
        supplierId: s.id,
        orderDate: '2026-09-03',
        deliveryDate: '2026-09-20',
        lines: [{ materialId: m.id, quantity: 100, unitPrice: '4.2' }],
      }),
    );
    ok(await call('POST', `/api/v1/purchase-order/approve/${o.id}`, {}));
    const receipt = ok(
      await call('POST', '/api/v1/stock-inbound/add', {
        type: 'purchase',
        warehouseId: w.warehouseId,
        bizDate: '2026-09-18',
        purchaseOrderId: o.id,
        lines: [{ materialId: m.id, quantity: 100 }],
      }),
    );
    ok(await w.post('stock-inbound', receipt.id));
    const r = ok(
      await call('GET', '/api/v1/purchase-order/report', undefined, { partyId: s.id, groupBy: 'material' }),
    );
    expect(r.rows[0]).toMatchObject({
      label: m.name,
      orderedAmount: '420.00',
      averagePrice: '4.200000',
      doneQuantity: '100.0000',
      onTimeRate: 100,
    });
    // Another September line at 4.35 and an October order at 4.1: the price per row, per month, overall.
    for (const [orderDate, quantity, unitPrice] of [
      ['2026-09-25', 50, '4.35'],
      ['2026-10-08', 40, '4.1'],
    ] as const) {
      const more = ok(
        await call('POST', '/api/v1/purchase-order/add', {
          supplierId: s.id,
          orderDate,
          deliveryDate: '2026-10-30',
          lines: [{ materialId: m.id, quantity, unitPrice }],
        }),
      );
      ok(await call('POST', `/api/v1/purchase-order/approve/${more.id}`, {}));
    }
    const monthly = ok(
      await call('GET', '/api/v1/purchase-order/report', undefined, { partyId: s.id, groupBy: 'month' }),
    );
    // 637.50 ÷ 150 and 164.00 ÷ 40.
    expect(monthly.rows.map((x: any) => [x.key, x.orderedQuantity, x.orderedAmount, x.averagePrice])).toEqual(
      [
        ['2026-09', '150.0000', '637.50', '4.250000'],
        ['2026-10', '40.0000', '164.00', '4.100000'],
      ],
    );
    expect(monthly.months.map((x: any) => [x.month, x.averagePrice])).toEqual([
      ['2026-09', '4.250000'],
      ['2026-10', '4.100000'],
    ]);
    // 801.50 ÷ 190 = 4.2184210…: divided exactly, rounded once to the price's 6 places.
    expect(monthly.totals).toMatchObject({ orderedAmount: '801.50', averagePrice: '4.218421' });
    const byMaterial = ok(
      await call('GET', '/api/v1/purchase-order/report', undefined, { partyId: s.id, groupBy: 'material' }),
    );
    expect(byMaterial.rows[0]).toMatchObject({ label: m.name, averagePrice: '4.218421' });
    // The Excel export carries it beside the amount.
    const file = ok(
      await call('GET', '/api/v1/purchase-order/report/export', undefined, {
        partyId: s.id,
        groupBy: 'month',
      }),
    );
    const sheet = (await downloadWorkbook(t, token, file.fileName)).worksheets[0];
    const header = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(header.slice(3, 6)).toEqual(['订购数量', '订购金额(元)', '平均单价(元)']);
    expect(sheet.getRow(3).getCell(6).value).toBe(4.25);
    expect(sheet.getRow(5).getCell(6).value).toBe(4.218421);
    expect(await rollupDrift('purchase')).toEqual([]);
    expect(await summaryDrift('purchase')).toEqual([]);
  });
});

describe.runIf(PG_URL)('rollup under concurrency (PostgreSQL)', () => {
  it('16 orders of one customer, month and product approved at once all count', async () => {
    const c = await f.create('customer');
    const p = await f.create('material-info');
    const ids: number[] = [];
    for (let i = 0; i < 16; i++) {
      ids.push(
        ok(
          await call('POST', '/api/v1/sale-order/add', {
            customerId: c.id,
            orderDate: '2026-08-08',
            deliveryDate: '2026-08-28',
            lines: [{ materialId: p.id, quantity: 1, unitPrice: '1' }],
          }),
        ).id,
      );
    }
    await Promise.all(ids.map((id) => call('POST', `/api/v1/sale-order/approve/${id}`, {}).then(ok)));
    const r = ok(await call('GET', '/api/v1/sale-order/report', undefined, { partyId: c.id }));
    expect(r.totals).toMatchObject({ lineCount: 16, orderedAmount: '16.00' });
    expect(await rollupDrift('sale')).toEqual([]);
    expect(await summaryDrift('sale')).toEqual([]);
  });
});
