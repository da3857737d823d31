import {
  Api,
  activePage,
  expect,
  type Page,
  rows,
  shot,
  sidebar,
  signedIn,
  tags,
  test,
  toast,
  topMenu,
} from './support.ts';

/** Twelve list pages of 工厂信息 (one pushes 用户管理 out of the 12 kept alive); the second is 物料列表. */
const TWELVE_PAGES = [
  '/factory-info/production-team/production-team-index',
  '/factory-info/material-manage/material-list',
  '/factory-info/material-manage/material-template-manage',
  '/factory-info/material-manage/product-bom',
  '/factory-info/material-manage/product-manage',
  '/factory-info/material-manage/material-unit',
  '/factory-info/material-manage/material-classification',
  '/factory-info/material-manage/manufacturing-method',
  '/factory-info/process-manage/process-route',
  '/factory-info/process-manage/process-manage',
  '/factory-info/process-manage/process-classify',
  '/factory-info/supplier/supplier-manage',
];

/** The open tag context menu (a closing one may linger in the DOM while it fades out). */
const contextMenu = (page: Page) => page.getByTestId('tags-context-menu').filter({ visible: true });

test.describe('application shell', () => {
  let api: Api;
  test.beforeEach(async ({ request }) => {
    api = await Api.login(request);
  });

  test('top menu fits entries at about 150 px and puts the rest under 更多菜单 (1280 px)', async ({
    page,
  }) => {
    await signedIn(page, api, '/home/info');
    const menu = topMenu(page);
    const width = await menu.evaluate((el) => el.getBoundingClientRect().width);
    const slots = Math.floor(width / 150);
    const items = menu.locator('.ant-menu-horizontal > .ant-menu-item');
    const more = menu.locator('.ant-menu-horizontal > .ant-menu-submenu').filter({ hasText: '更多菜单' });
    await expect(more).toBeVisible();
    await expect(items).toHaveCount(slots - 1);
    await expect(items.first()).toContainText('首页');
    for (const box of await items.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width))) {
      expect(Math.abs(box - 150)).toBeLessThanOrEqual(2);
    }
    await more.hover();
    const popup = page.locator('.rm-topmenu-more');
    await expect(popup).toBeVisible();
    await expect(popup.getByText('系统管理')).toBeVisible();
    await shot(page, '04-more-menu');
    await popup.getByText('系统管理').click();
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
    // The entry chosen under 更多菜单 highlights it.
    await expect(more).toHaveClass(/ant-menu-submenu-selected/);
  });

  test('the sidebar shows only the children of the active top-level entry', async ({ page }) => {
    await signedIn(page, api, '/system/user/manage');
    const side = sidebar(page);
    await expect(side).toBeVisible();
    expect(await side.evaluate((el) => el.getBoundingClientRect().width)).toBe(210);
    await expect(side.locator('.rm-sider-title')).toHaveText('系统管理');
    for (const name of ['用户管理', '角色管理', '菜单管理', '部门管理', '消息中心']) {
      await expect(side.getByRole('menuitem', { name })).toBeVisible();
    }
    await expect(side.getByText('销售订单')).toHaveCount(0);
    await shot(page, '05-user-manage');

    await topMenu(page).getByText('销售管理').click();
    await expect(page).toHaveURL(/\/sale-manage\/sale-order$/);
    await expect(side.locator('.rm-sider-title')).toHaveText('销售管理');
    await expect(side.getByRole('menuitem', { name: '销售订单' })).toBeVisible();
    await expect(side.getByText('用户管理')).toHaveCount(0);
    await expect(side.getByText('销售统计')).toBeVisible();
    // 生产委外详情, the last page built, opens its own page: no 建设中 placeholder is left.
    await page.goto('/production-department/produce-outsourcing/info');
    await expect(activePage(page)).toContainText('请从生产委外页面选择流转卡的委外工序');
    await expect(activePage(page).getByTestId('module-page')).toHaveCount(0);
  });

  test('a hidden page highlights its list; every menu route opens a real page', async ({ page }) => {
    await signedIn(page, api, '/sale-manage/sale-order-add');
    await expect(activePage(page).locator('form')).toBeVisible();
    await expect(activePage(page)).toContainText('新增销售订单');
    await expect(sidebar(page).locator('.ant-menu-item-selected')).toHaveText('销售订单');
    await expect(page.getByTestId('breadcrumb')).toHaveText(/首页\/销售管理\/销售订单\/新增销售订单/);
    await expect(page).toHaveTitle('新增销售订单 - RingMES');
    // Untouched, 返回 leaves at once; with a change it asks first.
    await activePage(page)
      .getByRole('button', { name: /返\s*回$/ })
      .click();
    await expect(page).toHaveURL(/\/sale-manage\/sale-order$/);
    await page.goto('/sale-manage/sale-order-add');
    await activePage(page).locator('#rk-sale-order_remark').fill('先不保存');
    await activePage(page)
      .getByRole('button', { name: /返\s*回$/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: '放弃并返回' }).click();
    await expect(page).toHaveURL(/\/sale-manage\/sale-order$/);
    // The areas built last open their own pages, not the 建设中 module page.
    for (const path of [
      '/quality-testing/shipment-inspection',
      '/finance-department/receivable-management',
      '/measure-check/outside-diameter',
      '/statistics-report/track-measure',
      '/workshop-dashboard/whole-dashboard',
    ]) {
      await page.goto(path);
      await expect(activePage(page).locator('.ant-table, .ant-form, canvas').first()).toBeVisible();
      await expect(activePage(page).getByTestId('module-page')).toHaveCount(0);
    }
    await shot(page, '06-module-page');
  });

  test('/home goes to /home/info, unknown paths to /404, directories to their first page', async ({
    page,
  }) => {
    await signedIn(page, api, '/home');
    await expect(page).toHaveURL(/\/home\/info$/);
    await expect(activePage(page).getByTestId('home-greeting')).toContainText('系统管理员');
    await expect(activePage(page).getByTestId('home-modules')).toContainText('系统管理');
    await shot(page, '07-home');
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByTestId('error-title')).toHaveText('404 页面不存在');
    await shot(page, '08-not-found');
    await page.goto('/system');
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
    await page.goto('/redirect/system/role/manage');
    await expect(page).toHaveURL(/\/system\/role\/manage$/);
  });

  test('tags: right-click 关闭其它 and 关闭所有; the pinned 首页 stays', async ({ page }) => {
    await signedIn(page, api, '/home/info');
    await page.goto('/system/user/manage');
    for (const name of ['角色管理', '部门管理']) {
      await sidebar(page).getByRole('menuitem', { name }).click();
      await expect(tags(page).filter({ hasText: name })).toHaveClass(/rm-tag-active/);
    }
    await expect(tags(page)).toHaveText(['首页', '用户管理', '角色管理', '部门管理']);
    await expect(tags(page).first().locator('.rm-tag-close')).toHaveCount(0);

    await tags(page).filter({ hasText: '角色管理' }).click({ button: 'right' });
    const menu = contextMenu(page);
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['刷新', '关闭', '关闭其它', '关闭所有']);
    await shot(page, '09-tags-context-menu');
    await menu.getByRole('menuitem', { name: '关闭其它' }).click();
    await expect(tags(page)).toHaveText(['首页', '角色管理']);
    await expect(page).toHaveURL(/\/system\/role\/manage$/);

    // 关闭 on a pinned tab is disabled. Wait for the previous menu's closing animation first,
    // or two menus are briefly visible at once.
    await expect(contextMenu(page)).toHaveCount(0);
    await tags(page).filter({ hasText: '首页' }).click({ button: 'right' });
    await expect(contextMenu(page).getByRole('menuitem', { name: '关闭', exact: true })).toHaveClass(
      /ant-menu-item-disabled/,
    );
    await page.keyboard.press('Escape');
    await page.mouse.click(640, 600);
    await expect(contextMenu(page)).toHaveCount(0);

    await tags(page).filter({ hasText: '角色管理' }).click({ button: 'right' });
    await contextMenu(page).getByRole('menuitem', { name: '关闭所有' }).click();
    await expect(tags(page)).toHaveText(['首页']);
    await expect(page).toHaveURL(/\/home\/info$/);

    // The × closes one tab and shows its neighbour.
    await page.goto('/system/user/manage');
    await sidebar(page).getByRole('menuitem', { name: '菜单管理' }).click();
    await tags(page).filter({ hasText: '菜单管理' }).locator('.rm-tag-close').click();
    await expect(tags(page)).toHaveText(['首页', '用户管理']);
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
  });

  test('pages of open tabs keep their state when switching tabs', async ({ page }) => {
    await signedIn(page, api, '/system/user/manage');
    const search = activePage(page).getByTestId('search-userName');
    await search.fill('sales');
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(rows(page)).toHaveCount(1);
    await sidebar(page).getByRole('menuitem', { name: '角色管理' }).click();
    await expect(page).toHaveURL(/\/system\/role\/manage$/);
    await expect(search).toBeHidden();
    await tags(page).filter({ hasText: '用户管理' }).click();
    await expect(search).toBeVisible();
    await expect(search).toHaveValue('sales');
    await expect(page.locator('[data-page="/system/user/manage"] .ant-table-row')).toHaveCount(1);
    // 刷新 from the tag menu rebuilds the page from scratch.
    await tags(page).filter({ hasText: '用户管理' }).click({ button: 'right' });
    await contextMenu(page).getByRole('menuitem', { name: '刷新' }).click();
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
    await expect(activePage(page).getByTestId('search-userName')).toHaveValue('');
  });

  test('at most 12 pages stay mounted: the tab shown longest ago re-mounts when reopened', async ({
    page,
  }) => {
    test.setTimeout(150_000); // 13 pages opened
    await signedIn(page, api, '/system/user/manage');
    const users = page.locator('[data-page="/system/user/manage"]');
    await activePage(page).getByTestId('search-userName').fill('sales');
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(rows(page)).toHaveCount(1);
    // 12 more pages opened in the app (a history entry each, as back and forward do).
    for (const path of TWELVE_PAGES) {
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await expect(activePage(page)).toHaveAttribute('data-page', path);
    }
    await expect(page.locator('.rm-page')).toHaveCount(12);
    // 用户管理, shown longest ago, is no longer mounted; its tab stays with its title.
    await expect(users).toHaveCount(0);
    await expect(tags(page).filter({ hasText: '用户管理' })).toHaveCount(1);
    // The most recent pages are still the same mounted pages: 11 tabs back, nothing re-mounts.
    const kept = page.locator(`[data-page="${TWELVE_PAGES[1]}"]`);
    await kept.evaluate((el) => el.setAttribute('data-e2e-mark', 'kept'));
    await tags(page).filter({ hasText: '物料列表' }).click();
    await expect(kept).toHaveAttribute('data-active', 'true');
    await expect(kept).toHaveAttribute('data-e2e-mark', 'kept');
    // Reopened from its tab, 用户管理 mounts afresh: all users, an empty search, and the page
    // now evicted is the one shown longest ago (the first of the twelve).
    await tags(page).filter({ hasText: '用户管理' }).click();
    await expect(page).toHaveURL(/\/system\/user\/manage$/);
    await expect(activePage(page).getByTestId('search-userName')).toHaveValue('');
    await expect(rows(page).nth(1)).toBeVisible();
    await expect(page.locator('.rm-page')).toHaveCount(12);
    await expect(page.locator(`[data-page="${TWELVE_PAGES[0]}"]`)).toHaveCount(0);
  });

  test('the clock ticks every second; the sidebar state is kept in cookies', async ({ page }) => {
    await signedIn(page, api, '/system/user/manage');
    const clock = page.getByTestId('clock');
    const first = await clock.locator('.rm-clock-time').textContent();
    await expect(clock.locator('.rm-clock-time')).not.toHaveText(first ?? '', { timeout: 5000 });

    await page.getByTestId('hamburger').click();
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    let cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    expect(cookies.find((c) => c.name === 'device')?.value).toBe('desktop');
    await page.reload();
    await expect(sidebar(page)).toHaveCSS('width', '64px');
    await page.getByTestId('hamburger').click();
    await expect(sidebar(page)).toHaveCSS('width', '210px');
    cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
  });

  test('below 992 px the mobile layout hides the sidebar and opens it as a drawer', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 760 });
    await signedIn(page, api, '/system/user/manage');
    await expect(page.locator('.rm-app')).toHaveAttribute('data-device', 'mobile');
    await expect(sidebar(page)).toHaveCount(0);
    const drawer = page.getByTestId('sidebar-drawer');
    await expect(drawer).not.toBeInViewport();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'device')?.value).toBe('mobile');
    expect(cookies.find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await shot(page, '10-mobile');
    await page.getByTestId('hamburger').click();
    await expect(drawer).toBeInViewport();
    await expect(drawer.getByRole('menuitem', { name: '部门管理' })).toBeVisible();
    await shot(page, '11-mobile-drawer');
    await drawer.getByRole('menuitem', { name: '部门管理' }).click();
    await expect(page).toHaveURL(/\/system\/department\/manage$/);
    await expect(drawer).not.toBeInViewport();
    // Back to a wide window: the desktop layout returns.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.locator('.rm-app')).toHaveAttribute('data-device', 'desktop');
    await expect(sidebar(page)).toBeVisible();
  });

  test('user dropdown: 个人信息 shows account, name, phone, email, department and roles', async ({
    page,
  }) => {
    await signedIn(page, api, '/home/info');
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-menu-items').getByRole('menuitem')).toHaveText([
      '个人信息',
      '修改密码',
      '退出登录',
    ]);
    await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '个人信息' }).click();
    const profile = page.getByTestId('profile');
    for (const label of ['账号', '姓名', '手机号码', '邮箱', '所属部门', '角色']) {
      await expect(profile.getByText(label, { exact: true })).toBeVisible();
    }
    await expect(profile).toContainText('admin');
    await expect(profile).toContainText('超级管理员');
    // 关于: the release the server runs, as /api/health says.
    const health = await (await page.request.get('/api/health')).json();
    await expect(page.getByTestId('about')).toContainText(`RingMES ${health.result.version}`);
    await expect(page.getByTestId('about')).toContainText(health.result.schema);
    await shot(page, '12-profile');
  });

  test('unread messages: count in the bell, list on click', async ({ page }) => {
    await signedIn(page, api, '/home/info');
    const count = await api.get<{ count: number }>('/api/v1/message/unreadCount');
    if (count.count > 0) await expect(page.getByTestId('unread-count')).toHaveText(String(count.count));
    await page.getByTestId('message-bell').click();
    await expect(page.getByTestId('message-panel')).toBeVisible();
    await shot(page, '13-messages');
  });

  test('a 500 shows 系统繁忙 and the app stays usable; a network failure too', async ({ page, guard }) => {
    guard.allow(/status of 500/, /ERR_FAILED|ERR_CONNECTION/);
    await signedIn(page, api, '/home/info');
    await page.route('**/api/v1/role/page**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: '500', message: '系统繁忙，请稍后重试', result: null }),
      }),
    );
    await page.goto('/system/role/manage');
    await expect(toast(page, '系统繁忙，请稍后重试')).toBeVisible();
    await page.unroute('**/api/v1/role/page**');
    await activePage(page).getByRole('button', { name: '刷新列表' }).click();
    await expect(rows(page).first()).toBeVisible();

    await page.route('**/api/v1/dept/listDeptTree', (route) => route.abort('failed'));
    await sidebar(page).getByRole('menuitem', { name: '部门管理' }).click();
    await expect(toast(page, '网络连接失败')).toBeVisible();
    await page.unroute('**/api/v1/dept/listDeptTree');
    await sidebar(page).getByRole('menuitem', { name: '用户管理' }).click();
    await expect(rows(page).first()).toBeVisible();
  });

  test('codes 50008/50012/50014 open the "Confirm logout" dialog; Cancel stays', async ({ page }) => {
    await signedIn(page, api, '/home/info');
    await page.route('**/api/v1/role/page**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 50014, message: 'Token expired', result: null }),
      }),
    );
    await page.goto('/system/role/manage');
    const dialog = page.getByRole('dialog', { name: 'Confirm logout' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'You have been logged out, you can cancel to stay on this page, or log in again',
    );
    await expect(dialog.getByRole('button', { name: 'Re-Login' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/system\/role\/manage$/);
    await page.unroute('**/api/v1/role/page**');
    await page.route('**/api/v1/role/page**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 50008, message: 'Illegal token', result: null }),
      }),
    );
    await activePage(page).getByRole('button', { name: '刷新列表' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm logout' })
      .getByRole('button', { name: 'Re-Login' })
      .click();
    await expect(page).toHaveURL(/\/login\?redirect=%2Fsystem%2Frole%2Fmanage/);
  });
});
