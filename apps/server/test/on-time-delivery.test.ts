import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * 准时交货率 has one definition (modules/orders/on-time.ts, docs/glossary.md): per order line, due
 * once its promised date has passed, on time when shipped in full by that date; the rate is on-time
 * lines ÷ lines due in the period. 销售统计报表 and the 首页 cockpit read the same figures.
 */

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;

const today = businessDay();
/** `n` days before today (negative: after). */
const ago = (n: number) =>
  new Date(new Date(`${today}T00:00:00Z`).getTime() - n * 86_400_000).toISOString().slice(0, 10);

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
const call = (method: string, url: string, body?: Record<string, unknown>, query?: Record<string, unknown>) =>
  t.call(method, url, { token, body, query });

describe('准时交货率: one definition for the sales report and the cockpit', () => {
  it('counts every line promised before today — shipped late, partly or not at all is late', async () => {
    const c = await f.create('customer');
    const [p1, p2] = [await f.create('material-info'), await f.create('material-info')];
    const stock = await w.inbound(
      [
        { materialId: p1.id, quantity: 500 },
        { materialId: p2.id, quantity: 500 },
      ],
      { bizDate: ago(60) },
    );
    ok(await w.post('stock-inbound', stock.id));
    const order = async (lines: Record<string, unknown>[], approve = true) => {
      const o = ok(
        await call('POST', '/api/v1/sale-order/add', {
          customerId: c.id,
          orderDate: ago(40),
          deliveryDate: ago(-10),
          lines,
        }),
      );
      if (approve) ok(await call('POST', `/api/v1/sale-order/approve/${o.id}`, {}));
      return ok(await call('GET', `/api/v1/sale-order/info/${o.id}`));
    };
    const ship = async (o: any, lineNo: number, quantity: number, bizDate: string) => {
      const line = o.lines.find((l: any) => l.lineNo === lineNo);
      const d = ok(
        await call('POST', '/api/v1/stock-outbound/add', {
          type: 'sales',
          warehouseId: w.warehouseId,
          bizDate,
          saleOrderId: o.id,
          lines: [{ materialId: line.materialId, quantity, sourceLineId: line.id }],
        }),
      );
      ok(await w.post('stock-outbound', d.id));
    };
    // Order A (header promised in 10 days, the lines earlier):
    const a = await order([
      { materialId: p1.id, quantity: 10, unitPrice: '5', deliveryDate: ago(20) }, // 1: in full 5 days early
      { materialId: p2.id, quantity: 20, unitPrice: '5', deliveryDate: ago(20) }, // 2: in full 5 days late
      { materialId: p1.id, quantity: 30, unitPrice: '5', deliveryDate: ago(10) }, // 3: half by its date, rest never
      { materialId: p2.id, quantity: 5, unitPrice: '5', deliveryDate: ago(-10) }, // 4: not due yet
      { materialId: p1.id, quantity: 8, unitPrice: '5', deliveryDate: today }, //   5: due today: may still ship
    ]);
    await ship(a, 1, 10, ago(25));
    await ship(a, 2, 20, ago(15));
    await ship(a, 3, 15, ago(12));
    // Order D: shipped in full on its promised day — on time.
    const d = await order([{ materialId: p2.id, quantity: 7, unitPrice: '5', deliveryDate: ago(3) }]);
    await ship(d, 1, 7, ago(3));
    // Order B: closed with nothing shipped (cancelled) — not a late delivery. Order C: a draft — no promise.
    const b = await order([{ materialId: p1.id, quantity: 4, unitPrice: '5', deliveryDate: ago(5) }]);
    ok(await call('POST', `/api/v1/sale-order/close/${b.id}`, { reason: '客户取消' }));
    await order([{ materialId: p1.id, quantity: 4, unitPrice: '5', deliveryDate: ago(5) }], false);

    // By hand: due lines A1, A2, A3, D1 (4); on time A1, D1 (2); late A2 (shipped late) and A3 (short):
    // 2 ÷ 4 = 50 %. (Counting only lines delivered in full, as before, gave 2 ÷ 3 = 66.7 %.)
    const report = ok(
      await call('GET', '/api/v1/sale-order/report', undefined, { partyId: c.id, groupBy: 'material' }),
    );
    expect(report.totals).toMatchObject({ dueLines: 4, onTimeLines: 2, lateLines: 2, onTimeRate: 50 });
    // Per product: p1 has A1 (on time) and A3 (late): 50 %; p2 has A2 (late) and D1 (on time): 50 %.
    const byMaterial = Object.fromEntries(report.rows.map((r: any) => [r.label, r]));
    expect(byMaterial[p1.name]).toMatchObject({ dueLines: 2, onTimeLines: 1, onTimeRate: 50 });
    expect(byMaterial[p2.name]).toMatchObject({ dueLines: 2, onTimeLines: 1, onTimeRate: 50 });
    // A period of promised months: this month holds D1 and, unless the month began less than 20 days
    // ago, A1, A2 and A3 — counted here from the dates themselves.
    const month = today.slice(0, 7);
    const inMonth = [ago(20), ago(20), ago(10), ago(3)].filter((x) => x.startsWith(month));
    const onTimeInMonth = [ago(20), ago(3)].filter((x) => x.startsWith(month)).length;
    const thisMonth = ok(
      await call('GET', '/api/v1/sale-order/report', undefined, { partyId: c.id, from: month, to: month }),
    );
    expect(thisMonth.totals).toMatchObject({ dueLines: inMonth.length, onTimeLines: onTimeInMonth });

    // The cockpit reads the same definition: this month's rate over every customer (only this test's
    // here) and the lines overdue now — A3 alone (A2 shipped, late but done; B closed; C a draft).
    const sales = await t.userWith(['sale:order:list', 'sale:warehouse:list', 'sale:report:query']);
    const cards = ok<{ cards: any[] }>(
      await t.call('GET', '/api/v1/cockpit/cards', { token: sales.token }),
    ).cards;
    const card = cards.find((x) => x.key === 'sales');
    const metric = (label: string) => card.metrics.find((m: any) => m.label === label);
    expect(metric('逾期未交货')).toMatchObject({
      value: 1,
      suffix: '行',
      link: '/sale-manage/sales-warehouse?late=1',
    });
    const rate = (n: number, of: number) => `${Math.round((n / of) * 1000) / 10}%`;
    expect(metric('本月准时交货率')).toMatchObject({
      value: inMonth.length ? rate(onTimeInMonth, inMonth.length) : '-',
      link: `/sale-manage/statisticalStatement/salesReport?from=${month}&to=${month}`,
    });
    // …and its link lists exactly the overdue line on 销售仓库.
    const late = ok(await call('GET', '/api/v1/sale-order/open-lines', undefined, { late: 1, pageSize: 50 }));
    expect(late.list.map((l: any) => [l.docNo, l.lineNo])).toEqual([[a.docNo, 3]]);
  });
});
