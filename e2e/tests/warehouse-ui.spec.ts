import ExcelJS from 'exceljs';
import {
  Api,
  activePage,
  confirmIn,
  expect,
  noOpenDropdown,
  type Page,
  rows,
  signedIn,
  test,
  toast,
  unique,
} from './support.ts';

/**
 * What a first-time user sees on the warehouse screens (issue 9 §4): base quantities and 可用
 * while typing a document, the reason a 过账 failed, totals per unit, lists that fit 1,440 px,
 * and phone and tablet layouts.
 */

interface Row {
  id: number;
  code: string;
  name: string;
}

async function pick(page: Page, inputId: string, text: string) {
  const input = activePage(page).locator(`#${inputId}`);
  await noOpenDropdown(page);
  await input.click();
  await input.pressSequentially(text);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: text })
    .first()
    .click();
}

async function byCode(api: Api, resource: string, code: string): Promise<Row> {
  const page = await api.get<{ list: Row[] }>(`/api/v1/${resource}/page`, { pageNum: 0 });
  const row = page.list.find((r) => r.code === code);
  if (!row) throw new Error(`${resource} ${code} not in the demo data`);
  return row;
}

/** A box of a new material holds 50 个; 120 个 of it are in 原材料仓 under a new batch. */
async function boxedMaterial(api: Api) {
  const [box, each, warehouse, steel] = await Promise.all([
    byCode(api, 'material-unit', 'BOX'),
    byCode(api, 'material-unit', 'EA'),
    byCode(api, 'warehouse-management', 'WH-RM'),
    api.get<{ materialTypeId: number }>('/api/v1/material-info/info/1'),
  ]);
  const code = unique('BX-');
  const material = await api.post<Row>('/api/v1/material-info/add', {
    code,
    name: `装箱垫圈${code}`,
    materialTypeId: steel.materialTypeId,
    unitId: each.id,
    unitConversions: [{ unitId: box.id, baseQuantity: '50' }],
  });
  const batch = unique('BX');
  const inbound = await api.post<{ id: number }>('/api/v1/stock-inbound/add', {
    type: 'other',
    warehouseId: warehouse.id,
    lines: [{ materialId: material.id, quantity: 120, batchNo: batch, unitPrice: 1 }],
  });
  await api.post(`/api/v1/stock-inbound/post/${inbound.id}`);
  return { material: { ...material, code }, warehouse, box, batch };
}

/** Horizontal overflow of the active page's table: scroll width minus visible width. */
async function tableOverflow(page: Page, root = activePage(page)) {
  const content = root.locator('.ant-table-content, .ant-table-body').first();
  await expect(content).toBeVisible();
  return content.evaluate((el) => el.scrollWidth - el.clientWidth);
}

test.describe('warehouse screens for a first-time user', () => {
  let api: Api;
  test.beforeEach(async ({ request }) => {
    api = await Api.login(request);
  });

  test('an outbound draft shows base quantities, 合计 and 可用 as you type, and warns above 可用', async ({
    page,
  }) => {
    const { material, batch } = await boxedMaterial(api);
    await signedIn(page, api, '/warehouse-logistics/outbound-manage/other-outbound-add');
    const form = 'wh-stock-outbound';
    const here = activePage(page);
    await pick(page, `${form}_warehouseId`, 'WH-RM');
    await pick(page, `${form}_lines_0_materialId`, material.code);
    await expect(here.getByTestId('line-0-available')).toHaveText('120 个');
    await here.getByLabel('第1行数量').fill('2');
    await expect(here.getByTestId('line-0-base')).toHaveText('2 个');
    await pick(page, `${form}_lines_0_unitId`, '箱');
    await expect(here.getByTestId('line-0-base')).toHaveText('100 个');
    await expect(here.getByTestId('line-totals')).toContainText('100 个');
    // A batch narrows 可用 to that batch; an unknown batch holds nothing.
    await here.getByLabel('第1行批次号').fill(`${batch}-X`);
    await expect(here.getByTestId('line-0-available')).toHaveText('0 个');
    await here.getByLabel('第1行批次号').fill(batch);
    await expect(here.getByTestId('line-0-available')).toHaveText('120 个');

    // 3 箱 = 150 个 > 120: a warning naming the line; 返回修改 keeps the form.
    await here.getByLabel('第1行数量').fill('3');
    await expect(here.getByTestId('line-0-available')).toHaveClass(/wh-loss/);
    await here.getByRole('button', { name: /保\s*存/ }).click();
    const warning = page.locator('.ant-modal-confirm:visible');
    await expect(warning).toContainText('第1行超过可用库存');
    await expect(warning.getByTestId('shortage-warning')).toContainText('需要 150 个，可用 120 个');
    await warning.getByRole('button', { name: '返回修改' }).click();
    await expect(page).toHaveURL(/other-outbound-add/);

    await here.getByLabel('第1行数量').fill('2');
    await here.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page).toHaveURL(/other-outbound-detail\?id=\d+/);
    const lines = activePage(page).getByTestId('detail-stock-outbound');
    await expect(lines.locator('.ant-table-row').first()).toContainText('100');
    await expect(lines.getByTestId('total-quantity')).toHaveText('基本单位数量合计100 个');
  });

  test('导入明细 on an outbound: the sheet’s lines replace the blank one, in the unit it names', async ({
    page,
  }) => {
    const { material, batch } = await boxedMaterial(api);
    await signedIn(page, api, '/warehouse-logistics/outbound-manage/other-outbound-add');
    const here = activePage(page);
    await pick(page, 'wh-stock-outbound_warehouseId', 'WH-RM');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('明细');
    ws.addRow(['*物料', '*数量', '单位', '批次号']);
    ws.addRow([material.code, 2, '箱', batch]);
    await here.locator('.rk-lines-foot input[type=file]').setInputFiles({
      name: '出库明细.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await wb.xlsx.writeBuffer()),
    });
    await expect(toast(page, /已导入 1 行/)).toBeVisible();
    await expect(here.getByLabel('第1行数量')).toHaveValue(/^2(\.0+)?$/);
    await expect(here.getByLabel('第2行数量')).toHaveCount(0);
    await expect(here.getByTestId('line-0-base')).toHaveText('100 个');
    await here.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page).toHaveURL(/other-outbound-detail\?id=\d+/);
    const saved = await api.get<{ lines: { materialId: number; baseQuantity: string; batchNo: string }[] }>(
      `/api/v1/stock-outbound/info/${new URL(page.url()).searchParams.get('id')}`,
    );
    expect(saved.lines).toEqual([
      expect.objectContaining({ materialId: material.id, baseQuantity: '100.0000', batchNo: batch }),
    ]);
  });

  test('a refused 过账 leaves its reason on the document', async ({ page, guard }) => {
    guard.allow(/status of 409/);
    const { material, warehouse } = await boxedMaterial(api);
    const draft = await api.post<{ id: number }>('/api/v1/stock-outbound/add', {
      type: 'other',
      warehouseId: warehouse.id,
      lines: [{ materialId: material.id, quantity: 1000 }],
    });
    await signedIn(page, api, `/warehouse-logistics/outbound-manage/other-outbound-detail?id=${draft.id}`);
    await activePage(page)
      .getByRole('button', { name: /过\s*账/ })
      .click();
    await confirmIn(page, '过账');
    await expect(toast(page, /库存不足/)).toBeVisible();
    const reason = activePage(page).getByTestId('post-error');
    await expect(reason).toContainText('过账失败');
    await expect(reason).toContainText(`可用 120，需要 1000`);
    // Still there once the toast is gone.
    await expect(toast(page, /库存不足/)).toHaveCount(0, { timeout: 10_000 });
    await expect(reason).toBeVisible();
  });

  test('库存明细 totals each unit apart, one figure when one unit is shown', async ({ page }) => {
    const { batch } = await boxedMaterial(api);
    await signedIn(page, api, '/warehouse-logistics/inventory-details');
    const totals = activePage(page).getByTestId('total-quantity');
    const units = totals.locator('.wh-unit-total');
    await expect.poll(() => units.count()).toBeGreaterThan(1);
    const names = (await units.allInnerTexts()).map((t) => t.replace(/[\d,.\s；]/g, ''));
    expect(new Set(names).size).toBe(names.length);
    await activePage(page).locator('#wh-balance_batchNo').fill(batch);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(rows(page)).toHaveCount(1);
    await expect(totals).toHaveText('数量合计120 个');
  });

  test('at 1,440 px lists and the ledger drawer fit without hiding key columns', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signedIn(page, api, '/warehouse-logistics/outbound-manage');
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
    const actions = await activePage(page).locator('thead th').filter({ hasText: '操作' }).boundingBox();
    for (const title of ['业务日期', '状态']) {
      const box = await activePage(page).locator('thead th').filter({ hasText: title }).boundingBox();
      expect(box && actions && box.x + box.width <= actions.x, `${title} left of 操作`).toBe(true);
    }
    const heads = await activePage(page).locator('thead th').allInnerTexts();
    const date = rows(page)
      .first()
      .locator('td')
      .nth(heads.findIndex((h) => h.includes('业务日期')));
    await expect(date).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    expect(await date.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    await page.goto('/warehouse-logistics/inventory-details');
    await rows(page).first().click();
    const drawer = page.locator('.ant-drawer:visible').getByTestId('material-ledger');
    await expect(drawer.locator('.ant-table-row').first()).toBeVisible();
    expect(await tableOverflow(page, drawer)).toBeLessThanOrEqual(0);
    const edge = await drawer.boundingBox();
    for (const title of ['结存', '金额', '操作人']) {
      const box = await drawer
        .locator('thead th')
        .filter({ hasText: new RegExp(`^${title}$`) })
        .boundingBox();
      expect(box && edge && box.x + box.width <= edge.x + edge.width, `${title} inside the drawer`).toBe(
        true,
      );
    }
  });

  test('on a phone: 更多菜单 whole, filters folded, a few columns, readable hints', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signedIn(page, api, '/warehouse-logistics/outbound-manage');
    const more = page.getByTestId('top-menu').getByText('更多菜单');
    await expect(more).toBeVisible();
    const moreBox = await more.boundingBox();
    const right = await page.locator('.rm-header-right').boundingBox();
    expect(moreBox && right && moreBox.x + moreBox.width <= right.x, '更多菜单 not under the icons').toBe(
      true,
    );
    expect(await more.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Filters: the first one and 展开; the rows start within the first screen.
    const search = activePage(page).locator('.rm-search');
    await expect(search.getByText('关键字')).toBeVisible();
    await expect(search.getByText('状态', { exact: true })).toBeHidden();
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    expect((await rows(page).first().boundingBox())?.y ?? 9999).toBeLessThan(844);
    await search.getByRole('button', { name: /展开/ }).click();
    await expect(search.getByText('状态', { exact: true })).toBeVisible();

    // The table: 单据编号, 状态 and 操作 in the screen's width.
    const heads = await activePage(page).locator('thead th').allInnerTexts();
    expect(heads.map((h) => h.trim()).filter(Boolean)).toEqual(['单据编号', '状态', '操作']);
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);

    // A toolbar hint keeps a readable width (not a character a line).
    await page.goto('/warehouse-logistics/inventory-details');
    const hint = activePage(page).locator('.rm-table-toolbar').getByText('点击行查看该物料的出入库流水');
    await expect(hint).toBeVisible();
    const box = await hint.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(120);
    expect(box?.height ?? 999).toBeLessThan(50);
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('on a tablet: lists fit the width and filters fold', async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await signedIn(page, api, '/factory-info/material-manage/material-list');
    const search = activePage(page).locator('.rk-search');
    await expect(search.getByRole('button', { name: /展开/ })).toBeVisible();
    await expect(search.locator('.ant-form-item-label:visible')).toHaveCount(1);
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
    await page.goto('/warehouse-logistics/outbound-manage/internal-requisition-outbound');
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    const heads = await activePage(page).locator('thead th').allInnerTexts();
    expect(heads.map((h) => h.trim()).filter(Boolean)).toEqual(['单据编号', '状态', '操作']);
    expect(await tableOverflow(page)).toBeLessThanOrEqual(0);
  });
});
