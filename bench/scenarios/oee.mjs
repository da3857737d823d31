// Issue 42: OEE for 200 machines over a month with 1,000,000 state changes on PostgreSQL, through
// GET /api/v1/oee/summary (every machine) and GET /api/v1/oee/losses (the Pareto). The month is
// the 31 days ending four days back, so every day is closed and kept in the rollup
// oee_machine_day (migration 0078) once a query has computed it. Each machine works one dispatch
// a workday (开工 08:05, 暂停 10:30 with a reason, 继续 10:50, 完工 16:50, one approved 报工) and
// sends state signals (run / stop / fault, parts on some) all month: the operator events plus
// the signals make the state changes. The answers computed from the facts (the first call, the
// rollup emptied before) are checked equal to the answers read from the rollup.
import {
  call,
  freshPgDatabase,
  login,
  median,
  pgBackendsCpu,
  pgExec,
  processCpuMs,
  startServer,
} from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const MACHINES = Number(process.env.BENCH_OEE_MACHINES) || 200;
const CHANGES = Number(process.env.BENCH_OEE_CHANGES) || 1_000_000;
const DAYS = 31;
const CALLS = 10;
const WARMUP = 2;
const TZ = 'Asia/Shanghai';

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const localDay = (t) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);
const addDays = (d, n) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

function loadSql(from, to) {
  const at = (dayExpr, hm) => `((${dayExpr}) + time '${hm}') AT TIME ZONE '${TZ}'`;
  return [
    `INSERT INTO material_unit (code, name) VALUES ('PCS-OEE', '件')`,
    `INSERT INTO material_type (code, name, order_num) VALUES ('SEMI-OEE', '半成品', 1)`,
    `INSERT INTO material (code, name, material_type_id, unit_id, status)
       VALUES ('OEE-6204-OR', '6204 外圈', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
    `INSERT INTO process (code, name, piece_rate, standard_minutes, status) VALUES ('GXOEE', '外沟道磨削', 0.1, 1.5, '1')`,
    `INSERT INTO workshop (code, name, type) SELECT 'WSOEE' || i, '磨加工' || i || '车间', 'grinding' FROM generate_series(1, 2) i`,
    `INSERT INTO equipment (code, name, workshop_id, status)
       SELECT 'MJ-' || lpad(i::text, 3, '0'), '磨床' || i,
              (SELECT min(id) FROM workshop WHERE code LIKE 'WSOEE%') + (i % 2), 'running'
         FROM generate_series(1, ${MACHINES}) i`,
    `INSERT INTO production_order (doc_no, product_id, quantity, planned_start_date, due_date, status)
       VALUES ('SCOEE-1', (SELECT id FROM material WHERE code = 'OEE-6204-OR'), 10000000, '${from}', '${to}', 'producing')`,
    `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, planned_quantity)
       SELECT (SELECT id FROM production_order WHERE doc_no = 'SCOEE-1'), k, 10 * k, (SELECT id FROM process WHERE code = 'GXOEE'),
              w.id, 10000000
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS k FROM workshop WHERE code LIKE 'WSOEE%') w`,
    `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                                planned_quantity, standard_minutes, planned_start_date, planned_finish_date, priority, order_step_id)
       SELECT 'SCOEE-1-' || s.seq, 'started', s.production_order_id, (SELECT id FROM material WHERE code = 'OEE-6204-OR'),
              s.seq, s.process_id, 'grinding', s.workshop_id, 10000000, 1.5, '${from}', '${to}', 'normal', s.id
         FROM production_order_step s WHERE s.production_order_id = (SELECT id FROM production_order WHERE doc_no = 'SCOEE-1')`,
    `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
       SELECT 'LZOEE-1', 'open', id, product_id, 10000000, 10, 'open' FROM production_order WHERE doc_no = 'SCOEE-1'`,
    // One dispatch per machine and workday (Monday to Saturday, the default calendar's day shift).
    `INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type, workshop_id,
                                equipment_id, operator_id, work_date, shift, quantity, started_at, finished_at)
       SELECT 'PGOEE-' || e.id || '-' || to_char(d, 'YYYYMMDD'), 'completed', t.id, t.production_order_id, t.product_id,
              t.process_id, 'grinding', t.workshop_id, e.id, (SELECT min(id) FROM app_user), d, 'day', 300,
              ${at('d', '08:05')}, ${at('d', '16:50')}
         FROM equipment e JOIN workshop_task t ON t.workshop_id = e.workshop_id AND t.task_no LIKE 'SCOEE-1-%',
              generate_series('${from}'::date, '${to}'::date, interval '1 day') d
        WHERE extract(isodow FROM d) <= 6`,
    `INSERT INTO dispatch_event (dispatch_id, equipment_id, kind, reason, at)
       SELECT x.id, x.equipment_id, v.kind,
              CASE WHEN v.kind = 'pause' THEN (CASE WHEN x.id % 3 = 0 THEN '待料：外圈毛坯未到' ELSE '换型/调机：换夹具' END) END,
              (x.work_date + v.hm) AT TIME ZONE '${TZ}'
         FROM work_dispatch x,
              (VALUES ('start', time '08:05'), ('pause', time '10:30'), ('resume', time '10:50'), ('complete', time '16:50')) v(kind, hm)
        WHERE x.doc_no LIKE 'PGOEE-%'`,
    `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, process_id,
                              workshop_type, workshop_id, equipment_id, report_date, good_quantity, work_scrap_quantity)
       SELECT 'BGOEE-' || x.id, 'approved', x.id, (SELECT id FROM flow_card WHERE doc_no = 'LZOEE-1'), x.production_order_id,
              x.task_id, x.product_id, x.process_id, 'grinding', x.workshop_id, x.equipment_id, x.work_date,
              220 + x.id % 40, x.id % 5
         FROM work_dispatch x WHERE x.doc_no LIKE 'PGOEE-%'`,
    // A repair a fortnight in, on every tenth machine: two hours of 故障.
    `INSERT INTO equipment_repair (doc_no, status, equipment_id, fault_description, reported_at, repaired_at, downtime_minutes)
       SELECT 'BXOEE-' || e.id, 'confirmed', e.id, '砂轮主轴异响', ${at(`'${addDays(from, 14)}'::date`, '13:00')},
              ${at(`'${addDays(from, 14)}'::date`, '15:00')}, 120
         FROM equipment e WHERE e.code LIKE 'MJ-%' AND e.id % 10 = 0`,
    // The rest of the state changes are the machines' signals, evenly over the month round the clock.
    `INSERT INTO machine_signal (equipment_id, at, state, part_count, source)
       SELECT e.id,
              ('${from}'::date::timestamp AT TIME ZONE '${TZ}') + (k + 0.5) * (interval '${DAYS} days' / n.per),
              CASE WHEN (k + e.id) % 37 = 0 THEN 'fault' WHEN (k + e.id) % 3 = 0 THEN 'stop' ELSE 'run' END,
              CASE WHEN k % 5 = 0 THEN 7 END, 'mqtt'
         FROM equipment e,
              (SELECT (${CHANGES} - (SELECT count(*) FROM dispatch_event)) / ${MACHINES} AS per) n,
              generate_series(0, n.per - 1) k
        WHERE e.code LIKE 'MJ-%'`,
    'VACUUM ANALYZE',
  ];
}

/** CPU ms of the server process and of the database's backends, read before and after. */
let cpuProbe = async () => 0;

async function timed(base, token, url, n) {
  const ms = [];
  let body;
  const cpu0 = await cpuProbe();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await call(base, 'GET', url, { token, timeoutMs: 300_000 });
    ms.push(performance.now() - t0);
    if (r.status !== 200)
      throw new Error(`${url} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    body = r.body.result;
  }
  return { ms, body, cpuMs: ((await cpuProbe()) - cpu0) / n };
}

export default {
  name: 'oee',
  description: `OEE of ${MACHINES} machines over ${DAYS} days with ${CHANGES.toLocaleString('en')} state changes on PostgreSQL`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    // No background fill of the rollup at start: the first calls measure the computation from the facts.
    const env = {
      DATABASE_URL: db.url,
      SEED: 'minimal',
      ADMIN_PASSWORD: PASSWORD,
      TZ_DISPLAY: TZ,
      OEE_BACKFILL: '0',
    };
    let server = await startServer(ctx, env);
    await server.stop();
    const to = addDays(localDay(Date.now()), -4);
    const from = addDays(to, -(DAYS - 1));
    const t0 = performance.now();
    for (const s of loadSql(from, to)) await pgExec(db.url, s);
    const counts = (
      await pgExec(
        db.url,
        `SELECT (SELECT count(*) FROM machine_signal)::int AS signals, (SELECT count(*) FROM dispatch_event)::int AS events,
                (SELECT count(*) FROM work_report)::int AS reports, (SELECT count(*) FROM oee_machine_day)::int AS kept`,
      )
    ).rows[0];
    const changes = counts.signals + counts.events;
    ctx.log(
      `loaded ${changes} state changes (${counts.signals} signals, ${counts.events} operator events), ` +
        `${counts.reports} reports in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const backends = pgBackendsCpu(db.name);
    ctx.onCleanup(() => backends.close());
    const serverPid = server.child.pid;
    cpuProbe = async () => (processCpuMs(serverPid) ?? 0) + ((await backends.read()) ?? 0);
    const summary = `/api/v1/oee/summary?from=${from}&to=${to}&level=machine`;
    const losses = `/api/v1/oee/losses?from=${from}&to=${to}`;

    // From the facts: the rollup is empty, so the first call computes every machine day and keeps it.
    const coldSummary = await timed(server.base, token, summary, 1);
    const keptAfter = Number((await pgExec(db.url, 'SELECT count(*) AS n FROM oee_machine_day')).rows[0].n);
    await pgExec(db.url, 'TRUNCATE oee_machine_day, oee_machine_day_stop');
    const coldLosses = await timed(server.base, token, losses, 1);
    await pgExec(db.url, 'VACUUM ANALYZE oee_machine_day, oee_machine_day_stop');

    await timed(server.base, token, summary, WARMUP);
    const warmSummary = await timed(server.base, token, summary, CALLS);
    await timed(server.base, token, losses, WARMUP);
    const warmLosses = await timed(server.base, token, losses, CALLS);
    const trend = await timed(
      server.base,
      token,
      `${summary.replace('level=machine', 'level=plant')}&period=day`,
      CALLS,
    );

    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const machinesAnswered = warmSummary.body.rows.length;
    const differing =
      (same(coldSummary.body, warmSummary.body) ? 0 : 1) + (same(coldLosses.body, warmLosses.body) ? 0 : 1);
    const total = warmSummary.body.total;
    ctx.log(
      `plant OEE ${total.oee} % (A ${total.availability}, P ${total.performance}, Q ${total.quality}); ` +
        `${keptAfter} machine days kept; Pareto ${warmLosses.body.pareto.map((r) => `${r.label} ${r.minutes}`).join(', ')}`,
    );

    // A late signal (a week back) costs its posting the trigger's delete; a live one skips it.
    const lateMs = [];
    for (let i = 0; i < 10; i++) {
      const t1 = performance.now();
      const r = await call(server.base, 'POST', '/api/v1/oee/signals', {
        token,
        body: {
          signals: [
            {
              equipmentId: warmSummary.body.rows[i].id,
              at: new Date(Date.parse(`${addDays(to, -7)}T12:00:00+08:00`) + i * 1000).toISOString(),
              state: 'stop',
            },
          ],
        },
      });
      lateMs.push(performance.now() - t1);
      if (r.status !== 200) throw new Error(`signals answered ${r.status}`);
    }
    const afterLate = await timed(server.base, token, summary, 1);
    await server.stop();

    return [
      { metric: 'state changes loaded', value: changes, unit: 'rows' },
      {
        metric: 'machines in the answer',
        value: machinesAnswered,
        unit: 'rows',
        target: `= ${MACHINES}`,
        pass: machinesAnswered === MACHINES,
      },
      {
        metric: 'summary, computed from the facts (rollup empty)',
        value: Math.round(coldSummary.ms[0]),
        unit: 'ms',
      },
      {
        metric: 'losses, computed from the facts (rollup empty)',
        value: Math.round(coldLosses.ms[0]),
        unit: 'ms',
      },
      {
        metric: `summary of ${MACHINES} machines × ${DAYS} days, median`,
        value: Math.round(median(warmSummary.ms)),
        unit: 'ms',
        target: '≤ 300',
        pass: median(warmSummary.ms) <= 300,
      },
      { metric: 'summary p95', value: Math.round(pct(warmSummary.ms, 95)), unit: 'ms' },
      {
        metric: 'summary CPU per call (server + PostgreSQL)',
        value: Math.round(warmSummary.cpuMs),
        unit: 'ms',
      },
      {
        metric: 'loss Pareto, median',
        value: Math.round(median(warmLosses.ms)),
        unit: 'ms',
        target: '≤ 300',
        pass: median(warmLosses.ms) <= 300,
      },
      {
        metric: 'loss Pareto CPU per call (server + PostgreSQL)',
        value: Math.round(warmLosses.cpuMs),
        unit: 'ms',
      },
      { metric: 'plant trend by day, median', value: Math.round(median(trend.ms)), unit: 'ms' },
      {
        metric: 'answers from the rollup ≠ from the facts',
        value: differing,
        unit: 'answers',
        target: '= 0',
        pass: differing === 0,
      },
      {
        metric: 'late signal posting (forgets a week of days), median',
        value: Math.round(median(lateMs)),
        unit: 'ms',
      },
      {
        metric: 'summary after 10 late signals (10 machines × 11 days again)',
        value: Math.round(afterLate.ms[0]),
        unit: 'ms',
      },
    ];
  },
};
