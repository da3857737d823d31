import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §2, fractional pieces everywhere: a flow card split into 100.5 and 199.5 套, work
 * reports of 0.0001 pieces, sales lines of 1.5 套, a 委外 send of 10.5 pieces. A unit declares its
 * 小数位数 and every quantity counted in it must fit, whatever the path that takes it.
 */

let t: TestApp;
let token: string;
let f: Factory;
/** 件 and 套: whole numbers; kg: 3 places; 箱: whole boxes. */
let piece: number;
let set: number;
let kg: number;
let box: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
  await f.create('warehouse-management', { type: 'semi', status: '1' });
  piece = (await f.create('material-unit', { name: '件', precision: 0 })).id;
  set = (await f.create('material-unit', { name: '套', precision: 0 })).id;
  kg = (await f.create('material-unit', { name: 'kg', precision: 3 })).id;
  box = (await f.create('material-unit', { name: '箱', precision: 0 })).id;
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });

/** Answers 400 naming `field` with the shared message. */
function refused(r: { status: number; body: any }, field: string, message: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.errors).toContainEqual({ field, message });
  expect(r.body.message).toBe(r.body.errors[0].message);
}

/**
 * A product counted in `unit` routed over `steps` (an outsourced heat treatment first when
 * `heat`), ordered for `quantity`, released, split into tasks and opened as one flow card.
 */
async function floor(unit: number, quantity: number, heat = false) {
  const shop = await f.create('workshop', { type: 'machine' });
  const P = await f.create('material-info', { unitId: unit });
  const S = await f.create('material-info', { unitId: kg });
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: '0.04', unitId: kg }],
  });
  const turn = await f.create('process-manage');
  const treat = await f.create('process-manage', { outsourced: true });
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      ...(heat ? [{ seq: 5, processId: treat.id, outsourced: true }] : []),
      { seq: 10, processId: turn.id, workshopId: shop.id, standardMinutes: '1' },
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
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
  const { cards } = ok(await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: quantity }));
  return { P, order, task: tasks[0].id as number, card: cards[0].id as number };
}

describe('units carry a precision', () => {
  it('shown and edited on the 计量单位 page (0 to 4 places, 0 for a new unit)', async () => {
    const made = ok(await post('/api/v1/material-unit/add', { code: 'PRC-A', name: '只' }));
    const info = ok(await t.call('GET', `/api/v1/material-unit/info/${made.id}`, { token }));
    expect(info.precision).toBe(0);
    ok(await t.call('PUT', `/api/v1/material-unit/edit/${made.id}`, { token, body: { precision: 2 } }));
    expect(ok(await t.call('GET', `/api/v1/material-unit/info/${made.id}`, { token })).precision).toBe(2);
    const tooMany = await t.call('PUT', `/api/v1/material-unit/edit/${made.id}`, {
      token,
      body: { precision: 5 },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors?.[0]?.field).toBe('precision');
    // Dropdowns carry it, so forms can check as the user types.
    const options = ok(await t.call('GET', '/api/v1/material-unit/options', { token }));
    expect(options.find((o: any) => o.id === kg)).toMatchObject({ precision: 3 });
  });
});

describe('a quantity must fit the unit it is counted in', () => {
  it('a flow card of 300 套 cannot be split into 100.5 and 199.5; into 100 and 200 it can', async () => {
    const w = await floor(set, 300);
    refused(
      await post(`/api/v1/flow-card/split/${w.card}`, { quantities: ['100.5', '199.5'] }),
      'quantities.0',
      '拆分数量 100.5 不符合单位「套」的精度：只能填整数',
    );
    const split = ok(await post(`/api/v1/flow-card/split/${w.card}`, { quantities: ['100', '200'] }));
    expect(split.children).toHaveLength(2);
  });

  it('cards are not opened in batches of 100.5 套, nor orders made for 10.5 套', async () => {
    const w = await floor(set, 300);
    ok(await post(`/api/v1/flow-card/close/${w.card}`, { reason: '重开' }));
    refused(
      await post(`/api/v1/flow-card/open/${w.order.id}`, { batchSize: '100.5' }),
      'batchSize',
      '每卡数量 100.5 不符合单位「套」的精度：只能填整数',
    );
    refused(
      await post('/api/v1/production-order/add', {
        productId: w.P.id,
        quantity: '10.5',
        plannedStartDate: '2026-11-02',
        dueDate: '2026-11-09',
      }),
      'quantity',
      '数量 10.5 不符合单位「套」的精度：只能填整数',
    );
  });

  it('no work report of 0.0001 pieces, nor a dispatch of 10.5', async () => {
    const w = await floor(piece, 100);
    const admin = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
    refused(
      await post(`/api/v1/workshop-task/dispatch/${w.task}`, {
        lines: [{ operatorId: admin, quantity: '10.5', workDate: '2026-11-03', shift: 'day' }],
      }),
      'lines.0.quantity',
      '派工数量 10.5 不符合单位「件」的精度：只能填整数',
    );
    const { dispatches } = ok(
      await post(`/api/v1/workshop-task/dispatch/${w.task}`, {
        lines: [{ operatorId: admin, quantity: 100, workDate: '2026-11-03', shift: 'day' }],
      }),
    );
    ok(await post(`/api/v1/work-dispatch/start/${dispatches[0].id}`));
    const body = { dispatchId: dispatches[0].id, flowCardId: w.card, reportDate: '2026-11-04' };
    refused(
      await post('/api/v1/work-report/add', { ...body, goodQuantity: '0.0001' }),
      'goodQuantity',
      '合格数 0.0001 不符合单位「件」的精度：只能填整数',
    );
    refused(
      await post('/api/v1/work-report/add', {
        ...body,
        goodQuantity: 90,
        workScrapQuantity: '1.5',
        scrapReason: 'size',
      }),
      'workScrapQuantity',
      '工废 1.5 不符合单位「件」的精度：只能填整数',
    );
    // An edit is held to it too.
    const made = ok(await post('/api/v1/work-report/add', { ...body, goodQuantity: 90 }));
    const edit = await t.call('PUT', `/api/v1/work-report/edit/${made.id}`, {
      token,
      body: { goodQuantity: '89.5', version: made.version },
    });
    refused(edit, 'goodQuantity', '合格数 89.5 不符合单位「件」的精度：只能填整数');
  });

  it('no sales order line of 1.5 套', async () => {
    const P = await f.create('material-info', { unitId: set });
    const customer = await f.create('customer');
    const body = (quantity: string) => ({
      customerId: customer.id,
      orderDate: '2026-11-22',
      deliveryDate: '2026-12-22',
      lines: [
        { materialId: P.id, quantity: '2', unitPrice: '10' },
        { materialId: P.id, quantity, unitPrice: '10' },
      ],
    });
    refused(
      await post('/api/v1/sale-order/add', body('1.5')),
      'lines.1.quantity',
      '数量 1.5 不符合单位「套」的精度：只能填整数',
    );
    ok(await post('/api/v1/sale-order/add', body('1')));
  });

  it('no 委外 send of 10.5 pieces, nor a return of 0.5', async () => {
    const w = await floor(piece, 100, true);
    const supplier = await f.create('supplier');
    const out = (body: Record<string, unknown>) => post(`/api/v1/flow-card/outsource/${w.card}`, body);
    refused(
      await out({ action: 'send', quantity: '10.5', supplierId: supplier.id, unitPrice: '0.8' }),
      'quantity',
      '数量 10.5 不符合单位「件」的精度：只能填整数',
    );
    ok(await out({ action: 'send', quantity: 10, supplierId: supplier.id, unitPrice: '0.8' }));
    refused(
      await out({ action: 'return', quantity: '0.5', hardnessHrc: '62' }),
      'quantity',
      '数量 0.5 不符合单位「件」的精度：只能填整数',
    );
  });

  it('no stock line of 2.5 件; 2.125 kg goes in, 2.1234 kg does not; a chosen unit counts, not the base unit', async () => {
    const wh = await f.create('warehouse-management', { type: 'raw', status: '1' });
    const bolt = await f.create('material-info', { unitId: piece });
    const steel = await f.create('material-info', { unitId: kg });
    ok(
      await t.call('PUT', `/api/v1/material-info/edit/${steel.id}`, {
        token,
        body: { unitConversions: [{ unitId: box, baseQuantity: '25' }] },
      }),
    );
    const inbound = (lines: Record<string, unknown>[]) =>
      post('/api/v1/stock-inbound/add', {
        type: 'purchase',
        warehouseId: wh.id,
        bizDate: '2026-11-22',
        lines,
      });
    refused(
      await inbound([{ materialId: bolt.id, quantity: '2.5' }]),
      'lines.0.quantity',
      '数量 2.5 不符合单位「件」的精度：只能填整数',
    );
    const doc = ok(await inbound([{ materialId: steel.id, quantity: '2.125' }]));
    refused(
      await inbound([{ materialId: steel.id, quantity: '2.1234' }]),
      'lines.0.quantity',
      '数量 2.1234 不符合单位「kg」的精度：最多 3 位小数',
    );
    // Five places were refused before any unit was asked (the column keeps four).
    expect((await inbound([{ materialId: steel.id, quantity: '2.12345' }])).status).toBe(400);
    refused(
      await inbound([{ materialId: steel.id, quantity: '1.5', unitId: box }]),
      'lines.0.quantity',
      '数量 1.5 不符合单位「箱」的精度：只能填整数',
    );
    // An edit of the draft is checked as the add was.
    const stored = ok(await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token }));
    refused(
      await t.call('PUT', `/api/v1/stock-inbound/edit/${doc.id}`, {
        token,
        body: {
          version: stored.version,
          lines: [
            { materialId: bolt.id, quantity: '3' },
            { materialId: bolt.id, quantity: '0.25' },
          ],
        },
      }),
      'lines.1.quantity',
      '数量 0.25 不符合单位「件」的精度：只能填整数',
    );
    // The other stock documents take the same lines.
    refused(
      await post('/api/v1/stock-outbound/add', {
        type: 'other',
        warehouseId: wh.id,
        bizDate: '2026-11-22',
        lines: [{ materialId: bolt.id, quantity: '0.5' }],
      }),
      'lines.0.quantity',
      '数量 0.5 不符合单位「件」的精度：只能填整数',
    );
  });

  it('a receipt against an order proposes its open quantity in a unit it fits: 1.5 箱 open is 37.5 kg', async () => {
    const wh = await f.create('warehouse-management', { type: 'raw', status: '1' });
    const steel = await f.create('material-info', { unitId: kg });
    ok(
      await t.call('PUT', `/api/v1/material-info/edit/${steel.id}`, {
        token,
        body: { unitConversions: [{ unitId: box, baseQuantity: '25' }] },
      }),
    );
    const supplier = await f.create('supplier');
    const order = ok(
      await post('/api/v1/purchase-order/add', {
        supplierId: supplier.id,
        orderDate: '2026-11-02',
        deliveryDate: '2026-11-30',
        lines: [{ materialId: steel.id, quantity: 2, unitId: box, unitPrice: '100' }],
      }),
    );
    ok(await post(`/api/v1/purchase-order/approve/${order.id}`));
    const lines = async () =>
      ok(
        await t.call('GET', `/api/v1/stock-inbound/source-lines/${order.id}`, {
          token,
          query: { type: 'purchase' },
        }),
      ).lines;
    const [open] = await lines();
    expect(open).toMatchObject({ unitId: box, quantity: '2.0000', baseQuantity: '50.0000' });
    const draft = ok(
      await post('/api/v1/stock-inbound/add', {
        type: 'purchase',
        warehouseId: wh.id,
        purchaseOrderId: order.id,
        lines: [{ materialId: steel.id, quantity: '12.5', sourceLineId: open.sourceLineId }],
      }),
    );
    ok(await post(`/api/v1/stock-inbound/post/${draft.id}`));
    expect((await lines())[0]).toMatchObject({ unitId: kg, quantity: '37.5000', baseQuantity: '37.5000' });
  });

  it('an Excel import of production orders reports the row of 10.5 套', async () => {
    const P = await f.create('material-info', { unitId: set, code: 'PRC-IMP-1' });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('导入');
    ws.addRow(['产品', '数量', '计划开工', '计划完工']);
    ws.addRow(['PRC-IMP-1', '10', '2026-11-02', '2026-11-09']);
    ws.addRow(['PRC-IMP-1', '10.5', '2026-11-02', '2026-11-09']);
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/v1/production-order/import?dryRun=true',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: Buffer.from(await wb.xlsx.writeBuffer()),
    });
    const report = ok({ status: r.statusCode, body: r.json() });
    expect(report).toMatchObject({ total: 2, valid: 1 });
    expect(report.errors).toEqual([
      { row: 3, column: '数量', message: '数量 10.5 不符合单位「套」的精度：只能填整数' },
    ]);
    expect(P.unitId).toBe(set);
  });

  it('purchase, requisition, stock-up and 委外订单 lines alike', async () => {
    const ring = await f.create('material-info', { unitId: piece });
    const supplier = await f.create('supplier');
    const line = { materialId: ring.id, quantity: '7.5', unitPrice: '1' };
    const message = '数量 7.5 不符合单位「件」的精度：只能填整数';
    const cases: [string, Record<string, unknown>][] = [
      ['purchase-order', { supplierId: supplier.id, orderDate: '2026-11-22', lines: [line] }],
      ['outsourcing-order', { supplierId: supplier.id, orderDate: '2026-11-22', lines: [line] }],
      [
        'purchase-requisition',
        {
          requestDate: '2026-11-22',
          requiredDate: '2026-11-30',
          lines: [{ materialId: ring.id, quantity: '7.5' }],
        },
      ],
      [
        'stock-up-order',
        {
          orderDate: '2026-11-22',
          requiredDate: '2026-11-30',
          lines: [{ materialId: ring.id, quantity: '7.5' }],
        },
      ],
    ];
    for (const [name, overrides] of cases) {
      const def = (await import('@ringmes/domain')).resourceByName(name);
      const body = await f.body(def as any, overrides);
      refused(await post(`/api/v1/${name}/add`, body), 'lines.0.quantity', message);
    }
  });
});
