// Issue 13 "Numbers": the SPC chart of one series of 20,000 subgroups (100,000 values) through
// GET /api/v1/spc/chart (X̄–R points, limits, Western Electric rules, capability and a histogram
// counted in SQL) and Cpk over 1,000,000 values (200,000 subgroups) through
// GET /api/v1/spc/capability, both on PostgreSQL; and a gauge import of 100,000 values (CSV,
// 20,000 rows of 5 columns) through POST /api/v1/measurement-subgroup/importValues.
import { call, freshPgDatabase, login, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const CHART_SUBGROUPS = 20_000;
const CPK_SUBGROUPS = 200_000;
const CALLS = 20;

const subgroups = (equipment, count, mean) => [
  `INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, lsl, usl)
     SELECT (SELECT min(id) FROM material), 'outside-diameter', (SELECT id FROM equipment WHERE code = '${equipment}'),
            (SELECT min(id) FROM app_user), now() - interval '60 days' + i * interval '1 second' * (50 * 86400 / ${count}),
            ${mean - 0.0045}, ${mean + 0.0045}
       FROM generate_series(1, ${count}) i`,
  `INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
     SELECT s.id, k, round((${mean} + 0.001 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))::numeric, 4)
       FROM measurement_subgroup s, generate_series(1, 5) k
      WHERE s.equipment_id = (SELECT id FROM equipment WHERE code = '${equipment}')`,
  `UPDATE measurement_subgroup s
      SET sample_size = a.n, mean = round(a.m, 6), range = a.r, ss_dev = round(a.ss, 10)
     FROM (SELECT measurement_subgroup_id AS subgroup_id, count(*)::int AS n, avg(value) AS m, max(value) - min(value) AS r,
                  sum(value * value) - sum(value) * sum(value) / count(*) AS ss
             FROM measurement_value GROUP BY measurement_subgroup_id) a
    WHERE s.id = a.subgroup_id AND s.sample_size IS NULL`,
];

const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('SEMI', '半成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('SF-6204-OR-P6', '6204 外圈 P6', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO workshop (code, name, type) VALUES ('WS02', '磨加工车间', 'grinding')`,
  `INSERT INTO equipment (code, name, workshop_id)
     SELECT c, '无心磨床', (SELECT id FROM workshop) FROM unnest(ARRAY['MJ-A', 'MJ-B', 'MJ-C']) c`,
  ...subgroups('MJ-A', CHART_SUBGROUPS, 46.9955),
  ...subgroups('MJ-B', CPK_SUBGROUPS, 47.0955),
  // What autovacuum does on a live database: the visibility map lets the histogram read the index only.
  'VACUUM ANALYZE',
];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export default {
  name: 'spc',
  description: `SPC chart over ${CHART_SUBGROUPS.toLocaleString('en')} subgroups of 5 and Cpk over ${(CPK_SUBGROUPS * 5).toLocaleString('en')} values on PostgreSQL; a 100,000-value gauge import`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(
      `loaded ${(CHART_SUBGROUPS + CPK_SUBGROUPS) * 5} values in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const ids = (await pgExec(db.url, `SELECT id, code FROM equipment ORDER BY code`)).rows;
    const eq = Object.fromEntries(ids.map((r) => [r.code, Number(r.id)]));
    const product = Number((await pgExec(db.url, 'SELECT min(id) AS id FROM material')).rows[0].id);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const today = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const q = (equipmentId) =>
      `family=neiwaijing&characteristic=outside-diameter&equipmentId=${equipmentId}&productId=${product}&from=2020-01-01&to=${today}`;

    const chartMs = [];
    let chart;
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/spc/chart?${q(eq['MJ-A'])}`, { token });
      if (i >= 3) chartMs.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`chart answered ${r.status}: ${JSON.stringify(r.body)}`);
      chart = r.body.result;
    }
    if (chart.subgroups !== CHART_SUBGROUPS || chart.count !== CHART_SUBGROUPS * 5)
      throw new Error(`chart covered ${chart.subgroups} subgroups / ${chart.count} values`);

    const cpkMs = [];
    let cap;
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/spc/capability?${q(eq['MJ-B'])}`, { token });
      if (i >= 3) cpkMs.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`capability answered ${r.status}: ${JSON.stringify(r.body)}`);
      cap = r.body.result;
    }
    if (cap.count !== CPK_SUBGROUPS * 5) throw new Error(`capability covered ${cap.count} values`);

    // A gauge export of 100,000 values: 20,000 rows of time + 5 values.
    const lines = ['时间,X1,X2,X3,X4,X5'];
    for (let i = 0; i < 20_000; i++) {
      const t = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace('T', ' ').slice(0, 19);
      const v = Array.from({ length: 5 }, (_, k) => (46.99 + ((i * 7 + k * 13) % 90) / 10_000).toFixed(4));
      lines.push(`${t},${v.join(',')}`);
    }
    const form = new FormData();
    form.append(
      'meta',
      JSON.stringify({
        productId: product,
        characteristic: 'outside-diameter',
        equipmentId: eq['MJ-C'],
        operatorId: 1,
        subgroupSize: 5,
        valueColumns: [1, 2, 3, 4, 5],
        timeColumn: 0,
        lsl: 46.991,
        usl: 47.0,
      }),
    );
    form.append('file', new Blob([lines.join('\r\n')], { type: 'text/csv' }), 'gauge.csv');
    t0 = performance.now();
    const imp = await fetch(`${server.base}/api/v1/measurement-subgroup/importValues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
      signal: AbortSignal.timeout(120_000),
    });
    const importMs = performance.now() - t0;
    const impBody = await imp.json();
    if (imp.status !== 200 || impBody.result.values !== 100_000)
      throw new Error(`import answered ${imp.status}: ${JSON.stringify(impBody).slice(0, 300)}`);
    await server.stop();

    const chartP50 = pct(chartMs, 50);
    const cpkP50 = pct(cpkMs, 50);
    return [
      {
        metric: `SPC chart, ${CHART_SUBGROUPS.toLocaleString('en')} subgroups / 100,000 values, median of ${CALLS}`,
        value: Math.round(chartP50),
        unit: 'ms',
        target: '≤ 300',
        pass: chartP50 <= 300,
      },
      { metric: 'SPC chart p95', value: Math.round(pct(chartMs, 95)), unit: 'ms' },
      {
        metric: `Cpk over ${(CPK_SUBGROUPS * 5).toLocaleString('en')} values, median of ${CALLS}`,
        value: Math.round(cpkP50),
        unit: 'ms',
        target: '≤ 500',
        pass: cpkP50 <= 500,
      },
      {
        metric: 'gauge import, 100,000 values (CSV, 20,000 subgroups)',
        value: Math.round(importMs),
        unit: 'ms',
        target: '≤ 10000',
        pass: importMs <= 10_000,
      },
    ];
  },
};
