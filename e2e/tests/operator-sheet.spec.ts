import { Api, activePage, expect, sidebar, signedIn, tags, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

test.describe('the operator’s task sheet on a tablet', () => {
  test('op01 starts and reports his dispatch in one tab; 已报工 counts the report before its approval; his menu is his workshops', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const admin = await Api.login(request);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    // A ring turned in one step, released, on a card, dispatched to op01 for today (not started).
    const code = unique('OS');
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const make = (suffix: string, name: string) =>
      admin.post<Row>('/api/v1/material-info/add', {
        code: `${code}-${suffix}`,
        name,
        materialTypeId: type.id,
        unitId: unit.id,
      });
    const ring = await make('R', `任务单外圈 ${code}`);
    const steel = await make('S', `任务单棒料 ${code}`);
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
      name: `任务单路线 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
    });
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: ring.id,
      quantity: 12,
      plannedStartDate: today,
      dueDate: today,
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});
    const { tasks } = await admin.post<{ tasks: Row[] }>(`/api/v1/production-order/dispatch/${order.id}`, {});
    const { cards } = await admin.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: 12,
      heatNo: 'H-OS',
    });
    const op = await Api.login(request, 'op01', 'demo123');
    const me = await op.get<{ userId: number }>('/api/v1/sso/getUserByToken', { token: op.token });
    await admin.post(`/api/v1/workshop-task/dispatch/${tasks[0].id}`, {
      lines: [{ operatorId: me.userId, quantity: 12, workDate: today, shift: 'day' }],
    });

    // op01 on his 10-inch tablet: his queue, then the dispatch's sheet.
    await page.setViewportSize({ width: 1280, height: 800 });
    await signedIn(page, op, `${MANAGE}/machine/operator-task`);
    // A turning (and assembly) operator's menu: his workshops only.
    await expect(sidebar(page)).toContainText('车加工车间');
    await expect(sidebar(page)).toContainText('装配车间');
    await expect(sidebar(page)).not.toContainText('磨加工车间');
    await expect(sidebar(page)).not.toContainText('检测车间');

    const mine = activePage(page)
      .getByTestId('operator-queue')
      .locator('.op-card')
      .filter({ hasText: ring.name });
    await mine.getByRole('button', { name: '开工单' }).click();
    await expect(tags(page).filter({ hasText: /工序任务单/ })).toHaveText([/工序任务单新增/]);
    await activePage(page).getByTestId('sheet-start').click();
    await expect(toast(page, '开工成功')).toBeVisible();
    await expect(activePage(page).getByTestId('sheet-report')).toBeVisible();
    // One sheet, one tab: 开工 moved the sheet on, it did not open a second one.
    await expect(tags(page).filter({ hasText: /工序任务单/ })).toHaveText([/工序任务单开工/]);

    // 报工 of 10 (and a scrapped one): the sheet counts them at once, the approval still to come.
    await activePage(page).getByTestId('sheet-report').click();
    const report = page.locator('.ant-modal:visible');
    await report.getByTestId('report-card').fill(cards[0].docNo);
    await report.getByTestId('report-card').press('Enter');
    await expect(report.getByText(`流转卡 ${cards[0].docNo}`)).toBeVisible();
    await report.getByLabel('合格数').fill('10');
    await report.getByTestId('report-submit').click();
    await expect(toast(page, /已报工 BG.*等待审核/)).toBeVisible();
    await expect(activePage(page).getByTestId('sheet-reported')).toHaveText('10（含待审核 10）');
    await activePage(page).getByRole('button', { name: '我的任务' }).click();
    await expect(
      activePage(page).locator('.op-card').filter({ hasText: ring.name }).getByTestId('queue-reported'),
    ).toHaveText('10（含待审核 10）');
  });
});
