import { Api, activePage, expect, pick, rows, signedIn, test, toast } from './support.ts';

/**
 * 选配 in the 装配 workshop (issue 38 §4), on the demo's measured 6204 ring lots: the planner picks
 * 6204-2RS in CN, sees the size groups, the proposed sets (clearance inside CN's 5 … 20 µm) and the
 * leftovers, and accepts the proposal for an open bearing card; the record shows under 选配记录, the
 * card's genealogy reaches the ring lots, and 选配合格率 shows the month with its chart and export.
 */

const MATCHING = '/production-department/production-manage/assembly-workshop/ring-matching';
const YIELD = `${MATCHING}-yield`;

interface Card {
  id: number;
  docNo: string;
  quantity: number;
  matched: number;
}

test('选配: groups, proposal, leftovers, 接受方案 and 选配合格率', async ({ page, request }) => {
  const admin = await Api.login(request);
  const bearings = await admin.get<{ id: number; code: string; innerRings: number; outerRings: number }[]>(
    '/api/v1/ring-matching/bearings',
  );
  const bearing = bearings.find((b) => b.code === 'FG-6204-2RS');
  expect(bearing, 'the demo holds measured 6204 rings').toBeTruthy();
  expect(bearing?.innerRings).toBeGreaterThan(0);
  const cards = await admin.get<Card[]>('/api/v1/ring-matching/cards', { bearingId: bearing?.id ?? 0 });
  const card = cards.find((c) => c.matched < c.quantity) as Card;
  expect(card, 'an open 6204-2RS card still to match').toBeTruthy();

  await signedIn(page, admin, MATCHING);
  const view = activePage(page);
  await pick(page, 'bearingId', 'FG-6204-2RS');
  await view.getByRole('button', { name: /生成方案/ }).click();
  await expect(view.getByTestId('rm-assembled')).toContainText('套');
  const assembled = Number(
    (await view.getByTestId('rm-assembled').locator('.ant-statistic-content-value').innerText()).replace(
      /,/g,
      '',
    ),
  );
  expect(assembled).toBeGreaterThan(0);
  await expect(view.getByText('游隙范围(µm)')).toBeVisible();
  await expect(view.getByText('5 ~ 20')).toBeVisible();
  await expect(view.getByTestId('rm-inner-groups').locator('.ant-table-row').first()).toContainText('25.5');
  await expect(view.getByTestId('rm-outer-groups').locator('.ant-table-row').first()).toContainText('41.4');
  const sets = view.getByTestId('rm-sets').locator('.ant-table-row');
  await expect(sets.first()).toBeVisible();
  // Every line's clearance span lies inside CN (5 … 20 µm).
  for (const text of await sets.allInnerTexts()) {
    const m = /(-?\d+(?:\.\d+)?) ~ (-?\d+(?:\.\d+)?)/.exec(text);
    expect(m, text).toBeTruthy();
    expect(Number(m?.[1])).toBeGreaterThanOrEqual(5);
    expect(Number(m?.[2])).toBeLessThanOrEqual(20);
  }
  await expect(view.getByTestId('rm-left-inner')).toBeVisible();
  await expect(view.getByTestId('rm-left-outer')).toBeVisible();

  // Balls in stock by grade limit the proposal: 8 balls (one 6204) of each of the five grades.
  await view.getByTestId('rm-limit-balls').click();
  for (const g of ['-2', '-1', '0', '+1', '+2']) await view.getByLabel(`规值 ${g} 钢球库存`).fill('8');
  await view.getByRole('button', { name: /生成方案/ }).click();
  await expect(view.getByTestId('rm-ball-use')).toContainText('+2 µm：8 粒，够 1 套');
  const limited = Number(
    (await view.getByTestId('rm-assembled').locator('.ant-statistic-content-value').innerText()).replace(
      /,/g,
      '',
    ),
  );
  expect(limited).toBeGreaterThan(0);
  expect(limited).toBeLessThanOrEqual(5);
  await view.getByTestId('rm-limit-balls').click();
  await view.getByRole('button', { name: /生成方案/ }).click();
  await expect(view.getByTestId('rm-ball-use')).toHaveCount(0);

  await pick(page, 'flowCardId', card.docNo);
  await view.getByRole('button', { name: /接受方案/ }).click();
  await expect(toast(page, /已接受选配方案/)).toBeVisible();
  await expect(
    view.getByTestId('rm-history').locator('.ant-table-row').filter({ hasText: card.docNo }),
  ).toBeVisible();
  // The bearing card's genealogy reaches the ring lots it was matched from.
  const trace = await admin.get<{ cards: { docNo: string; depth: number; measurements: unknown[] }[] }>(
    `/api/v1/trace/card/${card.id}`,
  );
  const rings = trace.cards.filter((c) => c.depth === 1 && /-XP0\d$/.test(c.docNo));
  expect(rings.length).toBeGreaterThanOrEqual(2);
  expect(rings.every((c) => c.measurements.length > 0)).toBe(true);

  await page.goto(YIELD);
  const report = activePage(page);
  await expect(report.getByTestId('rm-yield-chart')).toBeVisible();
  const month = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' })
    .format(new Date())
    .slice(0, 7);
  await expect(rows(page).filter({ hasText: month })).toBeVisible();
  await expect(rows(page).filter({ hasText: month })).toContainText('%');
  const download = page.waitForEvent('download');
  await report.getByRole('button', { name: /导出/ }).click();
  expect((await download).suggestedFilename()).toMatch(/选配合格率/);
});
