import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
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
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const reqInfo = (id: number) => t.call('GET', `/api/v1/purchase-requisition/info/${id}`, { token }).then(ok);
const poInfo = (id: number) => t.call('GET', `/api/v1/purchase-order/info/${id}`, { token }).then(ok);
const act = (res: string, name: string, id: number, body: Record<string, unknown> = {}) =>
  t.call('POST', `/api/v1/${res}/${name}/${id}`, { token, body });
const toOrders = (lines: Record<string, unknown>[], orderDate = '2026-11-02') =>
  t.call('POST', '/api/v1/purchase-requisition/to-orders', { token, body: { orderDate, lines } });

/** A bearing ring blank: standard cost 3 per 件, 1 箱 = 50 件. */
const blank = () =>
  f.create('material-info', {
    standardCost: '3',
    unitConversions: [{ unitId: unitBox, baseQuantity: '50' }],
  });

async function requisition(lines: Record<string, unknown>[], approve = true) {
  const r = ok(
    await t.call('POST', '/api/v1/purchase-requisition/add', {
      token,
      body: { requestDate: '2026-11-01', requiredDate: '2026-11-20', reason: '6204 内圈投产缺料', lines },
    }),
  );
  if (approve) ok(await act('purchase-requisition', 'approve', r.id));
  return reqInfo(r.id);
}

describe('purchase requisitions', () => {
  it('numbers by the request date, converts units, refuses a need before the request and a foreign unit', async () => {
    const m = await blank();
    const r = await requisition([{ materialId: m.id, quantity: 2, unitId: unitBox }], false);
    expect(r).toMatchObject({ status: 'draft', requesterId: expect.any(Number) });
    expect(r.docNo).toMatch(/^QG20261101-\d{4}$/);
    expect(r.lines[0]).toMatchObject({
      baseQuantity: '100.0000',
      requiredDate: '2026-11-20',
      orderedQuantity: '0.0000',
    });
    const early = await t.call('POST', '/api/v1/purchase-requisition/add', {
      token,
      body: {
        requestDate: '2026-11-01',
        requiredDate: '2026-10-20',
        reason: '缺料',
        lines: [{ materialId: m.id, quantity: 1 }],
      },
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('需求日期不能早于请购日期');
    const other = (await f.create('material-unit', { name: '桶' })).id;
    const foreign = await t.call('POST', '/api/v1/purchase-requisition/add', {
      token,
      body: {
        requestDate: '2026-11-01',
        requiredDate: '2026-11-20',
        reason: '缺料',
        lines: [{ materialId: m.id, quantity: 1, unitId: other }],
      },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0].field).toBe('lines.0.unitId');
  });

  it('turns approved lines into draft purchase orders merged by supplier; the requisition follows', async () => {
    const [s1, s2] = [await f.create('supplier'), await f.create('supplier')];
    const [a, b, c] = [await blank(), await blank(), await blank()];
    const r = await requisition([
      { materialId: a.id, quantity: 100, supplierId: s1.id },
      { materialId: b.id, quantity: 2, unitId: unitBox, supplierId: s1.id, requiredDate: '2026-11-15' },
      { materialId: c.id, quantity: 40 },
    ]);
    // A draft requisition cannot be ordered; a line without a supplier needs one.
    const noSupplier = await toOrders([{ requisitionLineId: r.lines[2].id }]);
    expect(noSupplier.status).toBe(400);
    expect(noSupplier.body.errors?.[0]).toMatchObject({
      field: 'lines.0.supplierId',
      message: '请选择供应商',
    });

    const made = ok(
      await toOrders([
        { requisitionLineId: r.lines[0].id, quantity: '60' },
        { requisitionLineId: r.lines[1].id },
        { requisitionLineId: r.lines[2].id, supplierId: s2.id },
      ]),
    );
    expect(made.orders).toHaveLength(2);
    const first = await poInfo(made.orders.find((o: any) => o.supplierId === s1.id).id);
    expect(first).toMatchObject({ status: 'draft', orderDate: '2026-11-02', deliveryDate: '2026-11-15' });
    expect(first.docNo).toMatch(/^CG20261102-/);
    expect(first.lines.map((l: any) => [l.materialId, l.baseQuantity, l.requisitionLineId])).toEqual([
      [a.id, '60.0000', r.lines[0].id],
      [b.id, '100.0000', r.lines[1].id],
    ]);
    let now = await reqInfo(r.id);
    expect(now.status).toBe('partly-ordered');
    expect(now.lines.map((l: any) => l.orderedQuantity)).toEqual(['60.0000', '100.0000', '40.0000']);

    // More than open is refused with the figures; the rest of line 1 can be ordered.
    const over = await toOrders([{ requisitionLineId: r.lines[0].id, quantity: '41' }]);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可下单 40');
    // Raising a linked purchase order line by hand past the requisition is refused too.
    const edit = await t.call('PUT', `/api/v1/purchase-order/edit/${first.id}`, {
      token,
      body: {
        version: first.version,
        lines: first.lines.map((l: any, i: number) => ({
          id: l.id,
          materialId: l.materialId,
          quantity: i === 0 ? 101 : l.quantity,
          unitId: l.unitId,
          requisitionLineId: l.requisitionLineId,
        })),
      },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toContain('超出请购数量');
    ok(await toOrders([{ requisitionLineId: r.lines[0].id }]));
    now = await reqInfo(r.id);
    expect(now.status).toBe('ordered');

    // Deleting a draft order gives its quantities back; closing one keeps only what it received.
    ok(await t.call('DELETE', `/api/v1/purchase-order/delete/${first.id}`, { token }));
    now = await reqInfo(r.id);
    expect(now.lines.map((l: any) => l.orderedQuantity)).toEqual(['40.0000', '0.0000', '40.0000']);
    expect(now.status).toBe('partly-ordered');
    const second = await poInfo(made.orders.find((o: any) => o.supplierId === s2.id).id);
    ok(await act('purchase-order', 'approve', second.id));
    const draft = ok(
      await t.call('POST', '/api/v1/stock-inbound/add', {
        token,
        body: {
          type: 'purchase',
          warehouseId: w.warehouseId,
          purchaseOrderId: second.id,
          lines: [{ materialId: c.id, quantity: 15 }],
        },
      }),
    );
    ok(await w.post('stock-inbound', draft.id));
    ok(await act('purchase-order', 'close', second.id, { reason: '供应商停产' }));
    now = await reqInfo(r.id);
    expect(now.lines[2].orderedQuantity).toBe('15.0000');
    // 反审核 waits while orders name it; closing the requisition stops further ordering.
    expect((await act('purchase-requisition', 'unapprove', r.id, { reason: '重做' })).status).toBe(409);
    ok(await act('purchase-requisition', 'close', r.id, { reason: '改用库存' }));
    const closed = await toOrders([{ requisitionLineId: r.lines[1].id }]);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toContain('已关闭');
  });

  it('a linked purchase order line must match the requisition material and an approved requisition', async () => {
    const s = await f.create('supplier');
    const [a, b] = [await blank(), await blank()];
    const draft = await requisition([{ materialId: a.id, quantity: 5 }], false);
    const body = (materialId: number, requisitionLineId: number) => ({
      supplierId: s.id,
      orderDate: '2026-11-02',
      deliveryDate: '2026-11-20',
      lines: [{ materialId, quantity: 1, requisitionLineId }],
    });
    const unapproved = await t.call('POST', '/api/v1/purchase-order/add', {
      token,
      body: body(a.id, draft.lines[0].id),
    });
    expect(unapproved.status).toBe(400);
    expect(unapproved.body.message).toContain('未审核');
    ok(await act('purchase-requisition', 'approve', draft.id));
    const wrong = await t.call('POST', '/api/v1/purchase-order/add', {
      token,
      body: body(b.id, draft.lines[0].id),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0].field).toBe('lines.0.materialId');
  });

  it('open lines list what is left to order, earliest need first; the calls need purchase:order:add', async () => {
    const m = await blank();
    const r = await requisition([{ materialId: m.id, quantity: 30 }]);
    const page = ok(
      await t.call('GET', `/api/v1/purchase-requisition/open-lines?materialId=${m.id}`, { token }),
    );
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ docNo: r.docNo, openQuantity: '30.0000', lineId: r.lines[0].id });
    const viewer = (await t.userWith(['production:requisition:list'])).token;
    const denied = await t.call('POST', '/api/v1/purchase-requisition/to-orders', {
      token: viewer,
      body: { lines: [{ requisitionLineId: r.lines[0].id, supplierId: 1 }] },
    });
    expect(denied.status).toBe(403);
  });
});

describe.runIf(PG_URL)('requisition ordering concurrency (PostgreSQL)', () => {
  it('32 buyers ordering the same open quantity order it once', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const r = await requisition([{ materialId: m.id, quantity: 8, supplierId: s.id }]);
    const results = await Promise.all(
      Array.from({ length: 32 }, () => toOrders([{ requisitionLineId: r.lines[0].id, quantity: '1' }])),
    );
    expect(results.filter((x) => x.status === 200)).toHaveLength(8);
    expect(results.filter((x) => x.status === 409)).toHaveLength(24);
    const now = await reqInfo(r.id);
    expect(now).toMatchObject({ status: 'ordered' });
    expect(now.lines[0].orderedQuantity).toBe('8.0000');
  });
});
