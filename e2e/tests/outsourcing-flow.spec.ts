import {
  Api,
  activePage,
  choose,
  confirmIn,
  date,
  expect,
  type Page,
  signedIn,
  signIn,
  test,
  toast,
} from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/** On the order's page: 发料 / 收货 into the store, then 过账 on the draft's page. */
async function makeAndPost(page: Page, op: 'send' | 'receive', store: string, quantity?: string) {
  await activePage(page).getByTestId(`outsourcing-${op}`).click();
  const dialog = page.locator('.ant-modal:visible');
  await choose(page, 'make-document_warehouseId', store);
  if (quantity) {
    const input = dialog.getByLabel(/第1行本次/);
    await input.fill(quantity);
  }
  await dialog.getByTestId('make-document-ok').click();
  await expect(toast(page, /已生成.*单/)).toBeVisible();
  await expect(page).toHaveURL(
    op === 'send' ? /outsourcing-receive-outbound-detail/ : /outsourced-warehousing-detail/,
  );
  const detail = activePage(page);
  await expect(detail.getByText('委外订单').first()).toBeVisible();
  await detail
    .getByRole('button', { name: /过\s*账/ })
    .first()
    .click();
  await confirmIn(page, '过账');
  await expect(toast(page, '过账成功')).toBeVisible();
}

test.describe('outsourcing flow', () => {
  test('采购员 enters a 委外订单 for heat treatment and approves it; the rings go out and part come back; the order tracks both', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const suppliers = (
      await admin.get<{ list: Row[] }>('/api/v1/supplier/page', { status: '1', pageSize: 50 })
    ).list;
    const supplier = suppliers.find((s) => s.name.includes('热处理')) ?? suppliers[0];
    const process = (
      await admin.get<{ list: Row[] }>('/api/v1/process-manage/page', { pageSize: 100 })
    ).list.find((p) => p.name === '热处理') as Row;
    expect(process).toBeTruthy();
    const store = (
      await admin.get<{ list: Row[] }>('/api/v1/warehouse-management/page', { pageSize: 20 })
    ).list.find((w) => w.code === 'WH-SF') as Row;
    const stock = (
      await admin.get<{ list: Row[] }>('/api/v1/stock-balance/page', {
        warehouseId: store.id,
        qualityStatus: 'qualified',
        pageSize: 50,
      })
    ).list.find((b) => Number(b.quantity) >= 10) as Row;
    expect(stock).toBeTruthy();
    const material = await admin.get<Row>(`/api/v1/material-info/info/${stock.materialId}`);

    // 采购员: the order through the form, then 审核 on its page.
    await signIn(page, 'buy01', 'demo123');
    await page.goto('/purchase/outsourcing-manage');
    await activePage(page).getByRole('button', { name: '新增委外订单' }).click();
    await expect(page).toHaveURL(/\/purchase\/outsourcing-add$/);
    await choose(page, 'rk-outsourcing-order_supplierId', supplier.name);
    await choose(page, 'rk-outsourcing-order_processId', '热处理');
    await date(page, 'rk-outsourcing-order_orderDate', '2026-11-18');
    await date(page, 'rk-outsourcing-order_deliveryDate', '2026-11-30');
    await choose(page, 'rk-outsourcing-order_lines_0_materialId', material.code);
    await page.locator('#rk-outsourcing-order_lines_0_quantity').fill('10');
    await page.locator('#rk-outsourcing-order_lines_0_unitPrice').fill('0.9');
    await activePage(page)
      .getByRole('button', { name: /保\s*存$/ })
      .click();
    await expect(toast(page, /成功/)).toBeVisible();
    const saved = (
      await admin.get<{ list: Row[] }>('/api/v1/outsourcing-order/page', {
        sortField: 'id',
        sortOrder: 'desc',
        pageSize: 1,
      })
    ).list[0];
    expect(saved).toMatchObject({ status: 'draft', amount: '9.00', supplierId: supplier.id });
    expect(saved.docNo).toMatch(/^WW20261118-\d{4}$/);
    await page.goto(`/purchase/outsourcing-manage-info?id=${saved.id}`);
    const detail = activePage(page);
    await expect(detail.getByText(saved.docNo).first()).toBeVisible();
    await detail.getByTestId('transition-approve').click();
    await expect(toast(page, '审核成功')).toBeVisible();
    // Sending is the warehouse's: the buyer has no 发料.
    await expect(detail.getByTestId('outsourcing-send')).toHaveCount(0);

    // The warehouse (admin here) sends the 10 rings and takes 6 back.
    const info = `/purchase/outsourcing-manage-info?id=${saved.id}`;
    await signedIn(page, admin, info);
    await makeAndPost(page, 'send', '半成品仓');
    let order = await admin.get<Row>(`/api/v1/outsourcing-order/info/${saved.id}`);
    expect(order.lines[0].sentQuantity).toBe('10.0000');
    await page.goto(info);
    await makeAndPost(page, 'receive', '半成品仓', '6');
    order = await admin.get<Row>(`/api/v1/outsourcing-order/info/${saved.id}`);
    expect(order.status).toBe('partly-received');
    expect(order.lines[0]).toMatchObject({ sentQuantity: '10.0000', receivedQuantity: '6.0000' });

    // The order's page lists both documents, and shows 部分收回.
    await page.goto(info);
    const trail = activePage(page).getByTestId('outsourcing-documents');
    await expect(trail.locator('.ant-table-row')).toHaveCount(2);
    await expect(trail).toContainText('委外发料出库');
    await expect(trail).toContainText('委外入库');
    await expect(activePage(page).locator('.ant-tag').filter({ hasText: '部分收回' }).first()).toBeVisible();
  });
});

test.describe('委外退货', () => {
  test('采购员 drafts a 委外退货 from 采购管理, choosing the order to take its lines; the keeper posts it there', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    // An order received into the store (the heat-treatment orders of flow cards come back line-side,
    // straight to the next step, so there is nothing in the store to return).
    const order = (
      await admin.get<{ list: Row[] }>('/api/v1/outsourcing-order/page', {
        status: 'partly-received',
        pageSize: 50,
      })
    ).list.find((o) => !o.productionOrderId) as Row;
    const full = await admin.get<Row>(`/api/v1/outsourcing-order/info/${order.id}`);
    const store = (
      await admin.get<{ list: Row[] }>('/api/v1/warehouse-management/page', { pageSize: 20 })
    ).list.find((w) => w.code === 'WH-SF') as Row;
    const buyer = await Api.login(request, 'buy01', 'demo123');
    await signedIn(page, buyer, '/purchase/outsourcing-rejected');
    await activePage(page).getByRole('button', { name: '新增委外退货出库单' }).click();
    await expect(page).toHaveURL(/\/purchase\/outsourcing-rejected-add$/);
    // Choosing the order takes its returnable lines (received − returned).
    const form = activePage(page);
    await choose(page, 'wh-stock-outbound_warehouseId', store.name);
    await choose(page, 'wh-stock-outbound_outsourcingOrderId', order.docNo);
    const returnable = Number(full.lines[0].receivedQuantity) - Number(full.lines[0].returnedQuantity);
    await expect(form.getByLabel('第1行数量')).toHaveValue(new RegExp(`^${returnable}(\\.0+)?$`));
    await form.getByLabel('第1行数量').fill('1');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page).toHaveURL(/\/purchase\/outsourcing-rejected-detail\?id=\d+/);
    await expect(activePage(page).getByText(order.docNo).first()).toBeVisible();
    const back = await admin.get<Row>(
      `/api/v1/stock-outbound/info/${new URL(page.url()).searchParams.get('id')}`,
    );
    expect(back).toMatchObject({ type: 'outsourcing-return', status: 'draft', sourceNo: order.docNo });
    expect(back.lines[0]).toMatchObject({ sourceLineId: full.lines[0].id, quantity: '1.0000' });
    await expect(activePage(page).getByRole('button', { name: /过\s*账/ })).toHaveCount(0);

    const keeper = await Api.login(request, 'wh01', 'demo123');
    await signedIn(page, keeper, `/purchase/outsourcing-rejected-detail?id=${back.id}`);
    await activePage(page)
      .getByRole('button', { name: /过\s*账/ })
      .first()
      .click();
    await confirmIn(page, '过账');
    await expect(toast(page, '过账成功')).toBeVisible();
    const after = await admin.get<Row>(`/api/v1/outsourcing-order/info/${order.id}`);
    expect(Number(after.lines[0].returnedQuantity)).toBe(Number(full.lines[0].returnedQuantity) + 1);
  });
});
