import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { shopFloor } from './shop-floor.ts';

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
const get = (url: string, as = token, query?: Record<string, unknown>) =>
  t.call('GET', url, { token: as, query }).then(ok);

describe('GB/T 2828.1 sampling tables', () => {
  // Values read from GB/T 2828.1-2012 表 1 and 表 2-A (正常检验一次抽样方案).
  const cases: [
    number,
    string,
    string,
    { codeLetter: string; sampleSize: number; ac: number; re: number },
  ][] = [
    [500, 'II', '2.5', { codeLetter: 'H', sampleSize: 50, ac: 3, re: 4 }],
    [500, 'II', '1.0', { codeLetter: 'H', sampleSize: 50, ac: 1, re: 2 }],
    [500, 'II', '0.65', { codeLetter: 'H', sampleSize: 80, ac: 1, re: 2 }], // ↓ to J
    [1000, 'II', '1.0', { codeLetter: 'J', sampleSize: 80, ac: 2, re: 3 }],
    [1000, 'II', '2.5', { codeLetter: 'J', sampleSize: 80, ac: 5, re: 6 }],
    [1000, 'II', '4.0', { codeLetter: 'J', sampleSize: 80, ac: 7, re: 8 }],
    [3000, 'II', '0.65', { codeLetter: 'K', sampleSize: 125, ac: 2, re: 3 }],
    [3000, 'II', '0.10', { codeLetter: 'K', sampleSize: 125, ac: 0, re: 1 }],
    [150, 'I', '4.0', { codeLetter: 'D', sampleSize: 13, ac: 1, re: 2 }], // ↓ to E
    [50000, 'III', '0.10', { codeLetter: 'P', sampleSize: 800, ac: 2, re: 3 }],
    [200, 'S-2', '6.5', { codeLetter: 'C', sampleSize: 8, ac: 1, re: 2 }], // ↓ to D
    [600000, 'III', '0.010', { codeLetter: 'R', sampleSize: 1250, ac: 0, re: 1 }], // ↑ to Q
    [10, 'II', '1.0', { codeLetter: 'B', sampleSize: 10, ac: 0, re: 1 }], // 13 ≥ lot: 100%
  ];
  it('finds the code letter, follows the arrows and answers n, Ac, Re', async () => {
    for (const [lotSize, level, aql, want] of cases) {
      const plan = await get('/api/v1/inspection-item/sampling-plan', token, { lotSize, level, aql });
      expect(plan, `${lotSize} ${level} ${aql}`).toMatchObject(want);
    }
    const letters: [number, string, string][] = [
      [2, 'II', 'A'],
      [9, 'II', 'B'],
      [1201, 'II', 'K'],
      [500001, 'II', 'Q'],
      [100, 'S-4', 'D'],
      [35001, 'S-1', 'D'],
    ];
    for (const [lotSize, level, letter] of letters) {
      const plan = await get('/api/v1/inspection-item/sampling-plan', token, { lotSize, level, aql: '1.0' });
      expect(plan.codeLetter, `${lotSize} ${level}`).toBe(letter);
    }
    const bad = await t.call('GET', '/api/v1/inspection-item/sampling-plan', {
      token,
      query: { lotSize: 100, level: 'IV', aql: '3' },
    });
    expect(bad.status).toBe(400);
  });
});

/** A grinding step flagged for inspection with a template: one measured item (20 −0.010/0) and one OK/NG item. */
async function floor(quantity = 100) {
  const { P, card, dispatches, grind, grinding } = await shopFloor(t, f, token, {
    quantity,
    heatNo: 'H1',
    operatorPermissions: ['production:lathingOperatorTask:list'],
    inspection: { boreSamples: 3, look: true },
  });
  return { P, card, dispatches, grind, grinding };
}

const report = async (dispatchId: number, flowCardId: number, goodQuantity: number) =>
  post('/api/v1/work-report/add', { dispatchId, flowCardId, reportDate: '2026-11-04', goodQuantity });
const approved = async (dispatchId: number, flowCardId: number, goodQuantity: number) => {
  const r = ok(await report(dispatchId, flowCardId, goodQuantity));
  ok(await post(`/api/v1/work-report/submit/${r.id}`));
  ok(await post(`/api/v1/work-report/approve/${r.id}`));
  return r.id as number;
};
const taskOf = async (reportId: number) => {
  const r = await sql<{
    id: number;
  }>`SELECT id FROM inspection_task WHERE work_report_id = ${reportId} ORDER BY id DESC`.execute(
    t.database.db,
  );
  return get(`/api/v1/inspection-task/info/${r.rows[0].id}`);
};
/** Values for every sample: `bore` per sample, 外观 OK. */
const enter = async (task: any, bore: (string | null)[], as = token) => {
  const [d, v] = task.items;
  const results = [
    ...bore.map((value, i) => ({ taskItemId: d.id, sampleNo: i + 1, value })),
    ...Array.from({ length: v.sampleSize }, (_, i) => ({ taskItemId: v.id, sampleNo: i + 1, ok: true })),
  ];
  return t.call('PUT', `/api/v1/inspection-task/results/${task.id}`, { token: as, body: { results } });
};

describe('报工检验: first article, hold and release', () => {
  it('a flagged step waits for its 首检; 不合格 holds the card; rework and re-inspection release it and post the report', async () => {
    const w = await floor(100);
    const r1 = await approved(w.dispatches[0], w.card, 95); // turning: not flagged, posted at once
    expect((await get(`/api/v1/work-report/info/${r1}`)).status).toBe('posted');

    const g1 = await approved(w.dispatches[1], w.card, 10);
    expect((await get(`/api/v1/work-report/info/${g1}`)).status).toBe('inspecting');
    const task = await taskOf(g1);
    expect(task).toMatchObject({
      status: 'pending',
      category: 'grinding-reporting',
      checkKind: 'first',
      sourceType: 'work-report',
      sampleSize: 3,
      flowCardId: w.card,
    });
    expect(task.items.map((i: any) => [i.itemTitle, i.lowerLimit, i.upperLimit, i.sampleSize])).toEqual([
      ['内径 d', '19.9900', '20.0000', 3],
      ['外观', null, null, 2],
    ]);

    // Bulk production before the first article passed.
    const bulk = await report(w.dispatches[1], w.card, 20);
    expect(bulk.status).toBe(409);
    expect(bulk.body.message).toContain('首检');

    // One value out of limits: the item fails as it is typed.
    const judged = ok(await enter(task, ['19.995', '19.985', '20.000']));
    expect(judged.verdict).toBe('fail');
    expect(judged.items[0]).toMatchObject({ defectCount: 1, result: 'fail' });
    expect(judged.results.find((x: any) => x.sampleNo === 2 && x.value === '19.9850').conform).toBe(false);
    expect((await get(`/api/v1/inspection-task/info/${task.id}`)).status).toBe('inspecting');
    const notPass = await post(`/api/v1/inspection-task/pass/${task.id}`);
    expect(notPass.status).toBe(409);
    expect(notPass.body.message).toContain('内径 d');
    const noDisposition = await post(`/api/v1/inspection-task/reject/${task.id}`);
    expect(noDisposition.status).toBe(400);
    const late = ok(await report(w.dispatches[0], w.card, 5)); // turning's last pieces, still a draft
    ok(await post(`/api/v1/inspection-task/reject/${task.id}`, { disposition: 'rework', defectQuantity: 1 }));

    // The card is held: nothing on it moves.
    let card = await get(`/api/v1/flow-card/info/${w.card}`);
    expect(card).toMatchObject({ held: true });
    const added = await report(w.dispatches[0], w.card, 5);
    expect(added.status).toBe(409);
    expect(added.body.message).toContain('暂扣');
    const submitted = await post(`/api/v1/work-report/submit/${late.id}`);
    expect(submitted.status).toBe(409);
    expect(submitted.body.message).toContain('暂扣');
    expect((await get(`/api/v1/work-report/info/${g1}`)).status).toBe('inspecting');

    // Rework, then re-inspect: passes, releases the card and posts the report.
    ok(await post(`/api/v1/inspection-task/reinspect/${task.id}`));
    const again = await get(`/api/v1/inspection-task/info/${task.id}`);
    expect(again.status).toBe('pending');
    expect(ok(await enter(again, ['19.995', '19.992', '20.000'])).verdict).toBe('pass');
    ok(await post(`/api/v1/inspection-task/pass/${task.id}`));
    expect(await get(`/api/v1/inspection-task/info/${task.id}`)).toMatchObject({
      status: 'passed',
      result: 'pass',
    });
    card = await get(`/api/v1/flow-card/info/${w.card}`);
    expect(card.held).toBe(false);
    expect((await get(`/api/v1/work-report/info/${g1}`)).status).toBe('posted');

    // The first article passed: bulk production may be reported (a 巡检 task follows).
    const g2 = await approved(w.dispatches[1], w.card, 20);
    expect((await taskOf(g2)).checkKind).toBe('patrol');
    ok(await post(`/api/v1/work-report/submit/${late.id}`));
    expect(ok(await post(`/api/v1/work-report/approve/${late.id}`)).status).toBe('posted');
  });

  it('让步接收 needs its permission and a reason; a stranger to the workshop sees nothing', async () => {
    const w = await floor(50);
    await approved(w.dispatches[0], w.card, 50);
    const g1 = await approved(w.dispatches[1], w.card, 10);
    const task = await taskOf(g1);
    const inspector = await t.userWith([
      'quality:grindingReporting:list',
      'quality:grindingReporting:inspect',
    ]);
    ok(await enter(task, ['19.980', '20.000', '20.000'], inspector.token));
    const refused = await post(
      `/api/v1/inspection-task/concede/${task.id}`,
      { reason: '客户同意' },
      inspector.token,
    );
    expect(refused.status).toBe(403);
    const noReason = await post(`/api/v1/inspection-task/concede/${task.id}`);
    expect(noReason.status).toBe(400);
    ok(await post(`/api/v1/inspection-task/concede/${task.id}`, { reason: '偏差 0.01，客户书面同意' }));
    expect(await get(`/api/v1/inspection-task/info/${task.id}`)).toMatchObject({
      status: 'conceded',
      result: 'concession',
      statusReason: '偏差 0.01，客户书面同意',
    });
    expect((await get(`/api/v1/work-report/info/${g1}`)).status).toBe('posted');

    const lathe = await t.userWith(['quality:latheIncoming:list', 'quality:latheIncoming:inspect']);
    const page = await get('/api/v1/inspection-task/page', lathe.token, { pageSize: 100 });
    expect(page.list.every((x: any) => x.category === 'machine-incoming')).toBe(true);
    const save = await enter(task, ['20'], lathe.token);
    expect(save.status).toBe(403);
    // Validation: a value that is not a number, a sample beyond the sample size.
    const g2 = await approved(w.dispatches[1], w.card, 10);
    const t2 = await taskOf(g2);
    const badValue = await t.call('PUT', `/api/v1/inspection-task/results/${t2.id}`, {
      token,
      body: { results: [{ taskItemId: t2.items[0].id, sampleNo: 1, value: '2O.0' }] },
    });
    expect(badValue.status).toBe(400);
    const beyond = await t.call('PUT', `/api/v1/inspection-task/results/${t2.id}`, {
      token,
      body: { results: [{ taskItemId: t2.items[0].id, sampleNo: 4, value: '20' }] },
    });
    expect(beyond.status).toBe(400);
    const item = await post('/api/v1/inspection-item/add', {
      code: 'X1',
      name: '外径',
      kind: 'measure',
      samplingMode: 'fixed',
      sampleSize: 1,
    });
    expect(item.status).toBe(400);
    expect(item.body.errors?.[0].field).toBe('nominal');
  });
});

async function store() {
  const wh = await f.create('warehouse-management', { type: 'raw', status: '1' });
  return wh.id as number;
}
const stockOf = async (materialId: number) =>
  (
    await sql<{ qualityStatus: string; q: string }>`
      SELECT quality_status, sum(quantity)::text AS q FROM stock_balance WHERE material_id = ${materialId}
       GROUP BY quality_status ORDER BY quality_status`.execute(t.database.db)
  ).rows.filter((r) => Number(r.q) !== 0);

describe('来料检验 and the shipment gate', () => {
  it('a purchase receipt received 待检 is released to 合格 or held as 不合格 by its inspection', async () => {
    const warehouseId = await store();
    const m1 = await f.create('material-info');
    const m2 = await f.create('material-info');
    const receipt = ok(
      await post('/api/v1/stock-inbound/add', {
        type: 'purchase',
        warehouseId,
        bizDate: '2026-11-05',
        lines: [
          { materialId: m1.id, quantity: 60, batchNo: 'L1', qualityStatus: 'pending' },
          { materialId: m2.id, quantity: 40, batchNo: 'L2', qualityStatus: 'pending' },
        ],
      }),
    );
    ok(await post(`/api/v1/stock-inbound/post/${receipt.id}`));
    expect(await stockOf(m1.id)).toEqual([{ qualityStatus: 'pending', q: '60.0000' }]);
    const tasks = await sql<{ id: number; productId: number }>`
      SELECT id, product_id FROM inspection_task WHERE stock_inbound_id = ${receipt.id} ORDER BY product_id`.execute(
      t.database.db,
    );
    expect(tasks.rows).toHaveLength(2);
    const [t1, t2] = tasks.rows.map((r) => Number(r.id));
    ok(await post(`/api/v1/inspection-task/start/${t1}`));
    ok(await post(`/api/v1/inspection-task/pass/${t1}`));
    expect(await stockOf(m1.id)).toEqual([{ qualityStatus: 'qualified', q: '60.0000' }]);
    ok(await post(`/api/v1/inspection-task/start/${t2}`));
    ok(await post(`/api/v1/inspection-task/reject/${t2}`, { disposition: 'return' }));
    expect(await stockOf(m2.id)).toEqual([{ qualityStatus: 'rejected', q: '40.0000' }]);
    const noRework = await post(`/api/v1/inspection-task/reinspect/${t2}`);
    expect(noRework.status).toBe(409);
    // The ledger still sums to the balance.
    const drift = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM (SELECT material_id, warehouse_id, batch_no, quality_status, sum(quantity) q
        FROM stock_ledger WHERE material_id IN (${m1.id}, ${m2.id}) GROUP BY 1, 2, 3, 4) l
        FULL JOIN stock_balance b USING (material_id, warehouse_id, batch_no, quality_status)
       WHERE COALESCE(l.q, 0) <> COALESCE(b.quantity, 0) AND (l.material_id IN (${m1.id}, ${m2.id}) OR b.material_id IN (${m1.id}, ${m2.id}))`.execute(
      t.database.db,
    );
    expect(drift.rows[0].n).toBe(0);
  });

  it('with the setting on, a 销售出库 posts only after its shipment inspection passed', async () => {
    const warehouseId = await store();
    const m = await f.create('material-info');
    const inbound = ok(
      await post('/api/v1/stock-inbound/add', {
        type: 'other',
        warehouseId,
        bizDate: '2026-11-05',
        lines: [{ materialId: m.id, quantity: 30 }],
      }),
    );
    ok(await post(`/api/v1/stock-inbound/post/${inbound.id}`));
    const customer = await f.create('customer');
    const out = ok(
      await post('/api/v1/stock-outbound/add', {
        type: 'sales',
        warehouseId,
        customerId: customer.id,
        bizDate: '2026-11-06',
        lines: [{ materialId: m.id, quantity: 10 }],
      }),
    );
    ok(
      await t.call('PUT', '/api/v1/sysSetting/inspection', {
        token,
        body: { shipmentInspectionRequired: true },
      }),
    );
    const refused = await post(`/api/v1/stock-outbound/post/${out.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('出货检验');
    const { ids } = ok(await post(`/api/v1/inspection-task/for-outbound/${out.id}`));
    expect(ids).toHaveLength(1);
    expect(ok(await post(`/api/v1/inspection-task/for-outbound/${out.id}`)).ids).toHaveLength(0);
    expect(await get(`/api/v1/inspection-task/info/${ids[0]}`)).toMatchObject({
      category: 'shipment',
      sourceType: 'stock-outbound',
      lotQuantity: '10.0000',
    });
    ok(await post(`/api/v1/inspection-task/start/${ids[0]}`));
    ok(await post(`/api/v1/inspection-task/pass/${ids[0]}`));
    ok(await post(`/api/v1/stock-outbound/post/${out.id}`));
    ok(
      await t.call('PUT', '/api/v1/sysSetting/inspection', {
        token,
        body: { shipmentInspectionRequired: false },
      }),
    );
  });
});

describe('认领 and 指派', () => {
  it('an inspector claims a waiting task, another cannot take it, 指派 moves it, starting claims it', async () => {
    const w = await floor(100);
    await approved(w.dispatches[0], w.card, 100);
    const task = await taskOf(await approved(w.dispatches[1], w.card, 10));
    expect(task.assigneeId).toBeNull();
    const perms = ['quality:grindingReporting:list', 'quality:grindingReporting:inspect'];
    const qcA = await t.userWith(perms, `qa${w.card}`);
    const qcB = await t.userWith(perms, `qb${w.card}`);
    expect(ok(await post(`/api/v1/inspection-task/claim/${task.id}`, {}, qcA.token))).toMatchObject({
      assigneeId: qcA.userId,
    });
    const taken = await post(`/api/v1/inspection-task/claim/${task.id}`, {}, qcB.token);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('已指派给');
    // 指派 moves it; the list filters by assignee.
    ok(await post(`/api/v1/inspection-task/assign/${task.id}`, { assigneeId: qcB.userId }));
    const mine = await get('/api/v1/inspection-task/page', qcB.token, {
      pageNum: 1,
      pageSize: 50,
      assigneeId: qcB.userId,
    });
    expect(mine.list.map((x: any) => x.id)).toEqual([task.id]);
    const bad = await post(`/api/v1/inspection-task/assign/${task.id}`, { assigneeId: 99999999 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]?.field).toBe('assigneeId');
    // Without the inspect permission of the category: 403.
    const reader = await t.userWith(['quality:grindingReporting:list']);
    expect((await post(`/api/v1/inspection-task/claim/${task.id}`, {}, reader.token)).status).toBe(403);
    const other = await t.userWith(['quality:shipment:list', 'quality:shipment:inspect']);
    expect((await post(`/api/v1/inspection-task/claim/${task.id}`, {}, other.token)).status).toBe(403);
    // Back to the pool; starting an unassigned task claims it.
    ok(await post(`/api/v1/inspection-task/assign/${task.id}`, { assigneeId: null }));
    ok(await post(`/api/v1/inspection-task/start/${task.id}`, {}, qcA.token));
    expect((await get(`/api/v1/inspection-task/info/${task.id}`)).assigneeId).toBe(qcA.userId);
  });
});

describe('待检验 messages', () => {
  it('a new task is messaged once to those who may inspect its category, with a link to it', async () => {
    const w = await floor(100);
    const qc = await t.userWith(['quality:grindingReporting:list', 'quality:grindingReporting:inspect']);
    const elsewhere = await t.userWith(['quality:shipment:list', 'quality:shipment:inspect']);
    await approved(w.dispatches[0], w.card, 100);
    const task = await taskOf(await approved(w.dispatches[1], w.card, 10));
    const inbox = async (token: string) =>
      (await get('/api/v1/message/page', token, { pageNum: 1, pageSize: 50 })).list.filter(
        (m: any) => m.kind === 'inspection',
      );
    const mine = await inbox(qc.token);
    expect(mine.map((m: any) => m.link)).toEqual([
      `/quality-testing/grinding-reporting-detail?id=${task.id}`,
    ]);
    expect(mine[0].title).toContain(task.docNo);
    expect(await inbox(elsewhere.token)).toHaveLength(0);
  });
});

describe('巡检计划', () => {
  it('generates one 过程检验 per card waiting at a flagged step with a running dispatch, once per period', async () => {
    const w = await floor(100);
    const pending = async () =>
      (
        await get('/api/v1/inspection-task/page', token, {
          pageNum: 1,
          pageSize: 50,
          flowCardId: w.card,
          sourceType: 'schedule',
        })
      ).list as any[];
    const off = ok(
      await post('/api/v1/patrol-schedule/add', {
        name: `停用计划${w.card}`,
        workshopId: w.grinding.id,
        intervalHours: 2,
        status: '0',
      }),
    );
    ok(await post('/api/v1/patrol-schedule/run'));
    expect(await pending()).toHaveLength(0);
    const plan = ok(
      await post('/api/v1/patrol-schedule/add', {
        name: `磨加工巡检${w.card}`,
        workshopId: w.grinding.id,
        processId: w.grind.id,
        intervalHours: 2,
      }),
    );
    // The card is still at turning (not flagged): nothing.
    ok(await post('/api/v1/patrol-schedule/run'));
    expect(await pending()).toHaveLength(0);
    await approved(w.dispatches[0], w.card, 95); // the card moves on to grinding (flagged)
    ok(await post('/api/v1/patrol-schedule/run'));
    let list = await pending();
    expect(list).toHaveLength(1);
    expect(await get(`/api/v1/inspection-task/info/${list[0].id}`)).toMatchObject({
      category: 'process',
      checkKind: 'patrol',
      sourceType: 'schedule',
      patrolScheduleId: plan.id,
      processId: w.grind.id,
      lotQuantity: '95.0000',
    });
    // Idempotent within the period.
    ok(await post('/api/v1/patrol-schedule/run'));
    list = await pending();
    expect(list).toHaveLength(1);
    expect((await get(`/api/v1/patrol-schedule/info/${plan.id}`)).lastRunAt).toMatch(/^\d{4}-\d{2}-\d{2} /);
    expect((await get(`/api/v1/patrol-schedule/info/${off.id}`)).lastRunAt).toBeNull();
    // A dispatch no longer running: no patrol.
    ok(await post(`/api/v1/work-dispatch/pause/${w.dispatches[1]}`));
    await sql`DELETE FROM inspection_task WHERE id = ${list[0].id}`.execute(t.database.db);
    ok(await post('/api/v1/patrol-schedule/run'));
    expect(await pending()).toHaveLength(0);
    // Validation and permission.
    const bad = await post('/api/v1/patrol-schedule/add', {
      name: 'x',
      workshopId: w.grinding.id,
      intervalHours: 0,
    });
    expect(bad.status).toBe(400);
    const reader = await t.userWith(['quality:process:list']);
    expect((await post('/api/v1/patrol-schedule/run', {}, reader.token)).status).toBe(403);
  });
});
