import {
  Api,
  activePage,
  choose,
  confirmIn,
  date,
  expect,
  shot,
  signedIn,
  signIn,
  test,
  toast,
} from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const REPAIR = '/factory-info/equipment-manage/report-for-repair';
const MAINTENANCE = '/factory-info/equipment-manage/maintenance';

/** A 1×1 PNG: the photo of a fault. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

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
    // Signed in through the form: the photos load as plain <img> requests, on its session cookie.
    const head = await Api.login(request, 'head01', 'demo123');
    await signIn(page, 'head01', 'demo123');
    await page.goto(REPAIR);
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
    // A photo of the fault, taken on the shop floor: it shows on the request at once.
    const photos = detail.getByTestId('repair-photos');
    await expect(photos).toContainText('没有照片');
    await photos
      .locator('input[type=file]')
      .setInputFiles({ name: '主轴异响.png', mimeType: 'image/png', buffer: PNG });
    await expect(toast(page, '已上传 主轴异响.png')).toBeVisible();
    await expect(photos.getByTestId('repair-photo')).toHaveCount(1);
    await expect(photos).toContainText('现场照片（1）');
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

test.describe('maintenance by running hours and spare parts', () => {
  test('设备员 plans by running hours: the hours reported on the lathe make it overdue; the record resets it and draws grease from stock', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const admin = await Api.login(request);
    const tech = await Api.login(request, 'eq01', 'demo123');
    // The lathe the demo's turning reports ran on: its hours since a month ago make the plan due.
    const lathe = (
      await admin.get<{ list: Row[] }>('/api/v1/equipment/page', { code: 'EQ-CJ-001', pageSize: 1 })
    ).list[0];
    const code = `E2E-H${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

    await signedIn(page, tech, MAINTENANCE);
    const list = activePage(page);
    await list.getByRole('button', { name: '新增保养计划' }).click();
    const form = page.locator('.ant-modal:visible');
    await form.locator('#rk-modal-maintenance-plan_code').fill(code);
    await form.locator('#rk-modal-maintenance-plan_name').fill('E2E 主轴箱换油');
    await choose(page, 'rk-modal-maintenance-plan_equipmentId', 'EQ-CJ-001');
    await form.getByText('按运行小时', { exact: true }).click();
    await expect(form.getByRole('radio', { name: '按运行小时' })).toBeChecked();
    await form.locator('#rk-modal-maintenance-plan_cycleHours').fill('1');
    await date(page, 'rk-modal-maintenance-plan_startDate', monthAgo);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, /成功/)).toBeVisible();

    const plan = (await admin.get<{ list: Row[] }>('/api/v1/maintenance-plan/page', { code, pageSize: 1 }))
      .list[0];
    expect(plan).toMatchObject({ cycleType: 'hours', cycleHours: '1.00', equipmentId: lathe.id });
    expect(Number(plan.hoursSince)).toBeGreaterThanOrEqual(1);
    const row = list.locator('.ant-table-row').filter({ hasText: code });
    await expect(row).toHaveClass(/eq-overdue/);
    await expect(row).toContainText('逾期');
    await shot(page, 'equipment-maintenance-hours');

    // 登记保养: the hours start again from the record's day, so the plan is no longer due.
    await row.getByRole('button', { name: '登记保养' }).click();
    const record = page.locator('.ant-modal:visible');
    await record.locator('#rk-modal-maintenance-record_minutes').fill('90');
    await record.locator('#rk-modal-maintenance-record_content').fill('E2E 排放旧油，加注 L-HM46 液压油');
    await record.getByRole('button', { name: /保\s*存/ }).click();
    await expect(toast(page, /成功/)).toBeVisible();
    await expect(row).not.toHaveClass(/eq-overdue/);
    const rec = (
      await admin.get<{ list: Row[] }>('/api/v1/maintenance-record/page', {
        planId: plan.id,
        sortField: 'id',
        sortOrder: 'desc',
        pageSize: 1,
      })
    ).list[0];
    expect(rec.content).toBe('E2E 排放旧油，加注 L-HM46 液压油');

    // 领用备件 on 查看保养: a posted 领料出库 of the grease, linked from the record.
    const grease = (
      await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'AX-G-LI2', pageSize: 1 })
    ).list[0];
    const stock = (
      await admin.get<{ list: Row[] }>('/api/v1/stock-balance/page', { materialId: grease.id, pageSize: 50 })
    ).list.filter((b) => Number(b.quantity) >= 500);
    expect(stock.length).toBeGreaterThan(0);
    const store = stock[0];
    const before = Number(store.quantity);
    await page.goto(`${MAINTENANCE}-view`);
    const view = activePage(page);
    const recRow = view.locator('.ant-table-row').filter({ hasText: rec.docNo });
    await recRow.getByRole('button', { name: '领用备件' }).click();
    const parts = page.locator('.ant-modal:visible').filter({ has: page.getByTestId('spare-parts-form') });
    await choose(page, 'warehouseId', String(store.warehouseName ?? store.warehouseCode));
    await choose(page, 'lines_0_materialId', 'AX-G-LI2');
    await parts.locator('#lines_0_quantity').fill('500');
    await parts.getByRole('button', { name: '领用并过账' }).click();
    await expect(toast(page, /已领用备件，领料出库单 .+ 已过账/)).toBeVisible();
    await expect(recRow.getByRole('button', { name: '领用备件' })).toHaveCount(0);
    const linked = await admin.get<Row>(`/api/v1/maintenance-record/info/${rec.id}`);
    expect(linked.outboundId).toBeTruthy();
    const outbound = await admin.get<Row>(`/api/v1/stock-outbound/info/${linked.outboundId}`);
    expect(outbound).toMatchObject({ type: 'requisition', status: 'posted', sourceNo: rec.docNo });
    const after = (
      await admin.get<{ list: Row[] }>('/api/v1/stock-balance/page', { materialId: grease.id, pageSize: 50 })
    ).list.find((b) => b.id === store.id);
    expect(Number(after?.quantity)).toBe(before - 500);
  });
});
