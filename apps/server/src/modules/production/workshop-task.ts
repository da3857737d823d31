import {
  mayAct,
  PRODUCTION_ORDER_RESERVING,
  SHIFT_MINUTES,
  SHIFT_OPTIONS,
  WORKSHOP_KINDS,
  workDispatchResource,
  workshopKind,
  workshopPaths,
  workshopPermission,
  workshopTaskResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { conflict, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { LIVE_CHANNEL, liveNotify } from '../../platform/live/notify.ts';
import { notify } from '../../platform/messages.ts';
import { dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import { createRecord, getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import {
  lifecycleHooks,
  type TransitionCtx,
  type TransitionHandlers,
} from '../../platform/resource/lifecycle.ts';
import { resourceFieldSchema } from '../../platform/resource/schema.ts';
import { assertInScope, gate, grantingFor } from '../../platform/resource/scope.ts';
import { percentSetting, qty } from '../orders/order-lines.ts';
import { drawingFileRoute, drawingLinkFor } from '../technology/technical-document.ts';
import { equipmentFaults } from './equipment-faults.ts';

/**
 * 车间任务 and 派工单 (workshop tasks and dispatches), one implementation for the four workshops.
 * A task's dispatched quantity and state are recounted from its dispatches under the task's row
 * lock whenever a dispatch is made, edited, deleted or moves; a task never dispatches more than
 * planned × (1 + 超派比例/100). Tasks are made by 派单 (production-order-dispatch.ts).
 */

/** Over-dispatch allowance in percent of the task's planned quantity (超派比例); default 0. */
export const OVER_DISPATCH = 'production.overDispatchPercent';

interface TaskRow {
  id: number;
  taskNo: string;
  status: string;
  workshopType: string;
  workshopId: number;
  productionOrderId: number;
  productId: number;
  processId: number;
  plannedQuantity: string;
  standardMinutes: string | null;
  orderStatus: string;
  orderNo: string;
}

/** The task with its order's state, locked when `lock` (every change of its dispatches). */
export async function taskRow(db: Db, id: number, lock = false): Promise<TaskRow> {
  const r = await prepared(sql<TaskRow>`
    SELECT t.id, t.task_no, t.status, t.workshop_type, t.workshop_id, t.production_order_id, t.product_id,
           t.process_id, t.planned_quantity::text AS planned_quantity, t.standard_minutes::text AS standard_minutes,
           o.status AS order_status, o.doc_no AS order_no
      FROM workshop_task t JOIN production_order o ON o.id = t.production_order_id
     WHERE t.id = ${id} ${lock ? sql`FOR UPDATE OF t` : sql``}`).execute(db);
  if (!r.rows[0]) throw notFound('车间任务不存在或已被删除');
  return r.rows[0];
}

/**
 * What a task's dispatches count against its plan: open ones in full, closed ones what they
 * reported (`plus` is a posting's good pieces on dispatch `plus.dispatchId`, not yet written).
 */
const dispatchedSql = (taskId: number, exceptIds: number[], plus?: Posting) => sql<string>`
  COALESCE((SELECT sum(CASE WHEN d.status = 'closed'
                            THEN d.reported_quantity + ${plus ? sql`CASE WHEN d.id = ${plus.dispatchId} THEN ${plus.good}::numeric ELSE 0 END` : sql`0`}
                            ELSE d.quantity END)
              FROM work_dispatch d WHERE d.task_id = ${taskId}
               AND NOT (d.id = ANY(${sql.val(exceptIds)}::bigint[]))), 0)`;

/** A posting's (or its reversal's) change to a task: good and scrap pieces of one dispatch. */
export interface Posting {
  dispatchId: number;
  good: string;
  scrap: string;
}

/**
 * The UPDATE that recounts a task from its dispatches (the caller holds the task's lock, or it
 * is taken here): 待派工 with nothing dispatched, 已开工 while any runs, 暂停 while the running ones
 * are all paused, 已派工 while one waits or the plan is not covered, else 已完工. A closed task
 * stays closed. With `posting`, it also adds a report's good and scrap pieces to the task's
 * progress (报工入账; the dispatch's reported quantity is written after it, task lock first).
 * RETURNING the task's workshop type, which `taskNotice` tells the live screens.
 */
export function taskRecount(taskId: number, exceptIds: number[] = [], posting?: Posting) {
  const good = posting ? sql`${posting.good}::numeric` : sql`0`;
  return sql<{ workshopType: string }>`
    UPDATE workshop_task t SET
           completed_quantity = t.completed_quantity + ${good},
           scrap_quantity = t.scrap_quantity + ${posting ? sql`${posting.scrap}::numeric` : sql`0`},
           dispatched_quantity = CASE WHEN t.status = 'closed' THEN t.dispatched_quantity ELSE d.q END,
           status = CASE WHEN t.status = 'closed' THEN t.status
                         WHEN d.q = 0 THEN 'pending'
                         WHEN d.started > 0 THEN 'started'
                         WHEN d.paused > 0 THEN 'paused'
                         WHEN d.waiting > 0 OR (d.q < t.planned_quantity AND t.completed_quantity + ${good} < t.planned_quantity)
                           THEN 'dispatched'
                         ELSE 'completed' END,
           updated_at = now(), version = t.version + 1
      FROM (SELECT ${dispatchedSql(taskId, exceptIds, posting)} AS q,
                   count(*) FILTER (WHERE status = 'started') AS started,
                   count(*) FILTER (WHERE status = 'paused') AS paused,
                   count(*) FILTER (WHERE status = 'dispatched') AS waiting
              FROM work_dispatch WHERE task_id = ${taskId} AND NOT (id = ANY(${sql.val(exceptIds)}::bigint[]))) d
     WHERE t.id = ${taskId}
     RETURNING t.workshop_type`;
}

/**
 * What tells the live screens (`pg_notify`, delivered on commit) that a task was recounted: select
 * expressions over `taskRecount`'s RETURNING row (its dispatch boards; with a posting, its reports).
 */
export const taskNotice = (posting?: Posting) => sql`
  pg_notify(${LIVE_CHANNEL}, json_build_object('t', 'dispatch', 'w', workshop_type)::text)${
    posting
      ? sql`, pg_notify(${LIVE_CHANNEL}, json_build_object('t', 'work-report', 'w', workshop_type)::text)`
      : sql``
  }`;

/**
 * Tasks made, removed or closed outside a recount (派单, 反下达, 关闭): tells the live screens of
 * their workshops (the 看板 lists tasks), on commit. No workshop given: every screen.
 */
export async function tasksChanged(db: Db, workshopTypes: readonly string[] | null): Promise<void> {
  if (workshopTypes === null) return liveNotify(db, { topic: 'task' });
  for (const w of new Set(workshopTypes)) await liveNotify(db, { topic: 'task', workshop: w });
}

/** Recounts a task (`taskRecount`) and tells the live screens, in one statement. */
export async function recountTask(db: Db, taskId: number, exceptIds: number[] = [], posting?: Posting) {
  await prepared(
    sql`WITH u AS (${taskRecount(taskId, exceptIds, posting)}) SELECT ${taskNotice(posting)} FROM u`,
  ).execute(db);
}

/** Refuses a dispatch quantity beyond the task's plan plus the allowance (the task is locked). */
async function checkAllowance(db: Db, task: TaskRow, quantity: string, exceptId: number) {
  const r = await sql<{ q: string }>`SELECT ${dispatchedSql(task.id, [exceptId])}::text AS q`.execute(db);
  const others = new Decimal(r.rows[0].q);
  const allowance = await percentSetting(db, OVER_DISPATCH);
  const most = new Decimal(task.plannedQuantity).times(allowance.plus(100)).dividedBy(100);
  if (others.plus(quantity).gt(most)) {
    throw conflict(
      `超出任务可派工数量：任务 ${task.taskNo} 计划 ${qty(task.plannedQuantity)}，已派工 ${qty(others)}，` +
        `最多还可派 ${qty(Decimal.max(most.minus(others), 0))}` +
        (allowance.gt(0) ? `（含超派 ${allowance.toString()}%）` : ''),
    );
  }
}

/**
 * A task's work runs on its own workshop's machines: an equipment of another workshop (another
 * kind when the task names no workshop) is refused, as the 派工 dialog offers only these.
 */
async function checkEquipmentWorkshop(db: Db, task: TaskRow, equipmentId: unknown) {
  if (equipmentId == null || equipmentId === '') return;
  const r = await sql<{ code: string; name: string; workshopId: number | null; workshopType: string | null }>`
    SELECT e.code, e.name, e.workshop_id, w.type AS workshop_type
      FROM equipment e LEFT JOIN workshop w ON w.id = e.workshop_id
     WHERE e.id = ${Number(equipmentId)}`.execute(db);
  const e = r.rows[0];
  if (!e) return; // the reference check names a missing record
  const same =
    task.workshopId != null
      ? Number(e.workshopId) === Number(task.workshopId)
      : e.workshopType === task.workshopType;
  if (!same) {
    throw fieldError(
      'equipmentId',
      `设备 ${e.code} ${e.name} 不属于任务 ${task.taskNo} 的车间，请选择本车间的设备`,
    );
  }
}

/**
 * The warnings of a dispatch's shift: its machine's and its operator's load (Σ planned minutes =
 * standard minutes × quantity of the dispatches not closed that day and shift) over the shift's
 * minutes. Dispatching and 改派 keep the work and answer these.
 */
export async function overloadWarnings(db: Db, id: number): Promise<string[]> {
  const r = await sql<Record<string, any>>`
    SELECT x.equipment_id, x.operator_id, to_char(x.work_date, 'YYYY-MM-DD') AS work_date, x.shift,
           e.code AS equipment_code, e.name AS equipment_name, u.first_name AS operator_name,
           (SELECT sum(y.planned_minutes) FROM work_dispatch y WHERE y.status <> 'closed'
               AND y.equipment_id = x.equipment_id AND y.work_date = x.work_date AND y.shift = x.shift)::text AS equipment_load,
           (SELECT sum(y.planned_minutes) FROM work_dispatch y WHERE y.status <> 'closed'
               AND y.operator_id = x.operator_id AND y.work_date = x.work_date AND y.shift = x.shift)::text AS operator_load
      FROM work_dispatch x
      JOIN app_user u ON u.id = x.operator_id
      LEFT JOIN equipment e ON e.id = x.equipment_id
     WHERE x.id = ${id}`.execute(db);
  const x = r.rows[0];
  if (!x) return [];
  const when = `${x.workDate} ${SHIFT_OPTIONS.find((o) => o.value === x.shift)?.label ?? x.shift}`;
  const out: string[] = [];
  const check = (who: string, minutes: string | null) => {
    if (minutes != null && new Decimal(minutes).gt(SHIFT_MINUTES)) {
      out.push(`${who} ${when} 负荷 ${new Decimal(minutes).toString()} 分钟，超过班次 ${SHIFT_MINUTES} 分钟`);
    }
  };
  if (x.equipmentId != null) check(`设备 ${x.equipmentCode} ${x.equipmentName}`, x.equipmentLoad);
  check(`操作工 ${x.operatorName}`, x.operatorLoad);
  return out;
}

const ORDER_STATE_TEXT: Record<string, string> = {
  draft: '未下达',
  completed: '已完工',
  closed: '已关闭',
};

function assertDispatchable(task: TaskRow) {
  if (task.status === 'closed') throw conflict(`车间任务 ${task.taskNo} 已关闭，不能派工`);
  if (!PRODUCTION_ORDER_RESERVING.includes(task.orderStatus)) {
    throw conflict(
      `生产订单 ${task.orderNo} ${ORDER_STATE_TEXT[task.orderStatus] ?? '不在生产中'}，不能派工或开工`,
    );
  }
}

export const workDispatchHooks: ResourceHooks = lifecycleHooks(workDispatchResource, {
  async prepare({ db }, data) {
    return { docNo: await nextDocNoOf(db, workDispatchResource, dayInstant(data.workDate)) };
  },
  async validate({ db }, data, before) {
    if (before && Number(before.taskId) !== Number(data.taskId)) {
      throw fieldError('taskId', '派工单的车间任务不能更改，请关闭后重新派工');
    }
    const task = await taskRow(db, Number(data.taskId), true);
    assertDispatchable(task);
    await checkEquipmentWorkshop(db, task, data.equipmentId);
    await checkAllowance(db, task, String(data.quantity), before?.id ?? 0);
  },
  async derive({ db }, data) {
    const task = await taskRow(db, Number(data.taskId));
    return {
      productionOrderId: task.productionOrderId,
      productId: task.productId,
      processId: task.processId,
      workshopId: task.workshopId,
      workshopType: task.workshopType,
      plannedMinutes: new Decimal(task.standardMinutes ?? 0)
        .times(data.quantity)
        .toDecimalPlaces(2)
        .toString(),
    };
  },
  async afterSave({ db, user }, id) {
    const r = await sql<{ taskId: number }>`SELECT task_id FROM work_dispatch WHERE id = ${id}`.execute(db);
    await recountTask(db, Number(r.rows[0].taskId));
    await notifyOperator(db, user, id);
  },
  async beforeDelete({ db }, ids) {
    const r = await sql<{ taskId: number }>`
      SELECT DISTINCT task_id FROM work_dispatch WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY task_id`.execute(
      db,
    );
    for (const t of r.rows) {
      await taskRow(db, Number(t.taskId), true);
      await recountTask(db, Number(t.taskId), ids);
    }
  },
});

/**
 * 「派工给你」: the operator of a 派工单 gets one message for it (again only if the dispatch moves
 * to another operator), linking to its task sheet; dispatching to oneself sends nothing.
 */
export async function notifyOperator(db: Db, user: AuthUser, id: number) {
  const r = await sql<Record<string, any>>`
    SELECT d.doc_no, d.operator_id, d.workshop_type, d.quantity::text, to_char(d.work_date, 'YYYY-MM-DD') AS work_date,
           m.name AS product_name, p.name AS process_name, e.name AS equipment_name
      FROM work_dispatch d JOIN material m ON m.id = d.product_id JOIN process p ON p.id = d.process_id
      LEFT JOIN equipment e ON e.id = d.equipment_id
     WHERE d.id = ${id} AND d.status = 'dispatched'`.execute(db);
  const d = r.rows[0];
  if (!d?.operatorId || Number(d.operatorId) === Number(user.id)) return;
  const kind = workshopKind(d.workshopType);
  await notify(db, [Number(d.operatorId)], {
    kind: 'dispatch',
    title: `派工：${d.productName} ${d.processName} ${qty(d.quantity)} 件（${d.docNo}）`,
    content: `${d.workDate} ${kind?.label ?? ''}${d.equipmentName ? `，设备 ${d.equipmentName}` : ''}，派工人 ${user.firstName || user.userName}`,
    link: kind ? `${workshopPaths(kind).sheetAdd}?id=${id}` : undefined,
    eventKey: `dispatch:${id}:${d.operatorId}`,
  });
}

// ------------------------------------------------------------------ transitions

const recount: TransitionHandlers['effect'] = async ({ db, record }) => {
  await taskRow(db, Number(record.taskId), true);
  await recountTask(db, Number(record.taskId));
};

/**
 * The operator's event on the dispatch, with the machine it runs on (issue 42: the machine's
 * states come from these); a pause keeps its reason, the declared label first (STOP_REASONS).
 */
const logEvent = async ({ db, record, transition, reason, user }: TransitionCtx) => {
  await sql`INSERT INTO dispatch_event (dispatch_id, equipment_id, kind, reason, user_id)
            VALUES (${record.id}, ${record.equipmentId ?? null}, ${transition.name}, ${reason ?? null}, ${user.id})`.execute(
    db,
  );
};

/** Counts the task again and logs the operator's event. */
const recountAndLog: TransitionHandlers['effect'] = async (ctx) => {
  await recount(ctx);
  await logEvent(ctx);
};

export const workDispatchTransitions: Record<string, TransitionHandlers> = {
  start: {
    async guard({ db, record }) {
      assertDispatchable(await taskRow(db, Number(record.taskId)));
    },
    async effect(ctx) {
      await sql`UPDATE work_dispatch SET started_at = COALESCE(started_at, now()) WHERE id = ${ctx.record.id}`.execute(
        ctx.db,
      );
      // The first work on the floor puts a released order into production.
      await sql`UPDATE production_order SET status = 'producing', updated_at = now(), version = version + 1
                 WHERE id = ${ctx.record.productionOrderId} AND status = 'released'`.execute(ctx.db);
      await recountAndLog(ctx);
    },
  },
  pause: {
    async effect(ctx) {
      // The reason shows on the sheet and the dispatch list as the status reason.
      if (ctx.reason)
        await sql`UPDATE work_dispatch SET status_reason = ${ctx.reason} WHERE id = ${ctx.record.id}`.execute(
          ctx.db,
        );
      await recountAndLog(ctx);
    },
  },
  resume: {
    async guard({ db, record }) {
      assertDispatchable(await taskRow(db, Number(record.taskId)));
    },
    effect: recountAndLog,
  },
  complete: {
    async effect(ctx) {
      await sql`UPDATE work_dispatch SET finished_at = now() WHERE id = ${ctx.record.id}`.execute(ctx.db);
      await recountAndLog(ctx);
    },
  },
  close: { effect: recountAndLog },
};

export const workshopTaskTransitions: Record<string, TransitionHandlers> = {
  close: {
    async guard({ db, record }) {
      const r = await sql<{ docNo: string }>`
        SELECT doc_no FROM work_dispatch WHERE task_id = ${record.id} AND status IN ('started', 'paused')
         ORDER BY doc_no LIMIT 1`.execute(db);
      if (r.rows[0]) throw conflict(`派工单 ${r.rows[0].docNo} 正在生产，请先完工或关闭后再关闭任务`);
    },
    async effect({ db, record, reason, user }) {
      await sql`
        UPDATE work_dispatch SET status = 'closed', status_reason = ${`任务关闭：${reason ?? ''}`},
               updated_by = ${user.id}, updated_at = now(), version = version + 1
         WHERE task_id = ${record.id} AND status = 'dispatched'`.execute(db);
      const r = await sql<{ q: string }>`SELECT ${dispatchedSql(record.id, [])}::text AS q`.execute(db);
      await sql`UPDATE workshop_task SET dispatched_quantity = ${r.rows[0].q} WHERE id = ${record.id}`.execute(
        db,
      );
      await tasksChanged(db, [String(record.workshopType)]);
    },
  },
};

// ------------------------------------------------------------------ 派工

const dispatchField = (name: string) => resourceFieldSchema(workDispatchResource, name);
const optional = (name: string) => dispatchField(name).nullable().optional();

export const dispatchBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        teamId: optional('teamId'),
        operatorId: dispatchField('operatorId'),
        equipmentId: optional('equipmentId'),
        workDate: dispatchField('workDate'),
        shift: dispatchField('shift'),
        quantity: dispatchField('quantity'),
        remark: optional('remark'),
      }),
      { error: '请填写派工明细' },
    )
    .min(1, '请填写派工明细')
    .max(50, '一次最多派 50 行'),
});

/** The user with `production:workDispatch:add` for the dispatches a permitted 派工 creates. */
/**
 * 派工: dispatch lines of one task (team, operator, machine, date, shift, quantity), each a
 * 派工单 checked against the plan plus allowance one after the other under the task's lock.
 */
export async function dispatchTask(
  db: Db,
  user: AuthUser,
  taskId: number,
  body: z.infer<typeof dispatchBody>,
  requestId?: string,
) {
  const task = await taskRow(db, taskId, true);
  assertInScope(user, workshopTaskResource, 'dispatch', task);
  assertDispatchable(task);
  const ctx = {
    db,
    def: workDispatchResource,
    user: grantingFor(user, workDispatchResource),
  };
  const out: { id: number; docNo: string }[] = [];
  for (const [i, line] of body.lines.entries()) {
    try {
      const id = await createRecord(ctx, { ...line, taskId }, workDispatchHooks, requestId);
      const r = await sql<{ docNo: string }>`SELECT doc_no FROM work_dispatch WHERE id = ${id}`.execute(db);
      out.push({ id, docNo: r.rows[0].docNo });
    } catch (e: any) {
      if (body.lines.length > 1 && typeof e?.message === 'string') e.message = `第 ${i + 1} 行：${e.message}`;
      if (Array.isArray(e?.errors)) {
        for (const fe of e.errors)
          if (fe.field && !fe.field.startsWith('lines.')) fe.field = `lines.${i}.${fe.field}`;
      }
      throw e;
    }
  }
  // Work dispatched to an equipment with an open repair, or over a shift's minutes, is kept with
  // a warning (设备故障, 超负荷): each once, after all lines, so a later line's load counts too.
  const overload: string[] = [];
  for (const d of out) overload.push(...(await overloadWarnings(db, d.id)));
  return {
    dispatches: out,
    warnings: [
      ...(await equipmentFaults.ask(
        db,
        body.lines.map((l) => l.equipmentId),
      )),
      ...new Set(overload),
    ],
  };
}

const idList = z
  .string()
  .max(2000)
  .regex(/^\d+(,\d+)*$/, '必须是以逗号分隔的编号')
  .transform((v) => v.split(',').map(Number))
  .optional();
const loadQuery = z.strictObject({
  workDate: resourceFieldSchema(workDispatchResource, 'workDate'),
  operatorIds: idList,
  equipmentIds: idList,
});

/**
 * The minutes already dispatched (not closed) per operator and machine and shift of a day: what
 * the 派工 dialog adds its lines to before it warns of a shift over `SHIFT_MINUTES`.
 */
export async function shiftLoads(db: Db, workDate: string, operatorIds: number[], equipmentIds: number[]) {
  const r = await sql<{ kind: string; id: number; shift: string; minutes: string }>`
    SELECT 'operator' AS kind, operator_id AS id, shift, sum(planned_minutes)::text AS minutes
      FROM work_dispatch WHERE status <> 'closed' AND work_date = ${workDate}::date
       AND operator_id = ANY(${sql.val(operatorIds)}::bigint[]) GROUP BY operator_id, shift
    UNION ALL
    SELECT 'equipment', equipment_id, shift, sum(planned_minutes)::text
      FROM work_dispatch WHERE status <> 'closed' AND work_date = ${workDate}::date
       AND equipment_id = ANY(${sql.val(equipmentIds)}::bigint[]) GROUP BY equipment_id, shift`.execute(db);
  return {
    shiftMinutes: SHIFT_MINUTES,
    list: r.rows.map((x) => ({ ...x, id: Number(x.id), minutes: new Decimal(x.minutes ?? 0).toString() })),
  };
}

// ------------------------------------------------------------------ 看板 and 操作工任务

const typeQuery = z.strictObject({
  workshopType: z.enum(WORKSHOP_KINDS.map((k) => k.type) as [string, ...string[]], {
    error: '车间类型只能是：车加工、磨加工、检测、装配',
  }),
});

const kindOf = (type: string) =>
  WORKSHOP_KINDS.find((k) => k.type === type) as (typeof WORKSHOP_KINDS)[number];
const taskListPerms = WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Task')}:list` as Permission);
const panelPerms = WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Panel')}:query` as Permission);
const operatorPerms = WORKSHOP_KINDS.map(
  (k) => `${workshopPermission(k, 'OperatorTask')}:list` as Permission,
);

/** Who reads a workshop's 看板 (the page, its stream): the 看板 permission or the task list's. */
export const BOARD_PERMISSIONS: readonly Permission[] = [...panelPerms, ...taskListPerms];
export function mayReadBoard(user: AuthUser, workshopType: string): boolean {
  const has = (p: string) => can(user, p);
  return (
    has(`${workshopPermission(kindOf(workshopType), 'Panel')}:query`) ||
    mayAct(has, workshopTaskResource, 'list', workshopType)
  );
}

/** The board of a workshop: open tasks (and those finished in the last 7 days) with their dispatches. */
export async function taskBoard(db: Db, workshopType: string) {
  const r = await sql<Record<string, any>>`
    SELECT t.id, t.task_no, t.status, t.seq, t.priority, t.planned_quantity, t.dispatched_quantity,
           t.completed_quantity, t.scrap_quantity, to_char(t.planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
           to_char(t.planned_finish_date, 'YYYY-MM-DD') AS planned_finish_date,
           o.doc_no AS order_no, o.id AS production_order_id, m.code AS product_code, m.name AS product_name,
           m.spec AS product_spec, p.name AS process_name, w.name AS workshop_name,
           COALESCE(d.operators, '') AS operators, COALESCE(d.n, 0) AS dispatch_count
      FROM workshop_task t
      JOIN production_order o ON o.id = t.production_order_id
      JOIN material m ON m.id = t.product_id
      JOIN process p ON p.id = t.process_id
      LEFT JOIN workshop w ON w.id = t.workshop_id
      LEFT JOIN LATERAL (
        SELECT count(*) AS n, string_agg(DISTINCT u.first_name, '、') AS operators
          FROM work_dispatch x JOIN app_user u ON u.id = x.operator_id
         WHERE x.task_id = t.id AND x.status <> 'closed') d ON true
     WHERE t.workshop_type = ${workshopType}
       AND (t.status IN ('pending', 'dispatched', 'started', 'paused')
            OR (t.status = 'completed' AND t.updated_at > now() - interval '7 days'))
     ORDER BY CASE t.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END,
              t.planned_start_date, t.task_no
     LIMIT 5000`.execute(db);
  return { list: r.rows };
}

/**
 * What a dispatch's reports not yet posted hold (提交, 审核 awaiting inspection, 待检验, 检验完成):
 * the operator's sheet shows it beside 已报工 (the posted good pieces, `reported_quantity`), so his
 * report counts from the moment he sends it, not from its approval.
 */
const PENDING_REPORTS = ['submitted', 'approved', 'inspecting', 'inspected'];
const pendingQuantity = (dispatch: ReturnType<typeof sql.ref>) => sql`
  (SELECT COALESCE(sum(r.good_quantity), 0) FROM work_report r
    WHERE r.dispatch_id = ${dispatch} AND r.status = ANY(${sql.val(PENDING_REPORTS)}::text[]))`;

/** `pendingQuantity` of one dispatch (the sheet). */
export async function dispatchPending(db: Db, dispatchId: number): Promise<string> {
  const r = await sql<{ q: string }>`SELECT ${pendingQuantity(sql.ref('d.id'))}::text AS q
    FROM work_dispatch d WHERE d.id = ${dispatchId}`.execute(db);
  return r.rows[0]?.q ?? '0';
}

/** The operator's own queue: dispatches not closed (finished ones of the last 3 days too), running first. */
export async function operatorQueue(db: Db, operatorId: number, workshopType: string) {
  const r = await sql<Record<string, any>>`
    SELECT x.id, x.doc_no, x.status, x.quantity, x.reported_quantity,
           ${pendingQuantity(sql.ref('x.id'))}::text AS pending_quantity, x.shift,
           to_char(x.work_date, 'YYYY-MM-DD') AS work_date, x.started_at, x.finished_at, x.version,
           x.task_id, t.task_no, o.doc_no AS order_no, m.code AS product_code, m.name AS product_name,
           m.spec AS product_spec, p.name AS process_name, e.name AS equipment_name, tm.name AS team_name,
           x.planned_minutes
      FROM work_dispatch x
      JOIN workshop_task t ON t.id = x.task_id
      JOIN production_order o ON o.id = x.production_order_id
      JOIN material m ON m.id = x.product_id
      JOIN process p ON p.id = x.process_id
      LEFT JOIN equipment e ON e.id = x.equipment_id
      LEFT JOIN production_team tm ON tm.id = x.team_id
     WHERE x.operator_id = ${operatorId} AND x.workshop_type = ${workshopType}
       AND (x.status IN ('dispatched', 'started', 'paused')
            OR (x.status = 'completed' AND x.finished_at > now() - interval '3 days'))
     ORDER BY CASE x.status WHEN 'started' THEN 0 WHEN 'paused' THEN 1 WHEN 'dispatched' THEN 2 ELSE 3 END,
              x.work_date, x.shift, x.doc_no
     LIMIT 200`.execute(db);
  return { list: r.rows };
}

export function workshopTaskRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/workshop-task/dispatch/:id',
    ...gate(workshopTaskResource, 'dispatch'),
    params: idParams,
    body: dispatchBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => dispatchTask(trx, user, params.id, body, req.id)),
  });
  // What the 派工 dialog warns of before it sends: the shift loads already dispatched.
  route(app, {
    method: 'GET',
    url: '/api/v1/workshop-task/load/:id',
    ...gate(workshopTaskResource, 'dispatch'),
    params: idParams,
    query: loadQuery,
    async handler({ params, query, user, app: { db } }) {
      const task = await taskRow(db, params.id);
      assertInScope(user, workshopTaskResource, 'dispatch', task);
      return shiftLoads(db, String(query.workDate), query.operatorIds ?? [], query.equipmentIds ?? []);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/workshop-task/board',
    permission: taskListPerms[0],
    alsoAllowedBy: [...taskListPerms.slice(1), ...panelPerms],
    query: typeQuery,
    async handler({ query, user, app: { db } }) {
      if (!mayReadBoard(user, query.workshopType)) throw forbidden();
      return taskBoard(db, query.workshopType);
    },
  });
  // 工序任务单: the dispatch as its detail answers it, with the drawing in force for its product
  // (`drawing`, null without one), whose files open through `/work-dispatch/drawing/:id/:fileId`.
  route(app, {
    method: 'GET',
    url: '/api/v1/work-dispatch/sheet/:id',
    ...gate(workDispatchResource, 'list'),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      const row = await getRecord(db, workDispatchResource, params.id);
      assertInScope(user, workDispatchResource, 'list', row);
      return {
        ...row,
        pendingQuantity: await dispatchPending(db, params.id),
        drawing: await drawingLinkFor(db, Number(row.productId)),
      };
    },
  });
  drawingFileRoute(app, {
    url: '/api/v1/work-dispatch/drawing',
    ...gate(workDispatchResource, 'list'),
    async productOf(db, id, user) {
      const r = await sql<{ productId: number; workshopType: string; operatorId: number }>`
        SELECT product_id, workshop_type, operator_id FROM work_dispatch WHERE id = ${id}`.execute(db);
      if (!r.rows[0]) throw notFound('派工单不存在或已被删除');
      assertInScope(user, workDispatchResource, 'list', r.rows[0]);
      return Number(r.rows[0].productId);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/work-dispatch/mine',
    permission: operatorPerms[0],
    alsoAllowedBy: operatorPerms.slice(1),
    query: typeQuery,
    async handler({ query, user, app: { db } }) {
      const k = kindOf(query.workshopType);
      if (!mayAct((p) => can(user, p), workDispatchResource, 'list', k.type)) throw forbidden();
      return operatorQueue(db, user.id, k.type);
    },
  });
}
