import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, downloadWorkbook, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
let unitBox: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
  unitBox = (await f.create('material-unit', { name: '箱' })).id;
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
const D = (v: Decimal.Value) => new Decimal(v);

/** A product (1 箱 = 10 套) with plenty of qualified stock. */
async function product() {
  const m = await f.create('material-info', {
    salePrice: '20',
    unitConversions: [{ unitId: unitBox, baseQuantity: '10' }],
  });
  ok(
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 100000, unitPrice: '8' }])).id,
    ),
  );
  return m;
}

async function customer(extra: Record<string, unknown> = {}) {
  return f.create('customer', { paymentTerm: 'cash', paymentDays: 0, creditLimit: null, ...extra });
}

async function approvedOrder(customerId: number, lines: Record<string, unknown>[]) {
  const o = ok(
    await t.call('POST', '/api/v1/sale-order/add', {
      token,
      body: { customerId, orderDate: '2026-10-08', deliveryDate: '2026-11-20', lines },
    }),
  );
  ok(await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, { token, body: {} }));
  return ok(await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token }));
}

/** Ships and posts; answers the 销售出库's id (or the refusal). */
async function shipPosted(lines: { lineId: number; quantity: string | number }[], bizDate = '2026-11-10') {
  const d = await t.call('POST', '/api/v1/sale-order/ship', {
    token,
    body: { warehouseId: w.warehouseId, bizDate, lines },
  });
  if (d.status !== 200) return d;
  const p = await w.post('stock-outbound', d.body.result.id);
  return p.status === 200 ? { status: 200, body: { result: { id: d.body.result.id } } } : p;
}
async function returnPosted(lines: { lineId: number; quantity: string | number }[]) {
  const d = await t.call('POST', '/api/v1/sale-order/return-goods', {
    token,
    body: { warehouseId: w.warehouseId, bizDate: '2026-11-12', lines },
  });
  if (d.status !== 200) return d;
  const p = await w.post('stock-inbound', d.body.result.id);
  return p.status === 200 ? { status: 200, body: { result: { id: d.body.result.id } } } : p;
}
const reverse = (kind: string, id: number) => t.call('POST', `/api/v1/${kind}/reverse/${id}`, { token });

const receivablesOf = (customerId: number) =>
  t
    .call('GET', '/api/v1/receivable/page', {
      token,
      query: { customerId, pageSize: 100, sortField: 'docNo' },
    })
    .then(ok)
    .then((p: any) => p.list as any[]);
const receive = (customerId: number, lines: { receivableId: number; amount: string }[], as = token) =>
  t.call('POST', '/api/v1/receipt/quick', {
    token: as,
    body: { customerId, bizDate: '2026-11-20', method: 'bank', lines },
  });

describe('应收: receivables from shipments', () => {
  it('a posted 销售出库 makes a receivable at order prices with tax, due by the customer terms; a return makes a negative one', async () => {
    const m = await product();
    const c = await customer({ paymentTerm: 'month-end', paymentDays: 30 });
    // 3 箱 at 133.33 per 箱: amount 399.99 for 30 套 — each 套 costs 13.333 exactly never.
    const o = await approvedOrder(c.id, [
      { materialId: m.id, quantity: 3, unitId: unitBox, unitPrice: '133.33' },
    ]);
    expect(o.lines[0].amount).toBe('399.99');
    const s = ok(await shipPosted([{ lineId: o.lines[0].id, quantity: 7 }]));
    let list = await receivablesOf(c.id);
    expect(list).toHaveLength(1);
    // 399.99 × 7 / 30 = 93.331 → 93.33, once per line.
    expect(list[0]).toMatchObject({
      sourceType: 'sales',
      amount: '93.33',
      openAmount: '93.33',
      settledAmount: '0.00',
      status: 'open',
      bizDate: '2026-11-10',
      dueDate: '2026-12-30',
      orderNo: o.docNo,
    });
    expect(list[0].docNo).toMatch(/^YS20261110-\d{4}$/);
    const detail = ok(await t.call('GET', `/api/v1/receivable/info/${list[0].id}`, { token }));
    expect(detail.lines[0]).toMatchObject({ materialId: m.id, quantity: '7.0000', amount: '93.33' });
    // A return of 2: −26.67 (399.99 × 2 / 30 = 26.666).
    const back = ok(await returnPosted([{ lineId: o.lines[0].id, quantity: 2 }]));
    list = await receivablesOf(c.id);
    expect(list.map((r) => r.amount).sort()).toEqual(['-26.67', '93.33']);
    // Reversing the documents reverses their receivables (no receipt yet).
    ok(await reverse('stock-inbound', back.id));
    ok(await reverse('stock-outbound', s.id));
    list = await receivablesOf(c.id);
    expect(list.find((r) => r.amount === '93.33').status).toBe('reversed');
  });

  it('receipts apply to several receivables, partially; over-application is refused; reversal is 409 until the receipt is taken off', async () => {
    const m = await product();
    const c = await customer();
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 100, unitPrice: '10' }]);
    const s1 = ok(await shipPosted([{ lineId: o.lines[0].id, quantity: 10 }]));
    ok(await shipPosted([{ lineId: o.lines[0].id, quantity: 20 }]));
    const [a, b] = await receivablesOf(c.id);
    expect([a.amount, b.amount]).toEqual(['100.00', '200.00']);
    const r = ok(
      await receive(c.id, [
        { receivableId: a.id, amount: '40' },
        { receivableId: b.id, amount: '200' },
      ]),
    );
    expect(r.status).toBe('confirmed');
    const receipt = ok(await t.call('GET', `/api/v1/receipt/info/${r.id}`, { token }));
    expect(receipt.amount).toBe('240.00');
    let [a2, b2] = await receivablesOf(c.id);
    expect(a2).toMatchObject({ status: 'partly', settledAmount: '40.00', openAmount: '60.00' });
    expect(b2).toMatchObject({ status: 'settled', openAmount: '0.00' });
    // 60.01 is more than is open.
    const over = await receive(c.id, [{ receivableId: a.id, amount: '60.01' }]);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('未收款 60.00 元');
    // A settled one cannot take more.
    expect((await receive(c.id, [{ receivableId: b.id, amount: '1' }])).status).toBe(409);
    // Reversing the shipment of a receivable with a receipt applied: 409, and nothing moved.
    const refused = await reverse('stock-outbound', s1.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(receipt.docNo);
    expect(refused.body.message).toContain('请先反确认收款单');
    const doc = ok(await t.call('GET', `/api/v1/stock-outbound/info/${s1.id}`, { token }));
    expect(doc.status).toBe('posted');
    // Take the receipt off: the receivables are open again, and the reversal goes through.
    ok(await t.call('POST', `/api/v1/receipt/unapprove/${r.id}`, { token, body: { reason: '收款录错' } }));
    [a2, b2] = await receivablesOf(c.id);
    expect(a2).toMatchObject({ status: 'open', openAmount: '100.00' });
    expect(b2).toMatchObject({ status: 'open', openAmount: '200.00' });
    ok(await reverse('stock-outbound', s1.id));
    expect((await receivablesOf(c.id))[0].status).toBe('reversed');
    // A receipt for a reversed receivable is refused.
    const gone = await receive(c.id, [{ receivableId: a.id, amount: '1' }]);
    expect(gone.status).toBe(400);
    expect(gone.body.message).toContain('已冲销');
  });

  it('concurrent receipts never over-apply one receivable', async () => {
    const c = await customer();
    const rv = ok(
      await t.call('POST', '/api/v1/receivable/add', {
        token,
        body: { customerId: c.id, bizDate: '2026-11-01', amount: '100', remark: '技术服务费' },
      }),
    );
    ok(await t.call('POST', `/api/v1/receivable/approve/${rv.id}`, { token, body: {} }));
    const results = await Promise.all(
      Array.from({ length: 6 }, () => receive(c.id, [{ receivableId: rv.id, amount: '30' }])),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);
    const now = ok(await t.call('GET', `/api/v1/receivable/info/${rv.id}`, { token }));
    expect(now).toMatchObject({ settledAmount: '90.00', openAmount: '10.00', status: 'partly' });
  });

  it('ages open amounts per customer by days past due, and the credit check counts them', async () => {
    const c = await customer({ paymentTerm: 'days', paymentDays: 10, creditLimit: '1000' });
    const add = async (bizDate: string, amount: string) => {
      const r = ok(
        await t.call('POST', '/api/v1/receivable/add', {
          token,
          body: { customerId: c.id, bizDate, amount },
        }),
      );
      ok(await t.call('POST', `/api/v1/receivable/approve/${r.id}`, { token, body: {} }));
      return r.id;
    };
    // Due dates 2026-11-25 (not due on 11-20), 11-10 (10 days), 10-11 (40), 09-11 (70), 07-03 (140).
    await add('2026-11-15', '1');
    await add('2026-10-31', '10');
    const x = await add('2026-10-01', '100');
    await add('2026-09-01', '200');
    await add('2026-06-23', '400');
    expect(ok(await t.call('GET', `/api/v1/receivable/info/${x}`, { token })).dueDate).toBe('2026-10-11');
    const aging = ok(
      await t.call('GET', '/api/v1/receivable/aging', {
        token,
        query: { customerId: c.id, asOf: '2026-11-20' },
      }),
    );
    expect(aging.rows).toHaveLength(1);
    expect(aging.rows[0]).toMatchObject({
      total: '711.00',
      notDue: '1.00',
      days30: '10.00',
      days60: '100.00',
      days90: '200.00',
      over90: '400.00',
    });
    // 只看逾期: the customer owes overdue amounts, so it stays.
    const overdue = ok(
      await t.call('GET', '/api/v1/receivable/aging', {
        token,
        query: { customerId: c.id, asOf: '2026-11-20', overdueOnly: '1' },
      }),
    );
    expect(overdue.rows.map((r: any) => r.total)).toEqual(['711.00']);
    // A receipt moves the aging.
    ok(await receive(c.id, [{ receivableId: x, amount: '60' }]));
    const after = ok(
      await t.call('GET', '/api/v1/receivable/aging', {
        token,
        query: { customerId: c.id, asOf: '2026-11-20' },
      }),
    );
    expect(after.rows[0]).toMatchObject({ total: '651.00', days60: '40.00' });
    // 651 open + a 400 order > 1000: the approval is refused with the receivables named.
    const m = await product();
    const o = ok(
      await t.call('POST', '/api/v1/sale-order/add', {
        token,
        body: {
          customerId: c.id,
          orderDate: '2026-11-20',
          deliveryDate: '2026-11-30',
          lines: [{ materialId: m.id, quantity: 20, unitPrice: '20' }],
        },
      }),
    );
    const refused = await t.call('POST', `/api/v1/sale-order/approve/${o.id}`, {
      token: await t.userWith(['sale:order:approve']).then((u) => u.token),
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('应收未收 651.00 元');
  });

  it('a statement gives opening, invoiced, received and closing for a period, and exports to Excel', async () => {
    const c = await customer();
    const add = async (bizDate: string, amount: string) => {
      const r = ok(
        await t.call('POST', '/api/v1/receivable/add', {
          token,
          body: { customerId: c.id, bizDate, amount },
        }),
      );
      ok(await t.call('POST', `/api/v1/receivable/approve/${r.id}`, { token, body: {} }));
      return r.id;
    };
    const a = await add('2026-09-05', '500');
    const b = await add('2026-10-10', '300');
    await add('2026-10-20', '-50');
    ok(
      await t.call('POST', '/api/v1/receipt/quick', {
        token,
        body: {
          customerId: c.id,
          bizDate: '2026-09-30',
          method: 'bank',
          lines: [{ receivableId: a, amount: '200' }],
        },
      }),
    );
    ok(
      await t.call('POST', '/api/v1/receipt/quick', {
        token,
        body: {
          customerId: c.id,
          bizDate: '2026-10-25',
          method: 'cash',
          lines: [{ receivableId: b, amount: '100' }],
        },
      }),
    );
    const st = ok(
      await t.call('GET', '/api/v1/receivable/statement', {
        token,
        query: { customerId: c.id, from: '2026-10-01', to: '2026-10-31' },
      }),
    );
    expect(st).toMatchObject({ opening: '300.00', invoiced: '250.00', settled: '100.00', closing: '450.00' });
    expect(st.rows.map((r: any) => r.balance)).toEqual(['600.00', '550.00', '450.00']);
    // The closing balance of all time is what is open.
    const all = ok(
      await t.call('GET', '/api/v1/receivable/statement', {
        token,
        query: { customerId: c.id, from: '2000-01-01', to: '2099-12-31' },
      }),
    );
    const open = (await receivablesOf(c.id)).reduce((sum, r) => sum.plus(r.openAmount), D(0));
    expect(all.closing).toBe(open.toFixed(2));
    const x = ok(
      await t.call('GET', '/api/v1/receivable/statement/export', {
        token,
        query: { customerId: c.id, from: '2026-10-01', to: '2026-10-31' },
      }),
    );
    const wb = await downloadWorkbook(t, token, x.fileName);
    const ws = wb.worksheets[0];
    expect(String(ws.getRow(1).getCell(1).value)).toContain('客户对账单');
    expect(ws.getRow(3).getCell(8).value).toBe(300);
    // A period that ends before it starts.
    const bad = await t.call('GET', '/api/v1/receivable/statement', {
      token,
      query: { customerId: c.id, from: '2026-10-31', to: '2026-10-01' },
    });
    expect(bad.status).toBe(400);
  });

  it('checks permissions and validates input', async () => {
    const c = await customer();
    const viewer = await t.userWith(['finance:receivable:list']);
    expect((await t.call('GET', '/api/v1/receivable/aging', { token: viewer.token, query: {} })).status).toBe(
      200,
    );
    expect(
      (
        await t.call('POST', '/api/v1/receivable/add', {
          token: viewer.token,
          body: { customerId: c.id, amount: '5' },
        })
      ).status,
    ).toBe(403);
    expect((await t.call('GET', '/api/v1/receipt/page', { token: viewer.token })).status).toBe(403);
    expect((await t.call('GET', '/api/v1/payable/aging', { token: viewer.token })).status).toBe(403);
    // 收款 needs both 新增 and 确认.
    const half = await t.userWith(['finance:receipt:approve']);
    expect((await receive(c.id, [{ receivableId: 1, amount: '1' }], half.token)).status).toBe(403);
    // Zero amounts, and a receivable of another customer.
    const zero = await t.call('POST', '/api/v1/receivable/add', {
      token,
      body: { customerId: c.id, amount: '0' },
    });
    expect(zero.status).toBe(400);
    expect(zero.body.errors?.[0].field).toBe('amount');
    const other = await customer();
    const rv = ok(
      await t.call('POST', '/api/v1/receivable/add', { token, body: { customerId: other.id, amount: '9' } }),
    );
    ok(await t.call('POST', `/api/v1/receivable/approve/${rv.id}`, { token, body: {} }));
    const wrong = await receive(c.id, [{ receivableId: rv.id, amount: '1' }]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0].field).toBe('lines.0.receivableId');
    // An automatic receivable is not edited by hand and cannot be un-approved.
    const m = await product();
    const o = await approvedOrder(c.id, [{ materialId: m.id, quantity: 5, unitPrice: '10' }]);
    ok(await shipPosted([{ lineId: o.lines[0].id, quantity: 5 }]));
    const auto = (await receivablesOf(c.id))[0];
    expect(
      (await t.call('PUT', `/api/v1/receivable/edit/${auto.id}`, { token, body: { amount: '1' } })).status,
    ).toBe(409);
    const un = await t.call('POST', `/api/v1/receivable/unapprove/${auto.id}`, {
      token,
      body: { reason: 'x' },
    });
    expect(un.status).toBe(409);
    expect(un.body.message).toContain('请冲销来源单据');
  });
});

describe('应付: payables from receipts of goods and outsourcing', () => {
  it('采购入库 at order prices, 采购退货 negative, payments and the supplier aging', async () => {
    const s = await f.create('supplier', { paymentTerm: 'days', paymentDays: 30 });
    const m = await w.material({ standardCost: '3' });
    const po = ok(
      await t.call('POST', '/api/v1/purchase-order/add', {
        token,
        body: {
          supplierId: s.id,
          orderDate: '2026-10-12',
          deliveryDate: '2026-10-30',
          lines: [{ materialId: m.id, quantity: 30, unitPrice: '3.3333' }],
        },
      }),
    );
    ok(await t.call('POST', `/api/v1/purchase-order/approve/${po.id}`, { token, body: {} }));
    const order = ok(await t.call('GET', `/api/v1/purchase-order/info/${po.id}`, { token }));
    expect(order.amount).toBe('100.00');
    const doc = async (kind: string, type: string, quantity: number) => {
      const d = ok(
        await t.call('POST', `/api/v1/${kind}/add`, {
          token,
          body: {
            type,
            warehouseId: w.warehouseId,
            bizDate: '2026-10-20',
            purchaseOrderId: po.id,
            lines: [{ materialId: m.id, quantity }],
          },
        }),
      );
      ok(await w.post(kind, d.id));
      return d.id;
    };
    await doc('stock-inbound', 'purchase', 7);
    await doc('stock-outbound', 'purchase-return', 2);
    const list = ok(await t.call('GET', '/api/v1/payable/page', { token, query: { supplierId: s.id } })).list;
    // 100.00 × 7 / 30 = 23.333 → 23.33; 100.00 × 2 / 30 = 6.666 → −6.67.
    expect(list.map((r: any) => r.amount).sort()).toEqual(['-6.67', '23.33']);
    const inbound = list.find((r: any) => r.amount === '23.33');
    expect(inbound).toMatchObject({ sourceType: 'purchase', dueDate: '2026-11-19' });
    ok(
      await t.call('POST', '/api/v1/payment/quick', {
        token,
        body: {
          supplierId: s.id,
          bizDate: '2026-11-01',
          method: 'bank',
          lines: [{ payableId: inbound.id, amount: '20' }],
        },
      }),
    );
    const aging = ok(
      await t.call('GET', '/api/v1/payable/aging', {
        token,
        query: { supplierId: s.id, asOf: '2026-12-01' },
      }),
    );
    expect(aging.rows[0]).toMatchObject({ total: '-3.34', days30: '-3.34' });
  });
});

describe('Σ items = Σ posted lines at order prices, over random document streams with reversals', () => {
  it('holds for receivables and payables after every step', async () => {
    const m = await product();
    const c = await customer();
    const so = await approvedOrder(c.id, [
      { materialId: m.id, quantity: 50, unitId: unitBox, unitPrice: '77.77' },
      { materialId: m.id, quantity: 333, unitPrice: '1.13' },
    ]);
    const s = await f.create('supplier');
    const po = ok(
      await t.call('POST', '/api/v1/purchase-order/add', {
        token,
        body: {
          supplierId: s.id,
          orderDate: '2026-10-12',
          deliveryDate: '2026-10-30',
          lines: [{ materialId: m.id, quantity: 700, unitPrice: '0.997' }],
        },
      }),
    );
    ok(await t.call('POST', `/api/v1/purchase-order/approve/${po.id}`, { token, body: {} }));
    const poLine = ok(await t.call('GET', `/api/v1/purchase-order/info/${po.id}`, { token })).lines[0];
    const posted: { kind: string; id: number }[] = [];
    // Documents the streams posted (reversals take them off `posted`, which a stream may empty).
    let made = 0;
    const keep = (d: { kind: string; id: number }) => {
      posted.push(d);
      made++;
    };

    /** What the posted, unreversed documents are worth, computed here from the order lines. */
    async function expected() {
      const r = await sql<{ side: string; sign: number; amount: string; base: string; q: string }>`
        SELECT 'ar' AS side, CASE WHEN d.type = 'sales' THEN 1 ELSE -1 END AS sign, ol.amount::text AS amount,
               ol.base_quantity::text AS base, l.base_quantity::text AS q
          FROM stock_outbound d JOIN stock_outbound_line l ON l.stock_outbound_id = d.id
          JOIN sale_order_line ol ON ol.id = l.source_line_id
         WHERE d.status = 'posted' AND d.sale_order_id = ${so.id}
        UNION ALL
        SELECT 'ar', -1, ol.amount::text, ol.base_quantity::text, l.base_quantity::text
          FROM stock_inbound d JOIN stock_inbound_line l ON l.stock_inbound_id = d.id
          JOIN sale_order_line ol ON ol.id = l.source_line_id
         WHERE d.status = 'posted' AND d.sale_order_id = ${so.id}
        UNION ALL
        SELECT 'ap', 1, ol.amount::text, ol.base_quantity::text, l.base_quantity::text
          FROM stock_inbound d JOIN stock_inbound_line l ON l.stock_inbound_id = d.id
          JOIN purchase_order_line ol ON ol.id = l.source_line_id
         WHERE d.status = 'posted' AND d.purchase_order_id = ${po.id}
        UNION ALL
        SELECT 'ap', -1, ol.amount::text, ol.base_quantity::text, l.base_quantity::text
          FROM stock_outbound d JOIN stock_outbound_line l ON l.stock_outbound_id = d.id
          JOIN purchase_order_line ol ON ol.id = l.source_line_id
         WHERE d.status = 'posted' AND d.purchase_order_id = ${po.id}`.execute(t.database.db);
      const sum = { ar: D(0), ap: D(0) };
      for (const x of r.rows)
        sum[x.side as 'ar' | 'ap'] = sum[x.side as 'ar' | 'ap'].plus(
          D(x.amount).times(x.q).dividedBy(x.base).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(x.sign),
        );
      return sum;
    }
    async function actual() {
      const r = await sql<{ ar: string; ap: string }>`
        SELECT (SELECT COALESCE(sum(amount), 0) FROM receivable WHERE customer_id = ${c.id} AND status <> 'reversed')::text AS ar,
               (SELECT COALESCE(sum(amount), 0) FROM payable WHERE supplier_id = ${s.id} AND status <> 'reversed')::text AS ap`.execute(
        t.database.db,
      );
      return { ar: D(r.rows[0].ar), ap: D(r.rows[0].ap) };
    }

    const op = fc.oneof(
      fc.record({ op: fc.constant('ship'), line: fc.nat(1), q: fc.integer({ min: 1, max: 37 }) }),
      fc.record({ op: fc.constant('return'), line: fc.nat(1), q: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ op: fc.constant('buy'), q: fc.integer({ min: 1, max: 61 }) }),
      fc.record({ op: fc.constant('sendBack'), q: fc.integer({ min: 1, max: 7 }) }),
      fc.record({ op: fc.constant('reverse'), pick: fc.nat(50) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
        for (const o of ops) {
          let r: any;
          if (o.op === 'ship') {
            r = await shipPosted([{ lineId: so.lines[o.line].id, quantity: o.q }]);
            if (r.status === 200) keep({ kind: 'stock-outbound', id: r.body.result.id });
          } else if (o.op === 'return') {
            r = await returnPosted([{ lineId: so.lines[o.line].id, quantity: o.q }]);
            if (r.status === 200) keep({ kind: 'stock-inbound', id: r.body.result.id });
          } else if (o.op === 'buy' || o.op === 'sendBack') {
            const kind = o.op === 'buy' ? 'stock-inbound' : 'stock-outbound';
            const d = await t.call('POST', `/api/v1/${kind}/add`, {
              token,
              body: {
                type: o.op === 'buy' ? 'purchase' : 'purchase-return',
                warehouseId: w.warehouseId,
                purchaseOrderId: po.id,
                lines: [{ materialId: m.id, quantity: o.q, sourceLineId: poLine.id }],
              },
            });
            if (d.status === 200 && (await w.post(kind, d.body.result.id)).status === 200)
              keep({ kind, id: d.body.result.id });
          } else if (posted.length) {
            const [victim] = posted.splice(o.pick % posted.length, 1);
            const rr = await reverse(victim.kind, victim.id);
            if (rr.status !== 200) posted.push(victim);
          }
          const [e, a] = [await expected(), await actual()];
          expect(a.ar.toFixed(2)).toBe(e.ar.toFixed(2));
          expect(a.ap.toFixed(2)).toBe(e.ap.toFixed(2));
        }
      }),
      { numRuns: 8 },
    );
    expect(made).toBeGreaterThan(0);
  }, 60_000);
});
