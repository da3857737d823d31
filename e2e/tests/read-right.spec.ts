import type { Locator } from '@playwright/test';
import { Api, activePage, choose, expect, type Page, shot, signedIn, test, unique } from './support.ts';

/**
 * Issue 35, "Wrong where people read it": the numbers and columns people read are the right ones,
 * in the right units, and on screen at 1440×900.
 */

interface Row {
  id: number;
  [key: string]: any;
}

test.describe('送货单', () => {
  test('a 销售出库 prints the order’s unit and tax-inclusive price, and the customer’s address', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('DN');
    const type = await first('/api/v1/material-type/page');
    const set = await admin.post<Row>('/api/v1/material-unit/add', { code: `${code}S`, name: `套${code}` });
    const box = await admin.post<Row>('/api/v1/material-unit/add', { code: `${code}B`, name: `箱${code}` });
    const bearing = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `深沟球轴承 6205 ${code}`,
      materialTypeId: type.id,
      unitId: set.id,
      standardCost: '4.4',
      unitConversions: [{ unitId: box.id, baseQuantity: '10' }],
    });
    const customer = await admin.post<Row>('/api/v1/customer/add', {
      code: `C${code}`,
      name: `送货单客户 ${code}`,
      address: '河南省洛阳市涧西区建设路 88 号',
      contact: '王工',
      phone: '0379-64561234',
    });
    // 5 箱 sold at 62.00 a 箱 (6.20 a 套), tax included; 3 箱 (30 套) go out on the 销售出库.
    const order = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-12-20',
      lines: [{ materialId: bearing.id, quantity: 5, unitId: box.id, unitPrice: '62' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${order.id}`, {});
    const line = (await admin.get<Row>(`/api/v1/sale-order/info/${order.id}`)).lines[0];
    const warehouse = await first('/api/v1/warehouse-management/page', { status: '1' });
    const draft = await admin.post<Row>('/api/v1/sale-order/ship', {
      warehouseId: warehouse.id,
      lines: [{ lineId: line.id, quantity: 30 }],
    });

    const keeper = await Api.login(request, 'wh01', 'demo123');
    await signedIn(page, keeper, `/warehouse-logistics/outbound-manage/sales-outbound-detail?id=${draft.id}`);
    await activePage(page).getByRole('button', { name: '打印送货单' }).click();
    const print = page.getByTestId('print-view');
    await expect(print.locator('.rm-print-docname')).toHaveText('送货单');
    await expect(print).toContainText(`送货单客户 ${code}`);
    await expect(print).toContainText('河南省洛阳市涧西区建设路 88 号');
    await expect(print).toContainText('王工');
    await expect(print).toContainText('0379-64561234');
    await expect(print).toContainText(order.docNo);
    const row = print.locator('tbody tr').first();
    // The unit the order was sold in, the quantity in it, the order's price and the amount.
    await expect(row.locator('td').nth(5)).toHaveText(`箱${code}`);
    await expect(row.locator('td').nth(6)).toHaveText('3');
    await expect(row.locator('td').nth(7)).toHaveText('62.00');
    await expect(row.locator('td').nth(8)).toHaveText('186.00');
    await expect(print.locator('tfoot')).toContainText(`3 箱${code}`);
    await expect(print).toContainText('壹佰捌拾陆元整');
    await expect(print).not.toContainText('基本单位');
    await expect(print).not.toContainText('4.40');
    await expect(print).toContainText('客户签收');
    await page.setViewportSize({ width: 1440, height: 900 });
    await shot(page, 'read-right-delivery-note');
  });
});

test.describe('quantities per unit', () => {
  test('库存报表 shows 库存数量 per unit — never one sum of kg, 件, g and 粒', async ({ page, request }) => {
    const fin = await Api.login(request, 'fin01', 'demo123');
    const report = await fin.get<Row>('/api/v1/finance-report/inventory-report', { groupBy: 'warehouse' });
    const units = report.totals.units.quantity as { unitName: string; quantity: string }[];
    expect(units.length, 'the demo stock is counted in several units').toBeGreaterThan(1);
    const text = (u: { unitName: string; quantity: string }) =>
      `${u.unitName} ${Number(u.quantity).toLocaleString('zh-CN', { maximumFractionDigits: 4 })}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signedIn(page, fin, '/finance-department/inventory-report');
    const stat = activePage(page)
      .getByTestId('report-totals')
      .locator('.ant-statistic')
      .filter({ hasText: '库存数量' });
    await expect(stat).toContainText(units.map(text).join(' · '));
    // The table's 合计: a line per unit.
    const total = activePage(page).locator('.ant-table-summary').getByTestId('units-quantity');
    await expect(total.locator('span')).toHaveText(units.map(text));
    await shot(page, 'read-right-inventory-report');
  });
});

/**
 * The header cells titled `titles` lie inside the table's visible width: not scrolled out of
 * its container and not under its fixed right-hand columns (操作), at the window's 1440 px.
 */
async function columnsInView(scope: Locator, titles: string[]) {
  const container = scope.locator('.ant-table-container').first();
  await expect(container).toBeVisible();
  const box = await container.boundingBox();
  if (!box) throw new Error('no table');
  let right = box.x + box.width;
  for (const fixed of await scope.locator('.ant-table-thead th.ant-table-cell-fix-right').all()) {
    const b = await fixed.boundingBox();
    if (b) right = Math.min(right, b.x);
  }
  for (const title of titles) {
    const cell = scope
      .locator('.ant-table-thead th')
      .filter({ hasText: new RegExp(`^\\s*\\*?\\s*${title.replace(/[()]/g, '\\$&')}\\s*$`) })
      .first();
    await expect(cell, `column ${title}`).toBeVisible();
    const c = await cell.boundingBox();
    if (!c) throw new Error(`no column ${title}`);
    const fixedItself = /ant-table-cell-fix-right/.test((await cell.getAttribute('class')) ?? '');
    const limit = fixedItself ? box.x + box.width : right;
    expect(c.x, `${title} starts inside the table`).toBeGreaterThanOrEqual(box.x - 1);
    expect(
      c.x + c.width,
      `${title} ends inside the table's visible width (${Math.round(limit)})`,
    ).toBeLessThanOrEqual(limit + 1);
    expect(c.x + c.width, `${title} ends inside the window`).toBeLessThanOrEqual(1440);
  }
}

const wide = async (page: Page) => page.setViewportSize({ width: 1440, height: 900 });

test.describe('key columns at 1440×900', () => {
  test('应收单: amounts and status', async ({ page, request }) => {
    await wide(page);
    await signedIn(
      page,
      await Api.login(request, 'fin01', 'demo123'),
      '/finance-department/receivable-management',
    );
    const list = activePage(page).getByTestId('page-receivable');
    await expect(list.locator('.ant-table-row').first()).toBeVisible();
    await columnsInView(list, [
      '单号',
      '客户',
      '业务日期',
      '到期日',
      '金额(元)',
      '未收款(元)',
      '状态',
      '操作',
    ]);
    await shot(page, 'read-right-receivables');
  });

  test('销售仓库: 欠发, 库存, 待出库', async ({ page, request }) => {
    await wide(page);
    await signedIn(page, await Api.login(request, 'sales01', 'demo123'), '/sale-manage/sales-warehouse');
    const table = activePage(page).getByTestId('sales-warehouse-table');
    await expect(table.locator('.ant-table-row').first()).toBeVisible();
    await columnsInView(activePage(page), [
      '订单号',
      '客户',
      '产品',
      '交货日期',
      '订购',
      '已发',
      '欠发',
      '待出库',
      '库存',
      '单位',
    ]);
    await shot(page, 'read-right-sales-warehouse');
  });

  test('生产委外: 发出 and 收回', async ({ page, request }) => {
    await wide(page);
    await signedIn(
      page,
      await Api.login(request, 'plan01', 'demo123'),
      '/production-department/produce-outsourcing',
    );
    await expect(activePage(page).locator('.ant-table-row').first()).toBeVisible();
    await columnsInView(activePage(page), [
      '流转卡',
      '状态',
      '产品',
      '工序',
      '到达',
      '发出',
      '收回',
      '供应商',
      '操作',
    ]);
    await shot(page, 'read-right-produce-outsourcing');
  });

  test('从请购单生成: 本次下单 and 供应商', async ({ page, request }) => {
    await wide(page);
    await signedIn(page, await Api.login(request, 'buy01', 'demo123'), '/purchase/purchase-manage');
    await activePage(page).getByRole('button', { name: '从请购单生成' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByTestId('requisition-open-lines')).toBeVisible();
    await columnsInView(dialog, [
      '请购单号',
      '物料',
      '需求日期',
      '请购',
      '已下单',
      '单位',
      '本次下单',
      '供应商',
    ]);
    await shot(page, 'read-right-requisition-picker');
  });

  test('从销售订单生成: 本次生产', async ({ page, request }) => {
    await wide(page);
    await signedIn(
      page,
      await Api.login(request, 'plan01', 'demo123'),
      '/production-department/production-manage/production-order',
    );
    await activePage(page).getByRole('button', { name: '从销售订单生成' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByTestId('sale-open-lines')).toBeVisible();
    await columnsInView(dialog, [
      '销售订单号',
      '客户',
      '产品',
      '交货日期',
      '订购',
      '已计划',
      '单位',
      '本次生产',
      'BOM',
    ]);
    await shot(page, 'read-right-sale-line-picker');
  });

  test('销售订单 form: unit, price and amount show as the line is typed, as saving sets them', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('SF');
    const type = await first('/api/v1/material-type/page');
    const set = await admin.post<Row>('/api/v1/material-unit/add', { code: `${code}S`, name: `套${code}` });
    await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `表单轴承 ${code}`,
      materialTypeId: type.id,
      unitId: set.id,
      salePrice: '6.2',
    });
    const customer = await first('/api/v1/customer/page', { state: '1' });
    await wide(page);
    await signedIn(page, await Api.login(request, 'sales01', 'demo123'), '/sale-manage/sale-order-add');
    await choose(page, 'rk-sale-order_customerId', customer.name);
    await choose(page, 'rk-sale-order_lines_0_materialId', code);
    await page.locator('#rk-sale-order_lines_0_quantity').fill('50');
    const lines = activePage(page).getByTestId('lines-lines');
    const row = lines.locator('.ant-table-row').first();
    // This product has no order of this customer: its sale price, 6.20 a 套; 50 × 6.20 = 310.00.
    await expect(row).toContainText(`套${code}`);
    await expect(page.locator('#rk-sale-order_lines_0_unitPrice')).toHaveValue(/^6\.20?$/);
    await expect(row).toContainText('310.00');
    await columnsInView(lines, ['产品', '数量', '单位', '含税单价(元)', '含税金额(元)']);
    await shot(page, 'read-right-sale-order-form');
  });
});

test.describe('landings', () => {
  test('each demo role lands where its daily work is', async ({ page, request }) => {
    const admin = await Api.login(request);
    const drafts = async (url: string) =>
      (await admin.get<{ total: number }>(url, { status: 'draft', pageSize: 1 })).total;
    const outbound = await drafts('/api/v1/stock-outbound/page');
    const inbound = await drafts('/api/v1/stock-inbound/page');
    // 仓管员: the documents waiting for him — 出库 drafts first, then 入库 drafts.
    const keeper = outbound
      ? /\/warehouse-logistics\/outbound-manage\?status=draft$/
      : inbound
        ? /\/warehouse-logistics\/warehouse-manage\?status=draft$/
        : /\/warehouse-logistics\/outbound-manage$/;
    const expected: [string, string, RegExp][] = [
      ['wh01', 'demo123', keeper],
      ['plan01', 'demo123', /\/production-department\/production-manage\/production-order(\?status=draft)?$/],
      [
        'head01',
        'demo123',
        /\/production-department\/production-manage\/machine\/[\w-]+(\?status=pending)?$/,
      ],
      ['qc01', 'demo123', /\/home\/info$/],
      ['fin01', 'demo123', /\/finance-department\/receivable-management(\?status=open,partly)?$/],
      ['buy01', 'demo123', /\/purchase\/purchase-manage$/],
      ['sales01', 'demo123', /\/sale-manage\/sale-order$/],
      ['op01', 'demo123', /\/production-department\/production-manage\/machine\/operator-task$/],
      ['eq01', 'demo123', /\/factory-info\/equipment-manage\//],
      ['admin', 'admin123', /\/sale-manage\/sale-order$/],
    ];
    await wide(page);
    for (const [user, password, url] of expected) {
      await page.context().clearCookies();
      await page.goto('/login');
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.goto('/login');
      await page.locator('#userName').fill(user);
      await page.locator('#passWord').fill(password);
      await page.locator('button[type=submit]').click();
      await expect(page, `${user} lands on ${url}`).toHaveURL(url);
      await expect(page.getByTestId('top-menu')).toBeVisible();
      await expect(activePage(page)).toBeVisible();
      await shot(page, `read-right-landing-${user}`);
    }
    expect(page.url()).not.toContain('/purchase/outsourcing-rejected');
  });
});
