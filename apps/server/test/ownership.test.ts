import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §1, §2, §4, §5: an operator acts on his own reports and dispatches only; the head who
 * approves a workshop's reports acts on all of them but not on his own work; a dispatch takes no
 * more reported pieces than it holds; wages are seen by finance, the head and the worker only;
 * 新增报工 works for a workshop's scoped users; a retried add makes one record.
 */
let t: TestApp;
let admin: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  f = factory(t, async () => admin);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = admin) => t.call('POST', url, { token: as, body });
const get = (url: string, as = admin, query?: Record<string, unknown>) =>
  t.call('GET', url, { token: as, query });

const OPERATOR = [
  'production:lathingOperatorTask:list',
  'production:lathingOperatorTask:start',
  'production:lathingOperatorTask:report',
  'production:lathingReport:list',
  'production:lathingReport:add',
  'production:lathingReport:edit',
  'production:lathingReport:delete',
];
/** 车间主任 of turning: dispatches, approves, reads everything of the workshop. */
const HEAD = [
  ...OPERATOR,
  'production:lathingTask:list',
  'production:lathingTask:dispatch',
  'production:lathingDispatch:list',
  'production:lathingDispatch:add',
  'production:lathingReport:approve',
  'production:lathingReport:unapprove',
];

/** A one-step turning order of `quantity` pieces released, its task and one flow card. */
async function order(quantity: number) {
  const turning = await f.create('workshop', { type: 'machine' });
  const P = await f.create('material-info');
  const S = await f.create('material-info');
  await f.create('product-bom', {
    productId: P.id,
    status: 'active',
    lines: [{ materialId: S.id, quantity: 1, unitId: S.unitId }],
  });
  const turn = await f.create('process-manage', { pieceRate: '0.5' });
  await f.create('process-route', {
    productId: P.id,
    status: 'active',
    steps: [{ seq: 10, processId: turn.id, workshopId: turning.id, standardMinutes: '1' }],
  });
  const o = ok(
    await post('/api/v1/production-order/add', {
      productId: P.id,
      quantity,
      plannedStartDate: '2026-11-02',
      dueDate: '2026-11-09',
    }),
  );
  ok(await post(`/api/v1/production-order/release/${o.id}`));
  const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${o.id}`));
  const { cards } = ok(
    await post(`/api/v1/flow-card/open/${o.id}`, { batchSize: quantity, heatNo: 'H2611' }),
  );
  return { task: tasks[0].id as number, card: cards[0].id as number };
}

/** Dispatches `quantity` of a task to `operatorId` (as the admin) and starts it (as `starter`). */
async function dispatch(task: number, operatorId: number, quantity: number, starter = admin) {
  const { dispatches } = ok(
    await post(`/api/v1/workshop-task/dispatch/${task}`, {
      lines: [{ operatorId, quantity, workDate: '2026-11-03', shift: 'day' }],
    }),
  );
  const id = dispatches[0].id as number;
  ok(await post(`/api/v1/work-dispatch/start/${id}`, {}, starter));
  return id;
}

const report = (dispatchId: number, flowCardId: number, as: string, extra: Record<string, unknown> = {}) =>
  post(
    '/api/v1/work-report/add',
    { dispatchId, flowCardId, reportDate: '2026-11-04', goodQuantity: 10, ...extra },
    as,
  );

describe('ownership: an operator acts on his own reports and dispatches', () => {
  it('op01 cannot read, rewrite, submit or delete op02’s report, nor take it over by naming himself', async () => {
    const op1 = await t.userWith(OPERATOR);
    const op2 = await t.userWith(OPERATOR);
    const w = await order(100);
    const d2 = await dispatch(w.task, op2.userId, 50, admin);
    const r2 = ok(await report(d2, w.card, op2.token));
    expect(r2.operatorId).toBe(op2.userId);

    // Reads: info refused, lists and options show only his own.
    const info = await get(`/api/v1/work-report/info/${r2.id}`, op1.token);
    expect(info.status).toBe(403);
    expect(info.body.message).toContain('只能操作本人的报工单');
    for (const path of [
      '/api/v1/work-report/page',
      '/api/v1/work-report/listAll',
      '/api/v1/work-report/options',
    ]) {
      const a = ok<any>(await get(path, op1.token));
      const ids = (Array.isArray(a) ? a : a.list).map((x: any) => x.id);
      expect(ids, path).not.toContain(r2.id);
    }
    expect(ok<any>(await get('/api/v1/work-report/page', op2.token)).list.map((x: any) => x.id)).toContain(
      r2.id,
    );

    // The attack: edit with himself as operator and 60 good pieces, then submit; and delete.
    const edit = await t.call('PUT', `/api/v1/work-report/edit/${r2.id}`, {
      token: op1.token,
      body: { operatorId: op1.userId, goodQuantity: 60 },
    });
    expect(edit.status).toBe(403);
    expect((await post(`/api/v1/work-report/submit/${r2.id}`, {}, op1.token)).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/work-report/delete/${r2.id}`, { token: op1.token })).status).toBe(
      403,
    );
    const stored = await sql<{ operatorId: number; goodQuantity: string; status: string }>`
      SELECT operator_id, good_quantity::text, status FROM work_report WHERE id = ${r2.id}`.execute(
      t.database.db,
    );
    expect(stored.rows[0]).toEqual({ operatorId: op2.userId, goodQuantity: '10.0000', status: 'draft' });

    // A report on op02's dispatch is op02's: op01 may not make it, whatever operator he names.
    expect((await report(d2, w.card, op1.token)).status).toBe(403);
    const named = await report(d2, w.card, op1.token, { operatorId: op1.userId });
    expect(named.status).toBe(400);
    expect(named.body.errors?.[0]).toMatchObject({ field: 'operatorId' });
    // His own report: he may not name another operator either.
    const d1 = await dispatch(w.task, op1.userId, 20, admin);
    const other = await report(d1, w.card, op1.token, { operatorId: op2.userId });
    expect(other.status).toBe(400);
    // op02 edits, submits and deletes his own.
    ok(
      await t.call('PUT', `/api/v1/work-report/edit/${r2.id}`, {
        token: op2.token,
        body: { goodQuantity: 12 },
      }),
    );
    ok(await t.call('DELETE', `/api/v1/work-report/delete/${r2.id}`, { token: op2.token }));
  });

  it('op01 cannot start, pause, resume or complete op02’s dispatch, nor open its sheet; the head can', async () => {
    const op1 = await t.userWith(OPERATOR);
    const op2 = await t.userWith(OPERATOR);
    const head = await t.userWith(HEAD);
    const w = await order(40);
    const { dispatches } = ok(
      await post(`/api/v1/workshop-task/dispatch/${w.task}`, {
        lines: [{ operatorId: op2.userId, quantity: 40, workDate: '2026-11-03', shift: 'day' }],
      }),
    );
    const d = dispatches[0].id as number;
    const start = await post(`/api/v1/work-dispatch/start/${d}`, {}, op1.token);
    expect(start.status).toBe(403);
    expect(start.body.message).toContain('只能操作本人的派工单');
    expect((await get(`/api/v1/work-dispatch/sheet/${d}`, op1.token)).status).toBe(403);
    expect((await get(`/api/v1/work-dispatch/info/${d}`, op1.token)).status).toBe(403);
    expect(
      ok<any>(await get('/api/v1/work-dispatch/page', op1.token)).list.map((x: any) => x.id),
    ).not.toContain(d);
    ok(await post(`/api/v1/work-dispatch/start/${d}`, {}, op2.token));
    for (const step of ['pause', 'resume', 'complete'])
      expect(
        (await post(`/api/v1/work-dispatch/${step}/${d}`, { reason: '测试' }, op1.token)).status,
        step,
      ).toBe(403);
    ok(await post(`/api/v1/work-dispatch/pause/${d}`, { reason: '换刀' }, op2.token));
    // The head, who dispatches in the workshop, runs anyone's dispatch.
    ok(await post(`/api/v1/work-dispatch/resume/${d}`, {}, head.token));
    ok(await post(`/api/v1/work-dispatch/complete/${d}`, {}, op2.token));
  });
});

describe('新增报工 by a workshop’s scoped users (the scope is judged once derived)', () => {
  it('the head adds a report for his operator; the operator adds his own; another workshop’s head may not', async () => {
    const op = await t.userWith(OPERATOR);
    const head = await t.userWith(HEAD);
    const grindingHead = await t.userWith([
      'production:grindingReport:add',
      'production:grindingReport:approve',
    ]);
    const w = await order(30);
    const d = await dispatch(w.task, op.userId, 30, op.token);
    const byHead = ok(await report(d, w.card, head.token, { goodQuantity: 5 }));
    expect(byHead).toMatchObject({ operatorId: op.userId, workshopType: 'machine' });
    ok(await report(d, w.card, op.token, { goodQuantity: 5 }));
    expect((await report(d, w.card, grindingHead.token, { goodQuantity: 5 })).status).toBe(403);
  });
});

describe('maker ≠ checker: 报工审核人不得为报工人', () => {
  it('a head who dispatched to himself and reported cannot approve it; another head can; the setting switches it off', async () => {
    const head = await t.userWith(HEAD);
    const other = await t.userWith(HEAD);
    const w = await order(30);
    const d = await dispatch(w.task, head.userId, 30, head.token);
    const r = ok(await report(d, w.card, head.token, { goodQuantity: 10 }));
    ok(await post(`/api/v1/work-report/submit/${r.id}`, {}, head.token));
    const own = await post(`/api/v1/work-report/approve/${r.id}`, {}, head.token);
    expect(own.status).toBe(409);
    expect(own.body.message).toContain('报工审核人不得为报工人');
    expect(ok<any>(await post(`/api/v1/work-report/approve/${r.id}`, {}, other.token)).status).toBe('posted');

    await sql`INSERT INTO sys_setting (key, value) VALUES ('production.approverNotReporter', 'false')
              ON CONFLICT (key) DO UPDATE SET value = 'false'`.execute(t.database.db);
    try {
      const r2 = ok(await report(d, w.card, head.token, { goodQuantity: 5 }));
      ok(await post(`/api/v1/work-report/submit/${r2.id}`, {}, head.token));
      expect(ok<any>(await post(`/api/v1/work-report/approve/${r2.id}`, {}, head.token)).status).toBe(
        'posted',
      );
    } finally {
      await sql`DELETE FROM sys_setting WHERE key = 'production.approverNotReporter'`.execute(t.database.db);
    }
  });
});

describe('a dispatch takes no more reported pieces than it holds', () => {
  it('8 parallel reports of 3 on a 5-piece dispatch: one is taken, the rest refused; the allowance widens it', async () => {
    const op = await t.userWith(OPERATOR);
    const w = await order(100);
    const d = await dispatch(w.task, op.userId, 5, op.token);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => report(d, w.card, op.token, { goodQuantity: 3 })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(Array(7).fill(409));
    expect(refused[0].body.message).toContain('超出派工数量');
    const sum = await sql<{ q: string }>`
      SELECT sum(good_quantity + work_scrap_quantity + material_scrap_quantity)::text AS q
        FROM work_report WHERE dispatch_id = ${d}`.execute(t.database.db);
    expect(Number(sum.rows[0].q)).toBe(3);
    // Good + scrap count: 2 good + 1 scrap fills the 5; one more piece is refused.
    ok(await report(d, w.card, op.token, { goodQuantity: 1, workScrapQuantity: 1, scrapReason: 'size' }));
    expect((await report(d, w.card, op.token, { goodQuantity: 1 })).status).toBe(409);
    // 20 % over-dispatch allowance: 5 × 1.2 = 6 pieces in all.
    await sql`INSERT INTO sys_setting (key, value) VALUES ('production.overDispatchPercent', '20')
              ON CONFLICT (key) DO UPDATE SET value = '20'`.execute(t.database.db);
    try {
      ok(await report(d, w.card, op.token, { goodQuantity: 1 }));
      expect((await report(d, w.card, op.token, { goodQuantity: 1 })).status).toBe(409);
    } finally {
      await sql`DELETE FROM sys_setting WHERE key = 'production.overDispatchPercent'`.execute(t.database.db);
    }
  });
});

describe('wages are seen by finance, the head and the worker only', () => {
  it('answers piece rate and wage as null to a quality inspector and to other readers', async () => {
    const op = await t.userWith(OPERATOR);
    const head = await t.userWith(HEAD);
    const qc = await t.userWith(['production:reportRecord:list']);
    const fin = await t.userWith(['production:reportRecord:list', 'finance:wage:list']);
    const w = await order(20);
    const d = await dispatch(w.task, op.userId, 20, op.token);
    const r = ok(await report(d, w.card, op.token, { goodQuantity: 8 }));
    ok(await post(`/api/v1/work-report/submit/${r.id}`, {}, op.token));
    ok(await post(`/api/v1/work-report/approve/${r.id}`, {}, head.token));
    // 8 pieces × 0.5 元 = 4.00 元.
    const expectWage = { pieceRate: '0.500000', wageAmount: '4.00' };
    const noWage = { pieceRate: null, wageAmount: null };
    const seen = async (token: string) => {
      const info = ok<any>(await get(`/api/v1/work-report/info/${r.id}`, token));
      const page = ok<any>(await get('/api/v1/work-report/page', token, { dispatchId: d })).list[0];
      const all = ok<any[]>(await get('/api/v1/work-report/listAll', token)).find((x) => x.id === r.id);
      return [info, page, all].map((x) => ({ pieceRate: x.pieceRate, wageAmount: x.wageAmount }));
    };
    expect(await seen(op.token)).toEqual([expectWage, expectWage, expectWage]);
    expect(await seen(head.token)).toEqual([expectWage, expectWage, expectWage]);
    expect(await seen(fin.token)).toEqual([expectWage, expectWage, expectWage]);
    expect(await seen(qc.token)).toEqual([noWage, noWage, noWage]);
  });
});

describe('Idempotency-Key on creates', () => {
  it('a retried sale-order/add with the same key makes one order and answers it again', async () => {
    const customer = await f.create('customer');
    const material = await f.create('material-info');
    const body = {
      customerId: customer.id,
      orderDate: '2026-11-20',
      deliveryDate: '2026-11-30',
      lines: [{ materialId: material.id, quantity: 5, unitPrice: '6.2' }],
    };
    const headers = { 'idempotency-key': 'order-retry-1' };
    const a = await t.call('POST', '/api/v1/sale-order/add', { token: admin, body, headers });
    const b = await t.call('POST', '/api/v1/sale-order/add', { token: admin, body, headers });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.result.id).toBe(a.body.result.id);
    expect(b.body.result.docNo).toBe(a.body.result.docNo);
    const n = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM sale_order WHERE customer_id = ${customer.id}`.execute(t.database.db);
    expect(n.rows[0].n).toBe('1');
    // Without the key, or with another, a second order is made.
    ok(
      await t.call('POST', '/api/v1/sale-order/add', {
        token: admin,
        body,
        headers: { 'idempotency-key': 'order-retry-2' },
      }),
    );
    ok(await t.call('POST', '/api/v1/sale-order/add', { token: admin, body }));
    const m = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM sale_order WHERE customer_id = ${customer.id}`.execute(t.database.db);
    expect(m.rows[0].n).toBe('3');
  });
});
