import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factory } from './factories.ts';
import { createTestApp, downloadWorkbook, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('导入');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const upload = (name: string, buf: Buffer, dryRun = false) =>
  t.app
    .inject({
      method: 'POST',
      url: `/api/v1/${name}/import${dryRun ? '?dryRun=true' : ''}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: buf,
    })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

describe('Excel export', () => {
  it('exports the current filter with labels and neutralised formulas', async () => {
    const f = factory(t, async () => token);
    const cls = await f.create('supplier-classify', { name: '钢厂' });
    await f.create('supplier', { code: 'S-EXP-1', name: '=HYPERLINK("http://x")', classifyId: cls.id });
    await f.create('supplier', { code: 'S-EXP-2', name: '宝钢特钢', classifyId: cls.id });
    await f.create('supplier', { code: 'S-OTHER', name: '别的' });
    const r = await t.call('GET', '/api/v1/supplier/export', { token, query: { code: 'S-EXP' } });
    expect(r.status).toBe(200);
    expect(r.body.result.rows).toBe(2);
    const wb = await downloadWorkbook(t, token, r.body.result.fileName);
    const ws = wb.worksheets[0];
    const header = ws.getRow(1).values as unknown[];
    expect(header).toContain('供应商编码');
    const values = [2, 3].map((i) => (ws.getRow(i).values as unknown[]).map(String));
    expect(values.flat()).toContain(`'=HYPERLINK("http://x")`);
    expect(values.flat()).toContain('钢厂');
    const dl = await t.call('GET', '/common/download', {
      token,
      query: { fileName: r.body.result.fileName },
    });
    expect(dl.status).toBe(200);
  });

  it('needs the export permission', async () => {
    const { token: other } = await t.userWith(['factory:supplier:list']);
    expect((await t.call('GET', '/api/v1/supplier/export', { token: other })).status).toBe(403);
  });
});

describe('Excel import', () => {
  it('offers a template with the required columns marked', async () => {
    const r = await t.call('GET', '/api/v1/material-unit/importTemplate', { token });
    expect(r.status).toBe(200);
    const wb = await downloadWorkbook(t, token, r.body.result.fileName);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).filter(Boolean)).toEqual(
      expect.arrayContaining(['*单位编码', '*单位名称']),
    );
    expect(wb.worksheets[1].name).toBe('填写说明');
  });

  it('reports every bad row before writing anything, then imports all or nothing', async () => {
    await t.call('POST', '/api/v1/material-unit/add', { token, body: { code: 'JIAN', name: '件' } });
    const rows = [
      ['单位编码', '单位名称', '状态'],
      ['TAO', '套', '启用'],
      ['', '个', '启用'],
      ['JIAN', '件2', '启用'],
      ['XIANG', '箱', '可能'],
      ['TAO', '套2', '启用'],
    ];
    const dry = await upload('material-unit', await sheet(rows), true);
    expect(dry.status).toBe(200);
    expect(dry.body.result).toMatchObject({ total: 5, valid: 1, imported: 0 });
    const byRow = dry.body.result.errors.map((e: any) => `${e.row}:${e.column}`);
    expect(byRow).toEqual(['3:单位编码', '4:单位编码', '5:状态', '6:单位编码']);
    expect(dry.body.result.errors.find((e: any) => e.row === 4).message).toMatch(/已存在/);
    expect(dry.body.result.errors.find((e: any) => e.row === 6).message).toMatch(/与第 2 行重复/);

    const real = await upload('material-unit', await sheet(rows));
    expect(real.status).toBe(400);
    expect(real.body.message).toMatch(/未导入任何数据/);
    expect(real.body.errors[0].field).toBe('第3行 单位编码');
    const count = await t.call('GET', '/api/v1/material-unit/page', { token, query: { code: 'TAO' } });
    expect(count.body.result.total).toBe(0);

    const good = await upload(
      'material-unit',
      await sheet([rows[0], ['TAO', '套', '启用'], ['XIANG', '箱', '停用']]),
    );
    expect(good.status).toBe(200);
    expect(good.body.result.imported).toBe(2);
    const after = await t.call('GET', '/api/v1/material-unit/page', { token, query: { pageNum: 0 } });
    expect(after.body.result.list.map((u: any) => u.code).sort()).toEqual(['JIAN', 'TAO', 'XIANG']);
  });

  it('resolves references by code or name and refuses unknown ones', async () => {
    await t.call('POST', '/api/v1/warehouse-management/add', {
      token,
      body: { code: 'WH-RAW', name: '原材料仓', type: 'raw' },
    });
    const r = await upload(
      'shelf-location',
      await sheet([
        ['库位编码', '库位名称', '所属仓库'],
        ['A-01', 'A区1号', 'WH-RAW'],
        ['A-02', 'A区2号', '原材料仓'],
        ['A-03', 'A区3号', '不存在的仓'],
      ]),
      true,
    );
    expect(r.body.result.valid).toBe(2);
    expect(r.body.result.errors).toEqual([
      { row: 4, column: '所属仓库', message: expect.stringMatching(/找不到.*不存在的仓/) },
    ]);
  });

  it('answers a malformed file with a clear message', async () => {
    const r = await upload('material-unit', Buffer.from('this is not a spreadsheet'));
    expect(r).toMatchObject({
      status: 400,
      body: { code: '400', message: '文件不是有效的 Excel（.xlsx）文件' },
    });
    const noHeader = await upload('material-unit', await sheet([['随便', '什么']]));
    expect(noHeader.body.message).toMatch(/表头缺少必填列/);
  });
});

describe('导入明细 (document lines from Excel)', () => {
  const post = (name: string, buf: Buffer, who = token) =>
    t.app
      .inject({
        method: 'POST',
        url: `/api/v1/${name}/importLines`,
        headers: { authorization: `Bearer ${who}`, 'content-type': 'application/octet-stream' },
        payload: buf,
      })
      .then((r) => ({ status: r.statusCode, body: r.json() }));

  it('reads the lines of a sales order by material code or name, checks every row, writes nothing', async () => {
    const f = factory(t, async () => token);
    const m = await f.create('material-info', { code: 'LI-6204', name: '深沟球轴承 6204 导入' });
    const before = await t.call('GET', '/api/v1/sale-order/page', {
      token,
      query: { pageNum: 1, pageSize: 1 },
    });
    const good = await post(
      'sale-order',
      await sheet([
        ['*产品', '*数量', '含税单价(元)', '交货日期', '备注'],
        ['LI-6204', 120, 8.5, new Date('2026-12-20T00:00:00Z'), '加急'],
        ['深沟球轴承 6204 导入', '30', '', '', ''],
        [],
      ]),
    );
    expect(good.status).toBe(200);
    expect(good.body.result).toMatchObject({ total: 2, errors: [] });
    expect(good.body.result.lines).toEqual([
      expect.objectContaining({
        materialId: m.id,
        materialName: m.name,
        quantity: '120',
        unitPrice: '8.5',
        deliveryDate: '2026-12-20',
        remark: '加急',
      }),
      expect.objectContaining({ materialId: m.id, quantity: '30' }),
    ]);
    const after = await t.call('GET', '/api/v1/sale-order/page', {
      token,
      query: { pageNum: 1, pageSize: 1 },
    });
    expect(after.body.result.total).toBe(before.body.result.total);

    const bad = await post(
      'sale-order',
      await sheet([
        ['*产品', '*数量'],
        ['LI-6204', 5],
        ['没有这个产品', 5],
        ['LI-6204', -2],
      ]),
    );
    expect(bad.status).toBe(200);
    expect(bad.body.result.lines).toEqual([]);
    expect(bad.body.result.errors).toEqual([
      { row: 3, column: '产品', message: expect.stringMatching(/找不到产品「没有这个产品」/) },
      { row: 4, column: '数量', message: expect.any(String) },
    ]);
    const noColumn = await post('sale-order', await sheet([['数量'], [1]]));
    expect(noColumn).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/缺少必填列：产品/) },
    });
  });

  it('needs the add or edit permission of the document and offers a template of the editable line columns', async () => {
    const viewer = await t.userWith(['sale:order:list'], 'line-import-viewer');
    expect((await post('sale-order', await sheet([['*产品', '*数量']]), viewer.token)).status).toBe(403);
    const tpl = await t.call('GET', '/api/v1/purchase-order/importLinesTemplate', { token });
    expect(tpl.status).toBe(200);
    const wb = await downloadWorkbook(t, token, tpl.body.result.fileName);
    const header = (wb.worksheets[0].getRow(1).values as unknown[]).filter(Boolean);
    expect(header).toEqual(['*物料', '*数量', '单位', '含税单价(元)', '交货日期', '备注']);
  });

  it('reads the lines of a warehouse document for a keeper granted one kind of it', async () => {
    const f = factory(t, async () => token);
    const m = await f.create('material-info', { code: 'LI-RING', name: '6204 内圈 导入' });
    const keeper = await t.userWith(
      ['warehouse:purchaseInbound:list', 'warehouse:purchaseInbound:add'],
      'line-import-keeper',
    );
    const read = await post(
      'stock-inbound',
      await sheet([
        ['*物料', '*数量', '批次号'],
        ['LI-RING', 40, 'B-1'],
      ]),
      keeper.token,
    );
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({
      total: 1,
      errors: [],
      lines: [expect.objectContaining({ materialId: m.id, materialName: expect.stringContaining(m.name) })],
    });
    const looker = await t.userWith(['warehouse:purchaseInbound:list'], 'line-import-looker');
    expect((await post('stock-inbound', await sheet([['*物料', '*数量']]), looker.token)).status).toBe(403);
  });
});
