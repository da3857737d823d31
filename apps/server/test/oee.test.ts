import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillOeeRollup } from '../src/modules/equipment/oee.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Machine time and OEE over HTTP (issue 42 §2–3). One grinder, one day shift 08:00–16:00 with
 * 60 minutes of breaks (10:00–10:15, 12:00–12:30, 14:30–14:45): planned production time 420 min.
 * The operator starts his dispatch at 08:10 (待机 10 min), the machine breaks 09:00–09:30
 * (报修 → 修复, 故障 30 min), he pauses 13:00–13:17 for 换型/调机 (17 min) and completes at 16:00:
 * run = 420 − 10 − 30 − 17 = 363 min. The approved 报工: 160 good and 5 scrap at the step's
 * 2 standard minutes a piece = 330 ideal minutes.
 *   availability = 363 / 420 = 86.43 %, performance = 330 / 363 = 90.91 %,
 *   quality = 160 / 165 = 96.97 %, OEE = 320 / 420 = 76.19 %.
 * The operator events are made through the real 开工/暂停/继续/完工 and then moved to the
 * worked times (they are stamped with the clock).
 */
let t: TestApp;
let token: string;
let f: Factory;
let machine: Record<string, any>;
let workshopId: number;
let dispatchId: number;

const DAY = '2026-11-02';
const at = (hm: string, day = DAY) => `${day}T${hm}:00+08:00`;
const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const get = (url: string, tk = token) => t.call('GET', url, { token: tk });

const CALENDAR = {
  shifts: [
    {
      code: 'day',
      name: '白班',
      start: '08:00',
      end: '16:00',
      breaks: [
        { start: '10:00', end: '10:15' },
        { start: '12:00', end: '12:30', name: '午餐' },
        { start: '14:30', end: '14:45' },
      ],
    },
  ],
  weekdays: [1, 2, 3, 4, 5],
  holidays: [],
  workdays: [],
};

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  const db = t.database.db;
  const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
  const card = await f.create('flow-card');
  const task = ok(await get(`/api/v1/workshop-task/page?productionOrderId=${card.productionOrderId}`))
    .list[0];
  workshopId = task.workshopId;
  machine = await f.create('equipment', { workshopId, status: 'running' });
  ok(await t.call('PUT', `/api/v1/oee/calendar/${workshopId}`, { token, body: CALENDAR }));
  const admin = ok(await get(`/api/v1/sso/getUserByToken?token=${token}`)).userId;
  const { dispatches } = ok(
    await post(`/api/v1/workshop-task/dispatch/${task.id}`, {
      lines: [{ operatorId: admin, equipmentId: machine.id, quantity: 200, workDate: DAY, shift: 'day' }],
    }),
  );
  dispatchId = dispatches[0].id;
  ok(await post(`/api/v1/work-dispatch/start/${dispatchId}`));
  ok(await post(`/api/v1/work-dispatch/pause/${dispatchId}`, { reason: '换型/调机：换 6206 外圈夹具' }));
  ok(await post(`/api/v1/work-dispatch/resume/${dispatchId}`));
  ok(await post(`/api/v1/work-dispatch/complete/${dispatchId}`));
  const events = await sql<{ id: number; kind: string; reason: string | null; equipmentId: number }>`
    SELECT id::int AS id, kind, reason, equipment_id::int AS equipment_id FROM dispatch_event
     WHERE dispatch_id = ${dispatchId} ORDER BY id`.execute(db);
  expect(events.rows.map((e) => [e.kind, e.reason, e.equipmentId])).toEqual([
    ['start', null, machine.id],
    ['pause', '换型/调机：换 6206 外圈夹具', machine.id],
    ['resume', null, machine.id],
    ['complete', null, machine.id],
  ]);
  const times = [at('08:10'), at('13:00'), at('13:17'), at('16:00')];
  for (const [i, e] of events.rows.entries())
    await sql`UPDATE dispatch_event SET at = ${times[i]}::timestamptz WHERE id = ${e.id}`.execute(db);
  await sql`
    INSERT INTO equipment_repair (doc_no, status, equipment_id, fault_description, reported_at, repaired_at, downtime_minutes)
    VALUES ('BX-OEE-0001', 'confirmed', ${machine.id}, '砂轮主轴异响', ${at('09:00')}::timestamptz, ${at('09:30')}::timestamptz, 30)`.execute(
    db,
  );
  await sql`
    INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, process_id,
                             workshop_type, workshop_id, equipment_id, report_date, good_quantity, work_scrap_quantity)
    VALUES ('BG-OEE-0001', 'approved', ${dispatchId}, ${card.id}, ${task.productionOrderId}, ${task.id}, ${task.productId},
            ${task.processId}, ${task.workshopType}, ${workshopId}, ${machine.id}, ${DAY}, 160, 5)`.execute(
    db,
  );
}, 240_000);
afterAll(() => t?.close());

describe('OEE of the worked shift', () => {
  it('answers A, P, Q and OEE by hand for the machine, its workshop and the plant', async () => {
    const q = `from=${DAY}&to=${DAY}`;
    const m = ok(await get(`/api/v1/oee/summary?${q}&equipmentId=${machine.id}`)).rows;
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({
      plannedMinutes: 420,
      runMinutes: 363,
      good: 160,
      scrap: 5,
      availability: 86.43,
      performance: 90.91,
      quality: 96.97,
      oee: 76.19,
      losses: { breakdown: 30, setup: 17, idling: 10, speed: 33, defects: 10, startup: 0 },
    });
    const w = ok(await get(`/api/v1/oee/summary?${q}&workshopId=${workshopId}&level=workshop`)).rows;
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ id: workshopId, oee: 76.19 });
    const p = ok(await get(`/api/v1/oee/summary?${q}&level=plant&period=day`)).rows;
    expect(p[0]).toMatchObject({ name: '全厂', period: DAY });
  });

  it('shows the day as states with the dispatch and the repair behind them', async () => {
    const d = ok(await get(`/api/v1/oee/timeline?equipmentId=${machine.id}&day=${DAY}`));
    const shown = d.segments
      .filter((s: any) => s.state !== 'offShift')
      .map((s: any) => [s.stateLabel, s.minutes, s.reason]);
    expect(shown).toEqual([
      ['待机', 10, null],
      ['运行', 50, null],
      ['故障', 30, null],
      ['运行', 30, null],
      ['计划停机', 15, '休息'],
      ['运行', 105, null],
      ['计划停机', 30, '休息'],
      ['运行', 30, null],
      ['换型/调机', 17, '换型/调机：换 6206 外圈夹具'],
      ['运行', 73, null],
      ['计划停机', 15, '休息'],
      ['运行', 75, null],
    ]);
    expect(d.dispatches.map((x: any) => x.id)).toEqual([dispatchId]);
    expect(d.repairs.map((x: any) => x.docNo)).toEqual(['BX-OEE-0001']);
    expect(d.reports.map((x: any) => x.docNo)).toEqual(['BG-OEE-0001']);
    expect(d.oee).toBe(76.19);
  });

  it('puts the losses in a Pareto with their reasons and names the machine that loses most', async () => {
    const l = ok(await get(`/api/v1/oee/losses?from=${DAY}&to=${DAY}&workshopId=${workshopId}`));
    expect(l.pareto.map((r: any) => [r.label, r.minutes])).toEqual([
      ['速度损失', 33],
      ['故障', 30],
      ['换型/调机', 17],
      ['待机', 10],
      ['不良损失', 10],
    ]);
    expect(l.pareto.at(-1).cumulativePercent).toBe(100);
    expect(l.topMachines[0]).toMatchObject({ equipmentId: machine.id, lossMinutes: 100 });
  });

  it('exports the report to Excel', async () => {
    const r = ok(await get(`/api/v1/oee/export?from=${DAY}&to=${DAY}&equipmentId=${machine.id}`));
    expect(r.rows).toBe(1);
    expect(r.fileName).toMatch(/\.xlsx$/);
  });
});

describe('machine signals (the signed third-party API path)', () => {
  it('a machine running after a shift it had no work in is 运行(无派工); only that hour is planned time', async () => {
    const day = '2026-11-03';
    ok(
      await t.call('POST', '/api/v1/oee/signals', {
        token,
        body: {
          signals: [
            { equipmentId: machine.id, at: at('18:00', day), state: 'run', partCount: 12 },
            { equipmentId: machine.id, at: at('19:00', day), state: 'stop' },
          ],
        },
      }),
    );
    const d = ok(await get(`/api/v1/oee/timeline?equipmentId=${machine.id}&day=${day}`));
    const run = d.segments.filter((s: any) => s.state === 'runNoDispatch');
    expect(run.map((s: any) => s.minutes)).toEqual([60]);
    expect(d.signalParts).toBe(12);
    // No dispatch for the 11-03 shift and no run in it: the shift is 计划停机 (无生产任务).
    expect(d.segments.find((s: any) => s.reason === '无生产任务')?.minutes).toBe(480);
    expect(d.plannedMinutes).toBe(60);
    // The live board shows the machine's last signal.
    const board = ok(await get('/api/v1/dashboard/snapshot?scope=whole'));
    expect(board.equipment.list.find((e: any) => e.id === machine.id)).toMatchObject({
      signalState: 'stop',
      signalAt: new Date(at('19:00', day)).toISOString(),
    });
  });

  it('refuses a signal for a machine that does not exist, naming the line', async () => {
    const r = await t.call('POST', '/api/v1/oee/signals', {
      token,
      body: { signals: [{ equipmentId: 99_999_999, at: at('08:00'), state: 'run' }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('第 1 条信号的设备不存在');
  });
});

describe('settings, validation and permissions', () => {
  it('keeps a target per machine and shows the gap', async () => {
    ok(await t.call('PUT', `/api/v1/oee/machine-setting/${machine.id}`, { token, body: { oeeTarget: 85 } }));
    const m = ok(await get(`/api/v1/oee/summary?from=${DAY}&to=${DAY}&equipmentId=${machine.id}`)).rows[0];
    expect(m).toMatchObject({ target: 85, gap: -8.81 });
  });

  it('refuses a break outside its shift and a reversed range, in Chinese', async () => {
    const bad = structuredClone(CALENDAR);
    bad.shifts[0].breaks.push({ start: '17:00', end: '17:30' });
    const r = await t.call('PUT', `/api/v1/oee/calendar/${workshopId}`, { token, body: bad });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('不在班次时间内');
    const q = await get(`/api/v1/oee/summary?from=2026-11-05&to=2026-11-01`);
    expect(q.status).toBe(400);
    expect(JSON.stringify(q.body)).toContain('开始日期不能晚于结束日期');
    const long = await get(`/api/v1/oee/summary?from=2026-01-01&to=2026-12-31`);
    expect(long.status).toBe(400);
  });

  it('lets a reader read and not set; refuses a user without the permission', async () => {
    const reader = await t.userWith(['factory:oee:query']);
    ok(await get(`/api/v1/oee/summary?from=${DAY}&to=${DAY}`, reader.token));
    const put = await t.call('PUT', `/api/v1/oee/calendar/${workshopId}`, {
      token: reader.token,
      body: CALENDAR,
    });
    expect(put.status).toBe(403);
    const other = await t.userWith(['factory:equipment:list']);
    expect((await get(`/api/v1/oee/timeline?equipmentId=${machine.id}&day=${DAY}`, other.token)).status).toBe(
      403,
    );
  });
});

describe('the rollup of closed days (oee_machine_day)', () => {
  it('answers from it what the facts answer, and forgets the days a late fact changes', async () => {
    const db = t.database.db;
    const range = 'from=2026-11-01&to=2026-11-05';
    const summary = `/api/v1/oee/summary?${range}&equipmentId=${machine.id}&period=day`;
    const losses = `/api/v1/oee/losses?${range}&workshopId=${workshopId}`;
    const keptDays = async () =>
      (
        await sql<{ day: string }>`
          SELECT to_char(day, 'YYYY-MM-DD') AS day FROM oee_machine_day
           WHERE equipment_id = ${machine.id} ORDER BY day`.execute(db)
      ).rows.map((r) => r.day);
    await sql`DELETE FROM oee_machine_day`.execute(db);
    const fromFacts = ok(await get(summary));
    const lossesFromFacts = ok(await get(losses));
    expect(await keptDays()).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05']);
    expect(ok(await get(summary))).toEqual(fromFacts);
    expect(ok(await get(losses))).toEqual(lossesFromFacts);
    expect(fromFacts.rows.find((r: any) => r.period === DAY)).toMatchObject({ oee: 76.19, runMinutes: 363 });

    // A machine's signals for 11-04 arrive late: its days from 11-02 on are forgotten (a night
    // shift and any time zone), 11-04 shows the hour run, the rest stays as it was.
    ok(
      await t.call('POST', '/api/v1/oee/signals', {
        token,
        body: {
          signals: [
            { equipmentId: machine.id, at: at('18:00', '2026-11-04'), state: 'run' },
            { equipmentId: machine.id, at: at('19:00', '2026-11-04'), state: 'stop' },
          ],
        },
      }),
    );
    expect(await keptDays()).toEqual(['2026-11-01']);
    const after = ok(await get(summary));
    const day = (a: any, d: string) => a.rows.find((r: any) => r.period === d);
    expect(day(after, '2026-11-04').runMinutes).toBe(day(fromFacts, '2026-11-04').runMinutes + 60);
    for (const d of ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-05'])
      expect(day(after, d)).toEqual(day(fromFacts, d));
    expect(await keptDays()).toHaveLength(5);
  });
});

describe('the rollup filled in the background', () => {
  it('keeps the closed days of the last quarter of every machine, once', async () => {
    const db = t.database.db;
    await sql`DELETE FROM oee_machine_day`.execute(db);
    const machines = await fillOeeRollup(db);
    expect(machines).toBeGreaterThan(0);
    const kept = await sql<{ n: number; days: number }>`
      SELECT count(*)::int AS n, count(DISTINCT day)::int AS days FROM oee_machine_day
       WHERE equipment_id = ${machine.id}`.execute(db);
    expect(kept.rows[0]).toEqual({ n: 93, days: 93 });
    const summary = ok(await get(`/api/v1/oee/summary?from=${DAY}&to=${DAY}&equipmentId=${machine.id}`));
    expect(summary.rows[0]).toMatchObject({ oee: 76.19, runMinutes: 363 });
  });
});
