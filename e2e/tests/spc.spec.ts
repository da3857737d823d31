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
    // The standard's limits as soon as the product is picked (6204 外圈 P6: D 47, ΔDmp −9/0 μm).
    await expect(entry.getByTestId('measure-spec')).toContainText('标准规格限 46.9910 ~ 47.0000 mm');
    await expect(entry.getByTestId('measure-spec')).toContainText('ΔDmp 47 −9/0 μm');
    await expect(entry.locator('#measure-entry_lsl')).toHaveValue('46.9910');
    await expect(entry.locator('#measure-entry_usl')).toHaveValue('47.0000');
    await choose(page, 'measure-entry_equipmentId', 'EQ-MJ-002');
    // Keyboard only: each Enter moves down, the last one saves; each value shows its deviation
    // from the nominal size as typed, and one outside the limits shows red.
    await entry.getByTestId('measure-value-0').click();
    await page.keyboard.type('46.9952');
    await expect(entry.getByTestId('measure-deviation-0')).toHaveText('−4.8 μm');
    await page.keyboard.type('\n');
    await page.keyboard.type('47.0012');
    await expect(entry.getByTestId('measure-deviation-1')).toHaveText('+1.2 μm');
    await expect(entry.getByTestId('measure-grid').getByText('超差')).toBeVisible();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('46.9961\n');
    for (const v of ['47.0012', '46.9948', '46.9957']) await page.keyboard.type(`${v}\n`);
    await expect(toast(page, '子组已保存')).toBeVisible();
    await expect(entry.getByTestId('measure-value-0')).toHaveValue('');
    // The list below names the product (it showed the product's id).
    const firstRow = entry.locator('.ant-table-row').first();
    await expect(firstRow.locator('td .rk-link')).toHaveText('6204 外圈');
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

  test('统计报表 opened from the menu starts on the latest 失控 alarm: a readable period, no error', async ({
    page,
    request,
  }) => {
    const qc = await Api.login(request, 'qc01', 'demo123');
    const alarm = await qc.get<{ measuredAt: string; equipmentId: number } | null>(
      '/api/v1/spc/latest-alarm',
      {
        family: 'neiwaijing',
      },
    );
    expect(alarm, 'the demo factory has an SPC alarm').not.toBeNull();
    await signedIn(page, qc, '/statistics-report/neiwaijing-measure');
    const report = activePage(page);
    const start = report.locator('.ant-picker-range input').first();
    const end = report.locator('.ant-picker-range input').nth(1);
    await expect(start).not.toHaveValue('');
    await expect(start).not.toHaveValue(/Invalid/);
    await expect(end).not.toHaveValue(/Invalid/);
    // The period ends at the alarm's day (or today) and starts 42 days before that.
    const alarmDay = (alarm as { measuredAt: string }).measuredAt.slice(0, 10);
    expect((await end.inputValue()) >= alarmDay).toBe(true);
    await expect(report.getByTestId('spc-xbar-chart').locator('canvas')).toBeVisible();
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  });
});

test.describe('SPC Phase II', () => {
  test('质检员 builds control limits from a baseline, removes a flagged point with its reason, approves them: the chart plots against the frozen revision', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const qc = await Api.login(request, 'qc01', 'demo123');
    // The demo's drifting machine: EQ-MJ-003 外径 of SF-6205-OR-P6 (not the latest alarm, which the
    // test above may have raised on EQ-MJ-002).
    const machines = await qc.get<Option[]>('/api/v1/equipment/options');
    const rings = await qc.get<Option[]>('/api/v1/material-info/options', { keyword: 'SF-6205-OR-P6' });
    const alarm = {
      characteristic: 'outside-diameter',
      equipmentId: (machines.find((e) => e.code === 'EQ-MJ-003') as Option).id,
      productId: (rings.find((p) => p.code === 'SF-6205-OR-P6') as Option).id,
    };
    await signedIn(
      page,
      qc,
      `/statistics-report/neiwaijing-measure?characteristic=${alarm.characteristic}&equipmentId=${alarm.equipmentId}&productId=${alarm.productId}`,
    );
    const report = activePage(page);
    // The demo's drifting machine runs on frozen limits: 第 2 版, 第 1 版 superseded, one point removed.
    await expect(report.getByTestId('spc-limit-phase')).toContainText('阶段 II：第 2 版冻结控制限');
    const revisions = report.getByTestId('spc-limit-revisions');
    await expect(revisions).toContainText('已替代');
    await expect(revisions).toContainText('量仪校零后首件未复测');

    // The series' rules and its inspector: rule 3 (a trend of 6) switched on, qc01 named.
    const setting = report.getByTestId('spc-series-setting');
    await setting.getByLabel('规则3：连续6点持续上升或下降').check();
    await choose(page, 'spc-inspector', '陈静');
    await setting.getByTestId('spc-rules-save').click();
    await expect(toast(page, '判异规则与负责检验员已保存')).toBeVisible();
    const saved = await qc.get<{ rules: number[]; inspectorName: string | null }>(
      '/api/v1/spc/series-setting',
      {
        characteristic: alarm.characteristic,
        equipmentId: alarm.equipmentId,
        productId: alarm.productId,
      },
    );
    expect(saved.rules).toEqual([1, 2, 3, 5, 6]);
    expect(saved.inspectorName).not.toBeNull();

    await report.getByTestId('spc-limit-build').click();
    const modal = page.locator('.ant-modal');
    await expect(modal.getByTestId('spc-limit-preview')).toContainText('UCL');
    // A point the trial limits flag: removed for an assignable cause, with its reason.
    await modal.getByText('只看判异点').click();
    const flagged = modal
      .getByTestId('spc-limit-points')
      .locator('.ant-table-row', { hasText: '规则' })
      .first();
    await flagged.locator('.ant-checkbox-input').check();
    await expect(modal.getByTestId('spc-limit-save')).toBeDisabled();
    await flagged.locator('input[placeholder^="必填"]').fill('砂轮修整后首件未复测');
    await modal.getByTestId('spc-limit-save').click();
    await expect(toast(page, '控制限草稿已建立')).toBeVisible();
    await expect(revisions).toContainText('待批准');
    await expect(revisions).toContainText('砂轮修整后首件未复测');
    await report.getByTestId('spc-limit-approve-3').click();
    await expect(toast(page, '控制限已批准并冻结')).toBeVisible();
    await expect(report.getByTestId('spc-limit-phase')).toContainText('阶段 II：第 3 版冻结控制限');
    await expect(revisions).toContainText('已冻结');
    await expect(report.getByTestId('spc-xbar-chart').locator('canvas')).toBeVisible();
  });
});
