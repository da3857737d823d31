// Issue 41 §2: 全局搜索 (Ctrl+K) as the user types, through GET /api/v1/search on PostgreSQL with
// 1,000,000 documents (300,000 production orders, 400,000 inbound and 300,000 outbound documents,
// numbered as the system numbers them: prefix, day, serial) and 50,000 materials, 10,000 customers.
import { call, freshPgDatabase, login, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const DOCS = Number(process.env.BENCH_SEARCH_DOCS) || 1_000_000;
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS) || 10;
const PER_DAY = 300;

// A number as the system makes it: prefix, business day (from 2024-01-01), 4-digit serial of the day.
const number = (prefix, i) =>
  `'${prefix}' || to_char(DATE '2024-01-01' + (${i} / ${PER_DAY}), 'YYYYMMDD') || '-' || lpad((${i} % ${PER_DAY} + 1)::text, 4, '0')`;

const orders = Math.round(DOCS * 0.3);
const inbound = Math.round(DOCS * 0.4);
const outbound = DOCS - orders - inbound;

const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('FG', '成品', 1)`,
  `INSERT INTO material (code, name, spec, material_type_id, unit_id, status)
     SELECT 'WL' || lpad(i::text, 6, '0'), (ARRAY['深沟球轴承', '圆锥滚子轴承', '外圈', '内圈', '保持架'])[i % 5 + 1] || ' ' || (6200 + i % 100),
            (6200 + i % 100)::text || '-2RS', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1'
       FROM generate_series(1, 50000) i`,
  `INSERT INTO customer (code, name) SELECT 'KH' || lpad(i::text, 5, '0'), '客户' || i || '轴承贸易有限公司' FROM generate_series(1, 10000) i`,
  `INSERT INTO warehouse (code, name, type) VALUES ('CK01', '成品仓', 'finished')`,
  `INSERT INTO production_order (doc_no, product_id, quantity, due_date, status)
     SELECT ${number('SC', 'i')}, (SELECT min(id) FROM material) + i % 50000, 1000, DATE '2024-01-01' + (i / ${PER_DAY}) + 30, 'producing'
       FROM generate_series(0, ${orders - 1}) i`,
  `INSERT INTO stock_outbound (doc_no, type, warehouse_id, status)
     SELECT ${number('CK', 'i')}, (ARRAY['requisition', 'sales', 'other'])[i % 3 + 1], (SELECT min(id) FROM warehouse), 'posted'
       FROM generate_series(0, ${outbound - 1}) i`,
  `INSERT INTO stock_inbound (doc_no, type, warehouse_id, status)
     SELECT ${number('RK', 'i')}, (ARRAY['purchase', 'production', 'other'])[i % 3 + 1], (SELECT min(id) FROM warehouse), 'posted'
       FROM generate_series(0, ${inbound - 1}) i`,
  'ANALYZE',
];

/** What a user types, key by key, looking for a few documents and records (and a page). */
function typing() {
  const day = (n) => {
    const d = new Date(Date.UTC(2024, 0, 1) + Math.floor(n / PER_DAY) * 86_400_000);
    return d.toISOString().slice(0, 10).replace(/-/g, '');
  };
  const doc = (prefix, n) => `${prefix}${day(n)}-${String((n % PER_DAY) + 1).padStart(4, '0')}`;
  const words = [
    doc('RK', Math.floor(inbound * 0.7)),
    doc('SC', Math.floor(orders * 0.2)),
    doc('CK', Math.floor(outbound * 0.95)),
    'WL012345',
    'KH00917',
  ];
  const out = [];
  // The palette asks the server from the second character on.
  for (const w of words) for (let n = 2; n <= w.length; n++) out.push(w.slice(0, n));
  // Fragments from the middle: a serial's tail, a spec, Chinese names.
  out.push('0123', '-0042', '6204', '6204-2RS', '轴承', '深沟球', '客户917', '圆锥滚子轴承 62');
  return { words, out };
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export default {
  name: 'global-search',
  description: `全局搜索 (Ctrl+K) as the user types, over ${DOCS.toLocaleString('en')} documents and 60,000 master records (PostgreSQL, via the API)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    const started = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(
      `loaded ${DOCS.toLocaleString('en')} documents in ${Math.round((performance.now() - started) / 1000)} s`,
    );
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const { words, out } = typing();
    const ask = async (q) => {
      const s = performance.now();
      const r = await call(server.base, 'GET', `/api/v1/search?q=${encodeURIComponent(q)}`, { token });
      const ms = performance.now() - s;
      if (r.status !== 200) throw new Error(`search ${q} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return { ms, hits: r.body.result.hits };
    };
    // Warm-up: one pass of every fragment.
    for (const q of out) await ask(q);
    // Each whole number finds its document first.
    for (const w of words) {
      const { hits } = await ask(w);
      if (hits[0]?.code !== w) throw new Error(`${w}: first hit ${JSON.stringify(hits[0])}`);
    }
    const ms = [];
    let slowest = { ms: 0, q: '' };
    for (let round = 0; round < ROUNDS; round++)
      for (const q of out) {
        const r = await ask(q);
        ms.push(r.ms);
        if (r.ms > slowest.ms) slowest = { ms: r.ms, q };
      }
    await server.stop();
    const p95 = pct(ms, 95);
    return [
      {
        metric: `search as one types (${out.length} fragments × ${ROUNDS}: 5 numbers and codes key by key, 8 fragments), p95`,
        value: Math.round(p95),
        unit: 'ms',
        target: '≤ 150',
        pass: p95 <= 150,
      },
      { metric: 'same, p50', value: Math.round(pct(ms, 50)), unit: 'ms' },
      { metric: `slowest fragment: «${slowest.q}»`, value: Math.round(slowest.ms), unit: 'ms' },
    ];
  },
};
