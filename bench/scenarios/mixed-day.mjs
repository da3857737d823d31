// Issue 39 §2: a day's mixed load on 10× data, through the API on PostgreSQL. The demo factory with
// its posted work reports grown to 10× (bench/growth.mjs) and the dashboard scenario's shop floor
// (16 operators, each on a one-step order of his own, so every posting is a last step with its
// 生产入库), then for BENCH_MIXED_SECONDS (180) at once:
// - 16 operators: 报工 (add + submit), then 审核 (approve → posted, 生产入库 made), 2 s apart;
// - 8 users paging lists (work reports, the ledger, balances, orders, cards, materials), 0.5 s apart;
// - 10 live dashboards (6 全厂, 4 车加工) on Server-Sent Events: a posting counts as shown on a
//   screen when a frame whose computation began after the approve answered arrives there;
// - 2 users reading the 生产报表, 3 s apart;
// - one Excel export of every work report (a background job), started after 30 s.
// Per class p50/p95/p99 and errors, and where the CPU went (server process, PostgreSQL backends).
import { growWorkReports } from '../growth.mjs';
import {
  freshPgDatabase,
  httpClient,
  login,
  PG_ADMIN_URL,
  pg,
  pgExec,
  processCpuMs,
  seedDemo,
  sleep,
  startServer,
} from '../lib.mjs';
import { LOAD_SQL, openStream } from './dashboard.mjs';

const SECONDS = Number(process.env.BENCH_MIXED_SECONDS) || 180;
const FACTOR = 10;
const OPERATORS = 16;
const LIST_USERS = 8;
const REPORT_USERS = 2;
const STREAMS = { whole: 6, machine: 4 };
const POSTING_PAUSE_MS = 2_000;
const LIST_PAUSE_MS = 500;
const REPORT_PAUSE_MS = 3_000;
const EXPORT_AFTER_MS = 30_000;

const LISTS = [
  '/api/v1/work-report/page?pageNum=1&pageSize=20',
  '/api/v1/stock-ledger/page?pageNum=1&pageSize=20',
  '/api/v1/stock-balance/page?pageNum=1&pageSize=20',
  '/api/v1/sale-order/page?pageNum=1&pageSize=20',
  '/api/v1/production-order/page?pageNum=1&pageSize=20',
  '/api/v1/flow-card/page?pageNum=1&pageSize=20',
  '/api/v1/material-info/page?pageNum=1&pageSize=20',
  '/api/v1/work-report/page?pageNum=3&pageSize=20&status=posted',
];
const REPORTS = [
  'productionTotal',
  'analyzeMonthlyProcessCapacity',
  'analyzeMonthlyWorkerCapacity',
  'workerRejectStats',
];

const pct = (xs, p) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

export default {
  name: 'mixed-day',
  description: `a day's mixed load on ${FACTOR}× data for ${SECONDS} s: lists, ${OPERATORS} operators 报工 + 审核, live dashboards, reports, an export (PostgreSQL)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'demo' };
    const seeding = await seedDemo(ctx, env);
    ctx.log(`demo seeded in ${(seeding.readyMs / 1000).toFixed(1)} s`);
    await seeding.stop();
    const base = Number(
      (await pgExec(db.url, `SELECT count(*)::int AS n FROM work_report WHERE status = 'posted'`)).rows[0].n,
    );
    const grown = await growWorkReports(db.url, base, FACTOR);
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    await pgExec(db.url, 'VACUUM ANALYZE');
    ctx.log(`${grown} posted work reports (${FACTOR}× the demo's ${base})`);
    const server = await startServer(ctx, env);
    const token = await login(server.base);
    const client = httpClient(server.base, { token, connections: 64 });
    ctx.onCleanup(() => client.close());
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    // The reports are asked by month, as their pages open: this month, or the quarter up to it.
    const thisMonth = today.slice(0, 7);
    const [y, m] = thisMonth.split('-').map(Number);
    const quarterFrom = `${m > 2 ? y : y - 1}-${String(((m + 9) % 12) + 1).padStart(2, '0')}`;

    // Every list and report answers before the load starts (a wrong path fails here, not as errors).
    for (const p of [
      ...LISTS,
      ...REPORTS.map((n) => `/api/v1/production-report/${n}?from=${thisMonth}&to=${thisMonth}`),
    ]) {
      const r = await client.request('GET', p);
      if (r.status !== 200)
        throw new Error(`${p} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    const ids = async (sql) => (await pgExec(db.url, sql)).rows.map((r) => Number(r.id));
    const dispatches = await ids(
      `SELECT id FROM work_dispatch WHERE doc_no LIKE 'PGDBENCH-%' ORDER BY production_order_id`,
    );
    const cards = await ids(
      `SELECT id FROM flow_card WHERE doc_no LIKE 'LZDBENCH-%' ORDER BY production_order_id`,
    );

    const streams = [];
    for (const [scope, n] of Object.entries(STREAMS))
      for (let i = 0; i < n; i++) streams.push(await openStream(server.base, token, scope));
    await Promise.all(streams.map((s) => s.firstFrame));

    const samples = { lists: [], 报工: [], 审核: [], reports: [] };
    const errors = { lists: 0, 报工: 0, 审核: 0, reports: 0, export: 0, screens: 0 };
    const errorSamples = [];
    const timed = async (cls, method, path, body) => {
      const s = performance.now();
      let r;
      try {
        r = await client.request(method, path, body);
      } catch (err) {
        r = { status: 0, body: { message: String(err?.message ?? err) } };
      }
      samples[cls].push(performance.now() - s);
      if (r.status !== 200) {
        errors[cls] += 1;
        if (errorSamples.length < 5)
          errorSamples.push(`${cls} ${path}: ${r.status} ${r.body?.message ?? ''}`);
        return undefined;
      }
      return r.body.result;
    };

    const cpu0 = { server: processCpuMs(server.child.pid), postgres: 0 };
    const t0 = Date.now();
    const end = t0 + SECONDS * 1000;
    const postings = [];
    const jitter = (ms) => ms * (0.75 + Math.random() / 2);

    const operator = async (o) => {
      await sleep(jitter(POSTING_PAUSE_MS));
      while (Date.now() < end) {
        const added = await timed('报工', 'POST', '/api/v1/work-report/add', {
          dispatchId: dispatches[o],
          flowCardId: cards[o],
          reportDate: today,
          goodQuantity: '10',
        });
        if (added && (await timed('报工', 'POST', `/api/v1/work-report/submit/${added.id}`, {}))) {
          const start = Date.now();
          const approved = await timed('审核', 'POST', `/api/v1/work-report/approve/${added.id}`, {});
          if (approved) postings.push({ start, answered: Date.now() });
        }
        await sleep(jitter(POSTING_PAUSE_MS));
      }
    };
    const lister = async (u) => {
      for (let k = u; Date.now() < end; k++) {
        await timed('lists', 'GET', LISTS[k % LISTS.length]);
        await sleep(jitter(LIST_PAUSE_MS));
      }
    };
    const reader = async (u) => {
      for (let k = u; Date.now() < end; k++) {
        const from = k % 2 ? quarterFrom : thisMonth;
        await timed(
          'reports',
          'GET',
          `/api/v1/production-report/${REPORTS[k % REPORTS.length]}?from=${from}&to=${thisMonth}`,
        );
        await sleep(jitter(REPORT_PAUSE_MS));
      }
    };
    let exportMs;
    const exporter = async () => {
      await sleep(EXPORT_AFTER_MS);
      const s = performance.now();
      const started = await client.request('GET', '/api/v1/work-report/export');
      const jobId = started.body?.result?.jobId;
      if (started.status !== 200 || !jobId) {
        errors.export += 1;
        errorSamples.push(`export: ${started.status} ${started.body?.message ?? ''}`);
        return;
      }
      for (;;) {
        await sleep(500);
        const job = (await client.request('GET', `/api/v1/export-job/${jobId}`)).body?.result;
        if (job?.status === 'running') continue;
        if (job?.status !== 'done') {
          errors.export += 1;
          errorSamples.push(`export job ended ${job?.status}`);
        }
        exportMs = performance.now() - s;
        return;
      }
    };
    // Where the backends wait: every 200 ms, the ones waiting for a lock and the table it is on.
    const locks = { samples: 0, waits: 0, byTable: {} };
    const backendCpu = new Map();
    const sampler = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        while (Date.now() < end) {
          const r = await c.query(
            // A row lock is waited for as the holder's transaction id: name it by the table the
            // waiting statement writes (its first INSERT INTO / UPDATE / DELETE FROM).
            `SELECT coalesce(substring(a.query from '(?i)(?:insert\\s+into|update|delete\\s+from)\\s+([a-z_]+)'),
                             l.relation::regclass::text, l.locktype) AS what
               FROM pg_stat_activity a JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted
              WHERE a.datname = $1 AND a.wait_event_type = 'Lock'`,
            [db.name],
          );
          // The backends' CPU, per backend from when it was first seen (a backend that ends in
          // the window keeps what it used; one that starts in it counts from 0).
          const pids = await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db.name]);
          for (const { pid } of pids.rows) {
            const ms = processCpuMs(pid);
            if (ms === undefined) continue;
            const seen = backendCpu.get(pid);
            if (seen) seen.last = ms;
            else backendCpu.set(pid, { first: locks.samples === 0 ? ms : 0, last: ms });
          }
          locks.samples += 1;
          for (const { what } of r.rows) {
            locks.waits += 1;
            locks.byTable[what] = (locks.byTable[what] ?? 0) + 1;
          }
          await sleep(200);
        }
      } finally {
        await c.end();
      }
    };
    await Promise.all([
      sampler(),
      ...Array.from({ length: OPERATORS }, (_, o) => operator(o)),
      ...Array.from({ length: LIST_USERS }, (_, u) => lister(u)),
      ...Array.from({ length: REPORT_USERS }, (_, u) => reader(u)),
      exporter(),
    ]);
    const wall = Date.now() - t0;
    const sampled = [...backendCpu.values()].reduce((n, b) => n + b.last - b.first, 0);
    const cpu1 = { server: processCpuMs(server.child.pid), postgres: cpu0.postgres + sampled };

    // Posting → screen: every stream (all show the turning workshop's postings).
    await sleep(2_000);
    const toScreen = [];
    for (const p of postings)
      for (const s of streams) {
        const f = s.frames.find((x) => x.startedAt >= p.answered);
        if (f) toScreen.push(f.at - p.start);
        else errors.screens += 1;
      }
    for (const s of streams) s.close();
    await server.stop();
    for (const e of errorSamples) ctx.log(`error: ${e}`);

    const cores = (k) =>
      cpu0[k] === undefined || cpu1[k] === undefined ? 'n/a' : ((cpu1[k] - cpu0[k]) / wall).toFixed(2);
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    const row = (cls, target) => {
      const xs = samples[cls];
      const p95 = pct(xs, 95);
      return {
        metric: `${cls}: p95 of ${xs.length} (p50 ${Math.round(pct(xs, 50))}, p99 ${Math.round(pct(xs, 99))} ms; ${errors[cls]} errors)`,
        value: Math.round(p95),
        unit: 'ms',
        target: target ? `≤ ${target}` : 'info',
        pass: target ? p95 <= target : true,
      };
    };
    return [
      row('lists', 150),
      row('审核', 200),
      row('报工'),
      row('reports'),
      {
        metric: `posting → screen: p95 of ${postings.length} postings × ${streams.length} screens (p50 ${Math.round(pct(toScreen, 50))}, p99 ${Math.round(pct(toScreen, 99))} ms; ${errors.screens} never shown)`,
        value: Math.round(pct(toScreen, 95)),
        unit: 'ms',
        target: '≤ 1000',
        pass: pct(toScreen, 95) <= 1000 && errors.screens === 0,
      },
      {
        metric: `export of every work report (${grown + postings.length}) as a background job, while the rest ran`,
        value: exportMs === undefined ? 'n/a' : Math.round(exportMs),
        unit: 'ms',
        target: 'info',
        pass: true,
      },
      {
        metric: `errors (lists ${errors.lists}, 报工 ${errors.报工}, 审核 ${errors.审核}, reports ${errors.reports}, export ${errors.export}, screens ${errors.screens})`,
        value: errorCount,
        unit: '',
        target: '= 0',
        pass: errorCount === 0,
      },
      {
        metric: `lock waits seen in ${locks.samples} samples of pg_stat_activity (by table: ${
          Object.entries(locks.byTable)
            .sort((a, b) => b[1] - a[1])
            .map(([k, n]) => `${k} ${n}`)
            .join(', ') || 'none'
        })`,
        value: locks.waits,
        unit: '',
        target: 'info',
        pass: true,
      },
      {
        metric: `CPU over ${Math.round(wall / 1000)} s, in cores: server process / PostgreSQL backends`,
        value: `${cores('server')} / ${cores('postgres')}`,
        unit: 'cores',
        target: 'info',
        pass: true,
      },
    ];
  },
};
