import { Api, activePage, expect, rows, shot, signedIn, test, toast } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/**
 * Inspection items fit the part and the step (issue 35): the quality engineer keeps a step's
 * item set on 检验项目 › 检验模板 (尺寸阶段, 依据图纸, per line the step's size and allowance), and
 * the inspector entering results sees the step's limits — the 6205 outer ring's 车外圈 checks D
 * turned with grinding allowance (52.4 ±0.05), not the bearing's bore d nor the finished P6 limits.
 */
test.describe('inspection items by step', () => {
  test('qc01 keeps the outer ring’s 车外圈 item set; a finished size at turning is refused with the reason', async ({
    page,
    request,
    guard,
  }) => {
    test.setTimeout(60_000);
    // The refused save answers 400 on purpose.
    guard.allow(/status of 400/);
    const qc = await Api.login(request, 'qc01', 'demo123');
    await signedIn(page, qc, '/quality-testing/inspection-item');
    await activePage(page).getByRole('tab', { name: '检验模板' }).click();
    const code = 'QT-6205-OR-P6-GX040';
    await activePage(page).locator('#rk-search-inspection-template_code').fill(code);
    await activePage(page)
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const row = rows(page).filter({ hasText: code });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('车削尺寸（含磨量）');
    await row.getByRole('button', { name: '编辑' }).click();
    const dialog = page.getByRole('dialog', { name: /编辑检验模板/ });
    // The stage says what it asks of the lines; the lines hold the turned sizes with allowance.
    await expect(dialog).toContainText('成品公差在磨削后才适用');
    await expect(dialog).toContainText('零件图');
    const nominal = dialog.locator('#rk-modal-inspection-template_items_0_nominal');
    await expect(nominal).toHaveValue(/^52\.40*$/);
    await expect(dialog.locator('#rk-modal-inspection-template_items_0_allowance')).toHaveValue(/^0\.40*$/);
    await shot(page, 'inspection-step-items-template');
    // The finished size typed at turning: refused, the reason on the cell.
    await nominal.fill('52');
    await dialog.getByRole('button', { name: /保\s*存$/ }).click();
    await expect(dialog).toContainText('本工序尺寸应为 52 + 0.4 = 52.4（成品尺寸加留量），填写的是 52');
    await nominal.fill('52.4');
    await dialog.getByRole('button', { name: /保\s*存$/ }).click();
    await expect(toast(page, '修改成功')).toBeVisible();
  });

  test('the result entry of a 车外圈 task shows D at 52.4 ±0.05 from the drawing; a finished-size piece is out', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const ring = await first('/api/v1/material-info/page', { code: 'SF-6205-OR-P6' });
    const turning = await first('/api/v1/process-manage/page', { code: 'GX040' });
    const task = await admin.post<Row>('/api/v1/inspection-task/add', {
      category: 'machine-reporting',
      productId: ring.id,
      processId: turning.id,
      lotQuantity: 20,
    });
    await signedIn(
      page,
      await Api.login(request, 'qc01', 'demo123'),
      `/quality-testing/lathe-machining-reporting-quality-testing?id=${task.id}`,
    );
    const basis = activePage(page).getByTestId('inspection-basis');
    await expect(basis).toContainText('外圈');
    await expect(basis).toContainText('车削尺寸（含磨量）');
    await expect(basis).toContainText('零件图');
    const grid = activePage(page).getByTestId('entry-grid');
    const head = grid.locator('thead');
    await expect(head).toContainText('外径 D');
    await expect(head).not.toContainText('内径 d');
    await expect(head).toContainText('52.4 ±0.05');
    await expect(head).toContainText('52.35 ~ 52.45 mm');
    await expect(head.getByTestId('limit-source').first()).toHaveText('工序图');
    await shot(page, 'inspection-step-items-entry');
    // 外径 D is the first column: a turned piece is in, a piece at the finished size is out.
    await grid.getByTestId('cell-0-1').fill('52.41');
    await expect(grid.getByTestId('cell-0-1')).toHaveClass(/qi-ok/);
    await grid.getByTestId('cell-0-2').fill('51.995');
    await expect(grid.getByTestId('cell-0-2')).toHaveClass(/qi-bad/);
  });
});
