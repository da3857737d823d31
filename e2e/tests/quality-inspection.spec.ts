import { Api, activePage, confirmIn, expect, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

const ENTRY = '/quality-testing/grinding-reporting-quality-testing';

test.describe('quality inspection', () => {
  test('report on a flagged step → inspection task → entry grid with an out-of-limit value → 不合格 → card held → rework → re-inspect → released', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    // A ring ground in 磨加工 on a step flagged for inspection, with a template of one measured item.
    const code = unique('QE');
    const type = await first('/api/v1/material-type/page');
    const unit = await first('/api/v1/material-unit/page');
    const ring = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `E2E 内圈 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    const steel = await admin.post<Row>('/api/v1/material-info/add', {
      code: `${code}-S`,
      name: `E2E 钢管 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    await admin.post('/api/v1/product-bom/add', {
      code: `BOM-${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      lines: [{ materialId: steel.id, quantity: '0.5', unitId: unit.id }],
    });
    const grinding = await first('/api/v1/workshop/page', { type: 'grinding' });
    const grind = await first('/api/v1/process-manage/page', { code: 'GX100' });
    await admin.post('/api/v1/process-route/add', {
      code: `RT-${code}`,
      name: `E2E 磨削 ${code}`,
      productId: ring.id,
      versionNo: 'V1',
      status: 'active',
      steps: [
        {
          seq: 10,
          processId: grind.id,
          workshopId: grinding.id,
          standardMinutes: '1',
          inspectionRequired: true,
        },
      ],
    });
    const item = await admin.post<Row>('/api/v1/inspection-item/add', {
      code: `I-${code}`,
      name: `内径 ${code}`,
      kind: 'measure',
      nominal: '20',
      upperTolerance: '0',
      lowerTolerance: '-0.010',
      unit: 'mm',
      samplingMode: 'fixed',
      sampleSize: 3,
    });
    await admin.post('/api/v1/inspection-template/add', {
      code: `T-${code}`,
      name: `磨内径检验 ${code}`,
      productId: ring.id,
      processId: grind.id,
      inspectionKind: 'reporting',
      items: [{ itemId: item.id }],
    });
    const order = await admin.post<Row>('/api/v1/production-order/add', {
      productId: ring.id,
      quantity: 50,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-20',
    });
    await admin.post(`/api/v1/production-order/release/${order.id}`);
    const { tasks } = await admin.post<{ tasks: Row[] }>(`/api/v1/production-order/dispatch/${order.id}`);
    const { cards } = await admin.post<{ cards: Row[] }>(`/api/v1/flow-card/open/${order.id}`, {
      batchSize: 50,
      heatNo: 'E2E-H',
    });
    const op = (await admin.get<Row[]>('/api/v1/user/getOptionUser', { keyword: 'op02' })).find(
      (u) => u.userName === 'op02',
    ) as Row;
    const { dispatches } = await admin.post<{ dispatches: Row[] }>(
      `/api/v1/workshop-task/dispatch/${tasks[0].id}`,
      {
        lines: [{ operatorId: op.userId ?? op.id, quantity: 50, workDate: '2026-11-03', shift: 'day' }],
      },
    );
    await admin.post(`/api/v1/work-dispatch/start/${dispatches[0].id}`);
    const report = await admin.post<Row>('/api/v1/work-report/add', {
      dispatchId: dispatches[0].id,
      flowCardId: cards[0].id,
      reportDate: '2026-11-04',
      goodQuantity: 10,
    });
    await admin.post(`/api/v1/work-report/submit/${report.id}`);
    await admin.post(`/api/v1/work-report/approve/${report.id}`);
    const task = await first('/api/v1/inspection-task/page', { sourceNo: report.docNo });
    expect(task).toMatchObject({ status: 'pending', checkKind: 'first' });

    // qc01 types the three samples with the keyboard; the second is out of limits and turns red.
    await signedIn(page, await Api.login(request, 'qc01', 'demo123'), `${ENTRY}?id=${task.id}`);
    const grid = activePage(page).getByTestId('entry-grid');
    const type3 = async (values: string[]) => {
      await grid.getByTestId('cell-0-1').click();
      for (const v of values) {
        await page.keyboard.press('ControlOrMeta+a');
        await page.keyboard.type(v);
        await page.keyboard.press('Enter');
      }
    };
    await type3(['19.995', '19.985', '20.000']);
    await expect(grid.getByTestId('cell-0-2')).toHaveClass(/qi-bad/);
    await expect(grid.getByTestId('cell-0-1')).toHaveClass(/qi-ok/);
    await activePage(page)
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await expect(toast(page, '自动判定：不合格')).toBeVisible();

    // 判定不合格 with 返工: the card is held.
    await activePage(page).getByTestId('transition-reject').click();
    const dialog = page.locator('.ant-modal:visible');
    await dialog.getByRole('radio', { name: '返工' }).check();
    await dialog.getByRole('button', { name: '判定不合格' }).click();
    await expect(toast(page, '判定不合格成功')).toBeVisible();
    expect((await admin.get<Row>(`/api/v1/flow-card/info/${cards[0].id}`)).held).toBe(true);
    expect((await admin.get<Row>(`/api/v1/work-report/info/${report.id}`)).status).toBe('inspecting');

    // Rework, re-inspect: all within limits, 判定合格 releases the card and posts the report.
    await activePage(page).getByTestId('transition-reinspect').click();
    await confirmIn(page, '返工复检');
    await expect(toast(page, '返工复检成功')).toBeVisible();
    await type3(['19.995', '19.993', '20.000']);
    await expect(grid.getByTestId('cell-0-2')).toHaveClass(/qi-ok/);
    await page.keyboard.press('ControlOrMeta+s');
    await expect(toast(page, '自动判定：合格')).toBeVisible();
    await activePage(page).getByTestId('transition-pass').click();
    await confirmIn(page, '判定合格');
    await expect(toast(page, '判定合格成功')).toBeVisible();
    expect((await admin.get<Row>(`/api/v1/flow-card/info/${cards[0].id}`)).held).toBe(false);
    expect((await admin.get<Row>(`/api/v1/work-report/info/${report.id}`)).status).toBe('posted');
  });

  test('生成出货检验 on a 销售出库 draft opens the new shipment inspection; 质检员 lands on 首页', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('QS');
    const type = await first('/api/v1/material-type/page');
    const unit = await first('/api/v1/material-unit/page');
    const bearing = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `E2E 轴承 ${code}`,
      materialTypeId: type.id,
      unitId: unit.id,
    });
    const warehouse = await first('/api/v1/warehouse-management/page', { status: '1' });
    const customer = await first('/api/v1/customer/page');
    const draft = await admin.post<Row>('/api/v1/stock-outbound/add', {
      type: 'sales',
      warehouseId: warehouse.id,
      customerId: customer.id,
      lines: [{ materialId: bearing.id, quantity: 6 }],
    });
    await signedIn(page, admin, `/warehouse-logistics/outbound-manage/sales-outbound-detail?id=${draft.id}`);
    await activePage(page).getByRole('button', { name: '生成出货检验' }).click();
    await expect(toast(page, '已生成 1 张出货检验单')).toBeVisible();
    await expect(page).toHaveURL(/shipment-inspection-detail\?id=\d+/);
    const task = await first('/api/v1/inspection-task/page', { category: 'shipment', productId: bearing.id });
    expect(task).toMatchObject({ status: 'pending', sourceType: 'stock-outbound', lotQuantity: '6.0000' });

    await signedIn(page, await Api.login(request, 'qc01', 'demo123'), '/');
    await expect(page).toHaveURL(/\/home\/info/);
  });
});
