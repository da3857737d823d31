import { Api, activePage, confirmIn, expect, pick, shot, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const MANAGE = '/production-department/production-manage';

test.describe('workshop flow', () => {
  test('sales order → production order → 派单 → 派工 → the operator starts and reports on a tablet → 审核 → 半成品 → last step → finished goods', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const admin = await Api.login(request);
    /** Opens `path` signed in as a demo user (the token replaces the previous user's). */
    const as = async (user: string, path: string) =>
      signedIn(page, await Api.login(request, user, 'demo123'), path);
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    // A ring turned in 车加工 and ground in 磨加工 (inspected), from a steel the stores do not hold.
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const code = unique('E2E');
    const make = (suffix: string, name: string) =>
      admin.post<Row>('/api/v1/material-info/add', {
        code: `${code}-${suffix}`,
        name,
        materialTypeId: type.id,
        unitId: unit.id,
      });
    const ring = await make('R', `E2E 内圈 ${code}`);
    const steel = await make('S', `E2E 钢管 ${code}`);
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: steel.id, quantity: '0.5', unitId: unit.id }],
    });
    const turning = await first('/api/v1/workshop/page', { type: 'machine' });
    const grinding = await first('/api/v1/workshop/page', { type: 'grinding' });
    const turn = await first('/api/v1/process-manage/page', { code: 'GX050' });
    const grind = await first('/api/v1/process-manage/page', { code: 'GX100' });
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `E2E 内圈路线 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [
        { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1.6' },
        {
          seq: 20,
          processId: grind.id,
          workshopId: grinding.id,
          standardMinutes: '1.2',
          inspectionRequired: true,
        },
      ],
    });
    const customer = await first('/api/v1/customer/page', {});
    const so = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-12-10',
      lines: [{ materialId: ring.id, quantity: 40, unitPrice: '2.5' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${so.id}`, {});
    const line = (await admin.get<Row>(`/api/v1/sale-order/info/${so.id}`)).lines[0];
    const planner = await Api.login(request, 'plan01', 'demo123');
    const { orders } = await planner.post<{ orders: Row[] }>('/api/v1/production-order/from-sale-lines', {
      lines: [{ saleOrderLineId: line.id }],
    });
    const order = orders[0];
    await planner.post(`/api/v1/production-order/release/${order.id}`, {});
    const needs = await planner.get<{ list: Row[] }>(`/api/v1/production-order/requirements/${order.id}`);
    expect(Number(needs.list.find((n) => n.materialId === steel.id)?.shortageQuantity)).toBeGreaterThan(0);

    // 计划员: 派单 on the order's dispatch page.
    await as('plan01', `${MANAGE}/produce-order-dispatch?id=${order.id}`);
    const dispatchPage = activePage(page);
    await expect(dispatchPage.getByText('车加工车间')).toBeVisible();
    await dispatchPage.getByTestId('order-dispatch').click();
    await expect(toast(page, '派单成功，生成车间任务 2 个')).toBeVisible();
    await expect(dispatchPage.getByRole('button', { name: `${order.docNo}-10` })).toBeVisible();
    const { cards } = await planner.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: 40,
      heatNo: 'L26-E2E',
    });
    const card = cards[0];

    // 车间主任: 派工 on 车加工任务 to op01.
    await as('head01', `${MANAGE}/machine/lathing`);
    const tasks = activePage(page);
    await tasks.locator('input[id$="taskNo"]').first().fill(order.docNo);
    await tasks.getByRole('button', { name: /搜\s*索/ }).click();
    const taskRow = tasks.locator('.ant-table-row').filter({ hasText: `${order.docNo}-10` });
    await expect(taskRow).toHaveCount(1);
    await taskRow.getByTestId('task-dispatch').click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByText('待派数量')).toBeVisible();
    const operator = dialog.locator('.ant-table-row .ant-select').nth(1);
    await operator.click();
    await page.keyboard.type('op01');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: 'op01' })
      .click();
    await dialog.getByRole('button', { name: /确定派工/ }).click();
    await expect(toast(page, /已派工：PG/)).toBeVisible();

    // 操作工 op01 on a 10-inch tablet in landscape: his queue, 开工, 报工 by scanning the card.
    await page.setViewportSize({ width: 1280, height: 800 });
    await as('op01', `${MANAGE}/machine/operator-task`);
    const queue = activePage(page).getByTestId('operator-queue');
    const mine = queue.locator('.op-card').filter({ hasText: ring.name });
    await expect(mine).toHaveCount(1);
    await mine.getByRole('button', { name: '开工单' }).click();
    await activePage(page).getByTestId('sheet-start').click();
    await expect(toast(page, '开工成功')).toBeVisible();
    await expect(activePage(page).getByText('已开工').first()).toBeVisible();
    await activePage(page).getByTestId('sheet-report').click();
    const report = page.locator('.ant-modal:visible');
    await report.getByTestId('report-card').fill(card.docNo);
    await report.getByTestId('report-card').press('Enter');
    await expect(report.getByText(`流转卡 ${card.docNo}`)).toBeVisible();
    await report.getByLabel('合格数').fill('39');
    await report.getByLabel('工废').fill('1');
    await pick(page, 'quick-report_scrapReason', '尺寸超差');
    await report.getByTestId('report-submit').click();
    await expect(toast(page, /已报工 BG.*等待审核/)).toBeVisible();

    // 车间主任 approves it on 报工; the 39 rings wait for grinding as turning's 半成品.
    await page.setViewportSize({ width: 1440, height: 900 });
    await as('head01', `${MANAGE}/machine/report-work`);
    const reports = activePage(page);
    const reportRow = reports.locator('.ant-table-row').filter({ hasText: ring.name }).first();
    await expect(reportRow).toContainText('已提交');
    await reportRow.getByTestId('transition-approve').click();
    await confirmIn(page, '审核');
    await expect(toast(page, '审核成功')).toBeVisible();
    await page.goto(`${MANAGE}/machine/semi-manufactures`);
    const semi = activePage(page).locator('.ant-table-row').filter({ hasText: card.docNo });
    await expect(semi).toContainText('39');
    await expect(semi).toContainText('磨加工车间');

    // 磨加工 reports the last step; its inspection passes and the rings are received.
    const task2 = (
      await admin.get<{ list: Row[] }>('/api/v1/workshop-task/page', { productionOrderId: order.id })
    ).list.find((x) => x.seq === 20) as Row;
    const op02 = (await admin.get<Row[]>('/api/v1/user/getOptionUser', { keyword: 'op02' })).find(
      (u) => u.userName === 'op02',
    ) as Row;
    const { dispatches } = await admin.post<{ dispatches: Row[] }>(
      `/api/v1/workshop-task/dispatch/${task2.id}`,
      {
        lines: [{ operatorId: op02.userId, quantity: 39, workDate: '2026-11-25', shift: 'day' }],
      },
    );
    await admin.post(`/api/v1/work-dispatch/start/${dispatches[0].id}`, {});
    const last = await admin.post<Row>('/api/v1/work-report/add', {
      dispatchId: dispatches[0].id,
      flowCardId: card.id,
      reportDate: '2026-11-25',
      goodQuantity: '39',
    });
    await admin.post(`/api/v1/work-report/submit/${last.id}`, {});
    expect((await admin.post<Row>(`/api/v1/work-report/approve/${last.id}`, {})).status).toBe('inspecting');
    // Posted without waiting for its 末检 (越过检验入账: quality's permission and a reason).
    await admin.post(`/api/v1/work-report/inspectOverride/${last.id}`, { reason: '质量部批准先行入账' });
    const done = await admin.get<Row>(`/api/v1/work-report/info/${last.id}`);
    expect(done.status).toBe('posted');
    const inbound = await admin.get<Row>(`/api/v1/stock-inbound/info/${done.stockInboundId}`);
    expect(inbound).toMatchObject({ type: 'production', status: 'posted' });
    expect(inbound.lines[0]).toMatchObject({ materialId: ring.id, batchNo: card.docNo });
    expect((await admin.get<Row>(`/api/v1/production-order/info/${order.id}`)).producedQuantity).toBe(
      '39.0000',
    );
  });

  test('a card goes to heat treatment and back on 生产委外: 发出, 收回 with its hardness, 差异核销', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number>) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const type = await first('/api/v1/material-type/page', {});
    const unit = await first('/api/v1/material-unit/page', {});
    const code = unique('HT');
    const ring = await admin.post<Row>('/api/v1/material-info/add', {
      code: `${code}-R`,
      name: `E2E 外圈 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    const steel = await admin.post<Row>('/api/v1/material-info/add', {
      code: `${code}-S`,
      name: `E2E 钢 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: steel.id, quantity: '1', unitId: unit.id }],
    });
    const turning = await first('/api/v1/workshop/page', { type: 'machine' });
    const grinding = await first('/api/v1/workshop/page', { type: 'grinding' });
    const [turn, heat, grind] = [
      await first('/api/v1/process-manage/page', { code: 'GX040' }),
      await first('/api/v1/process-manage/page', { code: 'GX060' }),
      await first('/api/v1/process-manage/page', { code: 'GX080' }),
    ];
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `E2E 外圈路线 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [
        { seq: 10, processId: turn.id, workshopId: turning.id },
        { seq: 20, processId: heat.id, outsourced: true },
        { seq: 30, processId: grind.id, workshopId: grinding.id },
      ],
    });
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: ring.id,
      quantity: 20,
      plannedStartDate: '2026-11-20',
      dueDate: '2026-11-30',
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`, {});
    const { tasks } = await admin.post<{ tasks: Row[] }>(`/api/v1/production-order/dispatch/${order.id}`, {});
    const { cards } = await admin.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: 20,
    });
    // Turned by op01 and approved by another (nobody approves a report of his own work).
    const op01 = (await admin.get<Row[]>('/api/v1/user/getOptionUser', { keyword: 'op01' })).find(
      (u) => u.userName === 'op01',
    ) as Row;
    const { dispatches } = await admin.post<{ dispatches: Row[] }>(
      `/api/v1/workshop-task/dispatch/${tasks[0].id}`,
      {
        lines: [{ operatorId: op01.userId, quantity: 20, workDate: '2026-11-24', shift: 'day' }],
      },
    );
    await admin.post(`/api/v1/work-dispatch/start/${dispatches[0].id}`, {});
    const r = await admin.post<Row>('/api/v1/work-report/add', {
      dispatchId: dispatches[0].id,
      flowCardId: cards[0].id,
      reportDate: '2026-11-24',
      goodQuantity: '20',
    });
    await admin.post(`/api/v1/work-report/submit/${r.id}`, {});
    await admin.post(`/api/v1/work-report/approve/${r.id}`, {});

    await signedIn(
      page,
      await Api.login(request, 'plan01', 'demo123'),
      '/production-department/produce-outsourcing',
    );
    const list = activePage(page);
    const row = list.locator('.ant-table-row').filter({ hasText: cards[0].docNo });
    await expect(row).toContainText('待发出');
    await row.getByRole('button', { name: '发出' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.locator('#outsource_quantity')).toHaveValue('20');
    await dialog.locator('#outsource_weight').fill('6.4');
    // 委外供应商 offers the heat-treatment (外协) suppliers only, never steel or ball suppliers.
    const suppliers = (await admin.get<{ list: Row[] }>('/api/v1/supplier/page', { pageSize: 200 })).list;
    const heatMaker = suppliers.find((s) => /热处理|外协/.test(s.classifyName ?? '')) as Row;
    const steelMaker = suppliers.find((s) => /钢材|钢球/.test(s.classifyName ?? '')) as Row;
    await dialog.locator('#outsource_supplierId').click();
    const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect(offered.filter({ hasText: heatMaker.name })).toHaveCount(1);
    await expect(offered.filter({ hasText: steelMaker.name })).toHaveCount(0);
    await offered.first().click();
    // A new 委外订单 at this processing price (the supplier may have none for this ring yet).
    await dialog.locator('#outsource_unitPrice').fill('0.85');
    await dialog.getByRole('button', { name: /^发\s*出$/ }).click();
    await expect(toast(page, '已保存')).toBeVisible();
    await expect(row).toContainText('在外');
    await row.getByRole('button', { name: '收回' }).click();
    await dialog.locator('#outsource_quantity').fill('19');
    await dialog.locator('#outsource_hardnessHrc').fill('62');
    await dialog.getByRole('button', { name: /^收\s*回$/ }).click();
    await expect(toast(page, '已保存')).toBeVisible();
    await row.getByRole('button', { name: '差异核销' }).click();
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /核\s*销/ })
      .click();
    await expect(row).toContainText('已收回');
    const card = await admin.get<Row>(`/api/v1/flow-card/card/${cards[0].id}`);
    const step = (seq: number) => card.steps.find((s: Row) => s.seq === seq);
    expect(step(20)).toMatchObject({
      sentQuantity: '20.0000',
      returnedQuantity: '19.0000',
      materialScrapQuantity: '1.0000',
    });
    expect(Number(step(20).hardnessHrc)).toBe(62);
    expect(step(30).inputQuantity).toBe('19.0000');
    expect(card.currentSeq).toBe(30);

    // 生产委外详情: the order the 发出 made, its 委外发料出库 and 委外入库 (posted), the 核销 and the timeline.
    await row.getByRole('button', { name: '详情' }).click();
    await expect(page).toHaveURL(/\/produce-outsourcing\/info\?id=\d+$/);
    const info = activePage(page);
    await expect(info.getByTestId('outsourcing-info')).toContainText(cards[0].docNo);
    await expect(info.getByTestId('outsourcing-info')).toContainText('已核销 1');
    await expect(info.getByTestId('outsourcing-orders')).toContainText(/WW\d{8}-\d{4}/);
    await expect(info.getByTestId('outsourcing-orders')).toContainText('已关闭');
    const docs = info.getByTestId('outsourcing-documents');
    await expect(docs.locator('.ant-table-row')).toHaveCount(3);
    await expect(docs.locator('.ant-table-row').nth(0)).toContainText('委外发料出库');
    await expect(docs.locator('.ant-table-row').nth(0)).toContainText('已过账');
    await expect(docs.locator('.ant-table-row').nth(1)).toContainText('委外入库');
    await expect(docs.locator('.ant-table-row').nth(1)).toContainText('62');
    await expect(docs.locator('.ant-table-row').nth(1)).toContainText('¥16.15');
    await expect(docs.locator('.ant-table-row').nth(2)).toContainText('差异核销');
    await expect(info.getByTestId('outsourcing-timeline')).toContainText('收回 19');
    await shot(page, 'produce-outsourcing-info');
  });

  test('an operator of several workshops lands on the queue that holds his work', async ({
    page,
    request,
  }) => {
    const admin = await Api.login(request);
    // A new 操作工 of two workshops (the demo's 车加工操作工 and 磨加工操作工 roles) with work in 磨加工 only.
    const roles = await admin.get<Row[]>('/api/v1/role/listAll');
    const roleId = (key: string) => {
      const r = roles.find((x) => x.roleKey === key) as Row;
      return r.roleId ?? r.id;
    };
    const userName = unique('opland').toLowerCase();
    const user = await admin.post<Row>('/api/v1/user/newAddUser', {
      userName,
      passWord: 'Landing#2026',
      firstName: '磨工新人',
      roleIds: [roleId('operator_machine'), roleId('operator_grinding')],
    });
    // A 磨加工 task with pieces still to dispatch.
    const task = (
      await admin.get<{ list: Row[] }>('/api/v1/workshop-task/page', {
        workshopType: 'grinding',
        pageSize: 100,
      })
    ).list.find(
      (t) =>
        ['pending', 'dispatched', 'started'].includes(t.status) &&
        Number(t.dispatchedQuantity) < Number(t.plannedQuantity),
    ) as Row;
    await admin.post(`/api/v1/workshop-task/dispatch/${task.id}`, {
      lines: [{ operatorId: user.userId ?? user.id, quantity: 1, workDate: '2026-11-25', shift: 'day' }],
    });
    // Through the login form: 车加工 comes first in his menu, but he lands on 磨加工's queue.
    await page.goto('/login');
    await page.locator('#userName').fill(userName);
    await page.locator('#passWord').fill('Landing#2026');
    await page.locator('button[type=submit]').click();
    await expect(page).toHaveURL(new RegExp(`${MANAGE}/grinding/operator-task`));
    await expect(page.getByTestId('operator-queue')).toContainText(task.taskNo);
  });
});
