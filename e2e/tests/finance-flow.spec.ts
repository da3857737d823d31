import { Api, activePage, expect, noOpenDropdown, signedIn, test, toast, unique } from './support.ts';

interface Row {
  id: number;
  [key: string]: any;
}

// Business dates are the factory's (Asia/Shanghai): the browser's today must be the same day.
test.use({ timezoneId: 'Asia/Shanghai' });

/** Qualified stock (2 or more) of a material not kept by batch, from the demo. */
async function unbatchedStock(admin: Api): Promise<Row> {
  const balances = (
    await admin.get<{ list: Row[] }>('/api/v1/stock-balance/page', {
      qualityStatus: 'qualified',
      pageSize: 100,
    })
  ).list.filter((b) => Number(b.quantity) >= 2);
  for (const b of balances) {
    const m = await admin.get<Row>(`/api/v1/material-info/info/${b.materialId}`);
    if (!m.batchManaged) return b;
  }
  throw new Error('no qualified stock of a material without batches in the demo');
}

/**
 * The checker's half of maker ≠ checker: confirms the party's receipt or payment waiting as a
 * draft (entered by 财务 from the list) as another user.
 */
async function confirmSettlement(checker: Api, settle: 'receipt' | 'payment', partyId: number) {
  const party = settle === 'receipt' ? 'customerId' : 'supplierId';
  const drafts = (
    await checker.get<{ list: Row[] }>(`/api/v1/${settle}/page`, { [party]: partyId, status: 'draft' })
  ).list;
  expect(drafts).toHaveLength(1);
  await checker.post(`/api/v1/${settle}/approve/${drafts[0].id}`, {});
}

test.describe('finance', () => {
  test('ship → 财务 sees the receivable, receives part of it, the aging moves and the statement prints', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    // A material not kept by batch: the return below names no batch.
    const stock = await unbatchedStock(admin);
    expect(stock).toBeTruthy();
    const name = unique('对账客户');
    const customer = await admin.post<Row>('/api/v1/customer/add', {
      code: unique('E2E'),
      name,
      state: '1',
      paymentTerm: 'cash',
      paymentDays: 0,
    });
    const order = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-11-30',
      lines: [{ materialId: stock.materialId, quantity: 2, unitPrice: '50' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${order.id}`, {});
    const lines = (await admin.get<Row>(`/api/v1/sale-order/info/${order.id}`)).lines as Row[];
    const draft = await admin.post<Row>('/api/v1/sale-order/ship', {
      warehouseId: stock.warehouseId,
      lines: [{ lineId: lines[0].id, quantity: 2 }],
    });
    await admin.post(`/api/v1/stock-outbound/post/${draft.id}`);

    // The posted 销售出库 made a receivable of 100.00, due today (现款).
    const receivable = (
      await admin.get<{ list: Row[] }>('/api/v1/receivable/page', { customerId: customer.id })
    ).list[0];
    expect(receivable).toMatchObject({ amount: '100.00', status: 'open', sourceType: 'sales' });

    // 财务 lands on 应收管理.
    const fin = await Api.login(request, 'fin01', 'demo123');
    await signedIn(page, fin, '/');
    await expect(page).toHaveURL(/\/finance-department\/receivable-management/);
    const list = activePage(page);
    // The ledger page draws its list once the user, menu and first page are in (slow while
    // other flows run alongside).
    await expect(list.locator('#rk-search-receivable_docNo')).toBeVisible({ timeout: 45_000 });
    await list.locator('#rk-search-receivable_docNo').fill(receivable.docNo);
    await list.getByRole('button', { name: /搜\s*索/ }).click();
    const row = list.locator('.ant-table-row').filter({ hasText: receivable.docNo });
    await expect(row).toContainText('100.00');

    // A partial receipt of 40.
    await row.getByRole('button', { name: '收款' }).click();
    const dialog = page.locator('.ant-modal:visible');
    const amount = dialog.getByLabel(`本次收款 ${receivable.docNo}`);
    await expect(amount).toHaveValue('100.00');
    await amount.fill('40');
    await expect(dialog.getByTestId('settle-total')).toContainText('40.00');
    await dialog.getByTestId('settle-ok').click();
    await expect(toast(page, /收款单 SK\d{8}-\d{4}/)).toBeVisible();
    // 职责分离 (on by default): 财务 entered the receipt, another user confirms it.
    await confirmSettlement(admin, 'receipt', customer.id);
    await list.getByRole('button', { name: '刷新列表' }).first().click();
    await expect(row).toContainText('部分收款');
    await expect(row).toContainText('60.00');

    // The aging of the customer: 60.00 in 0–30 days.
    await list.getByRole('tab', { name: '账龄分析' }).click();
    await noOpenDropdown(page);
    const party = list.locator('#aging-receivable-party');
    await party.click();
    await party.fill(name);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: name })
      .first()
      .click();
    const aging = list.getByTestId('aging-table').locator('.ant-table-row').filter({ hasText: name });
    await expect(aging).toContainText('60.00');
    await expect(list.getByTestId('aging-totals')).toContainText('60.00');

    // The statement of the month: invoiced 100, received 40, closing 60; printed.
    await list.getByRole('tab', { name: '对账单' }).click();
    await noOpenDropdown(page);
    const who = list.locator('#statement-receivable_partyId');
    await who.click();
    await who.fill(name);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: name })
      .first()
      .click();
    await list.getByRole('button', { name: /查\s*询/ }).click();
    const totals = list.getByTestId('statement-totals');
    await expect(totals).toContainText('100.00');
    await expect(totals).toContainText('40.00');
    await expect(totals).toContainText('60.00');
    await list.getByRole('button', { name: /打\s*印/ }).click();
    const sheet = page.getByTestId('print-view');
    await expect(sheet).toContainText('客户对账单');
    await expect(sheet).toContainText(name);
    await expect(sheet).toContainText(receivable.docNo);
  });
  test('an automatic receivable offers no 反审核; goods returned after payment are refunded with a 退款单', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const admin = await Api.login(request);
    // A material not kept by batch: the return below names no batch.
    const stock = await unbatchedStock(admin);
    const customer = await admin.post<Row>('/api/v1/customer/add', {
      code: unique('E2E'),
      name: unique('退款客户'),
      state: '1',
      paymentTerm: 'cash',
      paymentDays: 0,
    });
    const order = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-11-30',
      lines: [{ materialId: stock.materialId, quantity: 2, unitPrice: '50' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${order.id}`, {});
    const line = ((await admin.get<Row>(`/api/v1/sale-order/info/${order.id}`)).lines as Row[])[0];
    const shipped = await admin.post<Row>('/api/v1/sale-order/ship', {
      warehouseId: stock.warehouseId,
      lines: [{ lineId: line.id, quantity: 2 }],
    });
    await admin.post(`/api/v1/stock-outbound/post/${shipped.id}`);
    const items = async () =>
      (await admin.get<{ list: Row[] }>('/api/v1/receivable/page', { customerId: customer.id })).list;
    const sale = (await items())[0];
    // Paid in full: 财务 enters the receipt, the administrator confirms it (职责分离).
    const fin = await Api.login(request, 'fin01', 'demo123');
    await fin.post('/api/v1/receipt/quick', {
      customerId: customer.id,
      method: 'bank',
      lines: [{ receivableId: sale.id, amount: '100' }],
    });
    await confirmSettlement(admin, 'receipt', customer.id);
    const back = await admin.post<Row>('/api/v1/sale-order/return-goods', {
      warehouseId: stock.warehouseId,
      lines: [{ lineId: line.id, quantity: 1 }],
    });
    await admin.post(`/api/v1/stock-inbound/post/${back.id}`);
    const credit = (await items()).find((r) => r.sourceType === 'sales-return') as Row;
    expect(credit).toMatchObject({ amount: '-50.00', status: 'open' });
    const manual = await admin.post<Row>('/api/v1/receivable/add', { customerId: customer.id, amount: '8' });
    await admin.post(`/api/v1/receivable/approve/${manual.id}`, {});

    // 反审核 is declared for manual receivables only: the return's page has none, the manual one has.
    await signedIn(page, fin, `/finance-department/receivable-management-detail?id=${credit.id}`);
    await expect(activePage(page)).toContainText(credit.docNo);
    await expect(activePage(page).getByTestId('transition-unapprove')).toHaveCount(0);
    await page.goto(`/finance-department/receivable-management-detail?id=${manual.id}`);
    await expect(activePage(page)).toContainText(manual.docNo);
    await expect(activePage(page).getByTestId('transition-unapprove')).toBeVisible();

    // The negative receivable is refunded from the list: 退款, −50.00.
    await page.goto('/finance-department/receivable-management');
    const list = activePage(page);
    await expect(list.locator('#rk-search-receivable_docNo')).toBeVisible({ timeout: 45_000 });
    await list.locator('#rk-search-receivable_docNo').fill(credit.docNo);
    await list.getByRole('button', { name: /搜\s*索/ }).click();
    const row = list.locator('.ant-table-row').filter({ hasText: credit.docNo });
    await expect(row).toContainText('-50.00');
    await row.getByRole('button', { name: '退款' }).click();
    const dialog = page.locator('.ant-modal:visible');
    await expect(dialog.getByLabel(`本次退款 ${credit.docNo}`)).toHaveValue('-50.00');
    await expect(dialog.getByTestId('settle-total')).toContainText('-50.00');
    await dialog.getByTestId('settle-ok').click();
    await expect(toast(page, /退款单 TK\d{8}-\d{4}/)).toBeVisible();
    await confirmSettlement(admin, 'receipt', customer.id);
    await list.getByRole('button', { name: '刷新列表' }).first().click();
    await expect(row).toContainText('已收清');
  });
});
