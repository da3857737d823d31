import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const add = (body: Record<string, unknown>) => t.call('POST', '/api/v1/stock-up-order/add', { token, body });

describe('备货单', () => {
  it('numbers BH by its date, converts units, follows its lifecycle and locks when approved', async () => {
    const box = (await f.create('material-unit', { name: '盒' })).id;
    const bearing = await f.create('material-info', {
      unitConversions: [{ unitId: box, baseQuantity: '10' }],
    });
    const r = await add({
      orderDate: '2026-11-03',
      requiredDate: '2026-12-15',
      purpose: '旺季备货 6204-2RS',
      lines: [{ materialId: bearing.id, quantity: 30, unitId: box }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const doc = r.body.result;
    expect(doc.docNo).toMatch(/^BH20261103-\d{4}$/);
    expect(doc).toMatchObject({ status: 'draft', ownerId: expect.any(Number) });
    expect(doc.lines[0]).toMatchObject({
      baseQuantity: '300.0000',
      requiredDate: '2026-12-15',
      plannedQuantity: '0.0000',
    });

    const approve = await t.call('POST', `/api/v1/stock-up-order/approve/${doc.id}`, {
      token,
      body: { version: doc.version },
    });
    expect(approve.body.result).toMatchObject({ status: 'approved' });
    const edit = await t.call('PUT', `/api/v1/stock-up-order/edit/${doc.id}`, {
      token,
      body: { purpose: '改' },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toContain('已审核');
    const closeNoReason = await t.call('POST', `/api/v1/stock-up-order/close/${doc.id}`, { token, body: {} });
    expect(closeNoReason.status).toBe(400);
    const close = await t.call('POST', `/api/v1/stock-up-order/close/${doc.id}`, {
      token,
      body: { reason: '客户预测取消' },
    });
    expect(close.body.result.status).toBe('closed');
  });

  it('refuses a completion date before the order date, a foreign unit and zero quantities', async () => {
    const m = await f.create('material-info');
    const early = await add({
      orderDate: '2026-11-03',
      requiredDate: '2026-11-01',
      purpose: 'x',
      lines: [{ materialId: m.id, quantity: 1 }],
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('完成日期不能早于单据日期');
    const unit = (await f.create('material-unit', { name: '吨' })).id;
    const foreign = await add({
      orderDate: '2026-11-03',
      requiredDate: '2026-11-09',
      purpose: 'x',
      lines: [{ materialId: m.id, quantity: 1, unitId: unit }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0].field).toBe('lines.0.unitId');
    const zero = await add({
      orderDate: '2026-11-03',
      requiredDate: '2026-11-09',
      purpose: 'x',
      lines: [{ materialId: m.id, quantity: 0 }],
    });
    expect(zero.status).toBe(400);
    expect(zero.body.errors?.[0].field).toBe('lines.0.quantity');
  });

  it('a salesperson without sale:stockUp:approve cannot approve', async () => {
    const m = await f.create('material-info');
    const doc = (
      await add({
        orderDate: '2026-11-03',
        requiredDate: '2026-11-09',
        purpose: 'x',
        lines: [{ materialId: m.id, quantity: 1 }],
      })
    ).body.result;
    const clerk = (await t.userWith(['sale:stockUp:list', 'sale:stockUp:add'])).token;
    const r = await t.call('POST', `/api/v1/stock-up-order/approve/${doc.id}`, { token: clerk, body: {} });
    expect(r.status).toBe(403);
  });
});
