import type ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadWorkbook, type TestApp } from './helpers.ts';
import { closeStockWorld, openStockWorld, type StockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let w: StockWorld;
beforeAll(async () => {
  ({ t, token, w } = await openStockWorld());
});
// Invariant over everything this file posted: every balance equals the sum of its ledger rows.
afterAll(() => closeStockWorld(t));

describe('inbound and outbound posting', () => {
  it('receives stock, numbers the document, and keeps balance and ledger in step', async () => {
    const m = await w.material();
    const doc = await w.inbound([
      { materialId: m.id, quantity: '120.5', locationId: w.locationA, unitPrice: '8.5' },
    ]);
    expect(doc.docNo).toMatch(/^RK\d{8}-\d{4}$/);
    expect(doc.status).toBe('draft');
    expect(await w.balance(m.id)).toBe(0);
    const posted = await w.post('stock-inbound', doc.id);
    expect(posted.status).toBe(200);
    // The answer is the new state; the record itself is one info call away.
    expect(posted.body.result).toEqual({
      id: doc.id,
      docNo: doc.docNo,
      status: 'posted',
      version: doc.version + 1,
    });
    const info = await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token });
    expect(info.body.result).toMatchObject({ status: 'posted', postedByName: '系统管理员' });
    expect(await w.balance(m.id)).toBe(120.5);
    const ledger = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { materialId: m.id } });
    expect(ledger.body.result.list).toHaveLength(1);
    expect(ledger.body.result.list[0]).toMatchObject({
      quantity: '120.5000',
      docNo: doc.docNo,
      unitCost: '8.500000',
      amount: '1024.25',
    });
    const rec = await t.call('GET', `/api/v1/material-info/warehousingRecord/${m.id}`, { token });
    expect(rec.body.result.total).toBe(1);
  });

  it('refuses to issue more than the balance, naming material, available and requested; stock untouched', async () => {
    const m = await w.material({ name: '轴承钢管GCr15' });
    await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: 50 }])).id);
    const out = await w.outbound([
      { materialId: m.id, quantity: 30 },
      { materialId: m.id, quantity: 30 },
    ]);
    const r = await w.post('stock-outbound', out.id);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/库存不足：物料「轴承钢管GCr15」.*可用 20，需要 30/);
    expect(await w.balance(m.id)).toBe(50);
    const doc = await t.call('GET', `/api/v1/stock-outbound/info/${out.id}`, { token });
    expect(doc.body.result.status).toBe('draft');
  });

  it('posts once: a second post, a second reverse, editing or deleting a posted document are refused', async () => {
    const m = await w.material();
    const doc = await w.inbound([{ materialId: m.id, quantity: 10 }]);
    expect((await w.post('stock-inbound', doc.id)).status).toBe(200);
    const again = await w.post('stock-inbound', doc.id);
    expect(again).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/已过账，不能重复过账/) },
    });
    const edit = await t.call('PUT', `/api/v1/stock-inbound/edit/${doc.id}`, {
      token,
      body: { remark: 'x' },
    });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toMatch(/不能修改，只能冲销/);
    expect((await t.call('DELETE', `/api/v1/stock-inbound/delete/${doc.id}`, { token })).status).toBe(409);
    const rev = await t.call('POST', `/api/v1/stock-inbound/reverse/${doc.id}`, { token });
    expect(rev.status, JSON.stringify(rev.body)).toBe(200);
    expect(await w.balance(m.id)).toBe(0);
    const twice = await t.call('POST', `/api/v1/stock-inbound/reverse/${doc.id}`, { token });
    expect(twice).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/已冲销，不能重复冲销/) },
    });
    const ledger = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { materialId: m.id } });
    expect(ledger.body.result.list.map((l: any) => l.quantity).sort()).toEqual(['-10.0000', '10.0000']);
    // One audit row per action that took effect, written in the posting's own statement.
    const trail = await t.database.db
      .selectFrom('auditLog')
      .select(['action', 'userName', 'afterData'])
      .where('entity', '=', 'stock-inbound')
      .where('entityId', '=', String(doc.id))
      .orderBy('id')
      .execute();
    expect(trail.map((a: any) => [a.action, a.userName, a.afterData?.docNo])).toEqual([
      ['create', 'admin', doc.docNo],
      ['post', 'admin', doc.docNo],
      ['reverse', 'admin', doc.docNo],
    ]);
  });

  it('refuses to reverse an inbound whose goods were issued', async () => {
    const m = await w.material();
    const inb = await w.inbound([{ materialId: m.id, quantity: 10 }]);
    await w.post('stock-inbound', inb.id);
    await w.post('stock-outbound', (await w.outbound([{ materialId: m.id, quantity: 6 }])).id);
    const r = await t.call('POST', `/api/v1/stock-inbound/reverse/${inb.id}`, { token });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/无法冲销/);
    expect(await w.balance(m.id)).toBe(4);
  });

  it('rejects zero, negative and unknown input with 400 and moves nothing', async () => {
    const m = await w.material();
    for (const quantity of [0, -5, 'abc']) {
      const r = await t.call('POST', '/api/v1/stock-inbound/add', {
        token,
        body: { type: 'purchase', warehouseId: w.warehouseId, lines: [{ materialId: m.id, quantity }] },
      });
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0].field).toBe('lines.0.quantity');
    }
    const unknown = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: { type: 'purchase', warehouseId: w.warehouseId, lines: [{ materialId: 999999, quantity: 1 }] },
    });
    expect(unknown.body.errors?.[0]).toEqual({
      field: 'lines.0.materialId',
      message: '所选物料不存在或已被删除',
    });
    // Every line's references are checked in one statement; the error still names the line.
    const second = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: {
        type: 'purchase',
        warehouseId: w.warehouseId,
        lines: [
          { materialId: m.id, quantity: 1 },
          { materialId: m.id, quantity: 2 },
          { materialId: 999998, quantity: 1 },
        ],
      },
    });
    expect(second.body.errors?.[0]).toEqual({
      field: 'lines.2.materialId',
      message: '所选物料不存在或已被删除',
    });
    const badLoc = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: {
        type: 'purchase',
        warehouseId: w.otherWarehouseId,
        lines: [{ materialId: m.id, quantity: 1, locationId: w.locationA }],
      },
    });
    expect(badLoc.body.errors?.[0].field).toBe('lines.0.locationId');
    const noLines = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: { type: 'purchase', warehouseId: w.warehouseId, lines: [] },
    });
    expect(noLines.status).toBe(400);
    expect(await w.balance(m.id)).toBe(0);
  });

  it('requires a batch for batch-managed materials and issues batches first in, first out', async () => {
    const m = await w.material({ batchManaged: true });
    const missing = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: { type: 'purchase', warehouseId: w.warehouseId, lines: [{ materialId: m.id, quantity: 5 }] },
    });
    expect(missing.body.errors?.[0]).toMatchObject({ field: 'lines.0.batchNo' });
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 5, batchNo: 'HEAT-001' }])).id,
    );
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 5, batchNo: 'HEAT-002' }])).id,
    );
    await w.post('stock-outbound', (await w.outbound([{ materialId: m.id, quantity: 7 }])).id);
    expect(await w.balance(m.id, { batchNo: 'HEAT-001' })).toBe(0);
    expect(await w.balance(m.id, { batchNo: 'HEAT-002' })).toBe(3);
  });

  it('converts quantities in other units to the base unit', async () => {
    const box = (
      await t.call('POST', '/api/v1/material-unit/add', { token, body: { code: 'BOX1', name: '箱' } })
    ).body.result;
    const m = await w.material();
    await t.call('PUT', `/api/v1/material-info/edit/${m.id}`, {
      token,
      body: { unitConversions: [{ unitId: box.id, baseQuantity: '100' }] },
    });
    const doc = await w.inbound([{ materialId: m.id, quantity: 2, unitId: box.id, unitPrice: '500' }]);
    await w.post('stock-inbound', doc.id);
    expect(await w.balance(m.id)).toBe(200);
    const info = await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token });
    expect(info.body.result.lines[0].baseQuantity).toBe('200.0000');
    const cost = await sql<{
      avgCost: string;
    }>`SELECT avg_cost::text FROM material_cost WHERE material_id = ${m.id}`.execute(t.database.db);
    expect(cost.rows[0].avgCost).toBe('5.000000');
  });

  it('refuses to post a line in a unit the material has no conversion for, and moves nothing', async () => {
    const crate = (
      await t.call('POST', '/api/v1/material-unit/add', { token, body: { code: 'CRATE1', name: '筐' } })
    ).body.result;
    const m = await w.material();
    const doc = await w.inbound([{ materialId: m.id, quantity: 2, unitId: crate.id }]);
    const r = await w.post('stock-inbound', doc.id);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/第 1 行：物料「.+」没有该单位的换算关系/);
    expect(r.body.errors?.[0].field).toBe('lines.0.unitId');
    expect(await w.balance(m.id)).toBe(0);
    const info = await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token });
    expect(info.body.result.status).toBe('draft');
  });

  it('keeps a moving weighted average cost and costs issues at it', async () => {
    const m = await w.material();
    await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: 10, unitPrice: '5' }])).id);
    await w.post('stock-inbound', (await w.inbound([{ materialId: m.id, quantity: 30, unitPrice: '7' }])).id);
    const out = await w.outbound([{ materialId: m.id, quantity: 4 }]);
    await w.post('stock-outbound', out.id);
    const ledger = await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { materialId: m.id, direction: 'out' },
    });
    expect(ledger.body.result.list[0]).toMatchObject({
      quantity: '-4.0000',
      unitCost: '6.500000',
      amount: '-26.00',
    });
    const bal = await t.call('GET', '/api/v1/stock-balance/page', { token, query: { materialId: m.id } });
    expect(bal.body.result.totalAmount).toBe('234.00');
    // The posted outbound line records its base quantity and the cost it left at.
    const posted = await t.call('GET', `/api/v1/stock-outbound/info/${out.id}`, { token });
    expect(posted.body.result.lines[0]).toMatchObject({ baseQuantity: '4.0000' });
    expect(Number(posted.body.result.lines[0].unitPrice)).toBe(6.5);
  });

  it('issues only qualified stock to production', async () => {
    const m = await w.material();
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 10, qualityStatus: 'pending' }])).id,
    );
    const r = await w.post('stock-outbound', (await w.outbound([{ materialId: m.id, quantity: 1 }])).id);
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/可用 0，需要 1/);
    const bad = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'requisition',
        warehouseId: w.warehouseId,
        lines: [{ materialId: m.id, quantity: 1, qualityStatus: 'pending' }],
      },
    });
    expect(bad.body.errors?.[0].field).toBe('lines.0.qualityStatus');
    const other = await t.call('POST', '/api/v1/stock-outbound/add', {
      token,
      body: {
        type: 'other',
        warehouseId: w.warehouseId,
        lines: [{ materialId: m.id, quantity: 1, qualityStatus: 'pending' }],
      },
    });
    expect((await w.post('stock-outbound', other.body.result.id)).status).toBe(200);
  });

  it("answers an outbound line's 可用 as posting would draw it, to an outbound keeper too", async () => {
    const m = await w.material();
    const receive = [
      { materialId: m.id, quantity: 5, locationId: w.locationA, batchNo: 'H1' },
      { materialId: m.id, quantity: 7, locationId: w.locationB, batchNo: 'H2' },
      { materialId: m.id, quantity: 3, locationId: w.locationA, batchNo: 'H1', qualityStatus: 'pending' },
    ];
    await w.post('stock-inbound', (await w.inbound(receive)).id);
    const keeper = (await t.userWith(['warehouse:requisitionOutbound:add'])).token;
    const available = async (query: Record<string, unknown>, as = keeper) =>
      (
        await t.call('GET', '/api/v1/stock-balance/available', {
          token: as,
          query: { materialId: m.id, warehouseId: w.warehouseId, ...query },
        })
      ).body;
    expect((await available({})).result).toEqual({ quantity: '12.0000', unitName: m.unitName });
    expect((await available({ locationId: w.locationA })).result.quantity).toBe('5.0000');
    expect((await available({ batchNo: 'H2' })).result.quantity).toBe('7.0000');
    expect((await available({ batchNo: 'H' })).result.quantity).toBe('0');
    expect((await available({ qualityStatus: 'pending' })).result.quantity).toBe('3.0000');
    expect((await available({ warehouseId: w.otherWarehouseId })).result.quantity).toBe('0');
    expect((await available({ materialId: 0 })).code).toBe('400');
    const stranger = (await t.userWith(['factory:material:list'])).token;
    expect((await available({}, stranger)).code).toBe('403');
  });

  it('totals balances per unit, never adding different units into one figure', async () => {
    const a = await w.material();
    const b = await w.material();
    expect(a.unitId).not.toBe(b.unitId);
    await w.post(
      'stock-inbound',
      (
        await w.inbound([
          { materialId: a.id, quantity: 100, unitPrice: '1' },
          { materialId: b.id, quantity: 3, unitPrice: '2' },
        ])
      ).id,
    );
    const both = await t.call('GET', '/api/v1/stock-balance/page', {
      token,
      query: { materialId: a.id },
    });
    expect(both.body.result.totalsByUnit).toEqual([{ unitName: a.unitName, quantity: '100.0000' }]);
    const all = await t.call('GET', '/api/v1/stock-balance/page', { token, query: { pageNum: 0 } });
    const totals: { unitName: string; quantity: string }[] = all.body.result.totalsByUnit;
    expect(totals.find((x) => x.unitName === b.unitName)?.quantity).toBe('3.0000');
    expect(new Set(totals.map((x) => x.unitName)).size).toBe(totals.length);
    expect(all.body.result).not.toHaveProperty('totalQuantity');
  });
});

describe('idempotency', () => {
  it('posts once for one key: 3 concurrent and 2 later requests get identical answers', async () => {
    const m = await w.material();
    const doc = await w.inbound([{ materialId: m.id, quantity: 7 }]);
    const first = await Promise.all([1, 2, 3].map(() => w.post('stock-inbound', doc.id, 'key-abc-1')));
    const later = [
      await w.post('stock-inbound', doc.id, 'key-abc-1'),
      await w.post('stock-inbound', doc.id, 'key-abc-1'),
    ];
    const all = [...first, ...later];
    expect(all.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    for (const a of all) expect(JSON.stringify(a.body)).toBe(JSON.stringify(all[0].body));
    expect(await w.balance(m.id)).toBe(7);
    const ledger = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { materialId: m.id } });
    expect(ledger.body.result.total).toBe(1);
  });
});

describe('transfer and stocktake', () => {
  it('moves stock between warehouses in one transaction, batch and all', async () => {
    const m = await w.material({ batchManaged: true });
    await w.post(
      'stock-inbound',
      (await w.inbound([{ materialId: m.id, quantity: 20, batchNo: 'B-9', locationId: w.locationA }])).id,
    );
    const tr = await t.call('POST', '/api/v1/stock-transfer/add', {
      token,
      body: {
        fromWarehouseId: w.warehouseId,
        toWarehouseId: w.otherWarehouseId,
        lines: [{ materialId: m.id, quantity: 8 }],
      },
    });
    expect(tr.status).toBe(200);
    expect(tr.body.result.docNo).toMatch(/^DB/);
    expect((await w.post('stock-transfer', tr.body.result.id)).status).toBe(200);
    expect(await w.balance(m.id, { warehouseId: w.warehouseId })).toBe(12);
    expect(await w.balance(m.id, { warehouseId: w.otherWarehouseId, batchNo: 'B-9' })).toBe(8);
    const tooMuch = await t.call('POST', '/api/v1/stock-transfer/add', {
      token,
      body: {
        fromWarehouseId: w.warehouseId,
        toWarehouseId: w.otherWarehouseId,
        lines: [{ materialId: m.id, quantity: 13 }],
      },
    });
    expect((await w.post('stock-transfer', tooMuch.body.result.id)).status).toBe(409);
    expect(await w.balance(m.id, { warehouseId: w.otherWarehouseId })).toBe(8);
  });

  it('snapshots book quantities, takes counts and posts gains and losses', async () => {
    const wh = (
      await t.call('POST', '/api/v1/warehouse-management/add', {
        token,
        body: { code: 'WH-COUNT', name: '盘点仓', type: 'auxiliary' },
      })
    ).body.result;
    const a = await w.material();
    const b = await w.material();
    const inb = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: {
        type: 'other',
        warehouseId: wh.id,
        lines: [
          { materialId: a.id, quantity: 10 },
          { materialId: b.id, quantity: 5 },
        ],
      },
    });
    await w.post('stock-inbound', inb.body.result.id);
    const st = await t.call('POST', '/api/v1/stocktake/add', { token, body: { warehouseId: wh.id } });
    expect(st.body.result.docNo).toMatch(/^PD/);
    const snap = await t.call('POST', `/api/v1/stocktake/snapshot/${st.body.result.id}`, { token });
    expect(snap.body.result.lines.map((l: any) => [l.materialId, l.bookQuantity])).toEqual(
      expect.arrayContaining([
        [a.id, '10.0000'],
        [b.id, '5.0000'],
      ]),
    );
    const lines = snap.body.result.lines.map((l: any) => ({
      materialId: l.materialId,
      countedQuantity: l.materialId === a.id ? '12' : '3',
    }));
    const edit = await t.call('PUT', `/api/v1/stocktake/edit/${st.body.result.id}`, {
      token,
      body: { lines },
    });
    expect(edit.body.result.lines.map((l: any) => l.difference).sort()).toEqual(['-2.0000', '2.0000']);
    expect((await w.post('stocktake', st.body.result.id)).status).toBe(200);
    expect(await w.balance(a.id, { warehouseId: wh.id })).toBe(12);
    expect(await w.balance(b.id, { warehouseId: wh.id })).toBe(3);
  });
});

describe('stocktake difference report', () => {
  it('values the differing lines at the average, then at the posted cost, with totals and an Excel copy', async () => {
    const wh = (
      await t.call('POST', '/api/v1/warehouse-management/add', {
        token,
        body: { code: 'WH-DIFF', name: '差异仓', type: 'auxiliary' },
      })
    ).body.result;
    const [a, b, same, open] = [
      await w.material(),
      await w.material(),
      await w.material(),
      await w.material(),
    ];
    const inb = await w.inbound(
      [
        { materialId: a.id, quantity: 10, unitPrice: '4' },
        { materialId: b.id, quantity: 5, unitPrice: '2.5' },
        { materialId: same.id, quantity: 1, unitPrice: '9' },
        { materialId: open.id, quantity: 1, unitPrice: '9' },
      ],
      { type: 'other', warehouseId: wh.id },
    );
    expect((await w.post('stock-inbound', inb.id)).status).toBe(200);
    const st = (await t.call('POST', '/api/v1/stocktake/add', { token, body: { warehouseId: wh.id } })).body
      .result;
    const snap = (await t.call('POST', `/api/v1/stocktake/snapshot/${st.id}`, { token })).body.result;
    const counted: Record<number, string | null> = {
      [a.id]: '12',
      [b.id]: '3',
      [same.id]: '1',
      [open.id]: null,
    };
    const edit = await t.call('PUT', `/api/v1/stocktake/edit/${st.id}`, {
      token,
      body: {
        lines: snap.lines.map((l: any) => ({
          materialId: l.materialId,
          countedQuantity: counted[l.materialId],
        })),
      },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    const report = async () => {
      const r = await t.call('GET', `/api/v1/stocktake/difference/${st.id}`, { token });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.result;
    };
    const draft = await report();
    expect(draft.valuedAt).toBe('current average');
    expect(draft.lines.map((l: any) => [l.materialCode, l.difference, l.unitCost, l.amount])).toEqual(
      expect.arrayContaining([
        [a.code, '2.0000', '4.000000', '8.00'],
        [b.code, '-2.0000', '2.500000', '-5.00'],
      ]),
    );
    expect(draft.lines).toHaveLength(2);
    expect(draft.totals).toEqual({
      gainQuantity: '2.0000',
      lossQuantity: '2.0000',
      // a and b have units of their own: each total is one unit (quantities-per-unit.test.ts: several).
      gainByUnit: [{ unitName: expect.any(String), quantity: '2.0000' }],
      lossByUnit: [{ unitName: expect.any(String), quantity: '2.0000' }],
      gainAmount: '8.00',
      lossAmount: '5.00',
      netAmount: '3.00',
    });

    expect((await w.post('stocktake', st.id)).status).toBe(200);
    const posted = await report();
    expect(posted.valuedAt).toBe('posting');
    expect(posted.lines.map((l: any) => l.amount).sort()).toEqual(['-5.00', '8.00']);
    expect(posted.totals.netAmount).toBe('3.00');

    const exported = await t.call('GET', `/api/v1/stocktake/differenceExport/${st.id}`, { token });
    expect(exported.status).toBe(200);
    expect(exported.body.result.rows).toBe(2);
    const wb = await downloadWorkbook(t, token, exported.body.result.fileName);
    const cells = wb.worksheets[0].getSheetValues().flat().map(String);
    expect(cells).toEqual(expect.arrayContaining([a.code, b.code, '净盈亏金额', '3', '-5']));

    const viewer = (await t.userWith(['warehouse:stocktake:list'])).token;
    expect((await t.call('GET', `/api/v1/stocktake/difference/${st.id}`, { token: viewer })).status).toBe(
      200,
    );
    expect(
      (await t.call('GET', `/api/v1/stocktake/differenceExport/${st.id}`, { token: viewer })).status,
    ).toBe(403);
    expect((await t.call('GET', '/api/v1/stocktake/difference/999999999', { token })).status).toBe(404);
  });
});

describe('inventory alert', () => {
  it('lists materials below minimum or above maximum and messages the keepers once a day', async () => {
    const keeper = await t.userWith([], 'keeper01');
    await t.call('PUT', `/api/v1/warehouse-management/edit/${w.warehouseId}`, {
      token,
      body: { keeperId: keeper.userId },
    });
    const low = await w.material({ safetyStockMin: '10' });
    const high = await w.material({ safetyStockMax: '5' });
    await w.post(
      'stock-inbound',
      (
        await w.inbound([
          { materialId: low.id, quantity: 12 },
          { materialId: high.id, quantity: 8 },
        ])
      ).id,
    );
    expect(
      (await t.call('GET', '/api/v1/message/unreadCount', { token: keeper.token })).body.result.count,
    ).toBe(0);
    await w.post('stock-outbound', (await w.outbound([{ materialId: low.id, quantity: 5 }])).id);
    await w.post('stock-outbound', (await w.outbound([{ materialId: low.id, quantity: 1 }])).id);
    const page = await t.call('GET', '/api/v1/stock-alert/page', { token, query: { pageNum: 0 } });
    const rows = Object.fromEntries(page.body.result.list.map((r: any) => [r.materialId, r]));
    expect(rows[low.id]).toMatchObject({ kind: 'below', quantity: '6.0000', gap: '4.0000' });
    expect(rows[high.id]).toMatchObject({ kind: 'above', quantity: '8.0000', gap: '3.0000' });
    const msgs = await t.call('GET', '/api/v1/message/page', {
      token: keeper.token,
      query: { kind: 'stock-alert' },
    });
    expect(msgs.body.result.total).toBe(1);
    expect(msgs.body.result.list[0].title).toMatch(/库存预警/);
    const fin = await t.userWith(['finance:inventoryAlert:query']);
    expect((await t.call('GET', '/api/v1/stock-alert/page', { token: fin.token })).status).toBe(200);
  });
});

describe('stocktake count sheet', () => {
  it('downloads the lines, takes the counts back from Excel, and refuses a bad sheet whole', async () => {
    const wh = (
      await t.call('POST', '/api/v1/warehouse-management/add', {
        token,
        body: { code: 'WH-SHEET', name: '盘点表仓', type: 'auxiliary' },
      })
    ).body.result;
    const m = await w.material();
    const inb = await t.call('POST', '/api/v1/stock-inbound/add', {
      token,
      body: { type: 'other', warehouseId: wh.id, lines: [{ materialId: m.id, quantity: 9 }] },
    });
    await w.post('stock-inbound', inb.body.result.id);
    const st = (await t.call('POST', '/api/v1/stocktake/add', { token, body: { warehouseId: wh.id } })).body
      .result;
    await t.call('POST', `/api/v1/stocktake/snapshot/${st.id}`, { token });
    const sheet = await t.call('GET', `/api/v1/stocktake/countSheet/${st.id}`, { token });
    const wb = await downloadWorkbook(t, token, sheet.body.result.fileName);
    const ws = wb.worksheets[0];
    expect(ws.getRow(2).getCell(1).value).toBe(m.code);
    expect(ws.getRow(2).getCell(7).value).toBe(9);
    const upload = async (book: InstanceType<typeof ExcelJS.Workbook>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/stocktake/importCounts/${st.id}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        payload: Buffer.from(await book.xlsx.writeBuffer()),
      });
    ws.getRow(2).getCell(8).value = 7;
    ws.addRow(['NO-SUCH', '', '', '', '', '合格', 0, 1]);
    const bad = await upload(wb);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({ field: '第3行 物料编码', message: '物料「NO-SUCH」不存在' });
    ws.spliceRows(3, 1);
    const ok = await upload(wb);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.lines[0]).toMatchObject({ countedQuantity: '7.0000', difference: '-2.0000' });
    expect((await w.post('stocktake', st.id)).status).toBe(200);
    expect(await w.balance(m.id, { warehouseId: wh.id })).toBe(7);
  });
});

describe('permissions of the document kind pages', () => {
  it('a 采购入库 keeper works purchase inbound documents only, from list to post', async () => {
    const m = await w.material();
    const purchase = await w.inbound([{ materialId: m.id, quantity: 3 }]);
    const other = await w.inbound([{ materialId: m.id, quantity: 4 }], { type: 'other' });
    const keeper = (
      await t.userWith([
        'warehouse:purchaseInbound:list',
        'warehouse:purchaseInbound:add',
        'warehouse:purchaseInbound:edit',
        'warehouse:purchaseInbound:post',
        'warehouse:purchaseInbound:export',
      ])
    ).token;
    const as = (method: string, url: string, body?: unknown) =>
      t.call(method as any, url, { token: keeper, body: body as any });

    // The list shows the purchase documents only, whatever the filter asks for.
    const page = await as('GET', '/api/v1/stock-inbound/page?pageNum=0');
    expect(page.status).toBe(200);
    const types = new Set(page.body.result.list.map((d: any) => d.type));
    expect([...types]).toEqual(['purchase']);
    expect(page.body.result.list.some((d: any) => d.id === purchase.id)).toBe(true);
    const asked = await as('GET', '/api/v1/stock-inbound/page?pageNum=0&type=other');
    expect(asked.body.result.total).toBe(0);
    expect((await as('GET', `/api/v1/stock-inbound/info/${purchase.id}`)).status).toBe(200);
    expect((await as('GET', `/api/v1/stock-inbound/info/${other.id}`)).status).toBe(403);

    // Adding and editing: only purchase documents, and not into another kind.
    const body = { warehouseId: w.warehouseId, lines: [{ materialId: m.id, quantity: 1 }] };
    const mine = await as('POST', '/api/v1/stock-inbound/add', { type: 'purchase', ...body });
    expect(mine.status).toBe(200);
    expect((await as('POST', '/api/v1/stock-inbound/add', { type: 'other', ...body })).status).toBe(403);
    expect(
      (await as('PUT', `/api/v1/stock-inbound/edit/${mine.body.result.id}`, { type: 'other' })).status,
    ).toBe(403);
    expect((await as('PUT', `/api/v1/stock-inbound/edit/${other.id}`, { remark: 'x' })).status).toBe(403);

    // Posting: the purchase document yes, the other one no and its stock untouched.
    expect((await as('POST', `/api/v1/stock-inbound/post/${other.id}`)).status).toBe(403);
    expect(await w.balance(m.id)).toBe(0);
    expect((await as('POST', `/api/v1/stock-inbound/post/${purchase.id}`)).status).toBe(200);
    expect(await w.balance(m.id)).toBe(3);

    // No delete, reverse or outbound permission at all.
    expect((await as('DELETE', `/api/v1/stock-inbound/delete/${mine.body.result.id}`)).status).toBe(403);
    expect((await as('POST', `/api/v1/stock-inbound/reverse/${purchase.id}`)).status).toBe(403);
    expect((await as('GET', '/api/v1/stock-outbound/page')).status).toBe(403);
  });
});

describe('document lists', () => {
  it('filter by material through the lines: drafts too, with the other filters, the kind scope and export', async () => {
    const steel = await w.material();
    const balls = await w.material();
    const draft = await w.inbound([
      { materialId: steel.id, quantity: 5 },
      { materialId: balls.id, quantity: 7 },
    ]);
    const posted = await w.inbound([{ materialId: steel.id, quantity: 2 }], { type: 'other' });
    expect((await w.post('stock-inbound', posted.id)).status).toBe(200);
    const issue = await w.outbound([{ materialId: balls.id, quantity: 1 }]);

    const ids = async (resource: string, query: Record<string, unknown>, as = token) => {
      const r = await t.call('GET', `/api/v1/${resource}/page`, {
        token: as,
        query: { pageNum: 0, ...query },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.result.list.map((d: any) => d.id).sort((a: number, b: number) => a - b);
    };
    expect(await ids('stock-inbound', { materialId: steel.id })).toEqual([draft.id, posted.id]);
    expect(await ids('stock-inbound', { materialId: balls.id })).toEqual([draft.id]);
    expect(await ids('stock-inbound', { materialId: steel.id, status: 'draft' })).toEqual([draft.id]);
    expect(await ids('stock-outbound', { materialId: balls.id })).toEqual([issue.id]);
    expect(await ids('stock-outbound', { materialId: steel.id })).toEqual([]);

    // A 采购入库 keeper sees the purchase document only, whatever material they ask for.
    const keeper = (await t.userWith(['warehouse:purchaseInbound:list'])).token;
    expect(await ids('stock-inbound', { materialId: steel.id }, keeper)).toEqual([draft.id]);

    const exported = await t.call('GET', '/api/v1/stock-inbound/export', {
      token,
      query: { materialId: steel.id },
    });
    expect(exported.status).toBe(200);
    expect(exported.body.result.rows).toBe(2);

    const bad = await t.call('GET', '/api/v1/stock-inbound/page', { token, query: { materialId: 'steel' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/物料/);
  });
});

describe('ledger of one material', () => {
  it('answers the balance after each move and the totals, on every page and under filters', async () => {
    const m = await w.material();
    const moves: [string, number, Record<string, unknown>][] = [
      ['stock-inbound', 100, {}],
      ['stock-outbound', 30, {}],
      ['stock-inbound', 12.5, { warehouseId: w.otherWarehouseId }],
      ['stock-inbound', 8, {}],
      ['stock-outbound', 50, {}],
    ];
    for (const [kind, quantity, extra] of moves) {
      const doc = await (kind === 'stock-inbound' ? w.inbound : w.outbound)(
        [{ materialId: m.id, quantity, ...(kind === 'stock-inbound' ? { unitPrice: '2' } : {}) }],
        extra,
      );
      expect((await w.post(kind, doc.id)).status).toBe(200);
    }
    const ledger = async (query: Record<string, unknown>) => {
      const r = await t.call('GET', '/api/v1/stock-ledger/page', {
        token,
        query: { materialId: m.id, ...query },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.result;
    };
    const all = await ledger({ pageNum: 0 });
    expect(all.list.map((r: any) => Number(r.balanceAfter))).toEqual([40.5, 90.5, 82.5, 70, 100]);
    // Every receipt at 2.00: on hand valued at the moving average.
    expect(all.summary).toEqual({
      inQuantity: '120.5000',
      outQuantity: '80.0000',
      balance: '40.5000',
      value: '81.00',
    });

    // Page by page, from either end of the index, the same figures.
    const paged = [];
    for (let pageNum = 1; pageNum <= 5; pageNum++)
      paged.push(...(await ledger({ pageNum, pageSize: 1 })).list.map((r: any) => Number(r.balanceAfter)));
    expect(paged).toEqual([40.5, 90.5, 82.5, 70, 100]);

    // One warehouse: its own running balance; a direction filter keeps the scope's balance.
    const main = await ledger({ pageNum: 0, warehouseId: w.warehouseId });
    expect(main.list.map((r: any) => Number(r.balanceAfter))).toEqual([28, 78, 70, 100]);
    expect(main.summary.balance).toBe('28.0000');
    const out = await ledger({ pageNum: 1, pageSize: 20, direction: 'out' });
    expect(out.list.map((r: any) => Number(r.balanceAfter))).toEqual([40.5, 70]);
    expect(out.summary).toMatchObject({ inQuantity: '0', outQuantity: '80.0000', balance: '40.5000' });

    // Unscoped lists carry neither.
    const unscoped = await t.call('GET', '/api/v1/stock-ledger/page', { token, query: { pageSize: 1 } });
    expect(unscoped.body.result.summary).toBeUndefined();
    expect(unscoped.body.result.list[0].balanceAfter).toBeUndefined();
  });
});
