import { Api, activePage, choose, expect, rows, signedIn, test, toast, unique } from './support.ts';

/**
 * Issue 41 §5–§6 on the kit's 销售订单 list: a saved view (filter, sort, columns) made the user's
 * default opens the list again as he left it; a bulk approval of three orders, one of which someone
 * else approved meanwhile, approves two and names the refused one with its reason.
 */

interface Row {
  id: number;
  docNo: string;
  version: number;
  [key: string]: any;
}

/** A customer with three draft orders (deliveries on the 20th, 10th and 15th of December). */
async function threeDrafts(admin: Api, code: string) {
  const type = (await admin.get<{ list: Row[] }>('/api/v1/material-type/page', { pageSize: 1 })).list[0];
  const unit = (await admin.get<{ list: Row[] }>('/api/v1/material-unit/page', { pageSize: 1 })).list[0];
  const bearing = await admin.post<Row>('/api/v1/material-info/add', {
    code,
    name: `深沟球轴承 6208 ${code}`,
    materialTypeId: type?.id,
    unitId: unit?.id,
    salePrice: '9.5',
  });
  const customer = await admin.post<Row>('/api/v1/customer/add', {
    code: `C${code}`,
    name: `视图客户 ${code}`,
  });
  const orders: Row[] = [];
  for (const day of ['2026-12-20', '2026-12-10', '2026-12-15'])
    orders.push(
      await admin.post<Row>('/api/v1/sale-order/add', {
        customerId: customer.id,
        orderDate: '2026-11-28',
        deliveryDate: day,
        lines: [{ materialId: bearing.id, quantity: 20 }],
      }),
    );
  return { customer, orders };
}

test.describe('保存视图与批量操作', () => {
  test('a saved view made default reopens the list with its filter, sort and columns', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const code = unique('SV');
    const { customer } = await threeDrafts(admin, code);
    // A user of the 销售员 role of his own, so his default view touches no other flow.
    const roles = await admin.get<{ id: number; roleKey: string }[]>('/api/v1/role/listAll');
    const sales = roles.find((r) => r.roleKey === 'sales');
    const userName = unique('view');
    await admin.post('/api/v1/user/newAddUser', {
      userName,
      firstName: '视图测试',
      passWord: 'Start-ring-4',
      status: '1',
      roleIds: [sales?.id],
    });
    // A view the administrator shares with the role shows in the picker, marked with the role.
    await admin.post('/api/v1/list-view/add', {
      listKey: 'sale-order',
      name: `销售组已审核 ${code}`,
      roleId: sales?.id,
      state: { filters: { status: 'approved' } },
    });
    const me = await Api.login(request, userName, 'Start-ring-4');
    await signedIn(page, me, '/sale-manage/sale-order');
    const list = activePage(page);

    await choose(page, 'rk-search-sale-order_customerId', customer.name);
    await list.getByRole('button', { name: /搜\s*索/ }).click();
    await expect(rows(page)).toHaveCount(3);
    await list.locator('th', { hasText: '交货日期' }).click();
    await expect(rows(page).first()).toContainText('2026-12-10');
    await list.getByRole('button', { name: '列设置' }).click();
    await page.getByTestId('column-settings').getByText('业务员', { exact: true }).click();
    await expect(list.locator('th', { hasText: '业务员' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    const name = `我的交期 ${code}`;
    await list.getByTestId('view-actions').click();
    await page.getByRole('menuitem', { name: '另存为…' }).click();
    const dialog = page.getByRole('dialog', { name: '另存为视图' });
    await dialog.getByLabel('视图名称').fill(name);
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, `已保存视图「${name}」`)).toBeVisible();
    await list.getByTestId('view-actions').click();
    await page.getByRole('menuitem', { name: '设为默认' }).click();
    await expect(toast(page, '已设为默认视图')).toBeVisible();

    // Reopen: the browser's own column memory is dropped, so what shows comes from the view.
    await page.evaluate(() => localStorage.removeItem('rk-columns:sale-order'));
    await page.reload();
    const again = activePage(page);
    await expect(again.getByTestId('view-picker')).toContainText(name);
    await expect(rows(page)).toHaveCount(3);
    await expect(rows(page).first()).toContainText('2026-12-10');
    await expect(rows(page).last()).toContainText('2026-12-20');
    await expect(again.locator('th', { hasText: '业务员' })).toHaveCount(0);
    await expect(again.getByTestId('search-sale-order')).toContainText(customer.name);

    // The shared view is in the picker, with its role; choosing it applies its filter.
    await again.getByTestId('view-picker').click();
    await page.getByTestId(`view-option-销售组已审核 ${code}`).click();
    await expect(again.getByTestId('view-picker')).toContainText(`销售组已审核 ${code}`);
    await expect(again.getByTestId('search-sale-order')).not.toContainText(customer.name);
  });

  test('bulk approval of three orders: two approved, the one approved meanwhile refused with its reason', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const { customer, orders } = await threeDrafts(admin, unique('BA'));
    await signedIn(page, admin, `/sale-manage/sale-order?customerId=${customer.id}`);
    const list = activePage(page);
    await expect(rows(page)).toHaveCount(3);
    await list.locator('thead .ant-checkbox-input').check();
    const bar = list.getByTestId('bulk-bar');
    await expect(bar).toContainText('已选 3 条');

    // Someone else approves the second order while the list still shows it as 草稿.
    const taken = orders[1] as Row;
    await admin.post(`/api/v1/sale-order/approve/${taken.id}`, { version: taken.version });

    await bar.getByTestId('bulk-approve').click();
    const dialog = page.getByRole('dialog', { name: '批量审核销售订单' });
    await expect(dialog).toContainText('确定审核选中的 3 条销售订单吗');
    await dialog.getByRole('button', { name: /审\s*核/ }).click();
    await expect(dialog.getByTestId('bulk-summary')).toHaveText('成功 2 条，失败 1 条');
    const refused = dialog.getByTestId('bulk-results').locator('.ant-table-row').first();
    await expect(refused).toContainText(taken.docNo);
    await expect(refused).toContainText('失败');
    await expect(refused).toContainText('数据已被他人修改');
    await dialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();
    await expect(list.getByTestId('bulk-bar')).toHaveCount(0);
    for (const r of await rows(page).all()) await expect(r).toContainText('已审核');
  });
});
