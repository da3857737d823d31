import {
  Api,
  activePage,
  confirmIn,
  expect,
  noOpenDropdown,
  type Page,
  rows,
  signedIn,
  test,
  toast,
  unique,
} from './support.ts';

/**
 * The planner's steps around a production order, each from the screens of the role who does it
 * (issue 35): 派单 from the order, 生成自制件订单 on a released bearing order, 领料出库 naming the
 * order, and production orders from an approved 备货单. The records they start from are made
 * through the API; what is under test is driven through the UI only.
 */

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';
const ORDER_LIST = `${MANAGE}/production-order`;

/** The business day in the factory's zone, `n` days on. */
const day = (n = 0) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + n * 86_400_000),
  );

/** Two-character antd buttons get a space between the characters. */
const spaced = (label: string) => new RegExp(`^${[...label].join('\\s*')}$`);

/** Finds a document on the kit's list of `resource` open in the active tab by its number. */
async function search(page: Page, docNo: string, resource = 'production-order') {
  await activePage(page).locator(`#rk-search-${resource}_docNo`).fill(docNo);
  await activePage(page)
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  const row = rows(page).filter({ hasText: docNo });
  await expect(row).toHaveCount(1);
  return row;
}

/** Opens `path` signed in as a demo user (the token replaces the previous user's). */
async function as(page: Page, request: Parameters<typeof Api.login>[0], user: string, path: string) {
  await signedIn(page, await Api.login(request, user, 'demo123'), path);
}

async function bearing(admin: Api) {
  const found = (await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'FG-6205-2RS' }))
    .list;
  expect(found.length, 'demo bearing FG-6205-2RS').toBeGreaterThan(0);
  return found[0];
}

test.describe('production planning', () => {
  test('计划员 opens 派单 from the order list and from the order detail of a released order', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const product = await bearing(admin);
    const add = (quantity: number) =>
      admin.post<Row>('/api/v1/production-order/add', {
        productId: product.id,
        quantity,
        plannedStartDate: day(3),
        dueDate: day(12),
      });
    const released = await add(40);
    await admin.post(`/api/v1/production-order/release/${released.id}`, {});
    const draft = await add(10);

    await as(page, request, 'plan01', ORDER_LIST);
    // A draft has no 派单; a released order has it among its row actions.
    const draftRow = await search(page, draft.docNo);
    await expect(draftRow.getByRole('button', { name: spaced('派单') })).toHaveCount(0);
    const row = await search(page, released.docNo);
    await row.getByRole('button', { name: spaced('派单') }).click();
    const plan = activePage(page);
    await expect(plan.locator('.rm-card-title')).toContainText(`生产订单派单 · ${released.docNo}`);
    await expect(plan.getByText('装配车间').first()).toBeVisible();
    await plan.getByTestId('order-dispatch').click();
    await expect(toast(page, /派单成功，生成车间任务 \d+ 个/)).toBeVisible();
    await expect(plan.getByRole('button', { name: `${released.docNo}-10` })).toBeVisible();

    // The order's detail offers 派单 too: it opens the same page, now showing the tasks.
    await plan.getByRole('button', { name: /返\s*回/ }).click();
    const again = await search(page, released.docNo);
    await again.getByRole('button', { name: spaced('查看') }).click();
    const detail = activePage(page);
    await expect(detail.getByTestId('detail-production-order')).toBeVisible();
    await detail.getByTestId('order-dispatch-open').click();
    await expect(activePage(page).getByText('已派单')).toBeVisible();
    await expect(activePage(page).getByTestId('order-dispatch')).toHaveCount(0);
  });

  test('计划员 makes the ring orders of a released bearing order from its page; they keep its sales order and customer', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const product = await bearing(admin);
    const customer = (await admin.get<{ list: Row[] }>('/api/v1/customer/page', { pageSize: 1 })).list[0];
    const so = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: day(),
      deliveryDate: day(40),
      lines: [{ materialId: product.id, quantity: 50, unitPrice: '6.2' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${so.id}`, {});
    const line = (await admin.get<Row>(`/api/v1/sale-order/info/${so.id}`)).lines[0];
    const planner = await Api.login(request, 'plan01', 'demo123');
    const { orders } = await planner.post<{ orders: Row[] }>('/api/v1/production-order/from-sale-lines', {
      plannedStartDate: day(30),
      lines: [{ saleOrderLineId: line.id }],
    });
    const parent = orders[0];
    await planner.post(`/api/v1/production-order/release/${parent.id}`, {});

    await as(page, request, 'plan01', ORDER_LIST);
    const row = await search(page, parent.docNo);
    await row.getByRole('button', { name: spaced('查看') }).click();
    const detail = activePage(page);
    await detail.getByTestId('sub-orders-open').click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.locator('.ant-modal-title')).toContainText(`生成自制件订单 · ${parent.docNo}`);
    const parts = dialog.getByTestId('sub-order-parts').locator('.ant-table-row');
    // The inner and the outer ring, 50 each, finishing the day before the bearing starts.
    await expect(parts).toHaveCount(2);
    await expect(parts.filter({ hasText: '内圈' })).toContainText('50');
    await expect(parts.filter({ hasText: '外圈' })).toContainText(day(29));
    await expect(dialog.getByText('晚于本订单开工')).toHaveCount(0);
    await dialog.getByRole('button', { name: /生成自制件订单（2 张）/ }).click();
    await expect(toast(page, /已生成自制件订单 SC/)).toBeVisible();

    const made = detail.getByTestId('sub-orders').locator('.ant-table-row');
    await expect(made).toHaveCount(2);
    await expect(detail.getByTestId('sub-orders-open')).toHaveCount(0);
    // A ring order's page names its parent, the sales order and the customer.
    await made.filter({ hasText: '外圈' }).locator('a').first().click();
    const ring = activePage(page).getByTestId('order-relations');
    await expect(ring).toContainText(`上级订单：${parent.docNo}`);
    await expect(ring).toContainText(`销售订单：${so.docNo}`);
    await expect(ring).toContainText(`客户：${customer.name}`);
    const rings = (
      await admin.get<{ list: Row[] }>('/api/v1/production-order/page', { parentOrderId: parent.id })
    ).list;
    expect(rings).toHaveLength(2);
    for (const r of rings) {
      expect(r).toMatchObject({ sourceType: 'sub-order', saleOrderId: so.id, dueDate: day(29) });
      expect(r.plannedStartDate >= day()).toBe(true);
    }
    // Back to the parent through the link.
    await ring.locator('a', { hasText: parent.docNo }).click();
    await expect(activePage(page).getByTestId('sub-orders')).toBeVisible();
  });

  test('仓管员 issues materials against a production order picked in the 领料出库 form; the order counts them', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const code = unique('E2EI');
    const make = (suffix: string, name: string) =>
      admin.post<Row>('/api/v1/material-info/add', {
        code: `${code}-${suffix}`,
        name,
        materialTypeId: type.id,
        unitId: unit.id,
      });
    const product = await make('P', `E2E 组件 ${code}`);
    const part = await make('M', `E2E 零件 ${code}`);
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: product.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: part.id, quantity: '2', unitId: unit.id }],
    });
    const assembly = await first('/api/v1/workshop/page', { type: 'assembly' });
    const assemble = await first('/api/v1/process-manage/page', { code: 'GX160' });
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `E2E 路线 ${code}`,
      productId: product.id,
      versionNo: 'V1',
      status: 'active',
      steps: [{ seq: 10, processId: assemble.id, workshopId: assembly.id, standardMinutes: '1' }],
    });
    const store = await first('/api/v1/warehouse-management/page', { code: 'WH-RM' });
    const receipt = await admin.post<Row>('/api/v1/stock-inbound/add', {
      type: 'other',
      warehouseId: store.id,
      lines: [{ materialId: part.id, quantity: 100, qualityStatus: 'qualified' }],
    });
    await admin.post(`/api/v1/stock-inbound/post/${receipt.id}`, {});
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: product.id,
      quantity: 15,
      plannedStartDate: day(),
      dueDate: day(5),
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});

    // 仓管员: 新增领料出库单, the order picked by its number fills the line with what is open (30).
    await as(page, request, 'wh01', '/warehouse-logistics/outbound-manage/internal-requisition-outbound');
    await activePage(page).getByRole('button', { name: '新增领料出库单' }).click();
    await expect(page).toHaveURL(/internal-requisition-outbound-add/);
    const form = activePage(page);
    const select = async (id: string, typed: string, text: string) => {
      await noOpenDropdown(page);
      const input = form.locator(`#${id}`);
      await input.click();
      await input.pressSequentially(typed);
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: text })
        .first()
        .click();
    };
    await select('wh-stock-outbound_warehouseId', 'WH-RM', 'WH-RM');
    await select('wh-stock-outbound_productionOrderId', order.docNo, order.docNo);
    await expect(form.getByLabel('第1行数量')).toHaveValue(/^30(\.0+)?$/);
    await expect(form.locator('.ant-table-row').first()).toContainText(part.name);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page).toHaveURL(/internal-requisition-outbound-detail\?id=\d+/);
    const doc = activePage(page);
    await expect(doc.getByText(order.docNo).first()).toBeVisible();
    await doc
      .getByRole('button', { name: /过\s*账/ })
      .first()
      .click();
    await confirmIn(page, '过账');
    await expect(toast(page, '过账成功')).toBeVisible();

    const after = await admin.get<Row>(`/api/v1/production-order/info/${order.id}`);
    expect(after.status).toBe('producing');
    expect(after.materials.find((m: Row) => m.materialId === part.id)?.issuedQuantity).toBe('30.0000');
    // Nothing is left to issue: the order is no longer offered.
    const offered = await (await Api.login(request, 'wh01', 'demo123')).get<Row[]>(
      '/api/v1/stock-outbound/source-orders',
      { type: 'requisition', keyword: order.docNo },
    );
    expect(offered).toEqual([]);
  });

  test('计划员 turns an approved 备货单 into production orders from its page and from the order list; the 备货单 follows them', async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const admin = await Api.login(request);
    const product = await bearing(admin);
    const stockUp = async (quantity: number) => {
      const doc = await admin.post<Row>('/api/v1/stock-up-order/add', {
        orderDate: day(),
        requiredDate: day(25),
        purpose: `旺季备货 ${unique('E2E')}`,
        lines: [{ materialId: product.id, quantity }],
      });
      await admin.post(`/api/v1/stock-up-order/approve/${doc.id}`, {});
      return doc;
    };
    const doc = await stockUp(30);
    const other = await stockUp(12);

    // From the 备货单's page.
    await as(page, request, 'plan01', '/sale-manage/inventory-manage');
    const row = await search(page, doc.docNo, 'stock-up-order');
    await row.getByRole('button', { name: spaced('查看') }).click();
    const detail = activePage(page);
    await detail.getByTestId('stock-up-make-orders').click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByLabel(`${product.name} 本次生产`)).toHaveValue('30');
    await dialog.getByRole('button', { name: /生成生产订单（1 张）/ }).click();
    await expect(toast(page, /已生成生产订单 SC/)).toBeVisible();
    const progress = detail.getByTestId('stock-up-production');
    await expect(progress.locator('.ant-table-row').first()).toContainText('30');
    const made = detail.getByTestId('stock-up-orders').locator('.ant-table-row');
    await expect(made).toHaveCount(1);
    await expect(made).toContainText('草稿');
    await expect(detail.getByTestId('stock-up-make-orders')).toHaveCount(0);

    // The order names the 备货单; released, the 备货单 is 生产中.
    await made.locator('a').first().click();
    const orderPage = activePage(page);
    await expect(orderPage.getByTestId('order-relations')).toContainText(`备货单：${doc.docNo}`);
    await orderPage.getByTestId('transition-release').click();
    await confirmIn(page, /^下\s*达$/);
    await expect(toast(page, '下达成功')).toBeVisible();
    await orderPage.getByTestId('order-relations').locator('a', { hasText: doc.docNo }).click();
    await expect(activePage(page).locator('.rm-card-title')).toContainText('生产中');
    const orders = (
      await admin.get<{ list: Row[] }>('/api/v1/production-order/page', { stockUpOrderId: doc.id })
    ).list;
    expect(orders).toEqual([
      expect.objectContaining({ sourceType: 'stock-up', quantity: '30.0000', dueDate: day(25) }),
    ]);

    // From the production order list: 从备货单生成.
    await page.goto(ORDER_LIST);
    await expect(rows(page).first()).toBeVisible();
    await activePage(page).getByRole('button', { name: '从备货单生成' }).click();
    const picker = page.locator('.ant-modal:visible');
    await picker.locator('#stock-up-line-pick_docNo').fill(other.docNo);
    await picker.getByRole('button', { name: /搜\s*索/ }).click();
    const line = picker.locator('.ant-table-row').filter({ hasText: other.docNo });
    await expect(line).toHaveCount(1);
    await line.locator('.ant-checkbox-input').check();
    await picker.getByRole('button', { name: /生成生产订单（1 张）/ }).click();
    await expect(toast(page, /已生成生产订单 SC/)).toBeVisible();
    const fromList = (
      await admin.get<{ list: Row[] }>('/api/v1/production-order/page', { stockUpOrderId: other.id })
    ).list;
    expect(fromList).toEqual([expect.objectContaining({ sourceType: 'stock-up', quantity: '12.0000' })]);
    expect((await admin.get<Row>(`/api/v1/stock-up-order/info/${other.id}`)).lines[0].plannedQuantity).toBe(
      '12.0000',
    );
  });
});
