import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

/**
 * The planner's steps around a production order that the UI drives (issue 35): 领料出库 naming the
 * order through the warehouse form's order picker, 生成自制件订单 with its preview and dates planned
 * backwards from the parent, and production orders made from an approved 备货单.
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
const act = (name: string, id: number, body: Record<string, unknown> = {}) =>
  t.call('POST', `/api/v1/production-order/${name}/${id}`, { token, body });
const info = (id: number) => t.call('GET', `/api/v1/production-order/info/${id}`, { token }).then(ok);
const row = (list: any[], materialId: number) => list.find((x) => Number(x.materialId) === materialId);

async function stock(materialId: number, quantity: number | string) {
  const doc = await w.inbound([{ materialId, quantity, unitPrice: '1' }]);
  ok(await w.post('stock-inbound', doc.id));
}

/**
 * A bearing P made of 2 rings R (made in-house from 0.04 of steel S per ring, 2 % loss) and 8 balls
 * B (0.5 % loss). The ring's route: two steps of 3 and 1.8 standard minutes and an outsourced one.
 */
async function product(balls = 1000, steel = 5) {
  const P = await f.create('material-info', { name: `轴承${Date.now() % 100000}`, salePrice: '30' });
  const R = await f.create('material-info');
  const S = await f.create('material-info');
  const B = await f.create('material-info');
  const bom = (productId: number, lines: Record<string, unknown>[]) =>
    f.create('product-bom', { productId, status: 'active', lines });
  await bom(P.id, [
    { materialId: R.id, quantity: 2, unitId: R.unitId },
    { materialId: B.id, quantity: 8, unitId: B.unitId, lossRate: '0.5' },
  ]);
  await bom(R.id, [{ materialId: S.id, quantity: '0.04', unitId: S.unitId, lossRate: '2' }]);
  const [p1, p2, p3] = [
    await f.create('process-manage'),
    await f.create('process-manage'),
    await f.create('process-manage'),
  ];
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [{ seq: 10, processId: p1.id, standardMinutes: '1.5' }],
  });
  await f.create('process-route', {
    productId: R.id,
    status: 'active',
    steps: [
      { seq: 10, processId: p1.id, standardMinutes: '3' },
      { seq: 20, processId: p3.id, outsourced: true },
      { seq: 30, processId: p2.id, standardMinutes: '1.8' },
    ],
  });
  if (balls) await stock(B.id, balls);
  if (steel) await stock(S.id, steel);
  return { P, R, S, B };
}

async function order(productId: number, quantity: number | string, extra: Record<string, unknown> = {}) {
  const today = businessDay();
  return ok(
    await t.call('POST', '/api/v1/production-order/add', {
      token,
      body: { productId, quantity, plannedStartDate: today, dueDate: today, ...extra },
    }),
  );
}

describe('领料出库 picks its production order', () => {
  it('a keeper finds released orders with something left to issue and takes their open requirements', async () => {
    const { P, S, B } = await product();
    const o = await order(P.id, 10);
    const draft = await order(P.id, 3);
    ok(await act('release', o.id));
    const keeper = (
      await t.userWith(['warehouse:requisitionOutbound:list', 'warehouse:requisitionOutbound:add'])
    ).token;
    const options = (keyword: string, type = 'requisition') =>
      t.call('GET', '/api/v1/stock-outbound/source-orders', { token: keeper, query: { type, keyword } });

    const found = ok<any[]>(await options(P.name));
    expect(found.map((x) => x.docNo)).toEqual([o.docNo]); // the draft holds nothing to issue
    expect(found[0].label).toContain(P.name);
    expect(ok<any[]>(await options(draft.docNo))).toEqual([]);
    // Only 领料出库 picks production orders.
    expect((await options(o.docNo, 'other')).status).toBe(400);

    const lines = (id: number) =>
      t.call('GET', `/api/v1/stock-outbound/source-lines/${id}`, {
        token: keeper,
        query: { type: 'requisition' },
      });
    const taken = ok(await lines(o.id));
    expect(taken.docNo).toBe(o.docNo);
    // 2 rings × 10 with their steel (0.04 × 1.02) and 8 balls × 10 × 1.005.
    expect(row(taken.lines, S.id)).toMatchObject({ quantity: '0.8160', unitId: S.unitId });
    expect(row(taken.lines, B.id)).toMatchObject({ quantity: '80.4000' });
    expect((await lines(draft.id)).status).toBe(409);

    // The keeper's document made from the picked lines (30 balls now) moves 已领料.
    const ballLine = row(taken.lines, B.id);
    const doc = ok(
      await t.call('POST', '/api/v1/stock-outbound/add', {
        token: keeper,
        body: {
          type: 'requisition',
          warehouseId: w.warehouseId,
          productionOrderId: o.id,
          lines: [
            {
              materialId: B.id,
              quantity: 30,
              sourceLineId: ballLine.sourceLineId,
              qualityStatus: 'qualified',
            },
          ],
        },
      }),
    );
    expect(doc.sourceNo).toBe(o.docNo);
    ok(await w.post('stock-outbound', doc.id));
    const after = await info(o.id);
    expect(row(after.materials, B.id).issuedQuantity).toBe('30.0000');
    expect(after.status).toBe('producing');
    expect(row(ok(await lines(o.id)).lines, B.id).quantity).toBe('50.4000');
    // The over-issue guard holds for what the form sends: 51 of the 50.4 still open.
    const over = ok(
      await t.call('POST', '/api/v1/stock-outbound/add', {
        token: keeper,
        body: {
          type: 'requisition',
          warehouseId: w.warehouseId,
          productionOrderId: o.id,
          lines: [{ materialId: B.id, quantity: 51, qualityStatus: 'qualified' }],
        },
      }),
    );
    const refused = await w.post('stock-outbound', over.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('最多还可领 50.4');
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });
});

async function approvedSaleOrder(materialId: number, quantity: number, deliveryDate: string) {
  const customer = await f.create('customer');
  const o = ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: {
        customerId: customer.id,
        orderDate: businessDay(),
        deliveryDate,
        lines: [{ materialId, quantity }],
      },
    }),
  );
  ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
  return ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token }));
}

describe('生成自制件订单', () => {
  const plan = (id: number) => t.call('GET', `/api/v1/production-order/sub-orders/${id}`, { token }).then(ok);

  it('shows the rings to make, plans them back from the parent and keeps its sales order and customer', async () => {
    const { P, R } = await product();
    const today = businessDay();
    const so = await approvedSaleOrder(P.id, 10, addDays(today, 40));
    const made = ok(
      await t.call('POST', '/api/v1/production-order/from-sale-lines', {
        token,
        body: { plannedStartDate: addDays(today, 30), lines: [{ saleOrderLineId: so.lines[0].id }] },
      }),
    );
    const parent = made.orders[0];
    expect((await plan(parent.id)).refusal).toContain('下达后');
    ok(await act('release', parent.id));

    // 20 rings: the slowest step 3 min × 20 = 60 min is a day, one more in-house step a day, the
    // outsourced one 3 days: 5 days, finishing the day before the parent starts.
    const preview = await plan(parent.id);
    expect(preview.refusal).toBeNull();
    expect(preview.rule).toEqual({ shiftMinutes: 480, outsourcedDays: 3, withoutRouteDays: 10 });
    expect(preview.parts).toEqual([
      expect.objectContaining({
        productId: R.id,
        quantity: '20',
        leadDays: 5,
        plannedStartDate: addDays(today, 25),
        dueDate: addDays(today, 29),
        late: false,
      }),
    ]);

    const { orders } = ok(
      await t.call('POST', `/api/v1/production-order/sub-orders/${parent.id}`, { token }),
    );
    expect(orders).toHaveLength(1);
    expect(await info(orders[0].id)).toMatchObject({
      productId: R.id,
      quantity: '20.0000',
      sourceType: 'sub-order',
      parentOrderId: parent.id,
      saleOrderId: so.id,
      customerId: so.customerId,
      plannedStartDate: addDays(today, 25),
      dueDate: addDays(today, 29),
      status: 'draft',
    });
    // What the sales order has planned is the bearings' order only: the rings name no line.
    const open = ok(
      await t.call('GET', '/api/v1/production-order/sale-lines', {
        token,
        query: { docNo: so.docNo, all: 1 },
      }),
    );
    expect(open.list[0].plannedQuantity).toBe('10.0000');
    const after = await plan(parent.id);
    expect(after.refusal).toContain('已生成自制件订单');
    expect(after.parts).toEqual([]);
    expect(after.made).toEqual([expect.objectContaining({ id: orders[0].id, docNo: orders[0].docNo })]);
  });

  it('never starts a ring order before today: too late for the parent, it is flagged', async () => {
    const { P, R } = await product();
    const today = businessDay();
    const o = await order(P.id, 10, { plannedStartDate: addDays(today, 2), dueDate: addDays(today, 9) });
    ok(await act('release', o.id));
    const preview = await plan(o.id);
    expect(preview.parts).toEqual([
      expect.objectContaining({
        productId: R.id,
        plannedStartDate: today,
        dueDate: addDays(today, 4),
        late: true,
      }),
    ]);
    const { orders } = ok(await t.call('POST', `/api/v1/production-order/sub-orders/${o.id}`, { token }));
    expect(await info(orders[0].id)).toMatchObject({ plannedStartDate: today, dueDate: addDays(today, 4) });
  });
});

describe('从备货单生成', () => {
  const stockUp = async (materialId: number, quantity: number, customerId?: number) => {
    const doc = ok(
      await t.call('POST', '/api/v1/stock-up-order/add', {
        token,
        body: {
          orderDate: businessDay(),
          requiredDate: addDays(businessDay(), 20),
          purpose: '旺季备货',
          customerId,
          lines: [{ materialId, quantity }],
        },
      }),
    );
    return doc;
  };
  const stockUpInfo = (id: number) => t.call('GET', `/api/v1/stock-up-order/info/${id}`, { token }).then(ok);
  const make = (lines: Record<string, unknown>[]) =>
    t.call('POST', '/api/v1/production-order/from-stock-up-lines', {
      token,
      body: { plannedStartDate: addDays(businessDay(), 5), lines },
    });

  it('an approved 备货单 line becomes production orders naming it; the 备货单 follows them to 已完成', async () => {
    const { P, R } = await product();
    const customer = await f.create('customer');
    const doc = await stockUp(P.id, 30, customer.id);
    const lineId = doc.lines[0].id;
    const open = () =>
      t
        .call('GET', '/api/v1/production-order/stock-up-lines', { token, query: { docNo: doc.docNo } })
        .then(ok);
    // A draft is not planned from.
    expect((await open()).list).toEqual([]);
    expect((await make([{ stockUpLineId: lineId }])).status).toBe(409);
    ok(await t.call('POST', `/api/v1/stock-up-order/approve/${doc.id}`, { token, body: {} }));
    expect((await open()).list).toEqual([
      expect.objectContaining({
        lineId,
        docNo: doc.docNo,
        materialId: P.id,
        plannedQuantity: '0',
        hasBom: true,
      }),
    ]);

    const a = ok(await make([{ stockUpLineId: lineId, quantity: 20 }])).orders[0];
    expect(await info(a.id)).toMatchObject({
      productId: P.id,
      quantity: '20.0000',
      sourceType: 'stock-up',
      stockUpOrderId: doc.id,
      stockUpLineId: lineId,
      customerId: customer.id,
      plannedStartDate: addDays(businessDay(), 5),
      dueDate: addDays(businessDay(), 20),
      remark: `由备货单 ${doc.docNo} 生成`,
      status: 'draft',
    });
    expect((await stockUpInfo(doc.id)).lines[0].plannedQuantity).toBe('20.0000');
    // Never past the line: 11 of the 10 left.
    const over = await make([{ stockUpLineId: lineId, quantity: 11 }]);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可排产 10');
    // A draft made and deleted gives its quantity back.
    const b0 = ok(await make([{ stockUpLineId: lineId }])).orders[0];
    expect(await info(b0.id)).toMatchObject({ quantity: '10.0000' });
    expect((await stockUpInfo(doc.id)).lines[0].plannedQuantity).toBe('30.0000');
    expect((await open()).list).toEqual([]);
    ok(await t.call('DELETE', `/api/v1/production-order/delete/${b0.id}`, { token }));
    expect((await stockUpInfo(doc.id)).lines[0].plannedQuantity).toBe('20.0000');
    const b = ok(await make([{ stockUpLineId: lineId }])).orders[0];

    // Released: the 备货单 is 生产中 and cannot be unapproved; its ring orders name it too.
    ok(await act('release', a.id));
    expect((await stockUpInfo(doc.id)).status).toBe('producing');
    const unapprove = await t.call('POST', `/api/v1/stock-up-order/unapprove/${doc.id}`, {
      token,
      body: { reason: '改' },
    });
    expect(unapprove.status).toBe(409);
    const { orders: rings } = ok(
      await t.call('POST', `/api/v1/production-order/sub-orders/${a.id}`, { token }),
    );
    expect(await info(rings[0].id)).toMatchObject({
      productId: R.id,
      stockUpOrderId: doc.id,
      customerId: customer.id,
    });

    // Both orders produce their quantity and complete: the 备货单 is 已完成.
    ok(await act('release', b.id));
    const produce = async (id: number, n: number) => {
      ok(await act('start', id));
      await t.database.db
        .updateTable('productionOrder')
        .set({ producedQuantity: String(n) })
        .where('id', '=', id)
        .execute();
      ok(await act('complete', id));
    };
    await produce(a.id, 20);
    expect((await stockUpInfo(doc.id)).status).toBe('producing');
    await produce(b.id, 10);
    expect((await stockUpInfo(doc.id)).status).toBe('completed');
    const progress = ok(await t.call('GET', `/api/v1/stock-up-order/progress/${doc.id}`, { token }));
    expect(progress.lines).toEqual([
      expect.objectContaining({ id: lineId, plannedQuantity: '30.0000', producedQuantity: '30.0000' }),
    ]);
    expect(progress.orders.map((o: any) => o.docNo).sort()).toEqual(
      [a.docNo, b.docNo, rings[0].docNo].sort(),
    );
  });
});

describe.runIf(PG_URL)('从备货单生成 concurrency (PostgreSQL)', () => {
  it('eight planners planning the last pieces of a 备货单 line at once never plan past it', async () => {
    const { P } = await product(0, 0);
    const doc = ok(
      await t.call('POST', '/api/v1/stock-up-order/add', {
        token,
        body: {
          orderDate: businessDay(),
          requiredDate: addDays(businessDay(), 20),
          purpose: '并发排产',
          lines: [{ materialId: P.id, quantity: 10 }],
        },
      }),
    );
    ok(await t.call('POST', `/api/v1/stock-up-order/approve/${doc.id}`, { token, body: {} }));
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('POST', '/api/v1/production-order/from-stock-up-lines', {
          token,
          body: { lines: [{ stockUpLineId: doc.lines[0].id, quantity: 3 }] },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    const line = ok(await t.call('GET', `/api/v1/stock-up-order/info/${doc.id}`, { token })).lines[0];
    expect(line.plannedQuantity).toBe('9.0000');
  });
});
