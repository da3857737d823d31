import { Api, activePage, choose, confirmIn, expect, shot, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const REPAIR = '/factory-info/equipment-manage/report-for-repair';

test.describe('equipment repair flow', () => {
  test('车间主任 reports a fault; it is dispatched to 设备员, who repairs it; the head confirms', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const equipment = (
      await admin.get<{ list: Row[] }>('/api/v1/equipment/page', { code: 'EQ-MJ-003', pageSize: 1 })
    ).list[0];
    expect(equipment.faultState).toBe('normal');

    // 报修 from the list, in the kit's form dialog.
    const head = await Api.login(request, 'head01', 'demo123');
    await signedIn(page, head, REPAIR);
    await activePage(page).getByRole('button', { name: '新增报修单' }).click();
    const form = page.locator('.ant-modal:visible');
    await choose(page, 'rk-modal-equipment-repair_equipmentId', 'EQ-MJ-003');
    await form.locator('#rk-modal-equipment-repair_faultDescription').fill('E2E 砂轮主轴异响，停机待修');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, /成功/)).toBeVisible();
    const repair = (
      await admin.get<{ list: Row[] }>('/api/v1/equipment-repair/page', {
        equipmentId: equipment.id,
        sortField: 'id',
        sortOrder: 'desc',
        pageSize: 1,
      })
    ).list[0];
    expect(repair).toMatchObject({ status: 'reported', faultDescription: 'E2E 砂轮主轴异响，停机待修' });
    expect((await admin.get<Row>(`/api/v1/equipment/info/${equipment.id}`)).faultState).toBe('fault');

    // 派工 on the detail page: the dialog asks for the maintenance person.
    await page.goto(`${REPAIR}-detail?id=${repair.id}`);
    const detail = activePage(page);
    await expect(detail.getByText(repair.docNo).first()).toBeVisible();
    await detail.getByTestId('transition-dispatch').click();
    const dialog = page.locator('.ant-modal:visible');
    await choose(page, 'assigneeId', '马超');
    await dialog.getByRole('button', { name: /派\s*工/ }).click();
    await expect(toast(page, '派工成功')).toBeVisible();
    await expect(detail.getByText('已派工').first()).toBeVisible();

    // 设备员: 开始维修, then 维修完成 with what was done.
    const tech = await Api.login(request, 'eq01', 'demo123');
    await signedIn(page, tech, `${REPAIR}-detail?id=${repair.id}`);
    const techView = activePage(page);
    await techView.getByTestId('transition-start').click();
    await expect(toast(page, '开始维修成功')).toBeVisible();
    await techView.getByTestId('transition-finish').click();
    const finish = page.locator('.ant-modal:visible');
    await finish.locator('#repairContent').fill('更换砂轮主轴轴承，动平衡后试磨合格');
    await finish.getByRole('button', { name: '维修完成' }).click();
    await expect(toast(page, '维修完成成功')).toBeVisible();
    await expect(techView.getByText('已修复').first()).toBeVisible();
    expect((await admin.get<Row>(`/api/v1/equipment/info/${equipment.id}`)).faultState).toBe('normal');

    // 车间主任 confirms; the equipment's history shows the repair with its downtime.
    await signedIn(page, head, `${REPAIR}-detail?id=${repair.id}`);
    await activePage(page).getByTestId('transition-confirm').click();
    await confirmIn(page, '确认修复');
    await expect(toast(page, '确认修复成功')).toBeVisible();
    const done = await admin.get<Row>(`/api/v1/equipment-repair/info/${repair.id}`);
    expect(done).toMatchObject({ status: 'confirmed', assigneeName: '马超', confirmedByName: '李军' });
    expect(done.downtimeMinutes).toBeGreaterThanOrEqual(0);

    await page.goto(`/factory-info/equipment-manage/equipment-ledger-detail?id=${equipment.id}`);
    const care = activePage(page).getByTestId('equipment-care');
    await expect(care.getByTestId('care-repairs')).toContainText(repair.docNo);
    await expect(care.getByTestId('care-repairs')).toContainText('已确认');
    await expect(care).toContainText('MTTR');
    await shot(page, 'equipment-ledger-detail');
  });
});

test.describe('equipment maintenance and inspection', () => {
  test('保养 shows the overdue plan in red and records one; 点检 records an NG check and reports it in one step', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const tech = await Api.login(request, 'eq01', 'demo123');

    // 保养: the demo's weekly 导轨润滑 is overdue; 登记保养 moves it on.
    await signedIn(page, tech, '/factory-info/equipment-manage/maintenance');
    await expect(page.getByTestId('maintenance-due')).toContainText('逾期未保养 1 项');
    const overdue = activePage(page).locator('.ant-table-row.eq-overdue');
    await expect(overdue).toHaveCount(1);
    await expect(overdue).toContainText('导轨润滑');
    await shot(page, 'equipment-maintenance');
    await overdue.getByRole('button', { name: '登记保养' }).click();
    const record = page.locator('.ant-modal:visible');
    await record.locator('#rk-modal-maintenance-record_minutes').fill('40');
    await record.locator('#rk-modal-maintenance-record_content').fill('E2E 清洁导轨并加注导轨油');
    await record.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, /成功/)).toBeVisible();
    await expect(page.getByTestId('maintenance-due')).toContainText('逾期未保养 0 项');
    await expect(activePage(page).locator('.ant-table-row.eq-overdue')).toHaveCount(0);

    // 点检: the lathe's checklist, tonight's record with the spindle too hot.
    const checklist = (
      await admin.get<{ list: Row[] }>('/api/v1/inspection-checklist/page', { code: 'DJ-CJ001', pageSize: 1 })
    ).list[0];
    await page.goto(`/factory-info/equipment-manage/inspection-detail?id=${checklist.id}`);
    const detail = activePage(page);
    await detail.getByRole('button', { name: /新增/ }).click();
    const entry = page.locator('.ant-modal:visible');
    await entry.getByRole('combobox', { name: '班次' }).click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '夜班' })
      .click();
    const items = entry.getByTestId('check-entry-items');
    const okButtons = items.locator('.ant-radio-button-wrapper').filter({ hasText: 'OK' });
    await okButtons.nth(0).click();
    await okButtons.nth(1).click();
    await items.getByLabel('主轴温升 实测值').fill('61');
    await items.getByLabel('气源压力 实测值').fill('0.55');
    await entry.getByRole('button', { name: '保存点检' }).click();
    await expect(toast(page, '点检已保存：1 项 NG')).toBeVisible();
    const ng = page.locator('.ant-modal:visible').filter({ has: page.getByTestId('ng-items') });
    await expect(ng.getByTestId('ng-items')).toContainText('主轴温升');
    await ng.getByRole('button', { name: '一键报修' }).click();
    await expect(toast(page, /已生成报修单 BX/)).toBeVisible();
    await shot(page, 'equipment-inspection-ng');
    await expect(ng.getByTestId('ng-items')).toContainText('BX');
    const repair = (
      await admin.get<{ list: Row[] }>('/api/v1/equipment-repair/page', {
        equipmentId: checklist.equipmentId,
        sortField: 'id',
        sortOrder: 'desc',
        pageSize: 1,
      })
    ).list[0];
    expect(repair.status).toBe('reported');
    expect(repair.faultDescription).toContain('主轴温升');
  });
});
