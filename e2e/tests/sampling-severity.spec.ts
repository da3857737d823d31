import { Api, activePage, expect, shot, signedIn, test, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

/** The detail page of an incoming task's category (车加工 or 装配 来料检验). */
const DETAIL: Record<string, string> = {
  'machine-incoming': '/quality-testing/lathe-machining-incoming-detail',
  'assembly-incoming': '/quality-testing/assemble-incoming-detail',
};

test.describe('GB/T 2828.1 severity of 来料检验 (issue 38 §1)', () => {
  test('two receipts of a supplier not accepted → the third is planned 加严 (表 2-B) and its page says why', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const admin = await Api.login(request);
    const first = async (url: string, params: Record<string, string | number> = {}) =>
      (await admin.get<{ list: Row[] }>(url, { pageSize: 1, ...params })).list[0];
    const code = unique('SV');
    const supplier = await admin.post<Row>('/api/v1/supplier/add', {
      code,
      name: `E2E 供方 ${code}`,
      status: '1',
    });
    const material = await admin.post<Row>('/api/v1/material-info/add', {
      code,
      name: `E2E 钢球 ${code}`,
      materialTypeId: (await first('/api/v1/material-type/page')).id,
      unitId: (await first('/api/v1/material-unit/page')).id,
    });
    const item = await admin.post<Row>('/api/v1/inspection-item/add', {
      code,
      name: `外观 ${code}`,
      kind: 'count',
      samplingMode: 'aql',
      inspectionLevel: 'II',
      aql: '1.0',
    });
    await admin.post('/api/v1/inspection-template/add', {
      code,
      name: `来料 ${code}`,
      productId: material.id,
      inspectionKind: 'incoming',
      status: '1',
      items: [{ itemId: item.id }],
    });
    const store = await first('/api/v1/warehouse-management/page', { status: '1' });
    /** A receipt of 500 from the supplier, posted: its 来料检验 task with its one item. */
    const receive = async () => {
      const receipt = await admin.post<Row>('/api/v1/stock-inbound/add', {
        type: 'purchase',
        warehouseId: store.id,
        supplierId: supplier.id,
        lines: [{ materialId: material.id, quantity: 500, qualityStatus: 'pending' }],
      });
      await admin.post(`/api/v1/stock-inbound/post/${receipt.id}`, {});
      const task = await first('/api/v1/inspection-task/page', { productId: material.id, status: 'pending' });
      return admin.get<Row>(`/api/v1/inspection-task/info/${task.id}`);
    };
    // Two lots of 500 (letter H; normal n 50, 1/2) with 2 NG each: not accepted.
    for (let lot = 0; lot < 2; lot++) {
      const task = await receive();
      expect(task.samplingSeverity).toBe('normal');
      await admin.post(`/api/v1/inspection-task/start/${task.id}`, {});
      const it = task.items[0];
      await admin.put(`/api/v1/inspection-task/results/${task.id}`, {
        results: Array.from({ length: it.sampleSize }, (_, k) => ({
          taskItemId: it.id,
          sampleNo: k + 1,
          ok: k >= 2,
        })),
      });
      await admin.post(`/api/v1/inspection-task/reject/${task.id}`, { disposition: 'return' });
    }
    const third = await receive();
    expect(third.samplingSeverity).toBe('tightened');

    await signedIn(page, admin, `${DETAIL[third.category]}?id=${third.id}`);
    const view = activePage(page).getByTestId('sampling-state');
    await expect(view.getByTestId('sampling-severity')).toHaveText('加严');
    await expect(view).toContainText('表 2-B');
    await expect(view).toContainText(`${supplier.name} × ${material.name}`);
    await expect(view.getByTestId('sampling-reason')).toContainText('有 2 批不接收');
    await expect(view.getByTestId('sampling-reason')).toContainText('连续 5 批接收恢复正常');
    await expect(view).toContainText('连续接收');
    // Tightened H × 1.0 is ↓ to J: n 80, Ac 1, Re 2.
    await expect(activePage(page).getByText('80 / 1 / 2')).toBeVisible();
    await expect(activePage(page).getByText('字码 J')).toBeVisible();
    await view.scrollIntoViewIfNeeded();
    await shot(page, 'inspection-sampling-severity');
  });
});
