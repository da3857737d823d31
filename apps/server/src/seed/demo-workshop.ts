import { workDispatchResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { dispatchOrder } from '../modules/production/production-order-dispatch.ts';
import { dispatchTask, workDispatchTransitions } from '../modules/production/workshop-task.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
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
    SELECT id, user_name, first_name, dept_id FROM app_user WHERE user_name IN ('plan01', 'op01', 'op02', 'qc01')`.execute(
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
             to_char(planned_finish_date, 'YYYY-MM-DD') AS planned_finish_date
        FROM workshop_task WHERE production_order_id = ${orderId} ORDER BY seq`.execute(db)
  ).rows;
  const today = businessDay();
  const done = stage === 'completed' ? tasks.length : stage === 'producing' ? n % tasks.length : 0;
  for (const [k, task] of tasks.entries()) {
    if (k < done) await work(db, task, as, 'completed', today);
    else if (k === done && stage === 'producing')
      await work(db, task, as, n % 4 === 3 ? 'paused' : 'started', today);
    else if (k === done && stage === 'released' && n % 2 === 0) await work(db, task, as, 'dispatched', today);
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
