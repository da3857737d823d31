import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { releasedTasks } from './shop-floor.ts';

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
const put = (url: string, body: unknown = {}, as = token) => t.call('PUT', url, { token: as, body });
const get = (url: string, query: Record<string, unknown> = {}, as = token) =>
  t.call('GET', url, { token: as, query });

/** A released order over turning (3 min/piece) and grinding (1 min/piece), dispatched into tasks. */
const tasks = (quantity: number) => releasedTasks(t, f, token, quantity);

const dispatch = async (taskId: number, line: Record<string, unknown>) =>
  ok(await post(`/api/v1/workshop-task/dispatch/${taskId}`, { lines: [line] })).dispatches[0] as {
    id: number;
    docNo: string;
  };
const info = (id: number) => get(`/api/v1/work-dispatch/info/${id}`).then(ok);
const plan = (query: Record<string, unknown>, as = token) => get('/api/v1/work-dispatch/plan', query, as);

describe('排产计划: rows, bars and each cell’s load', () => {
  it('lays out machines and operators with the dispatches of the range; an overloaded cell is flagged', async () => {
    const { turning, turnTask } = await tasks(200);
    const m1 = await f.create('equipment', { workshopId: turning.id });
    const m2 = await f.create('equipment', { workshopId: turning.id });
    const op = await t.userWith([], `pl-op-${Date.now()}`);
    await f.create('production-team', { workshopId: turning.id, memberIds: [op.userId] });
    const base = { operatorId: op.userId, equipmentId: m1.id, workDate: '2026-12-02', shift: 'day' };
    const a = await dispatch(turnTask, { ...base, quantity: 100 }); // 300 min
    const b = await dispatch(turnTask, { ...base, quantity: 70 }); // 210 min → 510 > 480
    const c = await dispatch(turnTask, { ...base, equipmentId: m2.id, shift: 'night', quantity: 10 });
    const outside = await dispatch(turnTask, { ...base, workDate: '2026-12-20', quantity: 5 });

    const p = ok(await plan({ workshopType: 'machine', from: '2026-12-01', to: '2026-12-07' }));
    expect(p.by).toBe('equipment');
    expect(p.shiftMinutes).toBe(480);
    expect(p.rows.map((r: any) => r.id)).toEqual(expect.arrayContaining([m1.id, m2.id]));
    const ids = p.bars.map((x: any) => x.id);
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(ids).not.toContain(outside.id);
    const bar = p.bars.find((x: any) => x.id === a.id);
    expect(bar).toMatchObject({
      docNo: a.docNo,
      status: 'dispatched',
      workDate: '2026-12-02',
      shift: 'day',
      quantity: '100.0000',
      plannedMinutes: '300.00',
      equipmentId: m1.id,
      operatorId: op.userId,
    });
    expect(bar.productName && bar.processName && bar.taskNo && bar.version).toBeTruthy();
    const cell = (rowId: number, shift: string) =>
      p.capacity.find((x: any) => x.rowId === rowId && x.workDate === '2026-12-02' && x.shift === shift);
    expect(cell(m1.id, 'day')).toMatchObject({ minutes: '510.00', capacity: 480, overloaded: true });
    expect(cell(m2.id, 'night')).toMatchObject({ minutes: '30.00', overloaded: false });

    const byOp = ok(
      await plan({ workshopType: 'machine', from: '2026-12-01', to: '2026-12-07', by: 'operator' }),
    );
    expect(byOp.rows.find((r: any) => r.id === op.userId)).toBeTruthy();
    const opDay = byOp.capacity.find(
      (x: any) => x.rowId === op.userId && x.workDate === '2026-12-02' && x.shift === 'day',
    );
    expect(opDay).toMatchObject({ minutes: '510.00', overloaded: true });

    // A closed dispatch leaves the plan.
    ok(await post(`/api/v1/work-dispatch/close/${b.id}`, { reason: '改期' }));
    const after = ok(await plan({ workshopType: 'machine', from: '2026-12-01', to: '2026-12-07' }));
    expect(after.bars.map((x: any) => x.id)).not.toContain(b.id);
    expect(
      after.capacity.find((x: any) => x.rowId === m1.id && x.workDate === '2026-12-02' && x.shift === 'day'),
    ).toMatchObject({ minutes: '300.00', overloaded: false });

    // Excel of the same plan.
    const file = ok(
      await get('/api/v1/work-dispatch/plan/export', {
        workshopType: 'machine',
        from: '2026-12-01',
        to: '2026-12-07',
      }),
    );
    expect(file.fileName).toMatch(/\.xlsx$/);
  });

  it('a bad query is a 400 in Chinese', async () => {
    for (const [query, text] of [
      [{ workshopType: 'paint', from: '2026-12-01', to: '2026-12-02' }, '车间类型'],
      [{ workshopType: 'machine', from: '2026-13-01', to: '2026-12-02' }, '开始日期'],
      [{ workshopType: 'machine', from: '2026-12-05', to: '2026-12-01' }, '结束日期不能早于开始日期'],
      [{ workshopType: 'machine', from: '2026-01-01', to: '2026-12-31' }, '不能超过 62 天'],
      [{ workshopType: 'machine', from: '2026-12-01', to: '2026-12-02', by: 'team' }, '排产维度'],
      [{ workshopType: 'machine', to: '2026-12-02' }, 'from'],
    ] as const) {
      const r = await plan(query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.message).toContain(text);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('a workshop’s plan opens to its own Plan:list only', async () => {
    const viewer = await t.userWith(['production:lathingPlan:list']);
    ok(await plan({ workshopType: 'machine', from: '2026-12-01', to: '2026-12-07' }, viewer.token));
    expect(
      (await plan({ workshopType: 'grinding', from: '2026-12-01', to: '2026-12-07' }, viewer.token)).status,
    ).toBe(403);
    const dispatcher = await t.userWith(['production:lathingDispatch:list']);
    expect(
      (await plan({ workshopType: 'machine', from: '2026-12-01', to: '2026-12-07' }, dispatcher.token))
        .status,
    ).toBe(403);
  });
});

describe('改派: dragging a bar re-dispatches under the dispatch rules', () => {
  it('moves a 已派工 dispatch to another machine, day and shift; warns of overload; stale version is a 409', async () => {
    const { turning, turnTask } = await tasks(300);
    const m1 = await f.create('equipment', { workshopId: turning.id });
    const m2 = await f.create('equipment', { workshopId: turning.id });
    const op = await t.userWith([], `pl-mv-${Date.now()}`);
    const op2 = await t.userWith([], `pl-mv2-${Date.now()}`);
    const base = { operatorId: op.userId, workDate: '2026-12-03', shift: 'day' };
    const a = await dispatch(turnTask, { ...base, equipmentId: m1.id, quantity: 100 }); // 300 min
    const b = await dispatch(turnTask, { ...base, equipmentId: m2.id, workDate: '2026-12-04', quantity: 80 }); // 240
    const planner = await t.userWith(['production:lathingPlan:list', 'production:lathingPlan:edit']);

    const before = await info(a.id);
    const moved = ok(
      await put(
        `/api/v1/work-dispatch/plan/${a.id}`,
        { equipmentId: m2.id, workDate: '2026-12-04', shift: 'day', version: before.version },
        planner.token,
      ),
    );
    expect(moved.version).toBe(before.version + 1);
    // 300 + 240 = 540 > 480 on m2, and on the operator too: a warning, not a refusal.
    expect(moved.warnings.join('；')).toContain('超过班次 480 分钟');
    expect(await info(a.id)).toMatchObject({
      equipmentId: m2.id,
      workDate: '2026-12-04',
      shift: 'day',
      plannedMinutes: '300.00',
      docNo: a.docNo,
    });

    // The same move again with the old version: 409.
    const stale = await put(
      `/api/v1/work-dispatch/plan/${a.id}`,
      { equipmentId: m1.id, workDate: '2026-12-03', shift: 'night', version: before.version },
      planner.token,
    );
    expect(stale.status).toBe(409);

    // Another operator, no warning when the cell has room.
    const now = await info(a.id);
    const calm = ok(
      await put(
        `/api/v1/work-dispatch/plan/${a.id}`,
        {
          operatorId: op2.userId,
          equipmentId: m1.id,
          workDate: '2026-12-05',
          shift: 'night',
          version: now.version,
        },
        planner.token,
      ),
    );
    expect(calm.warnings).toEqual([]);
    expect(await info(a.id)).toMatchObject({ operatorId: op2.userId, equipmentId: m1.id, shift: 'night' });

    // Only while 已派工: a started dispatch stays where it runs.
    ok(await post(`/api/v1/work-dispatch/start/${b.id}`));
    const started = await info(b.id);
    const refused = await put(
      `/api/v1/work-dispatch/plan/${b.id}`,
      { workDate: '2026-12-06', shift: 'day', version: started.version },
      planner.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('已开工');
  });

  it('another workshop’s dispatch is a 403; a missing one 404; a bad body 400', async () => {
    const { grinding, grindTask } = await tasks(50);
    const op = await t.userWith([], `pl-x-${Date.now()}`);
    const g = await dispatch(grindTask, {
      operatorId: op.userId,
      workDate: '2026-12-03',
      shift: 'day',
      quantity: 10,
    });
    const turningPlanner = await t.userWith(['production:lathingPlan:list', 'production:lathingPlan:edit']);
    const v = (await info(g.id)).version;
    const body = { workDate: '2026-12-04', shift: 'night', version: v };
    expect((await put(`/api/v1/work-dispatch/plan/${g.id}`, body, turningPlanner.token)).status).toBe(403);
    const viewerOnly = await t.userWith(['production:grindingPlan:list']);
    expect((await put(`/api/v1/work-dispatch/plan/${g.id}`, body, viewerOnly.token)).status).toBe(403);
    const grindPlanner = await t.userWith(['production:grindingPlan:edit']);
    ok(await put(`/api/v1/work-dispatch/plan/${g.id}`, body, grindPlanner.token));
    expect((await put('/api/v1/work-dispatch/plan/99999999', body)).status).toBe(404);
    const bad = await put(`/api/v1/work-dispatch/plan/${g.id}`, { workDate: '2026-02-30', shift: 'dusk' });
    expect(bad.status).toBe(400);
    expect((bad.body.errors ?? []).map((e: any) => e.field)).toEqual(
      expect.arrayContaining(['workDate', 'shift', 'version']),
    );
    const extra = await put(`/api/v1/work-dispatch/plan/${g.id}`, { ...body, quantity: 1 });
    expect(extra.status).toBe(400);
    void grinding;
  });
});
