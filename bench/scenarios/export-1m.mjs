// Issue 9 §1, "Exports … have no memory bound": 1,000,000 materials on PostgreSQL exported to Excel
// (a background job: server-side cursor → exceljs's streaming writer) while other users keep
// calling a list page at a steady rate. Judged: the server's RSS growth during the export
// (< 200 MB) and the p99 of the other requests meanwhile (< 200 ms); shown: the same p99 before
// the export, the export's duration and the file's size and rows.
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { call, freshPgDatabase, login, pgExec, sleep, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const ROWS = Number(process.env.BENCH_EXPORT_ROWS) || 1_000_000;
const OTHER = '/api/v1/material-unit/page?pageNum=1&pageSize=20';
const RATE = 50; // other requests per second, from 5 connections

const LOAD_SQL = [
  `INSERT INTO material_type (code, name, order_num)
     SELECT 'MT' || lpad(i::text, 3, '0'), '物料类型' || i, i FROM generate_series(1, 20) i`,
  `INSERT INTO material_unit (code, name)
     SELECT 'U' || lpad(i::text, 2, '0'), (ARRAY['件','套','个','千克','米','根','箱','桶','卷','片'])[i]
       FROM generate_series(1, 10) i`,
  `INSERT INTO material (code, name, spec, material_type_id, unit_id, status, batch_managed)
     SELECT 'M' || lpad(i::text, 7, '0'), (ARRAY['深沟球轴承 62', '轴承外圈 P6-', '钢球 G10-'])[1 + i % 3] || i,
            '6204-' || (i % 50), (SELECT min(id) FROM material_type) + i % 20,
            (SELECT min(id) FROM material_unit) + i % 10, CASE WHEN i % 10 = 0 THEN '0' ELSE '1' END, i % 7 = 0
       FROM generate_series(1, ${ROWS}) i`,
  'ANALYZE',
];

const rssMiB = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
};

/** Steady load on `url` until `stop()`; answers autocannon's result. */
function steadyLoad(url, headers) {
  let instance;
  const done = new Promise((resolve, reject) => {
    instance = autocannon({ url, headers, connections: 5, overallRate: RATE, duration: 3600 }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
  });
  return {
    stop() {
      instance.stop();
      return done;
    },
  };
}

export default {
  name: 'export-1m',
  description: `${ROWS.toLocaleString('en')} materials exported to Excel on PostgreSQL: server RSS growth and other requests' p99 meanwhile`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    ctx.log(`loaded ${ROWS} materials in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const exportDir = fs.mkdtempSync(path.join(ctx.benchDir, '.export-'));
    ctx.onCleanup(() => fs.rmSync(exportDir, { recursive: true, force: true }));
    server = await startServer(ctx, { ...env, EXPORT_DIR: exportDir });
    const token = await login(server.base, 'admin', PASSWORD);
    const headers = { authorization: `Bearer ${token}` };
    const pid = server.child.pid;

    // The other requests alone, for comparison.
    let load = steadyLoad(server.base + OTHER, headers);
    await sleep(5_000);
    const before = await load.stop();
    await sleep(500);
    const rssBefore = rssMiB(pid);

    load = steadyLoad(server.base + OTHER, headers);
    t0 = performance.now();
    const started = await call(server.base, 'GET', '/api/v1/material-info/export', { token });
    if (started.status !== 200 || !started.body.result?.jobId)
      throw new Error(
        `export answered HTTP ${started.status}: ${JSON.stringify(started.body).slice(0, 300)}`,
      );
    const { jobId, total, background } = started.body.result;
    ctx.log(`export job ${jobId}: ${total} rows, background ${background}`);
    let peak = rssBefore;
    let job;
    for (let i = 0; ; i++) {
      peak = Math.max(peak, rssMiB(pid));
      await sleep(200);
      if (i % 5 === 0) {
        job = (await call(server.base, 'GET', `/api/v1/export-job/${jobId}`, { token })).body.result;
        if (job.status !== 'running') break;
        if (i % 50 === 0) ctx.log(`  ${job.done} / ${job.total} rows, RSS ${peak.toFixed(0)} MiB`);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const during = await load.stop();
    if (job.status !== 'done') throw new Error(`export job ended ${job.status}`);
    const file = fs
      .readdirSync(exportDir, { recursive: true })
      .map((f) => path.join(exportDir, String(f)))
      .find((f) => f.endsWith(job.fileName));
    const bytes = file ? fs.statSync(file).size : 0;
    const msgs = await call(server.base, 'GET', '/api/v1/message/page?kind=export', { token });
    ctx.log(
      `export done in ${seconds.toFixed(1)} s, ${(bytes / 1_048_576).toFixed(1)} MiB; RSS ${rssBefore.toFixed(0)} → peak ${peak.toFixed(0)} MiB; ` +
        `other requests p99 ${before.latency.p99} ms before, ${during.latency.p99} ms during (${during.requests.total} requests, ${during.non2xx} non-2xx)`,
    );
    await server.stop();
    return [
      {
        metric: 'rows exported',
        value: job.done,
        unit: 'rows',
        target: `= ${ROWS}`,
        pass: job.done === ROWS,
      },
      { metric: 'export duration', value: Math.round(seconds * 10) / 10, unit: 's' },
      { metric: 'file size', value: Math.round(bytes / 104_857.6) / 10, unit: 'MiB' },
      {
        metric: 'server RSS before / peak during export',
        value: `${rssBefore.toFixed(0)} / ${peak.toFixed(0)}`,
        unit: 'MiB',
      },
      {
        metric: 'server RSS growth during export',
        value: Math.round(peak - rssBefore),
        unit: 'MiB',
        target: '< 200',
        pass: peak - rssBefore < 200,
      },
      {
        metric: `other requests (${RATE}/s) p50 / p99 before export`,
        value: `${before.latency.p50} / ${before.latency.p99}`,
        unit: 'ms',
      },
      {
        metric: `other requests (${RATE}/s) p99 during export`,
        value: during.latency.p99,
        unit: `ms (p50 ${during.latency.p50}, ${during.non2xx} non-2xx)`,
        target: '< 200',
        pass: during.latency.p99 < 200 && during.non2xx === 0,
      },
      {
        metric: 'download link sent as a message',
        value: msgs.body.result?.total ? 'yes' : 'no',
        unit: '',
        target: 'yes',
        pass: !!msgs.body.result?.total,
      },
    ];
  },
};
