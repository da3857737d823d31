import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 37 §1 through HTTP: an open 备货单 line is a demand of the plan (「运算」) and the plan's
 * lead times count the working days of 系统设置 › 生产日历. Bearing P (made, 3 days) needs 2 rings
 * S (bought, 2 days); a 备货单 asks 50 P for day D (40 days from today); the two days before D
 * are holidays. P starts 3 working days before D: D−1 and D−2 are off, so D−3, D−4, D−5 → D−5
 * (calendar days: D−3). S is needed then, 2 × 50 = 100, bought 2 working days earlier: D−7.
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
const get = (url: string) => t.call('GET', url, { token }).then(ok);
const rowOf = (sheet: any, id: number) => sheet.rows.find((r: any) => r.itemId === id);
const ordersOf = (sheet: any, id: number) => sheet.plannedOrders.filter((o: any) => o.itemId === id);

const D = addDays(businessDay(), 40);
const before = (n: number) => addDays(D, -n);

describe('MRP: 备货单 demands and the factory calendar', () => {
  it('sets the 生产日历 and refuses what is not a calendar', async () => {
    const put = (body: Record<string, unknown>) =>
      t.call('PUT', '/api/v1/sysSetting/planning', { token, body });
    expect(await get('/api/v1/sysSetting/planning')).toEqual({
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      holidays: [],
      workdays: [],
    });
    const none = await put({ weekdays: [], holidays: [], workdays: [] });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('至少选择一个工作日');
    const bad = await put({ weekdays: [1], holidays: ['2026-02-30'], workdays: [] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('节假日不是有效日期');
    const both = await put({ weekdays: [1], holidays: ['2026-10-10'], workdays: ['2026-10-10'] });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain('2026-10-10 不能既是节假日又是调休工作日');
    ok(await put({ weekdays: [7, 1, 2, 3, 4, 5, 6], holidays: [before(1), before(2)], workdays: [] }));
    expect(await get('/api/v1/sysSetting/planning')).toEqual({
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      holidays: [before(2), before(1)],
      workdays: [],
    });
  });

  it('plans a 备货单 line in working days and pegs what is bought to it', async () => {
    const pcs = await f.create('material-unit', { precision: 0 });
    const P = await f.create('material-info', { unitId: pcs.id, leadTimeDays: 3 });
    const S = await f.create('material-info', { unitId: pcs.id, leadTimeDays: 2 });
    await f.create('product-bom', {
      productId: P.id,
      status: 'active',
      lines: [{ materialId: S.id, quantity: 2, unitId: pcs.id }],
    });
    const bh = ok(
      await t.call('POST', '/api/v1/stock-up-order/add', {
        token,
        body: {
          orderDate: businessDay(),
          requiredDate: D,
          purpose: '旺季备货',
          lines: [{ materialId: P.id, quantity: 50 }],
        },
      }),
    );
    // A draft 备货单 is no demand yet.
    expect(rowOf(await get('/api/v1/mrp/plan'), P.id)).toBeUndefined();
    ok(await t.call('POST', `/api/v1/stock-up-order/approve/${bh.id}`, { token, body: {} }));

    const sheet = await get('/api/v1/mrp/plan');
    expect(sheet.calendar).toEqual({
      weekdays: [1, 2, 3, 4, 5, 6, 7],
      holidays: [before(2), before(1)],
      workdays: [],
    });
    expect(rowOf(sheet, P.id)).toMatchObject({ level: 0, gross: '50', net: '50', planned: '50' });
    const [p] = ordersOf(sheet, P.id);
    // 3 working days before D with D−1 and D−2 off: D−5.
    expect(p).toMatchObject({ quantity: '50', needDate: D, startDate: before(5), leadTimeDays: 3 });
    expect(p.pegs).toEqual([
      { ref: { type: 'stock-up-order', id: bh.id, lineId: bh.lines[0].id, label: bh.docNo }, quantity: '50' },
    ]);
    const [s] = ordersOf(sheet, S.id);
    expect(s).toMatchObject({ quantity: '100', needDate: before(5), startDate: before(7), late: false });
    expect(s.pegs).toEqual([
      {
        ref: { type: 'stock-up-order', id: bh.id, lineId: bh.lines[0].id, label: bh.docNo },
        quantity: '100',
      },
    ]);

    // 生成请购单 over the plan: S as computed, pegged to the 备货单 line.
    const made = ok(
      await t.call('POST', '/api/v1/mrp/plan/requisition', { token, body: { materialIds: [S.id] } }),
    );
    const pegs = await get(`/api/v1/mrp/pegs?requisitionId=${made.requisitions[0].id}`);
    expect(pegs.list).toEqual([
      expect.objectContaining({
        materialId: S.id,
        demandType: 'stock-up-order',
        stockUpOrderId: bh.id,
        stockUpOrderDocNo: bh.docNo,
        stockUpOrderLineId: bh.lines[0].id,
        quantity: '100.0000',
        needDate: before(5),
      }),
    ]);
    // The next run counts the requisition: nothing left to buy for the 备货单.
    const again = await get('/api/v1/mrp/plan');
    expect(rowOf(again, S.id)).toMatchObject({ gross: '100', scheduled: '100', planned: '0' });
  });
});
