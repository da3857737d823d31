import {
  Api,
  activePage,
  confirmIn,
  expect,
  noOpenDropdown,
  type Page,
  rows,
  shot,
  signedIn,
  test,
  toast,
  unique,
} from './support.ts';

interface Option {
  value: number;
  label: string;
  code: string;
}

/** Opens an antd select by its input id, types, and picks the option containing `text`. */
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

/** The number of the document open on a detail page, once loaded. */
async function docNo(page: Page, prefix: string): Promise<string> {
  const el = activePage(page).getByTestId('doc-no');
  await expect(el).toHaveText(new RegExp(`^${prefix}\\d`));
  return ((await el.textContent()) ?? '').trim();
}

/** Posts the document open on the detail page and waits for 已过账. */
async function postOnDetail(page: Page) {
  await activePage(page)
    .getByRole('button', { name: /过\s*账/ })
    .first()
    .click();
  await confirmIn(page, '过账');
  await expect(toast(page, '过账成功')).toBeVisible();
  await expect(activePage(page).locator('.rm-card-title')).toContainText('已过账');
}

test.describe('warehouse flow', () => {
  let api: Api;
  let steel: Option;
  test.beforeEach(async ({ request }) => {
    api = await Api.login(request);
    const materials = await api.get<Option[]>('/api/v1/material-info/options', { keyword: 'RM-T-4560' });
    steel = materials.find((m) => m.code === 'RM-T-4560') as Option;
    expect(steel, 'demo material GCr15 RM-T-4560').toBeTruthy();
  });

  test('receive steel, issue to production, transfer, count with a difference; balances and ledger agree', async ({
    page,
    guard,
  }) => {
    test.setTimeout(240_000);
    guard.allow(/status of 409/);
    const batch = unique('HT');

    // 1. 采购入库 500 kg of a new heat into 原材料仓 / 钢管区 A01, then post.
    await signedIn(page, api, '/warehouse-logistics/warehouse-manage/purchase-warehousing');
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    await activePage(page).getByRole('button', { name: '新增采购入库单' }).click();
    await expect(page).toHaveURL(/purchase-warehousing-add/);
    const form = 'wh-stock-inbound';
    await pick(page, `${form}_warehouseId`, 'WH-RM');
    await pick(page, `${form}_lines_0_materialId`, steel.code);
    await activePage(page).getByLabel('第1行数量').fill('500');
    await pick(page, `${form}_lines_0_locationId`, 'RM-A01');
    await activePage(page).getByLabel('第1行批次号').fill(batch);
    await activePage(page).getByLabel('第1行单价').fill('6.1');
    await shot(page, 'wh-01-inbound-form');
    await activePage(page)
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page).toHaveURL(/purchase-warehousing-detail\?id=\d+/);
    const inboundNo = await docNo(page, 'RK');
    expect(inboundNo).toBeTruthy();
    await postOnDetail(page);
    await shot(page, 'wh-02-inbound-posted');

    // Print view: company, number and a QR code.
    await activePage(page).getByRole('button', { name: '打印' }).click();
    const print = page.getByTestId('print-view');
    await expect(print).toContainText('RingMES 轴承有限公司');
    await expect(print).toContainText(inboundNo);
    await expect(print.locator('.rm-print-qr svg')).toBeVisible();
    await expect(print).toContainText('仓管');
    await shot(page, 'wh-03-print');
    await print.getByRole('button', { name: '关闭' }).click();

    // 2. 领料出库 200 kg of that heat, posted from the list's row action.
    await page.goto('/warehouse-logistics/outbound-manage/internal-requisition-outbound-add');
    const out = 'wh-stock-outbound';
    await pick(page, `${out}_warehouseId`, 'WH-RM');
    await pick(page, `${out}_lines_0_materialId`, steel.code);
    await activePage(page).getByLabel('第1行数量').fill('200');
    await pick(page, `${out}_lines_0_locationId`, 'RM-A01');
    await activePage(page).getByLabel('第1行批次号').fill(batch);
    await activePage(page)
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page).toHaveURL(/internal-requisition-outbound-detail\?id=\d+/);
    const outboundNo = await docNo(page, 'CK');
    await page.goto('/warehouse-logistics/outbound-manage/internal-requisition-outbound');
    // The draft is found by its line's material (and status), not by the ledger.
    await activePage(page).getByRole('button', { name: /展开/ }).click();
    await pick(page, 'rk-search-stock-outbound_materialId', steel.code);
    await pick(page, 'rk-search-stock-outbound_status', '草稿');
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(rows(page).filter({ hasText: outboundNo })).toContainText('草稿');
    await activePage(page)
      .getByRole('button', { name: /重\s*置/ })
      .click();
    await activePage(page).getByTestId('search-docNo').fill(outboundNo);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const outRow = rows(page).filter({ hasText: outboundNo });
    await expect(outRow).toContainText('草稿');
    await outRow.getByRole('button', { name: '过账' }).click();
    await confirmIn(page, '过账');
    await expect(toast(page, '过账成功')).toBeVisible();
    await expect(outRow).toContainText('已过账');
    await expect(outRow.getByRole('button', { name: '删除' })).toHaveCount(0);
    await shot(page, 'wh-04-outbound-list');

    // 3. Over-issue: 10,000 kg of a heat holding 300 is refused with 库存不足.
    const over = await api.post<{ id: number; docNo: string }>('/api/v1/stock-outbound/add', {
      type: 'requisition',
      warehouseId: 1,
      lines: [{ materialId: steel.value, quantity: 10000, batchNo: batch }],
    });
    await page.goto(
      `/warehouse-logistics/outbound-manage/internal-requisition-outbound-detail?id=${over.id}`,
    );
    await activePage(page)
      .getByRole('button', { name: /过\s*账/ })
      .click();
    await confirmIn(page, '过账');
    await expect(toast(page, /库存不足/)).toBeVisible();
    await expect(activePage(page).locator('.rm-card-title')).toContainText('草稿');

    // 4. 调拨 100 kg to 半成品仓.
    await page.goto('/warehouse-logistics/warehouse-allot-panel');
    const tf = 'rk-stock-transfer';
    await pick(page, `${tf}_fromWarehouseId`, 'WH-RM');
    await pick(page, `${tf}_toWarehouseId`, 'WH-SF');
    await pick(page, `${tf}_lines_0_materialId`, steel.code);
    await activePage(page).getByLabel('第1行数量').fill('100');
    await pick(page, `${tf}_lines_0_fromLocationId`, 'RM-A01');
    await pick(page, `${tf}_lines_0_toLocationId`, 'SF-A01');
    await activePage(page).getByLabel('第1行批次号').fill(batch);
    await activePage(page)
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(page).toHaveURL(/warehouse-allot-detail\?id=\d+/);
    const transferNo = await docNo(page, 'DB');
    await postOnDetail(page);

    // 5. 盘点 原材料仓: the heat's book 200, counted 190 → loss of 10.
    await page.goto('/warehouse-logistics/inventory-manage');
    await activePage(page).getByRole('button', { name: '新增盘点单' }).click();
    const modal = page.getByRole('dialog', { name: '新增盘点单' });
    await modal.locator('#wh-new-stocktake_warehouseId').click();
    await modal.locator('#wh-new-stocktake_warehouseId').pressSequentially('WH-RM');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'WH-RM' })
      .click();
    await modal.getByRole('button', { name: '创建并取数' }).click();
    await expect(page).toHaveURL(/inventory-manage-detail\?id=\d+/);
    const countRow = activePage(page)
      .getByTestId('stocktake-lines')
      .locator('.ant-table-row')
      .filter({ hasText: batch });
    await expect(countRow).toContainText('200');
    const countInput = countRow.getByRole('spinbutton');
    await countInput.fill('190');
    await expect(countRow).toContainText('-10');
    await activePage(page).getByRole('button', { name: '保存实盘' }).click();
    await expect(toast(page, '实盘数量已保存')).toBeVisible();
    await shot(page, 'wh-05-stocktake');
    const stocktakeNo = await docNo(page, 'PD');
    await postOnDetail(page);
    // The difference report: the one counted line that differs, valued at its posted cost.
    await activePage(page).getByRole('button', { name: '差异报告' }).click();
    await expect(page).toHaveURL(/inventory-detail\?id=\d+/);
    await expect(activePage(page).getByTestId('doc-no')).toHaveText(stocktakeNo);
    const report = activePage(page).getByTestId('difference-report');
    const differing = report.locator('.ant-table-row');
    await expect(differing).toHaveCount(1);
    await expect(differing.first()).toContainText(batch);
    await expect(differing.first()).toContainText('-10');
    const netCell = report.getByTestId('difference-net').locator('.ant-statistic-content');
    await expect(netCell).toHaveText(/^-[\d,]+\.\d{2}$/);
    await expect(differing.first().locator('td').last()).toHaveText(
      ((await netCell.textContent()) ?? '').trim(),
    );
    await shot(page, 'wh-05b-difference-report');
    const downloading = page.waitForEvent('download');
    await activePage(page)
      .getByRole('button', { name: /导\s*出/ })
      .click();
    expect((await downloading).suggestedFilename()).toMatch(/盘点差异表-PD[\d-]+\.xlsx$/);

    // 6. 库存明细: 190 in 原材料仓 + 100 in 半成品仓 = 290; the ledger shows every move.
    await page.goto('/warehouse-logistics/inventory-details');
    await activePage(page).locator('#wh-balance_batchNo').fill(batch);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(rows(page)).toHaveCount(2);
    await expect(activePage(page).getByTestId('total-quantity')).toHaveText('数量合计290 kg');
    await expect(rows(page).filter({ hasText: '原材料仓' })).toContainText('190');
    await expect(rows(page).filter({ hasText: '半成品仓' })).toContainText('100');
    await shot(page, 'wh-06-inventory-details');
    await rows(page).filter({ hasText: '原材料仓' }).click();
    const drawer = page.locator('.ant-drawer:visible');
    const ledger = drawer.getByTestId('material-ledger');
    for (const no of [inboundNo, outboundNo, transferNo, stocktakeNo]) await expect(ledger).toContainText(no);
    await expect(ledger).not.toContainText(over.docNo);
    const moves = ledger.locator('.ant-table-row');
    await expect(moves.filter({ hasText: inboundNo })).toContainText('+500');
    await expect(moves.filter({ hasText: outboundNo })).toContainText('-200');
    await expect(moves.filter({ hasText: stocktakeNo })).toContainText('-10');
    // The newest move's 结存 is the balance shown above the list (both summed on the server).
    const balance = ((await ledger.getByTestId('ledger-balance').textContent()) ?? '').trim();
    expect(Number(balance.replace(/,/g, ''))).toBeGreaterThanOrEqual(190);
    await expect(moves.first().locator('td.ant-table-cell').nth(7)).toHaveText(balance);
    await shot(page, 'wh-07-ledger-drawer');
  });

  test('document lists sort on the server by 业务日期, both ways, from page 1', async ({ page }) => {
    await signedIn(page, api, '/warehouse-logistics/outbound-manage/internal-requisition-outbound');
    await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
    const header = activePage(page).locator('th').filter({ hasText: '业务日期' });
    const heads = await activePage(page).locator('thead th').allInnerTexts();
    const column = heads.findIndex((h) => h.includes('业务日期')) + 1;
    expect(column).toBeGreaterThan(0);
    const dates = async () => {
      const texts = await rows(page).locator(`td:nth-child(${column})`).allInnerTexts();
      return texts.filter((t) => /^\d{4}-\d{2}-\d{2}$/.test(t.trim())).map((t) => t.trim());
    };
    const sorted = async (order: 'asc' | 'desc') => {
      await expect
        .poll(async () => {
          const d = await dates();
          const want = [...d].sort();
          if (order === 'desc') want.reverse();
          return d.length > 1 && d.join() === want.join();
        })
        .toBe(true);
    };
    await header.click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await sorted('asc');
    await header.click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await sorted('desc');
    await expect(activePage(page).locator('.ant-pagination-item-active')).toHaveText('1');
  });
});
