// Issue 44 §4: 第三方应用 → 订阅与投递 — add a subscription in the page, see the delivery a sales
// order's 审核 makes in 投递记录 (after a receiver's 500, retried), and 重发 it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Api, expect, shot, signedIn, test, toast, unique } from './support.ts';

type Row = Record<string, any>;

test('a subscription added in 第三方应用 delivers a sales order 审核; the log shows it and 重发 sends it again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // The receiver: the first request answers 500, the rest 200; every delivery id it saw, counted.
  const seen: { id: string; body: Row }[] = [];
  let fail = 1;
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      seen.push({ id: String(req.headers['x-ringmes-delivery']), body: JSON.parse(text) });
      res.writeHead(fail-- > 0 ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    const admin = await Api.login(request);
    const appName = unique('对接');
    // An app hears only of what its scopes let it read: this one reads sales orders.
    await admin.post('/api/v1/threeApp/add', { name: appName, scopes: ['sale:order:list'] });

    await signedIn(page, admin, '/system/three-app/manage');
    const appRow = page.locator('.ant-table-row', { hasText: appName });
    await appRow.getByRole('button', { name: '订阅与投递' }).click();
    const drawer = page.getByRole('dialog', { name: `订阅与投递 · ${appName}` });
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: '新增订阅' }).click();
    const form = page.getByTestId('webhook-form');
    await expect(form).toBeVisible();
    await form.locator('#webhookForm_resource').click();
    await page.keyboard.type('销售订单');
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^销售订单$/ })
      .click();
    await form.locator('#webhookForm_url').fill(url);
    await page
      .getByRole('dialog', { name: '新增订阅' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await expect(toast(page, '新增成功')).toBeVisible();
    await expect(drawer.locator('.ant-table-row', { hasText: url })).toContainText('单据状态变更');

    // A sales order approved through the API: its state change is the event.
    const material = (await admin.get<{ list: Row[] }>('/api/v1/material-info/page', { code: 'FG-6205-2RS' }))
      .list[0];
    const customer = await admin.post<Row>('/api/v1/customer/add', {
      code: unique('WH'),
      name: unique('订阅客户'),
      state: '1',
      paymentTerm: 'cash',
      paymentDays: 0,
    });
    const order = await admin.post<Row>('/api/v1/sale-order/add', {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-11-30',
      lines: [{ materialId: material.id, quantity: 1, unitPrice: '10' }],
    });
    await admin.post(`/api/v1/sale-order/approve/${order.id}`, {});

    await drawer.getByRole('tab', { name: '投递记录' }).click();
    const delivery = drawer.locator('.ant-table-row', { hasText: order.docNo });
    // First a 500 (retried with backoff), then delivered: the log follows by itself.
    await expect(delivery).toContainText('已送达', { timeout: 90_000 });
    await expect(delivery).toContainText('200');
    await expect(delivery.locator('td').nth(5)).toHaveText('2');
    // The subscription hears every 销售订单 审核: other flows running beside this one approve theirs.
    const mine = () => seen.filter((s) => s.body.docNo === order.docNo);
    expect(mine()).toHaveLength(2);
    await shot(page, 'webhooks-delivery-log');

    await delivery.getByRole('button', { name: /重\s*发/ }).click();
    await page
      .locator('.ant-popover:visible')
      .getByRole('button', { name: /重\s*发/ })
      .click();
    await expect(toast(page, '已重新加入发送队列')).toBeVisible();
    await expect.poll(() => mine().length, { timeout: 30_000 }).toBe(3);
    // The same delivery, the same id, each time.
    expect(new Set(mine().map((s) => s.id)).size).toBe(1);
    await expect(delivery).toContainText('已送达');
    await expect(delivery.locator('td').nth(5)).toHaveText('3', { timeout: 10_000 });
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

test('质检员 gets 待检验 as an hourly digest: one message with the count and the list link', async ({
  page,
  request,
}) => {
  const qc = await Api.login(request, 'qc01', 'demo123');
  const inspection = await qc.get<{ list: Row[]; total: number }>('/api/v1/message/page', {
    kind: 'inspection',
    pageSize: 50,
  });
  // The demo's 待检验 messages were gathered: one digest, no message per task.
  expect(inspection.list.filter((m) => m.title.startsWith('待检验：'))).toHaveLength(0);
  const digest = inspection.list.find((m) => /^待检验摘要：过去一小时 \d+ 条$/.test(m.title));
  expect(digest).toBeTruthy();
  await signedIn(page, qc, '/home/info');
  await page.getByTestId('message-bell').click();
  await expect(page.getByTestId('message-panel').getByText(digest?.title ?? '')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-items').getByRole('menuitem', { name: '个人信息' }).click();
  await page.getByRole('dialog', { name: '个人信息' }).getByRole('button', { name: '消息通知' }).click();
  const dialog = page.getByRole('dialog', { name: '消息通知' });
  await expect(dialog.getByRole('switch', { name: '待检验每小时摘要' })).toBeChecked();
  await shot(page, 'notify-digest-qc01');
});
