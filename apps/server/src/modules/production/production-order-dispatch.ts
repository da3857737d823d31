import { PRODUCTION_ORDER_RESERVING, WORKSHOP_KINDS } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { addDays } from '../../platform/numbering.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { tasksChanged } from './workshop-task.ts';

/**
 * 派单 (produce-order-dispatch): a released production order is split along its frozen route into
 * workshop tasks, one per step done in-house (outsourced steps go to 生产委外), each planned for
 * the order quantity and a window of dates. By default the order's span from planned start to
 * due date is shared among the steps in proportion to their standard minutes (evenly without
 * them); the planner may set each step's dates. An order is dispatched once; 反下达 takes its
 * tasks back while none has a dispatch.
 */

interface StepRow {
  id: number;
  seq: number;
  processId: number;
  processName: string;
  workshopId: number | null;
  workshopName: string | null;
  workshopType: string | null;
  standardMinutes: string | null;
  outsourced: boolean;
  inspectionRequired: boolean;
  plannedQuantity: string;
  taskId: number | null;
  taskNo: string | null;
  taskStatus: string | null;
}

interface OrderHead {
  id: number;
  docNo: string;
  status: string;
  productId: number;
  priority: string;
  plannedStartDate: string;
  dueDate: string;
}

async function orderHead(db: Db, id: number, lock: boolean): Promise<OrderHead> {
  if (lock) await sql`SELECT id FROM production_order WHERE id = ${id} FOR UPDATE`.execute(db);
  const r = await sql<OrderHead>`
    SELECT id, doc_no, status, product_id, priority, to_char(planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
           to_char(due_date, 'YYYY-MM-DD') AS due_date
      FROM production_order WHERE id = ${id}`.execute(db);
  if (!r.rows[0]) throw notFound('生产订单不存在或已被删除');
  return r.rows[0];
}

async function stepsOf(db: Db, orderId: number): Promise<StepRow[]> {
  const r = await sql<StepRow>`
    SELECT s.id, s.seq, s.process_id, p.name AS process_name, s.workshop_id, w.name AS workshop_name,
           w.type AS workshop_type, s.standard_minutes::text AS standard_minutes, s.outsourced,
           s.inspection_required, s.planned_quantity::text AS planned_quantity,
           t.id AS task_id, t.task_no, t.status AS task_status
      FROM production_order_step s
      JOIN process p ON p.id = s.process_id
      LEFT JOIN workshop w ON w.id = s.workshop_id
      LEFT JOIN workshop_task t ON t.order_step_id = s.id
     WHERE s.production_order_id = ${orderId}
     ORDER BY s.seq, s.line_no`.execute(db);
  return r.rows;
}

const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** Default windows: the order's days shared among the in-house steps by standard minutes. */
function defaultWindows(order: OrderHead, steps: StepRow[]): Map<number, [string, string]> {
  const work = steps.filter((s) => !s.outsourced);
  const span = Math.max(daysBetween(order.plannedStartDate, order.dueDate), 0) + 1;
  const weights = work.map((s) => new Decimal(s.standardMinutes ?? 0));
  const total = weights.reduce((a, b) => a.plus(b), new Decimal(0));
  const out = new Map<number, [string, string]>();
  let done = new Decimal(0);
  for (const [i, s] of work.entries()) {
    const share = total.gt(0) ? weights[i].dividedBy(total) : new Decimal(1).dividedBy(work.length);
    const from = Math.min(Math.floor(done.times(span).toNumber()), span - 1);
    done = done.plus(share);
    const to = Math.max(Math.ceil(done.times(span).toNumber()) - 1, from);
    out.set(Number(s.id), [
      addDays(order.plannedStartDate, from),
      addDays(order.plannedStartDate, Math.min(to, span - 1)),
    ]);
  }
  return out;
}

/** What 派单 would do (or did): the order, its steps with their workshops, default dates and tasks. */
export async function dispatchPlan(db: Db, orderId: number) {
  const order = await orderHead(db, orderId, false);
  const steps = await stepsOf(db, orderId);
  const windows = defaultWindows(order, steps);
  return {
    order,
    dispatched: steps.some((s) => s.taskId != null),
    steps: steps.map((s) => ({
      ...s,
      plannedStartDate: windows.get(Number(s.id))?.[0] ?? null,
      plannedFinishDate: windows.get(Number(s.id))?.[1] ?? null,
    })),
  };
}

const date = fieldSchema({ name: 'plannedStartDate', label: '计划日期', kind: 'date' }) as z.ZodType<string>;

export const orderDispatchBody = z
  .strictObject({
    steps: z
      .array(z.strictObject({ stepId: zx.id, plannedStartDate: date, plannedFinishDate: date }), {
        error: '工序计划格式不正确',
      })
      .max(200, '工序过多')
      .optional(),
  })
  .optional();

/** 派单: creates the order's workshop tasks in one transaction (the order locked). */
export async function dispatchOrder(
  db: Db,
  user: AuthUser,
  orderId: number,
  body: z.infer<typeof orderDispatchBody>,
  requestId?: string,
) {
  const order = await orderHead(db, orderId, true);
  if (!PRODUCTION_ORDER_RESERVING.includes(order.status)) {
    throw conflict(`生产订单 ${order.docNo} 不是已下达或生产中，不能派单`);
  }
  const steps = await stepsOf(db, orderId);
  if (steps.some((s) => s.taskId != null)) throw conflict(`生产订单 ${order.docNo} 已派单`);
  const work = steps.filter((s) => !s.outsourced);
  if (!work.length) throw conflict('订单的工艺路线没有本厂加工的工序，不需要派单');
  const windows = defaultWindows(order, steps);
  for (const [i, given] of (body?.steps ?? []).entries()) {
    const s = work.find((x) => Number(x.id) === given.stepId);
    if (!s)
      throw badRequest(`第 ${i + 1} 个工序计划不是本订单的本厂工序`, [
        { field: `steps.${i}.stepId`, message: '不是本订单的本厂工序' },
      ]);
    if (given.plannedFinishDate < given.plannedStartDate) {
      throw badRequest(`工序 ${s.seq}「${s.processName}」的计划完成早于计划开始`, [
        { field: `steps.${i}.plannedFinishDate`, message: '计划完成不能早于计划开始' },
      ]);
    }
    windows.set(Number(s.id), [given.plannedStartDate, given.plannedFinishDate]);
  }
  const tasks: { id: number; taskNo: string }[] = [];
  const kinds: string[] = [];
  for (const s of work) {
    const kind = WORKSHOP_KINDS.find((k) => k.type === s.workshopType);
    if (!s.workshopId || !kind) {
      throw conflict(`工序 ${s.seq}「${s.processName}」没有指定车间，请在工艺路线中设置后重新下达`);
    }
    const [from, to] = windows.get(Number(s.id)) ?? [order.plannedStartDate, order.dueDate];
    const taskNo = `${order.docNo}-${String(s.seq).padStart(2, '0')}`;
    const row = await sql<{ id: number }>`
      INSERT INTO workshop_task (task_no, status, production_order_id, product_id, seq, process_id, workshop_type,
             workshop_id, planned_quantity, dispatched_quantity, completed_quantity, scrap_quantity, standard_minutes,
             planned_start_date, planned_finish_date, priority, inspection_required, order_step_id, created_by, updated_by)
      VALUES (${taskNo}, 'pending', ${orderId}, ${order.productId}, ${s.seq}, ${s.processId}, ${kind.type},
             ${s.workshopId}, ${s.plannedQuantity}, 0, 0, 0, ${s.standardMinutes}, ${from}, ${to}, ${order.priority},
             ${s.inspectionRequired}, ${s.id}, ${user.id}, ${user.id})
      RETURNING id`.execute(db);
    tasks.push({ id: Number(row.rows[0].id), taskNo });
    kinds.push(kind.type);
  }
  await tasksChanged(db, kinds);
  await auditInsert(
    user,
    {
      entity: 'production-order',
      entityId: orderId,
      action: 'dispatch',
      after: { tasks: tasks.map((t) => t.taskNo) },
    },
    requestId,
  ).execute(db);
  return { tasks };
}

/** 反下达: refused once a task has a dispatch; else the order's tasks go with its frozen route. */
export async function assertNoDispatches(db: Db, orderId: number) {
  const r = await sql<{ docNo: string }>`
    SELECT doc_no FROM work_dispatch WHERE production_order_id = ${orderId} ORDER BY doc_no LIMIT 1`.execute(
    db,
  );
  if (r.rows[0]) throw conflict(`订单已派工（派工单 ${r.rows[0].docNo}），不能反下达`);
}

export async function removeTasks(db: Db, orderId: number) {
  const gone = await sql<{ workshopType: string }>`
    DELETE FROM workshop_task WHERE production_order_id = ${orderId} RETURNING workshop_type`.execute(db);
  await tasksChanged(
    db,
    gone.rows.map((r) => r.workshopType),
  );
}

/** Closing an order closes its unfinished tasks and the dispatches not started. */
export async function closeTasks(db: Db, user: AuthUser, orderId: number) {
  await sql`
    UPDATE work_dispatch SET status = 'closed', status_reason = '生产订单关闭', updated_by = ${user.id},
           updated_at = now(), version = version + 1
     WHERE production_order_id = ${orderId} AND status = 'dispatched'`.execute(db);
  const closed = await sql<{ workshopType: string }>`
    UPDATE workshop_task SET status = 'closed', status_reason = '生产订单关闭', updated_by = ${user.id},
           updated_at = now(), version = version + 1
     WHERE production_order_id = ${orderId} AND status NOT IN ('completed', 'closed')
    RETURNING workshop_type`.execute(db);
  await tasksChanged(
    db,
    closed.rows.map((r) => r.workshopType),
  );
}

export function productionOrderDispatchRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/production-order/dispatch-plan/:id',
    permission: 'production:order:list',
    params: idParams,
    handler: ({ params, app: { db } }) => dispatchPlan(db, params.id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/production-order/dispatch/:id',
    permission: 'production:order:dispatch',
    params: idParams,
    body: orderDispatchBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => dispatchOrder(trx, user, params.id, body, req.id)),
  });
}
