import { type ResourceDef, resourceByName, transitionsFrom } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * 应收 / 应付 history: the aging at a past date, statements across reversals, 退款 (refund)
 * documents, the declared 反审核 guard of automatic items, and 销售 / 采购报表 against known amounts.
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
  // What settlements apply is the subject here: one user enters and confirms them, as a factory
  // that switched 职责分离 off does (checker-not-maker.test.ts covers the rule itself).
  const off = await t.call('PUT', '/api/v1/sysSetting/segregation', {
    token,
    body: { approverNotReporter: true, checkerNotMaker: false },
  });
  if (off.status !== 200) throw new Error(JSON.stringify(off.body));
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const get = (url: string, query: Record<string, unknown> = {}) =>
  t.call('GET', url, { token, query }).then(ok);
const today = businessDay();

/** A product with plenty of stock at a moving-average cost of 8.00. */
async function product() {
  const m = await f.create('material-info', { salePrice: '20' });
  ok(
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 100000, unitPrice: '8' }], { bizDate: '2026-09-01' }))
        .id,
    ),
  );
  return m;
}
const customer = () => f.create('customer', { paymentTerm: 'cash', paymentDays: 0, creditLimit: null });

async function approvedOrder(customerId: number, lines: Record<string, unknown>[]) {
  const o = ok(
    await post('/api/v1/sale-order/add', {
      customerId,
      orderDate: '2026-09-08',
      deliveryDate: '2026-11-20',
      lines,
    }),
  );
  ok(await post(`/api/v1/sale-order/approve/${o.id}`));
  return ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token }));
}
async function ship(lineId: number, quantity: number, bizDate: string) {
  const d = ok(
    await post('/api/v1/sale-order/ship', {
      warehouseId: w.warehouseId,
      bizDate,
      lines: [{ lineId, quantity }],
    }),
  );
  ok(await w.post('stock-outbound', d.id));
  return d.id as number;
}
async function returnGoods(lineId: number, quantity: number, bizDate: string) {
  const d = ok(
    await post('/api/v1/sale-order/return-goods', {
      warehouseId: w.warehouseId,
      bizDate,
      lines: [{ lineId, quantity }],
    }),
  );
  ok(await w.post('stock-inbound', d.id));
  return d.id as number;
}
async function manual(
  side: 'receivable' | 'payable',
  party: Record<string, number>,
  amount: string,
  day: string,
) {
  const r = ok(await post(`/api/v1/${side}/add`, { ...party, amount, bizDate: day, dueDate: day }));
  ok(await post(`/api/v1/${side}/approve/${r.id}`));
  return r;
}
const receive = (
  customerId: number,
  day: string,
  lines: { receivableId: number; amount: string }[],
  kind?: string,
) => post('/api/v1/receipt/quick', { customerId, bizDate: day, method: 'bank', kind, lines });
const itemsOf = (customerId: number) =>
  get('/api/v1/receivable/page', { customerId, pageSize: 100, sortField: 'docNo' }).then(
    (p: any) => p.list as any[],
  );
const aging = (customerId: number, asOf?: string) =>
  get('/api/v1/receivable/aging', asOf ? { customerId, asOf } : { customerId });
/** Money fields as fixed two-decimal strings (an empty bucket reads '0'). */
const yuan = (r: Record<string, any>) =>
  Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, /^-?\d+(\.\d+)?$/.test(String(v)) ? new Decimal(v).toFixed(2) : v]),
  );
const statement = (customerId: number, from: string, to: string) =>
  get('/api/v1/receivable/statement', { customerId, from, to });

/** opening + invoiced − settled = closing, and the running balance ends at the closing. */
function balances(st: any) {
  expect(new Decimal(st.opening).plus(st.invoiced).minus(st.settled).toFixed(2)).toBe(st.closing);
  if (st.rows.length) expect(st.rows.at(-1).balance).toBe(st.closing);
}

describe('账龄 at a past date and statements across reversals', () => {
  it('rebuilds what was open at the date: items then, less receipts on or before it, reversals as of then', async () => {
    const c = await customer();
    const m = await product();
    const r1 = await manual('receivable', { customerId: c.id }, '1000', '2026-09-01');
    await manual('receivable', { customerId: c.id }, '500', '2026-10-15');
    // A draft dated in the past never counts.
    ok(await post('/api/v1/receivable/add', { customerId: c.id, amount: '77', bizDate: '2026-09-02' }));
    ok(await receive(c.id, '2026-10-01', [{ receivableId: r1.id, amount: '400' }]));
    ok(await receive(c.id, '2026-11-05', [{ receivableId: r1.id, amount: '600' }]));
    // Shipped on 10-10 (5 × 10.00 = 50.00), the shipment reversed today.
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 5, unitPrice: '10' }]);
    const out = await ship(o.lines[0].id, 5, '2026-10-10');
    ok(await post(`/api/v1/stock-outbound/reverse/${out}`));
    const auto = (await itemsOf(c.id)).find((i) => i.sourceType === 'sales');
    expect(auto).toMatchObject({ amount: '50.00', status: 'reversed' });

    // 09-20: R1 whole, 19 days past due.
    let a = await aging(c.id, '2026-09-20');
    expect(a.rows).toHaveLength(1);
    expect(yuan(a.rows[0])).toMatchObject({
      total: '1000.00',
      days30: '1000.00',
      days60: '0.00',
      notDue: '0.00',
    });
    // 10-20: R1 less the 400 of 10-01 (49 days), R2 (5 days) and the shipment not yet reversed (10 days).
    a = await aging(c.id, '2026-10-20');
    expect(yuan(a.rows[0])).toMatchObject({
      total: '1150.00',
      days30: '550.00',
      days60: '600.00',
      over90: '0.00',
    });
    expect(a.totals.total).toBe('1150.00');
    // Today: R1 settled, the shipment reversed, R2 alone.
    a = await aging(c.id);
    expect(a.asOf).toBe(today);
    expect(a.rows[0].total).toBe('500.00');
    expect((await aging(c.id, '2026-08-31')).rows).toHaveLength(0);

    // Statements: the period before the reversal shows the shipment, the period of it its reversal.
    const oct = await statement(c.id, '2026-10-01', '2026-10-31');
    expect(oct).toMatchObject({
      opening: '1000.00',
      invoiced: '550.00',
      settled: '400.00',
      closing: '1150.00',
    });
    balances(oct);
    expect(oct.rows.map((r: any) => [r.kind, r.invoiced, r.settled])).toEqual([
      ['settle', '0.00', '400.00'],
      ['item', '50.00', '0.00'],
      ['item', '500.00', '0.00'],
    ]);
    const since = await statement(c.id, '2026-11-01', today);
    expect(since).toMatchObject({
      opening: '1150.00',
      invoiced: '-50.00',
      settled: '600.00',
      closing: '500.00',
    });
    balances(since);
    const reversal = since.rows.find((r: any) => r.kind === 'reversal');
    expect(reversal).toMatchObject({
      date: today,
      docNo: auto.docNo,
      invoiced: '-50.00',
      type: '冲销销售出库',
    });
    // One period over all of it: the shipment and its reversal both show, and net out.
    const all = await statement(c.id, '2026-09-01', today);
    expect(all).toMatchObject({
      opening: '0.00',
      invoiced: '1500.00',
      settled: '1000.00',
      closing: '500.00',
    });
    balances(all);
    // The statement's closing at a date is the aging's total at that date.
    for (const day of ['2026-09-20', '2026-10-20', '2026-11-04', today]) {
      const st = await statement(c.id, '2026-09-01', day);
      expect(st.closing, day).toBe((await aging(c.id, day)).totals.total);
    }
  });

  it('a receipt taken off by 反确认 no longer counts at any date; confirmed again it does', async () => {
    const c = await customer();
    const r = await manual('receivable', { customerId: c.id }, '800', '2026-10-01');
    const rc = ok(await receive(c.id, '2026-10-10', [{ receivableId: r.id, amount: '300' }]));
    const at = async (day: string) => (await aging(c.id, day)).totals.total;
    expect([await at('2026-10-05'), await at('2026-10-12'), await at(today)]).toEqual([
      '800.00',
      '500.00',
      '500.00',
    ]);
    ok(await post(`/api/v1/receipt/unapprove/${rc.id}`, { reason: '收款录错' }));
    expect([await at('2026-10-05'), await at('2026-10-12'), await at(today)]).toEqual([
      '800.00',
      '800.00',
      '800.00',
    ]);
    ok(await post(`/api/v1/receipt/approve/${rc.id}`));
    expect([await at('2026-10-05'), await at('2026-10-12'), await at(today)]).toEqual([
      '800.00',
      '500.00',
      '500.00',
    ]);
  });

  it('the payables side: what a payment dated later applied is open again before it', async () => {
    const s = await f.create('supplier', {});
    const p = await manual('payable', { supplierId: s.id }, '1200', '2026-09-15');
    ok(
      await post('/api/v1/payment/quick', {
        supplierId: s.id,
        bizDate: '2026-10-20',
        method: 'bank',
        lines: [{ payableId: p.id, amount: '1200' }],
      }),
    );
    const ap = (day?: string) =>
      get('/api/v1/payable/aging', day ? { supplierId: s.id, asOf: day } : { supplierId: s.id });
    expect(yuan((await ap('2026-10-01')).rows[0])).toMatchObject({ total: '1200.00', days30: '1200.00' });
    expect((await ap('2026-10-20')).rows).toHaveLength(0);
    expect((await ap()).rows).toHaveLength(0);
  });
});

describe('退款: refunds to customers and from suppliers', () => {
  it('a customer paid, then returned goods: the negative receivable is refunded by a 退款单', async () => {
    const c = await customer();
    const m = await product();
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 10, unitPrice: '10' }]);
    await ship(o.lines[0].id, 10, '2026-11-02');
    const [sale] = await itemsOf(c.id);
    ok(await receive(c.id, '2026-11-03', [{ receivableId: sale.id, amount: '100' }]));
    await returnGoods(o.lines[0].id, 4, '2026-11-06');
    const ret = (await itemsOf(c.id)).find((i) => i.sourceType === 'sales-return');
    expect(ret).toMatchObject({ amount: '-40.00', status: 'open' });
    expect((await aging(c.id)).rows[0].total).toBe('-40.00');

    // A 收款 that only pays money back is refused: that is a 退款单.
    const wrongKind = await receive(c.id, '2026-11-08', [{ receivableId: ret.id, amount: '-40' }]);
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toContain('退款单');
    // A refund applies to negative receivables only.
    const m2 = await product();
    const o2 = await approvedOrder(c.id, [{ materialId: m2.id, quantity: 1, unitPrice: '5' }]);
    await ship(o2.lines[0].id, 1, '2026-11-07');
    const open = (await itemsOf(c.id)).find((i) => i.orderNo === o2.docNo);
    const wrongItem = await receive(c.id, '2026-11-08', [{ receivableId: open.id, amount: '5' }], 'refund');
    expect(wrongItem.status).toBe(400);
    expect(wrongItem.body.errors?.[0].field).toBe('lines.0.receivableId');
    const overRefund = await receive(c.id, '2026-11-08', [{ receivableId: ret.id, amount: '-41' }], 'refund');
    expect(overRefund.status).toBe(409);

    const refund = ok(await receive(c.id, '2026-11-08', [{ receivableId: ret.id, amount: '-40' }], 'refund'));
    expect(refund.docNo).toMatch(/^TK20261108-\d{4}$/);
    expect(await get(`/api/v1/receipt/info/${refund.id}`)).toMatchObject({
      kind: 'refund',
      amount: '-40.00',
      status: 'confirmed',
    });
    expect((await itemsOf(c.id)).find((i) => i.id === ret.id)).toMatchObject({
      status: 'settled',
      openAmount: '0.00',
    });
    expect((await aging(c.id)).rows[0].total).toBe('5.00');

    const st = await statement(c.id, '2026-11-01', '2026-11-30');
    balances(st);
    expect(st).toMatchObject({ opening: '0.00', invoiced: '65.00', settled: '60.00', closing: '5.00' });
    expect(st.rows.find((r: any) => r.docNo === refund.docNo)).toMatchObject({
      kind: 'settle',
      type: '退款（银行转账）',
      settled: '-40.00',
    });
    // The refund before it was made: −40 open at 11-07.
    expect((await aging(c.id, '2026-11-07')).rows[0].total).toBe('-35.00');

    // 反确认 takes the refund off again.
    ok(await post(`/api/v1/receipt/unapprove/${refund.id}`, { reason: '退款退回' }));
    expect((await itemsOf(c.id)).find((i) => i.id === ret.id)).toMatchObject({
      status: 'open',
      openAmount: '-40.00',
    });
  });

  it('a supplier refunds an overpayment entered as a negative payable (收退款, ST…)', async () => {
    const s = await f.create('supplier', { paymentTerm: 'cash', paymentDays: 0 });
    const overpaid = await manual('payable', { supplierId: s.id }, '-30', '2026-11-04');
    const pay = (kind: string | undefined, amount: string) =>
      post('/api/v1/payment/quick', {
        supplierId: s.id,
        bizDate: '2026-11-09',
        method: 'bank',
        kind,
        lines: [{ payableId: overpaid.id, amount }],
      });
    expect((await pay(undefined, '-30')).status).toBe(400);
    const refund = ok(await pay('refund', '-30'));
    expect(refund.docNo).toMatch(/^ST20261109-\d{4}$/);
    const st = await get('/api/v1/payable/statement', {
      supplierId: s.id,
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(st).toMatchObject({ opening: '0.00', invoiced: '-30.00', settled: '-30.00', closing: '0.00' });
    expect(st.rows.at(-1).type).toBe('收退款（银行转账）');
    const bad = await post('/api/v1/payment/quick', {
      supplierId: s.id,
      method: 'bank',
      kind: 'back',
      lines: [{ payableId: overpaid.id, amount: '-1' }],
    });
    expect(bad.status).toBe(400);
  });
});

describe('反审核 of automatic items', () => {
  it('is not offered for a receivable written by stock posting, and refused by the server', async () => {
    const c = await customer();
    const m = await product();
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 2, unitPrice: '3' }]);
    await ship(o.lines[0].id, 2, '2026-11-10');
    const hand = await manual('receivable', { customerId: c.id }, '9', '2026-11-10');
    const [auto] = (await itemsOf(c.id)).filter((i) => i.sourceType === 'sales');
    const def = resourceByName('receivable') as ResourceDef;
    const offered = async (id: number) => {
      const rec = await get(`/api/v1/receivable/info/${id}`);
      return transitionsFrom(def.lifecycle!, rec.status, rec).map((x) => x.name);
    };
    expect(await offered(auto.id)).not.toContain('unapprove');
    expect(await offered(hand.id)).toContain('unapprove');
    const refused = await post(`/api/v1/receivable/unapprove/${auto.id}`, { reason: '试试' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('请冲销来源单据');
    ok(await post(`/api/v1/receivable/unapprove/${hand.id}`, { reason: '录错' }));
  });
});

describe('销售报表 / 采购报表 against known amounts', () => {
  it('revenue, cost at moving average, margin by month and customer; purchases net of returns', async () => {
    const c = await customer();
    const m = await product();
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 10, unitPrice: '20' }]);
    await ship(o.lines[0].id, 3, '2026-10-10');
    await ship(o.lines[0].id, 2, '2026-11-10');
    const reversed = await ship(o.lines[0].id, 1, '2026-11-11');
    ok(await post(`/api/v1/stock-outbound/reverse/${reversed}`));
    const q = { customerId: c.id, from: '2026-10-01', to: '2026-11-30' };
    const byMonth = await get('/api/v1/finance-report/sales-report', { ...q, groupBy: 'month' });
    const rows = Object.fromEntries(byMonth.rows.map((r: any) => [r.key, r]));
    expect(rows['2026-10']).toMatchObject({
      quantity: '3.0000',
      revenue: '60.00',
      cost: '24.00',
      margin: '36.00',
    });
    expect(rows['2026-11']).toMatchObject({
      quantity: '2.0000',
      revenue: '40.00',
      cost: '16.00',
      margin: '24.00',
    });
    expect(byMonth.totals).toMatchObject({
      revenue: '100.00',
      cost: '40.00',
      margin: '60.00',
      marginRate: '60.00',
    });
    const byCustomer = await get('/api/v1/finance-report/sales-report', { ...q, groupBy: 'customer' });
    expect(byCustomer.rows).toHaveLength(1);
    expect(byCustomer.rows[0]).toMatchObject({ key: String(c.id), revenue: '100.00' });
    const oct = await get('/api/v1/finance-report/sales-report', {
      ...q,
      to: '2026-10-31',
      groupBy: 'material',
    });
    expect(oct.totals.revenue).toBe('60.00');

    // 采购: 30 at 3.3333 = 100.00 received, 6 returned (20.00).
    const s = await f.create('supplier', { paymentTerm: 'cash', paymentDays: 0 });
    const mat = await w.material({ standardCost: '3' });
    const po = ok(
      await post('/api/v1/purchase-order/add', {
        supplierId: s.id,
        orderDate: '2026-10-12',
        deliveryDate: '2026-10-30',
        lines: [{ materialId: mat.id, quantity: 30, unitPrice: '3.3333' }],
      }),
    );
    ok(await post(`/api/v1/purchase-order/approve/${po.id}`));
    const doc = async (kind: string, type: string, quantity: number, bizDate: string) => {
      const d = ok(
        await post(`/api/v1/${kind}/add`, {
          type,
          warehouseId: w.warehouseId,
          bizDate,
          purchaseOrderId: po.id,
          lines: [{ materialId: mat.id, quantity }],
        }),
      );
      ok(await w.post(kind, d.id));
    };
    await doc('stock-inbound', 'purchase', 30, '2026-10-20');
    await doc('stock-outbound', 'purchase-return', 6, '2026-11-03');
    const p = await get('/api/v1/finance-report/purchase-report', {
      supplierId: s.id,
      from: '2026-10-01',
      to: '2026-11-30',
      groupBy: 'month',
    });
    const pm = Object.fromEntries(p.rows.map((r: any) => [r.key, yuan(r)]));
    expect(pm['2026-10']).toMatchObject({ quantity: '30.00', amount: '100.00', returnAmount: '0.00' });
    expect(pm['2026-11']).toMatchObject({ quantity: '-6.00', amount: '0.00', returnAmount: '20.00' });
    expect(p.totals).toMatchObject({ amount: '100.00', returnAmount: '20.00', netAmount: '80.00' });
  });
});
