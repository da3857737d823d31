import { Api, activePage, choose, expect, signedIn, test, toast } from './support.ts';

interface Option {
  id: number;
  code?: string;
  name?: string;
}

test.describe('measurement and SPC', () => {
  test('质检员 types a subgroup of five with the keyboard, then opens the 内外径 report: X̄ chart and Cpk card', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const qc = await Api.login(request, 'qc01', 'demo123');
    const equipment = await qc.get<Option[]>('/api/v1/equipment/options');
    const machine = equipment.find((e) => e.code === 'EQ-MJ-002') as Option;
    const products = await qc.get<Option[]>('/api/v1/material-info/options', { keyword: 'SF-6204-OR-P6' });
    const product = products.find((p) => p.code === 'SF-6204-OR-P6') as Option;

    await signedIn(page, qc, '/measure-check/outside-diameter');
    const entry = activePage(page);
    await choose(page, 'measure-entry_productId', 'SF-6204-OR-P6');
    await choose(page, 'measure-entry_equipmentId', 'EQ-MJ-002');
    await entry.locator('#measure-entry_lsl').fill('46.991');
    await entry.locator('#measure-entry_usl').fill('47');
    // Keyboard only: each Enter moves down, the last one saves; an out-of-limit value shows red.
    await entry.getByTestId('measure-value-0').click();
    for (const v of ['46.9952', '46.9961', '47.0012', '46.9948', '46.9957'])
      await page.keyboard.type(`${v}\n`);
    await expect(toast(page, '子组已保存')).toBeVisible();
    await expect(entry.getByTestId('measure-value-0')).toHaveValue('');
    const saved = await qc.get<{ list: { mean: string; sampleSize: number }[] }>(
      '/api/v1/measurement-subgroup/page',
      { equipmentId: machine.id, pageSize: 1, sortField: 'measuredAt', sortOrder: 'desc' },
    );
    expect(saved.list[0]).toMatchObject({ sampleSize: 5, mean: '46.996600' });

    await page.goto(
      `/statistics-report/neiwaijing-measure?characteristic=outside-diameter&equipmentId=${machine.id}&productId=${product.id}`,
    );
    const report = activePage(page);
    await expect(report.getByTestId('spc-xbar-chart').locator('canvas')).toBeVisible();
    await expect(report.getByTestId('spc-histogram').locator('canvas')).toBeVisible();
    const cpk = report.getByTestId('cap-cpk');
    await expect(cpk).toHaveAttribute('data-band', 'good');
    await expect(cpk).toContainText('能力充足');
  });
});
