import { Api, activePage, choose, expect, shot, signedIn, test, toast } from './support.ts';

interface Line {
  lineId: number;
  lineNo: number;
  cardId: number | null;
  heats: string[];
}

/**
 * 质量追溯 (issue 35, "genealogy stops at assembly"): a demo 销售出库 of whole bearing cards traces,
 * from its detail line, back through 装配领用 to the ring cards with their steel heats and
 * measurements; the heat, searched on 质量追溯, forward to that delivery and its customer.
 */
test.describe('质量追溯', () => {
  test('a shipped batch shows its heats and measurements; its heat leads to the customer', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const keeper = await Api.login(request, 'wh01', 'demo123');
    // The demo's deliveries of whole cards (the batch is the card number).
    const outs = await keeper.get<{ list: { id: number; docNo: string; customerName: string }[] }>(
      '/api/v1/stock-outbound/page',
      { type: 'sales', status: 'posted', pageSize: 100 },
    );
    let picked: { id: number; docNo: string; customerName: string; line: Line } | undefined;
    let measured: number | undefined;
    for (const o of outs.list) {
      const trace = await keeper.get<{ lines: Line[] }>(`/api/v1/trace/outbound/${o.id}`);
      const line = trace.lines.find((l) => l.cardId && l.heats.length);
      if (!line) continue;
      const card = await keeper.get<{ cards: { measurements: { values: string }[] }[] }>(
        `/api/v1/trace/card/${line.cardId}`,
      );
      const m = card.cards.flatMap((c) => c.measurements);
      if (m.length) {
        picked = { ...o, line };
        measured = m.length;
        break;
      }
    }
    expect(picked, 'a demo delivery whose rings were measured').toBeDefined();
    const { line } = picked as NonNullable<typeof picked>;
    const heat = line.heats[0];

    // The keeper opens the delivery and traces its line.
    await signedIn(
      page,
      keeper,
      `/warehouse-logistics/outbound-manage/sales-outbound-detail?id=${picked?.id}`,
    );
    const detail = activePage(page);
    await detail.getByTestId(`trace-line-${line.lineNo}`).click();
    const drawer = page.locator('.ant-drawer:visible');
    await expect(drawer.getByTestId('card-trace')).toBeVisible();
    await expect(drawer.getByTestId('trace-heat').filter({ hasText: heat }).first()).toBeVisible();
    // The heat's receipt from the steel supplier, the rings' measurements.
    await expect(drawer.getByTestId('trace-receipts').first()).toContainText(heat);
    await expect(drawer.getByTestId('trace-receipts').first()).toContainText('采购入库');
    const measurements = drawer.getByTestId('trace-measurements');
    await expect(measurements.first()).toBeVisible();
    expect(measured).toBeGreaterThan(0);
    await expect(measurements.first().locator('.ant-table-row').first()).toContainText(/\d+\.\d{4}/);
    await expect(drawer.getByTestId('trace-shipments')).toContainText(picked?.docNo as string);
    await shot(page, 'trace-outbound-line');

    // Forward from the heat on 质量追溯 (the inspector's page): the delivery and its customer.
    const inspector = await Api.login(request, 'qc01', 'demo123');
    await signedIn(page, inspector, '/quality-testing/trace');
    const tracePage = activePage(page);
    await tracePage.getByTestId('trace-search').locator('input').fill(heat);
    await tracePage.getByTestId('trace-search').locator('input').press('Enter');
    await expect(tracePage.getByTestId('heat-trace')).toBeVisible();
    await expect(tracePage.getByTestId('heat-customers')).toContainText(picked?.customerName as string);
    await expect(tracePage.getByTestId('trace-shipments')).toContainText(picked?.docNo as string);
    await shot(page, 'trace-heat');
  });

  test('the inspector names the 流转卡 of the rings he measured, and the card trace shows the subgroup', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const qc = await Api.login(request, 'qc01', 'demo123');
    const [product] = (
      await qc.get<{ id: number; code: string }[]>('/api/v1/material-info/options', {
        keyword: 'SF-6205-OR-P6',
      })
    ).filter((p) => p.code === 'SF-6205-OR-P6');
    const [card] = await qc.get<{ id: number; docNo: string }[]>('/api/v1/flow-card/pick', {
      productId: product.id,
    });
    expect(card, 'a card of the 6205 outer ring').toBeDefined();

    await signedIn(page, qc, '/measure-check/outside-diameter');
    const entry = activePage(page);
    await choose(page, 'measure-entry_productId', 'SF-6205-OR-P6');
    // The 流转卡 picker offers the product's cards only (with their heats); pick one by number.
    await choose(page, 'measure-entry_flowCardId', card.docNo);
    // A machine without a series of this ring: no SPC alarm (and hold) from a test subgroup.
    await choose(page, 'measure-entry_equipmentId', 'EQ-MJ-002');
    await entry.getByTestId('measure-value-0').click();
    for (const v of ['51.9951', '51.9947', '51.9953', '51.9949', '51.9950'])
      await page.keyboard.type(`${v}\n`);
    await expect(toast(page, '子组已保存')).toBeVisible();

    // The card's trace lists the subgroup with its values.
    await page.goto(`/quality-testing/trace?code=${card.docNo}`);
    const trace = activePage(page).getByTestId('card-trace');
    await expect(trace).toBeVisible();
    await expect(trace.getByTestId('trace-measurements').first()).toContainText(
      '51.9951 / 51.9947 / 51.9953',
    );
  });
});
