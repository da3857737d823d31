import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoRolePermissions } from '../src/seed/index.ts';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * The keeper (仓管员) edits a 销售出库 draft — issue 35's story sets the batch to ship there — and
 * its form names the 销售订单 it ships: the form reads the sale orders' options, which answered him
 * 403 (a console error on his desk). He reads those options (number, customer; no prices), not the
 * orders' list.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 600_000);
afterAll(() => t?.close());

it("the keeper reads the sale orders' options on his 销售出库 form, not the orders themselves", async () => {
  const admin = await t.login();
  const f = factory(t, async () => admin);
  const order = await f.create('sale-order');
  const keeper = (await t.userWith(demoRolePermissions().get('warehouse')?.permissions ?? [])).token;
  const options = await t.call('GET', '/api/v1/sale-order/options', { token: keeper });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const mine = (options.body.result as Record<string, unknown>[]).find((o) => o.id === order.id);
  expect(mine?.docNo).toBe(order.docNo);
  expect(Object.keys(mine ?? {}).some((k) => /amount|price/i.test(k))).toBe(false);
  const list = await t.call('GET', '/api/v1/sale-order/page', { token: keeper });
  expect(list.status).toBe(403);
});
