import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;

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
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, query: Record<string, unknown> = {}, as = token) =>
  t.call('GET', url, { token: as, query });

const day = (n: number) => {
  const d = new Date();
  d.setDate(d.getDate() + n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('自动排产: the plant model from the database, a checked proposal, 发布 as 派工单', () => {
  it('plans released orders over turning → heat treatment (委外) → grinding, explains a late one and publishes', async () => {
    const turning = await f.create('workshop', { type: 'machine' });
    const grinding = await f.create('workshop', { type: 'grinding' });
    const lathe1 = await f.create('equipment', { workshopId: turning.id });
    const lathe2 = await f.create('equipment', { workshopId: turning.id });
    const grinder = await f.create('equipment', { workshopId: grinding.id });
    const op = await t.userWith(['production:lathingOperatorTask:list'], `as-op-${Date.now()}`);
    await f.create('production-team', { workshopId: turning.id, memberIds: [op.userId] });
    await f.create('production-team', { workshopId: grinding.id, memberIds: [op.userId] });
    const P = await f.create('material-info');
    const S = await f.create('material-info');
    await f.create('product-bom', {
      productId: P.id,
      status: 'active',
      lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
    });
    const turn = await f.create('process-manage');
    const heat = await f.create('process-manage', { outsourced: true });
    const grind = await f.create('process-manage');
    await f.create('process-route', {
      productId: P.id,
      status: 'active',
      steps: [
        { seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '2' },
        { seq: 20, processId: heat.id, standardMinutes: '0', outsourced: true },
        { seq: 30, processId: grind.id, workshopId: grinding.id, standardMinutes: '1' },
      ],
    });
    // Three orders: two roomy, one due tomorrow (its 300 minutes of grinding after 2 days of heat
    // treatment cannot make it).
    const orders: string[] = [];
    for (const [quantity, due, priority] of [
      [200, day(10), 'normal'],
      [300, day(1), 'urgent'],
      [150, day(12), 'low'],
    ] as const) {
      const o = ok(
        await post('/api/v1/production-order/add', {
          productId: P.id,
          quantity,
          plannedStartDate: day(0),
          dueDate: due,
          priority,
        }),
      );
      ok(await post(`/api/v1/production-order/release/${o.id}`));
      ok(await post(`/api/v1/production-order/dispatch/${o.id}`));
      orders.push(o.docNo);
    }

    const bad = await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 100 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('62');

    const run = ok(
      await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 14, timeLimitSeconds: 0.5 }),
    );
    expect(run.violations).toEqual([]);
    expect(run.orders).toBeGreaterThanOrEqual(3);
    const mine = run.lines.filter((l: any) => orders.includes(l.orderNo));
    // Turning of each order on one of the lathes, grinding on the grinder, in whole shifts.
    expect(mine.filter((l: any) => l.equipmentId === grinder.id).length).toBeGreaterThanOrEqual(3);
    expect(mine.every((l: any) => [lathe1.id, lathe2.id, grinder.id].includes(l.equipmentId))).toBe(true);
    for (const o of orders) {
      const turnQty = mine
        .filter((l: any) => l.orderNo === o && l.equipmentId !== grinder.id)
        .reduce((s: number, l: any) => s + Number(l.quantity), 0);
      expect([200, 300, 150]).toContain(turnQty);
    }
    // Grinding starts after heat treatment (2 days) is back.
    const turnEnd = Math.max(
      ...mine
        .filter((l: any) => l.orderNo === orders[1] && l.equipmentId !== grinder.id)
        .map((l: any) => l.end),
    );
    const grindStart = Math.min(
      ...mine
        .filter((l: any) => l.orderNo === orders[1] && l.equipmentId === grinder.id)
        .map((l: any) => l.start),
    );
    expect(grindStart).toBeGreaterThanOrEqual(turnEnd + 2 * 1440);
    // The urgent order due tomorrow is late and says where it waited.
    const late = run.proposal.late.find((l: any) => l.orderNo === orders[1]);
    expect(late).toBeTruthy();
    expect(late.explanation).toMatch(/工序「.*」在设备/);
    expect(run.proposal.lateOrders).toBeGreaterThanOrEqual(1);
    expect(run.baseline).toHaveProperty('lateOrders');
    expect(run.proposal.machineLoads.length).toBeGreaterThan(0);

    // 发布: the lines become 派工单 through 派工, on the operator's sheet.
    const pub = ok(
      await post('/api/v1/work-dispatch/auto-schedule/publish', {
        lines: mine.map((l: any) => ({
          taskId: l.taskId,
          equipmentId: l.equipmentId,
          operatorId: l.operatorId,
          workDate: l.workDate,
          shift: l.shift,
          quantity: l.quantity,
        })),
      }),
    );
    expect(pub.dispatches).toHaveLength(mine.length);
    const sheet = ok(await get('/api/v1/work-dispatch/mine', { workshopType: 'machine' }, op.token));
    const onSheet = new Set(sheet.list.map((x: any) => x.docNo));
    const turningLines = mine.filter((l: any) => l.equipmentId !== grinder.id).length;
    expect(pub.dispatches.filter((d: any) => onSheet.has(d.docNo))).toHaveLength(turningLines);

    // Published dispatches are locked: a second run plans nothing more for these orders.
    const again = ok(
      await post('/api/v1/work-dispatch/auto-schedule', { horizonDays: 14, timeLimitSeconds: 0.2 }),
    );
    expect(again.lines.filter((l: any) => orders.includes(l.orderNo))).toEqual([]);
    expect(again.lockedDispatches).toBeGreaterThanOrEqual(mine.length);
    expect(again.violations).toEqual([]);

    // Over-dispatch is refused by 派工's own rule, in Chinese, and nothing is written.
    const over = await post('/api/v1/work-dispatch/auto-schedule/publish', {
      lines: [{ ...mine[0], quantity: '9999', orderNo: undefined }].map((l: any) => ({
        taskId: l.taskId,
        equipmentId: l.equipmentId,
        operatorId: l.operatorId,
        workDate: l.workDate,
        shift: l.shift,
        quantity: l.quantity,
      })),
    });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('超出任务可派工数量');
  }, 180_000);

  it('needs the plan permission; a planner of no workshop is refused', async () => {
    const u = await t.userWith([], `as-none-${Date.now()}`);
    const r = await post('/api/v1/work-dispatch/auto-schedule', {}, u.token);
    expect(r.status).toBe(403);
    const p = await post('/api/v1/work-dispatch/auto-schedule/publish', { lines: [] }, u.token);
    expect([400, 403]).toContain(p.status);
  });
});
