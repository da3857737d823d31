import { workDispatchResource, workReportResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { outsourceStep } from '../modules/production/produce-outsourcing.ts';
import { dispatchOrder } from '../modules/production/production-order-dispatch.ts';
import { workReportHooks, workReportTransitions } from '../modules/production/work-report.ts';
import { dispatchTask, workDispatchTransitions } from '../modules/production/workshop-task.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/** Who works in each kind of workshop in the demo (the teams of 工厂建模). */
const OPERATORS: Record<string, string[]> = {
  machine: ['op01'],
  grinding: ['op02'],
  inspect: ['qc01'],
  assembly: ['op01', 'op02'],
};

interface Task {
  id: number;
  seq: number;
  workshopType: string;
  workshopId: number;
  plannedQuantity: string;
  plannedStartDate: string;
  plannedFinishDate: string;
  orderStepId: number;
  inspectionRequired: boolean;
  standardMinutes: string | null;
}

/**
 * The floor of one demo order: 派单 by plan01 into workshop tasks, then, by the order's stage,
 * every step dispatched and finished (完工 orders), the early steps finished and the current one
 * running — one in four paused — with the next sometimes waiting (生产中), or the first step
 * dispatched for every other recent order (已下达). op01 (turning) and op02 (grinding) find
 * today's work in their queues. `n` varies the picture from order to order.
 */
export async function seedOrderFloor(
  db: Db,
  admin: AuthUser,
  orderId: number,
  stage: 'released' | 'producing' | 'completed',
  n: number,
): Promise<void> {
  const users = await sql<{ id: number; userName: string; firstName: string; deptId: number | null }>`
    SELECT id, user_name, first_name, dept_id FROM app_user WHERE user_name IN ('plan01', 'op01', 'op02', 'qc01', 'head01')`.execute(
    db,
  );
  const as = (name: string): AuthUser => {
    const u = users.rows.find((x) => x.userName === name);
    return u ? { ...admin, id: u.id, userName: u.userName, firstName: u.firstName, deptId: u.deptId } : admin;
  };
  await dispatchOrder(db, as('plan01'), orderId, undefined);
  const tasks = (
    await sql<Task>`
      SELECT id, seq, workshop_type, workshop_id, planned_quantity::text AS planned_quantity,
             to_char(planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
             to_char(planned_finish_date, 'YYYY-MM-DD') AS planned_finish_date, order_step_id, inspection_required,
             standard_minutes::text AS standard_minutes
        FROM workshop_task WHERE production_order_id = ${orderId} ORDER BY seq`.execute(db)
  ).rows;
  const today = businessDay();
  const done = stage === 'completed' ? tasks.length : stage === 'producing' ? n % tasks.length : 0;
  for (const [k, task] of tasks.entries()) {
    if (k < done) {
      await work(db, task, as, 'completed', today);
      await reportStep(db, orderId, task, as, 'completed', today);
    } else if (k === done && stage === 'producing') {
      const running = n % 4 === 3 ? 'paused' : 'started';
      await work(db, task, as, running, today);
      await reportStep(db, orderId, task, as, running, today);
    } else if (k === done && stage === 'released' && n % 2 === 0)
      await work(db, task, as, 'dispatched', today);
    else if (k === done + 1 && stage === 'producing' && n % 3 === 0)
      await work(db, task, as, 'dispatched', today);
  }
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Dispatches a task (two shifts when big) and moves its dispatches to `stage`, dated on the plan. */
async function work(
  db: Db,
  task: Task,
  as: (name: string) => AuthUser,
  stage: 'dispatched' | 'started' | 'paused' | 'completed',
  today: string,
) {
  const names = OPERATORS[task.workshopType] ?? ['op01'];
  const operator = as(names[task.seq % names.length]);
  const machine = await sql<{ id: number }>`
    SELECT id FROM equipment WHERE workshop_id = ${task.workshopId} ORDER BY id
     OFFSET ${(task.seq + task.id) % 3} LIMIT 1`.execute(db);
  const team = await sql<{ id: number }>`
    SELECT id FROM production_team WHERE workshop_id = ${task.workshopId} ORDER BY id LIMIT 1`.execute(db);
  const planned = new Decimal(task.plannedQuantity);
  // Finished work on its planned day, running work today; work waiting for its turn over the
  // next days (the 排产计划 shows a week with bars to move).
  const day =
    stage === 'completed'
      ? task.plannedStartDate < today
        ? task.plannedStartDate
        : today
      : stage === 'dispatched'
        ? addDays(today, task.id % 3)
        : today;
  const halves = planned.gt(500)
    ? [planned.dividedBy(2).floor(), planned.minus(planned.dividedBy(2).floor())]
    : [planned];
  const { dispatches } = await dispatchTask(db, as('plan01'), task.id, {
    lines: halves.map((q, n) => ({
      teamId: team.rows[0]?.id ?? null,
      operatorId: operator.id,
      equipmentId: machine.rows[0]?.id ?? null,
      workDate: day,
      shift: n === 0 ? 'day' : 'night',
      quantity: q.toString(),
    })),
  });
  if (stage === 'dispatched') return;
  const run = (name: string, id: number) =>
    runTransition(db, operator, workDispatchResource, name, id, {}, workDispatchTransitions[name]);
  for (const [n, d] of dispatches.entries()) {
    // The night half of running work waits for its shift.
    if (stage !== 'completed' && n > 0) continue;
    await run('start', d.id);
    const start = `${day} ${n === 0 ? '08:10' : '20:05'}:00+08`;
    await sql`UPDATE work_dispatch SET started_at = ${start}::timestamptz WHERE id = ${d.id}`.execute(db);
    if (stage === 'paused') await run('pause', d.id);
    if (stage === 'completed') {
      await run('complete', d.id);
      const end = `${day} ${n === 0 ? '17:20' : '23:40'}:00+08`;
      await sql`UPDATE work_dispatch SET finished_at = ${end}::timestamptz, updated_at = ${end}::timestamptz
                 WHERE id = ${d.id}`.execute(db);
    }
  }
}

/** Scrap rates of the demo floor: turning 1–2 %, grinding 0.5–1 %, inspection and assembly less. */
const SCRAP: Record<string, [number, number]> = {
  machine: [0.01, 0.02],
  grinding: [0.005, 0.01],
  inspect: [0.002, 0.004],
  assembly: [0.001, 0.002],
};
const REASONS: Record<string, string[]> = {
  machine: ['size', 'setup', 'surface', 'material'],
  grinding: ['burn', 'size', 'surface', 'crack'],
  inspect: ['surface', 'crack', 'size'],
  assembly: ['surface', 'other'],
};
/** One card of the demo stays out at heat treatment. */

/**
 * 报工 of one task's step on every card of the order (half of them while the step still runs),
 * by the dispatch's operator, approved by the workshop (an inspected step checked by qc01).
 * While work runs the last reports wait as 已提交 and 待检验. Heat treatment before the step is
 * sent and received on the cards first (one card kept out at the supplier).
 */
/** No card but `cardId` is out at the supplier: this one may stay out. */
async function keptOutNone(db: Db, cardId: number) {
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM flow_card_step
     WHERE outsourced AND flow_card_id <> ${cardId}
       AND COALESCE(sent_quantity, 0) > COALESCE(returned_quantity, 0) + material_scrap_quantity`.execute(db);
  return r.rows[0].n === 0;
}

async function reportStep(
  db: Db,
  orderId: number,
  task: Task,
  as: (name: string) => AuthUser,
  stage: 'started' | 'paused' | 'completed',
  today: string,
) {
  // The heat-treatment supplier (热处理外协), else the first one.
  const supplier = await sql<{ id: number }>`
    SELECT s.id FROM supplier s LEFT JOIN supplier_classify c ON c.id = s.classify_id
     ORDER BY (c.name = '热处理外协') IS TRUE DESC, s.id LIMIT 1`.execute(db);
  const cards = (
    await sql<{ id: number; inputQuantity: string; taken: string }>`
      SELECT c.id, s.input_quantity::text AS input_quantity,
             (s.good_quantity + s.work_scrap_quantity + s.material_scrap_quantity)::text AS taken
        FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
       WHERE c.production_order_id = ${orderId} AND c.status = 'open' AND s.order_step_id = ${task.orderStepId}
       ORDER BY c.id`.execute(db)
  ).rows;
  const admin = as('admin');
  // Heat treatment (an outsourced step just before this one): out and back on each card.
  for (const [i, c] of cards.entries()) {
    const out = await sql<{ seq: number; inputQuantity: string }>`
      SELECT s.seq, s.input_quantity::text AS input_quantity FROM flow_card_step s JOIN flow_card c ON c.id = s.flow_card_id
       WHERE s.flow_card_id = ${c.id} AND s.outsourced AND s.seq < ${task.seq} AND c.current_seq = s.seq
         AND s.input_quantity > COALESCE(s.sent_quantity, 0)`.execute(db);
    if (!out.rows[0]) continue;
    const q = new Decimal(out.rows[0].inputQuantity);
    await outsourceStep(db, admin, c.id, {
      action: 'send',
      quantity: q.toString(),
      weight: q.times('0.12').toDecimalPlaces(3).toString(),
      supplierId: supplier.rows[0]?.id,
      unitPrice: '0.85',
    });
    // One card stays out at the supplier (none other is out, read from the database).
    if (stage !== 'completed' && i === cards.length - 1 && (await keptOutNone(db, c.id))) {
      continue;
    }
    const lost = i % 4 === 1 ? new Decimal(1) : new Decimal(0);
    await outsourceStep(db, admin, c.id, {
      action: 'return',
      quantity: q.minus(lost).toString(),
      hardnessHrc: String(61 + (i % 3)),
    });
    if (lost.gt(0)) await outsourceStep(db, admin, c.id, { action: 'reconcile' });
  }
  const dispatch = (
    await sql<{ id: number; operatorId: number; userName: string; workDate: string; shift: string }>`
      SELECT d.id, d.operator_id, u.user_name, to_char(d.work_date, 'YYYY-MM-DD') AS work_date, d.shift
        FROM work_dispatch d JOIN app_user u ON u.id = d.operator_id
       WHERE d.task_id = ${task.id} AND d.status IN ('started', 'paused', 'completed') ORDER BY d.id LIMIT 1`.execute(
      db,
    )
  ).rows[0];
  if (!dispatch) return;
  const operator = as(dispatch.userName);
  const [lo, hi] = SCRAP[task.workshopType] ?? [0.005, 0.01];
  const reasons = REASONS[task.workshopType] ?? ['other'];
  const fresh = await sql<{ id: number; inputQuantity: string; taken: string }>`
    SELECT c.id, s.input_quantity::text AS input_quantity,
           (s.good_quantity + s.work_scrap_quantity + s.material_scrap_quantity)::text AS taken
      FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
     WHERE c.production_order_id = ${orderId} AND c.status = 'open' AND s.order_step_id = ${task.orderStepId}
     ORDER BY c.id`.execute(db);
  const list = stage === 'completed' ? fresh.rows : fresh.rows.slice(0, Math.ceil(fresh.rows.length / 2) + 1);
  for (const [i, c] of list.entries()) {
    const waiting = new Decimal(c.inputQuantity).minus(c.taken);
    if (waiting.lte(0)) continue;
    const rate = lo + ((hi - lo) * ((c.id * 7) % 10)) / 10;
    const scrap = Decimal.min(waiting.times(rate).round(), waiting);
    const ws = scrap.times(0.6).ceil();
    const id = await createRecord(
      { db, user: operator, def: workReportResource },
      {
        dispatchId: dispatch.id,
        flowCardId: c.id,
        reportDate: dispatch.workDate,
        shift: dispatch.shift,
        goodQuantity: waiting.minus(scrap).toString(),
        workScrapQuantity: ws.toString(),
        materialScrapQuantity: scrap.minus(ws).toString(),
        scrapReason: scrap.gt(0) ? reasons[c.id % reasons.length] : null,
        hours: waiting
          .times(task.standardMinutes ?? 1)
          .dividedBy(60)
          .toDecimalPlaces(2)
          .toString(),
      },
      workReportHooks,
    );
    const at = `${dispatch.workDate} 17:30:00+08`;
    await sql`UPDATE work_report SET created_at = ${at}::timestamptz WHERE id = ${id}`.execute(db);
    const run = (name: string, by: AuthUser) =>
      runTransition(db, by, workReportResource, name, id, {}, workReportTransitions[name]);
    await run('submit', operator);
    // While the step runs, its last report waits for approval and the one before for inspection.
    if (stage !== 'completed' && i === list.length - 1) continue;
    await run('approve', admin);
    // A dispatch's first report is its first article: inspected before more is reported (首检).
    if (task.inspectionRequired && !(stage !== 'completed' && i > 0 && i === list.length - 2))
      await run('inspect', as('qc01'));
  }
}
