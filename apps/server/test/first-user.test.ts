import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/** Issue 9 §4: what a first-time user hits on documents and messages. */
let t: TestApp;
let token: string;
let w: StockWorld;
let f: ReturnType<typeof factory>;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
});
afterAll(async () => {
  await t.close();
});

async function boxedMaterial(code: string) {
  const box = (
    await t.call('POST', '/api/v1/material-unit/add', {
      token,
      body: { code, name: `箱${code}`, precision: 1 },
    })
  ).body.result;
  const m = await w.material();
  await t.call('PUT', `/api/v1/material-info/edit/${m.id}`, {
    token,
    body: { unitConversions: [{ unitId: box.id, baseQuantity: '50' }] },
  });
  return { box, m };
}

describe('draft documents with a conversion unit', () => {
  it('store the base-unit quantity on save (2 箱 of 50 → 100), before any posting', async () => {
    const { box, m } = await boxedMaterial('FU-BOX1');
    const doc = await w.inbound([
      { materialId: m.id, quantity: 2, unitId: box.id },
      { materialId: m.id, quantity: 3 },
    ]);
    const info = await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token });
    expect(info.body.result.status).toBe('draft');
    expect(info.body.result.lines.map((l: any) => l.baseQuantity)).toEqual(['100.0000', '3.0000']);

    // Editing the draft recomputes them.
    const edit = await t.call('PUT', `/api/v1/stock-inbound/edit/${doc.id}`, {
      token,
      body: {
        type: 'purchase',
        warehouseId: w.warehouseId,
        bizDate: '2026-11-22',
        version: info.body.result.version,
        lines: [{ materialId: m.id, quantity: 4, unitId: box.id }],
      },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const again = await t.call('GET', `/api/v1/stock-inbound/info/${doc.id}`, { token });
    expect(again.body.result.lines[0].baseQuantity).toBe('200.0000');
  });

  it('outbound drafts too', async () => {
    const { box, m } = await boxedMaterial('FU-BOX2');
    const out = await w.outbound([{ materialId: m.id, quantity: 1.5, unitId: box.id }]);
    const info = await t.call('GET', `/api/v1/stock-outbound/info/${out.id}`, { token });
    expect(info.body.result.lines[0].baseQuantity).toBe('75.0000');
  });
});

describe('document numbers', () => {
  it('follow the business date (a document of 1 November is RK20261101-…)', async () => {
    const m = await w.material();
    const doc = await w.inbound([{ materialId: m.id, quantity: 1 }], { bizDate: '2026-11-01' });
    expect(doc.docNo).toMatch(/^RK20261101-\d{4}$/);
  });
});

describe('the generic stocktake import', () => {
  it('is not offered: counts are imported per stocktake document', async () => {
    const template = await t.call('GET', '/api/v1/stocktake/importTemplate', { token });
    expect(template.status).toBe(404);
    const imported = await t.call('POST', '/api/v1/stocktake/import', { token, body: {} });
    expect(imported.status).toBe(404);
  });
});

describe('conflict messages', () => {
  it('name a referencing line table once (「产品BOM明细」, not 「产品BOMBOM明细」)', async () => {
    const part = await w.material();
    await f.create('product-bom', { lines: [{ materialId: part.id, quantity: '2', unitId: part.unitId }] });
    const r = await t.call('DELETE', `/api/v1/material-info/delete/${part.id}`, { token });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('该记录已被「产品BOM明细」引用，无法删除');
  });
});

describe('系统设置 → 界面', () => {
  it('hides unfinished pages from menus by default; an administrator can show them', async () => {
    const get = () => t.call('GET', '/api/v1/sysSetting/ui', { token });
    expect((await get()).body.result).toEqual({ showUnfinishedPages: false });
    const put = await t.call('PUT', '/api/v1/sysSetting/ui', { token, body: { showUnfinishedPages: true } });
    expect(put.status).toBe(200);
    expect((await get()).body.result).toEqual({ showUnfinishedPages: true });
    const bad = await t.call('PUT', '/api/v1/sysSetting/ui', { token, body: { showUnfinishedPages: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/建设中/);
    await t.call('PUT', '/api/v1/sysSetting/ui', { token, body: { showUnfinishedPages: false } });
  });
});
