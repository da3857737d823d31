import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
const today = businessDay();
const yesterday = new Date(new Date(`${today}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const cards = async (as: string) =>
  ok<{ cards: any[] }>(await t.call('GET', '/api/v1/cockpit/cards', { token: as })).cards;
const metric = (card: any, label: string) => card.metrics.find((m: any) => m.label === label);
/** What the linked list shows: the page API with the link's query. */
const listed = async (link: string, api: string) => {
  const query = Object.fromEntries(new URL(link, 'http://x').searchParams);
  return ok(await t.call('GET', api, { token, query: { ...query, pageSize: 5 } })).total as number;
};

describe('首页 cockpit: cards by permission, each linking to its filtered list', () => {
  it('销售员 sees the late orders, and the link lists exactly them', async () => {
    const order = await f.create('sale-order', { orderDate: '2026-01-05', deliveryDate: yesterday });
    ok(
      await t.call('POST', `/api/v1/sale-order/approve/${order.id}`, {
        token,
        body: { version: order.version },
      }),
    );
    const sales = await t.userWith(['sale:order:list']);
    const mine = await cards(sales.token);
    expect(mine.map((c) => c.key)).toEqual(['sales']);
    const late = metric(mine[0], '逾期·已审核');
    expect(late.value).toBe(1);
    expect(late.tone).toBe('danger');
    expect(late.link).toBe(`/sale-manage/sale-order?status=approved&deliveryDateTo=${yesterday}`);
    expect(await listed(late.link, '/api/v1/sale-order/page')).toBe(1);
    expect(mine[0].rows[0]).toMatchObject({ text: expect.stringContaining(order.docNo) });
  });

  it('计划员 sees unreleased orders; 质检员 the reports waiting for inspection; 仓管员 drafts to post', async () => {
    await f.create('production-order', { plannedStartDate: today, dueDate: today });
    const planner = await t.userWith(['production:order:list']);
    const [plan] = await cards(planner.token);
    expect(plan.key).toBe('planner');
    const draft = metric(plan, '未下达订单');
    expect(draft.value).toBeGreaterThanOrEqual(1);
    expect(await listed(draft.link, '/api/v1/production-order/page')).toBe(draft.value);

    // 质检员: the inspection tasks waiting in the categories he may open.
    await f.create('inspection-task', { category: 'shipment' });
    // A category listed before 出货检验 with a task already 检验中: 待检验 must still open 出货检验.
    const patrol = await f.create('inspection-task', { category: 'shipment' });
    await sql`UPDATE inspection_task SET category = 'process', stock_outbound_id = NULL, status = 'inspecting'
               WHERE id = ${patrol.id}`.execute(t.database.db);
    const qc = await t.userWith(['quality:shipment:list', 'quality:process:list']);
    const [quality] = await cards(qc.token);
    expect(quality.key).toBe('quality');
    const waiting = metric(quality, '待检验');
    expect(waiting.value).toBeGreaterThanOrEqual(1);
    expect(waiting.link).toBe('/quality-testing/shipment-inspection?status=pending');
    expect(
      ok(
        await t.call('GET', '/api/v1/inspection-task/page', {
          token,
          query: { category: 'shipment', status: 'pending', pageSize: 5 },
        }),
      ).total,
    ).toBe(waiting.value);
    expect(metric(quality, '检验中').link).toBe('/quality-testing/process-inspection?status=inspecting');
    expect(quality.rows.map((r: any) => r.text).join()).toContain('出货检验');
    // 指派给我: the open tasks assigned to him, opening his own list (我的待检).
    expect(metric(quality, '指派给我')).toMatchObject({ value: 0 });
    await sql`UPDATE inspection_task SET assignee_id = ${qc.userId} WHERE id = ${patrol.id}`.execute(
      t.database.db,
    );
    const [again] = await cards(qc.token);
    expect(metric(again, '指派给我')).toMatchObject({
      value: 1,
      link: '/quality-testing/process-inspection?mine=1',
    });

    const keeper = await t.userWith(['warehouse:inbound:list']);
    const [wh] = await cards(keeper.token);
    expect(wh.key).toBe('warehouse');
    expect(wh.metrics.map((m: any) => m.label)).toEqual(['待过账入库单']);
    expect(await listed(metric(wh, '待过账入库单').link, '/api/v1/stock-inbound/page')).toBe(
      metric(wh, '待过账入库单').value,
    );
  });

  it('车间主任 sees his workshop only; no card without a provider; 407 signed out', async () => {
    const head = await t.userWith(['production:lathingTask:list', 'production:grindingTask:list']);
    const mine = await cards(head.token);
    expect(mine.map((c) => c.key)).toEqual(['workshop-machine', 'workshop-grinding']);
    expect(metric(mine[0], '今日派工').link).toContain(`workDateFrom=${today}`);

    const alerts = await t.userWith(['finance:inventoryAlert:query']);
    // The stock alert belongs to the warehouse card.
    expect((await cards(alerts.token)).map((c) => c.key)).toEqual([]);
    const nobody = await t.userWith(['system:user:list']);
    expect(await cards(nobody.token)).toEqual([]);
    const anon = await t.call('GET', '/api/v1/cockpit/cards');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('407');
  });

  it('财务 sees the receivables overdue and due within 7 days; each link lists exactly the open ones', async () => {
    const c = await f.create('customer');
    const receivable = async (amount: string, bizDate: string, dueDate: string) => {
      const rv = ok(
        await t.call('POST', '/api/v1/receivable/add', {
          token,
          body: { customerId: c.id, bizDate, dueDate, amount, remark: '技术服务费' },
        }),
      );
      ok(await t.call('POST', `/api/v1/receivable/approve/${rv.id}`, { token, body: {} }));
      return rv;
    };
    await receivable('1200.50', '2026-01-05', '2026-01-10');
    await receivable('300', today, today);
    // A draft is not due yet: it is not counted.
    ok(
      await t.call('POST', '/api/v1/receivable/add', {
        token,
        body: {
          customerId: c.id,
          bizDate: '2026-01-05',
          dueDate: '2026-01-10',
          amount: '99',
          remark: '草稿',
        },
      }),
    );
    const fin = await t.userWith(['finance:receivable:list']);
    const [card] = await cards(fin.token);
    expect(card.key).toBe('finance');
    const [overdue, soon] = card.metrics;
    expect(overdue.label).toMatch(/^已逾期（\d+ 笔）$/);
    expect(overdue.tone).toBe('danger');
    expect(Number(String(overdue.value).replace(/,/g, ''))).toBeGreaterThanOrEqual(1200.5);
    const count = (m: any) => Number(/（(\d+) 笔）/.exec(m.label)?.[1]);
    expect(await listed(overdue.link, '/api/v1/receivable/page')).toBe(count(overdue));
    expect(await listed(soon.link, '/api/v1/receivable/page')).toBe(count(soon));
    expect(count(soon)).toBeGreaterThanOrEqual(1);
    const row = card.rows.find((r: any) => r.text.startsWith(c.name));
    expect(row.text).toContain('1,200.50');
    expect(await listed(row.link, '/api/v1/receivable/page')).toBe(1);
  });
});
