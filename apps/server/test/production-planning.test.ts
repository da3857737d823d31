import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
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
  const P = await f.create('material-info', { name: `轴承${Date.now() % 100000}` });
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
