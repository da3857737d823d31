import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 车间来料检验 made by the card's arrival: good pieces reaching a step of another workshop (报工入账
 * of the step before, 委外收回) give that workshop one incoming task per card and step when a
 * template exists; its lot follows further arrivals while it waits, and taking the arrival back
 * cancels it while unjudged.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
  await f.create('warehouse-management', { type: 'semi', status: '1' });
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const get = (url: string) => t.call('GET', url, { token }).then(ok);

/** A 6204 P6 ring product and an incoming template for its grinding step with a Δdmp item (mm). */
async function product(grindId: number, template = true) {
  const P = await f.create('material-info', {
    toleranceClass: 'P6',
    boreDiameter: '20',
    outsideDiameter: '47',
    bearingWidth: '14',
  });
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  if (template) {
    const bore = ok(
      await post('/api/v1/inspection-item/add', {
        code: `WI-D${P.id}`,
        name: '内径 Δdmp',
        kind: 'measure',
        ringCharacteristic: 'dmp',
        unit: 'mm',
        samplingMode: 'fixed',
        sampleSize: 50,
      }),
    );
    ok(
      await post('/api/v1/inspection-template/add', {
        code: `WI-T${P.id}`,
        name: '磨加工来料',
        productId: P.id,
        processId: grindId,
        inspectionKind: 'incoming',
        items: [{ itemId: bore.id }],
      }),
    );
  }
  return P;
}

/**
 * Rough turning (10) and finish turning (20) in the turning workshop, grinding (30) in the
 * grinding workshop; an order of `quantity` for `customerId` with one card, every step dispatched
 * and started.
 */
async function line(opts: { template?: boolean; customerId?: number } = {}, quantity = 100) {
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const rough = await f.create('process-manage');
  const finish = await f.create('process-manage');
  const grind = await f.create('process-manage');
  const P = await product(grind.id, opts.template ?? true);
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: rough.id, workshopId: turning.id },
      { seq: 20, processId: finish.id, workshopId: turning.id },
      { seq: 30, processId: grind.id, workshopId: grinding.id },
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
  // As an order made from a sales order carries its customer.
  if (opts.customerId)
    await sql`UPDATE production_order SET customer_id = ${opts.customerId} WHERE id = ${order.id}`.execute(
      t.database.db,
    );
  ok(await post(`/api/v1/production-order/release/${order.id}`));
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
  const { cards } = ok(await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: quantity }));
  const op = await t.userWith(['production:lathingOperatorTask:list']);
  // The tasks come in step order: 10, 20, 30.
  const dispatches: Record<number, number> = {};
  for (const [i, task] of tasks.entries()) {
    const { dispatches: made } = ok(
      await post(`/api/v1/workshop-task/dispatch/${task.id}`, {
        lines: [{ operatorId: op.userId, quantity, workDate: '2026-11-03', shift: 'day' }],
      }),
    );
    ok(await post(`/api/v1/work-dispatch/start/${made[0].id}`));
    dispatches[(i + 1) * 10] = made[0].id;
  }
  const card = cards[0].id as number;
  return {
    P,
    card,
    cardNo: cards[0].docNo as string,
    grind,
    report: async (seq: number, goodQuantity: number) => {
      const r = ok(
        await post('/api/v1/work-report/add', {
          dispatchId: dispatches[seq],
          flowCardId: card,
          reportDate: '2026-11-04',
          goodQuantity,
        }),
      );
      ok(await post(`/api/v1/work-report/submit/${r.id}`));
      ok(await post(`/api/v1/work-report/approve/${r.id}`));
      return r.id as number;
    },
  };
}

const incomingOf = async (cardId: number) =>
  (
    await sql<{ id: number; status: string; lotQuantity: string }>`
      SELECT id, status, lot_quantity::text AS lot_quantity FROM inspection_task
       WHERE flow_card_id = ${cardId} AND inspection_kind = 'incoming' ORDER BY id`.execute(t.database.db)
  ).rows.map((r) => ({ ...r, id: Number(r.id) }));
const unapprove = (id: number) => post(`/api/v1/work-report/unapprove/${id}`, { reason: '报错数量' });

describe('报工入账 to another workshop', () => {
  it('makes an incoming task per card and step; further pieces enlarge it while it waits, else make a new lot; 反审核 shrinks or cancels it', async () => {
    const customer = await f.create('customer');
    const w = await line({ customerId: customer.id });
    ok(
      await post('/api/v1/ring-standard-override/add', {
        materialId: w.P.id,
        customerId: customer.id,
        characteristic: 'dmp',
        upperLimit: '0',
        lowerLimit: '-5',
        reason: '客户图纸要求',
      }),
    );
    // 10 → 20 stays in the turning workshop: nothing to inspect.
    await w.report(10, 100);
    expect(await incomingOf(w.card)).toEqual([]);

    // 20 → 30 reaches the grinding workshop.
    const a = await w.report(20, 40);
    const [made] = await incomingOf(w.card);
    const task = await get(`/api/v1/inspection-task/info/${made.id}`);
    expect(task).toMatchObject({
      status: 'pending',
      category: 'grinding-incoming',
      inspectionKind: 'incoming',
      workshopType: 'grinding',
      processId: w.grind.id,
      sourceType: 'flow-card',
      sourceNo: w.cardNo,
      flowCardId: w.card,
      customerId: customer.id,
      lotQuantity: '40.0000',
    });
    // The item takes the standard, tightened for the order's customer.
    expect(task.items[0]).toMatchObject({
      lowerLimit: '19.9950',
      upperLimit: '20.0000',
      limitSource: 'override',
    });

    expect(task.sampleSize).toBe(40);

    const b = await w.report(20, 30);
    expect(await incomingOf(w.card)).toEqual([{ id: made.id, status: 'pending', lotQuantity: '70.0000' }]);
    // Re-planned for the bigger lot: n = 50 of 70.
    expect((await get(`/api/v1/inspection-task/info/${made.id}`)).sampleSize).toBe(50);

    ok(await unapprove(b));
    expect(await incomingOf(w.card)).toEqual([{ id: made.id, status: 'pending', lotQuantity: '40.0000' }]);
    ok(await unapprove(a));
    expect(await incomingOf(w.card)).toEqual([]);

    // Approved again: a new task. Once started it keeps its lot; pieces arriving later are a new
    // lot waiting for inspection, which follows its own arrivals and their reversal.
    ok(await post(`/api/v1/work-report/submit/${a}`));
    ok(await post(`/api/v1/work-report/approve/${a}`));
    const [again] = await incomingOf(w.card);
    expect(again).toMatchObject({ status: 'pending', lotQuantity: '40.0000' });
    ok(await post(`/api/v1/inspection-task/start/${again.id}`));
    const c = await w.report(20, 30);
    const [, later] = await incomingOf(w.card);
    expect(await incomingOf(w.card)).toEqual([
      { id: again.id, status: 'inspecting', lotQuantity: '40.0000' },
      { id: later.id, status: 'pending', lotQuantity: '30.0000' },
    ]);
    expect((await get(`/api/v1/inspection-task/info/${later.id}`)).category).toBe('grinding-incoming');
    // Taken back: the later lot goes; the started inspection keeps its 40.
    ok(await unapprove(c));
    expect(await incomingOf(w.card)).toEqual([
      { id: again.id, status: 'inspecting', lotQuantity: '40.0000' },
    ]);
  });

  it('makes none without a template for the workshop incoming inspection', async () => {
    const w = await line({ template: false });
    await w.report(10, 100);
    await w.report(20, 100);
    expect(await incomingOf(w.card)).toEqual([]);
  });
});

describe('委外收回 to a workshop', () => {
  it('the returned pieces make the incoming task; 撤销收回 cancels it', async () => {
    const shop = await f.create('workshop', { type: 'grinding' });
    const heat = await f.create('process-manage', { outsourced: true });
    const grind = await f.create('process-manage');
    const P = await product(grind.id);
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
        quantity: 100,
        plannedStartDate: '2026-11-02',
        dueDate: '2026-11-09',
      }),
    );
    ok(await post(`/api/v1/production-order/release/${order.id}`));
    const { cards } = ok(await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: 100 }));
    const card = cards[0].id as number;
    const supplier = await f.create('supplier');
    const out = (body: Record<string, unknown>) => post(`/api/v1/flow-card/outsource/${card}`, body);
    ok(await out({ action: 'send', quantity: 100, supplierId: supplier.id, unitPrice: '0.8' }));
    expect(await incomingOf(card)).toEqual([]);
    ok(await out({ action: 'return', quantity: 60 }));
    const [made] = await incomingOf(card);
    expect(made).toMatchObject({ status: 'pending', lotQuantity: '60.0000' });
    expect(await get(`/api/v1/inspection-task/info/${made.id}`)).toMatchObject({
      category: 'grinding-incoming',
      processId: grind.id,
      sourceType: 'flow-card',
    });
    ok(await out({ action: 'undo' }));
    expect(await incomingOf(card)).toEqual([]);
  });
});
