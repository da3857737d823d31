// Issue 11 "Numbers": the sales report over 200,000 order lines (100,000 orders) on PostgreSQL,
// read from the monthly rollup (order_report_month), against the same figures aggregated from
// the raw order lines in the database itself; the results are compared row by row. And
// approving a 50-line sales order (credit check included) with those 100,000 orders in the table.
import { call, freshPgDatabase, login, pg, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const ORDERS = Number(process.env.BENCH_REPORT_ORDERS) || 100_000;
const CALLS = 20;
const APPROVALS = 30;

const LOAD_SQL = [
  `INSERT INTO customer (code, name, state, credit_limit)
     SELECT 'C' || lpad(i::text, 4, '0'), '客户' || i, '1', 100000000 FROM generate_series(1, 300) i`,
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('FG', '成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status, sale_price)
     SELECT 'B' || lpad(i::text, 5, '0'), '深沟球轴承 62' || i, (SELECT min(id) FROM material_type),
            (SELECT min(id) FROM material_unit), '1', 10 + i % 50
       FROM generate_series(1, 800) i`,
  // Orders over the last 24 months: most completed, some partly shipped, some open, a few closed.
  `INSERT INTO sale_order (doc_no, customer_id, order_date, delivery_date, status, tax_rate, amount, tax_amount)
     SELECT 'XSB' || lpad(i::text, 7, '0'), (SELECT min(id) FROM customer) + i % 300,
            d, d + 20,
            (ARRAY['completed','completed','completed','partly-shipped','approved','closed'])[1 + i % 6], 13, 0, 0
       FROM generate_series(1, ${ORDERS}) i, LATERAL (SELECT (CURRENT_DATE - (i % 730)::int) AS d) x`,
  `INSERT INTO sale_order_line (sale_order_id, line_no, material_id, quantity, base_quantity, unit_price, amount,
                                tax_amount, delivery_date, shipped_quantity, completed_on)
     SELECT o.id, k, (SELECT min(id) FROM material) + (o.id * 7 + k * 13) % 800, q, q, p, q * p, round(q * p * 13 / 113, 2),
            o.delivery_date,
            CASE o.status WHEN 'completed' THEN q WHEN 'partly-shipped' THEN q / 2 WHEN 'closed' THEN q / 4 ELSE 0 END,
            CASE WHEN o.status = 'completed' THEN o.delivery_date + ((o.id % 5) - 3)::int END
       FROM sale_order o, generate_series(1, 2) k,
            LATERAL (SELECT (10 + (o.id + k) % 90)::numeric AS q, (10 + (o.id % 50))::numeric AS p) v`,
  `UPDATE sale_order o SET amount = s.a FROM (SELECT sale_order_id, sum(amount) a FROM sale_order_line GROUP BY 1) s
    WHERE s.sale_order_id = o.id`,
  'ANALYZE',
];

/** The report's figures straight from the order lines (what the rollup saves). */
const RAW_SQL = `
  SELECT c.id::text AS key, sum(l.base_quantity) AS ordered_quantity, sum(l.amount) AS ordered_amount,
         count(*)::int AS line_count, sum(l.shipped_quantity) AS done_quantity,
         sum(CASE WHEN o.status IN ('approved','producing','partly-shipped') THEN greatest(l.base_quantity - l.shipped_quantity, 0) ELSE 0 END) AS open_quantity,
         count(l.completed_on)::int AS completed_lines,
         count(*) FILTER (WHERE l.completed_on <= l.delivery_date)::int AS on_time_lines
    FROM sale_order_line l JOIN sale_order o ON o.id = l.sale_order_id JOIN customer c ON c.id = o.customer_id
   WHERE o.status <> 'draft'
   GROUP BY c.id ORDER BY sum(l.amount) DESC, 1`;

/** The report's own statement by customer (modules/orders/report.ts readReport, groupBy=party). */
const ROLLUP_SQL = `
  WITH g AS (
    SELECT r.party_id AS k, sum(r.line_count)::int AS line_count, sum(r.ordered_quantity) AS ordered_quantity,
           sum(r.ordered_amount) AS ordered_amount,
           round(sum(r.ordered_amount) / NULLIF(sum(r.ordered_quantity), 0), 6) AS average_price,
           sum(r.done_quantity) AS done_quantity, sum(r.open_quantity) AS open_quantity, sum(r.open_amount) AS open_amount,
           sum(r.completed_lines)::int AS completed_lines, sum(r.on_time_lines)::int AS on_time_lines
      FROM order_report_month r
     WHERE r.kind = 'sale' AND r.material_id = 0 AND r.party_id <> 0 AND r.line_count > 0
     GROUP BY 1)
  SELECT g.k::text AS key, c.name AS label, c.code, g.*
    FROM g JOIN customer c ON c.id = g.k
   ORDER BY g.ordered_amount DESC, 1`;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    50,
  );

export default {
  name: 'sales-report',
  description: `销售统计报表 over ${(ORDERS * 2).toLocaleString('en')} order lines on PostgreSQL (rollup vs raw lines), and approving a 50-line order among ${ORDERS.toLocaleString('en')}`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(`loaded ${ORDERS} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    t0 = performance.now();
    const rebuilt = await call(server.base, 'POST', '/api/v1/order-report/rebuild', { token, body: {} });
    if (rebuilt.status !== 200) throw new Error(`rebuild answered ${rebuilt.status}`);
    const rebuildMs = performance.now() - t0;
    ctx.log(`rollup rebuilt in ${(rebuildMs / 1000).toFixed(1)} s: ${JSON.stringify(rebuilt.body.result)}`);
    // What autovacuum does after 116,000 inserted rows (an insert-triggered vacuum since
    // PostgreSQL 13): the planner's statistics and the visibility map of the rollup.
    await pgExec(db.url, 'VACUUM ANALYZE order_report_month');

    // The report through the API (HTTP, JSON and all), by customer, month and product.
    const apiMs = [];
    let byParty;
    for (let i = 0; i < CALLS; i++) {
      const groupBy = ['party', 'month', 'material'][i % 3];
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/sale-order/report?groupBy=${groupBy}`, { token });
      apiMs.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`report answered ${r.status}`);
      if (groupBy === 'party') byParty = r.body.result.rows;
    }
    // The same figures aggregated from the raw lines, inside the database (no HTTP at all).
    // One connection for both in-database measurements, so neither pays for connecting.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const rawMs = [];
    let raw;
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      raw = (await client.query(RAW_SQL)).rows;
      rawMs.push(performance.now() - s);
    }
    // The report's own statement on the rollup (summary rows per customer), inside the database too:
    // like against like with the raw aggregation above.
    const rollupMs = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      await client.query(ROLLUP_SQL);
      rollupMs.push(performance.now() - s);
    }
    // The same two statements timed inside the server (EXPLAIN ANALYZE without per-node timing):
    // both send the same 300 rows, whose transfer and parsing in the client (~1.5 ms) would
    // otherwise count in both and blur the comparison of the two ways of computing them.
    const executed = async (q) => {
      const r = await client.query(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${q}`);
      return r.rows[0]['QUERY PLAN'][0]['Execution Time'];
    };
    const rawExec = [];
    const rollupExec = [];
    for (let i = 0; i < 5; i++) {
      rawExec.push(await executed(RAW_SQL));
      rollupExec.push(await executed(ROLLUP_SQL));
    }
    await client.end();
    const fields = [
      'ordered_quantity',
      'ordered_amount',
      'line_count',
      'done_quantity',
      'open_quantity',
      'completed_lines',
    ];
    // onTimeLines is no longer the rollup's: it counts the lines due by today (orders/on-time.ts).
    const camel = (f) => f.replace(/_(\w)/g, (_, c) => c.toUpperCase());
    const mismatches =
      raw.filter((r, i) => {
        const a = byParty[i];
        return !a || a.key !== r.key || fields.some((f) => Number(a[camel(f)]) !== Number(r[f]));
      }).length + Math.abs(raw.length - byParty.length);

    // Approving 50-line orders with the credit check, among the loaded orders.
    const customer = (await pgExec(db.url, 'SELECT min(id) AS id FROM customer')).rows[0].id;
    const products = (await pgExec(db.url, 'SELECT id FROM material ORDER BY id LIMIT 50')).rows.map(
      (r) => r.id,
    );
    const approveMs = [];
    for (let i = 0; i < APPROVALS; i++) {
      const draft = await call(server.base, 'POST', '/api/v1/sale-order/add', {
        token,
        body: {
          customerId: Number(customer),
          orderDate: '2026-11-20',
          deliveryDate: '2026-12-20',
          lines: products.map((id, k) => ({ materialId: Number(id), quantity: 1 + k, unitPrice: '12.5' })),
        },
      });
      if (draft.status !== 200)
        throw new Error(`add answered ${draft.status}: ${JSON.stringify(draft.body)}`);
      const s = performance.now();
      const ok = await call(server.base, 'POST', `/api/v1/sale-order/approve/${draft.body.result.id}`, {
        token,
        body: {},
      });
      approveMs.push(performance.now() - s);
      if (ok.status !== 200) throw new Error(`approve answered ${ok.status}: ${JSON.stringify(ok.body)}`);
    }
    await server.stop();
    const api = median(apiMs);
    const rawMedian = median(rawMs);
    const rollupMedian = median(rollupMs);
    const rawExecMedian = median(rawExec);
    const rollupExecMedian = median(rollupExec);
    const approveP95 = pct(
      [...approveMs].sort((a, b) => a - b),
      95,
    );
    return [
      { metric: 'rollup rebuild (all orders)', value: Math.round(rebuildMs), unit: 'ms' },
      {
        metric: `report via API, median of ${CALLS} (party/month/material)`,
        value: Math.round(api),
        unit: 'ms',
        target: '≤ 300',
        pass: api <= 300,
      },
      { metric: 'same figures from raw lines in SQL, median of 5', value: Math.round(rawMedian), unit: 'ms' },
      {
        metric: 'report statement on the rollup in SQL, median of 5',
        value: Math.round(rollupMedian * 10) / 10,
        unit: 'ms',
      },
      {
        metric: 'raw lines ÷ rollup, round trips from a client',
        value: Math.round(rawMedian / rollupMedian),
        unit: '×',
      },
      {
        metric: 'raw lines ÷ rollup, execution in the server (medians of 5)',
        value: Math.round(rawExecMedian / rollupExecMedian),
        unit: '×',
        target: '≥ 20',
        pass: rawExecMedian / rollupExecMedian >= 20,
      },
      {
        metric: 'raw lines in SQL ÷ whole report call via API',
        value: Math.round((rawMedian / api) * 10) / 10,
        unit: '×',
      },
      {
        metric: 'rows differing between report and raw (by customer)',
        value: mismatches,
        unit: 'rows',
        target: '= 0',
        pass: mismatches === 0,
      },
      {
        metric: `approve a 50-line order (credit check), p95 of ${APPROVALS}`,
        value: Math.round(approveP95),
        unit: 'ms',
        target: '≤ 50',
        pass: approveP95 <= 50,
      },
    ];
  },
};
