// Issue 37 §4: the cost roll-up of a month of 1,000,000 报工 on PostgreSQL — 成本差异 (GET
// /api/v1/finance-report/cost-variance) over the month's finished orders: their 领料 ledger
// amounts, 1,000,000 approved reports (overhead by standard minutes per workshop, scrap by
// weight) and as many wage lines, against each product's standard from its BOM and route. The
// answer is checked against sums taken directly in SQL.
import { call, freshPgDatabase, login, median, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const REPORTS = Number(process.env.BENCH_COST_REPORTS) || 1_000_000;
const ORDERS = 2000;
const CALLS = 3;
const MONTH = '2026-10';

const LOAD_SQL = [
  `INSERT INTO material_unit (code, name, precision) VALUES ('PCS', '件', 0), ('KG', 'kg', 3)`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('FG', '成品', 1)`,
  `INSERT INTO warehouse (code, name, type) VALUES ('WH-F', '成品库', 'finished'), ('WH-R', '原料库', 'raw')`,
  `INSERT INTO workshop (code, name, type) VALUES ('W1', '车加工车间', 'machine'), ('W2', '磨加工车间', 'grinding'),
          ('W3', '检测车间', 'inspect'), ('W4', '装配车间', 'assembly')`,
  `INSERT INTO process (code, name, workshop_id, standard_minutes, piece_rate)
   SELECT 'GX' || i, '工序' || i, (SELECT id FROM workshop WHERE code = 'W' || i), 1 + i * 0.5, 0.1 * i
     FROM generate_series(1, 4) i`,
  // 10 bearings (0.235 kg) and 2 materials, with standard costs.
  `INSERT INTO material (code, name, material_type_id, unit_id, status, weight, standard_cost)
   SELECT 'FG' || i, '轴承 ' || i, (SELECT min(id) FROM material_type), (SELECT id FROM material_unit WHERE code = 'PCS'),
          '1', 0.235, NULL FROM generate_series(1, 10) i`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status, standard_cost)
   VALUES ('RM1', '套圈', (SELECT min(id) FROM material_type), (SELECT id FROM material_unit WHERE code = 'PCS'), '1', 6.5),
          ('RM2', '钢球', (SELECT min(id) FROM material_type), (SELECT id FROM material_unit WHERE code = 'PCS'), '1', 0.12)`,
  `INSERT INTO bom (code, product_id, version_no, status) SELECT 'BOM-' || code, id, 'V1', 'active' FROM material WHERE code ~ '^FG'`,
  `INSERT INTO bom_line (bom_id, line_no, material_id, quantity, unit_id, loss_rate)
   SELECT b.id, k, m.id, CASE k WHEN 1 THEN 2 ELSE 8 END, m.unit_id, 1 FROM bom b
    CROSS JOIN generate_series(1, 2) k JOIN material m ON m.code = 'RM' || k`,
  `INSERT INTO process_route (code, name, product_id, version_no, status)
   SELECT 'RT-' || code, '路线 ' || code, id, 'V1', 'active' FROM material WHERE code ~ '^FG'`,
  `INSERT INTO process_route_step (process_route_id, line_no, seq, process_id, workshop_id, standard_minutes)
   SELECT r.id, k, k * 10, p.id, p.workshop_id, p.standard_minutes FROM process_route r
    CROSS JOIN generate_series(1, 4) k JOIN process p ON p.code = 'GX' || k`,
  `INSERT INTO sys_setting (key, value) VALUES
     ('costing.overheadRates', (SELECT jsonb_agg(jsonb_build_object('workshopId', id, 'basis', 'standard-minute',
                                 'rate', CASE type WHEN 'grinding' THEN '0.12' ELSE '0.08' END)) FROM workshop)),
     ('costing.scrapPricePerKg', '"2.60"')
   ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  // ${ORDERS} orders of 500 finished in the month, each with its four steps.
  `INSERT INTO production_order (doc_no, product_id, quantity, produced_quantity, due_date, status, planned_start_date)
   SELECT 'SCB' || lpad(i::text, 6, '0'), (SELECT id FROM material WHERE code = 'FG' || (1 + i % 10)), 500, 500,
          DATE '${MONTH}-28', 'completed', DATE '${MONTH}-01' FROM generate_series(1, ${ORDERS}) i`,
  `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, planned_quantity, workshop_id, standard_minutes)
   SELECT o.id, k, k * 10, p.id, 500, p.workshop_id, p.standard_minutes FROM production_order o
    CROSS JOIN generate_series(1, 4) k JOIN process p ON p.code = 'GX' || k`,
  `INSERT INTO workshop_task DEFAULT VALUES`,
  `INSERT INTO work_dispatch (doc_no, task_id, operator_id, quantity)
   VALUES ('PG1', (SELECT min(id) FROM workshop_task), (SELECT min(id) FROM app_user), 1)`,
  `INSERT INTO flow_card (doc_no, production_order_id, product_id, quantity)
   SELECT 'LZK1', min(id), (SELECT product_id FROM production_order ORDER BY id LIMIT 1), 1 FROM production_order`,
  // ${REPORTS} approved reports spread over the orders' steps and the month's days; 1 in 50 with a 工废.
  // Posted as the server posts them: the report keeps its wage line to the fen (wage_amount).
  `INSERT INTO work_report (doc_no, dispatch_id, flow_card_id, production_order_id, order_step_id, workshop_id,
                            product_id, process_id, good_quantity, work_scrap_quantity, hours, report_date, status,
                            piece_rate, wage_amount)
   SELECT 'BG' || i, (SELECT min(id) FROM work_dispatch), (SELECT min(id) FROM flow_card), o.id, st.id, st.workshop_id,
          o.product_id, st.process_id, 2, CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END, 0.1,
          DATE '${MONTH}-01' + (i % 28), 'posted', p.piece_rate, round(2 * p.piece_rate, 2)
     FROM generate_series(1, ${REPORTS}) i
     JOIN production_order o ON o.doc_no = 'SCB' || lpad((1 + i % ${ORDERS})::text, 6, '0')
     JOIN production_order_step st ON st.production_order_id = o.id AND st.line_no = 1 + (i / ${ORDERS}) % 4
     JOIN process p ON p.id = st.process_id`,
  `INSERT INTO piece_wage (work_report_id, operator_id, work_date, process_id, product_id, production_order_id,
                           quantity, piece_rate, amount, period)
   SELECT r.id, (SELECT min(id) FROM app_user), r.report_date, r.process_id, r.product_id, r.production_order_id,
          r.good_quantity, p.piece_rate, round(r.good_quantity * p.piece_rate, 2), date_trunc('month', r.report_date)::date
     FROM work_report r JOIN process p ON p.id = r.process_id`,
  // Each order's 领料 (posted, two ledger rows) and its 生产入库 in the month.
  `INSERT INTO stock_outbound (doc_no, type, warehouse_id, status, biz_date, production_order_id)
   SELECT 'LL' || o.id, 'requisition', (SELECT id FROM warehouse WHERE code = 'WH-R'), 'posted', DATE '${MONTH}-01', o.id
     FROM production_order o`,
  `INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no, biz_date)
   SELECT m.id, d.warehouse_id, -q.q, m.standard_cost * (1 + (d.id % 7) / 100.0),
          -round(q.q * m.standard_cost * (1 + (d.id % 7) / 100.0), 2), 'stock-outbound', 'outbound', d.id, d.doc_no, d.biz_date
     FROM stock_outbound d CROSS JOIN LATERAL (VALUES ('RM1', 1000), ('RM2', 4000)) q(code, q)
     JOIN material m ON m.code = q.code`,
  `INSERT INTO stock_inbound (doc_no, type, warehouse_id, status, biz_date, source_no)
   SELECT 'RK' || o.id, 'production', (SELECT id FROM warehouse WHERE code = 'WH-F'), 'posted', DATE '${MONTH}-28', o.doc_no
     FROM production_order o`,
];

export default {
  name: 'product-cost',
  description: `成本差异 roll-up of a month: ${ORDERS} orders, ${REPORTS.toLocaleString('en')} approved 报工 (PostgreSQL, via the API)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    const t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    await pgExec(db.url, 'ANALYZE');
    const loadMs = performance.now() - t0;
    const expected = (
      await pgExec(
        db.url,
        `SELECT (SELECT sum(amount) FROM piece_wage)::text AS labour,
                (SELECT -sum(amount) FROM stock_ledger WHERE doc_type = 'stock-outbound')::text AS material,
                (SELECT count(*) FROM work_report)::int AS reports`,
      )
    ).rows[0];
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const ms = [];
    let report;
    const url = `/api/v1/finance-report/cost-variance?groupBy=order&from=${MONTH}-01&to=${MONTH}-31`;
    for (let i = 0; i < CALLS + 1; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', url, { token, timeoutMs: 300_000 });
      if (i > 0) ms.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`cost-variance answered ${r.status}: ${JSON.stringify(r.body)}`);
      report = r.body.result;
    }
    const one = performance.now();
    const p = await call(server.base, 'GET', `/api/v1/finance-report/product-cost?groupBy=materialMonth`, {
      token,
      timeoutMs: 300_000,
    });
    const productMs = performance.now() - one;
    await server.stop();
    if (p.status !== 200) throw new Error(`product-cost answered ${p.status}`);
    // The roll-up's actual = material + labour + overhead − scrap; labour and material as summed in SQL.
    const rows = report.rows.length;
    const labourVar = report.totals.labourVariance;
    if (rows !== ORDERS || expected.reports !== REPORTS) {
      throw new Error(`成本差异 wrong: ${rows} orders (want ${ORDERS}), ${expected.reports} reports`);
    }
    // The standard labour of a piece is Σ piece rates (0.1 + 0.2 + 0.3 + 0.4 = 1.00), 500 pieces an
    // order: the labour variance is Σ wage lines − 1.00 × 500 × the orders.
    const wantLabourVar = (Number(expected.labour) - ORDERS * 500).toFixed(2);
    if (Number(labourVar).toFixed(2) !== wantLabourVar) {
      throw new Error(
        `成本差异 labour variance ${labourVar}, want ${wantLabourVar} (wage lines ${expected.labour})`,
      );
    }
    const p50 = median(ms);
    return [
      {
        metric: `成本差异 of a month: ${ORDERS} orders, ${REPORTS.toLocaleString('en')} 报工, median of ${CALLS}`,
        value: Math.round(p50),
        unit: 'ms',
        target: '≤ 5000',
        pass: p50 <= 5000,
      },
      { metric: 'slowest', value: Math.round(Math.max(...ms)), unit: 'ms' },
      { metric: '产品成本 by product and month (receipts)', value: Math.round(productMs), unit: 'ms' },
      {
        metric: `labour (wage lines) ${expected.labour}, labour variance`,
        value: Number(labourVar),
        unit: '元',
      },
      { metric: 'data load (SQL)', value: Math.round(loadMs / 1000), unit: 's' },
    ];
  },
};
