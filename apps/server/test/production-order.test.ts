import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_DAYS } from '../src/modules/production/sub-orders.ts';
import { addDays, businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

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
const needs = (id: number) =>
  t.call('GET', `/api/v1/production-order/requirements/${id}`, { token }).then(ok);
const saleInfo = (id: number) => t.call('GET', `/api/v1/sale-order/info/${id}`, { token }).then(ok);

async function stock(materialId: number, quantity: number | string) {
  const doc = await w.inbound([{ materialId, quantity, unitPrice: '1' }]);
  ok(await w.post('stock-inbound', doc.id));
}

/**
 * A bearing P made of 2 rings R (made in-house from 0.04 of steel S per ring, 2 % loss) and
 * 8 balls B (0.5 % loss), routed over two steps. `balls` and `steel` are put in stock.
 */
async function product(balls = 1000, steel = 5) {
  const P = await f.create('material-info', { salePrice: '30' });
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
  const p1 = await f.create('process-manage');
  const p2 = await f.create('process-manage');
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: p1.id, standardMinutes: '1.5' },
      { seq: 20, processId: p2.id, inspectionRequired: true },
    ],
  });
  if (balls) await stock(B.id, balls);
  if (steel) await stock(S.id, steel);
  return { P, R, S, B };
}

async function order(productId: number, quantity: number | string, extra: Record<string, unknown> = {}) {
  return ok(
    await t.call('POST', '/api/v1/production-order/add', {
      token,
      body: { productId, quantity, plannedStartDate: '2026-11-02', dueDate: '2026-11-20', ...extra },
    }),
  );
}

async function approvedSaleOrder(materialId: number, quantity: number) {
  const o = ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: {
        customerId: (await f.create('customer')).id,
        orderDate: '2026-10-28',
        deliveryDate: '2026-11-25',
        lines: [{ materialId, quantity }],
      },
    }),
  );
  ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
  return saleInfo(o.id);
}

const row = (list: any[], materialId: number) => list.find((x) => x.materialId === materialId);

describe('production orders', () => {
  it('from an approved sales order line: never more than unplanned; release moves the sales order to 生产中', async () => {
    const { P } = await product();
    const so = await approvedSaleOrder(P.id, 150);
    const line = so.lines[0];
    const open = ok(
      await t.call('GET', '/api/v1/production-order/sale-lines', { token, query: { docNo: so.docNo } }),
    );
    expect(open.list).toHaveLength(1);
    expect(open.list[0]).toMatchObject({ lineId: line.id, plannedQuantity: '0', hasBom: true });
    expect(Number(open.list[0].unplannedQuantity)).toBe(150);

    const made = ok(
      await t.call('POST', '/api/v1/production-order/from-sale-lines', {
        token,
        body: {
          plannedStartDate: '2026-11-02',
          priority: 'high',
          lines: [{ saleOrderLineId: line.id, quantity: 100 }],
        },
      }),
    );
    expect(made.orders).toHaveLength(1);
    expect(made.orders[0].docNo).toMatch(/^SC20261102-\d{4}$/);
    const po = await info(made.orders[0].id);
    expect(po).toMatchObject({
      status: 'draft',
      sourceType: 'sales',
      saleOrderId: so.id,
      saleOrderName: so.docNo,
      productId: P.id,
      quantity: '100.0000',
      dueDate: '2026-11-25',
      priority: 'high',
      unitId: P.unitId,
    });
    const tooMuch = await t.call('POST', '/api/v1/production-order/from-sale-lines', {
      token,
      body: { lines: [{ saleOrderLineId: line.id, quantity: 60 }] },
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toContain('最多还可计划 50');
    // Editing the draft up past the line is refused the same way.
    const edit = await t.call('PUT', `/api/v1/production-order/edit/${po.id}`, {
      token,
      body: { quantity: 151, version: po.version },
    });
    expect(edit.status).toBe(409);
    const rest = ok(
      await t.call('POST', '/api/v1/production-order/from-sale-lines', {
        token,
        body: { lines: [{ saleOrderLineId: line.id }] },
      }),
    );
    expect((await info(rest.orders[0].id)).quantity).toBe('50.0000');
    const none = ok(
      await t.call('GET', '/api/v1/production-order/sale-lines', { token, query: { docNo: so.docNo } }),
    );
    expect(none.list).toHaveLength(0);

    const unapprove = await t.call('POST', `/api/v1/sale-order/unapprove/${so.id}`, {
      token,
      body: { reason: '改单' },
    });
    expect(unapprove.status).toBe(409);
    expect(unapprove.body.message).toContain('已安排生产');
    ok(await act('release', po.id));
    expect((await saleInfo(so.id)).status).toBe('producing');

    ok(await act('unrelease', po.id, { reason: '改BOM' }));
    const back = await info(po.id);
    expect(back).toMatchObject({ status: 'draft', materials: [], bomLines: [], steps: [], releasedAt: null });
    expect((await saleInfo(so.id)).status).toBe('approved');

    ok(await act('release', po.id));
    ok(await act('start', po.id));
    ok(await act('complete', po.id));
    expect((await act('release', po.id)).status).toBe(409);
    ok(await act('close', po.id, { reason: '结案' }));
    // Nothing produced: closing gives the planned quantity back to the line.
    expect((await saleInfo(so.id)).status).toBe('approved');
    const reopened = ok(
      await t.call('GET', '/api/v1/production-order/sale-lines', { token, query: { docNo: so.docNo } }),
    );
    expect(Number(reopened.list[0].unplannedQuantity)).toBe(100);
  });

  it('release freezes the exploded BOM and route, and nets requirements against free stock', async () => {
    const { P, R, S, B } = await product(1000, 5);
    const a = await order(P.id, 100);
    ok(await act('release', a.id));
    const first = await info(a.id);
    expect(first.status).toBe('released');
    expect(first.bomVersionNo).toBeTruthy();
    // Tree order: R, then S under it, then B.
    expect(first.bomLines.map((l: any) => [l.level, l.materialId, l.requiredQuantity, l.exploded])).toEqual([
      [1, R.id, '200.0000', true],
      [2, S.id, '8.1600', false],
      [1, B.id, '804.0000', false],
    ]);
    expect(first.steps.map((s: any) => [s.seq, s.plannedQuantity, s.inspectionRequired])).toEqual([
      [10, '100.0000', false],
      [20, '100.0000', true],
    ]);
    expect(first.materials).toHaveLength(2);
    expect(row(first.materials, B.id)).toMatchObject({
      requiredQuantity: '804.0000',
      reservedQuantity: '804.0000',
      shortageQuantity: '0.0000',
    });
    expect(row(first.materials, S.id)).toMatchObject({
      requiredQuantity: '8.1600',
      freeQuantity: '5.0000',
      reservedQuantity: '5.0000',
      shortageQuantity: '3.1600',
    });

    // A second order sees the first one's reservation.
    const b = await order(P.id, 50);
    ok(await act('release', b.id));
    const second = await info(b.id);
    expect(row(second.materials, B.id)).toMatchObject({
      requiredQuantity: '402.0000',
      freeQuantity: '196.0000',
      reservedQuantity: '196.0000',
      shortageQuantity: '206.0000',
    });
    expect(row(second.materials, S.id)).toMatchObject({
      freeQuantity: '-3.1600',
      reservedQuantity: '0.0000',
      shortageQuantity: '4.0800',
    });
    const live = await needs(b.id);
    expect(row(live.list, B.id)).toMatchObject({
      onHand: '1000.0000',
      reservedByOthers: '804.0000',
      freeQuantity: '196',
      currentShortage: '206',
      toRequisition: '206',
    });
    // Closing the first order frees its reservation.
    ok(await act('close', a.id, { reason: '取消' }));
    expect(row((await needs(b.id)).list, B.id)).toMatchObject({
      reservedByOthers: '0',
      currentShortage: '0',
    });
  });

  it('refuses release without an active BOM or route', async () => {
    const lone = await f.create('material-info');
    const o = await order(lone.id, 5);
    const r = await act('release', o.id);
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('没有启用的BOM');
    expect((await info(o.id)).status).toBe('draft');
  });

  it('生成请购单 requisitions the shortage once, naming the order', async () => {
    const { P, S, B } = await product(100, 0);
    const o = await order(P.id, 20);
    expect((await t.call('POST', `/api/v1/production-order/to-requisition/${o.id}`, { token })).status).toBe(
      409,
    );
    ok(await act('release', o.id));
    const made = ok(await t.call('POST', `/api/v1/production-order/to-requisition/${o.id}`, { token }));
    expect(made.docNo).toMatch(/^QG\d{8}-\d{4}$/);
    const req = ok(await t.call('GET', `/api/v1/purchase-requisition/info/${made.id}`, { token }));
    expect(req.reason).toBe(`生产订单 ${o.docNo} 缺料`);
    expect(req.status).toBe('draft');
    // Steel 20 × 2 × 0.04 × 1.02 = 1.632 short; balls 20 × 8 × 1.005 = 160.8 less 100 on hand.
    expect(req.lines.map((l: any) => [l.materialId, l.baseQuantity]).sort()).toEqual(
      [
        [S.id, '1.6320'],
        [B.id, '60.8000'],
      ].sort(),
    );
    const after = await needs(o.id);
    expect(row(after.list, B.id)).toMatchObject({ requisitionedQuantity: '60.8000', toRequisition: '0' });
    expect(after.requisitions.map((r: any) => r.docNo)).toEqual([made.docNo]);
    const again = await t.call('POST', `/api/v1/production-order/to-requisition/${o.id}`, { token });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('没有待请购的缺料');
    // Deleting the draft requisition makes the shortage requisitionable again.
    ok(await t.call('DELETE', `/api/v1/purchase-requisition/delete/${made.id}`, { token }));
    expect(row((await needs(o.id)).list, B.id).toRequisition).toBe('60.8');
  });

  it('领料出库 issues at most the requirement plus the allowance; the first issue starts production', async () => {
    const { P, S, B } = await product(1000, 50);
    const o = await order(P.id, 10);
    const draftIssue = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'requisition',
        warehouseId: w.warehouseId,
        productionOrderId: o.id,
        lines: [{ materialId: B.id, quantity: 1 }],
      },
    });
    expect(draftIssue.status).toBe(409);
    expect(draftIssue.body.message).toContain('草稿，不能领料');
    ok(await act('release', o.id));
    const stranger = await w.material();
    const foreign = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'requisition',
        warehouseId: w.warehouseId,
        productionOrderId: o.id,
        lines: [{ materialId: stranger.id, quantity: 1 }],
      },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0].field).toBe('lines.0.materialId');
    const wrongType = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'other',
        warehouseId: w.warehouseId,
        productionOrderId: o.id,
        lines: [{ materialId: B.id, quantity: 1 }],
      },
    });
    expect(wrongType.status).toBe(400);

    // Balls: 10 × 8 × 1.005 = 80.4 required.
    const issue = (quantity: string | number) =>
      w.outbound([{ materialId: B.id, quantity }], { productionOrderId: o.id });
    const first = await issue(80);
    expect(first.sourceNo).toBe(o.docNo);
    ok(await w.post('stock-outbound', first.id));
    expect((await info(o.id)).status).toBe('producing');
    const over = await issue('0.5');
    const refused = await w.post('stock-outbound', over.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('最多还可领 0.4');
    expect(await w.balance(B.id)).toBe(920);
    await sql`INSERT INTO sys_setting (key, value) VALUES ('production.overIssuePercent', '"1"')
              ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`.execute(t.database.db);
    try {
      ok(await w.post('stock-outbound', over.id));
    } finally {
      await sql`DELETE FROM sys_setting WHERE key = 'production.overIssuePercent'`.execute(t.database.db);
    }
    expect(row((await info(o.id)).materials, B.id).issuedQuantity).toBe('80.5000');
    expect((await act('unrelease', o.id, { reason: '错' })).status).toBe(409);
    // Reversal gives the issue back.
    ok(await t.call('POST', `/api/v1/stock-outbound/reverse/${over.id}`, { token, body: {} }));
    expect(row((await info(o.id)).materials, B.id).issuedQuantity).toBe('80.0000');
    // Closed: nothing more is issued against it.
    const steel = await w.outbound([{ materialId: S.id, quantity: 0.1 }], { productionOrderId: o.id });
    ok(await act('close', o.id, { reason: '停产' }));
    expect((await w.post('stock-outbound', steel.id)).status).toBe(409);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });
});

describe('生成自制件订单', () => {
  it('rings become orders of their own; the parent then needs the rings, not the steel', async () => {
    const { P, R, S, B } = await product(0, 0);
    const o = await order(P.id, 50);
    ok(await act('release', o.id));
    expect(row((await info(o.id)).materials, S.id)).toBeDefined();
    const made = ok(await t.call('POST', `/api/v1/production-order/sub-orders/${o.id}`, { token }));
    expect(made.orders).toHaveLength(1);
    const ring = await info(made.orders[0].id);
    expect(ring).toMatchObject({
      productId: R.id,
      quantity: '100.0000',
      status: 'draft',
      sourceType: 'sub-order',
      parentOrderId: o.id,
      // The parent starts on 2026-11-02, before today: no route, so LEAD_DAYS from today, never earlier.
      plannedStartDate: businessDay(),
      dueDate: addDays(businessDay(), LEAD_DAYS - 1),
    });
    const parent = await info(o.id);
    expect(row(parent.materials, S.id)).toBeUndefined();
    expect(row(parent.materials, R.id)).toMatchObject({ requiredQuantity: '100.0000' });
    expect(row(parent.materials, B.id)).toMatchObject({ requiredQuantity: '402.0000' });
    // The ring order needs the steel (2 % loss): reserved once.
    const turn = await f.create('process-manage');
    await f.create('process-route', {
      productId: R.id,
      status: 'active',
      steps: [{ seq: 10, processId: turn.id }],
    });
    ok(await act('release', ring.id));
    expect(row((await info(ring.id)).materials, S.id)).toMatchObject({ requiredQuantity: '4.0800' });
    const again = await t.call('POST', `/api/v1/production-order/sub-orders/${o.id}`, { token });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('已生成自制件订单');
    const draft = await order(P.id, 5);
    const early = await t.call('POST', `/api/v1/production-order/sub-orders/${draft.id}`, { token });
    expect(early.status).toBe(409);
  });
});

describe.runIf(PG_URL)('production order issue concurrency (PostgreSQL)', () => {
  it('32 clients issuing the last required pieces never issue more than required', async () => {
    const { P, B } = await product(5000, 50);
    const o = await order(P.id, 10); // balls: 80.4 required
    ok(await act('release', o.id));
    const first = await w.outbound([{ materialId: B.id, quantity: '70.4' }], { productionOrderId: o.id });
    ok(await w.post('stock-outbound', first.id));
    const drafts = [];
    for (let i = 0; i < 32; i++)
      drafts.push(await w.outbound([{ materialId: B.id, quantity: 1 }], { productionOrderId: o.id }));
    const results = await Promise.all(drafts.map((d) => w.post('stock-outbound', d.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(22);
    expect(row((await info(o.id)).materials, B.id).issuedQuantity).toBe('80.4000');
    expect(await w.balance(B.id)).toBe(4919.6);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });
});
