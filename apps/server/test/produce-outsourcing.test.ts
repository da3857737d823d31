import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { stockInvariantViolations } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let semi: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  semi = (await f.create('warehouse-management', { type: 'semi', status: '1', code: 'AAA-SEMI' })).id;
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  t.call('POST', url, { token, body, headers });
const get = (url: string, query?: Record<string, unknown>) => t.call('GET', url, { token, query }).then(ok);
const step = (card: any, seq: number) => card.steps.find((s: any) => s.seq === seq);

/**
 * A ring routed over heat treatment first (10, outsourced) then grinding (20): an order of
 * `quantity` released with one card, so the card's pieces wait at the heat treatment.
 */
async function heatCard(quantity = 100) {
  const shop = await f.create('workshop', { type: 'grinding' });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const heat = await f.create('process-manage', { outsourced: true });
  const grind = await f.create('process-manage');
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: heat.id, outsourced: true },
      { seq: 20, processId: grind.id, workshopId: shop.id },
    ],
  });
  const order = ok(
    await post('/api/v1/production-order/add', {
      productId: P.id,
      quantity,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-09',
    }),
  );
  ok(await post(`/api/v1/production-order/release/${order.id}`));
  const { cards } = ok(await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: quantity }));
  const supplier = await f.create('supplier');
  const cardId = cards[0].id as number;
  return {
    cardId,
    productId: P.id as number,
    heatId: heat.id as number,
    supplierId: supplier.id as number,
    out: (body: Record<string, unknown>, key?: string) =>
      post(`/api/v1/flow-card/outsource/${cardId}`, body, key ? { 'idempotency-key': key } : {}),
    card: () => get(`/api/v1/flow-card/card/${cardId}`),
  };
}

async function orderOf(id: number) {
  return get(`/api/v1/outsourcing-order/info/${id}`);
}

describe('生产委外 through purchasing documents', () => {
  it('发出 makes an approved 委外订单 and posts a line-side 委外发料; 收回 posts a 委外入库 with its payable; 核销 closes the order', async () => {
    const c = await heatCard(100);
    const ledgerBefore = await sql<{ n: string }>`SELECT count(*)::text AS n FROM stock_ledger`.execute(
      t.database.db,
    );
    // No price known for this supplier and product: the 发出 asks for one, and nothing is left behind.
    const noPrice = await c.out({ action: 'send', quantity: 100, supplierId: c.supplierId });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.errors?.[0]?.field).toBe('unitPrice');
    expect(
      (await c.out({ action: 'send', quantity: 101, supplierId: c.supplierId, unitPrice: '0.8' })).status,
    ).toBe(409);
    const sent = ok(
      await c.out({
        action: 'send',
        quantity: 100,
        weight: '25.5',
        supplierId: c.supplierId,
        unitPrice: '0.8',
      }),
    );
    let info = await get(`/api/v1/flow-card/outsourced-info/${sent.stepId}`);
    expect(info).toMatchObject({
      cardId: c.cardId,
      seq: 10,
      state: 'out',
      sentQuantity: '100.0000',
      sentWeight: '25.500',
      supplierId: c.supplierId,
    });
    expect(info.orders).toHaveLength(1);
    const orderId = info.orders[0].id;
    let order = await orderOf(orderId);
    expect(order).toMatchObject({ status: 'approved', supplierId: c.supplierId, processId: c.heatId });
    expect(order.lines[0]).toMatchObject({
      materialId: c.productId,
      sentQuantity: '100.0000',
      unitPrice: '0.800000',
    });
    expect(info.movements).toHaveLength(1);
    expect(info.movements[0]).toMatchObject({
      action: 'send',
      stockOutboundStatus: 'posted',
      outsourcingOrderId: orderId,
    });
    const outbound = ok(
      await t.call('GET', `/api/v1/stock-outbound/info/${info.movements[0].stockOutboundId}`, { token }),
    );
    expect(outbound).toMatchObject({
      type: 'outsourcing',
      status: 'posted',
      outsourcingOrderId: orderId,
      warehouseId: semi,
    });
    // The card's pieces are process state: no stock moved.
    const ledgerAfter = await sql<{ n: string }>`SELECT count(*)::text AS n FROM stock_ledger`.execute(
      t.database.db,
    );
    expect(ledgerAfter.rows[0].n).toBe(ledgerBefore.rows[0].n);
    // The list shows the order; the warehouse cannot reverse the card's document alone.
    const list = await get('/api/v1/flow-card/outsourced', { state: 'out' });
    expect(list.list.find((x: any) => x.cardId === c.cardId)).toMatchObject({
      stepId: sent.stepId,
      outsourcingOrderNo: order.docNo,
    });
    const rev = await post(`/api/v1/stock-outbound/reverse/${outbound.id}`);
    expect(rev.status).toBe(409);
    expect(rev.body.message).toContain('生产委外详情');

    // 收回 98 with the hardness: a 委外入库 against the order, the payable of 98 × 0.80.
    expect((await c.out({ action: 'return', quantity: 101 })).status).toBe(409);
    ok(await c.out({ action: 'return', quantity: 98, weight: '24.9', hardnessHrc: '62' }));
    info = await get(`/api/v1/flow-card/outsourced-info/${sent.stepId}`);
    expect(info).toMatchObject({
      returnedQuantity: '98.0000',
      returnedWeight: '24.900',
      hardnessHrc: '62.0',
      outQuantity: '2.0000',
      difference: '2.0000',
    });
    const back = info.movements[1];
    expect(back).toMatchObject({ action: 'return', stockInboundStatus: 'posted', payableAmount: '78.40' });
    expect(back.payableNo).toBeTruthy();
    order = await orderOf(orderId);
    expect(order.status).toBe('partly-received');
    expect(order.lines[0].receivedQuantity).toBe('98.0000');
    let card = await c.card();
    expect(step(card, 10)).toMatchObject({ returnedQuantity: '98.0000', goodQuantity: '98.0000' });
    expect(step(card, 20).inputQuantity).toBe('98.0000');
    expect(card.currentSeq).toBe(10);

    // 差异核销: the 2 pieces become 料废, the order the card made is closed, the card moves on.
    ok(await c.out({ action: 'reconcile' }));
    card = await c.card();
    expect(step(card, 10).materialScrapQuantity).toBe('2.0000');
    expect(card.currentSeq).toBe(20);
    order = await orderOf(orderId);
    expect(order.status).toBe('closed');
    info = await get(`/api/v1/flow-card/outsourced-info/${sent.stepId}`);
    expect(info).toMatchObject({ state: 'done', writtenOff: '2.0000', outQuantity: '0.0000' });
    expect(info.movements.map((m: any) => [m.action, m.quantity])).toEqual([
      ['send', '100.0000'],
      ['return', '98.0000'],
      ['write-off', '2.0000'],
    ]);
    expect((await c.out({ action: 'return', quantity: 1 })).status).toBe(409);
    expect((await c.out({ action: 'undo' })).status).toBe(409);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('attaches to a buyer’s 委外订单, and 撤销 takes a 收回 and a 发出 back with their documents and payable', async () => {
    const c = await heatCard(60);
    const order = ok(
      await post('/api/v1/outsourcing-order/add', {
        supplierId: c.supplierId,
        processId: c.heatId,
        orderDate: '2026-11-01',
        deliveryDate: '2026-11-20',
        lines: [{ materialId: c.productId, quantity: 50, unitPrice: '1.2' }],
      }),
    );
    // A draft order is not attachable; an approved one with 50 open cannot take 60.
    expect(
      (await c.out({ action: 'send', quantity: 40, supplierId: c.supplierId, outsourcingOrderId: order.id }))
        .status,
    ).toBe(409);
    ok(await post(`/api/v1/outsourcing-order/approve/${order.id}`));
    const open = await get(`/api/v1/flow-card/outsourcing-orders/${(await c.card()).steps[0].id}`, {
      supplierId: c.supplierId,
    });
    expect(open.list.map((o: any) => o.id)).toContain(order.id);
    expect(
      (await c.out({ action: 'send', quantity: 60, supplierId: c.supplierId, outsourcingOrderId: order.id }))
        .status,
    ).toBe(409);
    const other = await f.create('supplier');
    expect(
      (await c.out({ action: 'send', quantity: 40, supplierId: other.id, outsourcingOrderId: order.id }))
        .status,
    ).toBe(400);
    // Idempotent: the same key sends once.
    const body = {
      action: 'send',
      quantity: 40,
      weight: '10',
      supplierId: c.supplierId,
      outsourcingOrderId: order.id,
    };
    const first = ok(await c.out(body, 'send-once-1'));
    const again = ok(await c.out(body, 'send-once-1'));
    expect(again).toEqual(first);
    expect((await orderOf(order.id)).lines[0].sentQuantity).toBe('40.0000');
    ok(await c.out({ action: 'return', quantity: 30, hardnessHrc: '61' }));
    ok(await c.out({ action: 'return', quantity: 10, hardnessHrc: '63' }));
    let info = await get(`/api/v1/flow-card/outsourced-info/${first.stepId}`);
    expect(info.hardnessHrc).toBe('63.0');
    const payable = info.movements[2].payableNo;
    expect(info.movements[2].payableAmount).toBe('12.00');

    // 撤销 the last 收回: its 委外入库 reversed, the payable reversed, the pieces leave the next step.
    ok(await c.out({ action: 'undo' }));
    info = await get(`/api/v1/flow-card/outsourced-info/${first.stepId}`);
    expect(info).toMatchObject({ returnedQuantity: '30.0000', hardnessHrc: '61.0', outQuantity: '10.0000' });
    expect(info.movements[2]).toMatchObject({ stockInboundStatus: 'reversed' });
    expect(info.movements[2].reversedAt).toBeTruthy();
    expect(info.movements[2]).toMatchObject({ payableNo: payable, payableStatus: 'reversed' });
    let o = await orderOf(order.id);
    expect(o.lines[0]).toMatchObject({ sentQuantity: '40.0000', receivedQuantity: '30.0000' });
    expect(step(await c.card(), 20).inputQuantity).toBe('30.0000');

    // The grinding step uses 30 pieces: the 30 are no longer undoable.
    await sql`UPDATE flow_card_step SET good_quantity = 30 WHERE flow_card_id = ${c.cardId} AND seq = 20`.execute(
      t.database.db,
    );
    ok(await c.out({ action: 'return', quantity: 10 }));
    ok(await c.out({ action: 'undo' }));
    const blocked = await c.out({ action: 'undo' });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toContain('下道工序');
    await sql`UPDATE flow_card_step SET good_quantity = 0 WHERE flow_card_id = ${c.cardId} AND seq = 20`.execute(
      t.database.db,
    );
    // With the 30 taken back, the 发出 is undone: the 委外发料 reversed, the order's sent back to 0.
    ok(await c.out({ action: 'undo' }));
    const undoSend = await c.out({ action: 'undo' });
    expect(undoSend.status, JSON.stringify(undoSend.body)).toBe(200);
    o = await orderOf(order.id);
    expect(o).toMatchObject({ status: 'approved' });
    expect(o.lines[0]).toMatchObject({ sentQuantity: '0.0000', receivedQuantity: '0.0000' });
    const card = await c.card();
    expect(step(card, 10)).toMatchObject({ sentQuantity: '0.0000', supplierId: null });
    info = await get(`/api/v1/flow-card/outsourced-info/${first.stepId}`);
    expect(info.movements.every((m: any) => m.reversedAt)).toBe(true);
    expect(info.state).toBe('waiting');
    expect((await c.out({ action: 'undo' })).status).toBe(409);
  });

  it('two 收回 of the last pieces at once: one is refused, the order and the card count them once', async () => {
    const c = await heatCard(50);
    const sent = ok(
      await c.out({ action: 'send', quantity: 50, supplierId: c.supplierId, unitPrice: '0.5' }),
    );
    const both = await Promise.all([
      c.out({ action: 'return', quantity: 30 }),
      c.out({ action: 'return', quantity: 30 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const info = await get(`/api/v1/flow-card/outsourced-info/${sent.stepId}`);
    expect(info.returnedQuantity).toBe('30.0000');
    expect((await orderOf(info.orders[0].id)).lines[0].receivedQuantity).toBe('30.0000');
    const payables = await sql<{ n: string; amount: string }>`
      SELECT count(*)::text AS n, COALESCE(sum(p.amount), 0)::text AS amount FROM payable p
        JOIN flow_card_outsourcing x ON x.stock_inbound_id = p.source_doc_id AND p.source_doc_type = 'stock-inbound'
       WHERE x.flow_card_id = ${c.cardId}`.execute(t.database.db);
    expect(payables.rows[0]).toEqual({ n: '1', amount: '15.00' });
  });

  it('refuses what is not an outsourced step, unknown steps, and callers without the permission', async () => {
    const c = await heatCard(10);
    ok(await c.out({ action: 'send', quantity: 10, supplierId: c.supplierId, unitPrice: '1' }));
    ok(await c.out({ action: 'return', quantity: 10 }));
    // The card is at grinding now.
    expect((await c.out({ action: 'send', quantity: 1, supplierId: c.supplierId })).status).toBe(409);
    expect((await c.out({ action: 'fly' })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flow-card/outsourced-info/999999999', { token })).status).toBe(404);
    const { token: plain } = await t.userWith(['production:order:list']);
    const denied = await t.call('POST', `/api/v1/flow-card/outsource/${c.cardId}`, {
      token: plain,
      body: { action: 'undo' },
    });
    expect(denied.status).toBe(403);
  });
});
