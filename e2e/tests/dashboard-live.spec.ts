import { Api, activePage, confirmIn, expect, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

test.describe('车间看板, live', () => {
  test('the turning dashboard updates while the workshop head approves a report in another browser', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];

    // A ring turned in one step, ordered, released, on a card, dispatched to op01 for today and started.
    const code = unique('DB');
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const make = (suffix: string, name: string) =>
      admin.post<Row>('/api/v1/material-info/add', {
        code: `${code}-${suffix}`,
        name,
        materialTypeId: type.id,
        unitId: unit.id,
      });
    const ring = await make('R', `看板内圈 ${code}`);
    const steel = await make('S', `看板钢管 ${code}`);
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: steel.id, quantity: '1', unitId: unit.id }],
    });
    const turning = await first('/api/v1/workshop/page', { type: 'machine' });
    const turn = await first('/api/v1/process-manage/page', { code: 'GX050' });
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `看板路线 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
    });
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: ring.id,
      quantity: 30,
      plannedStartDate: today,
      dueDate: today,
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});
    const { tasks } = await admin.post<{ tasks: Row[] }>(`/api/v1/production-order/dispatch/${order.id}`, {});
    const { cards } = await admin.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: 30,
      heatNo: 'H-DB',
    });
    const op = await Api.login(request, 'op01', 'demo123');
    const me = await op.get<{ userId: number }>('/api/v1/sso/getUserByToken', { token: op.token });
    const { dispatches } = await admin.post<{ dispatches: Row[] }>(
      `/api/v1/workshop-task/dispatch/${tasks[0].id}`,
      { lines: [{ operatorId: me.userId, quantity: 30, workDate: today, shift: 'day' }] },
    );
    await admin.post(`/api/v1/work-dispatch/start/${dispatches[0].id}`, {});
    const report = await admin.post<Row>('/api/v1/work-report/add', {
      dispatchId: dispatches[0].id,
      flowCardId: cards[0].id,
      reportDate: today,
      goodQuantity: 28,
      workScrapQuantity: 2,
      scrapReason: 'size',
    });
    await admin.post(`/api/v1/work-report/submit/${report.id}`, {});

    // The board on the shop-floor screen: head01, live.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await signedIn(
      page,
      await Api.login(request, 'head01', 'demo123'),
      '/workshop-dashboard/machine-dashboard',
    );
    const board = activePage(page).getByTestId('dashboard');
    await expect(board.getByTestId('dashboard-live')).toHaveText(/实时/, { timeout: 15_000 });
    await expect(board.locator('h1')).toHaveText('车加工车间生产看板');
    const goodBefore = Number((await board.getByTestId('kpi-good').innerText()).replace(/,/g, ''));
    await expect(board.getByTestId('dashboard-recent').or(board.getByText('暂无入账报工'))).toBeVisible();
    await expect(board.getByText(report.docNo)).toHaveCount(0);

    // Another browser: the workshop head's office PC approves the report.
    const office = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const desk = await office.newPage();
    // The list opens filtered by the address (as the 首页 cards link to it).
    await signedIn(
      desk,
      await Api.login(request, 'head01', 'demo123'),
      `${MANAGE}/machine/report-work?docNo=${report.docNo}`,
    );
    const row = activePage(desk).locator('.ant-table-row').filter({ hasText: report.docNo });
    await expect(activePage(desk).locator('.ant-table-row')).toHaveCount(1);
    await row.getByTestId('transition-approve').click();
    await confirmIn(desk, '审核');
    await expect(toast(desk, '审核成功')).toBeVisible();

    // The board shows it without a reload: the report scrolls in, today's good count grows.
    await expect(board.getByTestId('dashboard-recent')).toContainText(report.docNo, { timeout: 5_000 });
    await expect(board.getByTestId('kpi-good')).toHaveText(
      String(goodBefore + 28).replace(/\B(?=(\d{3})+(?!\d))/g, ','),
    );
    await expect(board.getByTestId('dashboard-ranking')).toContainText('赵刚');
    await office.close();
  });

  test('a machine signal shows on the open 全厂看板 at once (issue 42)', async ({ page, request }) => {
    const admin = await Api.login(request);
    const snapshot = await admin.get<{ equipment: { list: Row[] } }>('/api/v1/dashboard/snapshot', {
      scope: 'whole',
    });
    // A machine out of the grinding and turning flows' way: the signals leave it stopped.
    const list = snapshot.equipment.list;
    const machine = list.find((e) => e.workshopType === 'inspect') ?? (list.at(-1) as Row);
    await signedIn(page, admin, '/workshop-dashboard/whole-dashboard');
    const board = activePage(page).getByTestId('dashboard');
    await expect(board.getByTestId('kpi-good')).toBeVisible({ timeout: 15_000 });
    const tile = board.locator('.dash-eq').filter({ hasText: machine.code });
    for (const [state, label] of [
      ['run', '信号运行'],
      ['stop', '信号停机'],
    ]) {
      await admin.post('/api/v1/oee/signals', {
        signals: [{ equipmentId: machine.id, at: new Date().toISOString(), state }],
      });
      await expect(tile).toContainText(label, { timeout: 15_000 });
    }
  });

  test('the KPI tiles fit large figures at 1440 and 1920 px wide', async ({ page, request }) => {
    const token = await Api.login(request, 'admin', 'admin123');
    for (const width of [1440, 1920]) {
      await page.setViewportSize({ width, height: width === 1440 ? 900 : 1080 });
      await signedIn(page, token, '/workshop-dashboard/whole-dashboard');
      const board = activePage(page).getByTestId('dashboard');
      await expect(board.getByTestId('kpi-good')).toBeVisible({ timeout: 15_000 });
      // The figures shown, then the widest a day brings (22,200 pieces, 98.2 %, seven digits).
      for (const text of [null, '22,200', '98.2 %', '122,200']) {
        const clipped = await board.locator('.dash-kpi-value').evaluateAll(
          (els, t) =>
            els
              .map((el) => {
                if (t) el.textContent = t;
                return el.scrollWidth > el.clientWidth + 1
                  ? `${el.textContent} (${el.scrollWidth}>${el.clientWidth})`
                  : '';
              })
              .filter(Boolean),
          text,
        );
        expect(clipped, `${width} px`).toEqual([]);
      }
      // Readable from afar: the figures stay large.
      const size = await board
        .getByTestId('kpi-good')
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(width === 1440 ? 24 : 34);
    }
  });

  test('the turning task board (车加工看板) is live too: a task appears as it is made, no polling', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('LB');
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const make = (suffix: string, name: string) =>
      admin.post<Row>('/api/v1/material-info/add', {
        code: `${code}-${suffix}`,
        name,
        materialTypeId: type.id,
        unitId: unit.id,
      });
    const ring = await make('R', `看板外圈 ${code}`);
    const steel = await make('S', `看板棒料 ${code}`);
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: steel.id, quantity: '1', unitId: unit.id }],
    });
    const turning = await first('/api/v1/workshop/page', { type: 'machine' });
    const turn = await first('/api/v1/process-manage/page', { code: 'GX050' });
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `看板路线 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
    });
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: ring.id,
      quantity: 24,
      plannedStartDate: today,
      dueDate: today,
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});

    // The workshop head's board, open: it asks for the board once, then listens.
    let reads = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/workshop-task/board')) reads += 1;
    });
    await signedIn(page, await Api.login(request, 'head01', 'demo123'), `${MANAGE}/machine/lathing-panel`);
    const board = activePage(page);
    await expect(board.getByTestId('board-live')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
    await expect(board.getByTestId('board-live')).toContainText('实时');
    await expect(board.getByText(`${order.docNo}-10`)).toHaveCount(0);

    // 派单 (the planner, elsewhere): the task is on the board within moments, and so is its 派工.
    await admin.post(`/api/v1/production-order/dispatch/${order.id}`, {});
    const card = board
      .getByTestId('board-pending')
      .getByTestId('board-card')
      .filter({ hasText: `${order.docNo}-10` });
    await expect(card).toBeVisible({ timeout: 5_000 });
    expect(reads, 'the board was pushed, not asked for again').toBe(1);
  });
});
