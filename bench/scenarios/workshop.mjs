// Issue 12 "Numbers": posting a work report (审核 → 入账) with 1,000,000 reports in the table at 16
// concurrent operators, and a workshop 看板 of 2,000 open tasks, on PostgreSQL through the API.
import { call, freshPgDatabase, login, pgExec, startServer } from '../lib.mjs';

const PASSWORD = 'Bench#2024pw';
const REPORTS = Number(process.env.BENCH_WORK_REPORTS) || 1_000_000;
const OPERATORS = 16;
const PER_OPERATOR = 15;
const TASKS = 2000;

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** One order on a two-step route, a task per step, 16 dispatches and 16 cards (one per operator). */
const LOAD_SQL = [
  `INSERT INTO material_unit (code, name) VALUES ('PCS', '件')`,
  `INSERT INTO material_type (code, name, order_num) VALUES ('SF', '半成品', 1)`,
  `INSERT INTO material (code, name, material_type_id, unit_id, status)
     VALUES ('R6204', '6204 内圈', (SELECT min(id) FROM material_type), (SELECT min(id) FROM material_unit), '1')`,
  `INSERT INTO workshop (code, name, type, status) VALUES ('WS01', '车加工车间', 'machine', '1')`,
  `INSERT INTO process (code, name, piece_rate, standard_minutes, status)
     VALUES ('GX010', '车内圈', 0.16, 1.6, '1'), ('GX020', '磨内径', 0.12, 1.0, '1')`,
  `INSERT INTO production_order (doc_no, product_id, quantity, planned_start_date, due_date, status)
     VALUES ('SCBENCH-0001', (SELECT min(id) FROM material), 10000000, CURRENT_DATE, CURRENT_DATE + 30, 'producing')`,
  `INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, planned_quantity)
     SELECT (SELECT min(id) FROM production_order), n, n * 10, (SELECT id FROM process WHERE code = 'GX0' || n || '0'),
            (SELECT min(id) FROM workshop), 10000000 FROM generate_series(1, 2) n`,
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, standard_minutes, planned_start_date, planned_finish_date, priority, order_step_id)
     SELECT 'SCBENCH-0001-' || s.seq, 'started', s.production_order_id, (SELECT min(id) FROM material), s.seq, s.process_id,
            'machine', s.workshop_id, 10000000, 1.6, CURRENT_DATE, CURRENT_DATE + 5, 'normal', s.id
       FROM production_order_step s`,
  // The board's other open tasks (no order step of their own).
  `INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type, workshop_id,
                              planned_quantity, dispatched_quantity, standard_minutes, planned_start_date, planned_finish_date, priority)
     SELECT 'SCNOISE-' || i, (ARRAY['pending', 'dispatched', 'started', 'paused'])[1 + i % 4], (SELECT min(id) FROM production_order),
            (SELECT min(id) FROM material), 10, (SELECT min(id) FROM process), 'machine', (SELECT min(id) FROM workshop),
            500, 250, 1.6, CURRENT_DATE - i % 10, CURRENT_DATE + i % 10, 'normal'
       FROM generate_series(1, ${TASKS - 2}) i`,
  `INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type, workshop_id,
                              operator_id, work_date, shift, quantity, started_at)
     SELECT 'PGBENCH-' || i, 'started', (SELECT id FROM workshop_task WHERE task_no = 'SCBENCH-0001-10'),
            (SELECT min(id) FROM production_order), (SELECT min(id) FROM material), (SELECT id FROM process WHERE code = 'GX010'),
            'machine', (SELECT min(id) FROM workshop), (SELECT min(id) FROM app_user), CURRENT_DATE, 'day', 100000, now()
       FROM generate_series(1, ${OPERATORS}) i`,
  `INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, current_seq, origin)
     SELECT 'LZBENCH-' || i, 'open', (SELECT min(id) FROM production_order), (SELECT min(id) FROM material), 100000, 10, 'open'
       FROM generate_series(1, ${OPERATORS + 100}) i`,
  `INSERT INTO flow_card_step (flow_card_id, line_no, order_step_id, seq, process_id, workshop_id, input_quantity)
     SELECT c.id, s.line_no, s.id, s.seq, s.process_id, s.workshop_id, CASE WHEN s.seq = 10 THEN 100000 ELSE 0 END
       FROM flow_card c CROSS JOIN production_order_step s`,
  // A million posted reports of the past, on the 100 other cards.
  `INSERT INTO work_report (doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id,
                            workshop_type, workshop_id, order_step_id, operator_id, report_date, shift, good_quantity,
                            work_scrap_quantity, material_scrap_quantity, rework_quantity, posted_at)
     SELECT 'BGOLD-' || i, 'posted', (SELECT min(id) FROM work_dispatch),
            (SELECT min(id) FROM flow_card) + ${OPERATORS} + i % 100, (SELECT min(id) FROM production_order),
            (SELECT id FROM workshop_task WHERE task_no = 'SCBENCH-0001-10'), (SELECT min(id) FROM material), 10,
            (SELECT id FROM process WHERE code = 'GX010'), 'machine', (SELECT min(id) FROM workshop),
            (SELECT min(id) FROM production_order_step), (SELECT min(id) FROM app_user), CURRENT_DATE - i % 300, 'day',
            0, 0, 0, 0, now()
       FROM generate_series(1, ${REPORTS}) i`,
];

export default {
  name: 'workshop',
  description: `报工入账 with ${REPORTS.toLocaleString('en')} reports in the table at ${OPERATORS} concurrent operators, and a 看板 of ${TASKS} open tasks (PostgreSQL, via the API)`,
  async run(ctx) {
    const db = await freshPgDatabase(ctx);
    const env = { DATABASE_URL: db.url, SEED: 'minimal', ADMIN_PASSWORD: PASSWORD };
    let server = await startServer(ctx, env);
    await server.stop();
    for (const s of LOAD_SQL) await pgExec(db.url, s);
    await pgExec(db.url, 'ANALYZE');
    server = await startServer(ctx, env);
    const token = await login(server.base, 'admin', PASSWORD);
    const ids = async (sql) => (await pgExec(db.url, sql)).rows.map((r) => Number(r.id));
    const dispatches = await ids(`SELECT id FROM work_dispatch WHERE doc_no LIKE 'PGBENCH-%' ORDER BY id`);
    const cards = await ids(
      `SELECT id FROM flow_card WHERE doc_no LIKE 'LZBENCH-%' ORDER BY id LIMIT ${OPERATORS}`,
    );

    // Each operator's reports, submitted, waiting for 审核.
    const waiting = [];
    for (let o = 0; o < OPERATORS; o++) {
      const mine = [];
      for (let k = 0; k < PER_OPERATOR; k++) {
        const r = await call(server.base, 'POST', '/api/v1/work-report/add', {
          token,
          body: {
            dispatchId: dispatches[o],
            flowCardId: cards[o],
            reportDate: '2026-11-25',
            goodQuantity: '10',
            workScrapQuantity: '0',
          },
        });
        if (r.status !== 200) throw new Error(`add answered ${r.status}: ${JSON.stringify(r.body)}`);
        const s = await call(server.base, 'POST', `/api/v1/work-report/submit/${r.body.result.id}`, {
          token,
          body: {},
        });
        if (s.status !== 200) throw new Error(`submit answered ${s.status}: ${JSON.stringify(s.body)}`);
        mine.push(r.body.result.id);
      }
      waiting.push(mine);
    }
    const ms = [];
    await Promise.all(
      waiting.map(async (mine) => {
        for (const id of mine) {
          const s = performance.now();
          const r = await call(server.base, 'POST', `/api/v1/work-report/approve/${id}`, { token, body: {} });
          ms.push(performance.now() - s);
          if (r.status !== 200 || r.body.result.status !== 'posted')
            throw new Error(`approve answered ${r.status}: ${JSON.stringify(r.body)}`);
        }
      }),
    );
    const post95 = pct(ms, 95);

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
        metric: `审核 → 入账 of a work report, ${OPERATORS} operators at once, p95 of ${ms.length}`,
        value: Math.round(post95),
        unit: 'ms',
        target: '≤ 30',
        pass: post95 <= 30,
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
