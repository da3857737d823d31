import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRolePermissions } from '../src/seed/index.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { shopFloor } from './shop-floor.ts';

/**
 * The inspection gate of a work report (issue 35): a report waiting 待检验 is posted by its
 * inspection's result (合格 / 让步接收) — or by 越过检验入账, an override that needs its own
 * permission and a reason, is audited and closes the open task as 已越过. The workshop's
 * 检验完成 posts nothing, and the 首检 gate is passed only by a first article that passed.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
}, 600_000);
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, as = token) => t.call('GET', url, { token: as }).then(ok);

/** Turning, then grinding flagged for inspection with one measured item (20 −0.010/0, n = 2). */
async function floor(quantity: number) {
  const { card, dispatches } = await shopFloor(t, f, token, {
    quantity,
    heatNo: 'H7',
    operatorPermissions: ['production:grindingOperatorTask:list'],
    inspection: { boreSamples: 2 },
  });
  return { card, turn: dispatches[0], grind: dispatches[1] };
}

const report = (dispatchId: number, flowCardId: number, goodQuantity: number) =>
  post('/api/v1/work-report/add', { dispatchId, flowCardId, reportDate: '2026-11-04', goodQuantity });
const approved = async (dispatchId: number, flowCardId: number, goodQuantity: number) => {
  const r = ok(await report(dispatchId, flowCardId, goodQuantity));
  ok(await post(`/api/v1/work-report/submit/${r.id}`));
  ok(await post(`/api/v1/work-report/approve/${r.id}`));
  return r.id as number;
};
const taskOf = async (reportId: number) => {
  const r = await sql<{ id: number }>`
    SELECT id FROM inspection_task WHERE work_report_id = ${reportId} ORDER BY id DESC`.execute(
    t.database.db,
  );
  return get(`/api/v1/inspection-task/info/${r.rows[0].id}`);
};
const grindStep = async (card: number) =>
  (await get(`/api/v1/flow-card/card/${card}`)).steps.find((s: any) => s.seq === 20);
const auditOf = async (entity: string, id: number) =>
  (
    await sql<{ action: string; after: any }>`
      SELECT action, after_data AS after FROM audit_log WHERE entity = ${entity} AND entity_id = ${String(id)}
       ORDER BY id`.execute(t.database.db)
  ).rows;

describe('检验完成 does not post a report waiting for its inspection', () => {
  it('the workshop head cannot post a 待检验 report; its task stays open and bulk production waits for the 首检', async () => {
    const w = await floor(100);
    await approved(w.turn, w.card, 100);
    const g1 = await approved(w.grind, w.card, 10);
    const task = await taskOf(g1);
    expect(task).toMatchObject({ status: 'pending', checkKind: 'first' });

    const head = await t.userWith(demoRolePermissions().get('workshop_head')?.permissions ?? []);
    for (const name of ['inspect', 'inspectOverride']) {
      const r = await post(`/api/v1/work-report/${name}/${g1}`, { reason: '车间确认合格' }, head.token);
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).not.toBe(200);
    }
    const r = await get(`/api/v1/work-report/info/${g1}`);
    expect(r).toMatchObject({ status: 'inspecting', stockInboundId: null });
    expect((await grindStep(w.card)).goodQuantity).toBe('0.0000');
    expect((await get(`/api/v1/inspection-task/info/${task.id}`)).status).toBe('pending');

    const bulk = await report(w.grind, w.card, 20);
    expect(bulk.status).toBe(409);
    expect(bulk.body.message).toContain('首检');
  });
});

describe('越过检验入账', () => {
  it('needs its permission and a reason, is audited, closes the task as 已越过 and leaves the 首检 owed', async () => {
    const w = await floor(100);
    await approved(w.turn, w.card, 100);
    const g1 = await approved(w.grind, w.card, 10);
    const first = await taskOf(g1);

    const reader = await t.userWith(['production:reportRecord:list']);
    expect(
      (await post(`/api/v1/work-report/inspectOverride/${g1}`, { reason: '急单' }, reader.token)).status,
    ).toBe(403);
    const quality = await t.userWith([
      'production:reportRecord:list',
      'production:reportRecord:inspectOverride',
    ]);
    const noReason = await post(`/api/v1/work-report/inspectOverride/${g1}`, {}, quality.token);
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]?.field).toBe('reason');

    const reason = '客户急单，质量部长批准先行入账，检验随后补做';
    expect(
      ok(await post(`/api/v1/work-report/inspectOverride/${g1}`, { reason }, quality.token)).status,
    ).toBe('posted');
    expect(await get(`/api/v1/work-report/info/${g1}`)).toMatchObject({
      status: 'posted',
      statusReason: reason,
    });
    expect((await grindStep(w.card)).goodQuantity).toBe('10.0000');
    expect(await get(`/api/v1/inspection-task/info/${first.id}`)).toMatchObject({
      status: 'overridden',
      statusReason: reason,
    });
    expect((await auditOf('work-report', g1)).at(-1)).toMatchObject({
      action: 'inspectOverride',
      after: { status: 'inspected', reason },
    });
    expect((await auditOf('inspection-task', first.id)).at(-1)).toMatchObject({
      action: 'override',
      after: { status: 'overridden', reason },
    });
    // Nothing left to judge on the task: no results, no verdict.
    expect((await post(`/api/v1/inspection-task/start/${first.id}`)).status).toBe(409);

    // The overridden first article is no first article: the next report is sent for 首检, and bulk
    // production waits for it.
    const g2 = await approved(w.grind, w.card, 10);
    const second = await taskOf(g2);
    expect(second).toMatchObject({ status: 'pending', checkKind: 'first' });
    expect((await report(w.grind, w.card, 20)).status).toBe(409);
    ok(
      await t.call('PUT', `/api/v1/inspection-task/results/${second.id}`, {
        token,
        body: {
          results: [1, 2].map((n) => ({ taskItemId: second.items[0].id, sampleNo: n, value: '19.995' })),
        },
      }),
    );
    ok(await post(`/api/v1/inspection-task/pass/${second.id}`));
    // The inspection's result posts the report it waited for, and says so in the audit trail.
    expect((await get(`/api/v1/work-report/info/${g2}`)).status).toBe('posted');
    expect((await auditOf('work-report', g2)).at(-1)).toMatchObject({
      action: 'inspect',
      after: { reason: `检验单 ${second.docNo} 合格` },
    });
    const g3 = await approved(w.grind, w.card, 20);
    expect((await taskOf(g3)).checkKind).toBe('patrol');
  });

  it('a failed inspection is not overridden (返工复检 or 让步接收 decide it); the operator does not override his own report', async () => {
    const w = await floor(50);
    await approved(w.turn, w.card, 50);
    const g1 = await approved(w.grind, w.card, 10);
    const task = await taskOf(g1);
    ok(
      await t.call('PUT', `/api/v1/inspection-task/results/${task.id}`, {
        token,
        body: {
          results: [1, 2].map((n) => ({ taskItemId: task.items[0].id, sampleNo: n, value: '19.980' })),
        },
      }),
    );
    ok(await post(`/api/v1/inspection-task/reject/${task.id}`, { disposition: 'rework', defectQuantity: 2 }));
    const refused = await post(`/api/v1/work-report/inspectOverride/${g1}`, { reason: '先入账' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(task.docNo);
    expect((await get(`/api/v1/work-report/info/${g1}`)).status).toBe('inspecting');
    expect((await get(`/api/v1/inspection-task/info/${task.id}`)).status).toBe('failed');

    // Maker ≠ checker: the report's own operator, holding the override, is refused.
    const r = await get(`/api/v1/work-report/info/${g1}`);
    const operator = await t.userWith([
      'production:reportRecord:list',
      'production:reportRecord:inspectOverride',
    ]);
    await sql`UPDATE work_report SET operator_id = ${operator.userId} WHERE id = ${r.id}`.execute(
      t.database.db,
    );
    ok(await post(`/api/v1/inspection-task/reinspect/${task.id}`));
    const own = await post(`/api/v1/work-report/inspectOverride/${g1}`, { reason: '先入账' }, operator.token);
    expect(own.status).toBe(409);
    expect(own.body.message).toContain('报工审核人不得为报工人');
  });
});
