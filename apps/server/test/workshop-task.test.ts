import { sql } from 'kysely';
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

/**
 * A product routed over turning (10, 3 min), heat treatment outsourced (20), and grinding
 * (30, 1 min), released for `quantity`: the order and its workshops.
 */
async function releasedOrder(quantity = 100) {
  const turning = await f.create('workshop', { type: 'machine' });
  const grinding = await f.create('workshop', { type: 'grinding' });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const [p1, p2, p3] = [
    await f.create('process-manage'),
    await f.create('process-manage'),
    await f.create('process-manage'),
  ];
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [
      { seq: 10, processId: p1.id, workshopId: turning.id, standardMinutes: '3' },
      { seq: 20, processId: p2.id, outsourced: true },
      { seq: 30, processId: p3.id, workshopId: grinding.id, standardMinutes: '1' },
    ],
  });
  const order = ok(
    await post('/api/v1/production-order/add', {
      productId: P.id,
      quantity,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-09',
    }),
  );
  ok(await post(`/api/v1/production-order/release/${order.id}`));
  return { order, turning, grinding, P };
}

async function dispatchedOrder(quantity = 100) {
  const w = await releasedOrder(quantity);
  const made = ok(await post(`/api/v1/production-order/dispatch/${w.order.id}`));
  const [turn, grind] = made.tasks;
  return { ...w, turnTask: turn.id as number, grindTask: grind.id as number };
}

const task = (id: number) => get(`/api/v1/workshop-task/info/${id}`).then(ok);
const dispatch = (taskId: number, lines: Record<string, unknown>[], as = token) =>
  post(`/api/v1/workshop-task/dispatch/${taskId}`, { lines }, as);
const line = (operatorId: number, quantity: number | string, extra: Record<string, unknown> = {}) => ({
  operatorId,
  quantity,
  workDate: '2026-11-03',
  shift: 'day',
  ...extra,
});

describe('派单: a released order becomes workshop tasks', () => {
  it('one task per in-house step, dated across the order by standard minutes; only once; not a draft', async () => {
    const { order } = await releasedOrder(100);
    const plan = ok(await get(`/api/v1/production-order/dispatch-plan/${order.id}`));
    expect(plan.dispatched).toBe(false);
    expect(
      plan.steps.map((s: any) => [s.seq, s.outsourced, s.plannedStartDate, s.plannedFinishDate]),
    ).toEqual([
      [10, false, '2026-11-02', '2026-11-07'],
      [20, true, null, null],
      [30, false, '2026-11-08', '2026-11-09'],
    ]);
    const made = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
    expect(made.tasks.map((x: any) => x.taskNo)).toEqual([`${order.docNo}-10`, `${order.docNo}-30`]);
    const first = await task(made.tasks[0].id);
    expect(first).toMatchObject({
      status: 'pending',
      workshopType: 'machine',
      plannedQuantity: '100.0000',
      dispatchedQuantity: '0.0000',
      plannedStartDate: '2026-11-02',
      productionOrderId: order.id,
    });
    const again = await post(`/api/v1/production-order/dispatch/${order.id}`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('已派单');

    const draft = ok(
      await post('/api/v1/production-order/add', {
        productId: order.productId,
        quantity: 5,
        plannedStartDate: '2026-11-02',
        dueDate: '2026-11-09',
      }),
    );
    const refused = await post(`/api/v1/production-order/dispatch/${draft.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('不能派单');
  });

  it('the planner sets the dates; a finish before the start is a 400 in Chinese', async () => {
    const { order } = await releasedOrder(10);
    const plan = ok(await get(`/api/v1/production-order/dispatch-plan/${order.id}`));
    const stepId = plan.steps[0].id;
    const bad = await post(`/api/v1/production-order/dispatch/${order.id}`, {
      steps: [{ stepId, plannedStartDate: '2026-11-05', plannedFinishDate: '2026-11-04' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('计划完成早于计划开始');
    const made = ok(
      await post(`/api/v1/production-order/dispatch/${order.id}`, {
        steps: [{ stepId, plannedStartDate: '2026-11-03', plannedFinishDate: '2026-11-04' }],
      }),
    );
    expect(await task(made.tasks[0].id)).toMatchObject({
      plannedStartDate: '2026-11-03',
      plannedFinishDate: '2026-11-04',
    });
  });
});

describe('派工: a task never dispatches more than planned plus the allowance', () => {
  it('dispatches, recounts the task and refuses the excess; closing a dispatch gives its quantity back', async () => {
    const { order, turnTask } = await dispatchedOrder(100);
    const op = await t.userWith([], `op-${Date.now()}`);
    const made = ok(await dispatch(turnTask, [line(op.userId, 60), line(op.userId, 30, { shift: 'night' })]));
    expect(made.dispatches).toHaveLength(2);
    expect(made.dispatches[0].docNo).toMatch(/^PG20261103-\d{4}$/);
    expect(await task(turnTask)).toMatchObject({ status: 'dispatched', dispatchedQuantity: '90.0000' });
    const d = ok(await get(`/api/v1/work-dispatch/info/${made.dispatches[0].id}`));
    expect(d).toMatchObject({ workshopType: 'machine', plannedMinutes: '180.00', status: 'dispatched' });
    // 反下达 is refused once work was dispatched.
    const unrelease = await post(`/api/v1/production-order/unrelease/${order.id}`, { reason: '改图' });
    expect(unrelease.status).toBe(409);
    expect(unrelease.body.message).toContain('已派工');

    const over = await dispatch(turnTask, [line(op.userId, 11)]);
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可派 10');
    // Editing a dispatch up past the plan is refused the same way.
    const edit = await t.call('PUT', `/api/v1/work-dispatch/edit/${d.id}`, {
      token,
      body: { quantity: 71, version: d.version },
    });
    expect(edit.status).toBe(409);

    await sql`INSERT INTO sys_setting (key, value) VALUES ('production.overDispatchPercent', '"10"')
              ON CONFLICT (key) DO UPDATE SET value = excluded.value`.execute(t.database.db);
    try {
      ok(await dispatch(turnTask, [line(op.userId, 20)]));
      const beyond = await dispatch(turnTask, [line(op.userId, 1)]);
      expect(beyond.status).toBe(409);
      expect(beyond.body.message).toContain('含超派 10%');
    } finally {
      await sql`DELETE FROM sys_setting WHERE key = 'production.overDispatchPercent'`.execute(t.database.db);
    }
    ok(await post(`/api/v1/work-dispatch/close/${d.id}`, { reason: '设备临时调整' }));
    expect(await task(turnTask)).toMatchObject({ dispatchedQuantity: '50.0000', status: 'dispatched' });
  });

  it('the operator gets one 派工 message per dispatch, linking to its task sheet; editing sends no second', async () => {
    const { turnTask } = await dispatchedOrder(40);
    const op = await t.userWith([], `opm-${Date.now()}`);
    const made = ok(await dispatch(turnTask, [line(op.userId, 10)]));
    const id = made.dispatches[0].id;
    const inbox = async () =>
      ok(await get('/api/v1/message/page', { pageNum: 1, pageSize: 20 }, op.token)).list.filter(
        (m: any) => m.kind === 'dispatch',
      );
    const [m] = await inbox();
    expect(m.title).toContain(made.dispatches[0].docNo);
    expect(m.title).toContain('10 件');
    expect(m.link).toBe(`/production-department/production-manage/machine/process-task-sheet-add?id=${id}`);
    const d = ok(await get(`/api/v1/work-dispatch/info/${id}`));
    ok(
      await t.call('PUT', `/api/v1/work-dispatch/edit/${id}`, {
        token,
        body: { quantity: 12, version: d.version },
      }),
    );
    expect(await inbox()).toHaveLength(1);
    // Dispatching to oneself sends nothing.
    const admin = await sql<{ id: number }>`SELECT id FROM app_user WHERE user_name = 'admin'`.execute(
      t.database.db,
    );
    ok(await dispatch(turnTask, [line(Number(admin.rows[0].id), 1)]));
    const own = ok(await get('/api/v1/message/page', { pageNum: 1, pageSize: 50 })).list;
    expect(own.filter((x: any) => x.kind === 'dispatch')).toHaveLength(0);
  });

  it('two dispatchers sending the last pieces at once: exactly one succeeds', async () => {
    const { grindTask } = await dispatchedOrder(100);
    const op = await t.userWith([], `op2-${Date.now()}`);
    ok(await dispatch(grindTask, [line(op.userId, 40)]));
    const both = await Promise.all([
      dispatch(grindTask, [line(op.userId, 60)]),
      dispatch(grindTask, [line(op.userId, 60)]),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await task(grindTask)).toMatchObject({ dispatchedQuantity: '100.0000' });
  });

  it('bad input is a 400 with the field named in Chinese', async () => {
    const { turnTask } = await dispatchedOrder(10);
    const r = await dispatch(turnTask, [{ quantity: -1, workDate: '2026-13-01', shift: 'dusk' }]);
    expect(r.status).toBe(400);
    const fields = (r.body.errors ?? []).map((e: any) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['lines.0.operatorId', 'lines.0.quantity', 'lines.0.workDate', 'lines.0.shift']),
    );
    expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    const empty = await dispatch(turnTask, []);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('请填写派工明细');
  });
});

describe('workshop scope: one API, four workshops', () => {
  it('a turning head dispatches turning tasks only; lists show his workshop only', async () => {
    const { turnTask, grindTask } = await dispatchedOrder(50);
    const head = await t.userWith(['production:lathingTask:list', 'production:lathingTask:dispatch']);
    const op = await t.userWith([], `op3-${Date.now()}`);
    ok(await dispatch(turnTask, [line(op.userId, 10)], head.token));
    const refused = await dispatch(grindTask, [line(op.userId, 10)], head.token);
    expect(refused.status).toBe(403);
    const page = ok(await get('/api/v1/workshop-task/page', { pageSize: 100 }, head.token));
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.list.every((x: any) => x.workshopType === 'machine')).toBe(true);
    const grindInfo = await get(`/api/v1/workshop-task/info/${grindTask}`, {}, head.token);
    expect(grindInfo.status).toBe(403);
    const stranger = await t.userWith(['production:grindingTask:list']);
    expect((await dispatch(turnTask, [line(op.userId, 1)], stranger.token)).status).toBe(403);
  });

  it('the operator runs his dispatch: 开工 records the start and puts the order into production', async () => {
    const { order, turnTask } = await dispatchedOrder(20);
    const op = await t.userWith([
      'production:lathingOperatorTask:list',
      'production:lathingOperatorTask:start',
    ]);
    const d = ok(await dispatch(turnTask, [line(op.userId, 20)])).dispatches[0];
    const queue = ok(await get('/api/v1/work-dispatch/mine', { workshopType: 'machine' }, op.token));
    expect(queue.list.map((x: any) => x.docNo)).toEqual([d.docNo]);
    expect((await get('/api/v1/work-dispatch/mine', { workshopType: 'grinding' }, op.token)).status).toBe(
      403,
    );

    ok(await post(`/api/v1/work-dispatch/start/${d.id}`, {}, op.token));
    const started = ok(await get(`/api/v1/work-dispatch/info/${d.id}`));
    expect(started.startedAt).toBeTruthy();
    expect(await task(turnTask)).toMatchObject({ status: 'started' });
    expect(ok(await get(`/api/v1/production-order/info/${order.id}`)).status).toBe('producing');

    ok(await post(`/api/v1/work-dispatch/pause/${d.id}`, {}, op.token));
    expect(await task(turnTask)).toMatchObject({ status: 'paused' });
    // A running task cannot be closed.
    const close = await post(`/api/v1/workshop-task/close/${turnTask}`, { reason: '试试' });
    expect(close.status).toBe(409);
    ok(await post(`/api/v1/work-dispatch/resume/${d.id}`, {}, op.token));
    ok(await post(`/api/v1/work-dispatch/complete/${d.id}`, {}, op.token));
    expect(await task(turnTask)).toMatchObject({ status: 'completed' });
    const done = ok(await get(`/api/v1/work-dispatch/info/${d.id}`));
    expect(done.finishedAt).toBeTruthy();
    // Without 开工 permission the operator of another workshop cannot touch it.
    const other = await t.userWith(['production:grindingOperatorTask:start']);
    expect((await post(`/api/v1/work-dispatch/close/${d.id}`, { reason: 'x' }, other.token)).status).toBe(
      403,
    );
  });

  it('the board shows a workshop’s open tasks to its panel permission only', async () => {
    const { turnTask } = await dispatchedOrder(30);
    const viewer = await t.userWith(['production:lathingPanel:query']);
    const board = ok(await get('/api/v1/workshop-task/board', { workshopType: 'machine' }, viewer.token));
    expect(board.list.some((x: any) => x.id === turnTask)).toBe(true);
    expect(board.list.every((x: any) => x.processName && x.orderNo)).toBe(true);
    expect(
      (await get('/api/v1/workshop-task/board', { workshopType: 'grinding' }, viewer.token)).status,
    ).toBe(403);
    const bad = await get('/api/v1/workshop-task/board', { workshopType: 'paint' }, viewer.token);
    expect(bad.status).toBe(400);
  });

  it('closing the order closes its tasks and the dispatches not started', async () => {
    const { order, turnTask } = await dispatchedOrder(10);
    const op = await t.userWith([], `op4-${Date.now()}`);
    const d = ok(await dispatch(turnTask, [line(op.userId, 5)])).dispatches[0];
    ok(await post(`/api/v1/production-order/close/${order.id}`, { reason: '客户取消' }));
    expect(await task(turnTask)).toMatchObject({ status: 'closed' });
    expect(ok(await get(`/api/v1/work-dispatch/info/${d.id}`)).status).toBe('closed');
    expect((await dispatch(turnTask, [line(op.userId, 1)])).status).toBe(409);
  });
});
