// Issue 14 "Numbers": every production report (生产部 › 统计报表) over 1,000,000 work reports on
// PostgreSQL, through the API, ≤ 300 ms; and ≥ 20× faster than aggregating the raw rows (the
// report's figures computed in SQL straight from work_report, against the whole API call). Each
// report is asked for the period its page opens with (this month and the two before: a quarter of
// the year of reports). The figures of 生产汇总 by month are compared with the raw aggregation.
import { call, freshPgDatabase, login, pg, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const REPORTS = Number(process.env.BENCH_WORK_REPORTS) || 1_000_000;
const ORDERS = 10_000;
const CARDS_PER_ORDER = 2;
const STEPS = 8;
const OPERATORS = 60;
const CALLS = 20;
// Calls before the measured ones: the server's code paths warmed up, and PostgreSQL settled on its
// plan for the named statements (it decides after five custom plans).
const WARMUP = 10;

export const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('FG', '成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     SELECT 'B' || lpad(i::text, 4, '0'), '轴承 62' || i, (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1'
       FROM generate_series(1, 200) i`,
  `INSERT INTO customer (code, name, state) SELECT 'C' || i, '客户' || i, '1' FROM generate_series(1, 50) i`,
  `INSERT INTO workshop (code, name, type, status)
     VALUES ('W1', '车加工车间', 'machine', '1'), ('W2', '磨加工车间', 'grinding', '1'),
            ('W3', '检测车间', 'inspect', '1'), ('W4', '装配车间', 'assembly', '1')`,
  `INSERT INTO equipment (code, name, workshop_id, status)
     SELECT 'E' || i, '设备' || i, (SELECT min(id) FROM workshop) + i % 4, 'running' FROM generate_series(1, 40) i`,
  `INSERT INTO process (code, name, workshop_id, piece_rate, standard_minutes, status)
     SELECT 'GX' || lpad(i::text, 2, '0'), '工序' || i, (SELECT min(id) FROM workshop) + (i - 1) / 2, 0.1, 1 + i % 3, '1'
       FROM generate_series(1, ${STEPS}) i`,
  `INSERT INTO app_user (user_name, first_name, password_hash)
     SELECT 'op' || lpad(i::text, 3, '0'), '操作工' || i, 'x' FROM generate_series(1, ${OPERATORS}) i`,
  `INSERT INTO sale_order (doc_no, customer_id, order_date, delivery_date, status, tax_rate, amount, tax_amount)
     SELECT 'XSB' || lpad(i::text, 6, '0'), (SELECT min(id) FROM customer) + i % 50, CURRENT_DATE - (i % 365), CURRENT_DATE - (i % 365) + 30,
            'approved', 13, 0, 0 FROM generate_series(1, ${ORDERS}) i`,
  `INSERT INTO production_order (doc_no, product_id, quantity, planned_start_date, due_date, status, sale_order_id)
     SELECT 'SCB' || lpad(so.id::text, 6, '0'), (SELECT min(id) FROM material) + so.id % 200, 400, so.order_date, so.order_date + 20,
            CASE WHEN so.order_date > CURRENT_DATE - 30 THEN 'producing' ELSE 'completed' END, so.id
       FROM sale_order so`,
  `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, planned_quantity)
     SELECT o.id, n, n * 10, p.id, p.workshop_id, 400
       FROM production_order o CROSS JOIN generate_series(1, ${STEPS}) n JOIN process p ON p.code = 'GX' || lpad(n::text, 2, '0')`,
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, standard_minutes, planned_start_date, planned_finish_date, priority, order_step_id)
     SELECT o.doc_no || '-' || s.seq, 'started', o.id, o.product_id, s.seq, s.process_id, w.type, s.workshop_id, 400,
            p.standard_minutes, o.planned_start_date, o.due_date, 'normal', s.id
       FROM production_order_step s JOIN production_order o ON o.id = s.production_order_id
       JOIN process p ON p.id = s.process_id JOIN workshop w ON w.id = s.workshop_id`,
  `INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type, workshop_id,
                              operator_id, work_date, shift, quantity, started_at)
     SELECT 'PGB1', 'started', min(t.id), min(t.production_order_id), min(t.product_id), min(t.process_id), 'machine',
            min(t.workshop_id), (SELECT min(id) FROM app_user), CURRENT_DATE, 'day', 100, now() FROM workshop_task t`,
  // Two cards an order: an old order's cards are done; a recent one's are open at some step.
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin, created_at)
     SELECT 'LZB' || o.id || '-' || k, CASE WHEN o.status = 'completed' THEN 'completed' ELSE 'open' END, o.id, o.product_id, 200,
            CASE WHEN o.status = 'completed' THEN ${STEPS * 10} ELSE 10 * (1 + (o.id + k) % ${STEPS}) END, 'open',
            o.planned_start_date::timestamptz
       FROM production_order o CROSS JOIN generate_series(1, ${CARDS_PER_ORDER}) k`,
  `INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, input_quantity, good_quantity,
                               work_scrap_quantity, material_scrap_quantity, operator_id)
     SELECT c.id, s.line_no, s.id, s.seq, s.process_id, s.workshop_id,
            CASE WHEN s.seq <= c.current_seq THEN 200 ELSE 0 END,
            CASE WHEN s.seq < c.current_seq OR c.status = 'completed' THEN 198 WHEN s.seq = c.current_seq THEN 100 ELSE 0 END,
            CASE WHEN s.seq < c.current_seq OR c.status = 'completed' THEN 2 ELSE 0 END, 0, (SELECT min(id) FROM app_user)
       FROM flow_card c JOIN production_order_step s ON s.production_order_id = c.production_order_id`,
  // The million reports: spread over the cards' steps and the last 365 days; seven operators a process; 5 % not posted.
  `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                            workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                            work_scrap_quantity, material_scrap_quantity, scrap_reason, rework_quantity, hours, posted_at)
     SELECT 'BGB' || i, CASE WHEN i % 20 = 0 THEN 'submitted' ELSE 'posted' END, (SELECT min(id) FROM work_dispatch),
            c.id, c.production_order_id, t.id, c.product_id, t.seq, t.process_id, t.workshop_type, t.workshop_id, t.order_step_id,
            (SELECT min(id) FROM app_user) + 1 + (i % ${STEPS}) * 7 + (i / ${STEPS}) % 7, CURRENT_DATE - (i % 365), 'day',
            10 + i % 30, (i % 7 = 0)::int * (1 + i % 3), (i % 11 = 0)::int, CASE WHEN i % 7 = 0 OR i % 11 = 0 THEN
              (ARRAY['size','surface','burn','crack','setup','material','heat','other'])[1 + i % 8] END,
            0, 0.5 + (i % 4) * 0.25, now()
       FROM generate_series(1, ${REPORTS}) i
       JOIN flow_card c ON c.id = (SELECT min(id) FROM flow_card) + i % ${ORDERS * CARDS_PER_ORDER}
       JOIN workshop_task t ON t.production_order_id = c.production_order_id AND t.seq = 10 * (1 + i % ${STEPS})`,
];

/**
 * Each report's figures straight from the raw rows (no rollup, no card steps), in SQL, over the
 * same period as the report: the reports of the period's months (the cards opened in it).
 */
const W = (alias = 'r') => `${alias}.report_date >= $1::date AND ${alias}.report_date < $2::date`;
const CARDS = `c.created_at >= $1::date AND c.created_at < $2::date`;
export const RAW = {
  productionTotal: `
    SELECT to_char(date_trunc('month', r.report_date), 'YYYY-MM') AS key, count(*)::int AS report_count,
           sum(r.good_quantity) AS good_quantity, sum(r.work_scrap_quantity) AS work_scrap_quantity,
           sum(r.material_scrap_quantity) AS material_scrap_quantity, sum(r.rework_quantity) AS rework_quantity,
           COALESCE(sum(r.hours), 0) AS hours
      FROM work_report r WHERE r.status = 'posted' AND ${W()} GROUP BY 1 ORDER BY 1`,
  analyzeMonthlyProcessCapacity: `
    SELECT date_trunc('month', r.report_date), r.process_id, sum(r.good_quantity), sum(r.hours), sum(r.good_quantity * t.standard_minutes)
      FROM work_report r JOIN workshop_task t ON t.id = r.task_id WHERE r.status = 'posted' AND ${W()} GROUP BY 1, 2`,
  analyzeMonthlyWorkerCapacity: `
    SELECT date_trunc('month', r.report_date), r.operator_id, count(*), sum(r.good_quantity),
           sum(r.work_scrap_quantity + r.material_scrap_quantity), sum(r.hours), sum(r.good_quantity * t.standard_minutes)
      FROM work_report r JOIN workshop_task t ON t.id = r.task_id WHERE r.status = 'posted' AND ${W()} GROUP BY 1, 2`,
  workerRejectStats: `
    SELECT r.operator_id, r.scrap_reason, sum(r.work_scrap_quantity), sum(r.material_scrap_quantity),
           sum(sum(r.good_quantity + r.work_scrap_quantity + r.material_scrap_quantity)) OVER (PARTITION BY r.operator_id)
      FROM work_report r WHERE r.status = 'posted' AND ${W()} GROUP BY 1, 2`,
  flowCardByWorkShopPage: `
    SELECT r.workshop_id, count(*), sum(r.good_quantity), sum(r.work_scrap_quantity), sum(r.material_scrap_quantity)
      FROM work_report r WHERE r.status = 'posted' AND ${W()} GROUP BY 1`,
  // Card progress from the reports of each card's steps (what the card steps keep).
  processFlowCardReport: `
    SELECT r.flow_card_id, count(DISTINCT r.seq), sum(r.work_scrap_quantity + r.material_scrap_quantity),
           sum(r.good_quantity) FILTER (WHERE r.seq = ${STEPS * 10})
      FROM work_report r JOIN flow_card c ON c.id = r.flow_card_id WHERE r.status = 'posted' AND ${CARDS} GROUP BY 1`,
  flowCardBySalesAndWorkshopPage: `
    SELECT o.sale_order_id, r.workshop_type, sum(r.good_quantity), sum(r.work_scrap_quantity + r.material_scrap_quantity)
      FROM work_report r JOIN production_order o ON o.id = r.production_order_id JOIN sale_order so ON so.id = o.sale_order_id
     WHERE r.status = 'posted' AND so.order_date >= $1::date AND so.order_date < $2::date GROUP BY 1, 2`,
  // 在制需求 reads requirement lines, stock and open orders: its raw counterpart is the orders'
  // finished quantity from the reports themselves.
  listInProgressRequirement: `
    SELECT r.production_order_id, sum(r.good_quantity) FILTER (WHERE r.seq = ${STEPS * 10})
      FROM work_report r JOIN production_order o ON o.id = r.production_order_id
     WHERE r.status = 'posted' AND o.planned_start_date >= $1::date AND o.planned_start_date < $2::date GROUP BY 1`,
};

/** The period the report pages open with: this month and the two before. */
const month = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
const now = new Date();
const TO = month(now);
const FROM = month(new Date(now.getFullYear(), now.getMonth() - 2, 1));
const END = month(new Date(now.getFullYear(), now.getMonth() + 1, 1));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

export default {
  name: 'production-reports',
  description: `the eight 生产报表 over ${REPORTS.toLocaleString('en')} work reports on PostgreSQL (API call vs raw aggregation in SQL)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    // Requirement lines of the open orders: one material each, half issued.
    await pgExec(
      db.url,
      `INSERT INTO production_order_material (production_order_id, line_no, material_id, required_quantity, issued_quantity)
         SELECT o.id, 1, (SELECT min(id) FROM material) + (o.id * 7) % 200, 400, 200 FROM production_order o WHERE o.status = 'producing'`,
    );
    await pgExec(db.url, 'ANALYZE');
    ctx.log(`loaded ${REPORTS} work reports in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    t0 = performance.now();
    const rebuilt = await call(server.base, 'POST', '/api/v1/production-report/rebuild', {
      token,
      body: {},
      // Every summary from 1M reports and 20,000 cards: minutes on a busy machine.
      timeoutMs: 900_000,
    });
    if (rebuilt.status !== 200)
      throw new Error(`rebuild answered ${rebuilt.status}: ${JSON.stringify(rebuilt.body)}`);
    ctx.log(
      `rollup rebuilt in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${rebuilt.body.result.rows} rows`,
    );
    // The state autovacuum keeps a table in (statistics, and pages marked all-visible, which
    // index-only scans need); a bulk load leaves neither.
    await pgExec(db.url, 'VACUUM ANALYZE');

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const rows = [];
    let byMonth;
    for (const name of Object.keys(RAW)) {
      const ms = [];
      for (let i = 0; i < CALLS + WARMUP; i++) {
        const s = performance.now();
        const r = await call(server.base, 'GET', `/api/v1/production-report/${name}?from=${FROM}&to=${TO}`, {
          token,
        });
        if (i >= WARMUP) ms.push(performance.now() - s);
        if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${JSON.stringify(r.body)}`);
        if (name === 'productionTotal') byMonth = r.body.result;
      }
      const rawMs = [];
      for (let i = 0; i < 5; i++) {
        const s = performance.now();
        await client.query(RAW[name], [`${FROM}-01`, `${END}-01`]);
        rawMs.push(performance.now() - s);
      }
      const api = median(ms);
      const raw = median(rawMs);
      rows.push({
        metric: `${name} via API (${FROM}…${TO}), median of ${CALLS}`,
        value: Math.round(api),
        unit: 'ms',
        target: '≤ 300',
        pass: api <= 300,
      });
      rows.push({
        metric: `${name}: raw aggregation in SQL ÷ API call (raw ${Math.round(raw)} ms)`,
        value: Math.round((raw / api) * 10) / 10,
        unit: '×',
        target: '≥ 20',
        pass: raw / api >= 20,
      });
    }
    const raw = (await client.query(RAW.productionTotal, [`${FROM}-01`, `${END}-01`])).rows;
    await client.end();
    const fields = [
      'report_count',
      'good_quantity',
      'work_scrap_quantity',
      'material_scrap_quantity',
      'rework_quantity',
      'hours',
    ];
    const camel = (f) => f.replace(/_(\w)/g, (_, c) => c.toUpperCase());
    const mismatches =
      raw.filter((r, i) => {
        const a = byMonth.rows[i];
        return !a || a.key !== r.key || fields.some((f) => Number(a[camel(f)]) !== Number(r[f]));
      }).length + Math.abs(raw.length - byMonth.rows.length);
    rows.push({
      metric: '生产汇总 months differing from the raw aggregation',
      value: mismatches,
      unit: 'rows',
      target: '= 0',
      pass: mismatches === 0,
    });
    await server.stop();
    return rows;
  },
};
