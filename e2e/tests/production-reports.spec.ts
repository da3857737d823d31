import { Api, activePage, expect, noOpenDropdown, signedIn, test } from './support.ts';

const PATH = '/production-department/statisticalStatement/productionTotal';

test.describe('生产报表', () => {
  test('生产汇总: chart and totals, filtered by an operator, drilled down to the posted work reports', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    await signedIn(page, admin, PATH);
    const view = activePage(page).getByTestId('report-productionTotal');
    await expect(view.getByTestId('report-chart').locator('canvas')).toBeVisible();
    await expect(view.getByTestId('report-table').locator('.ant-table-row').first()).toBeVisible();

    // By operator, then only one of them: the totals row shows that operator's good pieces.
    await view.getByText('按操作工').click();
    const first = view.getByTestId('report-table').locator('.ant-table-row').first();
    await expect(first).toBeVisible();
    const input = page.locator('#report-productionTotal_operatorId');
    await noOpenDropdown(page);
    const name = (await first.locator('td').first().innerText()).trim();
    await input.click();
    await input.fill(name);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: name })
      .first()
      .click();
    await view.getByRole('button', { name: /搜\s*索/ }).click();
    const rows = view.getByTestId('report-table').locator('.ant-table-row');
    await expect(rows).toHaveCount(1);
    const operatorId = Number(await rows.first().getAttribute('data-row-key'));
    // This month and the two before, in the factory's time zone (as the page computes them).
    const [y, m] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' })
      .format(new Date())
      .split('-')
      .map(Number);
    const from = new Date(Date.UTC(y, m - 1, 1));
    const month = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
    const to = month(from);
    from.setUTCMonth(from.getUTCMonth() - 2);
    const expected = await admin.get<{ totals: { goodQuantity: string } }>(
      '/api/v1/production-report/productionTotal',
      { groupBy: 'worker', from: month(from), to, operatorId },
    );
    await expect(view.getByTestId('report-totals')).toContainText(
      Number(expected.totals.goodQuantity).toLocaleString('zh-CN', { maximumFractionDigits: 4 }),
    );

    // Drill down: the operator's posted work reports of the period.
    await rows.first().getByRole('button', { name: '报工单' }).click();
    const drawer = page.getByTestId('drill-work-reports');
    await expect(drawer.locator('.ant-table-row').first()).toBeVisible();
    await expect(drawer.locator('.ant-table-row').first()).toContainText('已入账');

    // Any range of days: from the 4th of the period's first month to today (the ends from the
    // daily rollup), the same operator.
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const start = `${month(from)}-04`;
    const period = page.locator('#report-productionTotal_period');
    await period.click();
    await period.fill(start);
    await page.keyboard.press('Enter');
    const end = page.locator('.ant-picker-range:has(#report-productionTotal_period) input').nth(1);
    await end.fill(today);
    await page.keyboard.press('Enter');
    await expect(period).toHaveValue(start);
    await expect(end).toHaveValue(today);
    await view.getByRole('button', { name: /搜\s*索/ }).click();
    const days = await admin.get<{ totals: { goodQuantity: string } }>(
      '/api/v1/production-report/productionTotal',
      { groupBy: 'worker', from: start, to: today, operatorId },
    );
    await expect(view.getByTestId('report-totals')).toContainText(
      Number(days.totals.goodQuantity).toLocaleString('zh-CN', { maximumFractionDigits: 4 }),
    );
  });
});
