import { Api, activePage, expect, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

test.use({ viewport: { width: 1600, height: 1000 } });

test('车加工排产计划 › 自动排产: run, a late order explains itself, lock and drag a proposed step, 发布, the dispatch is on the operator’s sheet', async ({
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

  // 排产参数: the turning machines with their speed factor and 可做工序, the setup minutes.
  await drawer.getByRole('tab', { name: '排产参数' }).click();
  const machinesTable = drawer.getByTestId('schedule-machines');
  await expect(machinesTable).toContainText('车加工设备');
  await expect(machinesTable.getByLabel(/^速度系数 /).first()).toBeVisible();
  await expect(drawer.getByRole('button', { name: '保存换型时间' })).toBeVisible();
  await drawer.getByRole('tab', { name: '方案' }).click();

  // Adjust on the timeline: the proposal's step is a dashed bar on its lathe.
  await drawer.getByTestId('auto-schedule-on-plan').click();
  await expect(view.getByTestId('proposal-notice')).toContainText('自动排产方案');
  const proposed = view.getByRole('button', { name: new RegExp(`方案 ${order.docNo}`) });
  await expect(proposed).toBeVisible();
  await expect(proposed).toHaveAttribute('data-locked', 'false');
  // A click locks it where it is (and runs again around it).
  await proposed.click();
  await expect(proposed).toHaveAttribute('data-locked', 'true', { timeout: 60_000 });
  await expect(view.getByTestId('proposal-notice')).toContainText('锁定 1 道工序', { timeout: 60_000 });

  // Drag it to another lathe in the same shift: it stays there after the run.
  const rowOf = async () =>
    (await proposed.evaluate((el) =>
      el.closest('[data-testid^="plan-row-"]')?.getAttribute('data-testid'),
    )) ?? '';
  const fromRow = await rowOf();
  const plan = await admin.get<{ rows: Row[] }>('/api/v1/work-dispatch/plan', {
    workshopType: 'machine',
    from: today,
    to: today,
    by: 'equipment',
  });
  // A lathe that works: not under repair or scrapped, and not reported 故障 (a drop there is refused).
  const target = plan.rows.find(
    (r) =>
      r.id != null &&
      `plan-row-${r.id}` !== fromRow &&
      !['repair', 'scrapped'].includes(r.status) &&
      (!r.faultState || r.faultState === 'normal'),
  )!;
  expect(target, 'the demo has a second working lathe').toBeTruthy();
  await proposed.scrollIntoViewIfNeeded();
  const box = await proposed.boundingBox();
  const targetRow = await view.getByTestId(`plan-row-${target.id}`).boundingBox();
  if (!box || !targetRow) throw new Error('the timeline is not laid out');
  // Grab near the bar's start (its first shift) and move straight down to the other lathe's row.
  const start = { x: box.x + Math.min(20, box.width / 2), y: box.y + box.height / 2 };
  const end = { x: start.x, y: targetRow.y + targetRow.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(start.x, start.y + ((end.y - start.y) * i) / 10);
  await page.mouse.up();
  const moved = view
    .getByTestId(`plan-row-${target.id}`)
    .getByRole('button', { name: new RegExp(`方案 ${order.docNo}`) });
  await expect(moved).toBeVisible({ timeout: 60_000 });
  await expect(moved).toHaveAttribute('data-locked', 'true');

  // 发布 this workshop's proposal (本车间, the default scope), the dragged step where it was put.
  const notice = view.getByTestId('proposal-notice');
  await expect(notice.getByTestId('auto-schedule-scope')).toContainText('本车间');
  await notice.getByRole('button', { name: /发\s*布/ }).click();
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
  expect(made.list.every((x) => x.equipmentId === target.id)).toBe(true);
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
