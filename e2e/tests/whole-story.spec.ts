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
  // The page's own group: two workshops' groups open at once both hold a 报工.
  let scope: Locator = side;
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
    scope = group;
  }
  // A menu item's name starts with its icon's ("profile 销售订单").
  const item = scope.getByRole('menuitem', { name: new RegExp(`(^|\\s)${path[path.length - 1]}$`) });
  await expect(item).toBeVisible();
  await item.click();
  await expect(item).toHaveClass(/ant-menu-item-selected/);
  await expect(
    activePage(page)
      // The shown one: a page of tabs (系统设置) keeps the other tabs' forms hidden.
      .locator('.ant-table, .ant-form, .op-queue, .ant-empty, [data-testid="trace-search"] >> visible=true')
      .first(),
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
 * Fills an inspection task's result grid as an inspector does, by keyboard: each 计量 sample inside
 * the limits printed above its column (or, for `bad`, one sample of the first 计量 column beyond
 * them), each 计数 sample OK (O); Enter moves down a column and on to the next column's first.
 * One keystroke stream per grid: a cell-by-cell fill took two minutes for the balls' 来料检验
 * (a large lot's sample).
 */
async function fillGrid(page: Page, bad = false) {
  const grid = activePage(page).getByTestId('entry-grid');
  await expect(grid).toBeVisible();
  const columns = await grid.evaluate((table) => {
    const heads = Array.from(table.querySelectorAll('thead th')).slice(1);
    return heads.map((th, col) => {
      const cells = Array.from(table.querySelectorAll<HTMLElement>(`[data-testid^="cell-${col}-"]`));
      return {
        n: cells.length,
        toggle: cells[0]?.tagName === 'BUTTON',
        limits: Array.from(th.querySelectorAll('.qi-limit'))
          .map((e) => (e as HTMLElement).innerText)
          .join(' '),
        typed: cells.some((c) => c.tagName === 'INPUT' && (c as HTMLInputElement).value !== ''),
      };
    });
  });
  let spoiled = !bad;
  const plan = columns.map(({ n, toggle, limits }) => {
    if (toggle) return Array.from({ length: n }, () => 'o');
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
    const values = Array.from({ length: n }, (_, k) => (!spoiled && over && k === 0 ? over : good));
    if (over) spoiled = true;
    return values;
  });
  await grid.getByTestId('cell-0-1').focus();
  if (columns.some((c) => c.typed)) {
    // Results kept from before (返工复检): each value replaces the cell's.
    for (const [col, values] of plan.entries())
      for (const v of values) {
        if (!columns[col].toggle) await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(`${v}\n`);
      }
  } else {
    await page.keyboard.type(plan.map((values) => values.map((v) => `${v}\n`).join('')).join(''));
  }
  // Every column's last sample took its value.
  for (const [col, values] of plan.entries()) {
    const last = grid.getByTestId(`cell-${col}-${values.length}`);
    if (columns[col].toggle) await expect(last).toHaveText('OK');
    else await expect(last).toHaveValue(values[values.length - 1]);
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
    test.setTimeout(30 * 60_000);
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
    /** admin: 系统管理 › 系统设置 › 出货检验, 发货前必须检验合格 on or off, 保存. */
    let gateOn = false;
    const shipmentGate = async (on: boolean) => {
      const page = await as('admin');
      await nav(page, '系统管理', '系统设置');
      await activePage(page).getByRole('tab', { name: '出货检验' }).click();
      const gate = activePage(page).getByRole('switch', { name: '发货前必须检验合格' });
      if ((await gate.getAttribute('aria-checked')) !== String(on)) await gate.click();
      await expect(gate).toHaveAttribute('aria-checked', String(on));
      await activePage(page)
        .getByRole('tabpanel', { name: '出货检验' })
        .getByRole('button', { name: /保\s*存/ })
        .click();
      await expect(toast(page, '出货检验设置已保存')).toBeVisible();
      gateOn = on;
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
        await expect(entry.getByText('检验单已判定或没有检验权限，结果只读')).toBeVisible();
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
        // The option list re-renders as it searches: a click can land on a list being replaced
        // (a CI run dispatched with no operator chosen). Chosen is when the select shows him.
        await expect(async () => {
          await who.click();
          await page.keyboard.type(operator);
          await page
            .locator('.ant-select-dropdown:visible .ant-select-item-option')
            .filter({ hasText: operator })
            .first()
            .click({ timeout: 5_000 });
          await expect(who).toContainText(operator, { timeout: 2_000 });
        }).toPass({ timeout: 30_000 });
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
        // The queue reads itself again when its tab comes back: the dispatch just made shows at once,
        // not at its 30-second poll.
        await expect(mine).toBeVisible({ timeout: 15_000 });
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
          await list.getByTestId('search-keyword').fill(reportNo);
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
        // Judged: the results turn read-only (a toast may be gone before a loaded machine looks).
        await expect(entry.getByText('检验单已判定或没有检验权限，结果只读')).toBeVisible();
      };
      const cardOf = new Map<string, string>();
      const heat = `L${Date.now().toString(36).slice(-6).toUpperCase()}`;
      await test.step("plan01: each order — 流转卡 tab › 开卡 (50 a card; the rings' with the steel's 炉号), then 派单", async () => {
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
          // The rings are turned from the steel of heat `heat`; the bearing's card carries the heats of
          // the rings issued to its order (领料出库 below), none typed.
          if (docNo !== orderNo) await dialog.getByLabel('炉号').fill(heat);
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
          // Every report of an inspected step waits for its inspection: the other 49 too.
          const rest = await report('op01', '车加工车间', docNo, 20, quantity - 1);
          await approve('车加工车间', rest, /待检验/);
          await inspect('车加工检验', '车加工报工检验', rest);
        }
      });
      await test.step('plan01: 生产委外 — each ring card 发出 50 to a 热处理 supplier, 收回 50 at HRC 62', async () => {
        const page = await as('plan01');
        await nav(page, '生产部', '生产委外');
        const list = activePage(page);
        const dialog = page.locator('.ant-modal:visible');
        for (const docNo of [outer, inner]) {
          const row = list.locator('.ant-table-row').filter({ hasText: cardOf.get(docNo) as string });
          await expect(row).toContainText('待发出');
          await expect(row).toContainText(heat);
          await row.getByRole('button', { name: '发出' }).click();
          await expect(dialog.locator('#outsource_quantity')).toHaveValue(String(quantity));
          await dialog.locator('#outsource_weight').fill('6.4');
          // 委外供应商 offers the heat-treatment suppliers only.
          await dialog.locator('#outsource_supplierId').click();
          await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
          await dialog.locator('#outsource_unitPrice').fill('0.85');
          await dialog.getByRole('button', { name: /^发\s*出$/ }).click();
          await expect(toast(page, '已保存')).toBeVisible();
          await expect(row).toContainText('在外');
          await row.getByRole('button', { name: '收回' }).click();
          await expect(dialog.locator('#outsource_quantity')).toHaveValue(String(quantity));
          await dialog.locator('#outsource_hardnessHrc').fill('62');
          await dialog.getByRole('button', { name: /^收\s*回$/ }).click();
          await expect(toast(page, '已保存')).toBeVisible();
          await expect(row).toContainText('已收回');
          await expect(row).toContainText('62');
        }
      });
      /** A step worked in one go: 派工 all, 报工 all, 审核 (and, on an inspected step, its inspection). */
      const step = async (
        w: { workshop: string; label: string; group: string; list: string },
        docNo: string,
        seq: number,
        operator: string,
        inspected = false,
      ) => {
        await dispatchTask(w.workshop, w.label, docNo, seq, operator);
        const done = await report(operator, w.workshop, docNo, seq, quantity);
        await approve(w.workshop, done, inspected ? /待检验/ : /已审核|已入账|已过账/);
        if (inspected) await inspect(w.group, w.list, done);
      };
      const grinding = {
        workshop: '磨加工车间',
        label: '磨加工',
        group: '磨加工检验',
        list: '磨加工报工检验',
      };
      await test.step('磨加工: op02 磨端面, 磨外径/磨内径, 磨沟道 and 超精 (each inspected by qc01) for both rings', async () => {
        for (const docNo of [outer, inner]) {
          for (const seq of [40, 50]) await step(grinding, docNo, seq, 'op02');
          for (const seq of [60, 70]) await step(grinding, docNo, seq, 'op02', true);
        }
      });
      const inspection = {
        workshop: '检测车间',
        label: '检测',
        group: '检测车间检验',
        list: '检测车间报工检验',
      };
      await test.step("检测车间: head01 派工s 清洗, 尺寸检测, 外观检测, 探伤 to qc01, who reports them; the last posts the rings' 生产入库", async () => {
        for (const docNo of [outer, inner]) {
          for (const seq of [80, 90, 100, 110]) await step(inspection, docNo, seq, 'qc01');
        }
      });
      const measured = ['51.9951', '51.9947', '51.9953', '51.9949', '51.9950'];
      await test.step("qc01: 计量检定 › 外径测量 — a subgroup of the outer ring's card (5 values)", async () => {
        const page = await as('qc01');
        await nav(page, '计量检定', '外径测量');
        const entry = activePage(page);
        await choose(page, 'measure-entry_productId', 'SF-6205-OR-P6');
        // The 流转卡 picker offers the product's cards (with their heats): the story's by its number.
        await choose(page, 'measure-entry_flowCardId', cardOf.get(outer) as string);
        // A grinder without an SPC series of this ring: the subgroup raises no alarm (and no hold).
        await choose(page, 'measure-entry_equipmentId', 'EQ-MJ-002');
        await entry.getByTestId('measure-value-0').click();
        for (const v of measured) await page.keyboard.type(`${v}\n`);
        await expect(toast(page, '子组已保存')).toBeVisible();
      });
      await test.step('wh01: 领料出库 for the bearing order — the order picked, its two rings from 半成品仓 by their cards; 过账', async () => {
        const page = await as('wh01');
        await nav(page, '仓储物流', '出库管理', '领料出库');
        await activePage(page)
          .getByRole('button', { name: /新增领料出库/ })
          .click();
        const form = activePage(page);
        await choose(page, 'wh-stock-outbound_warehouseId', '半成品仓');
        await choose(page, 'wh-stock-outbound_productionOrderId', orderNo);
        // The order's materials not issued yet fill in; the rings come from this store, each by the
        // card it was received under (its 生产入库 batch), the rest from other stores.
        const batches = form.getByLabel(/^第\d+行批次号$/);
        await expect(batches.first()).toBeVisible();
        const n = await batches.count();
        expect(n).toBeGreaterThanOrEqual(2);
        for (let i = n; i >= 1; i--) {
          const line = form.locator('tr').filter({ has: page.getByLabel(`第${i}行批次号`, { exact: true }) });
          const text = await line.innerText();
          const ring = /外圈/.test(text) ? outer : /内圈/.test(text) ? inner : undefined;
          if (ring) {
            await expect(form.getByLabel(`第${i}行数量`, { exact: true })).toHaveValue(/^50(\.0+)?$/);
            await form.getByLabel(`第${i}行批次号`, { exact: true }).fill(cardOf.get(ring) as string);
          } else await line.getByRole('button', { name: /删除/ }).click();
        }
        await expect(batches).toHaveCount(2);
        await form.getByRole('button', { name: /保\s*存/ }).click();
        const detail = activePage(page);
        await expect(detail.getByTestId('doc-no')).toHaveText(/CK\d{8}-\d{4}/);
        await expect(detail).toContainText(cardOf.get(outer) as string);
        await expect(detail).toContainText(cardOf.get(inner) as string);
        await detail
          .getByRole('button', { name: /过\s*账/ })
          .first()
          .click();
        await confirmIn(page, '过账');
        await expect(toast(page, '过账成功')).toBeVisible();
      });
      const assembly = { workshop: '装配车间', label: '装配', group: '装配检验', list: '装配报工检验' };
      await test.step("装配车间: op01 合套, 装球, 装保持架, 注脂, 压盖 (末检 by qc01), 包装 — the last 审核 posts the bearings' 生产入库", async () => {
        for (const seq of [10, 20, 30, 40]) await step(assembly, orderNo, seq, 'op01');
        await step(assembly, orderNo, 50, 'op01', true);
        await step(assembly, orderNo, 60, 'op01');
      });
      let outboundNo = '';
      await test.step("sales01: 销售仓库 › the order's line › 发货 50 from 成品仓: a 销售出库 draft", async () => {
        const page = await as('sales01');
        await nav(page, '销售管理', '销售仓库');
        const sw = activePage(page);
        await sw.locator('#sale-wh_docNo').fill(saleNo);
        await sw.getByRole('button', { name: /搜\s*索/ }).click();
        const row = sw.locator('.ant-table-row').filter({ hasText: saleNo });
        await expect(row).toHaveCount(1);
        await row.locator('.ant-checkbox-input').check();
        await sw.getByRole('button', { name: /发货（1 行）/ }).click();
        const dialog = page.locator('.ant-modal:visible');
        await dialog.locator('#sale-ship_warehouseId').click();
        await dialog.locator('#sale-ship_warehouseId').fill('成品仓');
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: '成品仓' })
          .first()
          .click();
        await expect(dialog.getByLabel('第 1 行发货数量')).toHaveValue(/^50(\.0+)?$/);
        await dialog.getByRole('button', { name: '生成销售出库单' }).click();
        const made = toast(page, /已生成销售出库单 CK/);
        await expect(made).toBeVisible();
        outboundNo = await docNoIn(made, 'CK');
      });
      /** 仓储物流 › 出库管理 › 销售出库, the outbound opened from the list. */
      const openOutbound = async (page: Page) => {
        await nav(page, '仓储物流', '出库管理', '销售出库');
        const list = activePage(page);
        await list.getByTestId('search-docNo').fill(outboundNo);
        await list.getByRole('button', { name: /搜\s*索/ }).click();
        const row = rows(page).filter({ hasText: outboundNo });
        await expect(row).toHaveCount(1);
        await row.getByRole('button', { name: outboundNo }).click();
        const doc = activePage(page);
        await expect(doc.getByTestId('doc-no')).toHaveText(outboundNo);
        return doc;
      };
      await test.step('admin: 系统设置 › 出货检验 on — 发货前必须检验合格', () => shipmentGate(true));
      let shipmentTask = '';
      await test.step('wh01: the 销售出库 is refused before its inspection; 生成出货检验', async () => {
        const page = await as('wh01');
        // 过账 before the inspection passed is refused (409) on purpose.
        desks.get('wh01')?.guard.allow(/status of 409/);
        let doc = await openOutbound(page);
        // The bearings of this order: the batch its 生产入库 made (the card's number), not the
        // store's oldest — 编辑 the draft's line.
        await doc.getByRole('button', { name: /编\s*辑/ }).click();
        const form = activePage(page);
        await form.getByLabel('第1行批次号', { exact: true }).fill(cardOf.get(orderNo) as string);
        await form.getByRole('button', { name: /保\s*存/ }).click();
        doc = activePage(page);
        await expect(doc.getByTestId('doc-no')).toHaveText(outboundNo);
        await expect(doc).toContainText(cardOf.get(orderNo) as string);
        await expect(doc.getByTestId('outbound-inspections')).toHaveText('未生成');
        await doc
          .getByRole('button', { name: /过\s*账/ })
          .first()
          .click();
        await confirmIn(page, '过账');
        await expect(doc.getByTestId('post-error')).toContainText('还没有出货检验');
        await doc.getByRole('button', { name: '生成出货检验' }).click();
        await expect(toast(page, /已生成 1 张出货检验单/)).toBeVisible();
        await expect(doc.getByTestId('outbound-inspections')).toContainText('待检验');
        shipmentTask = await docNoIn(doc.getByTestId('outbound-inspections'), 'JY');
      });
      await test.step('qc01: 出货检验 — the task names the outbound and customer; 录入结果, 判定合格', async () => {
        const page = await as('qc01');
        await nav(page, '质量检测', '出货检验');
        const task = rows(page).filter({ hasText: shipmentTask });
        await expect(async () => {
          await activePage(page).getByRole('button', { name: '刷新列表' }).first().click();
          await expect(task).toHaveCount(1, { timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
        await task.getByRole('button', { name: '录入结果' }).click();
        const entry = activePage(page);
        const checked = entry.getByTestId('checked-outbound');
        await expect(checked).toContainText(outboundNo);
        await expect(checked).toContainText(customer);
        await fillGrid(page);
        await entry.getByRole('button', { name: /保\s*存/ }).click();
        await expect(toast(page, /自动判定：合格/)).toBeVisible();
        await entry.getByTestId('transition-pass').click();
        await confirmIn(page, '判定合格');
        await expect(entry.getByText('检验单已判定或没有检验权限，结果只读')).toBeVisible();
      });
      await test.step("wh01: 过账 the 销售出库; 打印送货单 — 50 at the order's 6.20, 310.00, the customer", async () => {
        const page = await as('wh01');
        // His outbound is still open since 生成出货检验: it shows the inspector's verdict by itself.
        const doc = activePage(page);
        await expect(doc.getByTestId('doc-no')).toHaveText(outboundNo);
        await expect(doc.getByTestId('outbound-inspections')).toContainText(/(^|\s)合格/);
        await doc
          .getByRole('button', { name: /过\s*账/ })
          .first()
          .click();
        await confirmIn(page, '过账');
        await expect(doc.locator('.wh-detail-head')).toContainText('已过账');
        await doc.getByRole('button', { name: '打印送货单' }).click();
        const print = page.getByTestId('print-view');
        await expect(print.locator('.rm-print-docname')).toHaveText('送货单');
        await expect(print).toContainText(customer);
        await expect(print).toContainText(saleNo);
        const line = print.locator('tbody tr').first();
        await expect(line.locator('td').nth(6)).toHaveText('50');
        await expect(line.locator('td').nth(7)).toHaveText('6.20');
        await expect(line.locator('td').nth(8)).toHaveText('310.00');
        await expect(print).toContainText('叁佰壹拾元整');
        await print.getByRole('button', { name: /关\s*闭/ }).click();
        await expect(print).toBeHidden();
      });
      await test.step('admin: 系统设置 › 出货检验 off again', () => shipmentGate(false));
      let receivableNo = '';
      let receiptSk = '';
      await test.step('fin01: 应收管理 — the 销售出库 made a receivable of 310.00; 收款 100 of it', async () => {
        const page = await as('fin01');
        await nav(page, '财务部', '应收管理');
        const list = activePage(page);
        const source = list.locator('#rk-search-receivable_sourceDocNo');
        // 来源单号 sits in the folded part of the search bar: open it (again, if the list was still
        // settling and folded it back — seen once in CI) until the field takes the number.
        await expect(async () => {
          if (!(await source.isVisible())) await list.locator('.rk-search-toggle').first().click();
          await source.fill(outboundNo, { timeout: 3_000 });
        }).toPass({ timeout: 30_000 });
        await list.getByRole('button', { name: /搜\s*索/ }).click();
        const row = list.locator('.ant-table-row').filter({ hasText: customer });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText('310.00');
        receivableNo = await docNoIn(row, 'YS');
        await row.getByRole('button', { name: '收款' }).click();
        const dialog = page.locator('.ant-modal:visible');
        const amount = dialog.getByLabel(`本次收款 ${receivableNo}`);
        await expect(amount).toHaveValue('310.00');
        await amount.fill('100');
        await expect(dialog.getByTestId('settle-total')).toContainText('100.00');
        await dialog.getByTestId('settle-ok').click();
        const made = toast(page, /收款单 SK\d{8}-\d{4}/);
        await expect(made).toBeVisible();
        receiptSk = await docNoIn(made, 'SK');
      });
      await test.step("admin: 应收管理 › 收款单 — 确认 fin01's receipt (maker ≠ checker)", async () => {
        const page = await as('admin');
        await nav(page, '财务部', '应收管理');
        const list = activePage(page);
        await list.getByRole('tab', { name: '收款单' }).click();
        const receipts = list.getByRole('tabpanel', { name: '收款单' });
        await receipts.locator('#rk-search-receipt_docNo').fill(receiptSk);
        await receipts.getByRole('button', { name: /搜\s*索/ }).click();
        const row = receipts.locator('.ant-table-row').filter({ hasText: receiptSk });
        await expect(row).toHaveCount(1);
        await expect(row).toContainText('100.00');
        await row.getByTestId('transition-approve').click();
        await confirmIn(page, /确认收款|确\s*定/);
        await expect(row).toContainText('已确认');
      });
      await test.step('fin01: the receivable reads 部分收款, 210.00 open; 账龄分析 lists the customer', async () => {
        const page = await as('fin01');
        const list = activePage(page);
        const row = list.locator('.ant-table-row').filter({ hasText: receivableNo });
        await expect(async () => {
          await list.getByRole('button', { name: '刷新列表' }).first().click();
          await expect(row).toContainText('部分收款', { timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
        await expect(row).toContainText('210.00');
        await list.getByRole('tab', { name: '账龄分析' }).click();
        const party = list.locator('#aging-receivable-party');
        await party.click();
        await party.fill(customer);
        await page
          .locator('.ant-select-dropdown:visible .ant-select-item-option')
          .filter({ hasText: customer })
          .first()
          .click();
        // The customer's open amounts by age (the demo's older receivables of his too).
        const aging = list.getByTestId('aging-table').locator('.ant-table-row').filter({ hasText: customer });
        await expect(aging).toBeVisible();
        await expect(aging).toContainText(/\d+\.\d{2}/);
      });
      await test.step("fin01: 工序工资 — op01's sheet holds this order's reports; 结账, then 反结账 with a reason", async () => {
        const page = await as('fin01');
        await nav(page, '财务部', '工序工资');
        const sheet = activePage(page).getByTestId('wage-sheet');
        const row = sheet
          .locator('.ant-table-row')
          .filter({ hasText: /op01|操作工/ })
          .first();
        await expect(row).toBeVisible();
        const month = day().slice(0, 7);
        await activePage(page)
          .getByRole('button', { name: /^\S*\s*结\s*账$/ })
          .click();
        await page
          .locator('.ant-popover:visible')
          .getByRole('button', { name: /结\s*账/ })
          .click();
        await expect(activePage(page).getByTestId('wage-closed')).toBeVisible();
        await activePage(page)
          .getByRole('button', { name: /反结账/ })
          .click();
        const dialog = page.locator('.ant-modal:visible');
        await dialog.getByLabel('反结账原因').fill('整单演示后复核');
        await dialog.getByRole('button', { name: /反结账/ }).click();
        await expect(toast(page, `${month} 已反结账`)).toBeVisible();
        await expect(activePage(page).getByTestId('wage-closed')).toHaveCount(0);
      });
      await test.step("qc01: 质量追溯 of the 销售出库 — the shipped batch is the bearing card; back through 装配领用 to both ring cards, the steel's 炉号, every step and the measured subgroup", async () => {
        const page = await as('qc01');
        await nav(page, '质量检测', '质量追溯');
        const tracePage = activePage(page);
        const box = tracePage.getByTestId('trace-search').locator('input');
        await box.fill(outboundNo);
        await box.press('Enter');
        const shipped = tracePage.getByTestId('outbound-trace');
        await expect(shipped).toBeVisible();
        // The line shipped the bearing card's batch, which carries the rings' heat.
        const line = shipped.locator('.ant-table-row').filter({ hasText: cardOf.get(orderNo) as string });
        await expect(line).toHaveCount(1);
        await expect(line.getByTestId('trace-heat').filter({ hasText: heat })).toBeVisible();
        const trace = shipped.getByTestId('card-trace');
        await expect(trace).toBeVisible();
        await expect(trace).toContainText('本卡及上游 3 张卡');
        for (const ring of [outer, inner])
          await expect(trace.getByTestId(`trace-card-${cardOf.get(ring)}`).first()).toBeAttached();
        await expect(trace.getByTestId('trace-heat').filter({ hasText: heat }).first()).toBeVisible();
        for (const stepName of ['车外圈', '车内圈', '热处理', '磨沟道', '超精', '探伤', '压盖'])
          await expect(trace).toContainText(stepName);
        await expect(trace).toContainText('车加工报工检验');
        // qc01's subgroup on the outer ring's card, value by value (51.9950 reads 51.995).
        const outerCard = trace.getByTestId(`trace-card-${cardOf.get(outer)}`).first();
        await expect(outerCard.getByTestId('trace-measurements')).toContainText(
          measured.slice(0, 4).join(' / '),
        );
      });
    } catch (error) {
      await dump();
      // The gate holds for every flow on this database: never leave it on.
      if (gateOn) await shipmentGate(false).catch((e) => console.error('出货检验 gate left on:', e));
      throw error;
    }
    for (const desk of desks.values()) expect(desk.guard.unexpected()).toEqual([]);
    for (const desk of desks.values()) await desk.page.context().close();
  });
});
