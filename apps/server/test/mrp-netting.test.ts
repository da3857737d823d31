import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * Issue 37 §1 through HTTP: P needs 2 S (5 % loss), S is made from 0.5 kg of L2 (10 % loss); 40 S
 * are on hand; an order of 100 P. Netted level by level, S is made for 210 − 40 = 170 and L2 is
 * bought for 170 × 0.5 × 1.1 = 93.5 kg — not for the gross 210 × 0.55 = 115.5 kg, and the ring
 * order is not the gross 210 while the parent also takes the 40 in stock.
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
const get = (url: string) => t.call('GET', url, { token }).then(ok);
const post = (url: string, body: Record<string, unknown> = {}) => t.call('POST', url, { token, body });
const byItem = (list: any[], id: number) => list.filter((x) => x.itemId === id);
const rowOf = (sheet: any, id: number) => sheet.rows.find((r: any) => r.itemId === id);

const today = businessDay();
const start = addDays(today, 30);

/** P → 2 S (5 %) → 0.5 kg L2 (10 %); S takes 5 days, L2 7; 40 S in stock; P and S routed. */
async function example() {
  const pcs = await f.create('material-unit', { precision: 0 });
  const kg = await f.create('material-unit', { precision: 3 });
  const P = await f.create('material-info', { unitId: pcs.id });
  const S = await f.create('material-info', { unitId: pcs.id, leadTimeDays: 5 });
  const L2 = await f.create('material-info', { unitId: kg.id, leadTimeDays: 7 });
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 2, unitId: pcs.id, lossRate: '5' }],
  });
  await f.create('product-bom', {
    productId: S.id,
    status: 'active',
    lines: [{ materialId: L2.id, quantity: '0.5', unitId: kg.id, lossRate: '10' }],
  });
  for (const productId of [P.id, S.id]) {
    const step = await f.create('process-manage');
    await f.create('process-route', {
      productId,
      status: 'active',
      steps: [{ seq: 10, processId: step.id, standardMinutes: '1' }],
    });
  }
  const doc = await w.inbound([{ materialId: S.id, quantity: 40, unitPrice: '5' }]);
  ok(await w.post('stock-inbound', doc.id));
  return { P, S, L2 };
}

describe('one production order: 下达, 生成请购单 and 生成自制件订单 on the netted plan', () => {
  it('nets S to 170, explodes L2 from 170, and makes documents of the planned orders as computed', async () => {
    const { P, S, L2 } = await example();
    const order = ok(
      await post('/api/v1/production-order/add', {
        productId: P.id,
        quantity: 100,
        plannedStartDate: start,
        dueDate: addDays(start, 10),
      }),
    );

    // The MRP sheet of the draft: what 下达 will do.
    const preview = await get(`/api/v1/mrp/production-order/${order.id}`);
    expect(rowOf(preview, P.id)).toMatchObject({ level: 0, firm: '100', net: '0' });
    expect(rowOf(preview, S.id)).toMatchObject({
      level: 1,
      source: 'make',
      gross: '210',
      onHand: '40',
      net: '170',
      planned: '170',
    });
    expect(rowOf(preview, L2.id)).toMatchObject({ level: 2, source: 'buy', gross: '93.5', planned: '93.5' });
    expect(byItem(preview.plannedOrders, S.id)).toEqual([
      expect.objectContaining({
        quantity: '170',
        needDate: start,
        startDate: addDays(start, -5),
        late: false,
        pegs: [{ ref: expect.objectContaining({ type: 'production-order', id: order.id }), quantity: '170' }],
      }),
    ]);
    expect(byItem(preview.plannedOrders, L2.id)).toEqual([
      expect.objectContaining({
        quantity: '93.5',
        needDate: addDays(start, -5),
        startDate: addDays(start, -12),
      }),
    ]);

    // 下达 freezes the netted tree: S 210 of which 170 made, L2 from the 170.
    ok(await post(`/api/v1/production-order/release/${order.id}`));
    const released = await get(`/api/v1/production-order/info/${order.id}`);
    expect(
      released.bomLines.map((l: any) => [
        l.level,
        l.materialId,
        l.requiredQuantity,
        l.madeQuantity,
        l.exploded,
      ]),
    ).toEqual([
      [1, S.id, '210.0000', '170.0000', true],
      [2, L2.id, '93.5000', '0.0000', false],
    ]);
    const need = (id: number) => released.materials.find((m: any) => m.materialId === id);
    expect(need(S.id)).toMatchObject({
      requiredQuantity: '40.0000',
      reservedQuantity: '40.0000',
      shortageQuantity: '0.0000',
    });
    expect(need(L2.id)).toMatchObject({ requiredQuantity: '93.5000', shortageQuantity: '93.5000' });

    // 生成请购单: the planned purchase as computed, needed when S starts, pegged to the order.
    const req = ok(await post(`/api/v1/production-order/to-requisition/${order.id}`));
    const requisition = await get(`/api/v1/purchase-requisition/info/${req.id}`);
    expect(requisition.lines.map((l: any) => [l.materialId, l.baseQuantity, l.requiredDate])).toEqual([
      [L2.id, '93.5000', addDays(start, -5)],
    ]);
    const reqPegs = await get(`/api/v1/mrp/pegs?requisitionId=${req.id}`);
    expect(reqPegs.list).toEqual([
      expect.objectContaining({
        materialId: L2.id,
        demandType: 'production-order',
        demandOrderId: order.id,
        quantity: '93.5000',
      }),
    ]);
    // The requisition is supply now: nothing more to buy.
    expect((await post(`/api/v1/production-order/to-requisition/${order.id}`)).body.message).toContain(
      '没有待请购的缺料',
    );

    // 生成自制件订单: 170 rings (the planned order), not the gross 210.
    const plan = await get(`/api/v1/production-order/sub-orders/${order.id}`);
    expect(plan.parts).toEqual([
      expect.objectContaining({ productId: S.id, quantity: '170', net: '170', leadDays: 5 }),
    ]);
    const made = ok(await post(`/api/v1/production-order/sub-orders/${order.id}`));
    expect(made.orders).toHaveLength(1);
    const ring = await get(`/api/v1/production-order/info/${made.orders[0].id}`);
    expect(ring).toMatchObject({
      productId: S.id,
      quantity: '170.0000',
      sourceType: 'sub-order',
      parentOrderId: order.id,
      plannedStartDate: addDays(start, -5),
      dueDate: addDays(start, -1),
    });
    const ringPegs = await get(`/api/v1/mrp/pegs?productionOrderId=${ring.id}`);
    expect(ringPegs.list).toEqual([
      expect.objectContaining({
        materialId: S.id,
        demandOrderId: order.id,
        quantity: '170.0000',
        needDate: start,
      }),
    ]);
    // The parent now needs the 210 rings: 40 from stock, 170 from the ring order.
    const parent = await get(`/api/v1/production-order/info/${order.id}`);
    expect(parent.materials.map((m: any) => [m.materialId, m.requiredQuantity, m.reservedQuantity])).toEqual([
      [S.id, '210.0000', '40.0000'],
    ]);
    // Its sheet: the ring order covers what stock lacks; nothing is left to plan.
    const after = await get(`/api/v1/mrp/production-order/${order.id}`);
    expect(rowOf(after, S.id)).toMatchObject({ gross: '210', scheduled: '170', net: '0', planned: '0' });
    expect(after.plannedOrders.filter((o: any) => !o.firm)).toEqual([]);
    // The ring order, released, explodes the steel from its 170 and finds the requisition made.
    ok(await post(`/api/v1/production-order/release/${ring.id}`));
    const ringInfo = await get(`/api/v1/production-order/info/${ring.id}`);
    expect(ringInfo.materials.map((m: any) => [m.materialId, m.requiredQuantity])).toEqual([
      [L2.id, '93.5000'],
    ]);
    const ringSheet = await get(`/api/v1/mrp/production-order/${ring.id}`);
    expect(rowOf(ringSheet, L2.id)).toMatchObject({ gross: '93.5', scheduled: '93.5', net: '0' });
  });

  it('lot sizes: the ring order is the lot, and the steel is exploded from the lot', async () => {
    const { P, S, L2 } = await example();
    ok(
      await t
        .call('PUT', `/api/v1/material-info/edit/${S.id}`, {
          token,
          body: {
            ...(await get(`/api/v1/material-info/info/${S.id}`)),
            lotSizeMin: '200',
            lotSizeMultiple: '50',
          },
        })
        .then((r) => ({ status: r.status, body: r.body })),
    );
    const order = ok(
      await post('/api/v1/production-order/add', {
        productId: P.id,
        quantity: 100,
        plannedStartDate: start,
        dueDate: addDays(start, 10),
      }),
    );
    const sheet = await get(`/api/v1/mrp/production-order/${order.id}`);
    // 170 → at least 200, a multiple of 50: 200 rings; 200 × 0.55 = 110 kg.
    expect(rowOf(sheet, S.id)).toMatchObject({ net: '170', planned: '200' });
    expect(rowOf(sheet, L2.id)).toMatchObject({ gross: '110', planned: '110' });
  });
});

describe('one order keeps what was bought or made for it', () => {
  it('its requisition covers it though another order is short and the safety stock low: one requisition', async () => {
    const { P, S, L2 } = await example();
    const steel = await get(`/api/v1/material-info/info/${L2.id}`);
    ok(
      await t.call('PUT', `/api/v1/material-info/edit/${L2.id}`, {
        token,
        body: { ...steel, safetyStockMin: '50' },
      }),
    );
    const doc = await w.inbound([{ materialId: L2.id, quantity: 20, unitPrice: '6' }]);
    ok(await w.post('stock-inbound', doc.id));
    const add = async () =>
      ok(
        await post('/api/v1/production-order/add', {
          productId: P.id,
          quantity: 100,
          plannedStartDate: start,
          dueDate: addDays(start, 10),
        }),
      );
    // A takes the 40 rings and holds the 20 kg (it needs 93.5 kg); B makes all its 210 rings.
    const a = await add();
    ok(await post(`/api/v1/production-order/release/${a.id}`));
    const b = await add();
    ok(await post(`/api/v1/production-order/release/${b.id}`));
    const sheet = await get(`/api/v1/mrp/production-order/${b.id}`);
    expect(rowOf(sheet, S.id)).toMatchObject({ gross: '210', onHand: '40', allocated: '40', net: '210' });
    // 20 kg on hand, A holds 93.5, 50 are safety stock: B buys its whole 210 × 0.55 = 115.5 kg.
    expect(rowOf(sheet, L2.id)).toMatchObject({ gross: '115.5', allocated: '93.5', net: '115.5' });
    const req = ok(await post(`/api/v1/production-order/to-requisition/${b.id}`));
    expect(
      (await get(`/api/v1/purchase-requisition/info/${req.id}`)).lines.map((l: any) => l.baseQuantity),
    ).toEqual(['115.5000']);
    // The requisition is B's: A's shortage and the safety stock do not take it.
    const again = await post(`/api/v1/production-order/to-requisition/${b.id}`);
    expect(again.status).toBe(409);
    expect(rowOf(await get(`/api/v1/mrp/production-order/${b.id}`), L2.id)).toMatchObject({ net: '0' });
    // A's run plans its own 93.5 kg: the 20 kg are below the safety stock, B's requisition is B's.
    expect(rowOf(await get(`/api/v1/mrp/production-order/${a.id}`), L2.id)).toMatchObject({
      allocated: '115.5',
      net: '93.5',
    });
  });
});

describe('the plan: 「运算」 over the open sales orders', () => {
  it('nets the sales demand level by level and makes pegged ring orders and requisitions', async () => {
    const { P, S, L2 } = await example();
    const customer = await f.create('customer');
    const so = ok(
      await post('/api/v1/sale-order/add', {
        customerId: customer.id,
        orderDate: today,
        deliveryDate: addDays(today, 40),
        lines: [{ materialId: P.id, quantity: 100, unitPrice: '30' }],
      }),
    );
    ok(await post(`/api/v1/sale-order/approve/${so.id}`));
    const sheet = await get('/api/v1/mrp/plan');
    expect(sheet.demandCount).toBeGreaterThanOrEqual(1);
    // P: 100 needed at delivery, nothing in stock or on order: a planned order of 100.
    expect(rowOf(sheet, P.id)).toMatchObject({ level: 0, gross: '100', net: '100', planned: '100' });
    expect(rowOf(sheet, S.id)).toMatchObject({
      level: 1,
      gross: '210',
      onHand: '40',
      net: '170',
      planned: '170',
    });
    expect(rowOf(sheet, L2.id)).toMatchObject({ level: 2, gross: '93.5', planned: '93.5' });
    const [l2] = byItem(sheet.plannedOrders, L2.id);
    expect(l2.pegs).toEqual([
      { ref: expect.objectContaining({ type: 'sale-order', id: so.id, label: so.docNo }), quantity: '93.5' },
    ]);

    // 生成自制件订单 for the rings: 170, pegged to the sales order line.
    const made = ok(await post('/api/v1/mrp/plan/production-orders', { materialIds: [S.id] }));
    expect(made.orders).toHaveLength(1);
    const ring = await get(`/api/v1/production-order/info/${made.orders[0].id}`);
    expect(ring).toMatchObject({
      productId: S.id,
      quantity: '170.0000',
      sourceType: 'mrp',
      saleOrderId: so.id,
      customerId: customer.id,
      status: 'draft',
    });
    const pegs = await get(`/api/v1/mrp/pegs?productionOrderId=${ring.id}`);
    expect(pegs.list).toEqual([
      expect.objectContaining({
        demandType: 'sale-order',
        saleOrderId: so.id,
        saleOrderLineId: so.lines[0].id,
        quantity: '170.0000',
      }),
    ]);
    // The draft ring order is a firm planned order now: S nets to nothing, L2 is still to buy.
    const again = await get('/api/v1/mrp/plan');
    expect(rowOf(again, S.id)).toMatchObject({ firm: '170', net: '0', planned: '0' });
    expect(rowOf(again, L2.id)).toMatchObject({ gross: '93.5', planned: '93.5' });
    expect(byItem(again.plannedOrders, L2.id)[0].pegs[0].ref).toMatchObject({
      type: 'production-order',
      id: ring.id,
    });

    const reqs = ok(await post('/api/v1/mrp/plan/requisition', { materialIds: [L2.id] }));
    expect(reqs.requisitions).toHaveLength(1);
    const requisition = await get(`/api/v1/purchase-requisition/info/${reqs.requisitions[0].id}`);
    expect(requisition.lines.map((l: any) => [l.materialId, l.baseQuantity])).toEqual([[L2.id, '93.5000']]);
    const third = await get('/api/v1/mrp/plan');
    expect(rowOf(third, L2.id)).toMatchObject({ scheduled: '93.5', net: '0' });
    const none = await post('/api/v1/mrp/plan/requisition', { materialIds: [L2.id] });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('MRP 运算没有待请购的计划订单');
  });
});
