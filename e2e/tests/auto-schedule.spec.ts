import { Api, activePage, expect, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

test.use({ viewport: { width: 1600, height: 1000 } });

test('车加工排产计划 › 自动排产: run, a late order explains itself, 发布, the dispatch is on the operator’s sheet', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const admin = await Api.login(request);
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
  const first = async (url: string, params: Record<string, string | number>) =>
    (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
  // A ring of 2,000 pieces turned at 3 minutes each (100 hours on one lathe), due today: late
  // whatever the schedule.
  const code = unique('AS');
  const type = await first('/api/v1/material-type/page', {});
  const unit = await first('/api/v1/material-unit/page', {});
  const make = (suffix: string, name: string) =>
    admin.post<Row>('/api/v1/material-info/add', {
      code: `${code}-${suffix}`,
      name,
      materialTypeId: type.id,
      unitId: unit.id,
    });
  const ring = await make('R', `排产外圈 ${code}`);
  const steel = await make('S', `排产棒料 ${code}`);
  await admin.post('/api/v1/product-bom/add', {
    code: `BOM-${code}`,
    productId: ring.id,
    versionNo: 'V1',
    status: 'active',
    lines: [{ materialId: steel.id, quantity: '1', unitId: unit.id }],
  });
  const turning = await first('/api/v1/workshop/page', { type: 'machine' });
  const turn = await first('/api/v1/process-manage/page', { code: 'GX050' });
  await admin.post('/api/v1/process-route/add', {
    code: `RT-${code}`,
    name: `排产路线 ${code}`,
    productId: ring.id,
    versionNo: 'V1',
    status: 'active',
    steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '3' }],
  });
  const order = await admin.post<Row>('/api/v1/production-order/add', {
    productId: ring.id,
    quantity: 2000,
    plannedStartDate: today,
    dueDate: today,
    priority: 'urgent',
  });
  await admin.post(`/api/v1/production-order/release/${order.id}`, {});
  await admin.post(`/api/v1/production-order/dispatch/${order.id}`, {});

  await signedIn(page, admin, `${MANAGE}/machine/plan`);
  const view = activePage(page);
  await expect(view.getByText('车加工排产计划')).toBeVisible();
  await view.getByRole('button', { name: '自动排产' }).click();
  const drawer = page.locator('.ant-drawer:visible');
  await drawer.getByLabel('运算时限(秒)').fill('2');
  await drawer.getByRole('button', { name: /运\s*算/ }).click();
  await expect(drawer.getByTestId('auto-schedule-summary')).toContainText('全部满足', { timeout: 60_000 });
  await expect(drawer.getByTestId('auto-schedule-proposal')).toContainText('延期订单');
  await expect(drawer.getByTestId('auto-schedule-baseline')).toContainText('延期订单');

  // The late order says which machine and which step held it.
  const late = drawer.locator('.ant-table-row').filter({ hasText: order.docNo }).first();
  await expect(late).toContainText('工序「');
  await expect(late).toContainText('在设备');

  // 发布 this workshop's proposal.
  await drawer.getByRole('button', { name: /发\s*布/ }).click();
  await page
    .locator('.ant-popover:visible')
    .getByRole('button', { name: /发\s*布/ })
    .click();
  await expect(toast(page, /已发布 \d+ 张派工单/)).toBeVisible({ timeout: 60_000 });

  const made = await admin.get<{ list: Row[] }>('/api/v1/work-dispatch/page', {
    productionOrderId: order.id,
    pageSize: 50,
  });
  expect(made.list.length).toBeGreaterThan(0);
  expect(made.list.reduce((s, d) => s + Number(d.quantity), 0)).toBe(2000);
  const d = made.list[0];

  // On the operator's sheet (every demo account signs in with demo123).
  const users = await admin.get<{ userId: number; userName: string }[]>('/api/v1/user/getAllUser');
  const who = users.find((u) => u.userId === Number(d.operatorId))!;
  const op = await Api.login(request, who.userName, who.userName === 'admin' ? 'admin123' : 'demo123');
  await signedIn(page, op, `${MANAGE}/machine/operator-task`);
  await expect(
    activePage(page).getByTestId('operator-queue').locator('.op-card').filter({ hasText: ring.name }).first(),
  ).toBeVisible();
});
