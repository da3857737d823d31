import { Api, activePage, expect, signedIn, test } from './support.ts';

/**
 * Product cost (issue 37 §4) on the demo factory: a finished order's 成本 tab adds up what its
 * 领料, 报工 wages, 委外 and overhead cost (系统设置 › 成本核算, seeded per workshop), and its 生产入库
 * brought that cost into stock; the 成本差异 report sets each order against its product's standard
 * (BOM and route), the 产品成本 report draws the unit cost over the months.
 */

interface Row {
  id: number;
  [key: string]: any;
}

const money = (v: string | number) =>
  Number(v).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

test.describe('产品成本', () => {
  test('a finished order’s 成本 tab, the 成本差异 and 产品成本 reports, the 成本核算 settings', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    // A finished demo order (its rings made, its bearings received) with its cost.
    const orders = await admin.get<{ list: Row[] }>('/api/v1/production-order/page', {
      status: 'completed',
      pageSize: 20,
    });
    let order: Row | undefined;
    let cost: { total: string; unitCost: string | null } | undefined;
    for (const o of orders.list) {
      const c = await admin.get<{ total: string; unitCost: string | null }>(
        `/api/v1/production-order/cost/${o.id}`,
      );
      if (Number(c.total) > 0 && c.unitCost) {
        order = o;
        cost = c;
        break;
      }
    }
    expect(order, 'a completed demo order with a cost').toBeTruthy();
    if (!order || !cost) return;

    await signedIn(
      page,
      admin,
      `/production-department/production-manage/produce-order-detail?id=${order.id}`,
    );
    await activePage(page).getByRole('tab', { name: '成本' }).click();
    const tab = page.getByTestId('production-cost');
    await expect(tab.getByTestId('cost-total')).toContainText(money(cost.total));
    await expect(tab).toContainText('材料');
    await expect(tab).toContainText('计件工资');
    await expect(tab).toContainText('制造费用');

    // 成本差异: the order's row, its variance split four ways; the chart drawn.
    await page.goto('/finance-department/cost-variance');
    const variance = activePage(page).getByTestId('report-cost-variance');
    await expect(variance.getByTestId('report-chart').locator('canvas')).toBeVisible();
    const table = variance.getByTestId('report-table');
    await expect(table).toContainText('材料差异');
    await expect(table).toContainText('制造费用差异');
    const report = await admin.get<{ rows: Row[]; totals: Row }>('/api/v1/finance-report/cost-variance', {
      groupBy: 'order',
    });
    const mine = report.rows.find((r) => r.key === String(order?.id));
    expect(mine, 'the order in 成本差异').toBeTruthy();
    await expect(variance.getByTestId('report-totals')).toContainText(money(report.totals.actualTotal));
    await expect(table.locator(`.ant-table-row[data-row-key="${order.id}"]`)).toContainText(
      money(mine?.standardTotal),
    );
    // By product: one row per product.
    await variance.getByText('按产品').click();
    await expect(table.locator('.ant-table-row').first()).toBeVisible();

    // 产品成本: units and cost per month, the unit cost as a line; by product and month.
    await page.goto('/finance-department/product-cost');
    const pc = activePage(page).getByTestId('report-product-cost');
    await expect(pc.getByTestId('report-chart').locator('canvas')).toBeVisible();
    const months = await admin.get<{ rows: Row[]; totals: Row }>('/api/v1/finance-report/product-cost', {
      groupBy: 'month',
    });
    expect(months.rows.length).toBeGreaterThan(0);
    await expect(pc.getByTestId('report-totals')).toContainText(money(months.totals.totalCost));
    await pc.getByText('按产品和月份').click();
    await expect(pc.getByTestId('report-table').locator('.ant-table-row').first()).toBeVisible();
    // Excel, as the other reports.
    const download = page.waitForEvent('download');
    await pc.getByRole('button', { name: /导\s*出/ }).click();
    expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

    // 系统设置 › 成本核算: the demo's rates per workshop; a bad rate is refused inline.
    await page.goto('/system/sysSetting/settingInfo');
    await activePage(page).getByRole('tab', { name: '成本核算' }).click();
    const form = page.getByTestId('settings-costing');
    await expect(form.getByLabel('第 1 行分摊率')).not.toHaveValue('');
    await form.getByLabel('第 1 行分摊率').fill('0.1234567');
    await expect(form).toContainText('制造费用分摊率必须是不小于 0、最多 6 位小数的数');
    await form.getByLabel('第 1 行分摊率').fill('0.08');
    await expect(form).not.toContainText('最多 6 位小数');
  });
});
