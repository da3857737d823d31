import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

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
  unitBox = (await f.create('material-unit', { name: '捆' })).id;
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const info = (id: number) => t.call('GET', `/api/v1/purchase-order/info/${id}`, { token }).then(ok);
const act = (name: string, id: number, body: Record<string, unknown> = {}) =>
  t.call('POST', `/api/v1/purchase-order/${name}/${id}`, { token, body });

/** Steel bar: standard cost 5 per kg, 1 捆 = 100 kg. */
async function steel() {
  return f.create('material-info', {
    standardCost: '5',
    unitConversions: [{ unitId: unitBox, baseQuantity: '100' }],
  });
}

async function order(supplierId: number, lines: Record<string, unknown>[]) {
  return ok(
    await t.call('POST', '/api/v1/purchase-order/add', {
      token,
      body: { supplierId, orderDate: '2026-10-12', deliveryDate: '2026-10-30', lines },
    }),
  );
}

/** A 采购入库 (or 采购退货出库) draft against the order, posted; answers the post's answer. */
async function receive(
  kind: 'stock-inbound' | 'stock-outbound',
  orderId: number,
  lines: Record<string, unknown>[],
) {
  const draft = await t.call('POST', `/api/v1/${kind}/add`, {
    token,
    body: {
      type: kind === 'stock-inbound' ? 'purchase' : 'purchase-return',
      warehouseId: w.warehouseId,
      purchaseOrderId: orderId,
      lines,
    },
  });
  if (draft.status !== 200) return draft;
  return t.call('POST', `/api/v1/${kind}/post/${draft.body.result.id}`, { token });
}

describe('purchase orders', () => {
  it("numbers by the order date and prices from the supplier's last price, else the standard cost", async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const first = await order(s.id, [{ materialId: m.id, quantity: 2, unitId: unitBox }]);
    expect(first.docNo).toMatch(/^CG20261012-\d{4}$/);
    expect(first.lines[0]).toMatchObject({
      baseQuantity: '200.0000',
      unitPrice: '500.000000',
      amount: '1000.00',
    });
    expect(first.buyerId).toBeGreaterThan(0);
    // A price agreed on an approved order becomes the default of the next.
    const priced = await order(s.id, [{ materialId: m.id, quantity: 10, unitPrice: '4.8' }]);
    ok(await act('approve', priced.id));
    const next = await order(s.id, [{ materialId: m.id, quantity: 1 }]);
    expect(next.lines[0].unitPrice).toBe('4.800000');
    const noPrice = await t.call('POST', '/api/v1/purchase-order/add', {
      token,
      body: {
        supplierId: s.id,
        orderDate: '2026-10-12',
        deliveryDate: '2026-10-30',
        lines: [{ materialId: (await f.create('material-info')).id, quantity: 1 }],
      },
    });
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.errors?.[0].field).toBe('lines.0.unitPrice');
  });

  it('receives in parts against the order, tracks returns, and completes when all has arrived', async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const o = await order(s.id, [{ materialId: m.id, quantity: 100 }]);
    // Nothing is received against a draft.
    expect((await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 10 }])).status).toBe(409);
    ok(await act('approve', o.id));
    ok(await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 60, unitPrice: '5' }]));
    let now = await info(o.id);
    expect(now.status).toBe('partly-received');
    expect(now.lines[0].receivedQuantity).toBe('60.0000');
    // More than is open is refused at posting, with the figures.
    const over = await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 41 }]);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可收 40');
    // A return of 15 against what was received; then 55 more arrive: net 100 → 已完成.
    ok(await receive('stock-outbound', o.id, [{ materialId: m.id, quantity: 15 }]));
    now = await info(o.id);
    expect(now.lines[0]).toMatchObject({ receivedQuantity: '60.0000', returnedQuantity: '15.0000' });
    // With stock from elsewhere on hand, the order still takes back no more than it delivered.
    ok(await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: 50 }])).id));
    const tooMuchBack = await receive('stock-outbound', o.id, [{ materialId: m.id, quantity: 46 }]);
    expect(tooMuchBack.status).toBe(409);
    expect(tooMuchBack.body.message).toContain('退货数量超过已入库数量');
    ok(await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 55 }]));
    now = await info(o.id);
    expect(now.status).toBe('completed');
    expect(await w.balance(m.id)).toBe(150);
    // The supplier and 来源单号 come from the order.
    const docs = ok(
      await t.call('GET', '/api/v1/stock-inbound/page', { token, query: { purchaseOrderId: o.id } }),
    );
    // Two posted receipts and the refused one, still a draft.
    expect(docs.list.map((d: any) => [d.supplierId, d.sourceNo, d.status]).sort()).toEqual([
      [s.id, o.docNo, 'draft'],
      [s.id, o.docNo, 'posted'],
      [s.id, o.docNo, 'posted'],
    ]);
    // 反审核 waits for the documents.
    const un = await act('unapprove', o.id, { reason: '改价' });
    expect(un.status).toBe(409);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('costs a receipt without a typed price at the order price without tax; a typed price is kept', async () => {
    const s = await f.create('supplier');
    const m = await steel();
    // 3 捆 at 1,130 per 捆 with 13 % tax: 3,390 with 390 tax, 300 kg → 10 per kg without tax.
    const o = await order(s.id, [{ materialId: m.id, quantity: 3, unitId: unitBox, unitPrice: '1130' }]);
    ok(await act('approve', o.id));
    /** Receives `line`; answers the posted line's 单价 and the material's moving average after it. */
    const receipt = async (line: Record<string, unknown>) => {
      const posted = ok(
        await receive('stock-inbound', o.id, [{ materialId: m.id, unitId: unitBox, ...line }]),
      );
      const doc = ok(await t.call('GET', `/api/v1/stock-inbound/info/${posted.id}`, { token }));
      const cost = await t.database.db
        .selectFrom('materialCost')
        .select((e) => e.cast<string>('avgCost', 'text').as('avgCost'))
        .where('materialId', '=', m.id)
        .executeTakeFirst();
      return [doc.lines[0].unitPrice, cost?.avgCost];
    };
    expect(await receipt({ quantity: 2 })).toEqual(['1000.000000', '10.000000']);
    // The last 捆 with a typed price of 900: kept, and the average moves to (2,000 + 900) ÷ 300.
    expect(await receipt({ quantity: 1, unitPrice: '900' })).toEqual(['900.000000', '9.666667']);
  });

  it('refuses another supplier, a material not on the order, and a closed order', async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const o = await order(s.id, [{ materialId: m.id, quantity: 10 }]);
    ok(await act('approve', o.id));
    const other = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: {
        type: 'purchase',
        warehouseId: w.warehouseId,
        purchaseOrderId: o.id,
        supplierId: (await f.create('supplier')).id,
        lines: [{ materialId: m.id, quantity: 1 }],
      },
    });
    expect(other.status).toBe(400);
    expect(other.body.errors?.[0].field).toBe('supplierId');
    const wrong = await receive('stock-inbound', o.id, [{ materialId: (await steel()).id, quantity: 1 }]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0].field).toBe('lines.0.materialId');
    ok(await act('close', o.id, { reason: '供应商停产' }));
    const closed = await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 1 }]);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toContain('已关闭');
  });
});

describe('the warehouse forms choose a purchase order and take its open lines', () => {
  it("a keeper without the order's read permission picks receivable orders and their open lines, in the order's unit where exact", async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const crate = (await f.create('material-unit', { name: '箱' })).id;
    const bolt = await f.create('material-info', {
      standardCost: '1',
      unitConversions: [{ unitId: crate, baseQuantity: '3' }],
    });
    const o = await order(s.id, [
      { materialId: m.id, quantity: 2, unitId: unitBox },
      { materialId: bolt.id, quantity: 2, unitId: crate },
    ]);
    const draft = await order(s.id, [{ materialId: m.id, quantity: 1 }]);
    const keeper = (await t.userWith(['warehouse:purchaseInbound:add'])).token;
    const get = (url: string, query: Record<string, unknown>, as = keeper) =>
      t.call('GET', url, { token: as, query });
    const orders = (type: string, as = keeper) =>
      get('/api/v1/stock-inbound/source-orders', { type, partyId: s.id }, as);
    // The generic options of purchase orders are the buyer's; the picker is the keeper's.
    expect((await get('/api/v1/purchase-order/options', {})).status).toBe(403);
    expect(ok(await orders('purchase'))).toEqual([]);
    ok(await act('approve', o.id));
    const listed = ok(await orders('purchase'));
    expect(listed).toEqual([
      expect.objectContaining({
        value: o.id,
        docNo: o.docNo,
        partyId: s.id,
        label: `${o.docNo}（${s.name}）`,
      }),
    ]);
    expect(
      ok(await get('/api/v1/stock-inbound/source-orders', { type: 'purchase', keyword: o.docNo })),
    ).toHaveLength(1);
    // A chosen order is named by id whatever its state.
    expect(
      ok(await get('/api/v1/stock-inbound/source-orders', { type: 'purchase', ids: `${draft.id}` }))[0],
    ).toMatchObject({ value: draft.id, status: 'draft' });
    const lines = (id: number, type = 'purchase', as = keeper) =>
      get(`/api/v1/stock-${type === 'purchase' ? 'inbound' : 'outbound'}/source-lines/${id}`, { type }, as);
    const [steelLine, boltLine] = (await info(o.id)).lines;
    expect(ok(await lines(o.id)).lines).toEqual([
      expect.objectContaining({
        sourceLineId: steelLine.id,
        materialId: m.id,
        unitId: unitBox,
        quantity: '2.0000',
        baseQuantity: '200.0000',
      }),
      expect.objectContaining({
        sourceLineId: boltLine.id,
        unitId: crate,
        quantity: '2.0000',
        baseQuantity: '6.0000',
      }),
    ]);
    // Part arrives: 125 kg and 1 piece. Open: 75 kg = 0.75 捆; 5 pieces are not whole 箱, so base unit.
    ok(
      await receive('stock-inbound', o.id, [
        { materialId: m.id, quantity: 125, sourceLineId: steelLine.id },
        { materialId: bolt.id, quantity: 1, sourceLineId: boltLine.id },
      ]),
    );
    const open = ok(await lines(o.id));
    expect(open).toMatchObject({ docNo: o.docNo, partyId: s.id, status: 'partly-received' });
    expect(open.lines).toEqual([
      expect.objectContaining({ unitId: unitBox, quantity: '0.7500', baseQuantity: '75.0000' }),
      expect.objectContaining({ unitId: bolt.unitId, quantity: '5.0000', baseQuantity: '5.0000' }),
    ]);
    // The lines as taken save and post: the steel line is then complete and leaves the picker.
    const taken = open.lines.map((l: any) => ({
      materialId: l.materialId,
      unitId: l.unitId,
      quantity: l.quantity,
      sourceLineId: l.sourceLineId,
    }));
    ok(await receive('stock-inbound', o.id, [taken[0]]));
    expect(ok(await lines(o.id)).lines.map((l: any) => l.sourceLineId)).toEqual([boltLine.id]);
    // Returns take received − returned, for those who may write 采购退货出库.
    expect((await lines(o.id, 'purchase-return')).status).toBe(403);
    const buyer = (await t.userWith(['purchase:return:add'])).token;
    expect(ok(await lines(o.id, 'purchase-return', buyer)).lines).toEqual([
      expect.objectContaining({ unitId: unitBox, quantity: '2.0000', baseQuantity: '200.0000' }),
      expect.objectContaining({ unitId: bolt.unitId, quantity: '1.0000', baseQuantity: '1.0000' }),
    ]);
  });

  it('refuses an order not open for the type, a type without orders, and a missing order, in Chinese', async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const draft = await order(s.id, [{ materialId: m.id, quantity: 1 }]);
    const call = (url: string, type: string) => t.call('GET', url, { token, query: { type } });
    const refused = await call(`/api/v1/stock-inbound/source-lines/${draft.id}`, 'purchase');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`采购订单 ${draft.docNo} 草稿，不能做采购入库`);
    const other = await call('/api/v1/stock-inbound/source-orders', 'other');
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('其他入库不按订单收发，没有可选的订单');
    const missing = await call('/api/v1/stock-inbound/source-lines/99999999', 'purchase');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('采购订单不存在或已被删除');
    expect((await t.call('GET', '/api/v1/stock-inbound/source-orders', { token })).status).toBe(400);
  });
});

describe("采购退货 (the buyer's view of 采购退货出库)", () => {
  it("purchase:return lets a buyer draft, list and edit purchase-return outbounds only; posting stays the keeper's", async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const o = await order(s.id, [{ materialId: m.id, quantity: 10 }]);
    ok(await act('approve', o.id));
    ok(await receive('stock-inbound', o.id, [{ materialId: m.id, quantity: 10 }]));
    const buyer = (
      await t.userWith([
        'purchase:return:list',
        'purchase:return:add',
        'purchase:return:edit',
        'purchase:return:delete',
      ])
    ).token;
    const body = (type: string) => ({
      type,
      warehouseId: w.warehouseId,
      purchaseOrderId: type === 'purchase-return' ? o.id : undefined,
      lines: [{ materialId: m.id, quantity: 2 }],
    });
    const draft = await t.call('POST', '/api/v1/stock-outbound/add', {
      token: buyer,
      body: body('purchase-return'),
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.result).toMatchObject({ type: 'purchase-return', supplierId: s.id, sourceNo: o.docNo });
    const other = await t.call('POST', '/api/v1/stock-outbound/add', { token: buyer, body: body('other') });
    expect(other.status).toBe(403);
    const list = await t.call('GET', '/api/v1/stock-outbound/page', {
      token: buyer,
      query: { pageSize: 100 },
    });
    expect(list.status).toBe(200);
    expect(new Set(list.body.result.list.map((r: any) => r.type))).toEqual(new Set(['purchase-return']));
    const post = await t.call('POST', `/api/v1/stock-outbound/post/${draft.body.result.id}`, {
      token: buyer,
    });
    expect(post.status).toBe(403);
    ok(await w.post('stock-outbound', draft.body.result.id));
    expect((await info(o.id)).lines[0].returnedQuantity).toBe('2.0000');
  });
});

describe('采购订单跟踪', () => {
  it('shows per line ordered, received, returned, open and late, with the trail of stock documents', async () => {
    const s = await f.create('supplier');
    const [a, b] = [await steel(), await steel()];
    const o = await order(s.id, [
      { materialId: a.id, quantity: 100 },
      { materialId: b.id, quantity: 50 },
    ]);
    // A draft is not tracked yet.
    const track = (q: Record<string, unknown>) =>
      t.call('GET', '/api/v1/purchase-order/tracking', { token, query: { orderId: o.id, ...q } }).then(ok);
    expect((await track({})).total).toBe(0);
    ok(await act('approve', o.id));
    ok(await receive('stock-inbound', o.id, [{ materialId: a.id, quantity: 60 }]));
    ok(await receive('stock-outbound', o.id, [{ materialId: a.id, quantity: 5 }]));
    const all = await track({});
    expect(all.total).toBe(2);
    const lineA = all.list.find((r: any) => r.materialId === a.id);
    expect(lineA).toMatchObject({
      docNo: o.docNo,
      status: 'partly-received',
      baseQuantity: '100.0000',
      receivedQuantity: '60.0000',
      returnedQuantity: '5.0000',
      openQuantity: '45.0000',
      // Delivery 2026-10-30 is past.
      late: true,
    });
    expect(lineA.documents.map((d: any) => [d.kind, d.type, d.status, d.quantity])).toEqual([
      ['inbound', 'purchase', 'posted', '60.0000'],
      ['outbound', 'purchase-return', 'posted', '5.0000'],
    ]);
    expect(lineA.documents[0].docNo).toMatch(/^RK/);
    // Closing the order leaves nothing open, so nothing late.
    ok(await act('close', o.id, { reason: '余量取消' }));
    expect((await track({ open: '1' })).total).toBe(0);
    const bad = await t.call('GET', '/api/v1/purchase-order/tracking', { token, query: { status: 'draft' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('订单状态不正确');
  });
});

describe.runIf(PG_URL)('purchase receiving concurrency (PostgreSQL)', () => {
  it('32 clients receiving the last open quantity of one line never exceed it', async () => {
    const s = await f.create('supplier');
    const m = await steel();
    const o = await order(s.id, [{ materialId: m.id, quantity: 8 }]);
    ok(await act('approve', o.id));
    const drafts = [];
    for (let i = 0; i < 32; i++) {
      drafts.push(
        ok(
          await t.call('POST', '/api/v1/stock-inbound/add', {
            token,
            body: {
              type: 'purchase',
              warehouseId: w.warehouseId,
              purchaseOrderId: o.id,
              lines: [{ materialId: m.id, quantity: 1 }],
            },
          }),
        ),
      );
    }
    const results = await Promise.all(drafts.map((d) => w.post('stock-inbound', d.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
    expect(results.filter((r) => r.status === 409)).toHaveLength(24);
    const now = await info(o.id);
    expect(now.lines[0].receivedQuantity).toBe('8.0000');
    expect(now.status).toBe('completed');
    expect(await w.balance(m.id)).toBe(8);
  });
});
