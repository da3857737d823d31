// Units without drift (issue 37 §3): a material counted in 套 and bought in kg, 「1 套 = 0.235 kg」.
// The conversion is an exact ratio; a line converts once, half up to the base unit's precision;
// what came in in kg stays, inside its balance row, a part that remembers both figures, so an
// issue of everything received in kg takes exactly what it brought. Every figure below is worked
// out by hand in the comments; docs/architecture.md, "Unit conversion", has the same example.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
/** 套 counted to 4 places (the issue's figures: 42.5530 套), 套 whole, kg to 3 places. */
let set4: number;
let set0: number;
let kg: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
  set4 = (await f.create('material-unit', { name: '套', precision: 4 })).id;
  set0 = (await f.create('material-unit', { name: '套', precision: 0 })).id;
  kg = (await f.create('material-unit', { code: 'KG', name: 'kg', precision: 3 })).id;
});
afterAll(async () => {
  expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  await t.close();
});

const ok = (r: { status: number; body: any }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result;
};
const call = (method: string, url: string, body?: unknown) => t.call(method, url, { token, body });

/** A material counted in `base`, bought in kg: 0.235 kg = 1 套 (entered that way round). */
const material = (base: number, extra: Record<string, unknown> = {}) =>
  f.create('material-info', {
    unitId: base,
    unitConversions: [{ unitId: kg, unitQuantity: '0.235', baseQuantity: '1' }],
    ...extra,
  });
const receive = async (materialId: number, quantity: string, extra: Record<string, unknown> = {}) => {
  const doc = await w.inbound([{ materialId, quantity, unitId: kg, ...extra }]);
  ok(await w.post('stock-inbound', doc.id));
  return doc;
};
const issueDoc = async (materialId: number, quantity: string, extra: Record<string, unknown> = {}) =>
  w.outbound([{ materialId, quantity, unitId: kg, ...extra }]);
const info = async (kind: string, id: number) => ok(await call('GET', `/api/v1/${kind}/info/${id}`));
const onHand = (materialId: number) => w.balance(materialId);

describe('the conversion is one exact ratio, entered either way', () => {
  it('keeps 「1 套 = 0.235 kg」 as 0.235 kg = 1 套, and the unit weight is that same fact', async () => {
    const m = await material(set4);
    const saved = await info('material-info', m.id);
    expect(saved.unitConversions[0]).toMatchObject({
      unitId: kg,
      unitQuantity: '0.235000',
      baseQuantity: '1.000000',
      factor: '4.2553191489', // 1 ÷ 0.235, shown; never used to convert
    });
    expect(saved.weight).toBe('0.235000');
    // The other way round, 「1 kg = 4.255319 套」: the weight follows (1 ÷ 4.255319 = 0.23500002…).
    ok(
      await call('PUT', `/api/v1/material-info/edit/${m.id}`, {
        version: saved.version,
        unitConversions: [{ unitId: kg, unitQuantity: '1', baseQuantity: '4.255319' }],
      }),
    );
    expect((await info('material-info', m.id)).weight).toBe('0.235000');
    // Without a kg line there is no weight; the weight itself is never typed.
    const again = await info('material-info', m.id);
    ok(
      await call('PUT', `/api/v1/material-info/edit/${m.id}`, {
        version: again.version,
        unitConversions: [],
      }),
    );
    expect((await info('material-info', m.id)).weight).toBeNull();
    const typed = await call('POST', '/api/v1/material-info/add', {
      ...(await f.body((await import('@ringmes/domain')).materialInfoResource)),
      weight: '0.235',
    });
    expect(typed.status).toBe(400);
  });

  it('refuses a side of zero', async () => {
    const r = await call('POST', '/api/v1/material-info/add', {
      ...(await f.body((await import('@ringmes/domain')).materialInfoResource)),
      unitId: set4,
      unitConversions: [{ unitId: kg, unitQuantity: '0', baseQuantity: '1' }],
    });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.field).toBe('unitConversions.0.unitQuantity');
  });
});

describe('ten receipts of 1 kg, then one issue of 10 kg', () => {
  it('issues the 42.5530 套 the receipts brought, where a per-line 10 kg asked 42.5532 (「可用 42.553，需要 42.5532」)', async () => {
    const m = await material(set4);
    // Each receipt converts once: 1 ÷ 0.235 = 4.2553191… → 4.2553 套.
    for (let i = 0; i < 10; i++) await receive(m.id, '1');
    const first = await info('stock-inbound', (await receive(m.id, '1')).id);
    expect(first.lines[0].baseQuantity).toBe('4.2553');
    // 11 receipts now: 11 × 4.2553 = 46.8083 套; issue 10 kg of them, then the 11th.
    expect(await onHand(m.id)).toBeCloseTo(46.8083, 4);
    const out = await issueDoc(m.id, '10');
    ok(await w.post('stock-outbound', out.id));
    // 10 kg take 10 of the 11 kg part's share: 10 × 46.8083 ÷ 11 = 42.55300 → 42.5530.
    expect((await info('stock-outbound', out.id)).lines[0].baseQuantity).toBe('42.5530');
    const last = await issueDoc(m.id, '1');
    ok(await w.post('stock-outbound', last.id));
    // The last kg empties the part and takes what is left: 46.8083 − 42.5530 = 4.2553.
    expect((await info('stock-outbound', last.id)).lines[0].baseQuantity).toBe('4.2553');
    expect(await onHand(m.id)).toBe(0);
  });

  it('takes all ten in one go, and in whole 套 the ten receipts of 4 套 go out as 40 (not 43)', async () => {
    const m = await material(set4);
    for (let i = 0; i < 10; i++) await receive(m.id, '1');
    expect(await onHand(m.id)).toBeCloseTo(42.553, 4); // 10 × 4.2553
    const out = await issueDoc(m.id, '10');
    ok(await w.post('stock-outbound', out.id));
    expect((await info('stock-outbound', out.id)).lines[0].baseQuantity).toBe('42.5530');
    expect(await onHand(m.id)).toBe(0);

    // 套 whole: 1 kg = 4.255… → 4 套 a receipt; 10 kg per line would be 42.55… → 43 > 40 on hand.
    const whole = await material(set0);
    for (let i = 0; i < 10; i++) await receive(whole.id, '1');
    expect(await onHand(whole.id)).toBe(40);
    const all = await issueDoc(whole.id, '10');
    ok(await w.post('stock-outbound', all.id));
    expect((await info('stock-outbound', all.id)).lines[0].baseQuantity).toBe('40.0000');
    expect(await onHand(whole.id)).toBe(0);
  });
});

describe('three receipts of 1 kg against one issue of 3 kg, and the other way round', () => {
  it('leaves nothing behind either way', async () => {
    // 3 × 4.2553 = 12.7659 in; 3 kg out take the whole part: 12.7659 (per line: 12.765957 → 12.7660).
    const a = await material(set4);
    for (let i = 0; i < 3; i++) await receive(a.id, '1');
    const out = await issueDoc(a.id, '3');
    ok(await w.post('stock-outbound', out.id));
    expect((await info('stock-outbound', out.id)).lines[0].baseQuantity).toBe('12.7659');
    expect(await onHand(a.id)).toBe(0);

    // One receipt of 3 kg: 12.7660 in. Issues of 1 kg take a share each: 12.7660 ÷ 3 = 4.25533 →
    // 4.2553; then 8.5107 ÷ 2 = 4.25535 → 4.2554; the last takes the 4.2553 left — 0, not 0.0001.
    const b = await material(set4);
    await receive(b.id, '3');
    const taken: string[] = [];
    for (let i = 0; i < 3; i++) {
      const o = await issueDoc(b.id, '1');
      ok(await w.post('stock-outbound', o.id));
      taken.push((await info('stock-outbound', o.id)).lines[0].baseQuantity);
    }
    expect(taken).toEqual(['4.2553', '4.2554', '4.2553']);
    expect(await onHand(b.id)).toBe(0);
  });
});

describe('the part follows the stock', () => {
  it('a reversal puts back what the issue took, a transfer carries the part to the other warehouse', async () => {
    const m = await material(set4);
    for (let i = 0; i < 2; i++) await receive(m.id, '1'); // 8.5106 套 as 2 kg
    const out = await issueDoc(m.id, '2');
    ok(await w.post('stock-outbound', out.id));
    ok(await call('POST', `/api/v1/stock-outbound/reverse/${out.id}`));
    // Back as the 2 kg part: a transfer of 2 kg takes all 8.5106 and the other warehouse can
    // issue the 2 kg again (a per-line 2 kg would be 8.5106 here too; 3 receipts would differ).
    const move = ok(
      await call('POST', '/api/v1/stock-transfer/add', {
        fromWarehouseId: w.warehouseId,
        toWarehouseId: w.otherWarehouseId,
        bizDate: '2026-11-22',
        lines: [{ materialId: m.id, quantity: '2', unitId: kg }],
      }),
    );
    ok(await w.post('stock-transfer', move.id));
    expect((await info('stock-transfer', move.id)).lines[0].baseQuantity).toBe('8.5106');
    const parts = await sql<{ quantity: string; baseQuantity: string }>`
      SELECT quantity::text, base_quantity::text FROM stock_unit_balance
       WHERE material_id = ${m.id} AND warehouse_id = ${w.otherWarehouseId}`.execute(t.database.db);
    expect(parts.rows).toEqual([{ quantity: '2.0000', baseQuantity: '8.5106' }]);
    const there = ok(
      await call('POST', '/api/v1/stock-outbound/add', {
        type: 'requisition',
        warehouseId: w.otherWarehouseId,
        bizDate: '2026-11-22',
        lines: [{ materialId: m.id, quantity: '2', unitId: kg }],
      }),
    );
    ok(await w.post('stock-outbound', there.id));
    expect(await onHand(m.id)).toBe(0);
  });

  it('an issue in the base unit takes loose stock first; kg beyond the part convert per line', async () => {
    const m = await material(set4);
    await receive(m.id, '1'); // part: 1 kg = 4.2553
    ok(await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: '10' }])).id)); // loose 10 套
    const base = await w.outbound([{ materialId: m.id, quantity: '10' }]);
    ok(await w.post('stock-outbound', base.id)); // the 10 loose 套
    // Left: the 1 kg part. 2 kg asked: the part (4.2553) and 1 kg per line (4.2553) that is not there.
    const tooMuch = await issueDoc(m.id, '2');
    const r = await w.post('stock-outbound', tooMuch.id);
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('可用 4.2553，需要 8.5106');
    const exact = await issueDoc(m.id, '1');
    ok(await w.post('stock-outbound', exact.id));
    expect(await onHand(m.id)).toBe(0);
  });

  it('an incoming inspection moves the kg part from 待检 to 合格 with the stock', async () => {
    const m = await material(set4);
    // Three receipts of 1 kg, each inspected and passed: 3 × 4.2553 = 12.7659 合格 as 3 kg.
    for (let i = 0; i < 3; i++) {
      const doc = await receive(m.id, '1', { qualityStatus: 'pending' });
      const task = await sql<{ id: number }>`
        SELECT id FROM inspection_task WHERE stock_inbound_id = ${doc.id}`.execute(t.database.db);
      ok(await call('POST', `/api/v1/inspection-task/start/${task.rows[0].id}`, {}));
      ok(await call('POST', `/api/v1/inspection-task/pass/${task.rows[0].id}`, {}));
    }
    // Moved as loose 套, the 3 kg would convert per line to 12.7660 > 12.7659: refused.
    const out = await issueDoc(m.id, '3');
    ok(await w.post('stock-outbound', out.id));
    expect((await info('stock-outbound', out.id)).lines[0].baseQuantity).toBe('12.7659');
    expect(await onHand(m.id)).toBe(0);
  });

  it('refuses a line that converts to nothing in the base unit', async () => {
    const m = await material(set0);
    // 0.1 kg = 0.4255… 套 → 0 whole 套.
    const doc = await w.inbound([{ materialId: m.id, quantity: '0.1', unitId: kg }]);
    const r = await w.post('stock-inbound', doc.id);
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.field).toBe('lines.0.quantity');
  });
});

describe('orders convert by the same ratio', () => {
  it('a purchase order of 10 kg is 42.5532 套 to receive (10 ÷ 0.235, once)', async () => {
    const m = await material(set4, { standardCost: '2' });
    const supplier = await f.create('supplier');
    const order = ok(
      await call('POST', '/api/v1/purchase-order/add', {
        supplierId: supplier.id,
        orderDate: '2026-11-22',
        deliveryDate: '2026-11-30',
        lines: [{ materialId: m.id, quantity: '10', unitId: kg }],
      }),
    );
    const saved = await info('purchase-order', order.id);
    expect(saved.lines[0].baseQuantity).toBe('42.5532');
    // The standard cost per 套 in kg: 2 ÷ 0.235 = 8.510638… → 8.510638 per kg.
    expect(saved.lines[0].unitPrice).toBe('8.510638');
  });
});
