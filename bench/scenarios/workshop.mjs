// Issue 12 "Numbers": posting a work report (审核 → 入账) with 1,000,000 reports in the table at 16
// concurrent operators, and a workshop 看板 of 2,000 open tasks, on PostgreSQL through the API.
import os from 'node:os';
import { postReport } from '../baseline/work-report-post.mjs';
import {
  call,
  captureStatements,
  freshPgDatabase,
  httpClient,
  login,
  median,
  pg,
  pgExec,
  startServer,
} from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const REPORTS = Number(process.env.BENCH_WORK_REPORTS) || 1_000_000;
const OPERATORS = 16;
/** Alternating rounds of the API and the bare SQL baseline; each operator posts this many per round. */
const ROUNDS = 5;
const PER_ROUND = 20;
/**
 * Untimed postings per operator on each side first: connections, prepared statements and the
 * server's JIT warm, as in a server that has run for a day (with 3 the API's first round ran at
 * 216–290 postings/s against 330–400 in the later ones; with 20, 383–446/s against 524–616 with
 * 60; with 60 the six-statement posting still rose round by round, 582 → 737/s, and a server
 * kept running reached 756–819/s only after some 3,000 postings).
 */
const WARMUP = 200;
const TASKS = 2000;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/**
 * 16 orders on a two-step route, a task per step (so each operator posts to a task, a dispatch and
 * a card of his own, and nobody waits for another's row locks), the board's other open tasks, and a
 * million posted reports of the past on 100 other cards. Submitted reports to approve are added
 * per side (`submitted`).
 */
const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('SF', '半成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('R6204', '6204 内圈', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO workshop (code, name, type, status) VALUES ('WS01', '车加工车间', 'machine', '1')`,
  `INSERT INTO process (code, name, piece_rate, standard_minutes, status)
     VALUES ('GX010', '车内圈', 0.16, 1.6, '1'), ('GX020', '磨内径', 0.12, 1.0, '1')`,
  `INSERT INTO production_order (doc_no, product_id, quantity, planned_start_date, due_date, status)
     SELECT 'SCBENCH-' || lpad(o::text, 2, '0'), (SELECT min(id) FROM material), 10000000, CURRENT_DATE, CURRENT_DATE + 30, 'producing'
       FROM generate_series(1, ${OPERATORS}) o`,
  `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, planned_quantity)
     SELECT p.id, n, n * 10, (SELECT id FROM process WHERE code = 'GX0' || n || '0'), (SELECT min(id) FROM workshop), 10000000
       FROM production_order p CROSS JOIN generate_series(1, 2) n`,
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, standard_minutes, planned_start_date, planned_finish_date, priority, order_step_id)
     SELECT p.doc_no || '-' || s.seq, 'started', s.production_order_id, p.product_id, s.seq, s.process_id,
            'machine', s.workshop_id, 10000000, 1.6, CURRENT_DATE, CURRENT_DATE + 5, 'normal', s.id
       FROM production_order_step s JOIN production_order p ON p.id = s.production_order_id`,
  // The board's other open tasks (no order step of their own).
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, dispatched_quantity, standard_minutes, planned_start_date, planned_finish_date, priority)
     SELECT 'SCNOISE-' || i, (ARRAY['pending', 'dispatched', 'started', 'paused'])[1 + i % 4], (SELECT min(id) FROM production_order),
            (SELECT min(id) FROM material), 10, (SELECT min(id) FROM process), 'machine', (SELECT min(id) FROM workshop),
            500, 250, 1.6, CURRENT_DATE - i % 10, CURRENT_DATE + i % 10, 'normal'
       FROM generate_series(1, ${TASKS - 2 * OPERATORS}) i`,
  // Sixteen operators, one per dispatch: each posts to wage and rollup rows of his own, as in a
  // workshop (one user for all would queue every posting on his wage_month row).
  `INSERT INTO app_user (user_name, first_name, password_hash)
     SELECT 'opbench' || lpad(i::text, 2, '0'), '操作工' || i, 'not-a-login' FROM generate_series(1, ${OPERATORS}) i`,
  `INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type, workshop_id,
                              operator_id, work_date, shift, quantity, started_at)
     SELECT 'PGBENCH-' || t.task_no, 'started', t.id, t.production_order_id, t.product_id, t.process_id,
            'machine', t.workshop_id, u.id, CURRENT_DATE, 'day', 1000000, now()
       FROM (SELECT *, row_number() OVER (ORDER BY id) AS k FROM workshop_task WHERE task_no LIKE 'SCBENCH-%-10') t
       JOIN (SELECT id, row_number() OVER (ORDER BY id) AS k FROM app_user WHERE user_name LIKE 'opbench%') u ON u.k = t.k`,
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
     SELECT 'LZBENCH-' || substr(p.doc_no, 9), 'open', p.id, p.product_id, 1000000, 10, 'open' FROM production_order p`,
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
     SELECT 'LZOLD-' || i, 'open', (SELECT min(id) FROM production_order), (SELECT min(id) FROM material), 100000, 10, 'open'
       FROM generate_series(1, 100) i`,
  `INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, input_quantity)
     SELECT c.id, s.line_no, s.id, s.seq, s.process_id, s.workshop_id, CASE WHEN s.seq = 10 THEN c.quantity ELSE 0 END
       FROM flow_card c JOIN production_order_step s ON s.production_order_id = c.production_order_id`,
  // A million posted reports of the past, on the 100 old cards.
  `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                            workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                            work_scrap_quantity, material_scrap_quantity, rework_quantity, posted_at)
     SELECT 'BGOLD-' || i, 'posted', d.id, (SELECT min(id) FROM flow_card WHERE doc_no LIKE 'LZOLD-%') + i % 100,
            d.production_order_id, d.task_id, d.product_id, 10, d.process_id, 'machine', d.workshop_id,
            (SELECT order_step_id FROM workshop_task WHERE id = d.task_id),
            d.operator_id, CURRENT_DATE - i % 300, 'day', 0, 0, 0, 0, now()
       FROM generate_series(1, ${REPORTS}) i, (SELECT * FROM work_dispatch ORDER BY id LIMIT 1) d`,
];

/** `n` submitted reports (good 10) for each operator's dispatch and card, numbered `tag`; their ids per operator. */
async function submitted(url, tag, n) {
  await pgExec(
    url,
    `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                              workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                              work_scrap_quantity, material_scrap_quantity, rework_quantity)
       SELECT '${tag}-' || d.id || '-' || k, 'submitted', d.id, c.id, d.production_order_id, d.task_id, d.product_id, 10,
              d.process_id, 'machine', d.workshop_id, t.order_step_id, d.operator_id, CURRENT_DATE, 'day', 10, 0, 0, 0
         FROM work_dispatch d JOIN workshop_task t ON t.id = d.task_id
         JOIN flow_card c ON c.production_order_id = d.production_order_id AND c.doc_no LIKE 'LZBENCH-%'
        CROSS JOIN generate_series(1, ${n}) k
        WHERE d.doc_no LIKE 'PGBENCH-%'`,
  );
  const r = await pgExec(
    url,
    `SELECT dispatch_id, array_agg(id ORDER BY id) AS ids FROM work_report WHERE doc_no LIKE '${tag}-%'
      GROUP BY dispatch_id ORDER BY dispatch_id`,
  );
  return r.rows.map((x) => x.ids.map(Number));
}

/** Each operator posts his reports one after another, all operators at once: latencies and wall time. */
async function concurrently(perOperator, post) {
  const ms = [];
  const t0 = performance.now();
  await Promise.all(
    perOperator.map(async (mine, o) => {
      for (const id of mine) {
        const s = performance.now();
        await post(id, o);
        ms.push(performance.now() - s);
      }
    }),
  );
  return { ms, wall: performance.now() - t0, n: ms.length };
}

export default {
  name: 'workshop',
  description: `报工入账 with ${REPORTS.toLocaleString('en')} reports in the table at ${OPERATORS} concurrent operators, and a 看板 of ${TASKS} open tasks (PostgreSQL, via the API)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    const t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    await pgExec(db.url, 'ANALYZE');
    ctx.log(
      `${REPORTS.toLocaleString('en')} past reports and ${TASKS} tasks loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // The operators' calls: node:http on kept-alive connections (fetch's own CPU, ~1 ms a call,
    // would be taken from the two cores the server and PostgreSQL share).
    const approve = (base, token) => {
      const client = httpClient(base, { token, connections: OPERATORS });
      ctx.onCleanup(() => client.close());
      return async (id) => {
        const r = await client.request('POST', `/api/v1/work-report/approve/${id}`, {});
        if (r.status !== 200 || r.body.result.status !== 'posted')
          throw new Error(`approve answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
      };
    };

    // 1. Round-trips of one posting, from the PostgreSQL log (a dedicated server run).
    const [probe] = await submitted(db.url, 'BGPROBE', 2);
    await pgExec(db.url, `ALTER DATABASE ${db.name} SET log_statement = 'all'`);
    server = await startServer(ctx, env);
    let token = await login(server.base, 'admin', PASSWORD);
    const probing = approve(server.base, token);
    await probing(probe[0]); // warms the process's caches
    const stmts = await captureStatements(db.name, () => probing(probe[1]));
    await server.stop();
    await pgExec(db.url, `ALTER DATABASE ${db.name} RESET log_statement`);
    const b = stmts.findIndex((x) => /^begin/i.test(x.sql));
    const e = stmts.findLastIndex((x) => /^commit/i.test(x.sql));
    ctx.log(`approve: ${stmts.length} statements per request, ${e - b + 1} in its transaction`);
    for (const x of stmts) ctx.log(`    ${x.sql.replace(/\s+/g, ' ').slice(0, 120)}`);

    // 2. Posting at 16 operators, each on his own task and card: the API and the bare SQL transaction, alternating.
    const ours = await submitted(db.url, 'BGAPI', WARMUP + ROUNDS * PER_ROUND);
    const bare = await submitted(db.url, 'BGSQL', WARMUP + ROUNDS * PER_ROUND);
    await pgExec(db.url, 'ANALYZE work_report');
    server = await startServer(ctx, env);
    token = await login(server.base, 'admin', PASSWORD);
    const pool = new pg.Pool({ connectionString: db.url, max: OPERATORS, idleTimeoutMillis: 0 });
    // An idle connection ended by the database's drop (a failed run's cleanup) is no crash.
    pool.on('error', () => {});
    ctx.onCleanup(() => pool.end());
    const clients = await Promise.all(Array.from({ length: OPERATORS }, () => pool.connect()));
    const post = approve(server.base, token);
    // Warm-up, untimed: WARMUP postings per operator on each side.
    await concurrently(
      ours.map((x) => x.slice(0, WARMUP)),
      post,
    );
    await concurrently(
      bare.map((x) => x.slice(0, WARMUP)),
      (id, o) => postReport(clients[o], id),
    );
    const apiMs = [];
    const ratios = [];
    const load = [];
    for (let r = 0; r < ROUNDS; r++) {
      const slice = (xs) =>
        xs.map((x) => x.slice(WARMUP + r * PER_ROUND, WARMUP + (r + 1) * PER_ROUND)).filter((x) => x.length);
      load.push(os.loadavg()[0]);
      const a = await concurrently(slice(ours), post);
      const s = await concurrently(slice(bare), (id, o) => postReport(clients[o], id));
      apiMs.push(...a.ms);
      ratios.push(a.n / a.wall / (s.n / s.wall));
      ctx.log(
        `round ${r + 1}: API ${((a.n / a.wall) * 1000).toFixed(0)}/s (p95 ${Math.round(pct(a.ms, 95))} ms), ` +
          `bare SQL ${((s.n / s.wall) * 1000).toFixed(0)}/s (p95 ${Math.round(pct(s.ms, 95))} ms), load ${os.loadavg()[0].toFixed(1)}`,
      );
    }
    for (const c of clients) c.release();
    const post95 = pct(apiMs, 95);
    const ratio = median(ratios);
    // The quantities came out right: every card step counts what its posted reports say.
    const check = await pgExec(
      db.url,
      `SELECT count(*)::int AS n FROM flow_card_step s JOIN flow_card c ON c.id = s.flow_card_id
        WHERE c.doc_no LIKE 'LZBENCH-%' AND s.seq = 10 AND s.good_quantity <>
              (SELECT COALESCE(sum(good_quantity), 0) FROM work_report w WHERE w.flow_card_id = c.id AND w.status = 'posted')`,
    );
    if (check.rows[0].n) throw new Error(`${check.rows[0].n} card steps disagree with their posted reports`);

    const board = [];
    for (let i = 0; i < 25; i++) {
      const s = performance.now();
      const r = await call(server.base, 'GET', '/api/v1/workshop-task/board?workshopType=machine', { token });
      if (i >= 5) board.push(performance.now() - s);
      if (r.status !== 200 || r.body.result.list.length < TASKS)
        throw new Error(`board answered ${r.status} with ${r.body.result?.list?.length} tasks`);
    }
    const board95 = pct(board, 95);
    await server.stop();
    return [
      {
        metric: `round-trips of one 审核 → 入账 request (transaction incl. BEGIN/COMMIT: ${e - b + 1})`,
        value: stmts.length,
        unit: 'statements',
      },
      {
        metric: `审核 → 入账 of a work report, ${OPERATORS} operators on their own tasks, p95 of ${apiMs.length} (load ${load.map((l) => l.toFixed(1)).join('/')})`,
        value: Math.round(post95),
        unit: 'ms',
        target: '≤ 30',
        pass: post95 <= 30,
      },
      {
        metric: `postings per second, API ÷ bare SQL transaction (median of ${ROUNDS} paired rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')})`,
        value: Math.round(ratio * 100) / 100,
        unit: '×',
        target: '≥ 0.5',
        pass: ratio >= 0.5,
      },
      {
        metric: `看板 of ${TASKS} open tasks, p95 of 20`,
        value: Math.round(board95),
        unit: 'ms',
        target: '≤ 200',
        pass: board95 <= 200,
      },
    ];
  },
};
