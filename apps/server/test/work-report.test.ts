import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { shopFloor } from './shop-floor.ts';
import { stockInvariantViolations } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  await f.create('warehouse-management', { type: 'finished', status: '1' });
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}, as = token) => t.call('POST', url, { token: as, body });
const get = (url: string, as = token) => t.call('GET', url, { token: as }).then(ok);

/** The shop floor of these tests (test/shop-floor.ts): turning, then grinding flagged for inspection. */
const floor = (quantity = 100) => shopFloor(t, f, token, { quantity });

const report = (dispatchId: number, flowCardId: number, extra: Record<string, unknown> = {}, as = token) =>
  post(
    '/api/v1/work-report/add',
    { dispatchId, flowCardId, reportDate: '2026-11-04', goodQuantity: 0, ...extra },
    as,
  );
const approve = async (id: number) => {
  ok(await post(`/api/v1/work-report/submit/${id}`));
  return ok(await post(`/api/v1/work-report/approve/${id}`));
};
const step = (card: any, seq: number) => card.steps.find((s: any) => s.seq === seq);
const balance = async (materialId: number) =>
  Number(
    (
      await sql<{
        q: string;
      }>`SELECT COALESCE(sum(quantity), 0)::text AS q FROM stock_balance WHERE material_id = ${materialId}`.execute(
        t.database.db,
      )
    ).rows[0].q,
  );

describe('报工: report, approve, post, and take it all back', () => {
  it('posting moves good pieces on, counts progress and wages; the last step receives the bearings; 反审核 undoes every quantity', async () => {
    const w = await floor(100);
    const r1 = ok(
      await report(w.dispatches[0], w.card, {
        goodQuantity: 95,
        workScrapQuantity: 2,
        materialScrapQuantity: 1,
        scrapReason: 'size',
        reworkQuantity: 2,
        hours: '3.5',
      }),
    );
    expect(r1).toMatchObject({
      status: 'draft',
      seq: 10,
      workshopType: 'machine',
      productionOrderId: w.order.id,
    });
    expect(r1.docNo).toMatch(/^BG20261104-\d{4}$/);
    ok(await post(`/api/v1/work-report/submit/${r1.id}`));
    const submitted = await get(`/api/v1/work-report/info/${r1.id}`);
    const approved = ok(await post(`/api/v1/work-report/approve/${r1.id}`));
    // The posting writes the state with its own columns (one row write): stamped as a transition.
    const stored = await get(`/api/v1/work-report/info/${r1.id}`);
    expect(approved).toMatchObject({ status: 'posted', version: submitted.version + 1 });
    expect(stored).toMatchObject({ status: 'posted', version: approved.version, wageAmount: '14.25' });
    expect(stored.updatedBy).toBeTruthy();
    expect(stored.updatedAt >= submitted.updatedAt).toBe(true);
    let card = await get(`/api/v1/flow-card/card/${w.card}`);
    expect(step(card, 10)).toMatchObject({
      goodQuantity: '95.0000',
      workScrapQuantity: '2.0000',
      reworkQuantity: '2.0000',
    });
    expect(step(card, 20).inputQuantity).toBe('95.0000');
    // Turning's semi-finished: the 95 pieces waiting at grinding.
    const semi = ok(
      await t.call('GET', '/api/v1/flow-card/semi', { token, query: { workshopType: 'machine' } }),
    );
    expect(semi.list.find((x: any) => x.cardId === w.card)).toMatchObject({
      quantity: '95.0000',
      nextSeq: 20,
    });
    const stranger = await t.userWith(['production:grindingSemi:list']);
    const refused = await t.call('GET', '/api/v1/flow-card/semi', {
      token: stranger.token,
      query: { workshopType: 'machine' },
    });
    expect(refused.status).toBe(403);
    expect(card.currentSeq).toBe(10); // two pieces are still in rework at turning
    expect(await get(`/api/v1/workshop-task/info/${w.turnTask}`)).toMatchObject({
      completedQuantity: '95.0000',
      scrapQuantity: '3.0000',
    });
    expect((await get(`/api/v1/work-dispatch/info/${w.dispatches[0]}`)).reportedQuantity).toBe('95.0000');
    const wage = await sql<{
      amount: string;
    }>`SELECT trim_scale(amount)::text AS amount FROM piece_wage WHERE work_report_id = ${r1.id}`.execute(
      t.database.db,
    );
    expect(wage.rows[0].amount).toBe('14.25'); // the exact line: 95 × 0.15
    // Grinding cannot report more than arrived.
    const over = await report(w.dispatches[1], w.card, { goodQuantity: 96 });
    expect(over.status).toBe(409);
    expect(over.body.message).toContain('最多还可报 95');
    // Grinding is inspected before it is posted; its posting receives the bearings.
    const r2 = ok(
      await report(w.dispatches[1], w.card, { goodQuantity: 90, workScrapQuantity: 5, scrapReason: 'burn' }),
    );
    expect((await approve(r2.id)).status).toBe('inspecting');
    expect(await balance(w.P.id)).toBe(0);
    ok(await post(`/api/v1/work-report/inspectOverride/${r2.id}`, { reason: '质量部批准先行入账' }));
    const posted = await get(`/api/v1/work-report/info/${r2.id}`);
    expect(posted).toMatchObject({ status: 'posted', wageAmount: '18.00' });
    expect(posted.stockInboundId).toBeTruthy();
    expect(await balance(w.P.id)).toBe(90);
    expect((await get(`/api/v1/production-order/info/${w.order.id}`)).producedQuantity).toBe('90.0000');
    // Turning cannot be taken back while grinding has reported what it received.
    const early = await post(`/api/v1/work-report/unapprove/${r1.id}`, { reason: '录错' });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('下道工序已报工');
    // Take it all back, last step first: every quantity returns.
    ok(await post(`/api/v1/work-report/unapprove/${r2.id}`, { reason: '检验复判' }));
    expect(await balance(w.P.id)).toBe(0);
    ok(await t.call('DELETE', `/api/v1/work-report/delete/${r2.id}`, { token }));
    ok(await post(`/api/v1/work-report/unapprove/${r1.id}`, { reason: '录错' }));
    card = await get(`/api/v1/flow-card/card/${w.card}`);
    for (const s of card.steps) {
      expect(Number(s.goodQuantity) + Number(s.workScrapQuantity) + Number(s.materialScrapQuantity)).toBe(0);
    }
    expect(step(card, 20).inputQuantity).toBe('0.0000');
    expect(step(card, 10).inputQuantity).toBe('100.0000');
    expect(await get(`/api/v1/workshop-task/info/${w.turnTask}`)).toMatchObject({
      completedQuantity: '0.0000',
      scrapQuantity: '0.0000',
    });
    expect((await get(`/api/v1/production-order/info/${w.order.id}`)).producedQuantity).toBe('0.0000');
    const wages = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM piece_wage WHERE production_order_id = ${w.order.id}`.execute(
      t.database.db,
    );
    expect(wages.rows[0].n).toBe(0);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('the card follows its pieces: its current step moves on, it completes with its last step, 反审核 opens it again', async () => {
    const w = await floor(50);
    const card = () => get(`/api/v1/flow-card/card/${w.card}`);
    const r1 = ok(await report(w.dispatches[0], w.card, { goodQuantity: 50 }));
    expect((await approve(r1.id)).status).toBe('posted');
    expect(await card()).toMatchObject({ status: 'open', currentSeq: 20 });
    const r2 = ok(
      await report(w.dispatches[1], w.card, { goodQuantity: 49, workScrapQuantity: 1, scrapReason: 'burn' }),
    );
    expect((await approve(r2.id)).status).toBe('inspecting');
    expect(await card()).toMatchObject({ status: 'open', currentSeq: 20 });
    ok(await post(`/api/v1/work-report/inspectOverride/${r2.id}`, { reason: '质量部批准先行入账' }));
    expect(await card()).toMatchObject({ status: 'completed', currentSeq: 20 });
    ok(await post(`/api/v1/work-report/unapprove/${r2.id}`, { reason: '检验复判' }));
    expect(await card()).toMatchObject({ status: 'open', currentSeq: 20 });
  });

  it('two operators reporting the last pieces at once: exactly one gets them', async () => {
    const w = await floor(100);
    ok(await report(w.dispatches[0], w.card, { goodQuantity: 60 }));
    const both = await Promise.all([
      report(w.dispatches[0], w.card, { goodQuantity: 40 }),
      report(w.dispatches[0], w.card, { goodQuantity: 40 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('the operator reports his own dispatch from the sheet; bad input is a Chinese 400', async () => {
    const w = await floor(20);
    const mine = ok(
      await post(
        `/api/v1/work-dispatch/report/${w.dispatches[0]}`,
        { flowCardId: w.card, goodQuantity: 18, workScrapQuantity: 1, scrapReason: 'setup' },
        w.op.token,
      ),
    );
    expect(mine).toMatchObject({ status: 'submitted', operatorId: w.op.userId, goodQuantity: '18.0000' });
    // His sheet and queue count it at once, apart from what is posted (待审核 until the approval).
    const sheet = async () =>
      ok(await t.call('GET', `/api/v1/work-dispatch/sheet/${w.dispatches[0]}`, { token: w.op.token }));
    const queued = async () =>
      (
        ok(
          await t.call('GET', '/api/v1/work-dispatch/mine', {
            token: w.op.token,
            query: { workshopType: 'machine' },
          }),
        ).list as any[]
      ).find((d) => Number(d.id) === w.dispatches[0]);
    expect(await sheet()).toMatchObject({ reportedQuantity: '0.0000', pendingQuantity: '18.0000' });
    expect(await queued()).toMatchObject({ reportedQuantity: '0.0000', pendingQuantity: '18.0000' });
    ok(await post(`/api/v1/work-report/approve/${mine.id}`));
    expect(await sheet()).toMatchObject({ reportedQuantity: '18.0000', pendingQuantity: '0' });
    expect(await queued()).toMatchObject({ reportedQuantity: '18.0000', pendingQuantity: '0' });
    const other = await t.userWith(['production:lathingOperatorTask:report']);
    const notHis = await post(
      `/api/v1/work-dispatch/report/${w.dispatches[0]}`,
      { flowCardId: w.card, goodQuantity: 1 },
      other.token,
    );
    expect(notHis.status).toBe(403);
    expect(notHis.body.message).toContain('只能操作本人的派工单');
    const grinder = await post(
      `/api/v1/work-dispatch/report/${w.dispatches[1]}`,
      { flowCardId: w.card, goodQuantity: 1 },
      w.op.token,
    );
    expect(grinder.status).toBe(403);
    const noReason = await report(w.dispatches[0], w.card, { goodQuantity: 0, workScrapQuantity: 1 });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]).toMatchObject({ field: 'scrapReason' });
    const negative = await report(w.dispatches[0], w.card, { goodQuantity: -1 });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toMatch(/[\u4e00-\u9fa5]/);
    const nothing = await report(w.dispatches[0], w.card, { goodQuantity: 0 });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toContain('至少填一项');
  });

  it('a held card (质量暂扣) takes no report: create, submit, approve and the sheet answer 409; released it moves again', async () => {
    const w = await floor(30);
    const draft = ok(await report(w.dispatches[0], w.card, { goodQuantity: 5 }));
    const submitted = ok(await report(w.dispatches[0], w.card, { goodQuantity: 5 }));
    ok(await post(`/api/v1/work-report/submit/${submitted.id}`));
    const hold = (on: boolean) =>
      sql`UPDATE flow_card SET held = ${on}, hold_reason = ${on ? '内径超差' : null} WHERE id = ${w.card}`.execute(
        t.database.db,
      );
    await hold(true);
    const refused = [
      await report(w.dispatches[0], w.card, { goodQuantity: 1 }),
      await post(`/api/v1/work-dispatch/report/${w.dispatches[0]}`, { flowCardId: w.card, goodQuantity: 1 }),
      await post(`/api/v1/work-report/submit/${draft.id}`),
      await post(`/api/v1/work-report/approve/${submitted.id}`),
    ];
    for (const r of refused) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.message).toMatch(/已质量暂扣（内径超差）/);
    }
    // Nothing moved: the reports keep their states, the card its quantities.
    expect((await get(`/api/v1/work-report/info/${draft.id}`)).status).toBe('draft');
    expect((await get(`/api/v1/work-report/info/${submitted.id}`)).status).toBe('submitted');
    expect(Number(step(await get(`/api/v1/flow-card/info/${w.card}`), 10).goodQuantity)).toBe(0);
    await hold(false);
    expect((await approve(draft.id)).status).toBe('posted');
    expect(ok(await post(`/api/v1/work-report/approve/${submitted.id}`)).status).toBe('posted');
    expect(Number(step(await get(`/api/v1/flow-card/info/${w.card}`), 10).goodQuantity)).toBe(10);
  });
});
