import { Api, activePage, expect, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

test.describe('流转卡', () => {
  test('opens cards from the production order detail, splits one and sees the genealogy', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const bearing = (await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'FG-6205-2RS' }))
      .list[0];
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: bearing.id,
      quantity: 450,
      plannedStartDate: '2026-11-20',
      dueDate: '2026-12-10',
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});

    await signedIn(
      page,
      admin,
      `/production-department/production-manage/produce-order-detail?id=${order.id}`,
    );
    const detail = activePage(page);
    await detail.getByRole('tab', { name: '流转卡' }).click();
    const cards = detail.getByTestId('order-flow-cards');
    await expect(cards.getByTestId('flow-card-coverage')).toHaveText('已开卡 0 / 订单 450');

    // 开卡: 200 a card → 200, 200, 50.
    await cards.getByRole('button', { name: /开\s*卡/ }).click();
    const openDialog = page.locator('.ant-modal:visible');
    await openDialog.getByLabel('每卡数量').fill('200');
    await openDialog.getByLabel('炉号').fill('L26-0918');
    await expect(openDialog.getByText('将开 3 张卡')).toBeVisible();
    await openDialog.getByRole('button', { name: /开\s*卡/ }).click();
    await expect(toast(page, '已开流转卡 3 张')).toBeVisible();
    const rows = cards.locator('.ant-table-row');
    await expect(rows).toHaveCount(3);
    await expect(cards.getByTestId('flow-card-coverage')).toHaveText('已开卡 450 / 订单 450');
    await expect(cards.getByRole('button', { name: /开\s*卡/ })).toBeDisabled();

    // 拆分 the first 200 card into 120 + 80 (the second part follows the first).
    const list = (await admin.get<{ list: Row[] }>('/api/v1/flow-card/page', { productionOrderId: order.id }))
      .list;
    const parent = list.find((c) => Number(c.quantity) === 200) as Row;
    await rows
      .filter({ hasText: parent.docNo })
      .getByRole('button', { name: /拆\s*分/ })
      .click();
    const splitDialog = page.locator('.ant-modal:visible');
    await expect(splitDialog.getByText(/卡上当前数量 200/)).toBeVisible();
    await splitDialog.getByLabel('新卡 1 数量').fill('120');
    // 套 are whole: the input shows the pieces as counted, without the stored scale.
    await expect(splitDialog.getByLabel('新卡 2 数量')).toHaveValue('80');
    await splitDialog.getByRole('button', { name: /拆\s*分/ }).click();
    await expect(toast(page, /已拆分为 LZ\d{8}-\d{4}（120）、LZ\d{8}-\d{4}（80）/)).toBeVisible();
    await expect(rows).toHaveCount(5);
    await expect(rows.filter({ hasText: parent.docNo })).toContainText('已拆分');

    // The parent's drawer: QR of its number and the two children below it in the genealogy.
    const children = (
      await admin.get<{ list: Row[] }>('/api/v1/flow-card/page', { productionOrderId: order.id })
    ).list.filter((c) => c.origin === 'split');
    expect(children.map((c) => Number(c.quantity)).sort((a, b) => a - b)).toEqual([80, 120]);
    await rows.filter({ hasText: parent.docNo }).getByText(parent.docNo).click();
    const drawer = page.locator('.ant-drawer:visible');
    await expect(drawer.getByTestId('flow-card-qr')).toBeVisible();
    // The product's current published drawing (the demo's 6205-2RS 总图, revision A).
    await expect(drawer.getByTestId('drawing-open')).toContainText(/JS\d{8}-\d{4} 版本 A/);
    const down = drawer.getByTestId('genealogy-down');
    for (const c of children) await expect(down).toContainText(c.docNo);
    // A click on a child opens it; its genealogy leads back up to the parent.
    await down.getByText(children[0].docNo).click();
    await expect(drawer.locator('.ant-drawer-title')).toContainText(children[0].docNo);
    await expect(drawer.getByTestId('genealogy-up')).toContainText(parent.docNo);
    await expect(drawer.getByTestId('flow-card-detail')).toContainText('L26-0918');

    // Print the A5 card: the sheet with its QR over the app, then close it.
    await drawer.getByRole('button', { name: '打印流转卡' }).click();
    const sheet = page.getByTestId('flow-card-print');
    await expect(sheet.locator('svg').first()).toBeVisible();
    await expect(sheet).toContainText(children[0].docNo);
    await sheet.getByRole('button', { name: /关\s*闭/ }).click();
    await expect(sheet).toHaveCount(0);
    await drawer.locator('.ant-drawer-close').click();

    // A USB scanner types the number and Enter: the card opens.
    const scan = cards.getByTestId('flow-card-scan');
    await scan.fill(children[1].docNo);
    await scan.press('Enter');
    await expect(page.locator('.ant-drawer:visible .ant-drawer-title')).toContainText(children[1].docNo);
  });
});
