import { Api, activePage, expect, noOpenDropdown, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

/**
 * 派工 offers only the task's workshop's machines, and warns in the dialog when the operator's or
 * the machine's shift (what is already dispatched plus this line) passes 480 minutes.
 */
test('派工: machines of the task’s workshop only; a shift over 480 minutes is warned before and after', async ({
  page,
  request,
}) => {
  const admin = await Api.login(request);
  const { list } = await admin.get<{ list: Row[] }>('/api/v1/workshop-task/page', {
    workshopType: 'machine',
    pageSize: 200,
  });
  const task = list.find(
    (t) =>
      ['pending', 'dispatched'].includes(t.status) &&
      Number(t.standardMinutes) > 0 &&
      t.workshopId &&
      (Number(t.plannedQuantity) - Number(t.dispatchedQuantity)) * Number(t.standardMinutes) > 960,
  ) as Row;
  expect(task, 'a demo turning task with work for more than a shift').toBeTruthy();
  const machines = (await admin.get<{ list: Row[] }>('/api/v1/equipment/page', { pageSize: 200 })).list;
  const own = machines.find((m) => m.workshopId === task.workshopId && m.status === 'running') as Row;
  const other = machines.find((m) => m.workshopId && m.workshopId !== task.workshopId) as Row;
  expect(own && other).toBeTruthy();

  await signedIn(page, admin, `${MANAGE}/machine/lathing`);
  const tasks = activePage(page);
  await tasks.locator('input[id$="taskNo"]').first().fill(task.taskNo);
  await tasks.getByRole('button', { name: /搜\s*索/ }).click();
  const row = tasks.locator('.ant-table-row').filter({ hasText: task.taskNo });
  await expect(row).toHaveCount(1);
  await row.getByTestId('task-dispatch').click();
  const dialog = page.locator('.ant-modal:visible');
  await expect(dialog.getByText('待派数量')).toBeVisible();

  // 设备: another workshop's machine is not offered, the task's own is.
  const equipment = dialog.getByTestId('dispatch-equipment');
  await equipment.click();
  await page.keyboard.type(other.code);
  await expect(page.locator('.ant-select-dropdown:visible')).toContainText('本车间无匹配设备');
  await page.keyboard.press('Escape');
  await noOpenDropdown(page);
  await equipment.click();
  await page.keyboard.type(own.code);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: own.code })
    .click();

  await noOpenDropdown(page);
  const operator = dialog.locator('.ant-table-row .ant-select').nth(1);
  await operator.click();
  await page.keyboard.type('op02');
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: 'op02' })
    .click();
  // 481 minutes of this task alone, whatever the demo already put on op02 and the machine today.
  const pieces = Math.ceil(481 / Number(task.standardMinutes));
  await dialog.locator('.ant-table-row .ant-input-number input').first().fill(String(pieces));
  await expect(dialog.getByTestId('dispatch-overload')).toContainText('超过班次 480 分钟');
  await expect(dialog.getByTestId('dispatch-overload')).toContainText('操作工');
  await expect(dialog.getByTestId('dispatch-overload')).toContainText('设备');
  await dialog.getByRole('button', { name: /确定派工/ }).click();
  await expect(toast(page, /已派工：PG/)).toBeVisible();
  await expect(toast(page, /负荷 .* 分钟，超过班次 480 分钟/).first()).toBeVisible();
});
