import { Api, activePage, expect, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const SHEET = '/production-department/production-manage/grinding/process-task-sheet-start';
const OEE = '/factory-info/equipment-manage/oee';

test.use({ viewport: { width: 1600, height: 1000 } });

/**
 * 设备OEE (issue 42): a grinder's operator pauses his dispatch for 质量问题 on the sheet; the
 * plant's loss Pareto names it, and the drill-down 全厂 → 磨加工车间 → the machine → today shows the
 * pause in the day's states. The workshop works round the clock for the test (OEE设置), so the
 * pause falls in a shift whenever the flow runs; its calendar is put back afterwards.
 */
test('设备OEE: a pause with a reason on the operator sheet shows in the loss Pareto and the day timeline', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const admin = await Api.login(request);
  const running = await admin.get<{ list: Row[] }>('/api/v1/work-dispatch/page', {
    workshopType: 'grinding',
    status: 'started',
    pageSize: 50,
  });
  const d = running.list.find((r) => r.equipmentId);
  expect(d, 'a grinding dispatch under way on a machine in the demo').toBeTruthy();
  const dispatch = d as Row;
  const workshop = await admin.get<Row>(`/api/v1/workshop/info/${dispatch.workshopId}`);
  const old = await admin.get<{ calendar: unknown }>(`/api/v1/oee/calendar/${dispatch.workshopId}`);
  await admin.put(`/api/v1/oee/calendar/${dispatch.workshopId}`, {
    shifts: [{ code: 'all', name: '全天', start: '00:00', end: '00:00', breaks: [] }],
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    holidays: [],
    workdays: [],
  });
  try {
    await signedIn(page, admin, `${SHEET}?id=${dispatch.id}`);
    const sheet = activePage(page);
    await sheet.getByRole('button', { name: /暂\s*停/ }).click();
    const dialog = page.getByRole('dialog', { name: '暂停原因' });
    await dialog.getByText('质量问题', { exact: true }).click();
    await dialog.getByPlaceholder('说明（可选）').fill('外径尺寸波动，等待检验确认');
    await dialog.getByRole('button', { name: /暂\s*停/ }).click();
    await expect(toast(page, '暂停成功')).toBeVisible();

    await page.goto(OEE);
    const board = activePage(page);
    await expect(board.getByTestId('oee-pareto')).toHaveAttribute('data-reasons', /质量问题/, {
      timeout: 15_000,
    });
    await expect(board.getByTestId('oee-gauges')).toBeVisible();
    // 全厂 → the workshop → the machine → today.
    await board
      .getByTestId('oee-table')
      .locator('.ant-table-row')
      .filter({ hasText: workshop.name })
      .first()
      .click();
    // The workshop's 班次日历 shows the round-the-clock shift set above.
    await board.getByRole('button', { name: '班次日历' }).click();
    const calendar = page.getByRole('dialog', { name: '班次日历' });
    await expect(calendar.locator('input[value="全天"]')).toBeVisible();
    await calendar.getByRole('button', { name: /取\s*消/ }).click();
    await board.getByTestId(`oee-gauge-${dispatch.equipmentId}`).click();
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    await board.getByTestId('oee-table').locator('.ant-table-row').filter({ hasText: today }).click();
    const day = board.getByTestId('oee-day');
    await expect(day.getByTestId('oee-segments')).toContainText('质量问题：外径尺寸波动，等待检验确认');
    await expect(day.getByTestId('oee-dispatches')).toContainText(dispatch.docNo);
  } finally {
    await admin.post(`/api/v1/work-dispatch/resume/${dispatch.id}`, {}).catch(() => undefined);
    await admin.put(`/api/v1/oee/calendar/${dispatch.workshopId}`, old.calendar);
  }
});
