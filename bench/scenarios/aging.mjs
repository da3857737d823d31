// Issue 15 "Numbers": the aging of 10,000 customers with 1,000,000 receivable rows on PostgreSQL,
// through GET /api/v1/receivable/aging (buckets 未到期, 0–30, 31–60, 61–90, > 90 days past due, all
// customers' totals, the first page by open amount), ≤ 300 ms. Three years of history: 80 % of the
// rows settled, the rest open or partly received. The API's totals are checked against the same
// figures aggregated from every row in SQL.
import { call, freshPgDatabase, login, pg, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const CUSTOMERS = Number(process.env.BENCH_AGING_CUSTOMERS) || 10_000;
const ROWS = Number(process.env.BENCH_AGING_ROWS) || 1_000_000;
const CALLS = 20;

const LOAD_SQL = [
  `INSERT INTO customer (code, name, state, payment_term, payment_days)
     SELECT 'C' || lpad(i::text, 5, '0'), '客户' || i, '1', 'days', 30 FROM generate_series(1, ${CUSTOMERS}) i`,
  // Row i: customer (i / 10) % N (ten rows in a row each), dated up to three years back; 8 of 10 settled, 1 open, 1 partly received.
  `INSERT INTO receivable (doc_no, customer_id, source_type, biz_date, due_date, amount, settled_amount, status)
     SELECT 'YSB' || lpad(i::text, 8, '0'), (SELECT min(id) FROM customer) + (i / 10) % ${CUSTOMERS}, 'manual',
            d, d + 30, a,
            CASE WHEN i % 10 < 8 THEN a WHEN i % 10 = 8 THEN 0 ELSE round(a / 3, 2) END,
            CASE WHEN i % 10 < 8 THEN 'settled' WHEN i % 10 = 8 THEN 'open' ELSE 'partly' END
       FROM generate_series(1, ${ROWS}) i,
            LATERAL (SELECT CASE WHEN i % 10 < 8 THEN CURRENT_DATE - (i % 1095)::int ELSE CURRENT_DATE - (i % 200)::int END AS d,
                            (100 + (i * 37) % 9900)::numeric(18,2) AS a) x`,
  // The last quarter's settled rows were paid by receipts (one each, ten days after the item or
  // today), so the aging at a past date has history to rebuild.
  `INSERT INTO receipt (doc_no, customer_id, biz_date, method, amount, status)
     SELECT 'SKB' || v.id, v.customer_id, LEAST(v.biz_date + 10, CURRENT_DATE), 'bank', v.amount, 'confirmed'
       FROM receivable v WHERE v.status = 'settled' AND v.biz_date >= CURRENT_DATE - 90`,
  `INSERT INTO receipt_line (receipt_id, line_no, receivable_id, amount)
     SELECT h.id, 1, substr(h.doc_no, 4)::bigint, h.amount FROM receipt h WHERE h.doc_no LIKE 'SKB%'`,
  // 确认 writes each receipt's application rows (dated by the receipt); the aging at a past date reads them.
  `INSERT INTO receivable_applied (settle_id, item_id, party_id, applied_on, item_biz_date, item_due_date, amount)
     SELECT h.id, v.id, v.customer_id, h.biz_date, v.biz_date, v.due_date, l.amount
       FROM receipt h JOIN receipt_line l ON l.receipt_id = h.id JOIN receivable v ON v.id = l.receivable_id
      WHERE h.doc_no LIKE 'SKB%'`,
  'VACUUM ANALYZE receivable',
  'VACUUM ANALYZE receivable_applied',
  'VACUUM ANALYZE receipt',
  'VACUUM ANALYZE receipt_line',
  'ANALYZE customer',
];

// At a past date: every item dated by then, at what is open now plus what receipts dated after it applied.
const PAST_SQL = `
  SELECT count(DISTINCT v.customer_id)::int AS customers, sum(v.open_amount + COALESCE(x.later, 0))::text AS total
    FROM receivable v
    LEFT JOIN (SELECT l.receivable_id, sum(l.amount) AS later FROM receipt_line l JOIN receipt h ON h.id = l.receipt_id
                WHERE h.status = 'confirmed' AND h.biz_date > $1::date GROUP BY 1) x ON x.receivable_id = v.id
   WHERE v.biz_date <= $1::date AND v.status NOT IN ('draft', 'reversed') AND v.open_amount + COALESCE(x.later, 0) <> 0`;

const RAW_SQL = `
  SELECT count(DISTINCT customer_id)::int AS customers, sum(open_amount)::text AS total,
         sum(open_amount) FILTER (WHERE $1::date - due_date < 0)::text AS not_due,
         sum(open_amount) FILTER (WHERE $1::date - due_date > 90)::text AS over90
    FROM receivable WHERE status IN ('open', 'partly')`;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export default {
  name: 'aging',
  description: `应收账龄 of ${CUSTOMERS.toLocaleString('en')} customers over ${ROWS.toLocaleString('en')} receivable rows on PostgreSQL`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    const t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(`loaded ${ROWS} receivables in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    // The ages are counted on the database's today (the server's would be the factory's day).
    const asOf = (await pgExec(db.url, 'SELECT CURRENT_DATE::text AS d')).rows[0].d;
    const ms = [];
    let answer;
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const r = await call(
        server.base,
        'GET',
        `/api/v1/receivable/aging?asOf=${asOf}&pageNum=${1 + (i % 3)}&pageSize=20`,
        {
          token,
        },
      );
      if (i >= 3) ms.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`aging answered ${r.status}: ${JSON.stringify(r.body)}`);
      answer = r.body.result;
    }
    // The aging 60 days back, rebuilt from the receipts dated after it.
    const past = (await pgExec(db.url, 'SELECT (CURRENT_DATE - 60)::text AS d')).rows[0].d;
    const pastMs = [];
    let pastAnswer;
    for (let i = 0; i < CALLS + 3; i++) {
      const s = performance.now();
      const r = await call(
        server.base,
        'GET',
        `/api/v1/receivable/aging?asOf=${past}&pageNum=${1 + (i % 3)}&pageSize=20`,
        {
          token,
        },
      );
      if (i >= 3) pastMs.push(performance.now() - s);
      if (r.status !== 200) throw new Error(`aging answered ${r.status}: ${JSON.stringify(r.body)}`);
      pastAnswer = r.body.result;
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const raw = (await client.query(RAW_SQL, [asOf])).rows[0];
    const rawPast = (await client.query(PAST_SQL, [past])).rows[0];
    await client.end();
    const samePast =
      pastAnswer.total === rawPast.customers && Number(pastAnswer.totals.total) === Number(rawPast.total);
    const pastSorted = [...pastMs].sort((a, b) => a - b);
    await server.stop();
    const same =
      answer.total === raw.customers &&
      Number(answer.totals.total) === Number(raw.total) &&
      Number(answer.totals.notDue) === Number(raw.not_due ?? 0) &&
      Number(answer.totals.over90) === Number(raw.over90 ?? 0);
    const sorted = [...ms].sort((a, b) => a - b);
    const p50 = pct(sorted, 50);
    const p95 = pct(sorted, 95);
    return [
      {
        metric: `aging via API, median of ${CALLS} (${answer.total} customers with open items)`,
        value: Math.round(p50),
        unit: 'ms',
        target: '≤ 300',
        pass: p50 <= 300,
      },
      { metric: 'aging via API, p95', value: Math.round(p95), unit: 'ms' },
      {
        metric: `aging 60 days back via API (rebuilt from later receipts), median of ${CALLS}`,
        value: Math.round(pct(pastSorted, 50)),
        unit: 'ms',
        target: '≤ 300',
        pass: pct(pastSorted, 50) <= 300,
      },
      {
        metric: 'past-date totals equal SQL over every row',
        value: samePast ? 1 : 0,
        unit: 'bool',
        target: '= 1',
        pass: samePast,
      },
      {
        metric: 'API totals equal SQL over every row',
        value: same ? 1 : 0,
        unit: 'bool',
        target: '= 1',
        pass: same,
      },
    ];
  },
};
