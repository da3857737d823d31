import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * GB/T 2828.1 sampling over HTTP (issue 38 §1): the plan API on the two defects and bad
 * input, and the switching rules of 来料检验 per supplier × material (正常 → 加严 → 正常, → 放宽,
 * 暂停 and 恢复). Expected plans are the standard's cells (see packages/domain sampling.test.ts).
 */

let t: TestApp;
let token: string;
let f: Factory;
let warehouseId: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  warehouseId = (await f.create('warehouse-management', { type: 'raw', status: '1' })).id;
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const plan = (query: Record<string, unknown>) =>
  t.call('GET', '/api/v1/inspection-item/sampling-plan', { token, query });

describe('GET /api/v1/inspection-item/sampling-plan', () => {
  it('code letter A at AQL 10 (a lot of 5, level II) answers a plan, not 500: ↓ to C, 100 %', async () => {
    const p = ok(await plan({ lotSize: 5, level: 'II', aql: '10' }));
    expect(p).toMatchObject({
      severity: 'normal',
      table: '表 2-A',
      codeLetter: 'A',
      planLetter: 'C',
      arrow: '↓',
      tableSampleSize: 5,
      sampleSize: 5,
      ac: 1,
      re: 2,
      hundredPercent: true,
    });
  });

  it('AQL 15 at letters K–Q follows the arrow to n 80, Ac 21 / Re 22', async () => {
    for (const [lotSize, letter] of [
      [2000, 'K'],
      [5000, 'L'],
      [20000, 'M'],
      [100000, 'N'],
      [300000, 'P'],
      [600000, 'Q'],
    ] as const) {
      const p = ok(await plan({ lotSize, level: 'II', aql: '15' }));
      expect([p.codeLetter, p.planLetter, p.sampleSize, p.ac, p.re], letter).toEqual([
        letter,
        'J',
        80,
        21,
        22,
      ]);
    }
  });

  it('tightened and reduced plans by the severity parameter', async () => {
    expect(ok(await plan({ lotSize: 500, level: 'II', aql: '1.0', severity: 'tightened' }))).toMatchObject({
      table: '表 2-B',
      planLetter: 'J',
      sampleSize: 80,
      ac: 1,
      re: 2,
    });
    expect(ok(await plan({ lotSize: 500, level: 'II', aql: '1.0', severity: 'reduced' }))).toMatchObject({
      table: '表 2-C',
      planLetter: 'J',
      sampleSize: 32,
      ac: 1,
      re: 2,
    });
    // 表 2-B's extra row S (n 3150) at AQL 0.025.
    expect(
      ok(await plan({ lotSize: 200000, level: 'III', aql: '0.025', severity: 'tightened' })),
    ).toMatchObject({
      codeLetter: 'Q',
      planLetter: 'S',
      sampleSize: 3150,
      ac: 1,
      re: 2,
    });
  });

  it('bad input answers 400 with a Chinese message naming the field, never 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ lotSize: 0, level: 'II', aql: '1.0' }, 'lotSize'],
      [{ lotSize: 'abc', level: 'II', aql: '1.0' }, 'lotSize'],
      [{ lotSize: 12.5, level: 'II', aql: '1.0' }, 'lotSize'],
      [{ lotSize: 1e12, level: 'II', aql: '1.0' }, 'lotSize'],
      [{ level: 'II', aql: '1.0' }, 'lotSize'],
      [{ lotSize: 100, level: 'IV', aql: '1.0' }, 'level'],
      [{ lotSize: 100, level: 'II', aql: '3' }, 'aql'],
      [{ lotSize: 100, level: 'II', aql: '1.0', severity: 'strict' }, 'severity'],
    ];
    for (const [query, field] of cases) {
      const r = await plan(query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.code).toBe('400');
      expect(r.body.message).toMatch(/[\u4e00-\u9fff]/);
      expect(r.body.errors?.map((e: any) => e.field)).toContain(field);
    }
  });

  it('every lot-size boundary × level × AQL × severity answers 200', async () => {
    // The table's boundaries at level II and S-1, each AQL, each severity: 15 × 2 × 26 × 3 calls
    // would be slow over HTTP; the domain sweep covers them all. Here every AQL of the first and
    // last rows under each severity.
    for (const lotSize of [2, 500001])
      for (const severity of ['normal', 'tightened', 'reduced'])
        for (const aql of ['0.010', '0.015', '0.025', '10', '15', '1000'])
          ok(await plan({ lotSize, level: lotSize === 2 ? 'S-1' : 'III', aql, severity }));
  });
});

// ------------------------------------------------------------------ switching rules over the lots

interface Lot {
  taskId: number;
  severity: string | null;
  item: { id: number; sampleSize: number; acceptNumber: number; rejectNumber: number; codeLetter: string };
}

let items = 0;

/** A material whose 来料检验 template samples one 计数 item by GB/T 2828.1 (level II at `aql`). */
async function sampledMaterial(aql: string) {
  const material = await f.create('material-info');
  const item = ok(
    await post('/api/v1/inspection-item/add', {
      code: `AQL${++items}`,
      name: `外观 AQL ${aql}`,
      kind: 'count',
      samplingMode: 'aql',
      inspectionLevel: 'II',
      aql,
    }),
  );
  await f.create('inspection-template', {
    productId: material.id,
    inspectionKind: 'incoming',
    items: [{ itemId: item.id }],
  });
  return material.id as number;
}

/** A 采购入库 of `quantity` from the supplier, posted: answers its 来料检验 task. */
async function receive(supplierId: number, materialId: number, quantity = 500): Promise<Lot> {
  const inbound = ok(
    await post('/api/v1/stock-inbound/add', {
      type: 'purchase',
      warehouseId,
      supplierId,
      bizDate: '2026-11-05',
      lines: [{ materialId, quantity, qualityStatus: 'pending' }],
    }),
  );
  ok(await post(`/api/v1/stock-inbound/post/${inbound.id}`));
  const task = await sql<{ id: number; samplingSeverity: string | null }>`
    SELECT id, sampling_severity FROM inspection_task WHERE stock_inbound_id = ${inbound.id}`.execute(
    t.database.db,
  );
  const taskId = Number(task.rows[0].id);
  const items = await sql<any>`
    SELECT id, sample_size, accept_number, reject_number, code_letter FROM inspection_task_item
     WHERE inspection_task_id = ${taskId}`.execute(t.database.db);
  return {
    taskId,
    severity: task.rows[0].samplingSeverity,
    item: { ...items.rows[0], id: Number(items.rows[0].id) },
  };
}

/** Inspects a lot finding `defects` NG pieces and judges it: accepted within Ac, else 不合格 (rework). */
async function judge(lot: Lot, defects: number) {
  ok(await post(`/api/v1/inspection-task/start/${lot.taskId}`));
  const results = Array.from({ length: lot.item.sampleSize }, (_, k) => ({
    taskItemId: lot.item.id,
    sampleNo: k + 1,
    ok: k >= defects,
  }));
  ok(await t.call('PUT', `/api/v1/inspection-task/results/${lot.taskId}`, { token, body: { results } }));
  if (defects <= lot.item.acceptNumber) ok(await post(`/api/v1/inspection-task/pass/${lot.taskId}`));
  else ok(await post(`/api/v1/inspection-task/reject/${lot.taskId}`, { disposition: 'rework' }));
}

const sampling = async (taskId: number) =>
  ok(await t.call('GET', `/api/v1/inspection-task/results/${taskId}`, { token })).sampling;

describe('switching rules of 来料检验 per supplier × material', () => {
  it('正常 → 加严 on 2 of 5 lots not accepted; 加严 → 正常 after 5 accepted; per supplier', async () => {
    const supplier = await f.create('supplier');
    const other = await f.create('supplier');
    const m = await sampledMaterial('1.0');
    // Lot of 500, level II: H. Normal 表 2-A H × 1.0: n 50, 1/2.
    const l1 = await receive(supplier.id, m);
    expect(l1.severity).toBe('normal');
    expect(l1.item).toMatchObject({ sampleSize: 50, acceptNumber: 1, rejectNumber: 2, codeLetter: 'H' });
    await judge(l1, 2);
    const l2 = await receive(supplier.id, m);
    expect(l2.severity).toBe('normal');
    const before = await sampling(l2.taskId);
    expect(before.state).toMatchObject({ severity: 'normal', rejectedOfLastFive: 1 });
    expect(before.state.next).toContain('再有 1 批不接收即转加严');
    await judge(l2, 3);

    // Tightened 表 2-B H × 1.0: ↓ to J, n 80, 1/2.
    const l3 = await receive(supplier.id, m);
    expect(l3.severity).toBe('tightened');
    expect(l3.item).toMatchObject({ sampleSize: 80, acceptNumber: 1, rejectNumber: 2, codeLetter: 'J' });
    const judged = ok(await t.call('GET', `/api/v1/inspection-task/results/${l3.taskId}`, { token }));
    expect(judged.items[0]).toMatchObject({
      sampleSize: 80,
      acceptNumber: 1,
      rejectNumber: 2,
      codeLetter: 'J',
    });
    const shown = judged.sampling;
    expect(shown).toMatchObject({ severity: 'tightened', label: '加严' });
    expect(shown.source).toMatchObject({ supplierId: supplier.id, materialId: m });
    expect(shown.state.reason).toContain('转加严');

    // The same material from another supplier is a history of its own.
    expect((await receive(other.id, m)).severity).toBe('normal');

    // A reworked lot passed on re-inspection still counts as not accepted (original inspection).
    await judge(l3, 2);
    ok(await post(`/api/v1/inspection-task/reinspect/${l3.taskId}`));
    await judge(l3, 0);
    expect((await sampling(l3.taskId)).state).toMatchObject({
      consecutiveAccepted: 0,
      rejectedInTightened: 1,
    });

    for (let k = 0; k < 5; k++) {
      const lot = await receive(supplier.id, m);
      expect(lot.severity, `accepted lot ${k + 1}`).toBe('tightened');
      await judge(lot, k % 2); // 0 or 1 NG: within Ac 1
    }
    const back = await receive(supplier.id, m);
    expect(back.severity).toBe('normal');
    expect(back.item).toMatchObject({ sampleSize: 50, acceptNumber: 1 });
    expect((await sampling(back.taskId)).state.reason).toContain('恢复正常');
  });

  it('正常 → 放宽 at a switching score of 30 only with the approval setting; a rejection returns to 正常', async () => {
    const supplier = await f.create('supplier');
    // AQL 4.0 at H: normal n 50, 5/6 (Ac ≥ 2: +3 when the lot would pass at AQL 2.5, 3/4).
    const m = await sampledMaterial('4.0');
    for (let k = 0; k < 9; k++) {
      const lot = await receive(supplier.id, m);
      expect(lot.item).toMatchObject({ sampleSize: 50, acceptNumber: 5 });
      await judge(lot, k === 0 ? 4 : 3); // 4 > 3: accepted but no +3 (score 0); then 3 ≤ 3: +3
    }
    const tenth = await receive(supplier.id, m);
    expect((await sampling(tenth.taskId)).state).toMatchObject({ severity: 'normal', switchingScore: 24 });
    await judge(tenth, 0);
    const eleventh = await receive(supplier.id, m);
    expect(eleventh.severity).toBe('normal');
    await judge(eleventh, 0); // score 30, not approved: stays normal
    const noApproval = await receive(supplier.id, m);
    expect(noApproval.severity).toBe('normal');
    expect((await sampling(noApproval.taskId)).state.next).toContain('未批准');

    ok(await t.call('PUT', '/api/v1/sysSetting/sampling', { token, body: { reducedApproved: true } }));
    try {
      await judge(noApproval, 0);
      // Reduced 表 2-C H × 4.0: n 20, 3/4.
      const reduced = await receive(supplier.id, m);
      expect(reduced.severity).toBe('reduced');
      expect(reduced.item).toMatchObject({ sampleSize: 20, acceptNumber: 3, rejectNumber: 4 });
      await judge(reduced, 4);
      const normal = await receive(supplier.id, m);
      expect(normal.severity).toBe('normal');
      expect((await sampling(normal.taskId)).state).toMatchObject({ switchingScore: 0 });
    } finally {
      ok(await t.call('PUT', '/api/v1/sysSetting/sampling', { token, body: { reducedApproved: false } }));
    }
  });

  it('暂停检验 after 5 lots not accepted on tightened inspection; 恢复检验 restarts on 加严', async () => {
    const supplier = await f.create('supplier');
    const m = await sampledMaterial('1.0');
    let lot = await receive(supplier.id, m);
    for (let k = 0; k < 7; k++) {
      await judge(lot, 2);
      lot = await receive(supplier.id, m);
    }
    expect(lot.severity).toBe('tightened');
    const stopped = await sampling(lot.taskId);
    expect(stopped.state).toMatchObject({ discontinued: true, label: '暂停检验' });
    expect(stopped.state.reason).toContain('暂停检验');

    const short = await post(`/api/v1/inspection-task/sampling-resume/${lot.taskId}`, { reason: '' });
    expect(short.status).toBe(400);
    const resumed = ok(
      await post(`/api/v1/inspection-task/sampling-resume/${lot.taskId}`, { reason: '供方 8D 报告已关闭' }),
    );
    expect(resumed).toMatchObject({ severity: 'tightened', discontinued: false, rejectedInTightened: 0 });
    const again = await post(`/api/v1/inspection-task/sampling-resume/${lot.taskId}`, { reason: '再次恢复' });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('未暂停');
  });

  it('tasks other than purchase receipts are planned 正常; fixed-size tasks have no severity', async () => {
    const m = await sampledMaterial('10');
    // A lot of 5 with the AQL 10 item: letter A, ↓ to C, all 5 pieces (the first defect).
    const manual = ok(
      await post('/api/v1/inspection-task/add', {
        category: 'machine-incoming',
        productId: m,
        lotQuantity: 5,
      }),
    );
    const task = ok(await t.call('GET', `/api/v1/inspection-task/info/${manual.id}`, { token }));
    expect(task.samplingSeverity).toBe('normal');
    expect(task.items[0]).toMatchObject({ sampleSize: 5, acceptNumber: 1, rejectNumber: 2, codeLetter: 'C' });
    expect((await sampling(manual.id)).source).toBeNull();
    const fixed = await f.create('inspection-task');
    expect(
      ok(await t.call('GET', `/api/v1/inspection-task/info/${fixed.id}`, { token })).samplingSeverity,
    ).toBeNull();
  });
});
