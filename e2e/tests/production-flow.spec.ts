import { Api, activePage, confirmIn, expect, signIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

test.describe('production flow', () => {
  test('计划员 makes a production order from a sales order line, releases it, sees the shortage and raises a 请购单', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const bearing = (await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'FG-6205-2RS' }))
      .list[0];
    const customer = (await admin.get<{ list: Row[] }>('/api/v1/customer/page', { pageSize: 1 })).list[0];
    // Far more than the stores hold, so release finds shortages.
    const so = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-12-20',
      lines: [{ materialId: bearing.id, quantity: 60000, unitPrice: '4.8' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${so.id}`, {});

    // 计划员: 从销售订单生成 on the production order list.
    await signIn(page, 'plan01', 'demo123');
    await page.goto('/production-department/production-manage/production-order');
    await activePage(page).getByRole('button', { name: '从销售订单生成' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.locator('#sale-line-pick_docNo').fill(so.docNo);
    await dialog.getByRole('button', { name: /搜\s*索/ }).click();
    const line = dialog.locator('.ant-table-row').filter({ hasText: so.docNo });
    await expect(line).toHaveCount(1);
    await line.locator('.ant-checkbox-input').check();
    await expect(dialog.getByLabel(`${so.docNo} ${bearing.name} 生产数量`)).toHaveValue('60000.0000');
    await dialog.getByRole('button', { name: /生成生产订单（1 张）/ }).click();
    await expect(toast(page, /已生成生产订单 SC/)).toBeVisible();
    const order = (
      await admin.get<{ list: Row[] }>('/api/v1/production-order/page', {
        saleOrderId: so.id,
        pageSize: 1,
      })
    ).list[0];
    expect(order).toMatchObject({ status: 'draft', quantity: '60000.0000', productId: bearing.id });

    // 下达 on its detail page: the requirements appear with shortages.
    await page.goto(`/production-department/production-manage/produce-order-detail?id=${order.id}`);
    const detail = activePage(page);
    await detail.getByTestId('transition-release').click();
    await confirmIn(page, /^下\s*达$/);
    await expect(toast(page, '下达成功')).toBeVisible();
    const needs = detail.getByTestId('production-requirements');
    await expect(needs.getByTestId('shortage-count')).toBeVisible();
    await expect(needs.locator('.ant-table-row').first()).toBeVisible();
    expect((await admin.get<Row>(`/api/v1/sale-order/info/${so.id}`)).status).toBe('producing');

    // 生成请购单 for the shortages.
    await needs.getByRole('button', { name: /生成请购单/ }).click();
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect(toast(page, /已生成请购单 QG/)).toBeVisible();
    const reqs = await admin.get<{ list: Row[] }>('/api/v1/purchase-requisition/page', {
      reason: order.docNo,
    });
    expect(reqs.list).toHaveLength(1);
    expect(reqs.list[0]).toMatchObject({ status: 'draft', reason: `生产订单 ${order.docNo} 缺料` });
    await expect(needs.getByRole('button', { name: reqs.list[0].docNo })).toBeVisible();
    await expect(needs.getByRole('button', { name: /生成请购单/ })).toBeDisabled();
  });
});
