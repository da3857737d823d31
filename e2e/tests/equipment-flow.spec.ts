import { Api, activePage, expect, noOpenDropdown, type Page, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/** Opens a select by its input id, types to search and picks the first option containing `text`. */
async function choose(page: Page, id: string, text: string) {
  await noOpenDropdown(page);
  const input = page.locator(`#${id}`);
  await input.click();
  await input.fill(text);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: text })
    .first()
    .click();
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
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '确认修复' }).click();
    await expect(toast(page, '确认修复成功')).toBeVisible();
    const done = await admin.get<Row>(`/api/v1/equipment-repair/info/${repair.id}`);
    expect(done).toMatchObject({ status: 'confirmed', assigneeName: '马超', confirmedByName: '李军' });
    expect(done.downtimeMinutes).toBeGreaterThanOrEqual(0);

    await page.goto(`/factory-info/equipment-manage/equipment-ledger-detail?id=${equipment.id}`);
    const care = activePage(page).getByTestId('equipment-care');
    await expect(care.getByTestId('care-repairs')).toContainText(repair.docNo);
    await expect(care.getByTestId('care-repairs')).toContainText('已确认');
    await expect(care).toContainText('MTTR');
  });
});
