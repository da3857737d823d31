import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 质量追溯 (issue 35, "genealogy stops at assembly"): steel bought by heat, issued to a ring order,
 * ring cards made and measured, the rings issued to the bearing order (装配领用 links the bearing
 * card to the ring card and gives it the ring's heat), the bearing made and shipped — then traced
 * back from the shipment and forward from the heat.
 */

let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, query?: Record<string, unknown>, as = token) =>
  t.call('GET', url, { token: as, query: query as any });

interface World {
  steel: any;
  ring: any;
  bearing: any;
  raw: number;
  semi: number;
  finished: number;
  customer: any;
  supplier: any;
  turning: any;
  assembly: any;
  lathe: any;
  press: any;
  operator: number;
}

let seq = 0;
let stores: { raw: number; semi: number; finished: number } | undefined;

/** Warehouses, workshops with a machine each, steel (by heat), a ring made of it, a bearing of one ring. */
async function world(): Promise<World> {
  seq += 1;
  // 完工入库 goes to the first semi-finished (finished) store: one set of stores for every world.
  stores ??= {
    raw: (await f.create('warehouse-management', { type: 'raw', status: '1' })).id,
    semi: (await f.create('warehouse-management', { type: 'semi', status: '1' })).id,
    finished: (await f.create('warehouse-management', { type: 'finished', status: '1' })).id,
  };
  const { raw, semi, finished } = stores;
  const turning = await f.create('workshop', { type: 'machine' });
  const assembly = await f.create('workshop', { type: 'assembly' });
  const lathe = await f.create('equipment', { workshopId: turning.id, name: `数控车床${seq}` });
  const press = await f.create('equipment', { workshopId: assembly.id, name: `合套机${seq}` });
  const steel = await f.create('material-info', { batchManaged: true, name: `GCr15 钢管${seq}` });
  const ring = await f.create('material-info', { name: `6205 外圈${seq}` });
  const bearing = await f.create('material-info', { name: `6205 轴承${seq}`, batchManaged: true });
  await f.create('product-bom', {
    productId: ring.id,
    status: 'active',
    lines: [{ materialId: steel.id, quantity: '0.1', unitId: steel.unitId }],
  });
  await f.create('product-bom', {
    productId: bearing.id,
    status: 'active',
    lines: [{ materialId: ring.id, quantity: 1, unitId: ring.unitId }],
  });
  const turn = await f.create('process-manage', { name: `车外圈${seq}` });
  const fit = await f.create('process-manage', { name: `合套${seq}` });
  await f.create('process-route', {
    productId: ring.id,
    status: 'active',
    steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
  });
  await f.create('process-route', {
    productId: bearing.id,
    status: 'active',
    steps: [{ seq: 10, processId: fit.id, workshopId: assembly.id, standardMinutes: '1' }],
  });
  const customer = await f.create('customer', { name: `洛阳客户${seq}` });
  const supplier = await f.create('supplier', { name: `兴澄特钢${seq}` });
  // The reports are approved by another (maker ≠ checker): the operator is his own user.
  const op = await t.userWith(
    ['production:lathingOperatorTask:list'],
    `trace-op-${seq}-${Date.now() % 100000}`,
  );
  return {
    steel,
    ring,
    bearing,
    raw,
    semi,
    finished,
    customer,
    supplier,
    turning,
    assembly,
    lathe,
    press,
    operator: op.userId,
  };
}

/** A posted stock document. */
async function stockDoc(kind: 'stock-inbound' | 'stock-outbound', body: Record<string, unknown>) {
  const doc = ok(await post(`/api/v1/${kind}/add`, { bizDate: '2026-11-03', ...body }));
  ok(await post(`/api/v1/${kind}/post/${doc.id}`));
  return doc;
}

/** A released production order. */
async function order(productId: number, quantity: number) {
  const o = ok(
    await post('/api/v1/production-order/add', {
      productId,
      quantity,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-20',
    }),
  );
  ok(await post(`/api/v1/production-order/release/${o.id}`));
  return o;
}

/** 派单, 派工 on `equipmentId`, and each card reported in full and approved: 完工入库 by card. */
async function make(w: World, orderId: number, cardIds: number[], quantity: number, equipmentId: number) {
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${orderId}`));
  const { dispatches } = ok(
    await post(`/api/v1/workshop-task/dispatch/${tasks[0].id}`, {
      lines: [{ operatorId: w.operator, equipmentId, quantity, workDate: '2026-11-04', shift: 'day' }],
    }),
  );
  ok(await post(`/api/v1/work-dispatch/start/${dispatches[0].id}`));
  for (const cardId of cardIds) {
    const card = ok(await get(`/api/v1/flow-card/card/${cardId}`));
    const r = ok(
      await post('/api/v1/work-report/add', {
        dispatchId: dispatches[0].id,
        flowCardId: cardId,
        reportDate: '2026-11-04',
        goodQuantity: Number(card.quantity),
      }),
    );
    ok(await post(`/api/v1/work-report/submit/${r.id}`));
    ok(await post(`/api/v1/work-report/approve/${r.id}`));
  }
}

/** A measurement subgroup of `productId`, optionally on a card. */
const measure = (w: World, productId: number, flowCardId: number | null, values: string[]) =>
  post('/api/v1/measurement-subgroup/add', {
    productId,
    characteristic: 'outside-diameter',
    equipmentId: w.lathe.id,
    operatorId: w.operator,
    measuredAt: '2026-11-04 10:00:00',
    flowCardId,
    lsl: '51.9890',
    usl: '52.0000',
    values: values.map((value) => ({ value })),
  });

/**
 * A bearing order of `rings` with its ring order (生成自制件订单: the bearing then needs the rings,
 * the ring order the steel); steel of `heat` received from the supplier and issued to the ring
 * order; the ring cards (of `batch`) opened with the heat and made: their 完工入库 batches are the
 * card numbers, in the semi-finished store.
 */
async function ringsMade(w: World, heat: string, rings: number, batch: number) {
  const receipt = await stockDoc('stock-inbound', {
    type: 'purchase',
    warehouseId: w.raw,
    supplierId: w.supplier.id,
    lines: [{ materialId: w.steel.id, quantity: 100, batchNo: heat, unitPrice: '6' }],
  });
  const bearingOrder = await order(w.bearing.id, rings);
  const made = ok(await post(`/api/v1/production-order/sub-orders/${bearingOrder.id}`));
  const ringOrder = made.orders[0];
  ok(await post(`/api/v1/production-order/release/${ringOrder.id}`));
  const issue = await stockDoc('stock-outbound', {
    type: 'requisition',
    warehouseId: w.raw,
    productionOrderId: ringOrder.id,
    lines: [{ materialId: w.steel.id, quantity: rings / 10, batchNo: heat }],
  });
  const { cards } = ok(
    await post(`/api/v1/flow-card/open/${ringOrder.id}`, {
      batchSize: batch,
      heatNo: heat,
      partName: '外圈',
    }),
  );
  await make(
    w,
    ringOrder.id,
    cards.map((c: any) => c.id),
    rings,
    w.lathe.id,
  );
  return {
    receipt,
    bearingOrder,
    ringOrder,
    issue,
    cards: cards as { id: number; docNo: string; quantity: string }[],
  };
}

describe('装配领用: the bearing card is linked to the ring cards it consumed', () => {
  it("links at 领料 (cards opened before), carries the rings' heat, and traces from the shipment back to the steel and from the heat to the customer", async () => {
    const w = await world();
    const heat = `HT${Date.now() % 100000}A`;
    const rings = await ringsMade(w, heat, 10, 10);
    const ringCard = rings.cards[0];
    // A subgroup measured on the ring card, and an inspection of it.
    const m = ok(await measure(w, w.ring.id, ringCard.id, ['51.9950', '51.9948', '51.9952']));
    const check = await f.create('inspection-task', {
      category: 'process',
      productId: w.ring.id,
      flowCardId: ringCard.id,
      lotQuantity: 10,
    });

    const { bearingOrder } = rings;
    const { cards } = ok(await post(`/api/v1/flow-card/open/${bearingOrder.id}`, { batchSize: 10 }));
    const bearingCard = cards[0];
    // Before the rings are issued the bearing card has no ancestors and no heat.
    expect(ok(await get(`/api/v1/flow-card/genealogy/${bearingCard.id}`)).ancestors).toEqual([]);
    expect(ok(await get(`/api/v1/flow-card/card/${bearingCard.id}`))).toMatchObject({
      heatNo: null,
      heats: [],
    });

    // 领料出库 of the rings to the bearing order: the batch is the ring card's number.
    await stockDoc('stock-outbound', {
      type: 'requisition',
      warehouseId: w.semi,
      productionOrderId: bearingOrder.id,
      lines: [{ materialId: w.ring.id, quantity: 10, batchNo: ringCard.docNo }],
    });
    const g = ok(await get(`/api/v1/flow-card/genealogy/${bearingCard.id}`));
    expect(g.ancestors.map((a: any) => a.docNo)).toEqual([ringCard.docNo]);
    expect(g.ancestors[0]).toMatchObject({ productName: w.ring.name, partName: '外圈', heatNo: heat });
    expect(g.links).toEqual([
      { parentId: ringCard.id, childId: bearingCard.id, kind: 'assembly', quantity: '10.0000' },
    ]);
    expect(ok(await get(`/api/v1/flow-card/card/${bearingCard.id}`))).toMatchObject({
      heatNo: heat,
      heats: [heat],
    });
    // The ring card sees where its pieces went.
    const down = ok(await get(`/api/v1/flow-card/genealogy/${ringCard.id}`));
    expect(down.descendants.map((d: any) => d.docNo)).toEqual([bearingCard.docNo]);

    // The bearing made (完工入库 batch = its card) and shipped.
    await make(w, bearingOrder.id, [bearingCard.id], 10, w.press.id);
    const shipment = await stockDoc('stock-outbound', {
      type: 'sales',
      warehouseId: w.finished,
      customerId: w.customer.id,
      lines: [{ materialId: w.bearing.id, quantity: 6, batchNo: bearingCard.docNo }],
    });

    // Back from the shipment: its line's batch is the bearing card, with the steel's heat.
    const back = ok(await get(`/api/v1/trace/outbound/${shipment.id}`));
    expect(back.outbound).toMatchObject({ docNo: shipment.docNo, customerName: w.customer.name });
    expect(back.lines).toHaveLength(1);
    expect(back.lines[0]).toMatchObject({
      batchNo: bearingCard.docNo,
      cardId: bearingCard.id,
      quantity: '6.0000',
      heats: [heat],
    });

    // The card's whole trace: itself and the ring card, each step's machine and operator, the
    // reports, the inspection and measurement of the ring, the steel issued and its receipt.
    const tr = ok(await get(`/api/v1/trace/card/${bearingCard.id}`));
    expect(tr.cards.map((c: any) => [c.docNo, c.depth])).toEqual([
      [bearingCard.docNo, 0],
      [ringCard.docNo, 1],
    ]);
    const [self, ring] = tr.cards;
    expect(self.steps[0]).toMatchObject({ equipmentName: w.press.name, goodQuantity: '10.0000' });
    expect(self.steps[0].operatorName).toBeTruthy();
    expect(self.reports).toHaveLength(1);
    expect(self.reports[0]).toMatchObject({ status: 'posted', equipmentName: w.press.name });
    expect(ring.steps[0]).toMatchObject({ equipmentName: w.lathe.name, goodQuantity: '10.0000' });
    expect(ring.measurements.map((x: any) => x.id)).toEqual([m.id]);
    expect(ring.measurements[0]).toMatchObject({
      characteristicName: '外径',
      values: '51.995 / 51.9948 / 51.9952',
      equipmentName: w.lathe.name,
    });
    expect(ring.inspections.map((x: any) => x.id)).toEqual([check.id]);
    expect(tr.heats).toHaveLength(1);
    expect(tr.heats[0].heatNo).toBe(heat);
    expect(tr.heats[0].receipts).toEqual([
      expect.objectContaining({
        docNo: rings.receipt.docNo,
        type: 'purchase',
        supplierName: w.supplier.name,
        quantity: '100.0000',
      }),
    ]);
    const ringOrder = tr.orders.find((o: any) => o.id === rings.ringOrder.id);
    expect(ringOrder.materials).toEqual([
      expect.objectContaining({
        materialId: w.steel.id,
        batchNo: heat,
        quantity: '1.0000',
        outboundNos: rings.issue.docNo,
      }),
    ]);
    expect(ringOrder.materials[0].receipts[0]).toMatchObject({ docNo: rings.receipt.docNo });
    // The bearing order's issue of rings is the assembly link, not a material batch.
    expect(tr.orders.find((o: any) => o.id === bearingOrder.id).materials).toEqual([]);
    expect(tr.shipments).toEqual([
      expect.objectContaining({
        docNo: shipment.docNo,
        customerName: w.customer.name,
        cardNo: bearingCard.docNo,
        quantity: '6.0000',
      }),
    ]);

    // Forward from the heat: receipt, the ring order it was issued to, both cards, the customer.
    const fwd = ok(await get('/api/v1/trace/heat', { heatNo: heat }));
    expect(fwd.receipts.map((r: any) => r.docNo)).toEqual([rings.receipt.docNo]);
    expect(fwd.issues).toEqual([
      expect.objectContaining({ docNo: rings.issue.docNo, orderNo: rings.ringOrder.docNo }),
    ]);
    expect(fwd.cards.map((c: any) => c.docNo).sort()).toEqual([bearingCard.docNo, ringCard.docNo].sort());
    expect(fwd.shipments.map((s: any) => s.docNo)).toEqual([shipment.docNo]);
    expect(fwd.customers).toEqual([
      expect.objectContaining({
        customerId: w.customer.id,
        customerName: w.customer.name,
        outbounds: [shipment.docNo],
      }),
    ]);
    // The search box tells a card, an outbound and a heat apart.
    expect(ok(await get('/api/v1/trace/find', { code: bearingCard.docNo.toLowerCase() }))).toMatchObject({
      kind: 'card',
      id: bearingCard.id,
    });
    expect(ok(await get('/api/v1/trace/find', { code: shipment.docNo }))).toMatchObject({
      kind: 'outbound',
      id: shipment.id,
    });
    expect(ok(await get('/api/v1/trace/find', { code: heat }))).toMatchObject({ kind: 'heat', code: heat });
    // An unknown heat answers empty lists.
    expect(ok(await get('/api/v1/trace/heat', { heatNo: 'NO-SUCH-HEAT' }))).toMatchObject({
      receipts: [],
      cards: [],
      shipments: [],
    });
  });

  it("allocates issued rings to the order's cards first in, first out, links cards opened after the issue, and unlinks on reversal", async () => {
    const w = await world();
    const heat = `HT${Date.now() % 100000}B`;
    const rings = await ringsMade(w, heat, 20, 10);
    const [r1, r2] = rings.cards;
    const { bearingOrder } = rings;
    // The rings are issued before the bearing cards are opened: 开卡 links them.
    const issue = await stockDoc('stock-outbound', {
      type: 'requisition',
      warehouseId: w.semi,
      productionOrderId: bearingOrder.id,
      lines: [
        { materialId: w.ring.id, quantity: 10, batchNo: r1.docNo },
        { materialId: w.ring.id, quantity: 10, batchNo: r2.docNo },
      ],
    });
    const { cards } = ok(await post(`/api/v1/flow-card/open/${bearingOrder.id}`, { batchSize: 12 }));
    const [b1, b2] = cards;
    const links = async (id: number) => ok(await get(`/api/v1/flow-card/genealogy/${id}`)).links;
    // 12 + 8 bearings: the first card takes r1's 10 and 2 of r2, the second r2's other 8.
    expect(await links(b1.id)).toEqual([
      { parentId: r1.id, childId: b1.id, kind: 'assembly', quantity: '10.0000' },
      { parentId: r2.id, childId: b1.id, kind: 'assembly', quantity: '2.0000' },
    ]);
    expect(await links(b2.id)).toEqual([
      { parentId: r2.id, childId: b2.id, kind: 'assembly', quantity: '8.0000' },
    ]);
    expect(ok(await get(`/api/v1/flow-card/card/${b2.id}`)).heatNo).toBe(heat);
    // A split of the bearing card reaches the rings through its parent.
    const { children } = ok(await post(`/api/v1/flow-card/split/${b2.id}`, { quantities: [4, 4] }));
    const g = ok(await get(`/api/v1/flow-card/genealogy/${children[0].id}`));
    expect(g.ancestors.map((a: any) => a.docNo).sort()).toEqual([b2.docNo, r2.docNo].sort());
    expect(ok(await get(`/api/v1/flow-card/card/${children[0].id}`)).heats).toEqual([heat]);
    // Reversing the issue takes the rings back: no more links.
    ok(await post(`/api/v1/stock-outbound/reverse/${issue.id}`));
    expect(await links(b1.id)).toEqual([]);
    expect(ok(await get(`/api/v1/flow-card/genealogy/${b2.id}`)).ancestors).toEqual([]);
  });

  it('answers a trace to its readers only, with Chinese 400s and 404s', async () => {
    const w = await world();
    const rings = await ringsMade(w, `HT${Date.now() % 100000}C`, 10, 10);
    const keeper = await t.userWith(['warehouse:salesOutbound:list']);
    const inspector = await t.userWith(['quality:trace:query']);
    const stranger = await t.userWith(['sale:order:list']);
    const url = `/api/v1/trace/card/${rings.cards[0].id}`;
    expect((await get(url, undefined, keeper.token)).status).toBe(200);
    expect((await get(url, undefined, inspector.token)).status).toBe(200);
    expect((await get(url, undefined, stranger.token)).status).toBe(403);
    expect((await get('/api/v1/trace/heat', { heatNo: 'X' }, stranger.token)).status).toBe(403);
    const missing = await get('/api/v1/trace/card/99999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('流转卡不存在或已被删除');
    expect((await get('/api/v1/trace/outbound/99999999')).status).toBe(404);
    const blank = await get('/api/v1/trace/heat', { heatNo: ' ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors?.[0]).toMatchObject({ field: 'heatNo', message: '不能为空' });
  });
});

describe('测量记录 on a flow card', () => {
  it('takes an optional card that must exist and be of the measured product, and lists it on the card', async () => {
    const w = await world();
    const heat = `HT${Date.now() % 100000}D`;
    const rings = await ringsMade(w, heat, 10, 10);
    const card = rings.cards[0];
    const wrong = await measure(w, w.bearing.id, card.id, ['52.0']);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0]).toMatchObject({ field: 'flowCardId' });
    expect(wrong.body.message).toContain(card.docNo);
    const none = await measure(w, w.ring.id, 99999999, ['52.0']);
    expect(none.status).toBe(400);
    expect(none.body.errors?.[0]).toMatchObject({ field: 'flowCardId' });
    const free = ok(await measure(w, w.ring.id, null, ['51.995']));
    const onCard = ok(await measure(w, w.ring.id, card.id, ['51.996', '51.994']));
    const stored = ok(await get(`/api/v1/measurement-subgroup/info/${onCard.id}`));
    expect(stored).toMatchObject({ flowCardId: card.id, flowCardName: card.docNo });
    const listed = ok(await get(`/api/v1/flow-card/measurements/${card.id}`));
    expect(listed.map((x: any) => x.id)).toEqual([onCard.id]);
    expect(listed.map((x: any) => x.id)).not.toContain(free.id);
    // Editing onto another product's card is refused the same way.
    const before: Record<string, unknown> = ok(await get(`/api/v1/measurement-subgroup/info/${free.id}`));
    const edit = await t.call('PUT', `/api/v1/measurement-subgroup/edit/${free.id}`, {
      token,
      body: { ...before, productId: w.bearing.id, flowCardId: card.id },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.errors?.[0]).toMatchObject({ field: 'flowCardId' });
    // The measurement-entry role reads the cards it names.
    const gauge = await t.userWith(['measure:outsideDiameter:list', 'measure:outsideDiameter:add']);
    const picked = await get('/api/v1/flow-card/pick', { productId: w.ring.id }, gauge.token);
    expect(picked.status).toBe(200);
    expect(picked.body.result).toEqual([
      expect.objectContaining({ id: card.id, docNo: card.docNo, heatNo: heat }),
    ]);
    const typed = await get(
      '/api/v1/flow-card/pick',
      { productId: w.ring.id, keyword: 'LZ-NONE' },
      gauge.token,
    );
    expect(typed.body.result).toEqual([]);
    const stranger = await t.userWith(['sale:order:list']);
    expect((await get('/api/v1/flow-card/pick', { productId: w.ring.id }, stranger.token)).status).toBe(403);
  });
});
