// Issue 38 §2: a Phase II chart — one series of 100,000 subgroups of 5 (500,000 values) on
// PostgreSQL, plotted against its frozen limits (a revision drafted from a 10-day baseline through
// POST /api/v1/spc/limit-revision/add and approved), through GET /api/v1/spc/chart over the whole
// period: the Nelson rules over every subgroup, capability, a histogram counted in SQL, and the
// series drawn in buckets (each bucket's extremes and every flagged point). The answer is checked:
// Phase II on version 1, 100,000 subgroups, a bucketed drawing under 50,000 points, every
// violation drawn at its subgroup.
import { call, freshPgDatabase, login, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const SUBGROUPS = Number(process.env.BENCH_SPC_SUBGROUPS) || 100_000;
const CALLS = 10;
const WARMUP = 3;
const MEAN = 46.9955;

const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('SEMI', '半成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('SF-6204-OR-P6', '6204 外圈 P6', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO workshop (code, name, type) VALUES ('WS02', '磨加工车间', 'grinding')`,
  `INSERT INTO equipment (code, name, workshop_id) VALUES ('MJ-P2', '无心磨床', (SELECT id FROM workshop))`,
  // One subgroup every 5 minutes, ending an hour ago (≈ 347 days for 100,000).
  `INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, lsl, usl)
     SELECT (SELECT min(id) FROM material), 'outside-diameter', (SELECT id FROM equipment), (SELECT min(id) FROM app_user),
            date_trunc('hour', now()) - interval '1 hour' - (${SUBGROUPS} - i) * interval '5 minutes',
            ${MEAN - 0.0045}, ${MEAN + 0.0045}
       FROM generate_series(1, ${SUBGROUPS}) i`,
  `INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
     SELECT s.id, k, round((${MEAN} + 0.001 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))::numeric, 5)
       FROM measurement_subgroup s, generate_series(1, 5) k`,
  `UPDATE measurement_subgroup s
      SET sample_size = a.n, mean = round(a.m, 6), range = a.r, ss_dev = round(a.ss, 10)
     FROM (SELECT measurement_subgroup_id AS subgroup_id, count(*)::int AS n, avg(value) AS m, max(value) - min(value) AS r,
                  sum(value * value) - sum(value) * sum(value) / count(*) AS ss
             FROM measurement_value GROUP BY measurement_subgroup_id) a
    WHERE s.id = a.subgroup_id`,
  'VACUUM ANALYZE',
];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const dayOf = (t) => new Date(t + 8 * 3_600_000).toISOString().slice(0, 10);

export default {
  name: 'spc-phase2',
  description: `Phase II SPC chart over ${SUBGROUPS.toLocaleString('en')} subgroups of 5 against a frozen revision on PostgreSQL`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    const t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(`loaded ${SUBGROUPS * 5} values in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const equipmentId = Number((await pgExec(db.url, 'SELECT id FROM equipment')).rows[0].id);
    const productId = Number((await pgExec(db.url, 'SELECT min(id) AS id FROM material')).rows[0].id);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const series = { productId, characteristic: 'outside-diameter', equipmentId };
    const first = Date.now() - (SUBGROUPS + 12) * 300_000;
    // Phase I: limits from the first 10 days, drafted and approved (frozen, version 1).
    const draft = await call(server.base, 'POST', '/api/v1/spc/limit-revision/add', {
      token,
      body: { ...series, from: dayOf(first), to: dayOf(first + 10 * 86_400_000), remark: 'bench baseline' },
    });
    if (draft.status !== 200)
      throw new Error(`limit-revision/add answered ${draft.status}: ${JSON.stringify(draft.body)}`);
    const approve = await call(
      server.base,
      'POST',
      `/api/v1/spc/limit-revision/approve/${draft.body.result.id}`,
      { token },
    );
    if (approve.status !== 200)
      throw new Error(`approve answered ${approve.status}: ${JSON.stringify(approve.body)}`);

    const tomorrow = dayOf(Date.now() + 86_400_000);
    const q = new URLSearchParams({
      family: 'neiwaijing',
      ...Object.fromEntries(Object.entries(series).map(([k, v]) => [k, String(v)])),
      from: dayOf(first - 86_400_000),
      to: tomorrow,
    });
    const ms = [];
    let chart;
    for (let i = 0; i < CALLS + WARMUP; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/spc/chart?${q}`, { token, timeoutMs: 60_000 });
      if (i >= WARMUP) ms.push(performance.now() - s);
      if (r.status !== 200)
        throw new Error(`chart answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      chart = r.body.result;
    }
    await server.stop();
    if (chart.phase !== 'II' || chart.revision?.version !== 1)
      throw new Error(`chart not plotted against the frozen revision: phase ${chart.phase}`);
    if (chart.subgroups !== SUBGROUPS || chart.count !== SUBGROUPS * 5)
      throw new Error(`chart covered ${chart.subgroups} subgroups / ${chart.count} values`);
    if (SUBGROUPS > 50_000 && !(chart.aggregated && chart.points.id.length <= 50_000))
      throw new Error(`chart drew ${chart.points.id.length} points`);
    for (const v of chart.violations)
      if (chart.points.id[v.index] !== v.subgroupId)
        throw new Error(`violation ${v.subgroupId} drawn elsewhere`);
    ctx.log(
      `drawn ${chart.points.id.length} points (bucket ${chart.aggregated?.bucket ?? 1}), ${chart.violations.length} violations, Cpk ${chart.capability.cpk?.toFixed(2)}`,
    );
    const p50 = pct(ms, 50);
    return [
      {
        metric: `Phase II chart, ${SUBGROUPS.toLocaleString('en')} subgroups / ${(SUBGROUPS * 5).toLocaleString('en')} values, median of ${CALLS}`,
        value: Math.round(p50),
        unit: 'ms',
        target: '≤ 300',
        pass: p50 <= 300,
      },
      { metric: 'Phase II chart p95', value: Math.round(pct(ms, 95)), unit: 'ms' },
      { metric: 'points drawn', value: chart.points.id.length, unit: 'points' },
    ];
  },
};
