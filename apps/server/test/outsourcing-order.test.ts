import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, PG_URL, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
let heat: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
  heat = (await f.create('process-manage', { name: '热处理', outsourced: true })).id;
});
afterAll(() => t?.close());
let kg: number | undefined;

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const info = (id: number) => t.call('GET', `/api/v1/outsourcing-order/info/${id}`, { token }).then(ok);
const act = (name: string, id: number, body: Record<string, unknown> = {}, as = token) =>
  t.call('POST', `/api/v1/outsourcing-order/${name}/${id}`, { token: as, body });

/** A ring blank of 0.35 kg (its kg conversion: 0.35 kg = 1 件, the unit weight), 500 of them in stock. */
async function blank(stock = 500) {
  kg ??= (await f.create('material-unit', { code: 'KG', name: 'kg', precision: 3 })).id;
  const m = await f.create('material-info', {
    unitConversions: [{ unitId: kg, unitQuantity: '0.35', baseQuantity: '1' }],
  });
  if (stock) ok(await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: stock }])).id));
  return m;
}

async function order(supplierId: number, lines: Record<string, unknown>[], as = token) {
  return t.call('POST', '/api/v1/outsourcing-order/add', {
    token: as,
    body: { supplierId, processId: heat, orderDate: '2026-10-20', deliveryDate: '2026-11-05', lines },
  });
}

/** 发料 / 收货 / 退货 from the order: the draft it makes, posted; answers the post's answer (or the refusal). */
async function move(
  op: 'send-out' | 'receive-back' | 'return-goods',
  orderId: number,
  lineId: number,
  quantity: number,
) {
  const draft = await t.call('POST', `/api/v1/outsourcing-order/${op}/${orderId}`, {
    token,
    body: { warehouseId: w.warehouseId, lines: [{ lineId, quantity }] },
  });
  if (draft.status !== 200) return draft;
  const kind = op === 'receive-back' ? 'stock-inbound' : 'stock-outbound';
  return w.post(kind, draft.body.result.id);
}

describe('outsourcing orders', () => {
  it('numbers WW by the order date, prices at the line to the fen, fills the weight; draft → approved → 部分收回 → 已收回', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 300, unitPrice: '0.333' }]));
    expect(o.docNo).toMatch(/^WW20261020-\d{4}$/);
    expect(o).toMatchObject({ status: 'draft', processId: heat, amount: '99.90' });
    expect(o.lines[0]).toMatchObject({ baseQuantity: '300.0000', weight: '105.0000', amount: '99.90' });
    // The supplier's price is the next order's default.
    ok(await act('approve', o.id));
    const next = ok(await order(s.id, [{ materialId: m.id, quantity: 1 }]));
    expect(next.lines[0].unitPrice).toBe('0.333000');
    const line = o.lines[0].id;

    // Nothing is received before it is sent; then 300 go out, 120 come back.
    const early = await move('receive-back', o.id, line, 1);
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('收回数量超过已发料数量');
    ok(await move('send-out', o.id, line, 300));
    let now = await info(o.id);
    expect(now.status).toBe('approved');
    expect(now.lines[0]).toMatchObject({ sentQuantity: '300.0000', sentWeight: '105.0000' });
    const overSend = await move('send-out', o.id, line, 1);
    expect(overSend.status).toBe(409);
    expect(overSend.body.message).toContain('超出委外订单未发数量');
    ok(await move('receive-back', o.id, line, 120));
    now = await info(o.id);
    expect(now.status).toBe('partly-received');
    expect(now.lines[0]).toMatchObject({ receivedQuantity: '120.0000', receivedWeight: '42.0000' });
    // 反审核 waits for the documents.
    expect((await act('unapprove', o.id, { reason: '改价' })).status).toBe(409);
    // The rest comes back: 已收回. The stock went out and came back.
    ok(await move('receive-back', o.id, line, 180));
    now = await info(o.id);
    expect(now.status).toBe('received');
    expect(await w.balance(m.id)).toBe(500);

    // The trail: the order's documents, each naming the order (来源单号, supplier) back.
    const docs = ok<any[]>(await t.call('GET', `/api/v1/outsourcing-order/documents/${o.id}`, { token }));
    expect(docs.map((d) => [d.kind, d.type, d.status, d.quantity])).toEqual(
      expect.arrayContaining([
        ['outbound', 'outsourcing', 'posted', '300.0000'],
        ['inbound', 'outsourced', 'posted', '120.0000'],
        ['inbound', 'outsourced', 'posted', '180.0000'],
      ]),
    );
    const inbound = ok(
      await t.call('GET', `/api/v1/stock-inbound/info/${docs.find((d) => d.kind === 'inbound').id}`, {
        token,
      }),
    );
    expect(inbound).toMatchObject({ outsourcingOrderId: o.id, supplierId: s.id, sourceNo: o.docNo });
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('returns against what came back only; reversing a return reopens it; reversing a send is refused while received', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 100, unitPrice: '1' }]));
    ok(await act('approve', o.id));
    const line = o.lines[0].id;
    const sent = await t.call('POST', `/api/v1/outsourcing-order/send-out/${o.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [{ lineId: line, quantity: 100 }] },
    });
    ok(await w.post('stock-outbound', ok(sent).id));
    ok(await move('receive-back', o.id, line, 100));
    expect((await info(o.id)).status).toBe('received');
    // Hardness failed on 30: they go back to the supplier (委外退货出库), the order reopens.
    const back = await t.call('POST', `/api/v1/outsourcing-order/return-goods/${o.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [{ lineId: line, quantity: 30 }] },
    });
    expect(ok(back)).toMatchObject({ type: 'outsourcing-return', supplierId: s.id, sourceNo: o.docNo });
    ok(await w.post('stock-outbound', back.body.result.id));
    let now = await info(o.id);
    expect(now.status).toBe('partly-received');
    expect(now.lines[0]).toMatchObject({ returnedQuantity: '30.0000', returnedWeight: '10.5000' });
    // Never more than received − returned.
    const tooMuch = await move('return-goods', o.id, line, 71);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toContain('退货数量超过已收回数量');
    // The reworked 30 come back (no more: 100 sent).
    const over = await move('receive-back', o.id, line, 31);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可收 30');
    ok(await move('receive-back', o.id, line, 30));
    expect((await info(o.id)).status).toBe('received');
    // The send cannot be reversed while its pieces are back.
    const rev = await t.call('POST', `/api/v1/stock-outbound/reverse/${sent.body.result.id}`, { token });
    expect(rev.status).toBe(409);
    expect(rev.body.message).toContain('发料不能冲减');
    // Reversing the return takes it off the order again.
    ok(await t.call('POST', `/api/v1/stock-outbound/reverse/${back.body.result.id}`, { token }));
    now = await info(o.id);
    expect(now.lines[0]).toMatchObject({ returnedQuantity: '0.0000', returnedWeight: '0.0000' });
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('links warehouse documents made by hand: supplier and material checked, closed orders refused', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 10, unitPrice: '2' }]));
    const draftSend = (extra: Record<string, unknown>, lines = [{ materialId: m.id, quantity: 1 }]) =>
      t.call('POST', '/api/v1/stock-outbound/add', {
        token,
        body: { type: 'outsourcing', warehouseId: w.warehouseId, outsourcingOrderId: o.id, lines, ...extra },
      });
    const draft = await draftSend({});
    expect(draft.status).toBe(409);
    expect(draft.body.message).toContain('草稿');
    ok(await act('approve', o.id));
    const linked = ok(await draftSend({}));
    expect(linked.lines[0].sourceLineId).toBe(o.lines[0].id);
    expect(linked.supplierId).toBe(s.id);
    const other = await draftSend({ supplierId: (await f.create('supplier')).id });
    expect(other.status).toBe(400);
    expect(other.body.errors?.[0].field).toBe('supplierId');
    const wrong = await draftSend({}, [{ materialId: (await blank(0)).id, quantity: 1 }]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors?.[0].field).toBe('lines.0.materialId');
    // Only its own document types may name an outsourcing order.
    const sales = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'sales',
        warehouseId: w.warehouseId,
        outsourcingOrderId: o.id,
        lines: [{ materialId: m.id, quantity: 1 }],
      },
    });
    expect(sales.status).toBe(400);
    ok(await act('close', o.id, { reason: '改自制' }));
    const closed = await move('send-out', o.id, o.lines[0].id, 1);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toContain('已关闭');
    // The posting of a draft made before closing is refused too.
    const late = await w.post('stock-outbound', linked.id);
    expect(late.status).toBe(409);
  });

  it("the warehouse forms take an order's open lines: to send, to receive back (sent less net received), returnable", async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 50, unitPrice: '1' }]));
    ok(await act('approve', o.id));
    const line = o.lines[0].id;
    const keeper = (
      await t.userWith(['warehouse:outsourcingOutbound:add', 'warehouse:outsourcedInbound:add'])
    ).token;
    const open = async (kind: 'inbound' | 'outbound', type: string) =>
      ok(
        await t.call('GET', `/api/v1/stock-${kind}/source-lines/${o.id}`, { token: keeper, query: { type } }),
      ).lines.map((l: any) => [l.sourceLineId, l.quantity]);
    expect(await open('outbound', 'outsourcing')).toEqual([[line, '50.0000']]);
    expect(await open('inbound', 'outsourced')).toEqual([]);
    ok(await move('send-out', o.id, line, 30));
    ok(await move('receive-back', o.id, line, 20));
    ok(await move('return-goods', o.id, line, 5));
    expect(await open('outbound', 'outsourcing')).toEqual([[line, '20.0000']]);
    expect(await open('inbound', 'outsourced')).toEqual([[line, '15.0000']]);
    expect(await open('outbound', 'outsourcing-return')).toEqual([[line, '15.0000']]);
    const orders = ok(
      await t.call('GET', '/api/v1/stock-inbound/source-orders', {
        token: keeper,
        query: { type: 'outsourced', partyId: s.id },
      }),
    );
    expect(orders.map((x: any) => x.docNo)).toEqual([o.docNo]);
  });

  it('answers bad input with 400 and a Chinese message; edits only drafts; stale version 409', async () => {
    const s = await f.create('supplier');
    const m = await blank(0);
    const zero = await order(s.id, [{ materialId: m.id, quantity: 0, unitPrice: '1' }]);
    expect(zero.status).toBe(400);
    expect(zero.body.message).toMatch(/[\u4e00-\u9fa5]/);
    const noProcess = await t.call('POST', '/api/v1/outsourcing-order/add', {
      token,
      body: {
        supplierId: s.id,
        orderDate: '2026-10-20',
        deliveryDate: '2026-11-05',
        lines: [{ materialId: m.id, quantity: 1, unitPrice: '1' }],
      },
    });
    expect(noProcess.status).toBe(400);
    expect(noProcess.body.errors?.[0].field).toBe('processId');
    const noPrice = await order(s.id, [{ materialId: m.id, quantity: 1 }]);
    expect(noPrice.status).toBe(400);
    expect(noPrice.body.message).toContain('加工单价');
    const foreignUnit = await order(s.id, [
      {
        materialId: m.id,
        quantity: 1,
        unitPrice: '1',
        unitId: (await f.create('material-unit', { name: '箱' })).id,
      },
    ]);
    expect(foreignUnit.status).toBe(400);
    expect(foreignUnit.body.errors?.[0].field).toBe('lines.0.unitId');
    const backwards = await t.call('POST', '/api/v1/outsourcing-order/add', {
      token,
      body: {
        supplierId: s.id,
        processId: heat,
        orderDate: '2026-10-20',
        deliveryDate: '2026-10-01',
        lines: [{ materialId: m.id, quantity: 1, unitPrice: '1' }],
      },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('交货日期不能早于订单日期');
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 5, unitPrice: '1' }]));
    const badLines = await t.call('POST', `/api/v1/outsourcing-order/send-out/${o.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [] },
    });
    expect(badLines.status).toBe(400);
    expect(badLines.body.message).toContain('请选择委外订单明细');
    ok(await act('approve', o.id, { version: o.version }));
    const stale = await act('close', o.id, { version: o.version, reason: '重复' });
    expect(stale.status).toBe(409);
    const edit = await t.call('PUT', `/api/v1/outsourcing-order/edit/${o.id}`, {
      token,
      body: { remark: '改' },
    });
    expect(edit.status).toBe(409);
    const notMine = await t.call('POST', `/api/v1/outsourcing-order/send-out/${o.id}`, {
      token,
      body: { warehouseId: w.warehouseId, lines: [{ lineId: 999999, quantity: 1 }] },
    });
    expect(notMine.status).toBe(400);
    expect(notMine.body.message).toContain('不是委外订单');
  });

  it('403 without the permission; the buyer with 委外退货 drafts returns, cannot post them', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const nobody = (await t.userWith(['purchase:order:list'])).token;
    expect((await t.call('GET', '/api/v1/outsourcing-order/page', { token: nobody })).status).toBe(403);
    expect((await order(s.id, [{ materialId: m.id, quantity: 1, unitPrice: '1' }], nobody)).status).toBe(403);
    const buyer = (
      await t.userWith([
        'purchase:outsourcing:list',
        'purchase:outsourcing:add',
        'purchase:outsourcing:approve',
        'purchase:outsourcingReturn:list',
        'purchase:outsourcingReturn:add',
      ])
    ).token;
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 10, unitPrice: '1' }], buyer));
    ok(await act('approve', o.id, {}, buyer));
    expect((await act('close', o.id, { reason: 'x' }, buyer)).status).toBe(403);
    // 发料 is the warehouse's.
    const send = await t.call('POST', `/api/v1/outsourcing-order/send-out/${o.id}`, {
      token: buyer,
      body: { warehouseId: w.warehouseId, lines: [{ lineId: o.lines[0].id, quantity: 10 }] },
    });
    expect(send.status).toBe(403);
    ok(await move('send-out', o.id, o.lines[0].id, 10));
    ok(await move('receive-back', o.id, o.lines[0].id, 10));
    const back = await t.call('POST', `/api/v1/outsourcing-order/return-goods/${o.id}`, {
      token: buyer,
      body: { warehouseId: w.warehouseId, lines: [{ lineId: o.lines[0].id, quantity: 2 }] },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const list = ok(
      await t.call('GET', '/api/v1/stock-outbound/page', { token: buyer, query: { pageSize: 100 } }),
    );
    expect(new Set(list.list.map((r: any) => r.type))).toEqual(new Set(['outsourcing-return']));
    expect(
      (await t.call('POST', `/api/v1/stock-outbound/post/${back.body.result.id}`, { token: buyer })).status,
    ).toBe(403);
    ok(await w.post('stock-outbound', back.body.result.id));
    expect((await info(o.id)).lines[0].returnedQuantity).toBe('2.0000');
  });
});

describe.runIf(PG_URL)('outsourcing receiving concurrency (PostgreSQL)', () => {
  it('32 clients receiving back the last sent pieces of one line never exceed what was sent', async () => {
    const s = await f.create('supplier');
    const m = await blank();
    const o = ok(await order(s.id, [{ materialId: m.id, quantity: 20, unitPrice: '1' }]));
    ok(await act('approve', o.id));
    const line = o.lines[0].id;
    ok(await move('send-out', o.id, line, 8));
    const drafts = [];
    for (let i = 0; i < 32; i++) {
      drafts.push(
        ok(
          await t.call('POST', `/api/v1/outsourcing-order/receive-back/${o.id}`, {
            token,
            body: { warehouseId: w.warehouseId, lines: [{ lineId: line, quantity: 1 }] },
          }),
        ),
      );
    }
    const results = await Promise.all(drafts.map((d) => w.post('stock-inbound', d.id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
    expect(results.filter((r) => r.status === 409)).toHaveLength(24);
    const now = await info(o.id);
    expect(now.lines[0]).toMatchObject({
      sentQuantity: '8.0000',
      receivedQuantity: '8.0000',
      receivedWeight: '2.8000',
    });
    expect(now.status).toBe('partly-received');
  });
});
