import { Api, activePage, expect, shot, signedIn, test, toast } from './support.ts';

interface Row {
  id: number | null;
  [key: string]: any;
}
interface Plan {
  rows: Row[];
  bars: Row[];
  capacity: { rowId: number | null; workDate: string; shift: string; overloaded: boolean }[];
}

const SHIFTS = ['day', 'night'];
/** A date in the factory's time zone, as the browser (timezoneId Asia/Shanghai) computes the page's range. */
const ymd = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(d);
const plusDays = (n: number) => ymd(new Date(Date.now() + n * 86_400_000));
const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

test.use({ viewport: { width: 1600, height: 1000 } });

test('车加工排产计划: bars per machine, load per shift, drag a 已派工 bar to another machine and shift', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const admin = await Api.login(request);
  // The page opens on yesterday … five days ahead.
  const from = plusDays(-1);
  const to = plusDays(5);
  const plan = await admin.get<Plan>('/api/v1/work-dispatch/plan', {
    workshopType: 'machine',
    from,
    to,
    by: 'equipment',
  });
  const machines = plan.rows.filter((r) => r.id != null);
  const bar = plan.bars.find((b) => b.status === 'dispatched' && b.equipmentId != null);
  expect(bar, 'the demo has 已派工 work in the turning workshop this week').toBeTruthy();
  expect(machines.length).toBeGreaterThan(1);
  if (!bar) return;

  await signedIn(page, admin, '/production-department/production-manage/machine/plan');
  const view = activePage(page);
  await expect(view.getByText('车加工排产计划')).toBeVisible();
  const timeline = view.getByTestId('plan-timeline');
  await expect(timeline).toBeVisible();
  for (const b of plan.bars.slice(0, 5)) await expect(view.getByTestId(`plan-bar-${b.docNo}`)).toBeVisible();

  // Each cell with work shows its load; an overloaded one is red.
  const slot = (workDate: string, shift: string) => daysFrom(from, workDate) * 2 + SHIFTS.indexOf(shift);
  const first = plan.capacity[0];
  await expect(
    view.getByTestId(`plan-load-${first.rowId ?? 'none'}-${slot(first.workDate, first.shift)}`),
  ).toContainText('/480');
  const over = plan.capacity.find((c) => c.overloaded);
  if (over) {
    await expect(
      view.getByTestId(`plan-load-${over.rowId ?? 'none'}-${slot(over.workDate, over.shift)}`),
    ).toHaveClass(/ws-plan-over/);
  }
  await shot(page, 'workshop-plan');

  // Drag the bar to the neighbouring machine, one shift later (or earlier at the range's end).
  const index = machines.findIndex((m) => m.id === bar.equipmentId);
  const target = machines[index + 1] ?? machines[index - 1];
  const fromSlot = slot(bar.workDate, bar.shift);
  const toSlot = fromSlot + 1 < daysFrom(from, to) * 2 + 2 ? fromSlot + 1 : fromSlot - 1;
  const source = view.getByTestId(`plan-bar-${bar.docNo}`);
  await source.scrollIntoViewIfNeeded();
  const box = await source.boundingBox();
  const timelineBox = await timeline.boundingBox();
  const targetRow = await view.getByTestId(`plan-row-${target.id}`).boundingBox();
  if (!box || !timelineBox || !targetRow) throw new Error('the timeline is not laid out');
  const slotWidth = (timelineBox.width - 180) / ((daysFrom(from, to) + 1) * 2);
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const end = { x: start.x + (toSlot - fromSlot) * slotWidth, y: targetRow.y + targetRow.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) {
    await page.mouse.move(start.x + ((end.x - start.x) * i) / 10, start.y + ((end.y - start.y) * i) / 10);
  }
  await page.mouse.up();
  await expect(toast(page, `已改派 ${bar.docNo}`)).toBeVisible();

  const workDate = plusDays(-1 + Math.floor(toSlot / 2));
  const moved = await admin.get<Row>(`/api/v1/work-dispatch/info/${bar.id}`);
  expect(moved).toMatchObject({ equipmentId: target.id, workDate, shift: SHIFTS[toSlot % 2] });
  // The page shows the bar in its new row after the refresh.
  await expect(view.getByTestId(`plan-row-${target.id}`).getByTestId(`plan-bar-${bar.docNo}`)).toBeVisible();

  // A click opens the dispatch; 改派 there puts it back on its first shift.
  await view.getByTestId(`plan-bar-${bar.docNo}`).click();
  const dialog = page.locator('.ant-modal:visible');
  await expect(dialog.getByText(`派工单 ${bar.docNo}`)).toBeVisible();
  await dialog.getByLabel('班次').click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: bar.shift === 'day' ? '白班' : '夜班' })
    .click();
  await dialog.getByRole('button', { name: /改\s*派/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(async () => (await admin.get<Row>(`/api/v1/work-dispatch/info/${bar.id}`)).shift)
    .toBe(bar.shift);

  // Per operator: the dispatch's operator has a row with the bar.
  await view.getByText('按操作工').click();
  await expect(
    view.getByTestId(`plan-row-${bar.operatorId}`).getByTestId(`plan-bar-${bar.docNo}`),
  ).toBeVisible();
});
