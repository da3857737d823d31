import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * Quantities of different units are never added into one figure (issue 35: 库存报表 showed
 * 「库存数量 644,833.538」, kg + 件 + g + 粒). A report's quantity over several units comes per
 * unit; one figure only where one unit is summed.
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
const get = (url: string, query: Record<string, unknown> = {}) =>
  t.call('GET', url, { token, query }).then(ok);

/** One warehouse of steel (kg), rings (件), grease (g) and balls (粒). */
async function stockOfFourUnits() {
  const wh = await f.create('warehouse-management', { name: '单位测试仓' });
  const unit = (name: string, precision: number) => f.create('material-unit', { name, precision });
  const [kg, piece, gram, ball] = [
    await unit('kg', 3),
    await unit('件', 0),
    await unit('g', 0),
    await unit('粒', 0),
  ];
  const steel = await f.create('material-info', { name: 'GCr15 钢管', unitId: kg.id });
  const steel2 = await f.create('material-info', { name: 'GCr15 棒料', unitId: kg.id });
  const ring = await f.create('material-info', { name: '6205 外圈', unitId: piece.id });
  const grease = await f.create('material-info', { name: '润滑脂', unitId: gram.id });
  const balls = await f.create('material-info', { name: '钢球 7.938', unitId: ball.id });
  const doc = await w.inbound(
    [
      { materialId: steel.id, quantity: '1200.5', unitPrice: '8' },
      { materialId: steel2.id, quantity: '30', unitPrice: '8' },
      { materialId: ring.id, quantity: 340, unitPrice: '3' },
      { materialId: grease.id, quantity: 2500, unitPrice: '0.05' },
      { materialId: balls.id, quantity: 9000, unitPrice: '0.02' },
    ],
    { warehouseId: wh.id, type: 'other' },
  );
  ok(await w.post('stock-inbound', doc.id));
  return { wh, steel, steel2, ring, grease, balls };
}

describe('quantities per unit', () => {
  it('库存报表: a row or total over kg, 件, g and 粒 is one figure per unit, never their sum', async () => {
    const s = await stockOfFourUnits();
    const byWarehouse = await get('/api/v1/finance-report/inventory-report', {
      groupBy: 'warehouse',
      warehouseId: s.wh.id,
    });
    // By hand: kg 1,200.5 + 30 = 1,230.5 (two materials); 件 340; g 2,500; 粒 9,000. Most facts first,
    // then by name. Their sum, 13,070.5, is no quantity of anything.
    const perUnit = [
      { unitName: 'kg', quantity: '1230.5000' },
      { unitName: 'g', quantity: '2500.0000' },
      { unitName: '件', quantity: '340.0000' },
      { unitName: '粒', quantity: '9000.0000' },
    ];
    const norm = (list: { unitName: string; quantity: string }[]) =>
      list.map((u) => ({ unitName: u.unitName, quantity: Number(u.quantity).toFixed(4) }));
    expect(byWarehouse.rows).toHaveLength(1);
    expect(byWarehouse.rows[0].quantity).toBeNull();
    expect(norm(byWarehouse.rows[0].units.quantity)).toEqual(perUnit);
    expect(byWarehouse.totals.quantity).toBeNull();
    expect(norm(byWarehouse.totals.units.quantity)).toEqual(perUnit);
    // Money adds up across units: 9,844 + 1,020 + 125 + 180 = 11,169.00.
    expect(byWarehouse.totals.value).toBe('11169.00');

    // By material, each row is one unit: its figure, and the unit beside it.
    const byMaterial = await get('/api/v1/finance-report/inventory-report', {
      groupBy: 'material',
      warehouseId: s.wh.id,
    });
    const ring = byMaterial.rows.find((r: any) => r.key === String(s.ring.id));
    expect(Number(ring.quantity)).toBe(340);
    expect(ring.units.quantity).toEqual([{ unitName: '件', quantity: expect.any(String) }]);

    // The drill-down names each fact's unit.
    const detail = await get('/api/v1/finance-report/inventory-report/detail', {
      groupBy: 'warehouse',
      warehouseId: s.wh.id,
      key: String(s.wh.id),
    });
    expect(
      Object.fromEntries(detail.rows.map((r: any) => [r.materialName, [Number(r.quantity), r.unitName]])),
    ).toEqual({
      'GCr15 钢管': [1200.5, 'kg'],
      'GCr15 棒料': [30, 'kg'],
      '6205 外圈': [340, '件'],
      润滑脂: [2500, 'g'],
      '钢球 7.938': [9000, '粒'],
    });
  });

  it('销售统计报表: a customer’s 套 and 件 stay apart; one product keeps its figure', async () => {
    const set = await f.create('material-unit', { name: '套', precision: 0 });
    const piece = await f.create('material-unit', { name: '件', precision: 0 });
    const bearing = await f.create('material-info', { name: '6205-2RS', unitId: set.id });
    const bearing2 = await f.create('material-info', { name: '6206-2RS', unitId: set.id });
    const ring = await f.create('material-info', { name: '6205 外圈', unitId: piece.id });
    const c = await f.create('customer');
    const o = ok(
      await t.call('POST', '/api/v1/sale-order/add', {
        token,
        body: {
          customerId: c.id,
          orderDate: '2026-11-02',
          deliveryDate: '2026-12-20',
          lines: [
            { materialId: bearing.id, quantity: 50, unitPrice: '6.2' },
            { materialId: bearing2.id, quantity: 30, unitPrice: '7' },
            { materialId: ring.id, quantity: 200, unitPrice: '1.5' },
          ],
        },
      }),
    );
    ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
    const report = await get('/api/v1/sale-order/report', { partyId: c.id, groupBy: 'party' });
    // By hand: 套 50 + 30 = 80 (two lines), 件 200 — not 280 of anything.
    expect(report.rows[0].orderedQuantity).toBeNull();
    expect(report.rows[0].units.orderedQuantity).toEqual([
      { unitName: '套', quantity: '80.0000' },
      { unitName: '件', quantity: '200.0000' },
    ]);
    expect(report.totals.openQuantity).toBeNull();
    expect(report.totals.units.openQuantity.map((u: any) => u.unitName)).toEqual(['套', '件']);
    const one = await get('/api/v1/sale-order/report', {
      partyId: c.id,
      materialId: ring.id,
      groupBy: 'party',
    });
    expect(one.rows[0].orderedQuantity).toBe('200.0000');
  });

  it('盘点差异: 盘盈 and 盘亏 per unit', async () => {
    const s = await stockOfFourUnits();
    const st = ok(await t.call('POST', '/api/v1/stocktake/add', { token, body: { warehouseId: s.wh.id } }));
    const snap = ok(await t.call('POST', `/api/v1/stocktake/snapshot/${st.id}`, { token }));
    // Counted: steel 1,199 kg (−1.5), bar 32 kg (+2), rings 338 件 (−2), grease 2,500 g, balls 9,050 粒 (+50).
    const counted: Record<number, string> = {
      [s.steel.id]: '1199',
      [s.steel2.id]: '32',
      [s.ring.id]: '338',
      [s.grease.id]: '2500',
      [s.balls.id]: '9050',
    };
    ok(
      await t.call('PUT', `/api/v1/stocktake/edit/${st.id}`, {
        token,
        body: {
          lines: snap.lines.map((l: any) => ({
            materialId: l.materialId,
            countedQuantity: counted[l.materialId],
          })),
        },
      }),
    );
    const r = ok(await t.call('GET', `/api/v1/stocktake/difference/${st.id}`, { token }));
    expect(r.totals).toMatchObject({
      gainQuantity: null,
      lossQuantity: null,
      gainByUnit: [
        { unitName: 'kg', quantity: '2.0000' },
        { unitName: '粒', quantity: '50.0000' },
      ],
      lossByUnit: [
        { unitName: 'kg', quantity: '1.5000' },
        { unitName: '件', quantity: '2.0000' },
      ],
    });
  });
});
