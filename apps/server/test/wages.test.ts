import { FINANCE_REPORTS } from '@ringmes/domain';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockAt } from '../src/modules/finance/reports.ts';
import { fen, wageAmountsSql } from '../src/modules/finance/wages.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, downloadWorkbook, type TestApp } from './helpers.ts';
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
const put = (url: string, body: unknown = {}, as = token) => t.call('PUT', url, { token: as, body });
const get = (url: string, query: Record<string, unknown> = {}, as = token) =>
  t.call('GET', url, { token: as, query }).then(ok);

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
const sheet = (month: string, extra: Record<string, unknown> = {}) =>
  get('/api/v1/process-wage/sheet', { month, ...extra });
const row = (s: any, operatorId: number) => s.rows.find((r: any) => r.operatorId === operatorId);

describe('工序工资', () => {
  it("wage arithmetic is exact: a line keeps quantity × rate, a worker's month is rounded to the fen once", async () => {
    // good, 工废, rework and one rate for all three; the amounts as posting computes them.
    const amounts = async (rows: [string, string, string, string, string, string][]) => {
      const col = (i: number) => rows.map((r) => r[i]);
      const v = (c: string) => sql.ref(`v.${c}`);
      const r = await sql<Record<string, string>>`
        SELECT a.good_amount::text AS good, a.deduction_amount::text AS deduction, a.rework_amount::text AS rework,
               (a.good_amount - a.deduction_amount + a.rework_amount)::text AS net
          FROM unnest(${col(0)}::numeric[], ${col(1)}::numeric[], ${col(2)}::numeric[], ${col(3)}::numeric[],
                      ${col(4)}::numeric[], ${col(5)}::numeric[]) WITH ORDINALITY AS v(g, s, w, pr, dr, rr, i)
         CROSS JOIN LATERAL ${wageAmountsSql({ good: v('g'), workScrap: v('s'), rework: v('w') }, { piece: v('pr'), deduction: v('dr'), rework: v('rr') })} a
         ORDER BY v.i`.execute(t.database.db);
      return r.rows.map((x) =>
        Object.fromEntries(Object.entries(x).map(([k, a]) => [k, new Decimal(a).toString()])),
      );
    };
    // By hand: 3.3333 × 0.123457 = 0.370371 + 0.0411482181 = 0.4115192181;
    // 1.5 × 0.333333 = 0.4999995; 2.25 × 0.050505 = 0.11363625;
    // net = 0.4115192181 − 0.4999995 + 0.11363625 = 0.0251559681, paid 0.03 in the month
    // (a fen per part made it 0.41 − 0.50 + 0.11 = 0.02).
    expect(await amounts([['3.3333', '1.5', '2.25', '0.123457', '0.333333', '0.050505']])).toEqual([
      { good: '0.4115192181', deduction: '0.4999995', rework: '0.11363625', net: '0.0251559681' },
    ]);
    // Half a fen stays half a fen on the line: 1 × 0.005 and 1 × 0.015; 0.05 piece × 0.10 = 0.005.
    expect(await amounts([['1', '1', '0', '0.005', '0.015', '0']])).toEqual([
      { good: '0.005', deduction: '0.015', rework: '0', net: '-0.01' },
    ]);
    expect((await amounts([['0.05', '0', '0', '0.10', '0', '0']]))[0].good).toBe('0.005');
    const cases = fc.sample(
      fc.tuple(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 50_000_000 }),
      ),
      300,
    );
    const got = await amounts(
      cases.map(([g, s, w, rate]) => {
        const r = new Decimal(rate).div(1_000_000).toString();
        return [String(g / 10_000), String(s / 10_000), String(w / 10_000), r, r, r];
      }),
    );
    cases.forEach(([g, s, w, rate], i) => {
      // The rule: each amount is quantity × rate exactly, the net good − deduction + rework exactly.
      const r = new Decimal(rate).div(1_000_000);
      const want = [g, s, w].map((q) => new Decimal(q).div(10_000).times(r));
      const x = got[i];
      expect([x.good, x.deduction, x.rework]).toEqual(want.map(String));
      expect(new Decimal(x.net).equals(want[0].minus(want[1]).plus(want[2]))).toBe(true);
    });
    // A worker's month: the exact lines summed, rounded to the fen once, half away from zero
    // (`fen`, what the sheet and the close pay) — never the sum of per-line fens.
    const months = fc.sample(
      fc.array(
        fc.tuple(fc.integer({ min: -2_000_000, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 })),
        {
          minLength: 1,
          maxLength: 8,
        },
      ),
      100,
    );
    for (const lines of months) {
      const q = lines.map(([x]) => new Decimal(x).div(10_000).toString());
      const r = lines.map(([, y]) => new Decimal(y).div(1_000_000).toString());
      const paid = await sql<{ total: string }>`
        SELECT ${fen(sql`sum(v.q * v.r)`)}::text AS total FROM unnest(${q}::numeric[], ${r}::numeric[]) AS v(q, r)`.execute(
        t.database.db,
      );
      const exact = lines.reduce(
        (sum, [x, y]) => sum.plus(new Decimal(x).div(10_000).times(new Decimal(y).div(1_000_000))),
        new Decimal(0),
      );
      expect(paid.rows[0].total).toMatch(/^-?\d+\.\d{2}$/);
      expect(new Decimal(paid.rows[0].total).equals(exact.toDecimalPlaces(2, Decimal.ROUND_HALF_UP))).toBe(
        true,
      );
    }
  });

  // Issue 34: four reports of 0.05 piece at 0.10 元 (0.005 元 each) were paid 0.01 each. Whole
  // pieces at half a fen make the same fragments whatever a unit's 小数位数 allows.
  it('four reports of half a fen each pay 0.02 in the month, not a fen each', async () => {
    const w = await floor(100);
    const turnProcess = (await get(`/api/v1/workshop-task/info/${w.turnTask}`)).processId;
    const op = w.op.userId;
    ok(
      await post('/api/v1/process-wage/add', {
        processId: turnProcess,
        productId: w.P.id,
        validFrom: '2026-09-01',
        pieceRate: '0.005',
      }),
    );
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = ok(await report(w.dispatches[0], w.card, { reportDate: '2026-09-10', goodQuantity: 1 }));
      expect((await approve(r.id)).status).toBe('posted');
      ids.push(r.id);
    }
    // By hand: each line 1 × 0.005 = 0.005 元; the month 4 × 0.005 = 0.02 元 (4 pieces × 0.005).
    const lines = await get('/api/v1/process-wage/sheet/lines', { month: '2026-09', operatorId: op });
    expect(lines.rows.map((l: any) => l.amount)).toEqual(['0.005', '0.005', '0.005', '0.005']);
    expect(lines.amount).toBe('0.02');
    const open = await sheet('2026-09');
    expect(row(open, op)).toMatchObject({ goodQuantity: '4.0000', goodAmount: '0.02', totalAmount: '0.02' });
    // 报工统计 sums the same exact lines: 0.02 for the operator's four reports.
    const jb = await get('/api/v1/finance-report/job-booking', {
      groupBy: 'operator',
      operatorId: op,
      from: '2026-09-01',
      to: '2026-09-30',
    });
    expect(jb.totals.wage).toBe('0.02');
    // Closing pays what the sheet showed: 0.02, written once.
    const fin = await t.userWith(['finance:wage:list', 'finance:wage:edit']);
    const closed = ok(await post('/api/v1/process-wage/close', { month: '2026-09' }, fin.token));
    const closedSheet = await sheet('2026-09');
    expect(closedSheet.closed).toBe(true);
    expect(row(closedSheet, op).totalAmount).toBe('0.02');
    const mine = await sql<{ total: string }>`
      SELECT total_amount::text AS total FROM wage_sheet WHERE period = '2026-09-01' AND operator_id = ${op}`.execute(
      t.database.db,
    );
    expect(mine.rows[0].total).toBe('0.02');
    expect(closed.month).toBe('2026-09');
  });

  it('rates by date and product; the monthly sheet; closing locks the month and corrections land in the next', async () => {
    const w = await floor(100);
    const turnProcess = (await get(`/api/v1/workshop-task/info/${w.turnTask}`)).processId;
    const op = w.op.userId;
    // Rates of turning: from October, and a higher one from November; a product's own rate wins.
    const oct = ok(
      await post('/api/v1/process-wage/add', {
        processId: turnProcess,
        validFrom: '2026-10-01',
        pieceRate: '0.35',
        deductionRate: '0.5',
        reworkRate: '0.2',
      }),
    );
    ok(
      await post('/api/v1/process-wage/add', {
        processId: turnProcess,
        validFrom: '2026-11-01',
        pieceRate: '0.4',
      }),
    );
    const dup = await post('/api/v1/process-wage/add', {
      processId: turnProcess,
      validFrom: '2026-11-01',
      pieceRate: '1',
    });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('已有单价');
    ok(
      await post('/api/v1/process-wage/add', {
        processId: turnProcess,
        productId: w.P.id,
        validFrom: '2026-11-10',
        pieceRate: '0.5',
      }),
    );
    // October: 90 good × 0.35 − 3 工废 × 0.5 (2 料废 not deducted) + 5 rework × 0.2 = 31.00
    const r1 = ok(
      await report(w.dispatches[0], w.card, {
        reportDate: '2026-10-20',
        goodQuantity: 90,
        workScrapQuantity: 3,
        materialScrapQuantity: 2,
        reworkQuantity: 5,
        scrapReason: 'size',
      }),
    );
    expect((await approve(r1.id)).status).toBe('posted');
    expect((await get(`/api/v1/work-report/info/${r1.id}`)).wageAmount).toBe('31.00');
    // November 5th: 0.4 (the product's own rate starts on the 10th).
    const r2 = ok(await report(w.dispatches[0], w.card, { reportDate: '2026-11-05', goodQuantity: 3 }));
    await approve(r2.id);
    expect((await get(`/api/v1/work-report/info/${r2.id}`)).wageAmount).toBe('1.20');

    let octSheet = await sheet('2026-10');
    expect(octSheet.closed).toBe(false);
    expect(row(octSheet, op)).toMatchObject({
      goodQuantity: '90.0000',
      goodAmount: '31.50',
      workScrapQuantity: '3.0000',
      deductionAmount: '1.50',
      reworkAmount: '1.00',
      adjustmentAmount: '0.00',
      totalAmount: '31.00',
    });
    const teams = await sheet('2026-10', { groupBy: 'team' });
    expect(teams.totals.totalAmount).toBe(octSheet.totals.totalAmount);
    // Drill-down: the report behind the row.
    const lines = await get('/api/v1/process-wage/sheet/lines', { month: '2026-10', operatorId: op });
    expect(lines.rows.map((l: any) => [l.docNo, l.amount])).toEqual([[r1.docNo, '31.00']]);

    // Close October (fin user with edit); twice is a 409; a future month cannot be closed.
    const fin = await t.userWith(['finance:wage:list', 'finance:wage:edit', 'finance:wage:export']);
    const viewer = await t.userWith(['finance:wage:list']);
    expect((await post('/api/v1/process-wage/close', { month: '2026-10' }, viewer.token)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/process-wage/sheet', { query: { month: '2026-10' } })).status).toBe(
      401,
    );
    expect((await post('/api/v1/process-wage/close', { month: '2026-13' }, fin.token)).status).toBe(400);
    ok(await post('/api/v1/process-wage/close', { month: '2026-10' }, fin.token));
    const again = await post('/api/v1/process-wage/close', { month: '2026-10' }, fin.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('已结账');
    // A month not yet begun is a 409; one outside the date window (2099) a 400 naming the window.
    const next = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 7);
    const early = await post('/api/v1/process-wage/close', { month: next }, fin.token);
    expect(early.status, JSON.stringify(early.body)).toBe(409);
    expect(early.body.message).toContain('尚未到来');
    const far = await post('/api/v1/process-wage/close', { month: '2099-01' }, fin.token);
    expect(far.status).toBe(400);
    expect(far.body.errors?.[0]).toMatchObject({
      field: 'month',
      message: expect.stringContaining('结账月份须在 2000-01 至'),
    });
    expect((await post('/api/v1/process-wage/close', { month: '1900-01' }, fin.token)).status).toBe(400);

    // A rate never rewrites a closed month: no new rate starting in it, no edit of one in it.
    const late = await post('/api/v1/process-wage/add', {
      processId: turnProcess,
      validFrom: '2026-10-15',
      pieceRate: '9',
    });
    expect(late.status).toBe(400);
    expect(late.body.errors?.[0].field).toBe('validFrom');
    const edit = await put(`/api/v1/process-wage/edit/${oct.id}`, {
      processId: oct.processId,
      validFrom: oct.validFrom,
      pieceRate: '9',
      version: oct.version,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(409);
    expect(edit.body.message).toContain('已结账');

    // Taking r1 back after closing: October stays as closed; November gets the reversal.
    ok(await post(`/api/v1/work-report/unapprove/${r1.id}`, { reason: '数量录错' }));
    octSheet = await sheet('2026-10');
    expect(octSheet.closed).toBe(true);
    expect(row(octSheet, op).totalAmount).toBe('31.00');
    let nov = await sheet('2026-11');
    expect(row(nov, op)).toMatchObject({
      goodAmount: '1.20',
      adjustmentAmount: '-31.00',
      totalAmount: '-29.80',
    });
    // Posting it again (still at October's rate) lands in November too, as an adjustment.
    await approve(r1.id);
    nov = await sheet('2026-11');
    expect(row(nov, op)).toMatchObject({ goodAmount: '1.20', adjustmentAmount: '0.00', totalAmount: '1.20' });
    const novLines = await get('/api/v1/process-wage/sheet/lines', { month: '2026-11', operatorId: op });
    expect(novLines.rows.map((l: any) => [l.docNo, l.kind, l.amount]).sort()).toEqual(
      [
        [r1.docNo, 'adjustment', '-31.00'],
        [r1.docNo, 'adjustment', '31.00'],
        [r2.docNo, 'report', '1.20'],
      ].sort(),
    );
    const oLines = await get('/api/v1/process-wage/sheet/lines', { month: '2026-10', operatorId: op });
    expect(oLines.total).toBe(1);

    // The monthly sums the open sheet reads agree with the lines, line for line.
    const drift = await sql`
      SELECT period, operator_id FROM (SELECT period, operator_id, sum(amount) AS a, count(*)::int AS n
                                         FROM piece_wage GROUP BY 1, 2) p
        FULL JOIN wage_month w USING (period, operator_id)
       WHERE p.a IS DISTINCT FROM w.total_amount OR p.n IS DISTINCT FROM w.line_count`.execute(t.database.db);
    expect(drift.rows).toEqual([]);

    // Excel in the payroll layout.
    const { fileName } = ok(
      await t.call('GET', '/api/v1/process-wage/sheet/export', {
        token: fin.token,
        query: { month: '2026-10' },
      }),
    );
    const wb = await downloadWorkbook(t, fin.token, fileName);
    const ws = wb.worksheets[0];
    expect(ws.getRow(2).values).toEqual([
      undefined,
      '工号',
      '姓名',
      '班组',
      '计件金额',
      '工废扣款',
      '返工',
      '调整',
      '应发合计',
    ]);
    expect(viewer.token).toBeTruthy();
    expect(
      (
        await t.call('GET', '/api/v1/process-wage/sheet/export', {
          token: viewer.token,
          query: { month: '2026-10' },
        })
      ).status,
    ).toBe(403);

    // Reports on the same facts: 报工统计 of the operator, 生产报表's labour of the order.
    const jb = await get('/api/v1/finance-report/job-booking', {
      groupBy: 'operator',
      operatorId: op,
      from: '2026-10-01',
      to: '2026-11-30',
    });
    expect(jb.totals).toMatchObject({
      reports: '2',
      good: '93.0000',
      workScrap: '3.0000',
      materialScrap: '2.0000',
    });
    expect(jb.totals.passRate).toBe('94.90'); // 93 / 98
    const pr = await get('/api/v1/finance-report/production-report', { groupBy: 'order' });
    const mine = pr.rows.find((r: any) => r.key === String(w.order.id));
    expect(mine.laborCost).toBe('32.20');
    const detail = await get('/api/v1/finance-report/job-booking/detail', {
      groupBy: 'operator',
      key: String(op),
      from: '2026-10-01',
    });
    expect(detail.rows.map((r: any) => r.docNo).sort()).toEqual([r1.docNo, r2.docNo].sort());
    expect(detail.rows[0].docResource).toBe('work-report');
    const bad = await t.call('GET', '/api/v1/finance-report/job-booking', {
      token,
      query: { groupBy: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect((await t.call('GET', '/api/v1/finance-report/sales-report', { token: viewer.token })).status).toBe(
      403,
    );
  });
});

describe('财务报表', () => {
  it('every report answers each grouping, its drill-down and its export', async () => {
    for (const def of FINANCE_REPORTS) {
      for (const g of def.groups) {
        const r = await get(`/api/v1/finance-report/${def.name}`, { groupBy: g.value, from: '2026-01-01' });
        expect(Array.isArray(r.rows), def.name).toBe(true);
        for (const m of def.measures) expect(m.name in r.totals, `${def.name}.${m.name}`).toBe(true);
        const d = await get(`/api/v1/finance-report/${def.name}/detail`, {
          groupBy: g.value,
          key: r.rows[0]?.key ?? '0',
          pageSize: 5,
        });
        expect(d.total).toBeGreaterThanOrEqual(0);
      }
      const x = ok(await t.call('GET', `/api/v1/finance-report/${def.name}/export`, { token }));
      expect(x.fileName).toBeTruthy();
    }
    const bad = await t.call('GET', '/api/v1/finance-report/sales-report', {
      token,
      query: { from: '2026-05-01', to: '2026-04-01' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('开始日期不能晚于结束日期');
  });
});

describe('库存报表 at a date', () => {
  it('stock at any date from the monthly rollup equals summing the ledger (property)', async () => {
    const mats = [await f.create('material-info'), await f.create('material-info')];
    const whs = [
      await f.create('warehouse-management', { status: '1' }),
      await f.create('warehouse-management', { status: '1' }),
    ];
    const db = t.database.db;
    const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            m: fc.integer({ min: 0, max: 1 }),
            w: fc.integer({ min: 0, max: 1 }),
            d: fc.integer({ min: 0, max: 500 }),
            q: fc.integer({ min: -5000, max: 5000 }).filter((x) => x !== 0),
            c: fc.integer({ min: 1, max: 99999 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 520 }),
        async (moves, at) => {
          for (const x of moves) {
            const q = new Decimal(x.q).div(100);
            const cost = new Decimal(x.c).div(1000);
            await sql`
              INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no, biz_date)
              VALUES (${mats[x.m].id}, ${whs[x.w].id}, ${q.toString()}, ${cost.toString()},
                      ${q.times(cost).toDecimalPlaces(2).toString()}, 'test', 'test', 1, 'T1', ${day(x.d)})`.execute(
              db,
            );
          }
          const date = day(at);
          const ids = mats.map((m) => m.id);
          const fromRollup = await sql<{ q: string; a: string }>`
            SELECT COALESCE(sum(quantity), 0)::text AS q, COALESCE(sum(amount), 0)::text AS a
              FROM (${stockAt(date)}) s WHERE material_id = ANY(${ids}::bigint[])`.execute(db);
          const direct = await sql<{ q: string; a: string }>`
            SELECT COALESCE(sum(quantity), 0)::text AS q, COALESCE(sum(amount), 0)::text AS a FROM stock_ledger
             WHERE biz_date <= ${date}::date AND material_id = ANY(${ids}::bigint[])`.execute(db);
          expect(new Decimal(fromRollup.rows[0].q).equals(direct.rows[0].q)).toBe(true);
          expect(new Decimal(fromRollup.rows[0].a).equals(direct.rows[0].a)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
    // Over HTTP, by warehouse: the report's totals for one warehouse at a date = the ledger's.
    const date = day(250);
    const rep = await get('/api/v1/finance-report/inventory-report', {
      date,
      groupBy: 'material',
      warehouseId: whs[0].id,
    });
    const direct = await sql<{ q: string; a: string }>`
      SELECT COALESCE(sum(quantity), 0)::text AS q, COALESCE(sum(amount), 0)::text AS a FROM stock_ledger
       WHERE biz_date <= ${date}::date AND warehouse_id = ${whs[0].id}`.execute(db);
    // The quantity comes per unit (the materials have units of their own): the units' sums together.
    const quantity = (rep.totals.units.quantity as { quantity: string }[]).reduce(
      (s, u) => s.plus(u.quantity),
      new Decimal(0),
    );
    expect(quantity.equals(direct.rows[0].q)).toBe(true);
    expect(new Decimal(rep.totals.value).equals(direct.rows[0].a)).toBe(true);
  });
});

describe('反结账 and closing under concurrent posting', () => {
  it('reopens only the latest closed month, with its own permission and a reason; the snapshot goes, the lines stay', async () => {
    const w = await floor(50);
    const op = w.op.userId;
    const fin = await t.userWith(['finance:wage:list', 'finance:wage:edit']);
    const boss = await t.userWith(['finance:wage:list', 'finance:wage:reopen']);
    // October is closed (earlier here, or now); November holds a report of 10 × 0.15.
    await post('/api/v1/process-wage/close', { month: '2026-10' }, fin.token);
    const r1 = ok(await report(w.dispatches[0], w.card, { reportDate: '2026-11-12', goodQuantity: 10 }));
    await approve(r1.id);
    ok(await post('/api/v1/process-wage/close', { month: '2026-11' }, fin.token));
    const closed = await sheet('2026-11');
    expect(closed.closed).toBe(true);
    expect(row(closed, op).totalAmount).toBe('1.50');

    const reopen = (month: string, reason: unknown, as = boss.token) =>
      post('/api/v1/process-wage/reopen', { month, reason }, as);
    expect((await reopen('2026-11', '改错', fin.token)).status).toBe(403);
    const noReason = await reopen('2026-11', '  ');
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toContain('反结账原因');
    const older = await reopen('2026-10', '改错');
    expect(older.status).toBe(409);
    expect(older.body.message).toContain('最近一个已结账月份（2026-11）');
    expect((await reopen('2026-12', '改错')).status).toBe(409);

    ok(await reopen('2026-11', '漏报工需补录'));
    let nov = await sheet('2026-11');
    expect(nov.closed).toBe(false);
    expect(row(nov, op).totalAmount).toBe('1.50');
    const snap = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM wage_sheet WHERE period = '2026-11-01'`.execute(t.database.db);
    expect(snap.rows[0].n).toBe(0);
    const log = await sql<{ reason: string; userId: number }>`
      SELECT after_data->>'reason' AS reason, user_id FROM audit_log
       WHERE entity = 'wage-period' AND entity_id = '2026-11' AND action = 'reopen'`.execute(t.database.db);
    expect(log.rows).toEqual([{ reason: '漏报工需补录', userId: boss.userId }]);
    // A report posted now lands in November itself, not as an adjustment of December.
    const r2 = ok(await report(w.dispatches[0], w.card, { reportDate: '2026-11-13', goodQuantity: 5 }));
    await approve(r2.id);
    const lines = await get('/api/v1/process-wage/sheet/lines', { month: '2026-11', operatorId: op });
    expect(lines.rows.map((l: any) => [l.docNo, l.kind, l.amount])).toEqual([
      [r1.docNo, 'report', '1.50'],
      [r2.docNo, 'report', '0.75'],
    ]);

    // Closing again while reports are posted at the same moment: the close never fails for
    // them, and the snapshot holds exactly the lines that landed in November.
    const more = [];
    for (let i = 0; i < 4; i++) {
      const r = ok(await report(w.dispatches[0], w.card, { reportDate: '2026-11-14', goodQuantity: 2 }));
      ok(await post(`/api/v1/work-report/submit/${r.id}`));
      more.push(r.id as number);
    }
    const [closing, ...posted] = await Promise.all([
      post('/api/v1/process-wage/close', { month: '2026-11' }, fin.token),
      ...more.map((id) => post(`/api/v1/work-report/approve/${id}`)),
    ]);
    expect(closing.status, JSON.stringify(closing.body)).toBe(200);
    for (const p of posted) expect(p.status, JSON.stringify(p.body)).toBe(200);
    nov = await sheet('2026-11');
    const inNov = await sql<{ a: string }>`
      SELECT sum(amount)::text AS a FROM piece_wage WHERE period = '2026-11-01' AND operator_id = ${op}`.execute(
      t.database.db,
    );
    // The worker's November paid once, to the fen (these lines are whole fen: the same figure).
    expect(row(nov, op).totalAmount).toBe(new Decimal(inNov.rows[0].a).toFixed(2, Decimal.ROUND_HALF_UP));
    const all = await sql<{ a: string }>`
      SELECT sum(amount)::text AS a FROM piece_wage WHERE work_report_id = ANY(${more}::bigint[])`.execute(
      t.database.db,
    );
    expect(new Decimal(all.rows[0].a).toString()).toBe('1.2'); // 4 × 2 × 0.15, in November or as December's adjustment
    // Back to October once November is open again.
    ok(await reopen('2026-11', '再次调整'));
    ok(await reopen('2026-10', '十月补录'));
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a close waiting for a posting never makes later postings queue behind it (no lock cycle)',
    async () => {
      const fin = await t.userWith(['finance:wage:list', 'finance:wage:edit']);
      const db = t.database.db;
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      // A posting in progress holds the closing lock shared.
      const holder = db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock_shared(7312031)`.execute(trx);
        locked();
        await held;
      });
      await isLocked;
      const closing = post('/api/v1/process-wage/close', { month: '2026-08' }, fin.token);
      await new Promise((r) => setTimeout(r, 300));
      // Another posting takes it at once: a queued exclusive request would have made it wait, and
      // a posting that then needed its row locks would close a deadlock.
      const second = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL lock_timeout = '1s'`.execute(trx);
        await sql`SELECT pg_advisory_xact_lock_shared(7312031)`.execute(trx);
        return 'posted';
      });
      expect(second).toBe('posted');
      release();
      await holder;
      const r = await closing;
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    },
  );
});
