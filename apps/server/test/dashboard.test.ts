import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardHub } from '../src/modules/dashboard/dashboard.ts';
import { businessDay } from '../src/platform/numbering.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;
let base: string;
const today = businessDay();

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });

/** A one-step order in the turning workshop, a card and a started dispatch for today. */
async function floor(quantity = 100) {
  const turning = await f.create('workshop', { type: 'machine' });
  const machine = await f.create('equipment', { workshopId: turning.id });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const turn = await f.create('process-manage', { pieceRate: '0.1' });
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
  });
  const order = ok(
    await post('/api/v1/production-order/add', {
      productId: P.id,
      quantity,
      plannedStartDate: today,
      dueDate: today,
    }),
  );
  ok(await post(`/api/v1/production-order/release/${order.id}`));
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
  const { cards } = ok(
    await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: quantity, heatNo: 'H1' }),
  );
  const op = await t.userWith(['production:lathingOperatorTask:list']);
  const { dispatches } = ok(
    await post(`/api/v1/workshop-task/dispatch/${tasks[0].id}`, {
      lines: [{ operatorId: op.userId, equipmentId: machine.id, quantity, workDate: today, shift: 'day' }],
    }),
  );
  ok(await post(`/api/v1/work-dispatch/start/${dispatches[0].id}`));
  return { order, card: cards[0].id as number, dispatch: dispatches[0].id as number, machine };
}

/** Reads a Server-Sent Events stream frame by frame. */
async function openStream(url: string) {
  const res = await fetch(url);
  const frames: any[] = [];
  let buffer = '';
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let waiting: (() => void) | undefined;
  void (async () => {
    if (!reader) return;
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let at = buffer.indexOf('\n\n');
      while (at >= 0) {
        const frame = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = frame
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n');
        if (data) frames.push(JSON.parse(data));
        at = buffer.indexOf('\n\n');
      }
      waiting?.();
    }
  })();
  return {
    res,
    frames,
    /** The first frame (from `from` on) that satisfies `test`. */
    async until(test: (s: any) => boolean, from = 0, ms = 5_000) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = frames.slice(from).find(test);
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`no matching frame in ${ms} ms (${frames.length} frames)`);
        await new Promise<void>((resolve) => {
          waiting = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => reader?.cancel().catch(() => {}),
  };
}

const ticket = async (scope: string, as = token) =>
  ok<{ ticket: string; expiresIn: number }>(await post('/api/v1/dashboard/ticket', { scope }, as)).ticket;

describe('车间看板: live over Server-Sent Events', () => {
  it('a posting reaches every open stream of the scopes it touches, computed once per scope', async () => {
    const w = await floor(100);
    const whole = await openStream(
      `${base}/api/v1/dashboard/stream?ticket=${encodeURIComponent(await ticket('whole'))}`,
    );
    expect(whole.res.status).toBe(200);
    expect(whole.res.headers.get('content-type')).toContain('text/event-stream');
    const machineUrl = async () =>
      `${base}/api/v1/dashboard/stream?ticket=${encodeURIComponent(await ticket('machine'))}`;
    const m1 = await openStream(await machineUrl());
    const m2 = await openStream(await machineUrl());
    const grinding = await openStream(
      `${base}/api/v1/dashboard/stream?ticket=${encodeURIComponent(await ticket('grinding'))}`,
    );
    const first = await whole.until(() => true);
    await m1.until(() => true);
    await m2.until(() => true);
    await grinding.until(() => true);
    expect(first.scope).toBe('whole');
    expect(first.day).toBe(today);
    const machineRow = first.output.find((o: any) => o.workshopType === 'machine');
    expect(machineRow.planned).toBe('100');
    expect(machineRow.good).toBe('0');
    expect(first.equipment.list.find((e: any) => e.id === w.machine.id).state).toBe('running');

    const r = ok(
      await post('/api/v1/work-report/add', {
        dispatchId: w.dispatch,
        flowCardId: w.card,
        reportDate: today,
        goodQuantity: 90,
        workScrapQuantity: 3,
        materialScrapQuantity: 1,
        scrapReason: 'size',
        reworkQuantity: 0,
      }),
    );
    ok(await post(`/api/v1/work-report/submit/${r.id}`));
    await new Promise((res) => setTimeout(res, 300)); // what adding the report changed has settled
    const before = dashboardHub(t.app)?.stats() ?? {};
    const from = { whole: whole.frames.length, m1: m1.frames.length, m2: m2.frames.length };
    const started = Date.now();
    ok(await post(`/api/v1/work-report/approve/${r.id}`));
    const posted = (s: any) => s.recent.some((x: any) => x.docNo === r.docNo);
    const seen = await whole.until(posted, from.whole);
    // Within a second on an idle machine (bench/scenarios/dashboard.mjs measures it); CI shares its CPUs.
    expect(Date.now() - started).toBeLessThan(3_000);
    const a = await m1.until(posted, from.m1);
    const b = await m2.until(posted, from.m2);
    expect(a.computedAt).toBe(b.computedAt); // one computation, fanned out
    expect(seen.totals).toMatchObject({ planned: '100', good: '90', scrap: '4' });
    expect(seen.quality.today.firstPassYield).toBe(95.7);
    expect(seen.quality.pareto[0]).toMatchObject({ reason: 'size', quantity: '4.0000', cumulative: 100 });
    expect(seen.ranking[0]).toMatchObject({ rank: 1, good: '90.0000', reports: 1 });
    expect(seen.orders.inProgress).toBeGreaterThanOrEqual(1);
    // Grinding was not touched: its stream got nothing new.
    await new Promise((res) => setTimeout(res, 300));
    expect(grinding.frames.length).toBe(1);
    const after = dashboardHub(t.app)?.stats() ?? {};
    expect(after['dashboard:machine'].computations - (before['dashboard:machine']?.computations ?? 0)).toBe(
      1,
    );
    expect(after['dashboard:machine'].clients).toBe(2);

    // 反审核 takes it back, live too.
    const fromAgain = whole.frames.length;
    ok(await post(`/api/v1/work-report/unapprove/${r.id}`, { reason: '数量填错' }));
    const back = await whole.until((s) => !posted(s), fromAgain);
    expect(back.totals.good).toBe('0');
    for (const s of [whole, m1, m2, grinding]) await s.close();
  });

  it('checks the ticket, the session and the permission of the scope', async () => {
    const bad = await fetch(`${base}/api/v1/dashboard/stream?ticket=forged.x`);
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as any).code).toBe('407');
    const none = await fetch(`${base}/api/v1/dashboard/stream`);
    expect(none.status).toBe(400);

    const head = await t.userWith(['dashboard:machine:query']);
    ok(await t.call('GET', '/api/v1/dashboard/snapshot', { token: head.token, query: { scope: 'machine' } }));
    const whole = await t.call('GET', '/api/v1/dashboard/snapshot', {
      token: head.token,
      query: { scope: 'whole' },
    });
    expect(whole.status).toBe(403);
    expect((await post('/api/v1/dashboard/ticket', { scope: 'whole' }, head.token)).status).toBe(403);
    const bogus = await post('/api/v1/dashboard/ticket', { scope: 'kitchen' }, head.token);
    expect(bogus.status).toBe(400);
    const stranger = await t.userWith(['sale:order:list']);
    expect((await post('/api/v1/dashboard/ticket', { scope: 'machine' }, stranger.token)).status).toBe(403);

    // A ticket outlives nothing: after logout the stream does not open.
    const other = await t.userWith(['dashboard:machine:query']);
    const tk = await ticket('machine', other.token);
    ok(await t.call('POST', '/vue-element-admin/user/logout', { token: other.token }));
    const gone = await fetch(`${base}/api/v1/dashboard/stream?ticket=${encodeURIComponent(tk)}`);
    expect(gone.status).toBe(401);
  });
});

describe('车加工看板 (the workshop task board) on the live channel', () => {
  it('pushes the board when 派单 makes tasks and 派工 moves one, to the board permission only', async () => {
    const panel = await t.userWith(['production:lathingPanel:query']);
    const open = async (scope: string, as = panel.token) =>
      openStream(`${base}/api/v1/dashboard/stream?ticket=${encodeURIComponent(await ticket(scope, as))}`);
    const board = await open('board:machine');
    expect(board.res.status).toBe(200);
    const grindingBoard = await open('board:grinding', token);
    await board.until(() => true);
    await grindingBoard.until(() => true);

    // 派单 of a turning order: its task appears on the turning board, pushed.
    const turning = await f.create('workshop', { type: 'machine' });
    const P = await f.create('material-info');
    const S = await f.create('material-info');
    await f.create('product-bom', {
      productId: P.id,
      status: 'active',
      lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
    });
    const turn = await f.create('process-manage', { pieceRate: '0.1' });
    await f.create('process-route', {
      productId: P.id,
      status: 'active',
      steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
    });
    const order = ok(
      await post('/api/v1/production-order/add', {
        productId: P.id,
        quantity: 40,
        plannedStartDate: today,
        dueDate: today,
      }),
    );
    ok(await post(`/api/v1/production-order/release/${order.id}`));
    const grindingFrames = grindingBoard.frames.length;
    let from = board.frames.length;
    const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
    const task = (s: any) => s.list.find((r: any) => r.taskNo === tasks[0].taskNo);
    const made = await board.until((s) => task(s)?.status === 'pending', from);
    expect(task(made)).toMatchObject({ orderNo: order.docNo, dispatchCount: 0 });

    // 派工: the card moves to 已派工 with its operator, pushed again.
    const op = await t.userWith(['production:lathingOperatorTask:list']);
    from = board.frames.length;
    ok(
      await post(`/api/v1/workshop-task/dispatch/${tasks[0].id}`, {
        lines: [{ operatorId: op.userId, quantity: 40, workDate: today, shift: 'day' }],
      }),
    );
    const dispatched = await board.until((s) => task(s)?.status === 'dispatched', from);
    expect(task(dispatched).dispatchedQuantity).toBe('40.0000');
    // The grinding board was not touched.
    await new Promise((res) => setTimeout(res, 300));
    expect(grindingBoard.frames.length).toBe(grindingFrames);
    for (const s of [board, grindingBoard]) await s.close();

    // The board's permission opens its stream, not another workshop's, nor a dashboard's.
    expect((await post('/api/v1/dashboard/ticket', { scope: 'board:grinding' }, panel.token)).status).toBe(
      403,
    );
    expect((await post('/api/v1/dashboard/ticket', { scope: 'machine' }, panel.token)).status).toBe(403);
    const dash = await t.userWith(['dashboard:machine:query']);
    expect((await post('/api/v1/dashboard/ticket', { scope: 'board:machine' }, dash.token)).status).toBe(403);
    expect((await post('/api/v1/dashboard/ticket', { scope: 'board:kitchen' }, token)).status).toBe(400);
  });
});
