import { Api, activePage, choose, expect, signedIn, test, toast, unique } from './support.ts';

const LIST = '/quality-testing/bearing-ring-standard';

test('质检员 derives 6204-2RS P6 from the standard and adds a customer tightening with its reason', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const admin = await Api.login(request);
  // A 6204-2RS in class P6 (d 20, D 47, B 14, diameter series 2), typed like the demo's 6204-2RS.
  const like = await admin.get<{ list: any[] }>('/api/v1/material-info/page', { code: 'FG-6204-2RS' });
  const base = like.list[0];
  const code = unique('E2E-6204P6-');
  await admin.post('/api/v1/material-info/add', {
    code,
    name: '深沟球轴承 6204-2RS/P6',
    spec: '6204-2RS/P6',
    materialTypeId: base.materialTypeId,
    unitId: base.unitId,
    status: '1',
    toleranceClass: 'P6',
    boreDiameter: '20',
    outsideDiameter: '47',
    bearingWidth: '14',
    diameterSeries: '2',
    capped: true,
  });

  await signedIn(page, await Api.login(request, 'qc01', 'demo123'), LIST);
  const std = activePage(page);
  await expect(std.getByTestId('ring-standard-rows').locator('.ant-table-row').first()).toBeVisible();

  // 按产品推导: Δdmp 0/−8, Vdsp 6, Kia 8 from table 4 (6 级内圈, 18 < d ≤ 30); ΔDmp 0/−9, Kea 10 from table 5.
  await choose(page, 'derive-product', code);
  const limits = std.getByTestId('ring-limits');
  await expect(limits.getByTestId('limit-lower-dmp')).toHaveText('−8');
  await expect(limits.getByTestId('limit-upper-Kia')).toHaveText('≤ 8');
  await expect(limits.getByText('表4 6级内圈（18 < d ≤ 30）').first()).toBeVisible();
  await expect(limits.getByTestId('limit-lower-Dmp')).toHaveText('−9');
  await expect(limits.getByTestId('limit-upper-Kea')).toHaveText('≤ 10');
  await expect(limits.getByText('表5 6级外圈（30 < D ≤ 50）').first()).toBeVisible();

  // The product's detail: add a tightening of Δdmp for a customer, with its reason.
  await std.getByRole('button', { name: '产品标准详情 / 客户收严' }).click();
  const detail = activePage(page);
  await expect(detail.getByTestId('ring-standard-detail')).toBeVisible();
  await detail.getByRole('button', { name: '新增收严' }).click();
  const dialog = page.locator('.ant-modal:visible');
  await choose(page, 'ringOverrideForm_customerId', '钱塘');
  await dialog.locator('#ringOverrideForm_characteristic').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('内圈 Δdmp 单一平面平均内径偏差').click();
  await dialog.locator('#ringOverrideForm_upperLimit').fill('0');
  await dialog.locator('#ringOverrideForm_lowerLimit').fill('-9');
  await dialog.locator('#ringOverrideForm_reason').fill('客户图纸 E2E-01 要求内径收严');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  // Looser than the standard: refused inline before it reaches the server.
  await expect(dialog.getByText('不得小于标准 -8 μm')).toBeVisible();
  await dialog.locator('#ringOverrideForm_lowerLimit').fill('-5');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(toast(page, '新增成功')).toBeVisible();
  const row = detail.getByTestId('ring-overrides').locator('.ant-table-row').first();
  await expect(row).toContainText('浙江钱塘汽车零部件有限公司');
  await expect(row).toContainText('0 / −5');
  await expect(row).toContainText('客户图纸 E2E-01 要求内径收严');
});
