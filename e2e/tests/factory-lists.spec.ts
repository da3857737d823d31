import { Api, activePage, ConsoleGuard, expect, type Page, rows, signedIn, test } from './support.ts';

/** Client-side navigation inside the signed-in app (no reload: the kept-alive shell stays). */
async function open(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL((url) => url.pathname === path);
  await expect(page.locator('.rm-page[data-active="true"]')).toHaveAttribute('data-page', path);
}

/**
 * Smoke test of every 工厂信息 list screen built with the resource kit: it opens, shows the demo
 * factory's rows, and the code filter of its search bar narrows the list to that code.
 */
const SCREENS: { title: string; path: string; resource: string }[] = [
  {
    title: '仓库管理',
    path: '/factory-info/warehouse-modeling/warehouse-manage',
    resource: 'warehouse-management',
  },
  {
    title: '库位管理',
    path: '/factory-info/warehouse-modeling/warehouse-location-manage',
    resource: 'shelf-location',
  },
  { title: '设备台账', path: '/factory-info/equipment-manage/equipment-ledger', resource: 'equipment' },
  {
    title: '班组管理',
    path: '/factory-info/production-team/production-team-index',
    resource: 'production-team',
  },
  { title: '物料列表', path: '/factory-info/material-manage/material-list', resource: 'material-info' },
  {
    title: '物料模板',
    path: '/factory-info/material-manage/material-template-manage',
    resource: 'material-template',
  },
  { title: '产品BOM', path: '/factory-info/material-manage/product-bom', resource: 'product-bom' },
  { title: '产品管理', path: '/factory-info/material-manage/product-manage', resource: 'product-group' },
  { title: '计量单位', path: '/factory-info/material-manage/material-unit', resource: 'material-unit' },
  {
    title: '物料分类',
    path: '/factory-info/material-manage/material-classification',
    resource: 'material-classification',
  },
  {
    title: '制造方式',
    path: '/factory-info/material-manage/manufacturing-method',
    resource: 'manufacturing-method',
  },
  { title: '工艺路线', path: '/factory-info/process-manage/process-route', resource: 'process-route' },
  { title: '工序管理', path: '/factory-info/process-manage/process-manage', resource: 'process-manage' },
  { title: '工序分类', path: '/factory-info/process-manage/process-classify', resource: 'process-classify' },
  { title: '供应商管理', path: '/factory-info/supplier/supplier-manage', resource: 'supplier' },
  { title: '供应商分类', path: '/factory-info/supplier/supplier-classify', resource: 'supplier-classify' },
  { title: '客户管理', path: '/factory-info/custom/custom-manage', resource: 'customer' },
  { title: '客户分类', path: '/factory-info/custom/custom-classify', resource: 'custom-classify' },
  { title: '客户等级', path: '/factory-info/custom/custom-grade', resource: 'custom-grade' },
  { title: '客户标签', path: '/factory-info/custom/custom-label', resource: 'custom-label' },
];

test.describe('factory master data lists', () => {
  // One signed-in page for the whole file: each screen opens as the user would, by navigating.
  let page: Page;
  let guard: ConsoleGuard;
  test.beforeAll(async ({ browser, request }, info) => {
    const api = await Api.login(request);
    const use = info.project.use;
    page = await browser.newPage({
      baseURL: use.baseURL,
      locale: use.locale,
      timezoneId: use.timezoneId,
      viewport: use.viewport,
    });
    guard = new ConsoleGuard(page);
    await signedIn(page, api);
  });
  test.afterEach(() => {
    expect(guard.unexpected(), 'no uncaught error or console error in the browser').toEqual([]);
  });
  test.afterAll(async () => {
    await page.close();
  });

  for (const screen of SCREENS) {
    test(`${screen.title}: demo rows, code filter narrows the list`, async () => {
      await open(page, screen.path);
      const first = rows(page).first();
      await expect(first).toBeVisible();
      const before = await rows(page).count();
      expect(before).toBeGreaterThan(0);
      // The last row's code: searching it must leave only rows with that code.
      const code = (await rows(page).last().locator('.rk-link').textContent())?.trim() ?? '';
      expect(code).not.toBe('');
      await activePage(page).locator(`#rk-search-${screen.resource}_code`).fill(code);
      await activePage(page)
        .getByRole('button', { name: /搜\s*索/ })
        .click();
      await expect
        .poll(
          async () => {
            const codes = await rows(page).locator('.rk-link').allInnerTexts();
            return codes.length > 0 && codes.every((c) => c.includes(code));
          },
          { intervals: [100, 200] },
        )
        .toBe(true);
      expect(await rows(page).count()).toBeLessThanOrEqual(before);
      await expect(activePage(page).locator('.ant-pagination-total-text')).toContainText('共');
    });
  }

  test('工厂模型: the tree of workshops, lines and equipment drives the panel', async () => {
    await open(page, '/factory-info/factory-modeling/factory-modeling-main');
    const tree = activePage(page).getByTestId('factory-tree');
    await expect(tree).toContainText('车加工车间');
    await expect(activePage(page).getByTestId('factory-stats')).toContainText('车间');
    // The whole factory lists the workshops through the kit.
    await expect(rows(page)).toHaveCount(4);
    await tree.getByText('磨加工车间', { exact: true }).click();
    await expect(activePage(page).locator('.rk-page-title')).toContainText('磨加工车间');
    await expect(rows(page).first()).toBeVisible();
    await expect(rows(page).filter({ hasText: '内圈磨削线' })).toHaveCount(1);
    await tree.getByText('内圈磨削线', { exact: true }).click();
    await expect(activePage(page).locator('.rk-page-title')).toContainText('内圈磨削线');
    await expect(rows(page).first()).toBeVisible();
    // The tree search keeps matching nodes and their parents.
    await activePage(page).getByPlaceholder('搜索车间、产线、设备').fill('装配');
    await expect(tree).toContainText('装配车间');
    await expect(tree).not.toContainText('车加工车间');
  });
});
