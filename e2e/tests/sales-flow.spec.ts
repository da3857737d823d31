import ExcelJS from 'exceljs';
import {
  Api,
  activePage,
  choose,
  confirmIn,
  date,
  expect,
  signedIn,
  signIn,
  test,
  toast,
} from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

test.describe('sales order flow', () => {
  test('销售员 enters an order, the server prices it, approves it; it is locked; then closes it with a reason', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const customer = (await admin.get<{ list: Row[] }>('/api/v1/customer/page', { state: '1', pageSize: 1 }))
      .list[0];
    // Products with a sale price and no other order from this customer: their price is the sale price.
    const priced = (
      await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { pageSize: 50, sortField: 'code' })
    ).list.filter((m) => m.salePrice && Number(m.salePrice) > 0) as Row[];
    const [product, second] = priced;
    expect(second).toBeTruthy();

    await signIn(page, 'sales01', 'demo123');
    await page.goto('/sale-manage/sale-order');
    await activePage(page).getByRole('button', { name: '新增销售订单' }).click();
    await expect(page).toHaveURL(/\/sale-manage\/sale-order-add$/);

    // Inline validation before anything is sent.
    await activePage(page)
      .getByRole('button', { name: /保\s*存$/ })
      .click();
    await expect(
      activePage(page).locator('.ant-form-item-explain-error').filter({ hasText: '请选择客户' }),
    ).toBeVisible();

    await choose(page, 'rk-sale-order_customerId', customer.name);
    await date(page, 'rk-sale-order_orderDate', '2026-11-20');
    await date(page, 'rk-sale-order_deliveryDate', '2026-12-20');
    await choose(page, 'rk-sale-order_lines_0_materialId', product.code);
    await page.locator('#rk-sale-order_lines_0_quantity').fill('12');
    // 导入明细: a second line from a sheet, matched by the product's code.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('明细');
    ws.addRow(['*产品', '*数量', '备注']);
    ws.addRow([second.code, 8, '表格导入']);
    await activePage(page)
      .getByTestId('lines-lines')
      .locator('input[type=file]')
      .setInputFiles({
        name: '销售明细.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await wb.xlsx.writeBuffer()),
      });
    await expect(toast(page, /已导入 1 行/)).toBeVisible();
    await expect(page.locator('#rk-sale-order_lines_1_quantity')).toHaveValue(/^8(\.0+)?$/);
    await activePage(page)
      .getByRole('button', { name: /保\s*存$/ })
      .click();
    await expect(toast(page, /成功/)).toBeVisible();

    const saved = (
      await admin.get<{ list: Row[] }>('/api/v1/sale-order/page', {
        customerId: customer.id,
        sortField: 'id',
        sortOrder: 'desc',
        pageSize: 1,
      })
    ).list[0];
    expect(saved.docNo).toMatch(/^XS20261120-\d{4}$/);
    expect(saved.status).toBe('draft');
    const order = await admin.get<Row>(`/api/v1/sale-order/info/${saved.id}`);
    expect(Number(order.amount)).toBeGreaterThan(0);

    await page.goto(`/sale-manage/sale-order-detail?id=${saved.id}`);
    const detail = activePage(page);
    await expect(detail.getByText(saved.docNo).first()).toBeVisible();
    await expect(detail.getByRole('button', { name: /编\s*辑/ })).toBeVisible();
    // The A4 printout: number and QR code, both lines, the amount total.
    expect(order.lines).toHaveLength(2);
    // 打印 (the fixed A4), not 模板打印.
    await detail
      .getByRole('button', { name: /打\s*印/ })
      .filter({ hasNotText: '模板' })
      .click();
    const print = page.getByTestId('print-view');
    await expect(print.locator('.rm-print-no')).toContainText(saved.docNo);
    await expect(print.locator('.rm-print-qr svg')).toBeVisible();
    await expect(print.locator('tbody tr')).toHaveCount(2);
    await expect(print.locator('tbody')).toContainText('表格导入');
    await expect(print.locator('tfoot')).toContainText(
      Number(order.amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    );
    await print.getByRole('button', { name: /关\s*闭/ }).click();
    await expect(print).toHaveCount(0);
    await detail.getByTestId('transition-approve').click();
    await expect(toast(page, '审核成功')).toBeVisible();
    await expect(detail.locator('.ant-tag').filter({ hasText: '已审核' }).first()).toBeVisible();
    // Approved: no more editing; 反审核 and 关闭 are offered instead.
    await expect(detail.getByRole('button', { name: /编\s*辑/ })).toHaveCount(0);
    await expect(detail.getByTestId('transition-unapprove')).toBeVisible();

    await detail.getByTestId('transition-close').click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.locator('textarea')).toBeVisible();
    // 关闭 without a reason is refused in the dialog. (Once in CI the first click, on a dialog still
    // opening, left no message: clicked again until it shows.)
    await expect(async () => {
      await dialog
        .locator('.ant-modal-footer')
        .getByRole('button', { name: /关\s*闭/ })
        .click();
      await expect(dialog.getByText('请填写关闭原因')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await dialog.locator('textarea').fill('客户取消');
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();
    await expect(toast(page, '关闭成功')).toBeVisible();
    await expect(detail.locator('.ant-tag').filter({ hasText: '已关闭' }).first()).toBeVisible();
    expect((await admin.get<Row>(`/api/v1/sale-order/info/${saved.id}`)).statusReason).toBe('客户取消');
  });

  test('销售员 ships an approved order from 销售仓库; the keeper posts the 销售出库; the order is completed', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    // A product with qualified stock in some warehouse.
    const stock = (
      await admin.get<{ list: Row[] }>('/api/v1/stock-balance/page', {
        qualityStatus: 'qualified',
        pageSize: 100,
      })
    ).list.find((b) => Number(b.quantity) >= 5) as Row;
    expect(stock).toBeTruthy();
    const customer = (await admin.get<{ list: Row[] }>('/api/v1/customer/page', { state: '1', pageSize: 1 }))
      .list[0];
    const created = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-11-30',
      lines: [{ materialId: stock.materialId, quantity: 3, unitPrice: '10' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${created.id}`, {});

    // The customer's technical agreement goes on the approved order.
    await signIn(page, 'sales01', 'demo123');
    await page.goto(`/sale-manage/sale-order-detail?id=${created.id}`);
    const attach = activePage(page).getByTestId('sale-order-attachments');
    await expect(attach.getByTestId('sale-order-attachment-upload')).toBeVisible();
    await attach.locator('input[type=file]').setInputFiles({
      name: '客户技术协议.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('E2E 技术协议'),
    });
    await expect(attach.getByTestId('attachment-客户技术协议.txt')).toBeVisible();

    await page.goto('/sale-manage/sales-warehouse');
    const sw = activePage(page);
    await sw.locator('#sale-wh_docNo').fill(created.docNo);
    await sw.getByRole('button', { name: /搜\s*索/ }).click();
    const row = sw.locator('.ant-table-row').filter({ hasText: created.docNo });
    await expect(row).toHaveCount(1);
    await row.locator('.ant-checkbox-input').check();
    await sw.getByRole('button', { name: /发货（1 行）/ }).click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.locator('#sale-ship_warehouseId').click();
    await dialog.locator('#sale-ship_warehouseId').fill(stock.warehouseName);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: stock.warehouseName })
      .first()
      .click();
    await expect(dialog.getByLabel('第 1 行发货数量')).toHaveValue('3.0000');
    await dialog.getByRole('button', { name: '生成销售出库单' }).click();
    await expect(toast(page, /已生成销售出库单 CK/)).toBeVisible();
    // The salesperson stays on 销售仓库 (posting is the keeper's); the line shows 3 待出库.
    await expect(row.locator('.ant-tag').filter({ hasText: /^3$/ })).toBeVisible();
    // 导出: the searched lines as a workbook.
    const downloaded = page.waitForEvent('download');
    await sw.getByRole('button', { name: /导\s*出/ }).click();
    expect((await downloaded).suggestedFilename()).toMatch(/销售仓库.*\.xlsx$/);
    const draft = (
      await admin.get<{ list: Row[] }>('/api/v1/stock-outbound/page', { saleOrderId: created.id })
    ).list[0];
    expect(draft).toMatchObject({ type: 'sales', status: 'draft', sourceNo: created.docNo });
    const outboundUrl = new URL(
      `http://x/warehouse-logistics/outbound-manage/sales-outbound-detail?id=${draft.id}`,
    );

    // The keeper posts it.
    const keeper = await Api.login(request, 'wh01', 'demo123');
    await signedIn(page, keeper, `${outboundUrl.pathname}${outboundUrl.search}`);
    const detail = activePage(page);
    await expect(detail.getByText('销售订单')).toBeVisible();
    await detail
      .getByRole('button', { name: /过\s*账/ })
      .first()
      .click();
    await confirmIn(page, '过账');
    await expect(toast(page, '过账成功')).toBeVisible();
    const order = await admin.get<Row>(`/api/v1/sale-order/info/${created.id}`);
    expect(order.status).toBe('completed');
    expect(order.lines[0].shippedQuantity).toBe('3.0000');

    // The salesperson's order detail: each line's figures and the 销售出库 it led to.
    const seller = await Api.login(request, 'sales01', 'demo123');
    await signedIn(page, seller, `/sale-manage/sale-order-detail?id=${created.id}`);
    const orderView = activePage(page);
    const progress = orderView.getByTestId('sale-order-progress');
    await expect(progress.locator('.ant-table-row')).toHaveCount(1);
    await expect(progress.locator('.ant-table-row')).toContainText('3');
    await expect(orderView.getByTestId('sale-order-documents')).toContainText(draft.docNo);
    await expect(orderView.getByTestId('sale-order-documents')).toContainText('销售出库');
    // The file stays readable; a completed order takes no more.
    const files = orderView.getByTestId('sale-order-attachments');
    await expect(files.getByTestId('attachment-客户技术协议.txt')).toBeVisible();
    await expect(files.getByTestId('sale-order-attachment-upload')).toHaveCount(0);
  });
});
