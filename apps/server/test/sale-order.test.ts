import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let unitBox: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  unitBox = (await f.create('material-unit', { name: '箱' })).id;
});
afterAll(() => t?.close());

/** A bearing with a sale price of 18.5 per 套 and 1 箱 = 100 套. */
async function bearing(overrides: Record<string, unknown> = {}) {
  return f.create('material-info', {
    salePrice: '18.5',
    unitConversions: [{ unitId: unitBox, baseQuantity: '100' }],
    ...overrides,
  });
}

async function order(
  customerId: number,
  lines: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
) {
  return t.call('POST', '/api/v1/sale-order/add', {
    token,
    body: { customerId, orderDate: '2026-10-08', deliveryDate: '2026-11-20', lines, ...extra },
  });
}

const act = (name: string, id: number, body: Record<string, unknown> = {}, as = token, key?: string) =>
  t.call('POST', `/api/v1/sale-order/${name}/${id}`, {
    token: as,
    body,
    headers: key ? { 'idempotency-key': key } : {},
  });

describe('sales order: saving', () => {
  it('numbers by the order date, defaults prices, converts units and sums exact amounts', async () => {
    const c = await f.create('customer');
    const m = await bearing();
    const r = await order(c.id, [
      { materialId: m.id, quantity: '3', unitId: unitBox },
      { materialId: m.id, quantity: '7', unitPrice: '0.333333' },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const o = r.body.result;
    expect(o.docNo).toMatch(/^XS20261008-\d{4}$/);
    expect(o.status).toBe('draft');
    // 3 箱 at 18.5 × 100 = 1850 per 箱; 7 套 at 0.333333 = 2.333331 → 2.33 (rounded once, at the line).
    expect(o.lines[0]).toMatchObject({
      baseQuantity: '300.0000',
      unitPrice: '1850.000000',
      amount: '5550.00',
    });
    expect(o.lines[1]).toMatchObject({ baseQuantity: '7.0000', amount: '2.33', deliveryDate: '2026-11-20' });
    // Tax is contained at 13 %: 5550 × 13 / 113 = 638.50, 2.33 × 13 / 113 = 0.27.
    expect(o.lines[0].taxAmount).toBe('638.50');
    expect(o.amount).toBe('5552.33');
    expect(o.taxAmount).toBe('638.77');
    expect(o.salespersonId).toBeGreaterThan(0);
  });

  it('refuses a unit of another material, zero quantities, a closed customer and delivery before the order', async () => {
    const c = await f.create('customer');
    const m = await bearing();
    const other = await f.create('material-unit', { name: '托' });
    const unit = await order(c.id, [{ materialId: m.id, quantity: 1, unitId: other.id }]);
    expect(unit.status).toBe(400);
    expect(unit.body.errors).toEqual([
      { field: 'lines.0.unitId', message: expect.stringContaining('不属于') },
    ]);
    const zero = await order(c.id, [{ materialId: m.id, quantity: 0 }]);
    expect(zero.status).toBe(400);
    expect(zero.body.errors?.[0].field).toBe('lines.0.quantity');
    const closed = await f.create('customer', { state: '0' });
    const r = await order(closed.id, [{ materialId: m.id, quantity: 1 }]);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('已停用');
    const early = await order(c.id, [{ materialId: m.id, quantity: 1 }], { deliveryDate: '2026-10-01' });
    expect(early.status).toBe(400);
    expect(early.body.errors?.[0].field).toBe('deliveryDate');
    const noPrice = await order(c.id, [{ materialId: (await f.create('material-info')).id, quantity: 1 }]);
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.errors?.[0].field).toBe('lines.0.unitPrice');
  });

  it("takes the customer's last approved price for the product", async () => {
    const c = await f.create('customer');
    const m = await bearing();
    const first = (await order(c.id, [{ materialId: m.id, quantity: 1, unitPrice: '17.2' }])).body.result;
    expect((await act('approve', first.id)).status).toBe(200);
    const second = (await order(c.id, [{ materialId: m.id, quantity: 2 }])).body.result;
    expect(second.lines[0].unitPrice).toBe('17.200000');
    const elsewhere = (await order((await f.create('customer')).id, [{ materialId: m.id, quantity: 2 }])).body
      .result;
    expect(elsewhere.lines[0].unitPrice).toBe('18.500000');
  });
});

describe('sales order: lifecycle', () => {
  it('approves, refuses edits and deletes once approved, un-approves with a reason, closes with a reason', async () => {
    const c = await f.create('customer');
    const m = await bearing();
    const o = (await order(c.id, [{ materialId: m.id, quantity: 5 }])).body.result;
    const stale = await act('approve', o.id, { version: o.version + 3 });
    expect(stale.status).toBe(409);
    const ok = await act('approve', o.id, { version: o.version });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toEqual({ id: o.id, docNo: o.docNo, status: 'approved', version: o.version + 1 });
    const info = (await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token })).body.result;
    expect(info.approvedByName).toBe('系统管理员');
    expect(info.approvedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const edit = await t.call('PUT', `/api/v1/sale-order/edit/${o.id}`, { token, body: { remark: '改' } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('销售订单当前为「已审核」，不能修改');
    const del = await t.call('DELETE', `/api/v1/sale-order/delete/${o.id}`, { token });
    expect(del.status).toBe(409);
    const twice = await act('approve', o.id);
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('销售订单当前为「已审核」，不能审核');

    const noReason = await act('unapprove', o.id);
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ field: 'reason', message: '请填写反审核原因' }]);
    const back = await act('unapprove', o.id, { reason: '客户改数量' });
    expect(back.body.result.status).toBe('draft');
    expect(
      (await t.call('PUT', `/api/v1/sale-order/edit/${o.id}`, { token, body: { remark: '改' } })).status,
    ).toBe(200);
    const closed = await act('close', o.id, { reason: '客户取消' });
    expect(closed.body.result.status).toBe('closed');
    const row = (await t.call('GET', `/api/v1/sale-order/info/${o.id}`, { token })).body.result;
    expect(row).toMatchObject({ status: 'closed', statusReason: '客户取消' });
    const audit = await sql<{ action: string }>`
      SELECT action FROM audit_log WHERE entity = 'sale-order' AND entity_id = ${String(o.id)} ORDER BY id`.execute(
      t.database.db,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['create', 'approve', 'unapprove', 'update', 'close']);
  });

  it('replays an approval with the same Idempotency-Key', async () => {
    const c = await f.create('customer');
    const o = (await order(c.id, [{ materialId: (await bearing()).id, quantity: 1 }])).body.result;
    const a = await act('approve', o.id, {}, token, 'approve-once');
    const b = await act('approve', o.id, {}, token, 'approve-once');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.result).toEqual(a.body.result);
  });

  it('needs the transition permission', async () => {
    const c = await f.create('customer');
    const o = (await order(c.id, [{ materialId: (await bearing()).id, quantity: 1 }])).body.result;
    const clerk = await t.userWith(['sale:order:list', 'sale:order:add']);
    expect((await act('approve', o.id, {}, clerk.token)).status).toBe(403);
    const approver = await t.userWith(['sale:order:approve']);
    expect((await act('approve', o.id, {}, approver.token)).status).toBe(200);
  });
});

describe('sales order: credit limit', () => {
  it('refuses an approval over the limit with the figures; the over-credit permission lets it through, recorded', async () => {
    const c = await f.create('customer', { creditLimit: '1000' });
    const m = await bearing();
    const a = (await order(c.id, [{ materialId: m.id, quantity: 40 }])).body.result; // 740.00
    expect((await act('approve', a.id)).status).toBe(200);
    const b = (await order(c.id, [{ materialId: m.id, quantity: 20 }])).body.result; // 370.00
    const approver = await t.userWith(['sale:order:approve']);
    const refused = await act('approve', b.id, {}, approver.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      '超出客户信用额度，不能审核：信用额度 1000.00 元，应收未收 0.00 元，其他未发货订单 740.00 元，本单 370.00 元，合计 1110.00 元',
    );
    // Shipping half of the first order frees its share of the exposure: 370 + 370 ≤ 1000.
    await sql`UPDATE sale_order_line SET shipped_quantity = 20 WHERE sale_order_id = ${a.id}`.execute(
      t.database.db,
    );
    expect((await act('approve', b.id, {}, approver.token)).status).toBe(200);

    const c2 = await f.create('customer', { creditLimit: '100' });
    const big = (await order(c2.id, [{ materialId: m.id, quantity: 10 }])).body.result; // 185.00
    const boss = await t.userWith(['sale:order:approve', 'sale:order:overCredit']);
    const over = await act('approve', big.id, {}, boss.token);
    expect(over.status).toBe(200);
    const row = (await t.call('GET', `/api/v1/sale-order/info/${big.id}`, { token })).body.result;
    expect(row.overCredit).toBe(true);
    const audit = await sql<{ action: string }>`
      SELECT action FROM audit_log WHERE entity = 'sale-order' AND entity_id = ${String(big.id)} ORDER BY id`.execute(
      t.database.db,
    );
    expect(audit.rows.map((r) => r.action)).toContain('overCredit');
  });

  it.runIf(PG_URL)('two approvals racing for the last credit: only one passes', async () => {
    const c = await f.create('customer', { creditLimit: '500' });
    const m = await bearing();
    const ids: number[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await order(c.id, [{ materialId: m.id, quantity: 20 }])).body.result.id); // 370 each
    const approver = await t.userWith(['sale:order:approve']);
    const results = await Promise.all(ids.map((id) => act('approve', id, {}, approver.token)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });
});
