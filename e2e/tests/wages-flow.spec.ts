import { Api, activePage, expect, signedIn, test, toast } from './support.ts';

interface Sheet {
  closed: boolean;
  rows: { operatorName: string; totalAmount: string }[];
  totals: { totalAmount: string };
}

const money = (v: string) =>
  Number(v).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

test.describe('工序工资', () => {
  test('财务 opens this month’s wage sheet, drills into a worker’s reports, closes the month and exports it', async ({
    page,
    request,
  }) => {
    const fin = await Api.login(request, 'fin01', 'demo123');
    const month = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' })
      .format(new Date())
      .slice(0, 7);
    // A run that stopped after closing left the month closed: reopen it first (反结账).
    if ((await fin.get<Sheet>('/api/v1/process-wage/sheet', { month })).closed)
      await fin.post('/api/v1/process-wage/reopen', { month, reason: 'e2e 重跑' });
    const expected = await fin.get<Sheet>('/api/v1/process-wage/sheet', { month });
    expect(expected.closed).toBe(false);
    expect(expected.rows.length).toBeGreaterThan(0);

    await signedIn(page, fin, '/finance-department/process-wage');
    const sheet = activePage(page).getByTestId('wage-sheet');
    await expect(sheet.locator('.ant-table-row')).toHaveCount(expected.rows.length);
    await expect(activePage(page).getByTestId('wage-totals')).toContainText(
      money(expected.totals.totalAmount),
    );

    // Drill-down: the worker's wage lines, each with its work report.
    const worker = expected.rows[0];
    const row = sheet.locator('.ant-table-row').filter({ hasText: worker.operatorName }).first();
    await expect(row).toContainText(money(worker.totalAmount));
    await row.getByText('明细').click();
    const drawer = page.locator('.ant-drawer:visible');
    await expect(drawer).toContainText(`${month} 计件明细：${worker.operatorName}`);
    const lines = drawer.getByTestId('wage-lines').locator('.ant-table-row');
    await expect(lines.first()).toContainText(/BG\d{8}-\d{4}/);
    await drawer.locator('.ant-drawer-close').click();
    await expect(drawer).toHaveCount(0);

    // 结账: the month is locked. Other flows may post work reports at the same moment; the
    // server's answer is asserted first, so a refusal shows its own message here.
    await activePage(page)
      .getByRole('button', { name: /^\S*\s*结\s*账$/ })
      .click();
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/process-wage/close'));
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /结\s*账/ })
      .click();
    const closed = await answer;
    expect(await closed.json(), 'the close answered').toMatchObject({ code: '200' });
    await expect(toast(page, `${month} 已结账`)).toBeVisible();
    await expect(activePage(page).getByTestId('wage-closed')).toBeVisible();
    await expect(activePage(page).getByRole('button', { name: /^\S*\s*结\s*账$/ })).toHaveCount(0);
    expect((await fin.get<Sheet>('/api/v1/process-wage/sheet', { month })).closed).toBe(true);

    // Excel in the payroll layout.
    const downloading = page.waitForEvent('download');
    await activePage(page)
      .getByRole('button', { name: /导\s*出/ })
      .click();
    const file = await downloading;
    expect(file.suggestedFilename()).toContain('计件工资表');

    // 反结账 (the latest closed month), with a reason: the sheet is open again.
    await activePage(page)
      .getByRole('button', { name: /反结账/ })
      .click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.getByLabel('反结账原因').fill('e2e 补录报工');
    await dialog.getByRole('button', { name: /反结账/ }).click();
    await expect(toast(page, `${month} 已反结账`)).toBeVisible();
    await expect(activePage(page).getByTestId('wage-closed')).toHaveCount(0);
    expect((await fin.get<Sheet>('/api/v1/process-wage/sheet', { month })).closed).toBe(false);

    // The same reports in 报工统计 (one report page for all of them): chart, rows, drill-down.
    await page.goto('/finance-department/job-booking');
    const report = activePage(page).getByTestId('report-job-booking');
    await expect(report.getByTestId('report-chart').locator('canvas')).toBeVisible();
    const first = report.getByTestId('report-table').locator('.ant-table-row').first();
    await first.getByText('明细').click();
    await expect(
      page.locator('.ant-drawer:visible').getByTestId('report-detail').locator('.ant-table-row').first(),
    ).toContainText(/BG\d{8}-\d{4}/);
  });
});
