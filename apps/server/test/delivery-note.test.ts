import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * The 送货单 of a 销售出库 (GET /api/v1/stock-outbound/delivery-note/{id}) prints what the customer
 * bought: the order line's unit, the quantity in it, the order's tax-inclusive price and the
 * amount — not the stock cost the posting wrote on the outbound line — and the customer's name,
 * address, contact and phone.
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
const call = (method: string, url: string, body?: Record<string, unknown>) =>
  t.call(method, url, { token, body });

describe('送货单', () => {
  it('prints the order line’s unit, quantity, tax-inclusive price and amount, and the customer’s address', async () => {
    const set = await f.create('material-unit', { name: '套', precision: 0 });
    const box = await f.create('material-unit', { name: '箱', precision: 0 });
    const bearing = await f.create('material-info', {
      name: '深沟球轴承 6205-2RS/P6',
      spec: '6205-2RS P6',
      unitId: set.id,
      unitConversions: [{ unitId: box.id, baseQuantity: '10' }],
    });
    const seal = await f.create('material-info', { name: '密封圈 6205', unitId: set.id });
    const customer = await f.create('customer', {
      name: '洛阳精工机械有限公司',
      address: '河南省洛阳市涧西区建设路 88 号',
      contact: '王工',
      phone: '0379-64561234',
    });
    // In stock at a cost of 4.40 a 套.
    const stock = await w.inbound([
      { materialId: bearing.id, quantity: 100, unitPrice: '4.4' },
      { materialId: seal.id, quantity: 100, unitPrice: '4.4' },
    ]);
    ok(await w.post('stock-inbound', stock.id));
    // Sold: 5 箱 at 62.00 a 箱 and 20 套 at 6.20 a 套, tax included.
    const order = ok(
      await call('POST', '/api/v1/sale-order/add', {
        customerId: customer.id,
        orderDate: '2026-11-20',
        deliveryDate: '2026-12-05',
        lines: [
          { materialId: bearing.id, quantity: 5, unitId: box.id, unitPrice: '62' },
          { materialId: seal.id, quantity: 20, unitPrice: '6.2' },
        ],
      }),
    );
    ok(await call('POST', `/api/v1/sale-order/approve/${order.id}`, {}));
    const lines = ok(await call('GET', `/api/v1/sale-order/info/${order.id}`)).lines;
    // 销售仓库 ships in base units: 30 套 of the bearing (3 箱) and the 20 seals.
    const draft = ok(
      await call('POST', '/api/v1/sale-order/ship', {
        warehouseId: w.warehouseId,
        bizDate: '2026-11-26',
        lines: [
          { lineId: lines[0].id, quantity: 30 },
          { lineId: lines[1].id, quantity: 20 },
        ],
      }),
    );
    ok(await w.post('stock-outbound', draft.id));
    const posted = ok(await call('GET', `/api/v1/stock-outbound/info/${draft.id}`));
    // The posting costed the lines at 4.40: that is the warehouse's figure, not the customer's.
    expect(posted.lines.map((l: any) => Number(l.unitPrice))).toEqual([4.4, 4.4]);

    const note = ok(await call('GET', `/api/v1/stock-outbound/delivery-note/${draft.id}`));
    expect(note).toMatchObject({
      docNo: posted.docNo,
      bizDate: '2026-11-26',
      saleOrderNo: order.docNo,
      customerName: '洛阳精工机械有限公司',
      address: '河南省洛阳市涧西区建设路 88 号',
      contact: '王工',
      phone: '0379-64561234',
      taxRate: '13.00',
    });
    // 30 套 ÷ 10 = 3 箱 × 62.00 = 186.00; 20 套 × 6.20 = 124.00.
    expect(
      note.lines.map((l: any) => [l.materialName, l.unitName, Number(l.quantity), l.unitPrice, l.amount]),
    ).toEqual([
      ['深沟球轴承 6205-2RS/P6', '箱', 3, '62.000000', '186.00'],
      ['密封圈 6205', '套', 20, '6.200000', '124.00'],
    ]);
    expect(note.totals.amount).toBe('310.00');
    expect(note.totals.quantities.map((u: any) => [u.unitName, Number(u.quantity)])).toEqual([
      ['箱', 3],
      ['套', 20],
    ]);
  });

  it('is for whoever reads the 销售出库, and only for a 销售出库', async () => {
    const m = await f.create('material-info');
    const stock = await w.inbound([{ materialId: m.id, quantity: 10 }]);
    ok(await w.post('stock-inbound', stock.id));
    const issue = await w.outbound([{ materialId: m.id, quantity: 1 }]);
    expect((await call('GET', `/api/v1/stock-outbound/delivery-note/${issue.id}`)).status).toBe(400);
    const customer = await f.create('customer');
    const sale = ok(
      await call('POST', '/api/v1/stock-outbound/add', {
        type: 'sales',
        warehouseId: w.warehouseId,
        customerId: customer.id,
        lines: [{ materialId: m.id, quantity: 2 }],
      }),
    );
    // Without an order line the note keeps the line's own unit and has no price.
    const keeper = await t.userWith(['warehouse:salesOutbound:list']);
    const note = await t.call('GET', `/api/v1/stock-outbound/delivery-note/${sale.id}`, {
      token: keeper.token,
    });
    expect(ok(note).lines[0]).toMatchObject({ quantity: '2.0000', unitPrice: null, amount: null });
    const other = await t.userWith(['warehouse:requisitionOutbound:list']);
    const refused = await t.call('GET', `/api/v1/stock-outbound/delivery-note/${sale.id}`, {
      token: other.token,
    });
    expect(refused.status).toBe(403);
    expect((await call('GET', '/api/v1/stock-outbound/delivery-note/999999')).status).toBe(404);
  });
});
