import fs from 'node:fs';
import type { Browser, Locator } from '@playwright/test';
import {
  activePage,
  expect as baseExpect,
  ConsoleGuard,
  choose,
  confirmIn,
  type Page,
  rows,
  sidebar,
  signIn,
  test,
  toast,
  topMenu,
} from './support.ts';

/**
 * The whole story of one order through the UI alone (issue 35): each demo role signs in on his
 * own browser (the operators on a tablet) and works only by menu, tab, button and link clicks —
 * no address typed after sign-in and no API call. The order is new (its quantity and numbers are
 * read off the screens), so nothing depends on demo records the test did not make.
 */

// Eight browsers on a shared 2-core machine: answers take their time.
const expect = baseExpect.configure({ timeout: 30_000 });

/** The business day in the factory's zone, `n` days on. */
const day = (n = 0) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + n * 86_400_000),
  );

/** Two-character antd buttons get a space between the characters. */
const spaced = (label: string) => new RegExp(`^${[...label].join('\\s*')}$`);

/** A top-level menu entry, from 更多菜单 when the bar has no room for it. */
async function openTop(page: Page, name: string) {
  // Already in that area (where the user landed): its sidebar is showing.
  if (
    (
      (await sidebar(page)
        .locator('.rm-sider-title')
        .textContent()
        .catch(() => '')) ?? ''
    ).trim() === name
  ) {
    return;
  }
  const entry = topMenu(page).getByText(name, { exact: true });
  const more = topMenu(page).getByText('更多菜单');
  await expect(entry.or(more).first()).toBeVisible();
  if (await entry.isVisible()) return entry.click();
  await more.hover();
  await page.locator('.rm-topmenu-more').getByText(name, { exact: true }).click();
}

/** 顶部菜单 › sidebar groups › page: the way a user walks to a page. */
async function nav(page: Page, top: string, ...path: string[]) {
  await openTop(page, top);
  const side = sidebar(page);
  await expect(side.locator('.rm-sider-title')).toHaveText(top);
  for (const name of path.slice(0, -1)) {
    // The innermost submenu titled `name` (its parents hold the title too); opened unless open.
    const group = side
      .locator('.ant-menu-submenu')
      .filter({ has: page.locator('.ant-menu-submenu-title').getByText(name, { exact: true }) })
      .last();
    await expect(group).toBeVisible();
    if (!/ant-menu-submenu-open/.test((await group.getAttribute('class')) ?? '')) {
      await group.locator('.ant-menu-submenu-title').first().click();
    }
    await expect(group).toHaveClass(/ant-menu-submenu-open/);
  }
  // A menu item's name starts with its icon's ("profile 销售订单").
  const item = side.getByRole('menuitem', { name: new RegExp(`(^|\\s)${path[path.length - 1]}$`) });
  await expect(item).toBeVisible();
  await item.click();
  await expect(item).toHaveClass(/ant-menu-item-selected/);
  await expect(
    activePage(page).locator('.ant-table, .ant-form, .op-queue, .ant-empty').first(),
  ).toBeVisible();
}

/** Finds a document on the kit's list of `resource` open in the active tab by its number. */
async function search(page: Page, docNo: string, resource: string) {
  await activePage(page).locator(`#rk-search-${resource}_docNo`).fill(docNo);
  await activePage(page)
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  const row = rows(page).filter({ hasText: docNo });
  await expect(row).toHaveCount(1);
  return row;
}

/** The first number like `XS20261128-0007` in a locator's text. */
async function docNoIn(locator: Locator, prefix: string): Promise<string> {
  const text = await locator.innerText();
  const found = text.match(new RegExp(`${prefix}\\d{8}-\\d{4}`));
  expect(found, `${prefix}… in 「${text.slice(0, 200)}」`).toBeTruthy();
  return (found as RegExpMatchArray)[0];
}

/** Clicks a button of the open popconfirm until it closes (a click during its zoom is lost). */
async function popconfirm(page: Page, name: RegExp) {
  const pop = page.locator('.ant-popover:visible').last();
  await expect(pop).toBeVisible();
  await expect(async () => {
    if (await pop.isVisible()) await pop.getByRole('button', { name }).click({ timeout: 2_000 });
    await expect(pop).toBeHidden({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Fills an inspection task's result grid as an inspector does: each 计量 sample inside the limits
 * printed above its column (or, for `bad`, one sample of the first 计量 column beyond them), each
 * 计数 sample OK.
 */
async function fillGrid(page: Page, bad = false) {
  const grid = activePage(page).getByTestId('entry-grid');
  await expect(grid).toBeVisible();
  const heads = grid.locator('thead th');
  const columns = (await heads.count()) - 1;
  let spoiled = !bad;
  for (let col = 0; col < columns; col++) {
    const cells = grid.locator(`[data-testid^="cell-${col}-"]`);
    const n = await cells.count();
    const limits = (
      await heads
        .nth(col + 1)
        .locator('.qi-limit')
        .allInnerTexts()
    ).join(' ');
    if ((await cells.first().evaluate((e) => e.tagName)) === 'BUTTON') {
      for (let k = 1; k <= n; k++) {
        const cell = grid.getByTestId(`cell-${col}-${k}`);
        if ((await cell.innerText()) !== 'OK') await cell.click();
        await expect(cell).toHaveText('OK');
      }
      continue;
    }
    const range = limits.match(/(-?[\d.]+) ~ (-?[\d.]+)/);
    const atMost = limits.match(/≤ (-?[\d.]+)/);
    const atLeast = limits.match(/≥ (-?[\d.]+)/);
    let good = '1';
    let over = '';
    if (range) {
      const [lo, hi] = [Number(range[1]), Number(range[2])];
      good = String(Number(((lo + hi) / 2).toFixed(4)));
      over = String(Number((hi + (hi - lo)).toFixed(4)));
    } else if (atMost) {
      good = String(Number((Number(atMost[1]) / 2).toFixed(4)));
      over = String(Number((Number(atMost[1]) * 2 + 1).toFixed(4)));
    } else if (atLeast) {
      good = String(Number((Number(atLeast[1]) * 1.05 + 0.1).toFixed(4)));
      over = String(Number((Number(atLeast[1]) / 2).toFixed(4)));
    }
    for (let k = 1; k <= n; k++) {
      const value = !spoiled && over && k === 1 ? over : good;
      await grid.getByTestId(`cell-${col}-${k}`).fill(value);
    }
    if (over) spoiled = true;
  }
}

interface Desk {
  page: Page;
  guard: ConsoleGuard;
}

test.describe('the whole story', () => {
  test('sales order → production → purchasing → workshops → shipment → receivable → wages → trace, each role in turn', async ({
    browser,
    page: adminPage,
    guard,
  }) => {
    test.setTimeout(20 * 60_000);
    const desks = new Map<string, Desk>();
    const use = test.info().project.use;
    /** The user's own browser, signed in once (an operator's is a 10-inch tablet in landscape). */
    const as = async (user: string): Promise<Page> => {
      const known = desks.get(user);
      if (known) {
        await known.page.bringToFront();
        return known.page;
      }
      const context = await (browser as Browser).newContext({
        baseURL: use.baseURL,
        locale: use.locale,
        timezoneId: use.timezoneId,
        viewport: user.startsWith('op') ? { width: 1280, height: 800 } : { width: 1440, height: 900 },
        hasTouch: user.startsWith('op'),
      });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      const desk = { page, guard: new ConsoleGuard(page) };
      desks.set(user, desk);
      await signIn(page, user, user === 'admin' ? 'admin123' : 'demo123');
      await expect(topMenu(page)).toBeVisible();
      return page;
    };
    void adminPage;
    void guard;
    /** On a failure: every desk's screen and its ARIA snapshot beside the report. */
    const dump = async () => {
      for (const [user, desk] of desks) {
        if (desk.page.isClosed()) continue;
        await desk.page.screenshot({ path: test.info().outputPath(`desk-${user}.png`) }).catch(() => {});
        const aria = await desk.page
          .locator('body')
          .ariaSnapshot()
          .catch(() => '');
        fs.writeFileSync(test.info().outputPath(`desk-${user}.aria.yml`), `${desk.page.url()}\n${aria}`);
      }
    };
    try {
      const quantity = 50;
      let saleNo = '';
      let customer = '';
      let orderNo = '';

      await test.step('sales01: 新增销售订单 50 × 6205-2RS/P6, 保存, 审核', async () => {
        const page = await as('sales01');
        await nav(page, '销售管理', '销售订单');
        await activePage(page).getByRole('button', { name: '新增销售订单' }).click();
        const form = activePage(page);
        // Any active customer: the first one offered.
        await page.locator('#rk-sale-order_customerId').click();
        const firstCustomer = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
        const label = (await firstCustomer.innerText()).trim();
        await firstCustomer.click();
        await expect(
          form.locator('.ant-select').filter({ has: page.locator('#rk-sale-order_customerId') }),
        ).toContainText(label);
        // The option reads 「name（code）」; lists and links show the name.
        customer = label.replace(/（[^（]*）$/, '');
        const delivery = page.locator('#rk-sale-order_deliveryDate');
        await delivery.click();
        await delivery.fill(day(30));
        await delivery.press('Enter');
        await choose(page, 'rk-sale-order_lines_0_materialId', 'FG-6205-2RS-P6');
        await page.locator('#rk-sale-order_lines_0_quantity').fill(String(quantity));
        // Unit and price fill in from the product before saving.
        await expect(page.locator('#rk-sale-order_lines_0_unitPrice')).toHaveValue(/^6\.2/);
        await form.getByRole('button', { name: /保\s*存$/ }).click();
        await expect(toast(page, '新增成功')).toBeVisible();
        // Back on the list, the new order on top: 草稿, 50 × 6.20 = 310.00.
        const mine = rows(page).filter({ hasText: customer }).filter({ hasText: '310.00' }).first();
        await expect(mine).toContainText('草稿');
        saleNo = await docNoIn(mine, 'XS');
        const row = await search(page, saleNo, 'sale-order');
        await row.getByRole('button', { name: spaced('查看') }).click();
        const detail = activePage(page);
        await expect(detail.getByTestId('detail-sale-order')).toContainText(saleNo);
        await expect(detail.getByTestId('detail-sale-order')).toContainText('310.00');
        await detail.getByTestId('transition-approve').click();
        await expect(toast(page, '审核成功')).toBeVisible();
        await expect(detail.locator('.ant-tag').filter({ hasText: '已审核' }).first()).toBeVisible();
      });

      await test.step('plan01: 从销售订单生成 the production order, 计划开工 two weeks ahead, 下达', async () => {
        const page = await as('plan01');
        await nav(page, '生产部', '生产管理', '生产订单');
        await activePage(page).getByRole('button', { name: '从销售订单生成' }).click();
        const dialog = page.locator('.ant-modal:visible');
        await dialog.locator('#sale-line-pick_docNo').fill(saleNo);
        await dialog.getByRole('button', { name: /搜\s*索/ }).click();
        const line = dialog.locator('.ant-table-row').filter({ hasText: saleNo });
        await expect(line).toHaveCount(1);
        await line.locator('.ant-checkbox-input').check();
        await expect(dialog.getByLabel(/生产数量/)).toHaveValue(/^50(\.0+)?$/);
        const start = dialog.locator('.ant-modal-footer .ant-picker input, .ant-picker input').last();
        await start.click();
        await start.fill(day(14));
        await start.press('Enter');
        await dialog.getByRole('button', { name: /生成生产订单（1 张）/ }).click();
        const made = toast(page, /已生成生产订单 SC/);
        await expect(made).toBeVisible();
        orderNo = await docNoIn(made, 'SC');
        const row = await search(page, orderNo, 'production-order');
        await expect(row).toContainText(day(14));
        await row.getByRole('button', { name: spaced('查看') }).click();
        const detail = activePage(page);
        await expect(detail.getByTestId('detail-production-order')).toBeVisible();
        await expect(detail.getByTestId('detail-production-order')).toContainText(saleNo);
        await detail.getByTestId('transition-release').click();
        await confirmIn(page, /^下\s*达$/);
        await expect(toast(page, '下达成功')).toBeVisible();
        await expect(detail.locator('.ant-tag').filter({ hasText: '已下达' }).first()).toBeVisible();
      });

      const rings: { kind: '内圈' | '外圈'; docNo: string }[] = [];
      await test.step('plan01: 生成自制件订单 — the inner and the outer ring, linked, planned before the bearing; each 下达', async () => {
        const page = await as('plan01');
        const detail = activePage(page);
        await detail.getByTestId('sub-orders-open').click();
        const dialog = page.locator('.ant-modal:visible');
        await expect(dialog.locator('.ant-modal-title')).toContainText(`生成自制件订单 · ${orderNo}`);
        const parts = dialog.getByTestId('sub-order-parts').locator('.ant-table-row');
        await expect(parts).toHaveCount(2);
        await expect(parts.filter({ hasText: '内圈' })).toContainText(String(quantity));
        await expect(parts.filter({ hasText: '外圈' })).toContainText(String(quantity));
        await expect(dialog.getByText('晚于本订单开工')).toHaveCount(0);
        await dialog.getByRole('button', { name: /生成自制件订单（2 张）/ }).click();
        await expect(toast(page, /已生成自制件订单 SC/)).toBeVisible();
        const made = detail.getByTestId('sub-orders').locator('.ant-table-row');
        await expect(made).toHaveCount(2);
        for (const kind of ['内圈', '外圈'] as const) {
          const docNo = await docNoIn(made.filter({ hasText: kind }), 'SC');
          rings.push({ kind, docNo });
        }
        for (const ring of rings) {
          // Open it from the parent's page, check its links, 下达, back to the parent by its link.
          await activePage(page).getByTestId('sub-orders').getByText(ring.docNo).click();
          const sub = activePage(page);
          const links = sub.getByTestId('order-relations');
          await expect(links).toContainText(`上级订单：${orderNo}`);
          await expect(links).toContainText(`销售订单：${saleNo}`);
          await expect(links).toContainText(`客户：${customer}`);
          await sub.getByTestId('transition-release').click();
          await confirmIn(page, /^下\s*达$/);
          await expect(toast(page, '下达成功')).toBeVisible();
          await expect(sub.locator('.ant-tag').filter({ hasText: '已下达' }).first()).toBeVisible();
          await links.locator('a', { hasText: orderNo }).click();
          await expect(activePage(page).getByTestId('sub-orders')).toBeVisible();
        }
        await expect(activePage(page).getByTestId('sub-orders')).not.toContainText('草稿');
      });

      let requisitionNo = '';
      await test.step('plan01: 物料需求 shows the balls short → 生成请购单, 审核', async () => {
        const page = await as('plan01');
        const detail = activePage(page);
        await detail.getByRole('tab', { name: '物料需求' }).click();
        const needs = detail.getByTestId('production-requirements');
        await expect(needs.getByTestId('shortage-count')).toBeVisible();
        await needs.getByRole('button', { name: /生成请购单/ }).click();
        await popconfirm(page, /确\s*定|OK/);
        // The new requisition's number sits beside the (now spent) button.
        const link = needs.getByRole('button', { name: /^QG\d{8}-\d{4}$/ });
        await expect(link).toBeVisible();
        requisitionNo = (await link.innerText()).trim();
        await expect(needs.getByRole('button', { name: /生成请购单/ })).toBeDisabled();
        await needs.getByRole('button', { name: requisitionNo }).click();
        const req = activePage(page);
        await expect(req).toContainText(requisitionNo);
        await expect(req).toContainText('钢球');
        await req.getByTestId('transition-approve').click();
        await expect(toast(page, '审核成功')).toBeVisible();
        await expect(req.locator('.ant-tag').filter({ hasText: '已审核' }).first()).toBeVisible();
      });

      let purchaseNo = '';
      let ordered = '';
      await test.step('buy01: 从请购单生成 the purchase order from a 钢球 supplier, 审核', async () => {
        const page = await as('buy01');
        await nav(page, '采购管理', '采购订单');
        await activePage(page).getByRole('button', { name: '从请购单生成' }).click();
        const dialog = page.locator('.ant-modal:visible');
        await dialog.locator('#req-pick_docNo').fill(requisitionNo);
        await dialog.getByRole('button', { name: /搜\s*索/ }).click();
        // The balls' line: other flows running beside this one may leave more materials short.
        const line = dialog
          .locator('.ant-table-row')
          .filter({ hasText: requisitionNo })
          .filter({ hasText: '钢球' })
          .first();
        await expect(line).toBeVisible();
        await line.locator('.ant-checkbox-input').check();
        ordered = await dialog.getByLabel(/下单数量/).inputValue();
        expect(Number(ordered)).toBeGreaterThan(0);
        const supplier = line.locator('.ant-select');
        await supplier.click();
        await page.keyboard.type('宏达钢球');
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: '聊城宏达钢球有限公司' })
          .first()
          .click();
        await expect(supplier).toContainText('聊城宏达钢球有限公司');
        await dialog.getByRole('button', { name: /生成采购订单（1 行）/ }).click();
        const made = toast(page, /已生成采购订单 CG/);
        await expect(made).toBeVisible();
        purchaseNo = await docNoIn(made, 'CG');
        const row = await search(page, purchaseNo, 'purchase-order');
        await row.getByRole('button', { name: spaced('查看') }).click();
        await expect(activePage(page).getByTestId('detail-purchase-order')).toContainText(purchaseNo);
        const detail = activePage(page);
        await expect(detail.getByTestId('detail-purchase-order')).toContainText('聊城宏达钢球有限公司');
        await detail.getByTestId('transition-approve').click();
        await expect(toast(page, '审核成功')).toBeVisible();
        await expect(detail.locator('.ant-tag').filter({ hasText: '已审核' }).first()).toBeVisible();
      });

      let receiptNo = '';
      await test.step('wh01: 采购入库 against the CG… into 辅料仓, 待检; 过账', async () => {
        const page = await as('wh01');
        await nav(page, '仓储物流', '入库管理', '采购入库');
        await activePage(page)
          .getByRole('button', { name: /新增采购入库/ })
          .click();
        const form = activePage(page);
        await choose(page, 'wh-stock-inbound_warehouseId', '辅料仓');
        await choose(page, 'wh-stock-inbound_purchaseOrderId', purchaseNo);
        // The order's open line fills in: the balls, all that was ordered.
        await expect(form.getByLabel('第1行数量')).toHaveValue(new RegExp(`^${Number(ordered)}(\\.0+)?$`));
        await expect(form.getByLabel('第2行数量')).toHaveCount(0);
        // The balls are batch-managed: the supplier's lot number off the box.
        await form.getByLabel('第1行批次号').fill(`QB${Date.now().toString(36).slice(-6).toUpperCase()}`);
        const quality = form.locator('.ant-select').filter({ has: page.getByLabel('第1行质量状态') });
        await quality.click();
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: '待检' })
          .click();
        await expect(quality).toContainText('待检');
        await form.getByRole('button', { name: /保\s*存/ }).click();
        const detail = activePage(page);
        await expect(detail.getByTestId('doc-no')).toHaveText(/RK\d{8}-\d{4}/);
        receiptNo = (await detail.getByTestId('doc-no').innerText()).trim();
        await detail
          .getByRole('button', { name: /过\s*账/ })
          .first()
          .click();
        await confirmIn(page, '过账');
        await expect(toast(page, '过账成功')).toBeVisible();
        await expect(detail).toContainText('待检');
      });

      await test.step('qc01: 装配来料检验 of the balls — 录入结果, 保存, 判定合格', async () => {
        const page = await as('qc01');
        await nav(page, '质量检测', '装配检验', '装配来料检验');
        const task = rows(page).filter({ hasText: receiptNo });
        await expect(task).toHaveCount(1);
        await expect(task).toContainText('轴承钢球');
        await task.getByRole('button', { name: '录入结果' }).click();
        const entry = activePage(page);
        await fillGrid(page);
        await entry.getByRole('button', { name: /保\s*存/ }).click();
        await expect(toast(page, /自动判定：合格/)).toBeVisible();
        await entry.getByRole('button', { name: '判定合格' }).click();
        await confirmIn(page, '判定合格');
        await expect(toast(page, '判定合格成功')).toBeVisible();
      });

      /** 车间主任: 〈workshop〉 › 〈label〉任务, the order's task of step `seq` › 派工 to `operator`. */
      const dispatchTask = async (
        workshop: string,
        label: string,
        docNo: string,
        seq: number,
        operator: string,
      ) => {
        const page = await as('head01');
        await nav(page, '生产部', '生产管理', workshop, `${label}任务`);
        const tasks = activePage(page);
        const dialog = page.locator('.ant-modal:visible');
        // The list refreshes live as other work is posted: search again until the row takes the click.
        await expect(async () => {
          const search = tasks.locator('input[id$="taskNo"]').first();
          if ((await search.inputValue()) !== docNo) {
            await search.fill(docNo);
            await tasks.getByRole('button', { name: /搜\s*索/ }).click();
          }
          const taskRow = tasks.locator('.ant-table-row').filter({ hasText: `${docNo}-${seq}` });
          await expect(taskRow).toHaveCount(1, { timeout: 5_000 });
          await taskRow.getByTestId('task-dispatch').click({ timeout: 5_000 });
          await expect(dialog.getByText('待派数量')).toBeVisible({ timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
        const who = dialog.locator('.ant-table-row .ant-select').nth(1);
        await who.click();
        await page.keyboard.type(operator);
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: operator })
          .first()
          .click();
        await dialog.getByRole('button', { name: /确定派工/ }).click();
        await expect(toast(page, /已派工：PG/)).toBeVisible();
      };
      /** 操作工 on his tablet: 〈workshop〉 › 操作工任务, the dispatch of task `docNo-seq` › 开工 › 报工 by the card. */
      const report = async (
        operator: string,
        workshop: string,
        docNo: string,
        seq: number,
        good: number,
      ): Promise<string> => {
        const page = await as(operator);
        await nav(page, '生产部', '生产管理', workshop, '操作工任务');
        const mine = activePage(page)
          .getByTestId('operator-queue')
          .locator('.op-card')
          .filter({ hasText: `任务 ${docNo}-${seq}` })
          .first();
        await expect(mine).toBeVisible();
        const open = mine.getByRole('button', { name: /开工单|进入作业/ });
        const fresh = /开工单/.test(await open.innerText());
        await open.click();
        const sheet = activePage(page);
        if (fresh) {
          await sheet.getByTestId('sheet-start').click();
          await expect(toast(page, '开工成功')).toBeVisible();
        }
        await sheet.getByTestId('sheet-report').click();
        const dialog = page.locator('.ant-modal:visible');
        const card = cardOf.get(docNo) as string;
        await dialog.getByTestId('report-card').fill(card);
        await dialog.getByTestId('report-card').press('Enter');
        await expect(dialog.getByText(`流转卡 ${card}`)).toBeVisible();
        await dialog.getByLabel('合格数').fill(String(good));
        await dialog.getByTestId('report-submit').click();
        const made = toast(page, /已报工 BG.*等待审核/);
        await expect(made).toBeVisible();
        return docNoIn(made, 'BG');
      };
      /** 车间主任: 〈workshop〉 › 报工, the report › 审核 (it posts, or waits 待检验 for its inspection). */
      const approve = async (
        workshop: string,
        reportNo: string,
        after: RegExp = /已审核|已入账|已过账|待检验/,
      ) => {
        const page = await as('head01');
        await nav(page, '生产部', '生产管理', workshop, '报工');
        const list = activePage(page);
        const row = list.locator('.ant-table-row').filter({ hasText: reportNo });
        // The tab kept from the last visit shows the list as it was: search the new report.
        await expect(async () => {
          await list.getByRole('textbox', { name: /报工单号/ }).fill(reportNo);
          await list.getByRole('button', { name: /搜\s*索/ }).click();
          await expect(row).toHaveCount(1, { timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
        await expect(row).toContainText('已提交');
        await row.getByTestId('transition-approve').click();
        await confirmIn(page, '审核');
        await expect(toast(page, '审核成功')).toBeVisible();
        await expect(row).toContainText(after);
      };
      /** 质检员: 质量检测 › 〈group〉 › 〈list〉, the task of report `reportNo` › 录入结果 › 判定. */
      const inspect = async (group: string, list: string, reportNo: string, fail = false) => {
        const page = await as('qc01');
        await nav(page, '质量检测', group, list);
        const task = rows(page).filter({ hasText: reportNo });
        // The tab kept from the last visit shows the list as it was: 刷新列表 until the new task is in.
        await expect(async () => {
          await activePage(page).getByRole('button', { name: '刷新列表' }).first().click();
          await expect(task).toHaveCount(1, { timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
        await expect(task).toContainText('待检验');
        await task.getByRole('button', { name: '录入结果' }).click();
        const entry = activePage(page);
        await fillGrid(page, fail);
        await entry.getByRole('button', { name: /保\s*存/ }).click();
        if (fail) {
          await expect(toast(page, /自动判定：不合格/)).toBeVisible();
          // 判定不合格 with 返工: the card is held until the reworked pieces pass 返工复检.
          await entry.getByTestId('transition-reject').click();
          const dialog = page.locator('.ant-modal:visible');
          await dialog.getByRole('radio', { name: '返工' }).check();
          await dialog.getByRole('button', { name: '判定不合格' }).click();
          await expect(toast(page, '判定不合格成功')).toBeVisible();
          await entry.getByTestId('transition-reinspect').click();
          await confirmIn(page, '返工复检');
          await expect(toast(page, '返工复检成功')).toBeVisible();
          await fillGrid(page);
          await entry.getByRole('button', { name: /保\s*存/ }).click();
        }
        await expect(toast(page, /自动判定：合格/)).toBeVisible();
        await entry.getByTestId('transition-pass').click();
        await confirmIn(page, '判定合格');
        await expect(toast(page, '判定合格成功')).toBeVisible();
      };
      const cardOf = new Map<string, string>();
      const heat = `L${Date.now().toString(36).slice(-6).toUpperCase()}`;
      await test.step('plan01: each order — 流转卡 tab › 开卡 (50 a card, 炉号), then 派单', async () => {
        const page = await as('plan01');
        for (const docNo of [rings[0].docNo, rings[1].docNo, orderNo]) {
          await nav(page, '生产部', '生产管理', '生产订单');
          const row = await search(page, docNo, 'production-order');
          await row.getByRole('button', { name: spaced('查看') }).click();
          await expect(activePage(page).getByTestId('detail-production-order')).toContainText(docNo);
          const detail = activePage(page);
          await detail.getByRole('tab', { name: '流转卡' }).click();
          const cards = detail.getByTestId('order-flow-cards');
          await expect(cards.getByTestId('flow-card-coverage')).toHaveText(`已开卡 0 / 订单 ${quantity}`);
          await cards.getByRole('button', { name: /开\s*卡/ }).click();
          const dialog = page.locator('.ant-modal:visible');
          await dialog.getByLabel('每卡数量').fill(String(quantity));
          await dialog.getByLabel('炉号').fill(heat);
          await expect(dialog.getByText('将开 1 张卡')).toBeVisible();
          await dialog.getByRole('button', { name: /开\s*卡/ }).click();
          await expect(toast(page, '已开流转卡 1 张')).toBeVisible();
          await expect(cards.getByTestId('flow-card-coverage')).toHaveText(
            `已开卡 ${quantity} / 订单 ${quantity}`,
          );
          cardOf.set(docNo, await docNoIn(cards.locator('.ant-table-row').first(), 'LZ'));
          // 派单: the button on the order's page opens its 派单 page, where 派单 makes the tasks.
          await detail.getByTestId('order-dispatch-open').click();
          const plan = activePage(page);
          await expect(plan.locator('.rm-card-title')).toContainText(`生产订单派单 · ${docNo}`);
          await plan.getByTestId('order-dispatch').click();
          await expect(toast(page, /派单成功，生成车间任务 \d+ 个/)).toBeVisible();
          await expect(plan.getByRole('button', { name: `${docNo}-10`, exact: true })).toBeVisible();
        }
      });
      const [inner, outer] = [rings[0].docNo, rings[1].docNo];
      await test.step('车加工: head01 派工s 下料 of both rings to op01; op01 reports 50 on his tablet; head01 审核s', async () => {
        for (const docNo of [outer, inner]) {
          await dispatchTask('车加工车间', '车加工', docNo, 10, 'op01');
          const reportNo = await report('op01', '车加工车间', docNo, 10, quantity);
          await approve('车加工车间', reportNo);
        }
      });
      await test.step('车外圈 / 车内圈 with 首检: 1 piece first, 待检验 after 审核; qc01 passes the outer, fails the inner (返工, 复检, 合格); then the other 49', async () => {
        for (const docNo of [outer, inner]) {
          await dispatchTask('车加工车间', '车加工', docNo, 20, 'op01');
          const first = await report('op01', '车加工车间', docNo, 20, 1);
          await approve('车加工车间', first, /待检验/);
          await inspect('车加工检验', '车加工报工检验', first, docNo === inner);
          const rest = await report('op01', '车加工车间', docNo, 20, quantity - 1);
          await approve('车加工车间', rest);
        }
      });
    } catch (error) {
      await dump();
      throw error;
    }
    for (const desk of desks.values()) expect(desk.guard.unexpected()).toEqual([]);
    for (const desk of desks.values()) await desk.page.context().close();
  });
});
