import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, downloadWorkbook, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
let unitBox: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
  unitBox = (await f.create('material-unit', { name: '箱' })).id;
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

/** A product (1 箱 = 10 套) with `onHand` 套 of qualified stock in the test warehouse. */
async function product(onHand: number) {
  const m = await f.create('material-info', {
    salePrice: '20',
    unitConversions: [{ unitId: unitBox, baseQuantity: '10' }],
  });
  if (onHand > 0) {
    const doc = await w.inbound([{ materialId: m.id, quantity: onHand, unitPrice: '8' }]);
    ok(await w.post('stock-inbound', doc.id));
  }
  return m;
}

/** An approved order of the given lines. */
async function approvedOrder(lines: Record<string, unknown>[], customerId?: number) {
  const c = customerId ?? (await f.create('customer')).id;
  const o = ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: { customerId: c, orderDate: '2026-10-08', deliveryDate: '2026-11-20', lines },
    }),
  );
  ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
  return ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token }));
}

const ship = (lines: { lineId: number; quantity: string | number }[], as = token) =>
  t.call('POST', '/api/v1/sale-order/ship', { token: as, body: { warehouseId: w.warehouseId, lines } });
const returnGoods = (lines: { lineId: number; quantity: string | number }[]) =>
  t.call('POST', '/api/v1/sale-order/return-goods', { token, body: { warehouseId: w.warehouseId, lines } });
const info = (id: number) => t.call('GET', `/api/v1/sale-order/info/${id}`, { token }).then(ok);

describe('销售仓库: shipping against sales orders', () => {
  it('lists open lines, ships part, then the rest: shipped quantities and the order state follow the posted documents', async () => {
    const m = await product(100);
    // 2 箱 = 20 套 and 5 套.
    const o = await approvedOrder([
      { materialId: m.id, quantity: 2, unitId: unitBox },
      { materialId: m.id, quantity: 5 },
    ]);
    const open = ok(
      await t.call('GET', '/api/v1/sale-order/open-lines', { token, query: { docNo: o.docNo } }),
    );
    expect(open.total).toBe(2);
    expect(open.list[0]).toMatchObject({
      docNo: o.docNo,
      baseQuantity: '20.0000',
      shippedQuantity: '0.0000',
      owedQuantity: '20.0000',
      availableQuantity: '100.0000',
    });

    const first = ok(await ship([{ lineId: o.lines[0].id, quantity: 12 }]));
    expect(first).toMatchObject({
      type: 'sales',
      status: 'draft',
      saleOrderId: o.id,
      customerId: o.customerId,
      sourceNo: o.docNo,
    });
    expect(first.lines[0]).toMatchObject({ sourceLineId: o.lines[0].id, quantity: '12.0000' });
    // A draft changes nothing on the order; 销售仓库 shows it as pending.
    expect((await info(o.id)).lines[0].shippedQuantity).toBe('0.0000');
    const pending = ok(
      await t.call('GET', '/api/v1/sale-order/open-lines', { token, query: { docNo: o.docNo } }),
    );
    expect(pending.list[0]).toMatchObject({ pendingQuantity: '12.0000', owedQuantity: '20.0000' });
    // 导出: the filtered lines, every page, in base units (sale:warehouse:export).
    const file = ok(
      await t.call('GET', '/api/v1/sale-order/open-lines/export', { token, query: { docNo: o.docNo } }),
    );
    expect(file).toMatchObject({ rows: 2 });
    const sheet = (await downloadWorkbook(t, token, file.fileName)).worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1, 4)).toEqual(['订单号', '行号', '客户']);
    expect((sheet.getRow(2).values as unknown[]).slice(9, 13)).toEqual([20, 0, 20, 12]);
    expect(sheet.rowCount).toBe(3);
    const lister = (await t.userWith(['sale:warehouse:list'])).token;
    expect((await t.call('GET', '/api/v1/sale-order/open-lines/export', { token: lister })).status).toBe(403);
    ok(await w.post('stock-outbound', first.id));
    let now = await info(o.id);
    expect(now.status).toBe('partly-shipped');
    expect(now.lines[0].shippedQuantity).toBe('12.0000');

    const rest = ok(
      await ship([
        { lineId: o.lines[0].id, quantity: 8 },
        { lineId: o.lines[1].id, quantity: 5 },
      ]),
    );
    ok(await w.post('stock-outbound', rest.id));
    now = await info(o.id);
    expect(now.status).toBe('completed');
    expect(now.lines.map((l: any) => l.shippedQuantity)).toEqual(['20.0000', '5.0000']);
    expect(await w.balance(m.id)).toBe(100 - 25);
    const after = ok(
      await t.call('GET', '/api/v1/sale-order/open-lines', { token, query: { docNo: o.docNo } }),
    );
    expect(after.total).toBe(0);

    // Reversing a shipment takes it back off the order.
    ok(await t.call('POST', `/api/v1/stock-outbound/reverse/${rest.id}`, { token }));
    now = await info(o.id);
    expect(now.status).toBe('partly-shipped');
    expect(now.lines.map((l: any) => l.shippedQuantity)).toEqual(['12.0000', '0.0000']);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('never ships more than owed: at draft time nothing is reserved, posting checks under the line lock', async () => {
    const m = await product(100);
    const o = await approvedOrder([{ materialId: m.id, quantity: 10 }]);
    const a = ok(await ship([{ lineId: o.lines[0].id, quantity: 7 }]));
    const b = ok(await ship([{ lineId: o.lines[0].id, quantity: 7 }]));
    ok(await w.post('stock-outbound', a.id));
    const refused = await w.post('stock-outbound', b.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('超出销售订单未发数量');
    expect(refused.body.message).toContain('订购 10');
    expect(refused.body.message).toContain('最多还可发 3');
    // The refused posting left nothing behind: the draft is still a draft, stock untouched.
    const still = ok(await t.call('GET', `/api/v1/stock-outbound/info/${b.id}`, { token }));
    expect(still.status).toBe('draft');
    expect(await w.balance(m.id)).toBe(93);
  });

  it('honours the over-ship allowance setting', async () => {
    const m = await product(100);
    const o = await approvedOrder([{ materialId: m.id, quantity: 10 }]);
    await sql`INSERT INTO sys_setting (key, value) VALUES ('sales.overShipPercent', '"10"')
              ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`.execute(t.database.db);
    try {
      const tooMuch = ok(await ship([{ lineId: o.lines[0].id, quantity: 12 }]));
      const refused = await w.post('stock-outbound', tooMuch.id);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain('最多还可发 11（含超发 10%）');
      const over = ok(await ship([{ lineId: o.lines[0].id, quantity: 11 }]));
      ok(await w.post('stock-outbound', over.id));
      expect((await info(o.id)).status).toBe('completed');
    } finally {
      await sql`DELETE FROM sys_setting WHERE key = 'sales.overShipPercent'`.execute(t.database.db);
    }
  });

  it('a sales return reduces shipped, never below zero, and reopens the order', async () => {
    const m = await product(50);
    const o = await approvedOrder([{ materialId: m.id, quantity: 10 }]);
    ok(await w.post('stock-outbound', ok(await ship([{ lineId: o.lines[0].id, quantity: 10 }])).id));
    expect((await info(o.id)).status).toBe('completed');
    const back = ok(await returnGoods([{ lineId: o.lines[0].id, quantity: 4 }]));
    expect(back).toMatchObject({ type: 'sales-return', saleOrderId: o.id, customerId: o.customerId });
    expect(back.lines[0].qualityStatus).toBe('pending');
    ok(await w.post('stock-inbound', back.id));
    const now = await info(o.id);
    expect(now.status).toBe('partly-shipped');
    expect(now.lines[0].shippedQuantity).toBe('6.0000');
    const tooMuch = ok(await returnGoods([{ lineId: o.lines[0].id, quantity: 7 }]));
    const refused = await w.post('stock-inbound', tooMuch.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('退货数量超过已发货数量');
  });

  it('refuses drafts, closed orders, other customers and products not on the order; unapprove waits for the documents', async () => {
    const m = await product(20);
    const other = await product(20);
    const o = await approvedOrder([{ materialId: m.id, quantity: 10 }]);
    // Through the warehouse's own form: the lines are linked by product.
    const byForm = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'sales',
        warehouseId: w.warehouseId,
        saleOrderId: o.id,
        lines: [{ materialId: m.id, quantity: 2 }],
      },
    });
    const doc = ok(byForm);
    expect(doc.lines[0].sourceLineId).toBe(o.lines[0].id);
    expect(doc.customerId).toBe(o.customerId);
    const wrong = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'sales',
        warehouseId: w.warehouseId,
        saleOrderId: o.id,
        lines: [{ materialId: other.id, quantity: 2 }],
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0].field).toBe('lines.0.materialId');
    const kind = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'requisition',
        warehouseId: w.warehouseId,
        saleOrderId: o.id,
        lines: [{ materialId: m.id, quantity: 2 }],
      },
    });
    expect(kind.status).toBe(400);
    const customer = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'sales',
        warehouseId: w.warehouseId,
        saleOrderId: o.id,
        customerId: (await f.create('customer')).id,
        lines: [{ materialId: m.id, quantity: 2 }],
      },
    });
    expect(customer.status).toBe(400);
    expect(customer.body.errors?.[0].field).toBe('customerId');

    const un = await t.call('POST', `/api/v1/sale-order/unapprove/${o.id}`, {
      token,
      body: { reason: '改价' },
    });
    expect(un.status).toBe(409);
    expect(un.body.message).toContain(doc.docNo);

    ok(await t.call('POST', `/api/v1/sale-order/close/${o.id}`, { token, body: { reason: '客户取消' } }));
    const closed = await w.post('stock-outbound', doc.id);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toContain('已关闭');
    const again = await ship([{ lineId: o.lines[0].id, quantity: 1 }]);
    expect(again.status).toBe(409);

    const draft = ok(
      await t.call('POST', '/api/v1/sale-order/add', {
        token,
        body: {
          customerId: o.customerId,
          orderDate: '2026-10-08',
          deliveryDate: '2026-11-20',
          lines: [{ materialId: m.id, quantity: 1 }],
        },
      }),
    );
    const notApproved = await ship([{ lineId: draft.lines[0].id, quantity: 1 }]);
    expect(notApproved.status).toBe(409);
    expect(notApproved.body.message).toContain('草稿');
    const zero = await ship([{ lineId: o.lines[0].id, quantity: 0 }]);
    expect(zero.status).toBe(400);
  });

  it('a salesperson with 发货 makes the draft but cannot post it; the keeper posts', async () => {
    const m = await product(10);
    const o = await approvedOrder([{ materialId: m.id, quantity: 3 }]);
    const sales = await t.userWith(['sale:warehouse:list', 'sale:warehouse:ship']);
    const draft = ok(await ship([{ lineId: o.lines[0].id, quantity: 3 }], sales.token));
    const post = await t.call('POST', `/api/v1/stock-outbound/post/${draft.id}`, { token: sales.token });
    expect(post.status).toBe(403);
    const keeper = await t.userWith(['warehouse:salesOutbound:list', 'warehouse:salesOutbound:post']);
    ok(await t.call('POST', `/api/v1/stock-outbound/post/${draft.id}`, { token: keeper.token }));
    const nobody = await t.userWith(['sale:order:list']);
    expect((await ship([{ lineId: o.lines[0].id, quantity: 1 }], nobody.token)).status).toBe(403);
  });
});

describe.runIf(PG_URL)('销售仓库 concurrency (PostgreSQL)', () => {
  it('32 clients posting shipments of the last open quantity of one line never exceed it', async () => {
    const m = await product(1000);
    const o = await approvedOrder([{ materialId: m.id, quantity: 10 }]);
    const drafts = [];
    for (let i = 0; i < 32; i++) drafts.push(ok(await ship([{ lineId: o.lines[0].id, quantity: 1 }])));
    const results = await Promise.all(drafts.map((d) => w.post('stock-outbound', d.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(22);
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const now = await info(o.id);
    expect(now.lines[0].shippedQuantity).toBe('10.0000');
    expect(now.status).toBe('completed');
    expect(await w.balance(m.id)).toBe(990);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });
});
