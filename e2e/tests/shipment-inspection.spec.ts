import {
  Api,
  activePage,
  confirmIn,
  expect,
  type Page,
  pageAt,
  rows,
  sidebar,
  signIn,
  test,
  toast,
  topMenu,
  unique,
} from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/**
 * 出货检验 with 系统设置's gate on (issue 35), through the UI alone once signed in: the keeper
 * (wh01) raises the shipment inspection from his 销售出库 draft, the inspector (qc01) finds it in
 * his list, enters the results and passes it, and the keeper posts the outbound. Setup (a product
 * in stock with its shipment template, the keeper's draft, the gate) goes through the API first.
 */
test.describe('shipment inspection', () => {
  test('wh01 raises it from his 销售出库, qc01 enters and passes it, wh01 posts the outbound', async ({
    page,
    request,
    guard,
  }) => {
    test.setTimeout(120_000);
    // 过账 before the inspection passed is refused (409) on purpose.
    guard.allow(/status of 409/);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('SH');
    const type = await first('/api/v1/material-type/page');
    const unit = await first('/api/v1/material-unit/page');
    const bearing = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `E2E 轴承 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    const warehouse = await first('/api/v1/warehouse-management/page', { type: 'finished' });
    const inbound = await admin.post<Row>('/api/v1/stock-inbound/add', {
      type: 'other',
      warehouseId: warehouse.id,
      lines: [{ materialId: bearing.id, quantity: 20 }],
    });
    await admin.post(`/api/v1/stock-inbound/post/${inbound.id}`, {});
    const od = await admin.post<Row>('/api/v1/inspection-item/add', {
      code: `OD-${code}`,
      name: `外径 D ${code}`,
      kind: 'measure',
      nominal: '52',
      upperTolerance: '0',
      lowerTolerance: '-0.011',
      unit: 'mm',
      samplingMode: 'fixed',
      sampleSize: 2,
    });
    const look = await admin.post<Row>('/api/v1/inspection-item/add', {
      code: `LK-${code}`,
      name: `外观与标识 ${code}`,
      kind: 'count',
      samplingMode: 'fixed',
      sampleSize: 2,
    });
    await admin.post('/api/v1/inspection-template/add', {
      code: `T-${code}`,
      name: `成品出货检验 ${code}`,
      productId: bearing.id,
      inspectionKind: 'shipment',
      items: [{ itemId: od.id }, { itemId: look.id }],
    });
    const customer = await first('/api/v1/customer/page', { state: '1' });
    const keeper = await Api.login(request, 'wh01', 'demo123');
    const draft = await keeper.post<Row>('/api/v1/stock-outbound/add', {
      type: 'sales',
      warehouseId: warehouse.id,
      customerId: customer.id,
      lines: [{ materialId: bearing.id, quantity: 10 }],
    });
    await admin.put('/api/v1/sysSetting/inspection', { shipmentInspectionRequired: true });
    try {
      // wh01: 仓储物流 › 出库管理 › 销售出库, his draft.
      await signIn(page, 'wh01', 'demo123');
      await openSalesOutbound(page, draft.docNo);
      const doc = activePage(page);
      await expect(doc.getByTestId('doc-no')).toHaveText(draft.docNo);
      await expect(doc.getByTestId('outbound-inspections')).toHaveText('未生成');
      // The gate: no 过账 before the shipment inspection passed.
      await doc.getByRole('button', { name: /过\s*账/ }).click();
      await confirmIn(page, '过账');
      await expect(doc.getByTestId('post-error')).toContainText('还没有出货检验');
      await doc.getByRole('button', { name: '生成出货检验' }).click();
      await expect(toast(page, /已生成 1 张出货检验单/)).toBeVisible();
      await expect(doc.getByTestId('outbound-inspections')).toContainText('待检验');
      const taskNo = ((await doc.getByTestId('outbound-inspections').innerText()).match(/JY\S+/) ?? [])[0];
      expect(taskNo).toBeTruthy();
      await signOut(page);

      // qc01: 质量检测 › 出货检验, the task from wh01's outbound → 录入结果.
      await signIn(page, 'qc01', 'demo123');
      await openTop(page, '质量检测');
      await sidebar(page).getByRole('menuitem', { name: '出货检验' }).click();
      await expect(page).toHaveURL(/\/quality-testing\/shipment-inspection$/);
      await pageAt(page, '/quality-testing/shipment-inspection');
      const task = rows(page).filter({ hasText: taskNo as string });
      await expect(task).toHaveCount(1);
      await task.getByRole('button', { name: '录入结果' }).click();
      await expect(page).toHaveURL(/\/quality-testing\/shipment-inspection-quality-testing\?id=\d+$/);
      const entry = await pageAt(page, '/quality-testing/shipment-inspection-quality-testing');
      await expect(entry).toContainText(`结果录入 ${taskNo}`);
      // The outbound it checks, read on the task (he has no warehouse pages).
      const checked = entry.getByTestId('checked-outbound');
      await expect(checked).toContainText(draft.docNo);
      await expect(checked).toContainText(customer.name);
      await expect(checked).toContainText(bearing.name);
      const grid = entry.getByTestId('entry-grid');
      await grid.getByTestId('cell-0-1').fill('51.995');
      await grid.getByTestId('cell-0-2').fill('51.992');
      await grid.getByTestId('cell-1-1').click();
      await grid.getByTestId('cell-1-2').click();
      await expect(grid.getByTestId('cell-1-2')).toHaveText('OK');
      await entry.getByRole('button', { name: /保\s*存/ }).click();
      await expect(toast(page, '已保存，自动判定：合格')).toBeVisible();
      await entry.getByRole('button', { name: '判定合格' }).click();
      await confirmIn(page, '判定合格');
      await expect(toast(page, '判定合格成功')).toBeVisible();
      await expect(entry).toContainText('检验单已判定或没有检验权限，结果只读');
      await signOut(page);

      // wh01 posts the outbound.
      await signIn(page, 'wh01', 'demo123');
      await openSalesOutbound(page, draft.docNo);
      const posted = activePage(page);
      await expect(posted.getByTestId('outbound-inspections')).toContainText('合格');
      await posted.getByRole('button', { name: /过\s*账/ }).click();
      await confirmIn(page, '过账');
      await expect(posted.locator('.wh-detail-head')).toContainText('已过账');
      expect((await admin.get<Row>(`/api/v1/stock-outbound/info/${draft.id}`)).status).toBe('posted');
    } finally {
      await admin.put('/api/v1/sysSetting/inspection', { shipmentInspectionRequired: false });
    }
  });
});

/** 仓储物流 › 出库管理 › 销售出库, then the document `docNo` from the list. */
async function openSalesOutbound(page: Page, docNo: string) {
  await openTop(page, '仓储物流');
  const side = sidebar(page);
  const item = side.getByRole('menuitem', { name: '销售出库', exact: true });
  if (!(await item.isVisible())) await side.getByText('出库管理', { exact: true }).click();
  await item.click();
  await expect(page).toHaveURL(/\/sales-outbound$/);
  // The landing page (出库单列表) has a 单据编号 search too: act only once 销售出库 is the page shown.
  const list = await pageAt(page, '/warehouse-logistics/outbound-manage/sales-outbound');
  await list.getByTestId('search-docNo').fill(docNo);
  await list.getByRole('button', { name: /搜\s*索/ }).click();
  const row = rows(page).filter({ hasText: docNo });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: docNo }).click();
  await expect(page).toHaveURL(/\/sales-outbound-detail\?id=\d+$/);
  await pageAt(page, '/warehouse-logistics/outbound-manage/sales-outbound-detail');
}

/** A top-level menu entry, from 更多菜单 when the bar has no room for it. */
async function openTop(page: Page, name: string) {
  const entry = topMenu(page).getByText(name, { exact: true });
  const more = topMenu(page).getByText('更多菜单');
  await expect(entry.or(more).first()).toBeVisible();
  if (await entry.isVisible()) return entry.click();
  await more.hover();
  await page.locator('.rm-topmenu-more').getByText(name, { exact: true }).click();
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/\/login$/);
}
