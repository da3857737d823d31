import fs from 'node:fs';
import ExcelJS from 'exceljs';
import {
  Api,
  activePage,
  expect,
  noOpenDropdown,
  type Page,
  rows,
  shot,
  signedIn,
  test,
  toast,
  unique,
} from './support.ts';

/** Picks an option of an open select (flat or tree) by its text. */
async function pick(page: Page, option: string | RegExp) {
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await dropdown
    .locator('.ant-select-item-option, .ant-select-tree-node-content-wrapper')
    .filter({ hasText: option })
    .first()
    .click();
}

let lastChosen = '';

/**
 * Opens a select by its input id, types to search and picks the option. A multiple select keeps
 * its dropdown open between picks, so only a different select waits for the last one to close.
 */
async function choose(page: Page, id: string, search: string, option: string | RegExp = search) {
  const input = page.locator(`#${id}`);
  if (id !== lastChosen) await noOpenDropdown(page);
  lastChosen = id;
  await input.click();
  await input.fill(search);
  await pick(page, option);
}

async function searchByCode(page: Page, resource: string, code: string) {
  await activePage(page).locator(`#rk-search-${resource}_code`).fill(code);
  await activePage(page)
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  await expect(rows(page).filter({ hasText: code })).toHaveCount(1);
  return rows(page).filter({ hasText: code });
}

const save = (page: Page) =>
  activePage(page)
    .getByRole('button', { name: /保\s*存$/ })
    .click();

async function workbook(rowsOfSheet: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('计量单位');
  ws.addRow(['*单位编码', '*单位名称', '状态']);
  for (const r of rowsOfSheet) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test.describe('factory master data flows', () => {
  let api: Api;
  test.beforeEach(async ({ request }) => {
    api = await Api.login(request);
  });

  test('customer: create with contacts and labels, find it, edit it, see its details', async ({ page }) => {
    const code = unique('E2EC').toUpperCase();
    await signedIn(page, api, '/factory-info/custom/custom-manage');
    await activePage(page).getByRole('button', { name: '新增客户' }).click();
    await expect(page).toHaveURL(/\/factory-info\/custom\/custom-add$/);

    // Inline validation from the definition, before anything is sent.
    await save(page);
    await expect(activePage(page).getByText('请输入客户编码')).toBeVisible();
    await expect(activePage(page).getByText('请输入客户名称')).toBeVisible();
    await page.locator('#rk-customer_phone').fill('电话');
    await expect(activePage(page).getByText('请输入有效的电话号码')).toBeVisible();

    await page.locator('#rk-customer_code').fill(code);
    await page.locator('#rk-customer_name').fill(`${code} 精密机械有限公司`);
    await page.locator('#rk-customer_phone').fill('0510-88886666');
    await choose(page, 'rk-customer_classifyId', '电机');
    await choose(page, 'rk-customer_gradeId', 'A');
    await choose(page, 'rk-customer_labelIds', '长期合作');
    await choose(page, 'rk-customer_labelIds', '出口配套');
    await page.keyboard.press('Escape');
    await page.locator('#rk-customer_creditLimit').fill('500000');

    const lines = activePage(page).getByTestId('lines-contacts');
    await lines.getByRole('button', { name: '添加一行' }).click();
    await lines.getByRole('button', { name: '添加一行' }).click();
    await page.locator('#rk-customer_contacts_0_name').fill('陈工');
    await page.locator('#rk-customer_contacts_0_position').fill('采购主管');
    await page.locator('#rk-customer_contacts_0_phone').fill('13800001111');
    await page.locator('#rk-customer_contacts_1_name').fill('刘工');
    await page.locator('#rk-customer_contacts_1_email').fill('not-an-email');
    await save(page);
    await expect(lines.getByText('请输入有效的邮箱地址')).toBeVisible();
    await page.locator('#rk-customer_contacts_1_email').fill('liu@example.com');
    await shot(page, 'factory-01-customer-form');
    await save(page);
    await expect(toast(page, '新增成功')).toBeVisible();
    await expect(page).toHaveURL(/\/factory-info\/custom\/custom-manage$/);

    // In the list, then edited.
    const row = await searchByCode(page, 'customer', code);
    await expect(row).toContainText('电机');
    await row.getByRole('button', { name: '编辑' }).click();
    await expect(page).toHaveURL(/\/factory-info\/custom\/custom-edit\?id=\d+$/);
    await expect(page.locator('#rk-customer_code')).toHaveValue(code);
    await expect(page.locator('#rk-customer_contacts_1_name')).toHaveValue('刘工');
    await page.locator('#rk-customer_contact').fill('陈工');
    await activePage(page)
      .getByTestId('lines-contacts')
      .getByRole('button', { name: '删除此行' })
      .nth(1)
      .click();
    await save(page);
    await expect(toast(page, '修改成功')).toBeVisible();
    await expect(page).toHaveURL(/\/factory-info\/custom\/custom-manage$/);

    // Details: every field, the labels, one contact left, the audit version.
    const updated = rows(page).filter({ hasText: code });
    await expect(updated).toContainText('陈工');
    await updated.getByRole('button', { name: code }).click();
    const drawer = page.getByRole('dialog').filter({ hasText: '客户详情' });
    await expect(drawer).toBeVisible();
    await expect(drawer).toContainText('长期合作');
    await expect(drawer).toContainText('出口配套');
    await expect(drawer).toContainText('500,000.00');
    await expect(drawer.getByTestId('detail-customer').locator('.rk-line-view .ant-table-row')).toHaveCount(
      1,
    );
    await expect(drawer).toContainText('采购主管');
    await expect(drawer.locator('.rk-audit')).toContainText('2');
    await shot(page, 'factory-02-customer-detail');
  });

  test('material: create with a unit conversion, then export the filtered list', async ({ page, guard }) => {
    guard.allow(/status of 400/);
    const code = unique('E2EM').toUpperCase();
    await signedIn(page, api, '/factory-info/material-manage/material-list');
    await activePage(page).getByRole('button', { name: '新增物料' }).click();
    await expect(page).toHaveURL(/\/material-add$/);
    await page.locator('#rk-material-info_code').fill(code);
    await page.locator('#rk-material-info_name').fill('测试钢球');
    await page.locator('#rk-material-info_spec').fill('G10 Φ6.35');
    await choose(page, 'rk-material-info_materialTypeId', '钢球');
    await choose(page, 'rk-material-info_unitId', '粒');

    // A conversion to the base unit itself is refused on the line cell by the server.
    const lines = activePage(page).getByTestId('lines-unitConversions');
    await lines.getByRole('button', { name: '添加一行' }).click();
    await choose(page, 'rk-material-info_unitConversions_0_unitId', '粒');
    await page.locator('#rk-material-info_unitConversions_0_baseQuantity').fill('100');
    await save(page);
    await expect(lines.getByText('不能是基本单位')).toBeVisible();
    await choose(page, 'rk-material-info_unitConversions_0_unitId', '箱');
    await page.locator('#rk-material-info_unitConversions_0_baseQuantity').fill('5000');
    // Balls by the weight of a thousand: 2.0526 kg = 1000 粒, read both ways under the lines, and
    // the unit weight it makes (单重 is never typed).
    await lines.getByRole('button', { name: '添加一行' }).click();
    await choose(page, 'rk-material-info_unitConversions_1_unitId', 'kg');
    await page.locator('#rk-material-info_unitConversions_1_unitQuantity').fill('2.0526');
    await page.locator('#rk-material-info_unitConversions_1_baseQuantity').fill('1000');
    const read = activePage(page).getByTestId('unit-conversion-sentences');
    await expect(read).toContainText('第 1 行：1 箱 = 5000 粒；1 粒 = 0.0002 箱');
    // 1000 ÷ 2.0526 = 487.186982… (2.0526 × 487 = 999.6162); 2.0526 ÷ 1000 = 0.0020526 → 0.002053.
    await expect(read).toContainText('第 2 行：1 kg ≈ 487.186982 粒；1 粒 ≈ 0.002053 kg');
    await expect(read).toContainText('单重：0.002053 kg');
    await save(page);
    await expect(toast(page, '新增成功')).toBeVisible();
    await expect(page).toHaveURL(/\/material-list$/);

    const saved = (await api.get<{ list: { id: number }[] }>('/api/v1/material-info/page', { code })).list[0];
    const conversion = await api.get<{
      units: { unitName: string; unitQuantity: string; baseQuantity: string }[];
    }>(`/api/v1/material-info/unitConversion/${saved.id}`);
    expect(conversion.units.map((u) => [u.unitName, u.unitQuantity, u.baseQuantity])).toEqual([
      ['粒', '1', '1'],
      ['箱', '1.000000', '5000.000000'],
      ['kg', '2.052600', '1000.000000'],
    ]);
    expect((await api.get<{ weight: string }>(`/api/v1/material-info/info/${saved.id}`)).weight).toBe(
      '0.002053',
    );

    await searchByCode(page, 'material-info', code);
    const downloading = page.waitForEvent('download');
    await activePage(page).getByRole('button', { name: '导出' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/物料导出\.xlsx$/);
    await expect(toast(page, '导出成功，共 1 条')).toBeVisible();
    const file = test.info().outputPath('materials.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync(file) as never);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe('物料编码');
    expect(sheet.getRow(2).getCell(1).value).toBe(code);
    expect(sheet.rowCount).toBe(2);
  });

  test('material: 「1 套 = 0.235 kg」 entered either way, the unit weight following it', async ({ page }) => {
    type Row = { id: number; code: string };
    const units = (await api.get<{ list: Row[] }>('/api/v1/material-unit/page', { pageNum: 0 })).list;
    const unitId = (code: string) => units.find((u) => u.code === code)?.id;
    const type = await api.get<{ materialTypeId: number }>('/api/v1/material-info/info/1');
    const code = unique('E2EKG').toUpperCase();
    const m = await api.post<{ id: number }>('/api/v1/material-info/add', {
      code,
      name: '按重量采购的垫圈',
      materialTypeId: type.materialTypeId,
      unitId: unitId('SET'),
      unitConversions: [{ unitId: unitId('KG'), unitQuantity: '0.235', baseQuantity: '1' }],
    });
    await signedIn(page, api, `/factory-info/material-manage/material-edit?id=${m.id}`);
    const read = activePage(page).getByTestId('unit-conversion-sentences');
    // Entered as 0.235 kg = 1 套: 1 ÷ 0.235 = 4.2553191… shown to six places, marked ≈.
    await expect(read).toContainText('第 1 行：1 kg ≈ 4.255319 套；1 套 = 0.235 kg');
    await expect(read).toContainText('单重：0.235 kg');
    // The other way round, 1 kg = 4.255319 套: now 1 套 ≈ 0.235 kg (0.23500002…).
    await page.locator('#rk-material-info_unitConversions_0_unitQuantity').fill('1');
    await page.locator('#rk-material-info_unitConversions_0_baseQuantity').fill('4.255319');
    await expect(read).toContainText('第 1 行：1 kg = 4.255319 套；1 套 ≈ 0.235 kg');
    await save(page);
    await expect(toast(page, '修改成功')).toBeVisible();
    const saved = await api.get<{
      weight: string;
      unitConversions: { unitQuantity: string; baseQuantity: string }[];
    }>(`/api/v1/material-info/info/${m.id}`);
    expect(saved.unitConversions[0]).toMatchObject({ unitQuantity: '1.000000', baseQuantity: '4.255319' });
    expect(saved.weight).toBe('0.235000');
  });

  test('import units from Excel: the per-row report first, then an all-or-nothing import', async ({
    page,
  }) => {
    const a = unique('E2EA').toUpperCase();
    const b = unique('E2EB').toUpperCase();
    await signedIn(page, api, '/factory-info/material-manage/material-unit');
    await activePage(page).getByRole('button', { name: '导入' }).click();
    const dialog = page.getByRole('dialog', { name: '导入计量单位' });
    await expect(dialog.getByRole('button', { name: '下载模板' })).toBeVisible();

    const bad = await workbook([
      [a, '测试甲', '启用'],
      [a, '测试乙', '启用'],
      ['PCS', '件', '启用'],
      ['BAD CODE', '坏', '启用'],
      [b, '', '停用'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'units-bad.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bad,
    });
    const report = dialog.getByTestId('import-report');
    await expect(report).toContainText('校验未通过：共 5 行');
    const errors = dialog.getByTestId('import-errors');
    await expect(errors).toContainText('与第 2 行重复');
    await expect(errors).toContainText('已存在');
    await expect(errors).toContainText('只能包含字母、数字');
    await expect(errors).toContainText('单位名称不能为空');
    await expect(dialog.getByTestId('import-confirm')).toBeDisabled();
    await shot(page, 'factory-03-import-report');

    await dialog.getByRole('button', { name: '重新选择文件' }).click();
    const good = await workbook([
      [a, '测试甲', '启用'],
      [b, '测试乙', '停用'],
    ]);
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'units.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: good,
    });
    await expect(report).toContainText('校验通过：共 2 行');
    await dialog.getByTestId('import-confirm').click();
    await expect(dialog).toContainText('成功导入 2 条计量单位');
    await dialog.getByRole('button', { name: /完\s*成/ }).click();

    const row = await searchByCode(page, 'material-unit', b);
    await expect(row).toContainText('停用');
  });

  test('a BOM that contains its own product is refused with the Chinese message on the line', async ({
    page,
    guard,
  }) => {
    guard.allow(/status of 400/);
    await signedIn(page, api, '/factory-info/material-manage/product-bom-add');
    await page.locator('#rk-product-bom_code').fill(unique('BOM-E2E-').toUpperCase());
    await choose(page, 'rk-product-bom_productId', '6206-2RS', /深沟球轴承 6206-2RS（/);
    await page.locator('#rk-product-bom_versionNo').fill('E2E');
    await choose(page, 'rk-product-bom_lines_0_materialId', '6206-2RS', /深沟球轴承 6206-2RS（/);
    await page.locator('#rk-product-bom_lines_0_quantity').fill('1');
    await choose(page, 'rk-product-bom_lines_0_unitId', '套');
    await save(page);
    await expect(toast(page, 'BOM 不能包含产品自身')).toBeVisible();
    await expect(activePage(page).getByTestId('lines-lines')).toContainText('子件不能是产品自身');
    await expect(page).toHaveURL(/\/product-bom-add$/);
    await shot(page, 'factory-04-bom-self');
  });

  test('BOM where-used: 子件物料 lists the BOMs that contain a component', async ({ page }) => {
    // A component of some demo BOM, and how many BOMs use it, from the API.
    type Bom = { id: number; code: string; lines: { materialId: number }[] };
    const first = await api.get<{ list: Bom[] }>('/api/v1/product-bom/page', { pageNum: 1, pageSize: 1 });
    const bom = await api.get<Bom>(`/api/v1/product-bom/info/${first.list[0].id}`);
    const component = bom.lines[0];
    const { code } = await api.get<{ code: string }>(`/api/v1/material-info/info/${component.materialId}`);
    const using = await api.get<{ total: number }>('/api/v1/product-bom/page', {
      materialId: component.materialId,
      pageSize: 1,
    });
    const all = await api.get<{ total: number }>('/api/v1/product-bom/page', { pageSize: 1 });
    expect(using.total).toBeLessThan(all.total);

    await signedIn(page, api, '/factory-info/material-manage/product-bom');
    await expect(rows(page).first()).toBeVisible();
    const toggle = activePage(page).getByRole('button', { name: /展\s*开/ });
    if (await toggle.isVisible()) await toggle.click();
    const exact = new RegExp(`（${code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}）$`);
    await choose(page, 'rk-search-product-bom_materialId', code, exact);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect(activePage(page).locator('.ant-pagination-total-text')).toHaveText(`共 ${using.total} 条`);
    await expect(rows(page).filter({ hasText: bom.code })).toHaveCount(1);
  });

  test('deleting a unit that materials use answers the 409 message and keeps the unit', async ({
    page,
    guard,
  }) => {
    guard.allow(/status of 409/);
    await signedIn(page, api, '/factory-info/material-manage/material-unit');
    const row = await searchByCode(page, 'material-unit', 'PCS');
    await row.getByRole('button', { name: '删除' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(toast(page, /已被「.+」引用，无法删除/)).toBeVisible();
    await expect(rows(page).filter({ hasText: 'PCS' })).toHaveCount(1);
  });

  test('a stale version is refused and the form offers to reload', async ({ page, guard }) => {
    guard.allow(/status of 409/);
    const code = unique('E2EG').toUpperCase();
    const created = await api.post<{ id: number; version: number }>('/api/v1/product-group/add', {
      code,
      name: '测试产品组',
    });
    await signedIn(page, api, '/factory-info/material-manage/product-manage');
    const row = await searchByCode(page, 'product-group', code);
    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog', { name: /编辑产品组/ });
    await expect(dialog.locator('#rk-modal-product-group_name')).toHaveValue('测试产品组');
    // Someone else saves first.
    await api.put(`/api/v1/product-group/edit/${created.id}`, { name: '别人改过', version: created.version });
    await dialog.locator('#rk-modal-product-group_name').fill('我的修改');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    const confirm = page.getByRole('dialog', { name: '数据已被他人修改' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: '重新加载' }).click();
    await expect(dialog.locator('#rk-modal-product-group_name')).toHaveValue('别人改过');
  });
});
