import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The sales order form shows a line's unit, price and amount before 保存: GET
 * /api/v1/sale-order/line-defaults answers what saving (priceOrder) will set on a line without a
 * price — and saving does set exactly that.
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
const defaults = (query: Record<string, unknown>, as = token) =>
  t.call('GET', '/api/v1/sale-order/line-defaults', { token: as, query });

describe('line defaults of a sales order', () => {
  it('the base unit, the customer’s last price in that unit, else the sale price in that unit (× base ÷ unit of its ratio) — as saving prices it', async () => {
    const set = await f.create('material-unit', { name: '套', precision: 0 });
    const box = await f.create('material-unit', { name: '箱', precision: 0 });
    const bearing = await f.create('material-info', {
      unitId: set.id,
      salePrice: '6.2',
      unitConversions: [{ unitId: box.id, baseQuantity: '10' }],
    });
    const [regular, fresh] = [await f.create('customer'), await f.create('customer')];
    const order = async (customerId: number, line: Record<string, unknown>) =>
      ok(
        await t.call('POST', '/api/v1/sale-order/add', {
          token,
          body: { customerId, orderDate: '2026-11-02', deliveryDate: '2026-12-20', lines: [line] },
        }),
      );
    const earlier = await order(regular.id, { materialId: bearing.id, quantity: 10, unitPrice: '6.05' });
    ok(await t.call('POST', `/api/v1/sale-order/approve/${earlier.id}`, { token, body: {} }));

    // In 套: the regular customer's last price; a new customer the sale price.
    expect(ok(await defaults({ customerId: regular.id, materialId: bearing.id }))).toMatchObject({
      unitId: set.id,
      unitName: '套',
      unitQuantity: '1',
      baseQuantity: '1',
      basePrecision: 0,
      unitPrice: '6.050000',
      priceSource: 'last',
    });
    expect(ok(await defaults({ customerId: fresh.id, materialId: bearing.id }))).toMatchObject({
      unitPrice: '6.200000',
      priceSource: 'material',
    });
    // In 箱 (10 套): no 箱 price of this customer yet — 6.20 × 10.
    const inBoxes = ok(await defaults({ customerId: regular.id, materialId: bearing.id, unitId: box.id }));
    expect(inBoxes).toMatchObject({
      unitId: box.id,
      unitName: '箱',
      unitQuantity: '1.000000',
      baseQuantity: '10.000000',
      basePrecision: 0,
      priceSource: 'material',
    });
    expect(Number(inBoxes.unitPrice)).toBe(62);

    // Saving lines without a price gives them exactly these prices.
    const saved = await order(regular.id, { materialId: bearing.id, quantity: 5 });
    const boxed = await order(regular.id, { materialId: bearing.id, quantity: 2, unitId: box.id });
    const priceOf = async (id: number) =>
      Number(ok(await t.call('GET', `/api/v1/sale-order/info/${id}`, { token })).lines[0].unitPrice);
    expect(await priceOf(saved.id)).toBe(6.05);
    expect(await priceOf(boxed.id)).toBe(62);

    // Who may add or edit orders asks; a reader may not; an unknown product is 404.
    const reader = await t.userWith(['sale:order:list']);
    expect((await defaults({ materialId: bearing.id }, reader.token)).status).toBe(403);
    const editor = await t.userWith(['sale:order:edit']);
    expect((await defaults({ materialId: bearing.id }, editor.token)).status).toBe(200);
    expect((await defaults({ materialId: 99999999 })).status).toBe(404);
  });
});
