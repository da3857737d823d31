// Issue 15 "Numbers": the monthly wage sheet of 500 workers from 1,000,000 wage lines (≤ 300 ms),
// and inventory value at a past date over a 3,000,000-row stock ledger (≤ 500 ms), both through
// the API on PostgreSQL. Each answer is checked against the same figure summed from the raw rows
// in SQL (the wage lines of the month; the ledger up to the date).
import { call, freshPgDatabase, login, pg, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const WORKERS = 500;
const LINES = Number(process.env.BENCH_WAGE_LINES) || 1_000_000;
const LEDGER = Number(process.env.BENCH_LEDGER_ROWS) || 3_000_000;
const MONTHS = 6; // wage lines over the last six months
const CALLS = 20;

const monthStart = (back) => {
  const d = new Date();
  const i = d.getUTCFullYear() * 12 + d.getUTCMonth() - back;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
};

const LOAD_SQL = [
  `INSERT INTO app_user (user_name, first_name, password_hash)
     SELECT 'W' || lpad(i::text, 4, '0'), '工人' || i, 'x' FROM generate_series(1, ${WORKERS}) i`,
  `INSERT INTO workshop (code, name, type) VALUES ('BW1', '车加工车间', 'machine')`,
  `INSERT INTO production_team (code, name, workshop_id, member_ids)
     SELECT 'T' || t, '班组' || t, (SELECT min(id) FROM workshop),
            ARRAY(SELECT id FROM app_user WHERE user_name LIKE 'W%' AND id % 20 = t - 1)
       FROM generate_series(1, 20) t`,
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('RAW', '原材料', 1), ('FIN', '成品', 2)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     SELECT 'M' || lpad(i::text, 5, '0'), '物料' || i, (SELECT min(id) FROM material_type) + i % 2,
            (SELECT min(id) FROM material_unit), '1' FROM generate_series(1, 2000) i`,
  `INSERT INTO warehouse (code, name, type) SELECT 'WH' || i, '仓库' || i, 'raw' FROM generate_series(1, 5) i`,
  `INSERT INTO process (code, name, piece_rate) SELECT 'P' || i, '工序' || i, 0.1 * i FROM generate_series(1, 10) i`,
  `INSERT INTO production_order (doc_no, product_id, quantity, due_date, status)
     VALUES ('SCB0001', (SELECT min(id) FROM material), 1000, CURRENT_DATE, 'producing')`,
  // 1M wage lines, ~2,000 per worker, over six months.
  `INSERT INTO piece_wage (work_report_id, doc_no, operator_id, work_date, process_id, product_id, production_order_id,
                           period, kind, quantity, piece_rate, good_amount, work_scrap_quantity, deduction_rate,
                           deduction_amount, rework_quantity, rework_rate, rework_amount, amount)
     SELECT i, 'BG' || i, u.first_id + i % ${WORKERS}, d, p.first_id + i % 10, m.first_id, o.id,
            date_trunc('month', d)::date, CASE WHEN i % 50 = 0 THEN 'adjustment' ELSE 'report' END,
            q, 0.35, round(q * 0.35, 2), i % 3, 0.5, round((i % 3) * 0.5, 2), i % 2, 0.2, round((i % 2) * 0.2, 2),
            round(q * 0.35, 2) - round((i % 3) * 0.5, 2) + round((i % 2) * 0.2, 2)
       FROM generate_series(1, ${LINES}) i,
            (SELECT min(id) AS first_id FROM app_user WHERE user_name LIKE 'W%') u,
            (SELECT min(id) AS first_id FROM process) p, (SELECT min(id) AS first_id FROM material) m,
            (SELECT min(id) AS id FROM production_order) o,
            LATERAL (SELECT (date_trunc('month', CURRENT_DATE) - interval '${MONTHS - 1} months')::date
                            + (i % (${MONTHS} * 30)) AS d, (20 + i % 80)::numeric AS q) x`,
  `DELETE FROM piece_wage WHERE work_date > CURRENT_DATE`,
];

/** 3M ledger rows over three years (the rollup trigger fills stock_ledger_month as they go in). */
const ledgerSql = (from, to) => `
  INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no, biz_date)
  SELECT m.first_id + i % 2000, w.first_id + i % 5, q, c, round(q * c, 2), 'stock-inbound', 'purchase', i, 'RK' || i,
         CURRENT_DATE - (i % 1095)
    FROM generate_series(${from}, ${to}) i,
         (SELECT min(id) AS first_id FROM material) m, (SELECT min(id) AS first_id FROM warehouse) w,
         LATERAL (SELECT CASE WHEN i % 3 = 0 THEN -(1 + i % 7) ELSE 1 + i % 11 END::numeric AS q,
                         (5 + i % 40)::numeric / 4 AS c) v`;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export default {
  name: 'finance-reports',
  description: `工资表 of ${WORKERS} workers from ${LINES.toLocaleString('en')} wage lines; 库存报表 at a past date over ${LEDGER.toLocaleString('en')} ledger rows (PostgreSQL)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    const chunk = 500_000;
    for (let from = 1; from <= LEDGER; from += chunk)
      await pgExec(db.url, ledgerSql(from, Math.min(LEDGER, from + chunk - 1)));
    await pgExec(db.url, 'ANALYZE');
    ctx.log(`loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);

    // The wage sheet of last month (open), then closed (its sheet written), both through the API.
    const month = monthStart(1).slice(0, 7);
    const sheetMs = [];
    let sheet;
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/process-wage/sheet?month=${month}`, { token });
      if (r.status !== 200) throw new Error(`sheet answered ${r.status}: ${JSON.stringify(r.body)}`);
      if (i >= 3) sheetMs.push(performance.now() - s);
      sheet = r.body.result;
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const raw = (
      await client.query(
        `SELECT count(DISTINCT operator_id)::int AS workers, sum(amount)::text AS total
           FROM piece_wage WHERE period = $1::date`,
        [`${month}-01`],
      )
    ).rows[0];
    t0 = performance.now();
    const closed = await call(server.base, 'POST', '/api/v1/process-wage/close', { token, body: { month } });
    if (closed.status !== 200)
      throw new Error(`close answered ${closed.status}: ${JSON.stringify(closed.body)}`);
    const closeMs = performance.now() - t0;
    const closedMs = [];
    let closedSheet;
    for (let i = 0; i < CALLS; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/process-wage/sheet?month=${month}`, { token });
      closedMs.push(performance.now() - s);
      closedSheet = r.body.result;
    }

    // Inventory value at a past date: ~14 months back, mid-month (rollup months + part of a month).
    const past = new Date(Date.now() - 425 * 86_400_000).toISOString().slice(0, 10);
    const invMs = [];
    let inv;
    for (let i = 0; i < CALLS + 3; i++) {
      const groupBy = ['warehouse', 'materialType'][i % 2];
      const s = performance.now();
      const r = await call(
        server.base,
        'GET',
        `/api/v1/finance-report/inventory-report?date=${past}&groupBy=${groupBy}`,
        {
          token,
        },
      );
      if (r.status !== 200) throw new Error(`inventory answered ${r.status}: ${JSON.stringify(r.body)}`);
      if (i >= 3) invMs.push(performance.now() - s);
      inv = r.body.result;
    }
    const rawLedgerStart = performance.now();
    const ledger = (
      await client.query(
        'SELECT sum(quantity)::text AS q, sum(amount)::text AS a FROM stock_ledger WHERE biz_date <= $1::date',
        [past],
      )
    ).rows[0];
    const rawLedgerMs = performance.now() - rawLedgerStart;
    await client.end();
    await server.stop();

    const sheetP = pct(sheetMs, 50);
    const closedP = pct(closedMs, 50);
    const invP = pct(invMs, 50);
    const sheetOk =
      sheet.rows.length === raw.workers && Number(sheet.totals.totalAmount) === Number(raw.total);
    const closedOk = Number(closedSheet.totals.totalAmount) === Number(raw.total) && closedSheet.closed;
    const invOk =
      Number(inv.totals.quantity) === Number(ledger.q) && Number(inv.totals.value) === Number(ledger.a);
    return [
      {
        metric: `wage sheet, open month (${WORKERS} workers), median of ${CALLS}`,
        value: Math.round(sheetP),
        unit: 'ms',
        target: '≤ 300',
        pass: sheetP <= 300,
      },
      { metric: 'wage sheet, open month, p95', value: Math.round(pct(sheetMs, 95)), unit: 'ms' },
      { metric: 'close the month (sheet written)', value: Math.round(closeMs), unit: 'ms' },
      {
        metric: `wage sheet, closed month, median of ${CALLS}`,
        value: Math.round(closedP),
        unit: 'ms',
        target: '≤ 300',
        pass: closedP <= 300,
      },
      {
        metric: 'wage sheet = Σ wage lines of the month (workers, total)',
        value:
          sheetOk && closedOk
            ? 'equal'
            : `${sheet.rows.length}/${sheet.totals.totalAmount} vs ${raw.workers}/${raw.total}`,
        target: 'equal',
        pass: sheetOk && closedOk,
      },
      {
        metric: `inventory value at ${past} via API, median of ${CALLS}`,
        value: Math.round(invP),
        unit: 'ms',
        target: '≤ 500',
        pass: invP <= 500,
      },
      { metric: 'inventory at date, p95', value: Math.round(pct(invMs, 95)), unit: 'ms' },
      { metric: 'same total by summing the raw ledger in SQL', value: Math.round(rawLedgerMs), unit: 'ms' },
      {
        metric: 'inventory report = Σ ledger up to the date (quantity, value)',
        value: invOk ? 'equal' : `${inv.totals.quantity}/${inv.totals.value} vs ${ledger.q}/${ledger.a}`,
        target: 'equal',
        pass: invOk,
      },
    ];
  },
};
