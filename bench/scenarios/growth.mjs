// Issue 39 §1: costs that stay flat as the data grows. The demo factory on PostgreSQL, grown to 10×
// and then 100×: the posted work reports copied back in time (bench/growth.mjs; today's reports as
// the demo has them) and a stock ledger whose business dates grow with its ids, as a real ledger's do
// (BENCH_GROWTH_LEDGER moves per ×, 30,000 by default: 300,000 at 10×, 3,000,000 at 100×; 2 % of
// them on one material, five moves a document). At each size, through the API on a fresh server:
// the dashboard snapshot (全厂 and 车加工) and the ledger with its own filters (a month a year
// back, a document number, the busy material), 20 calls each after 3 warm-up, medians.
import { growWorkReports } from '../growth.mjs';
import { call, freshPgDatabase, login, median, pgExec, seedDemo, startServer } from '../lib.mjs';

const PER_X = Number(process.env.BENCH_GROWTH_LEDGER) || 30_000;
const FACTORS = [10, 100];
const CALLS = 20;
const WARMUP = 3;
/** The ledger's history: this many days up to today, the moves spread evenly over them. */
const DAYS = 1_000;

const shanghaiDay = (offsetDays = 0) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );

/**
 * The grown ledger: `rows` moves over DAYS days up to today, ids and dates rising together. Written
 * as a replica would (no triggers): consistent by construction, and deleting the previous size's
 * moves would otherwise check the ledger's self-reference (`reversal_of`) once per row.
 */
export async function growLedger(url, rows) {
  const replica = 'SET session_replication_role = replica;';
  await pgExec(url, `${replica} DELETE FROM stock_ledger WHERE doc_no LIKE 'GL%'`);
  const chunk = 250_000;
  for (let done = 0; done < rows; done += chunk) {
    const n = Math.min(chunk, rows - done);
    await pgExec(
      url,
      `${replica} INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no, biz_date, created_by)
       SELECT CASE WHEN i % 50 = 0 THEN m.busy ELSE m.ids[1 + ((i::bigint * 7919) % array_length(m.ids, 1))::int] END,
              w.ids[1 + (i / 5) % array_length(w.ids, 1)],
              CASE WHEN i % 3 = 0 THEN -2 ELSE 5 END, 1.5, CASE WHEN i % 3 = 0 THEN -3 ELSE 7.5 END,
              'stock-inbound', 'purchase', i / 5, 'GL' || lpad((i / 5)::text, 8, '0'),
              (now() AT TIME ZONE 'Asia/Shanghai')::date - ${DAYS} + (i::bigint * ${DAYS} / ${rows})::int, 1
         FROM generate_series(${done + 1}, ${done + n}) i,
              (SELECT array_agg(id ORDER BY id) AS ids, min(id) AS busy FROM material) m,
              (SELECT array_agg(id ORDER BY id) AS ids FROM warehouse) w`,
    );
  }
  await pgExec(url, 'VACUUM ANALYZE stock_ledger');
}

async function timed(base, token, path) {
  const ms = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const s = performance.now();
    const r = await call(base, 'GET', path, { token });
    const t = performance.now() - s;
    if (r.status !== 200)
      throw new Error(`${path} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    if (i >= WARMUP) ms.push(t);
  }
  return median(ms);
}

export default {
  name: 'growth',
  description: 'dashboard snapshot and the filtered ledger at 10× and 100× the demo (PostgreSQL)',
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'demo' };
    const seeding = await seedDemo(ctx, env);
    ctx.log(`demo seeded in ${(seeding.readyMs / 1000).toFixed(1)} s`);
    await seeding.stop();
    const base = Number(
      (await pgExec(db.url, `SELECT count(*)::int AS n FROM work_report WHERE status = 'posted'`)).rows[0].n,
    );
    const busy = Number((await pgExec(db.url, 'SELECT min(id) AS id FROM material')).rows[0].id);
    const from = shanghaiDay(-365);
    const to = shanghaiDay(-335);

    const at = {};
    for (const factor of FACTORS) {
      const t0 = performance.now();
      const reports = await growWorkReports(db.url, base, factor);
      const moves = PER_X * factor;
      await growLedger(db.url, moves);
      const docNo = `GL${String(Math.floor(moves / 10)).padStart(8, '0')}`;
      ctx.log(
        `${factor}×: ${reports} posted reports, ${moves} grown ledger moves (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
      const server = await startServer(ctx, env);
      const token = await login(server.base);
      const paths = {
        'snapshot 全厂': '/api/v1/dashboard/snapshot?scope=whole',
        'snapshot 车加工': '/api/v1/dashboard/snapshot?scope=machine',
        'ledger, a month a year back': `/api/v1/stock-ledger/page?pageNum=1&pageSize=20&bizDateFrom=${from}&bizDateTo=${to}`,
        'ledger, one document number': `/api/v1/stock-ledger/page?pageNum=1&pageSize=20&docNo=${docNo}`,
        'ledger, the busy material': `/api/v1/stock-ledger/page?pageNum=1&pageSize=20&materialId=${busy}`,
      };
      at[factor] = {};
      for (const [k, p] of Object.entries(paths)) {
        at[factor][k] = await timed(server.base, token, p);
        ctx.log(`${factor}× ${k}: median ${at[factor][k].toFixed(1)} ms`);
      }
      await server.stop();
    }
    const [small, big] = FACTORS;
    return Object.keys(at[big]).flatMap((k) => {
      const ratio = at[big][k] / at[small][k];
      return [
        {
          metric: `${k}: median at ${big}× (${small}×: ${at[small][k].toFixed(1)} ms)`,
          value: Math.round(at[big][k] * 10) / 10,
          unit: 'ms',
          target: 'info',
          pass: true,
        },
        {
          metric: `${k}: ${big}× ÷ ${small}×`,
          value: Math.round(ratio * 100) / 100,
          unit: '×',
          target: '≤ 2.00',
          pass: ratio <= 2,
        },
      ];
    });
  },
};
