// Issue 34 §3 "One operator's reads stall everyone's postings": a posting's latency (审核 → 入账 of
// a work report) while nobody reads, and while one user keeps 24 `GET /api/v1/work-report/listAll`
// (3,200 rows) in flight, on PostgreSQL through the API (pool 10). Before the per-user limit and
// the pool share (platform/http/heavy-reads.ts) the postings went from p50 4 ms to p50 5.6 s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshPgDatabase, httpClient, login, pgExec, processCpuMs, sleep, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
/** Past posted reports: what listAll answers (the 3,200 rows). */
const PAST = Number(process.env.BENCH_HEAVY_ROWS) || 3200;
/** Operators posting at once, each on a dispatch and card of his own. */
const POSTERS = 4;
/** Postings per operator: untimed warm-up, then each measured phase. */
const WARMUP = 30;
const PER_PHASE = Number(process.env.BENCH_HEAVY_POSTINGS) || 60;
/** The reader's all-rows calls kept in flight. */
const READERS = 24;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** POSTERS one-step orders, each with a task, an operator, a started dispatch and a card; PAST posted reports. */
const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('SF', '半成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('R6204', '6204 内圈', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO workshop (code, name, type, status) VALUES ('WS01', '车加工车间', 'machine', '1')`,
  `INSERT INTO process (code, name, piece_rate, standard_minutes, status)
     VALUES ('GX010', '车内圈', 0.16, 1.6, '1'), ('GX020', '磨内径', 0.12, 1.0, '1')`,
  `INSERT INTO production_order (doc_no, product_id, quantity, planned_start_date, due_date, status)
     SELECT 'SCHEAVY-' || o, (SELECT min(id) FROM material), 10000000, CURRENT_DATE, CURRENT_DATE + 30, 'producing'
       FROM generate_series(1, ${POSTERS}) o`,
  // Two steps: the postings are of the first, which moves pieces on to the second (no 完工入库).
  `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, planned_quantity)
     SELECT p.id, n, n * 10, (SELECT id FROM process WHERE code = 'GX0' || n || '0'), (SELECT min(id) FROM workshop), 10000000
       FROM production_order p CROSS JOIN generate_series(1, 2) n`,
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, standard_minutes, planned_start_date, planned_finish_date, priority, order_step_id)
     SELECT p.doc_no || '-' || s.seq, 'started', s.production_order_id, p.product_id, s.seq, s.process_id, 'machine', s.workshop_id,
            10000000, 1.6, CURRENT_DATE, CURRENT_DATE + 5, 'normal', s.id
       FROM production_order_step s JOIN production_order p ON p.id = s.production_order_id`,
  `INSERT INTO app_user (user_name, first_name, password_hash)
     SELECT 'opheavy' || i, '操作工' || i, 'not-a-login' FROM generate_series(1, ${POSTERS}) i`,
  `INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type, workshop_id,
                              operator_id, work_date, shift, quantity, started_at)
     SELECT 'PGHEAVY-' || t.task_no, 'started', t.id, t.production_order_id, t.product_id, t.process_id, 'machine',
            t.workshop_id, u.id, CURRENT_DATE, 'day', 1000000, now()
       FROM (SELECT *, row_number() OVER (ORDER BY id) AS k FROM workshop_task WHERE seq = 10) t
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM app_user WHERE user_name LIKE 'opheavy%') u ON u.k = t.k`,
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
     SELECT 'LZHEAVY-' || substr(p.doc_no, 9), 'open', p.id, p.product_id, 1000000, 10, 'open' FROM production_order p`,
  `INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, input_quantity)
     SELECT c.id, s.line_no, s.id, s.seq, s.process_id, s.workshop_id, CASE WHEN s.seq = 10 THEN c.quantity ELSE 0 END
       FROM flow_card c JOIN production_order_step s ON s.production_order_id = c.production_order_id`,
  `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                            workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                            work_scrap_quantity, material_scrap_quantity, rework_quantity, posted_at)
     SELECT 'BGPAST-' || i, 'posted', d.id, (SELECT min(id) FROM flow_card), d.production_order_id, d.task_id, d.product_id,
            10, d.process_id, 'machine', d.workshop_id, (SELECT order_step_id FROM workshop_task WHERE id = d.task_id),
            d.operator_id, CURRENT_DATE - i % 60, 'day', 0, 0, 0, 0, now()
       FROM generate_series(1, ${PAST}) i, (SELECT * FROM work_dispatch ORDER BY id LIMIT 1) d`,
  // Submitted reports to post: per operator, the warm-up and both phases.
  `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                            workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                            work_scrap_quantity, material_scrap_quantity, rework_quantity)
     SELECT 'BGPOST-' || d.id || '-' || k, 'submitted', d.id, c.id, d.production_order_id, d.task_id, d.product_id, 10,
            d.process_id, 'machine', d.workshop_id, t.order_step_id, d.operator_id, CURRENT_DATE, 'day', 10, 0, 0, 0
       FROM work_dispatch d JOIN workshop_task t ON t.id = d.task_id
       JOIN flow_card c ON c.production_order_id = d.production_order_id
      CROSS JOIN generate_series(1, ${WARMUP + 2 * PER_PHASE}) k`,
];

/** Each operator posts his reports one after another, all operators at once: the latencies. */
async function postAll(perOperator, post) {
  const ms = [];
  await Promise.all(
    perOperator.map(async (mine) => {
      for (const id of mine) {
        const s = performance.now();
        await post(id);
        ms.push(performance.now() - s);
      }
    }),
  );
  return ms;
}

export default {
  name: 'heavy-reads',
  description: `a posting's p99 idle and while one user keeps ${READERS} listAll of ${PAST.toLocaleString('en')} work reports in flight (PostgreSQL, pool 10)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD, PG_POOL_MAX: '10' };
    let server = await startServer(ctx, env);
    await server.stop();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    await pgExec(db.url, 'ANALYZE');
    const ids = (
      await pgExec(
        db.url,
        `SELECT array_agg(id ORDER BY id) AS ids FROM work_report WHERE doc_no LIKE 'BGPOST-%'
          GROUP BY dispatch_id ORDER BY dispatch_id`,
      )
    ).rows.map((r) => r.ids.map(Number));

    // The server's event-loop delay, measured inside it over each phase (bench/probes/event-loop.mjs).
    const probeFile = path.join(os.tmpdir(), `ringmes-heavy-loop-${process.pid}.json`);
    server = await startServer(
      ctx,
      { ...env, LOOP_PROBE_FILE: probeFile },
      { nodeArgs: ['--import', path.join(ctx.benchDir, 'probes/event-loop.mjs')] },
    );
    const loopDelay = async () => {
      fs.rmSync(probeFile, { force: true });
      process.kill(server.child.pid, 'SIGUSR2');
      // A server whose loop is held (before the limits: seconds) answers the signal late.
      for (let i = 0; i < 1500 && !fs.existsSync(probeFile); i++) await sleep(20);
      await sleep(50);
      return JSON.parse(fs.readFileSync(probeFile, 'utf8'));
    };
    const admin = await login(server.base, 'admin', PASSWORD);
    // The reader: one account of its own (the admin role), reading every report; the postings are
    // another account's.
    const adminRole = (await pgExec(db.url, `SELECT id FROM role WHERE role_key = 'admin'`)).rows[0].id;
    const setup = httpClient(server.base, { token: admin, connections: 1 });
    ctx.onCleanup(() => setup.close());
    for (const userName of ['reader', 'poster']) {
      const r = await setup.request('POST', '/api/v1/user/newAddUser', {
        userName,
        firstName: userName === 'reader' ? '查询员' : '入账员',
        passWord: PASSWORD,
        roleIds: [Number(adminRole)],
      });
      if (r.status !== 200) throw new Error(`add ${userName}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const readerToken = await login(server.base, 'reader', PASSWORD);
    const posterToken = await login(server.base, 'poster', PASSWORD);
    const posting = httpClient(server.base, { token: posterToken, connections: POSTERS });
    const reading = httpClient(server.base, { token: readerToken, connections: READERS });
    ctx.onCleanup(() => posting.close());
    ctx.onCleanup(() => reading.close());
    // A posting that fails (503 when no connection frees up in time: before the limits) is counted.
    const failed = {};
    const post = async (id) => {
      const r = await posting.request('POST', `/api/v1/work-report/approve/${id}`, {});
      if (r.status === 200 && r.body.result.status === 'posted') return;
      if (r.status === 200 || r.status < 500)
        throw new Error(`approve answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      failed[r.status] = (failed[r.status] ?? 0) + 1;
    };
    const listAll = async () => {
      const s = performance.now();
      const r = await reading
        .request('GET', '/api/v1/work-report/listAll')
        .catch((err) => ({ status: 0, body: { error: String(err) } }));
      if (r.status === 200 && r.body.result.length < PAST)
        throw new Error(`listAll answered ${r.body.result.length} rows`);
      if (r.status !== 200 && r.status !== 429 && r.status !== 0 && r.status < 500)
        throw new Error(`listAll answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      return { status: r.status, ms: performance.now() - s };
    };

    // Warm-up, untimed: postings and a few reads.
    await postAll(
      ids.map((x) => x.slice(0, WARMUP)),
      post,
    );
    for (let i = 0; i < 3; i++) await listAll();
    // One listAll alone: its wall time and the server's CPU for it.
    const alone = [];
    const cpu0 = processCpuMs(server.child.pid);
    for (let i = 0; i < 5; i++) alone.push((await listAll()).ms);
    const cpuPerRead = ((processCpuMs(server.child.pid) ?? 0) - (cpu0 ?? 0)) / 5;
    ctx.log(`one listAll alone: p50 ${pct(alone, 50).toFixed(0)} ms, server CPU ${cpuPerRead.toFixed(0)} ms`);

    const phase = (n) => ids.map((x) => x.slice(WARMUP + n * PER_PHASE, WARMUP + (n + 1) * PER_PHASE));
    const loadIdle = os.loadavg()[0];
    await loopDelay();
    const idle = await postAll(phase(0), post);
    const loopIdle = await loopDelay();

    // One user hammers: READERS calls always in flight, each sent again as soon as it is answered.
    let hammering = true;
    const reads = { 200: 0, 429: 0, other: 0, ms200: [] };
    const loops = Array.from({ length: READERS }, async () => {
      while (hammering) {
        const r = await listAll();
        if (r.status === 200 || r.status === 429) reads[r.status]++;
        else reads.other++;
        if (r.status === 200) reads.ms200.push(r.ms);
      }
    });
    await new Promise((r) => setTimeout(r, 1_000));
    const loadBusy = os.loadavg()[0];
    await loopDelay();
    const busy = await postAll(phase(1), post);
    const loopBusy = await loopDelay();
    hammering = false;
    await Promise.all(loops);
    await server.stop();

    const [idle50, idle99, busy50, busy99] = [pct(idle, 50), pct(idle, 99), pct(busy, 50), pct(busy, 99)];
    const ratio = busy99 / idle99;
    ctx.log(
      `idle: p50 ${idle50.toFixed(1)} ms, p99 ${idle99.toFixed(1)} ms (load ${loadIdle.toFixed(2)}); ` +
        `under reads: p50 ${busy50.toFixed(1)} ms, p99 ${busy99.toFixed(1)} ms (load ${loadBusy.toFixed(2)})`,
    );
    ctx.log(
      `event-loop delay p99: idle ${loopIdle.p99} ms (max ${loopIdle.max}), under reads ${loopBusy.p99} ms (max ${loopBusy.max})`,
    );
    ctx.log(
      `reader: ${reads[200]} listAll answered (p50 ${pct(reads.ms200, 50)?.toFixed(0)} ms), ${reads[429]} refused with 429, ${reads.other} failed`,
    );
    const failures = Object.values(failed).reduce((a, b) => a + b, 0);
    if (failures) ctx.log(`postings failed: ${JSON.stringify(failed)}`);
    const n = POSTERS * PER_PHASE;
    return [
      {
        metric: `审核 → 入账, ${POSTERS} operators, nobody reading: p50 of ${n}`,
        value: +idle50.toFixed(1),
        unit: 'ms',
      },
      { metric: `idle p99 of ${n}`, value: +idle99.toFixed(1), unit: 'ms' },
      {
        metric: `while one user keeps ${READERS} listAll (${PAST.toLocaleString('en')} rows) in flight: p50 of ${n}`,
        value: +busy50.toFixed(1),
        unit: 'ms',
      },
      { metric: `under heavy reads p99 of ${n}`, value: +busy99.toFixed(1), unit: 'ms' },
      {
        metric: 'p99 under heavy reads ÷ idle p99',
        value: Math.round(ratio * 100) / 100,
        unit: '×',
        target: '≤ 3',
        pass: ratio <= 3,
      },
      {
        metric: 'postings that failed (503: no connection in time)',
        value: failures,
        unit: '',
        target: '0',
        pass: failures === 0,
      },
      {
        metric: `the reader's listAll answered / refused with 429`,
        value: `${reads[200]} / ${reads[429]}`,
        unit: '',
      },
    ];
  },
};
