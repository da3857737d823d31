import {
  Api,
  activePage,
  expect,
  noOpenDropdown,
  type Page,
  rows,
  shot,
  sidebar,
  signedIn,
  signIn,
  tags,
  test,
  toast,
  topMenu,
  unique,
} from './support.ts';

/** Picks a tree-select option by typing part of it (the option list is virtual). */
async function pickTreeSelect(page: Page, field: ReturnType<Page['locator']>, option: string) {
  await noOpenDropdown(page);
  await field.click();
  await field.pressSequentially(option);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-tree-title')
    .filter({ hasText: option })
    .first()
    .click();
}

test.describe('system management', () => {
  let api: Api;
  test.beforeEach(async ({ request }) => {
    api = await Api.login(request);
  });

  test('user management: create through the form, name uniqueness, edit, disable, reset password, delete', async ({
    page,
  }) => {
    await signedIn(page, api, '/system/user/manage');
    await expect(rows(page).first()).toBeVisible();
    await activePage(page).getByRole('button', { name: '新增用户' }).click();
    const dialog = page.getByRole('dialog', { name: '新增用户' });
    await expect(dialog).toBeVisible();

    // Inline validation, then the async uniqueness check.
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog.getByText('请输入用户名')).toBeVisible();
    await expect(dialog.getByText('请输入姓名')).toBeVisible();
    await dialog.getByLabel('用户名').fill('admin');
    await expect(dialog.getByText('该用户名已存在')).toBeVisible();

    const userName = unique('e2eu');
    await dialog.getByLabel('用户名').fill(userName);
    await dialog.getByLabel('姓名').fill('测试员');
    await dialog.getByLabel('登录密码').fill('Qc-bearing26');
    await dialog.getByLabel('手机号码').fill('138');
    await expect(dialog.getByText('请输入正确的手机号码')).toBeVisible();
    await dialog.getByLabel('手机号码').fill('13912345678');
    await pickTreeSelect(page, dialog.getByLabel('所属部门'), '质量部');
    await noOpenDropdown(page);
    await dialog.getByLabel('角色').pressSequentially('质检');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '质检员' })
      .click();
    await page.keyboard.press('Escape');
    await shot(page, '15-user-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '新增成功')).toBeVisible();
    await expect(dialog).toBeHidden();

    await activePage(page).getByTestId('search-userName').fill(userName);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const row = rows(page).filter({ hasText: userName });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('质量部');
    await expect(row).toContainText('质检员');

    await row.getByRole('button', { name: '编辑' }).click();
    const edit = page.getByRole('dialog', { name: '编辑用户' });
    await expect(edit.getByLabel('用户名')).toBeDisabled();
    await edit.getByLabel('姓名').fill('测试员（改）');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '修改成功')).toBeVisible();
    await expect(row).toContainText('测试员（改）');

    await row.getByRole('switch').click();
    await page
      .getByRole('dialog', { name: '停用用户' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await expect(toast(page, '已停用')).toBeVisible();
    await expect(row.getByRole('switch')).not.toBeChecked();

    await row.getByRole('button', { name: '重置密码' }).click();
    const reset = page.getByRole('dialog', { name: /重置密码/ });
    await reset.getByLabel('新密码').fill('reset789');
    await reset.getByLabel('确认密码').fill('reset789');
    await reset.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, /已重置用户/)).toBeVisible();

    await row.getByRole('button', { name: '删除' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(toast(page, '删除成功')).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('a role with a reduced menu: its user sees only that menu and gets /401 elsewhere', async ({
    page,
    request,
  }) => {
    await signedIn(page, api, '/system/role/manage');
    await expect(rows(page).first()).toBeVisible();
    await shot(page, '16-role-manage');
    await activePage(page).getByRole('button', { name: '新增角色' }).click();
    const dialog = page.getByRole('dialog', { name: '新增角色' });
    const roleName = unique('仓储查询');
    const roleKey = unique('whq');
    await dialog.getByLabel('角色名称').fill(roleName);
    await dialog.getByLabel('权限字符').fill(roleKey);
    const tree = dialog.getByTestId('role-menu-tree');
    await expect(
      tree
        .locator('.ant-tree-treenode')
        .filter({ hasText: /^仓储物流/ })
        .first(),
    ).toBeVisible();
    await tree
      .locator('.ant-tree-treenode')
      .filter({ hasText: /^仓储物流/ })
      .first()
      .locator('.ant-tree-checkbox')
      .click();
    await expect(dialog.getByText(/已选 \d+ 项/)).not.toHaveText('已选 0 项');
    await shot(page, '17-role-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '新增成功')).toBeVisible();

    // Give the role to a new user through the user form.
    const userName = unique('whq');
    await page.goto('/system/user/manage');
    await activePage(page).getByRole('button', { name: '新增用户' }).click();
    const form = page.getByRole('dialog', { name: '新增用户' });
    await form.getByLabel('用户名').fill(userName);
    await form.getByLabel('姓名').fill('仓储查询员');
    await form.getByLabel('登录密码').fill('store123');
    await form.getByLabel('角色').pressSequentially(roleName);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: roleName })
      .click();
    await page.keyboard.press('Escape');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '新增成功')).toBeVisible();

    // Sign in as them: only 首页 and 仓储物流.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '退出登录' }).click();
    await signIn(page, userName, 'store123');
    await expect(page).toHaveURL(/\/warehouse-logistics\//);
    await expect(topMenu(page).locator('.ant-menu-horizontal > .ant-menu-item')).toHaveText([
      '首页',
      '仓储物流',
    ]);
    await expect(topMenu(page).getByText('更多菜单')).toHaveCount(0);
    await expect(sidebar(page).locator('.rm-sider-title')).toHaveText('仓储物流');
    await shot(page, '18-reduced-menu');
    await page.goto('/system/user/manage');
    await expect(page).toHaveURL(/\/401$/);
    await expect(page.getByTestId('error-title')).toHaveText('401 无权访问');
    await shot(page, '19-unauthorized');
    await page.goto('/');
    await expect(page).toHaveURL(/\/warehouse-logistics\//);
    // The server agrees: the API refuses what the menu does not grant.
    const them = await Api.login(request, userName, 'store123');
    await expect(them.get('/api/v1/user/list', { pageNum: 1, pageSize: 10 })).rejects.toThrow(/403/);
  });

  test('department management: tree, add a child, 409 when deleting one in use', async ({ page, guard }) => {
    guard.allow(/status of 409/);
    await signedIn(page, api, '/system/department/manage');
    const table = activePage(page).locator('.ant-table');
    await expect(table.getByText('质量部')).toBeVisible();
    await shot(page, '20-department-manage');

    const quality = rows(page).filter({ hasText: '质量部' });
    await quality.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog', { name: '新增部门' });
    await expect(dialog.getByLabel('上级部门').locator('..').locator('..')).toContainText('质量部');
    const name = unique('计量室');
    await dialog.getByLabel('部门名称').fill(name);
    await dialog.getByLabel('负责人').fill('周工');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '新增成功')).toBeVisible();
    await expect(table.getByText(name)).toBeVisible();

    // 质量部 holds users and the new child: the server refuses with 409 and its message shows.
    const answer = page.waitForResponse('**/api/v1/dept/deleteDeptById**');
    await quality.getByRole('button', { name: '删除' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    const body = await (await answer).json();
    expect(body.code).toBe('409');
    await expect(toast(page, body.message)).toBeVisible();

    const child = rows(page).filter({ hasText: name });
    await child.getByRole('button', { name: '删除' }).click();
    // The first confirmation may still be fading out: use the one that is open now.
    await page
      .locator('.ant-popconfirm:not(.ant-popover-hidden)')
      .last()
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(toast(page, '删除成功')).toBeVisible();
    await expect(table.getByText(name)).toHaveCount(0);
  });

  test('menu management: the whole tree; add, edit and delete a button node', async ({ page }) => {
    await signedIn(page, api, '/system/menu/manage');
    const table = activePage(page).locator('.ant-table');
    await expect(table.getByText('首页', { exact: true }).first()).toBeVisible();
    // ~800 nodes in a virtual table: search narrows it to 系统管理 › 用户管理 and its buttons.
    await activePage(page).getByLabel('菜单名称').fill('用户管理');
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const userPage = table.locator('.ant-table-row').filter({ hasText: '/system/user/manage' });
    await expect(table.getByText('system:user:add')).toBeVisible();
    await shot(page, '21-menu-manage');

    await userPage.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog', { name: '新增菜单' });
    await dialog.getByText('按钮', { exact: true }).click();
    await expect(dialog.getByLabel('路由地址')).toHaveCount(0);
    const perm = `system:user:${unique('x')}`;
    await dialog.getByLabel('按钮名称').fill('导入用户');
    await dialog.getByLabel('权限标识').fill(perm);
    await shot(page, '22-menu-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '新增成功')).toBeVisible();
    const row = rows(page).filter({ hasText: perm });
    await expect(row).toBeVisible();
    await expect(row).toContainText('按钮');

    await row.getByRole('button', { name: '修改' }).click();
    const edit = page.getByRole('dialog', { name: '修改菜单' });
    await edit.getByLabel('按钮名称').fill('导入用户（Excel）');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await expect(toast(page, '修改成功')).toBeVisible();
    await expect(row).toContainText('导入用户（Excel）');

    await row.getByRole('button', { name: '删除' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(toast(page, '删除成功')).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  test('role edit shows the granted menu as checked', async ({ page }) => {
    await signedIn(page, api, '/system/role/manage');
    const row = rows(page).filter({ hasText: '销售员' });
    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog', { name: '编辑角色' });
    await expect(dialog.getByLabel('角色名称')).toHaveValue('销售员');
    await expect(dialog.getByText(/已选 [1-9]\d* 项/)).toBeVisible();
    const sale = dialog
      .getByTestId('role-menu-tree')
      .locator('.ant-tree-treenode')
      .filter({ hasText: /^销售管理/ })
      .first();
    await expect(sale.locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-(checked|indeterminate)/);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await expect(tags(page)).toContainText(['角色管理']);
  });
});
