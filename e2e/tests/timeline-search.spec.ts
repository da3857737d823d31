import { Api, activePage, expect, signedIn, test, toast, unique } from './support.ts';

/**
 * Issue 41 §1–§2: a document's 动态 (history and a comment whose @mention reaches the other user's
 * messages), and 全局搜索 — Ctrl+K to a document by its number — with the shortcuts' help.
 */

interface Row {
  id: number;
  docNo: string;
  [key: string]: any;
}

test.describe('动态与全局搜索', () => {
  test('a comment with an @mention reaches 张丽’s messages; Ctrl+K opens the order by its number', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const code = unique('TL');
    const type = (await admin.get<{ list: Row[] }>('/api/v1/material-type/page', { pageSize: 1 })).list[0];
    const unit = (await admin.get<{ list: Row[] }>('/api/v1/material-unit/page', { pageSize: 1 })).list[0];
    const bearing = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `深沟球轴承 6206 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
      salePrice: '8.5',
    });
    const customer = await admin.post<Row>('/api/v1/customer/add', {
      code: `C${code}`,
      name: `动态客户 ${code}`,
    });
    const order = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-12-20',
      lines: [{ materialId: bearing.id, quantity: 40 }],
    });
    await admin.post(`/api/v1/sale-order/approve/${order.id}`, {});

    // admin opens the order: its 动态 shows 审核 (草稿 → 已审核) and 创建.
    await signedIn(page, admin, `/sale-manage/sale-order-detail?id=${order.id}`);
    const timeline = activePage(page).getByTestId('record-timeline');
    await expect(timeline).toBeVisible();
    const history = timeline.getByTestId('timeline-history');
    await expect(history.first()).toContainText('审核');
    await expect(history.first()).toContainText('草稿 → 已审核');
    await expect(history.last()).toContainText('创建');

    // A comment mentioning 张丽 (sales01): type @, pick her from the list.
    const input = timeline.getByPlaceholder(/写评论/);
    await input.click();
    await input.pressSequentially('交期能否提前到 12 月 10 日？请确认 @张');
    const option = page.getByRole('menuitem', { name: '张丽（sales01）' });
    await option.click();
    await timeline.getByTestId('timeline-comment-send').click();
    await expect(toast(page, '已评论，并通知 张丽')).toBeVisible();
    await expect(timeline.getByTestId('timeline-comment').first()).toContainText(
      '交期能否提前到 12 月 10 日？请确认 @张丽',
    );

    // 张丽 signs in: the bell counts the message; it opens the order, where she reads the comment.
    const sales = await Api.login(request, 'sales01', 'demo123');
    await signedIn(page, sales);
    await page.getByTestId('message-bell').click();
    const panel = page.getByTestId('message-panel');
    const message = panel.getByText(`系统管理员 在销售订单 ${order.docNo}的评论中提到了你`);
    await expect(message).toBeVisible();
    await message.click();
    await expect(page).toHaveURL(new RegExp(`sale-order-detail\\?id=${order.id}$`));
    const hers = activePage(page).getByTestId('record-timeline');
    await expect(hers.getByTestId('timeline-comment').first()).toContainText('请确认 @张丽');

    // Ctrl+K: type the order's number, Enter opens it.
    await page.goto('/home/info');
    await expect(page.getByTestId('top-menu')).toBeVisible();
    await page.keyboard.press('Control+k');
    const search = page.getByTestId('global-search-input');
    await expect(search).toBeFocused();
    await search.fill(order.docNo);
    const hit = page.getByTestId('palette-item').filter({ hasText: order.docNo });
    await expect(hit).toContainText('销售订单');
    await expect(hit).toContainText(`动态客户 ${code}`);
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`sale-order-detail\\?id=${order.id}$`));
    await expect(activePage(page).getByTestId('doc-no')).toHaveText(order.docNo);

    // A menu page by its title, through the same box.
    await page.keyboard.press('Control+k');
    await page.getByTestId('global-search-input').fill('销售订单');
    await expect(page.getByTestId('palette-item').first()).toContainText('销售订单');
    await page.keyboard.press('Escape');

    // 「?」 lists the shortcuts.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Shift+Slash');
    const help = page.getByTestId('shortcuts-help');
    await expect(help).toContainText('全局搜索');
    await expect(help).toContainText('保存当前表单');
    await expect(help).toContainText('下一条记录');
  });
});
