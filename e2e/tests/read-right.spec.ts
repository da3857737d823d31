import { Api, activePage, expect, shot, signedIn, test, unique } from './support.ts';

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
      unitConversions: [{ unitId: box.id, factor: '10' }],
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
