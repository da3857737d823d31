import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saleOrderProgress } from '../src/modules/sales/sale-order-progress.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * 订单执行 on a sales order's detail: per line ordered, planned (production orders), in stock,
 * shipped and owed, and the documents made against the order.
 */
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
const progress = (id: number, as = token) =>
  t.call('GET', `/api/v1/sale-order/progress/${id}`, { token: as });

/** A product with `onHand` of qualified stock in the test warehouse. */
async function product(onHand: number) {
  const m = await f.create('material-info', { salePrice: '20' });
  if (onHand > 0) {
    const doc = await w.inbound([{ materialId: m.id, quantity: onHand, unitPrice: '8' }]);
    ok(await w.post('stock-inbound', doc.id));
  }
  return m;
}

async function approvedOrder(lines: Record<string, unknown>[]) {
  const c = await f.create('customer');
  const o = ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: { customerId: c.id, orderDate: '2026-10-08', deliveryDate: '2026-11-20', lines },
    }),
  );
  ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
  return ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token }));
}

describe('sales order: per-line figures and linked documents', () => {
  it('shows planned after a production order and shipped/owed/stock after a partial shipment', async () => {
    const a = await product(100);
    const b = await product(0);
    const o = await approvedOrder([
      { materialId: a.id, quantity: 30 },
      { materialId: b.id, quantity: 5 },
    ]);
    const [la, lb] = o.lines;

    const before = ok(await progress(o.id));
    expect(before.lines).toEqual([
      expect.objectContaining({
        lineId: la.id,
        lineNo: 1,
        materialId: a.id,
        baseQuantity: '30.0000',
        plannedQuantity: '0',
        stockQuantity: '100.0000',
        shippedQuantity: '0.0000',
        owedQuantity: '30.0000',
      }),
      expect.objectContaining({
        lineId: lb.id,
        plannedQuantity: '0',
        stockQuantity: '0',
        owedQuantity: '5.0000',
      }),
    ]);
    expect(before.documents).toEqual([]);

    const made = ok(
      await t.call('POST', '/api/v1/production-order/from-sale-lines', {
        token,
        body: { plannedStartDate: '2026-10-12', lines: [{ saleOrderLineId: la.id, quantity: 20 }] },
      }),
    );
    const shipment = ok(
      await t.call('POST', '/api/v1/sale-order/ship', {
        token,
        body: { warehouseId: w.warehouseId, bizDate: '2026-10-20', lines: [{ lineId: la.id, quantity: 12 }] },
      }),
    );
    ok(await w.post('stock-outbound', shipment.id));
    const giveBack = ok(
      await t.call('POST', '/api/v1/sale-order/return-goods', {
        token,
        body: { warehouseId: w.warehouseId, bizDate: '2026-10-25', lines: [{ lineId: la.id, quantity: 2 }] },
      }),
    );

    const now = ok(await progress(o.id));
    expect(now.lines[0]).toMatchObject({
      baseQuantity: '30.0000',
      plannedQuantity: '20.0000',
      stockQuantity: '88.0000',
      shippedQuantity: '12.0000',
      owedQuantity: '18.0000',
    });
    expect(now.lines[1]).toMatchObject({
      plannedQuantity: '0',
      shippedQuantity: '0.0000',
      owedQuantity: '5.0000',
    });
    // Oldest first: the production order (planned start), the shipment, the return draft.
    expect(now.documents).toEqual([
      {
        kind: 'production-order',
        id: made.orders[0].id,
        docNo: made.orders[0].docNo,
        date: '2026-10-12',
        status: 'draft',
        quantity: '20.0000',
      },
      {
        kind: 'sales-outbound',
        id: shipment.id,
        docNo: shipment.docNo,
        date: '2026-10-20',
        status: 'posted',
        quantity: '12.0000',
      },
      {
        kind: 'sales-return',
        id: giveBack.id,
        docNo: giveBack.docNo,
        date: '2026-10-25',
        status: 'draft',
        quantity: '2.0000',
      },
    ]);

    // The planners' rule: a closed production order counts only what it produced.
    ok(
      await t.call('POST', `/api/v1/production-order/close/${made.orders[0].id}`, {
        token,
        body: { reason: '客户改为库存发货' },
      }),
    );
    expect(ok(await progress(o.id)).lines[0].plannedQuantity).toBe('0.0000');
  });

  it('reads every line in one query and the documents in a second', async () => {
    const m = await product(10);
    const o = await approvedOrder([
      { materialId: m.id, quantity: 1 },
      { materialId: m.id, quantity: 2 },
      { materialId: m.id, quantity: 3 },
    ]);
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const r = await saleOrderProgress(t.database.db.withPlugin(counter), o.id);
    expect(r.lines).toHaveLength(3);
    expect(queries).toBe(2);
  });

  it('needs sale:order:list; 404 for an order that does not exist', async () => {
    const m = await product(0);
    const o = await approvedOrder([{ materialId: m.id, quantity: 1 }]);
    const reader = await t.userWith(['sale:order:list']);
    const other = await t.userWith(['production:order:list']);
    expect(ok(await progress(o.id, reader.token)).lines).toHaveLength(1);
    expect((await progress(o.id, other.token)).status).toBe(403);
    const missing = await progress(999_999_999);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('销售订单不存在或已被删除');
  });
});
