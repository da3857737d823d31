import { WORKSHOP_KINDS, workshopPaths } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRolePermissions } from '../src/seed/index.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockWorld } from './stock-helpers.ts';

/**
 * Where each role lands (GET /api/v1/cockpit/landing, modules/dashboard/landing.ts): on its daily
 * work, by the pages its role grants and where open work waits — never by user name. The roles
 * here are the demo roles' permission sets.
 */

let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
const roles = demoRolePermissions();

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
/** A user holding a demo role's permissions (as the seed grants them). */
const as = async (role: string) => (await t.userWith(roles.get(role)?.permissions ?? [])).token;
const landing = async (as: string) =>
  ok<{ path: string | null; queue?: string }>(await t.call('GET', '/api/v1/cockpit/landing', { token: as }));

describe('landing by granted pages and open work', () => {
  it('仓管员: the documents waiting to be posted — never 委外退货 under 采购管理', async () => {
    const keeper = await as('warehouse');
    // Nothing waiting: the first of his queues, the 出库 list.
    expect(await landing(keeper)).toEqual({
      path: '/warehouse-logistics/outbound-manage',
      queue: 'outbound',
    });
    // A 采购入库 draft waits: the 入库 list, filtered to drafts.
    const m = await w.material();
    const draft = await w.inbound([{ materialId: m.id, quantity: 10 }]);
    expect(await landing(keeper)).toEqual({
      path: '/warehouse-logistics/warehouse-manage?status=draft',
      queue: 'inbound',
    });
    // Posted, and a 领料 draft appears: the 出库 list.
    ok(await w.post('stock-inbound', draft.id));
    await w.outbound([{ materialId: m.id, quantity: 2 }]);
    expect(await landing(keeper)).toEqual({
      path: '/warehouse-logistics/outbound-manage?status=draft',
      queue: 'outbound',
    });
  });

  it('计划员 on production orders, 销售员 on sales orders, 财务 on receivables, 采购员 on purchase orders, 质检员 on 首页', async () => {
    expect((await landing(await as('planner'))).path).toBe(
      '/production-department/production-manage/production-order',
    );
    await f.create('production-order');
    expect((await landing(await as('planner'))).path).toBe(
      '/production-department/production-manage/production-order?status=draft',
    );
    expect((await landing(await as('sales'))).path).toBe('/sale-manage/sale-order');
    expect((await landing(await as('finance'))).path).toBe('/finance-department/receivable-management');
    expect((await landing(await as('buyer'))).path).toBe('/purchase/purchase-manage');
    expect((await landing(await as('quality'))).path).toBe('/home/info');
    // An operator's queue is his own dispatches (the web picks it); an administrator keeps the menu's rule.
    expect(await landing(await as('operator_machine'))).toEqual({ path: null });
    expect(await landing(token)).toEqual({ path: null });
  });

  it('车间主任: his own workshop’s tasks waiting for 派工', async () => {
    const ws = await f.create('workshop', { type: 'grinding', name: '磨加工二车间' });
    const dept = await sql<{ id: number }>`
      INSERT INTO dept (dept_name) VALUES (${ws.name}) RETURNING id`.execute(t.database.db);
    const name = `head${Date.now().toString(36)}`;
    await t.userWith(roles.get('workshop_head')?.permissions ?? [], name);
    await sql`UPDATE app_user SET dept_id = ${dept.rows[0].id} WHERE user_name = ${name}`.execute(
      t.database.db,
    );
    const head = await t.login(name, 'secret123');
    const tasks = workshopPaths(
      WORKSHOP_KINDS.find((k) => k.type === 'grinding') as (typeof WORKSHOP_KINDS)[number],
    ).task;
    expect((await landing(head)).path).toBe(tasks);
    await f.create('workshop-task', { workshopType: 'grinding' });
    const open = ok(
      await t.call('GET', '/api/v1/workshop-task/page', {
        token,
        query: { workshopType: 'grinding', status: 'pending' },
      }),
    );
    expect(open.total).toBeGreaterThan(0);
    expect((await landing(head)).path).toBe(`${tasks}?status=pending`);
  });
});
