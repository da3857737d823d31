// Actual cost of a production order over HTTP (issue 37 §4): GET /api/v1/production-order/cost/:id
// gathers the order's issues, wage lines, outsourcing and approved reports, with the 系统设置 ›
// 成本核算 rates. Every figure is worked out by hand in the comments (docs/architecture.md,
// "Product cost", has the same example).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
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
  await f.create('warehouse-management', { type: 'finished', status: '1' });
});
afterAll(async () => {
  expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  await t.close();
});

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, as = token) => t.call('GET', url, { token: as });

async function approve(id: number) {
  ok(await post(`/api/v1/work-report/submit/${id}`));
  return ok(await post(`/api/v1/work-report/approve/${id}`));
}

/**
 * 100 bearings of P (0.235 kg each): 1 steel blank S and 8 balls B a piece; turned (10, 车削车间,
 * 0.15 a piece, 2 standard minutes), heat-treated outside (20), ground (30, 磨削车间, 0.2 a piece,
 * 1.5 standard minutes). Released, dispatched, one flow card.
 */
async function floor() {
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const P = await f.create('material-info');
  const S = await w.material();
  const B = await w.material();
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [
      { materialId: S.id, quantity: 1, unitId: S.unitId },
      { materialId: B.id, quantity: 8, unitId: B.unitId },
    ],
  });
  const turn = await f.create('process-manage', { pieceRate: '0.15' });
  const heat = await f.create('process-manage', { outsourced: true });
  const grind = await f.create('process-manage', { pieceRate: '0.2' });
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '2' },
      { seq: 20, processId: heat.id, outsourced: true },
      { seq: 30, processId: grind.id, workshopId: grinding.id, standardMinutes: '1.5' },
    ],
  });
  // The product's unit weight (the scrap's weight); set directly, as the kg conversion would.
  await t.database.db.updateTable('material').set({ weight: '0.235' }).where('id', '=', P.id).execute();
  const order = ok(
    await post('/api/v1/production-order/add', {
      productId: P.id,
      quantity: 100,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-09',
    }),
  );
  ok(await post(`/api/v1/production-order/release/${order.id}`));
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
  const { cards } = ok(await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: 100 }));
  const op = await t.userWith(['production:lathingOperatorTask:list']);
  const dispatchOf = async (seq: number) => {
    const task = tasks.find((x: any) => String(x.taskNo).endsWith(`-${seq}`));
    expect(task, JSON.stringify(tasks)).toBeTruthy();
    const { dispatches } = ok(
      await post(`/api/v1/workshop-task/dispatch/${task.id}`, {
        lines: [{ operatorId: op.userId, quantity: 100, workDate: '2026-11-03', shift: 'day' }],
      }),
    );
    ok(await post(`/api/v1/work-dispatch/start/${dispatches[0].id}`));
    return dispatches[0].id as number;
  };
  return {
    order,
    S,
    B,
    card: cards[0].id as number,
    turning: turning.id as number,
    grinding: grinding.id as number,
    turnDispatch: await dispatchOf(10),
    grindDispatch: await dispatchOf(30),
  };
}

describe('成本 of a production order', () => {
  it('the worked example: two issues, three approved reports, one outsourcing, overhead and scrap', async () => {
    const x = await floor();
    // Stock: S 100 @ 12.00 = 1,200.00; B 1,000 @ 0.30 = 300.00.
    ok(
      await w.post(
        'stock-inbound',
        (await w.inbound([{ materialId: x.S.id, quantity: 100, unitPrice: '12' }])).id,
      ),
    );
    ok(
      await w.post(
        'stock-inbound',
        (await w.inbound([{ materialId: x.B.id, quantity: 1000, unitPrice: '0.3' }])).id,
      ),
    );
    // 领料: all 100 S (1,200.00) and 800 B (800 × 300.00 ÷ 1,000 = 240.00). 材料 1,440.00.
    const issueS = await w.outbound([{ materialId: x.S.id, quantity: 100 }], {
      productionOrderId: x.order.id,
    });
    ok(await w.post('stock-outbound', issueS.id));
    // An issue of 10 B, reversed (−3.00, +3.00), costs nothing.
    const undone = await w.outbound([{ materialId: x.B.id, quantity: 10 }], {
      productionOrderId: x.order.id,
    });
    ok(await w.post('stock-outbound', undone.id));
    ok(await post(`/api/v1/stock-outbound/reverse/${undone.id}`));

    const issueB = await w.outbound([{ materialId: x.B.id, quantity: 800 }], {
      productionOrderId: x.order.id,
    });
    ok(await w.post('stock-outbound', issueB.id));
    // 车削: 100 good, 3.5 h → wage 100 × 0.15 = 15.00.
    const report = (dispatchId: number, extra: Record<string, unknown>) =>
      post('/api/v1/work-report/add', { dispatchId, flowCardId: x.card, reportDate: '2026-11-04', ...extra });
    const r1 = ok(await report(x.turnDispatch, { goodQuantity: 100, hours: '3.5' }));
    await approve(r1.id);
    // 热处理 outside: 100 sent at 0.904 (with 13 % VAT) and 100 back: 90.40, tax 90.40 × 13/113 = 10.40 → 80.00.
    const supplier = await f.create('supplier');
    const out = (body: Record<string, unknown>) => post(`/api/v1/flow-card/outsource/${x.card}`, body);
    ok(await out({ action: 'send', quantity: 100, supplierId: supplier.id, unitPrice: '0.904' }));
    ok(await out({ action: 'return', quantity: 100 }));
    // 磨削: 60 good in 1.5 h (12.00); 38 good and 2 工废 in 1 h (38 × 0.2 = 7.60, no deduction rate).
    const r2 = ok(await report(x.grindDispatch, { goodQuantity: 60, hours: '1.5' }));
    await approve(r2.id);
    const r3 = ok(
      await report(x.grindDispatch, {
        goodQuantity: 38,
        workScrapQuantity: 2,
        scrapReason: 'size',
        hours: '1',
      }),
    );
    await approve(r3.id);
    // 制造费用: 车削 0.05 元/标准分钟, 磨削 30 元/小时; scrap 2.80 元/kg.
    ok(
      await t.call('PUT', '/api/v1/sysSetting/costing', {
        token,
        body: {
          overheadRates: [
            { workshopId: x.turning, basis: 'standard-minute', rate: '0.05' },
            { workshopId: x.grinding, basis: 'hour', rate: '30' },
          ],
          scrapPricePerKg: '2.80',
        },
      }),
    );

    const c = ok(await get(`/api/v1/production-order/cost/${x.order.id}`));
    // 98 finished (60 + 38 ground on the last step).
    expect(c.finishedQuantity).toBe('98.0000');
    expect(c.material.total).toBe('1440.00');
    expect(c.material.lines.map((l: any) => [l.docNo, l.amount])).toEqual([
      [issueS.docNo, '1200.00'],
      [issueB.docNo, '240.00'],
    ]);
    // 工资 15.00 + 12.00 + 7.60 = 34.60
    expect(c.labour.total).toBe('34.60');
    expect(c.labour.lines.map((l: any) => [l.docNo, l.amount])).toEqual([
      [r1.docNo, '15.00'],
      [r2.docNo, '12.00'],
      [r3.docNo, '7.60'],
    ]);
    expect(c.outsourcing.total).toBe('80.00');
    expect(c.outsourcing.lines).toHaveLength(1);
    expect(c.outsourcing.lines[0]).toMatchObject({
      grossAmount: '90.40',
      taxAmount: '10.40',
      amount: '80.00',
    });
    expect(c.outsourcing.lines[0].orderNo).toMatch(/^WW/);
    expect(c.outsourcing.lines[0].docNo).toBeTruthy();
    // 车削 100 × 2 = 200 standard minutes × 0.05 = 10.00; 磨削 (1.5 + 1) h × 30 = 75.00. 85.00
    expect(c.overhead.lines.map((l: any) => [l.workshopId, l.driver, l.amount, l.docNos])).toEqual([
      [x.turning, '200.0000', '10.00', [r1.docNo]],
      [x.grinding, '2.5000', '75.00', [r2.docNo, r3.docNo]],
    ]);
    expect(c.overhead.total).toBe('85.00');
    expect(c.unratedWorkshops).toEqual([]);
    // 废料 2 × 0.235 kg = 0.47 kg × 2.80 = 1.316 → 1.32
    expect(c.scrap.lines.map((l: any) => [l.docNo, l.weightKg, l.amount])).toEqual([
      [r3.docNo, '0.4700', '1.32'],
    ]);
    // 1,440.00 + 34.60 + 80.00 + 85.00 − 1.32 = 1,638.28; ÷ 98 = 16.717142857… → 16.717143
    expect(c.total).toBe('1638.28');
    expect(c.unitCost).toBe('16.717143');
    expect(c.material.unitCost).toBe('14.693878'); // 1,440 ÷ 98 = 14.6938775…
  });

  it('生产入库 at actual cost: each receipt takes the cost not yet received over the pieces still expected', async () => {
    const x = await floor();
    // The rates first this time, so that each receipt sees them (scrap price as before).
    ok(
      await t.call('PUT', '/api/v1/sysSetting/costing', {
        token,
        body: {
          overheadRates: [
            { workshopId: x.turning, basis: 'standard-minute', rate: '0.05' },
            { workshopId: x.grinding, basis: 'hour', rate: '30' },
          ],
          scrapPricePerKg: '2.80',
        },
      }),
    );
    ok(
      await w.post(
        'stock-inbound',
        (await w.inbound([{ materialId: x.S.id, quantity: 100, unitPrice: '12' }])).id,
      ),
    );
    ok(
      await w.post(
        'stock-inbound',
        (await w.inbound([{ materialId: x.B.id, quantity: 1000, unitPrice: '0.3' }])).id,
      ),
    );
    for (const [m, q] of [
      [x.S.id, 100],
      [x.B.id, 800],
    ])
      ok(
        await w.post(
          'stock-outbound',
          (await w.outbound([{ materialId: m, quantity: q }], { productionOrderId: x.order.id })).id,
        ),
      );
    const report = (dispatchId: number, extra: Record<string, unknown>) =>
      post('/api/v1/work-report/add', { dispatchId, flowCardId: x.card, reportDate: '2026-11-04', ...extra });
    await approve(ok(await report(x.turnDispatch, { goodQuantity: 100, hours: '3.5' })).id);
    const supplier = await f.create('supplier');
    const out = (body: Record<string, unknown>) => post(`/api/v1/flow-card/outsource/${x.card}`, body);
    ok(await out({ action: 'send', quantity: 100, supplierId: supplier.id, unitPrice: '0.904' }));
    ok(await out({ action: 'return', quantity: 100 }));
    // First receipt (60 finished): 1,440.00 + 15.00 + 12.00 + 80.00 + 10.00 + 1.5 h × 30 = 1,602.00
    // spent; 100 expected, so 1,602.00 × 60 ÷ 100 = 961.20 (16.02 a piece), 640.80 stays in WIP.
    const r2 = ok(await report(x.grindDispatch, { goodQuantity: 60, hours: '1.5' }));
    await approve(r2.id);
    // Second (38 more, 2 scrapped): 1,638.28 spent, 98 expected, 38 still to come: all that is
    // left, 1,638.28 − 961.20 = 677.08 (17.817895 a piece).
    const r3 = ok(
      await report(x.grindDispatch, {
        goodQuantity: 38,
        workScrapQuantity: 2,
        scrapReason: 'size',
        hours: '1',
      }),
    );
    await approve(r3.id);
    const receipts = await t.database.db
      .selectFrom('stockLedger as l')
      .innerJoin('stockInbound as d', (j) =>
        j.onRef('d.id', '=', 'l.docId').on('l.docType', '=', 'stock-inbound'),
      )
      .select(['l.quantity', 'l.unitCost', 'l.amount', 'd.sourceNo'])
      .where('l.materialId', '=', x.order.productId)
      .orderBy('l.id')
      .execute();
    expect(receipts.map((l) => [Number(l.quantity), String(l.unitCost), String(l.amount)])).toEqual([
      [60, '16.020000', '961.20'],
      [38, '17.817895', '677.08'],
    ]);
    expect(receipts.every((l) => l.sourceNo === x.order.docNo)).toBe(true);
    // The finished stock holds the order's whole actual cost, and the 入库单 lines show the price.
    const c = ok(await get(`/api/v1/production-order/cost/${x.order.id}`));
    expect(c.total).toBe('1638.28');
    const value = await t.database.db
      .selectFrom('stockValue')
      .select(({ fn }) => [fn.sum<string>('value').as('value'), fn.sum<string>('quantity').as('quantity')])
      .where('materialId', '=', x.order.productId)
      .executeTakeFirstOrThrow();
    expect([Number(value.quantity), Number(value.value)]).toEqual([98, 1638.28]);
    const lines = await t.database.db
      .selectFrom('stockInboundLine as l')
      .innerJoin('stockInbound as d', 'd.id', 'l.stockInboundId')
      .select('l.unitPrice')
      .where('l.materialId', '=', x.order.productId)
      .where('d.type', '=', 'production')
      .orderBy('l.id')
      .execute();
    expect(lines.map((l) => String(l.unitPrice))).toEqual(['16.020000', '17.817895']);

    // 成本差异: standard S 12.50, B 0.28 (BOM 1 S + 8 B: 14.74), 工资 0.15 + 0.20, 委外 0.80 (the
    // 委外订单's 0.904 without VAT), overhead 2 × 0.05 + 1.5 ÷ 60 × 30 = 0.85. For 98: 1,444.52,
    // 34.30, 78.40, 83.30 = 1,640.52. Actual 1,440.00 − 1.32, 34.60, 80.00, 85.00 = 1,638.28.
    await t.database.db
      .updateTable('material')
      .set({ standardCost: '12.5' })
      .where('id', '=', x.S.id)
      .execute();
    await t.database.db
      .updateTable('material')
      .set({ standardCost: '0.28' })
      .where('id', '=', x.B.id)
      .execute();
    const P = x.order.productId;
    // An order's variance is taken once it is finished: nothing while it is in production.
    const open = ok(await get(`/api/v1/finance-report/cost-variance?groupBy=order&materialId=${P}`));
    expect(open.rows).toEqual([]);
    ok(await post(`/api/v1/production-order/complete/${x.order.id}`, { reason: '短缺 2 件报废，完工' }));
    const variance = ok(await get(`/api/v1/finance-report/cost-variance?groupBy=order&materialId=${P}`));
    expect(variance.rows).toHaveLength(1);
    expect(variance.rows[0]).toMatchObject({
      key: String(x.order.id),
      label: x.order.docNo,
      produced: '98.0000',
      standardTotal: '1640.52',
      actualTotal: c.total, // the roll-up gives what the 成本 tab adds up: 1,638.28
      materialVariance: '-5.84',
      labourVariance: '0.30',
      outsourcingVariance: '1.60',
      overheadVariance: '1.70',
      totalVariance: '-2.24',
      varianceRate: '-0.14', // −2.24 ÷ 1,640.52
    });
    const byMonth = ok(
      await get(
        `/api/v1/finance-report/cost-variance?groupBy=month&materialId=${P}&from=2026-11-01&to=2026-11-30`,
      ),
    );
    expect(byMonth.rows.map((r: any) => [r.key, r.totalVariance])).toEqual([['2026-11', '-2.24']]);
    const none = ok(
      await get(`/api/v1/finance-report/cost-variance?groupBy=order&materialId=${P}&from=2026-12-01`),
    );
    expect(none.rows).toEqual([]);
    const detail = ok(
      await get(
        `/api/v1/finance-report/cost-variance/detail?groupBy=order&materialId=${P}&pageNum=1&pageSize=10`,
      ),
    );
    expect(detail.total).toBe(1);
    expect(detail.rows[0]).toMatchObject({
      docNo: x.order.docNo,
      day: '2026-11-04',
      docResource: 'production-order',
    });

    // 产品成本: the month's receipts, 98 for 1,638.28, 16.717143 a piece.
    const pc = ok(await get(`/api/v1/finance-report/product-cost?groupBy=month&materialId=${P}`));
    expect(pc.rows.map((r: any) => [r.key, r.produced, r.totalCost, r.unitCost])).toEqual([
      ['2026-11', '98.0000', '1638.28', '16.717143'],
    ]);
    const pcDetail = ok(
      await get(`/api/v1/finance-report/product-cost/detail?groupBy=month&materialId=${P}&key=2026-11`),
    );
    expect(pcDetail.rows.map((r: any) => [r.produced, r.totalCost, r.orderNo])).toEqual([
      ['38.0000', '677.08', x.order.docNo],
      ['60.0000', '961.20', x.order.docNo],
    ]);
    const exported = ok(
      await get(`/api/v1/finance-report/product-cost/export?groupBy=materialMonth&materialId=${P}`),
    );
    expect(exported.rows).toBe(1);
    const clerk = await t.userWith(['finance:salesReport:query']);
    expect((await get('/api/v1/finance-report/cost-variance?groupBy=order', clerk.token)).status).toBe(403);
    expect((await get('/api/v1/finance-report/product-cost?groupBy=month', clerk.token)).status).toBe(403);
    const bad = await get('/api/v1/finance-report/product-cost?groupBy=week');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/汇总方式/);

    // Taking back the last report reverses its receipt at what it brought: 961.20 for 60 remain.
    ok(await post(`/api/v1/work-report/unapprove/${r3.id}`, { reason: '数量录错' }));
    const after = await t.database.db
      .selectFrom('stockValue')
      .select(({ fn }) => [fn.sum<string>('value').as('value')])
      .where('materialId', '=', x.order.productId)
      .executeTakeFirstOrThrow();
    expect(Number(after.value)).toBe(961.2);
  });

  it('answers 404 for an unknown order, 403 without 成本, and refuses bad rates with a Chinese message', async () => {
    const missing = await get('/api/v1/production-order/cost/999999999');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain('生产订单不存在');
    const viewer = await t.userWith(['production:order:list']);
    expect((await get('/api/v1/production-order/cost/1', viewer.token)).status).toBe(403);
    const bad = await t.call('PUT', '/api/v1/sysSetting/costing', {
      token,
      body: {
        overheadRates: [
          { workshopId: 1, basis: 'hour', rate: '-1' },
          { workshopId: 1, basis: 'month', rate: '1' },
        ],
        scrapPricePerKg: null,
      },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('制造费用分摊率');
  });
});
