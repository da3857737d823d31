import {
  checkPlantSchedule,
  type PlantLot,
  type PlantMachine,
  type PlantMaintenance,
  type PlantProblem,
  type PlantSchedule,
  SHIFT_MINUTES,
  schedulePlantSequence,
  solvePlant,
  WORKSHOP_KINDS,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import type { App, Permission } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { dispatchTask } from './workshop-task.ts';

/**
 * 自动排产 (issue 43): the plant model built from the database, solved by the domain's
 * `solvePlant`, answered as a proposal beside an order-by-due-date baseline; 发布 turns the
 * proposal's lines into 派工单 through 派工 (`dispatchTask`), so they appear on the operator sheets.
 *
 * Model: a lot is a released (or producing) production order; its remaining steps are its
 * workshop tasks (route order) with quantity still to dispatch (planned − dispatched), each on the
 * machines of the task's workshop that are not scrapped or under repair; an outsourced route step
 * between two of them (heat treatment) waits `outsourceLeadDays`. Existing open dispatches stay
 * where they are (locked): they take their machine's time in their day and shift, and an order's
 * remaining steps start after its last one. Calendar: 白班 08:00–16:00, 夜班 20:00–04:00, every
 * day (a year past the horizon, so that work beyond it is placed and counted; only lines inside
 * the horizon are answered for 发布, the rest is planned again by the next run); an active maintenance plan due in the horizon takes its machine's 白班 that
 * day. Due: the sales order's delivery date when the order has one, else the order's due date
 * (end of day). Changeovers: between products, `setupMinutes` each. Weights: 紧急 4, 高 2, 普通 1,
 * 低 0.5. Speed factors are 1 (the equipment master has none yet).
 */

const DAY = 1440;
const DAY_SHIFT = [480, 960] as const;
const NIGHT_SHIFT = [1200, 1680] as const;
const CALENDAR_TAIL_DAYS = 366;
const PRIORITY_WEIGHT: Record<string, number> = { urgent: 4, high: 2, normal: 1, low: 0.5 };

export const autoScheduleBody = z.strictObject({
  horizonDays: z
    .number({ error: '排产天数必须是数字' })
    .int('排产天数必须是整数')
    .min(1, '排产天数至少 1 天')
    .max(62, '排产天数不能超过 62 天')
    .default(14),
  timeLimitSeconds: z
    .number({ error: '运算时限必须是数字' })
    .min(0.1, '运算时限至少 0.1 秒')
    .max(60, '运算时限不能超过 60 秒')
    .default(10),
  setupMinutes: z
    .number({ error: '换型时间必须是数字' })
    .min(0, '换型时间不能为负')
    .max(480, '换型时间不能超过 480 分钟')
    .default(30),
  outsourceLeadDays: z
    .number({ error: '委外周期必须是数字' })
    .min(0, '委外周期不能为负')
    .max(30, '委外周期不能超过 30 天')
    .default(2),
  weights: z
    .strictObject({
      tardiness: z.number({ error: '权重必须是数字' }).min(0, '权重不能为负').max(1e6, '权重过大').optional(),
      late: z.number({ error: '权重必须是数字' }).min(0, '权重不能为负').max(1e6, '权重过大').optional(),
      changeovers: z
        .number({ error: '权重必须是数字' })
        .min(0, '权重不能为负')
        .max(1e6, '权重过大')
        .optional(),
      makespan: z.number({ error: '权重必须是数字' }).min(0, '权重不能为负').max(1e6, '权重过大').optional(),
    })
    .optional(),
  seed: z
    .number({ error: '随机种子必须是数字' })
    .int('随机种子必须是整数')
    .min(0)
    .max(2 ** 31)
    .optional(),
});
export type AutoScheduleBody = z.infer<typeof autoScheduleBody>;

export const publishBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        taskId: zx.id,
        equipmentId: zx.id,
        operatorId: zx.id,
        workDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '生产日期格式应为 YYYY-MM-DD'),
        shift: z.enum(['day', 'night'], { error: '班次只能是白班或夜班' }),
        quantity: z.string().regex(/^\d+(\.\d+)?$/, '派工数量应为正数'),
      }),
      { error: '请提供要发布的派工行' },
    )
    .min(1, '没有要发布的派工行')
    .max(2000, '一次最多发布 2000 行'),
});

const planPerms = (action: string) =>
  WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Plan')}:${action}` as Permission);
const opened = (action: string) => {
  const [permission, ...alsoAllowedBy] = planPerms(action);
  // As the plan's own routes (plan.ts): the route opens to a workshop's plan permission; the
  // resource-wide one of 派工单 (not in the menu) is honoured by mayPlan.
  return { permission, alsoAllowedBy };
};
const mayPlan = (user: AuthUser, workshopType: string, action: string) => {
  const k = WORKSHOP_KINDS.find((x) => x.type === workshopType);
  return (
    can(user, `production:workDispatch:${action}`) ||
    (k != null && can(user, `${workshopPermission(k, 'Plan')}:${action}`))
  );
};

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const dayIndex = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
/** Minute (from today's midnight) where a day's shift starts. */
const slotStart = (d: number, shift: string) => d * DAY + (shift === 'night' ? NIGHT_SHIFT[0] : DAY_SHIFT[0]);

interface Built {
  problem: PlantProblem;
  today: string;
  now: number;
  lots: Map<string, { orderNo: string; productName: string; dueDate: string; priority: string }>;
  steps: Map<
    string,
    { taskId: number; taskNo: string; processName: string; workshopType: string; unitPrecision: number }
  >;
  machines: Map<
    string,
    { id: number; code: string; name: string; workshopType: string; operatorId: number | null }
  >;
  locked: number;
}

/** The plant model from the database (see the module comment). */
export async function buildPlantModel(db: Db, body: AutoScheduleBody): Promise<Built> {
  const clock = (
    await sql<{ today: string; minute: number }>`
      SELECT to_char(CURRENT_DATE, 'YYYY-MM-DD') AS today,
             (extract(hour FROM localtime) * 60 + extract(minute FROM localtime))::int AS minute`.execute(db)
  ).rows[0];
  const today = clock.today;
  const now = Number(clock.minute);
  const horizonEnd = addDays(today, body.horizonDays);

  const equipment = (
    await sql<Record<string, any>>`
      SELECT e.id, e.code, e.name, e.workshop_id, w.type AS workshop_type,
             (SELECT d.operator_id FROM work_dispatch d WHERE d.equipment_id = e.id ORDER BY d.id DESC LIMIT 1) AS last_operator,
             (SELECT t.member_ids[1] FROM production_team t WHERE t.workshop_id = e.workshop_id AND t.status = '1'
                 AND cardinality(t.member_ids) > 0 ORDER BY t.id LIMIT 1) AS team_operator
        FROM equipment e JOIN workshop w ON w.id = e.workshop_id
       WHERE e.status NOT IN ('scrapped', 'repair') AND w.type IN ('machine', 'grinding', 'inspect', 'assembly')
       ORDER BY e.code`.execute(db)
  ).rows;
  const open = (
    await sql<Record<string, any>>`
      SELECT x.equipment_id, x.production_order_id, x.status, to_char(x.work_date, 'YYYY-MM-DD') AS work_date, x.shift,
             COALESCE(x.planned_minutes, 0)::float8 AS planned_minutes, x.quantity::float8 AS quantity,
             x.reported_quantity::float8 AS reported_quantity
        FROM work_dispatch x
       WHERE x.status IN ('dispatched', 'started', 'paused') AND x.work_date <= ${horizonEnd}::date`.execute(
      db,
    )
  ).rows;
  const maint = (
    await sql<Record<string, any>>`
      SELECT equipment_id, to_char(next_due_date, 'YYYY-MM-DD') AS due FROM maintenance_plan
       WHERE status = '1' AND next_due_date BETWEEN ${today}::date AND ${horizonEnd}::date`.execute(db)
  ).rows;
  const steps = (
    await sql<Record<string, any>>`
      SELECT o.id AS order_id, o.doc_no AS order_no, o.priority, o.product_id, m.name AS product_name,
             to_char(COALESCE(so.delivery_date, o.due_date), 'YYYY-MM-DD') AS due_date,
             s.seq, s.outsourced, t.id AS task_id, t.task_no, t.workshop_id, t.workshop_type, t.status AS task_status,
             COALESCE(t.standard_minutes, s.standard_minutes, 0)::float8 AS standard_minutes,
             GREATEST(t.planned_quantity - t.dispatched_quantity, 0)::float8 AS remaining,
             p.name AS process_name, COALESCE(u.precision, 0) AS unit_precision
        FROM production_order o
        JOIN production_order_step s ON s.production_order_id = o.id
        JOIN process p ON p.id = s.process_id
        JOIN material m ON m.id = o.product_id
        LEFT JOIN material_unit u ON u.id = m.unit_id
        LEFT JOIN sale_order so ON so.id = o.sale_order_id
        LEFT JOIN workshop_task t ON t.order_step_id = s.id
       WHERE o.status IN ('released', 'producing')
       ORDER BY o.id, s.seq`.execute(db)
  ).rows;

  const machines: PlantMachine[] = [];
  const machineInfo: Built['machines'] = new Map();
  const window = (d: number, s: readonly [number, number]) =>
    [d * DAY + s[0], d * DAY + s[1]] as [number, number];
  for (const e of equipment) {
    const id = `E${e.id}`;
    const calendar: [number, number][] = [];
    // The calendar runs a year past the horizon, so that work beyond it is placed (and counted
    // late) rather than left out; only the horizon's lines are answered for 发布.
    for (let d = 0; d < body.horizonDays + CALENDAR_TAIL_DAYS; d++)
      calendar.push(window(d, DAY_SHIFT), window(d, NIGHT_SHIFT));
    machines.push({ id, group: `W${e.workshopId}`, workshop: e.workshopType, calendar });
    machineInfo.set(id, {
      id: Number(e.id),
      code: e.code,
      name: e.name,
      workshopType: e.workshopType,
      operatorId:
        e.lastOperator != null
          ? Number(e.lastOperator)
          : e.teamOperator != null
            ? Number(e.teamOperator)
            : null,
    });
  }
  const known = new Set(machines.map((m) => m.id));
  const maintenance: PlantMaintenance[] = [];
  for (const m of maint) {
    const id = `E${m.equipmentId}`;
    if (!known.has(id)) continue;
    const d = dayIndex(today, m.due);
    maintenance.push({ machineId: id, start: d * DAY + DAY_SHIFT[0], end: d * DAY + DAY_SHIFT[1] });
  }
  // Open dispatches keep their slot (a past one what is left of it, from now): locked.
  const orderBusyUntil = new Map<number, number>();
  const perSlot = new Map<string, number>();
  for (const x of open) {
    const left =
      Number(x.plannedMinutes) * Math.max(0, 1 - Number(x.reportedQuantity) / Number(x.quantity || 1));
    const d = dayIndex(today, x.workDate);
    let start = slotStart(d, x.shift);
    if (start + SHIFT_MINUTES <= now || x.status !== 'dispatched') start = Math.max(start, now);
    if (x.equipmentId != null && known.has(`E${x.equipmentId}`)) {
      const key = `E${x.equipmentId}|${start}`;
      const offset = perSlot.get(key) ?? 0;
      perSlot.set(key, offset + left);
      if (left > 0)
        maintenance.push({
          machineId: `E${x.equipmentId}`,
          start: start + offset,
          end: start + offset + Math.ceil(left),
        });
    }
    const end = start + SHIFT_MINUTES;
    const o = Number(x.productionOrderId);
    orderBusyUntil.set(o, Math.max(orderBusyUntil.get(o) ?? 0, end));
  }

  const lots: PlantLot[] = [];
  const lotInfo: Built['lots'] = new Map();
  const stepInfo: Built['steps'] = new Map();
  const byOrder = new Map<number, Record<string, any>[]>();
  for (const s of steps) byOrder.set(Number(s.orderId), [...(byOrder.get(Number(s.orderId)) ?? []), s]);
  const groups = new Set(machines.map((m) => m.group));
  for (const [orderId, rows] of byOrder) {
    const head = rows[0]!;
    const lotSteps: PlantLot['steps'][number][] = [];
    for (const s of rows) {
      if (s.outsourced) {
        // Heat treatment and other outsourced steps between work still to plan.
        if (lotSteps.length)
          lotSteps.push({
            stepId: `O${orderId}-${s.seq}`,
            name: s.processName,
            outsourceLeadMinutes: body.outsourceLeadDays * DAY,
          });
        continue;
      }
      if (s.taskId == null || ['completed', 'closed'].includes(s.taskStatus) || !(Number(s.remaining) > 0))
        continue;
      const group = `W${s.workshopId}`;
      if (!groups.has(group)) continue; // no machine in its workshop: nothing to plan on
      const stepId = `T${s.taskId}`;
      lotSteps.push({
        stepId,
        name: s.processName,
        group,
        // Minutes per piece of this step times the step's own remaining quantity (lot quantity 1).
        minutesPerPiece: Number(s.standardMinutes) * Number(s.remaining),
        setupMinutes: body.setupMinutes,
        family: `P${head.productId}`,
      });
      stepInfo.set(stepId, {
        taskId: Number(s.taskId),
        taskNo: s.taskNo,
        processName: s.processName,
        workshopType: s.workshopType,
        unitPrecision: Number(s.unitPrecision),
      });
    }
    while (lotSteps.length && lotSteps[lotSteps.length - 1]!.outsourceLeadMinutes !== undefined)
      lotSteps.pop();
    if (!lotSteps.length) continue;
    const id = `O${orderId}`;
    lots.push({
      id,
      orderId: head.orderNo,
      quantity: 1,
      due: (dayIndex(today, head.dueDate) + 1) * DAY,
      weight: PRIORITY_WEIGHT[head.priority] ?? 1,
      release: Math.max(now, orderBusyUntil.get(orderId) ?? 0),
      steps: lotSteps,
    });
    lotInfo.set(id, {
      orderNo: head.orderNo,
      productName: head.productName,
      dueDate: head.dueDate,
      priority: head.priority,
    });
  }
  return {
    problem: { machines, maintenance, lots, frozen: [] },
    today,
    now,
    lots: lotInfo,
    steps: stepInfo,
    machines: machineInfo,
    locked: open.length,
  };
}

/** A scheduled operation as 派工 lines: one per shift it works in, the quantity split by minutes. */
function linesOf(
  b: Built,
  s: PlantSchedule,
  problem: PlantProblem,
  quantities: Map<string, string>,
): { lines: Record<string, any>[]; bars: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  const bars: Record<string, any>[] = [];
  const lotById = new Map(problem.lots.map((l) => [l.id, l]));
  const maint = new Map<string, PlantMaintenance[]>();
  for (const m of problem.maintenance ?? []) maint.set(m.machineId, [...(maint.get(m.machineId) ?? []), m]);
  for (const op of s.operations) {
    const step = b.steps.get(op.stepId);
    const lot = lotById.get(op.lotId);
    const lotInfo = b.lots.get(op.lotId);
    if (!lot || !lotInfo) continue;
    const base = {
      orderNo: lotInfo.orderNo,
      productName: lotInfo.productName,
      stepName: lot.steps[op.stepIndex]?.name ?? '',
      start: op.start,
      end: op.end,
    };
    if (!step || op.machineId === null) {
      bars.push({ ...base, kind: 'outsourced', machineId: null });
      continue;
    }
    const m = b.machines.get(op.machineId)!;
    // Working minutes of each shift window inside [start, end), outside locked time.
    const busy = maint.get(op.machineId) ?? [];
    const pieces: { d: number; shift: 'day' | 'night'; minutes: number; start: number; end: number }[] = [];
    const firstDay = Math.floor(op.start / DAY) - 1;
    for (let d = firstDay; d * DAY < op.end; d++) {
      for (const [shift, w] of [
        ['day', DAY_SHIFT],
        ['night', NIGHT_SHIFT],
      ] as const) {
        const a = Math.max(op.start, d * DAY + w[0]);
        const e = Math.min(op.end, d * DAY + w[1]);
        if (e <= a) continue;
        let minutes = e - a;
        for (const x of busy) minutes -= Math.max(0, Math.min(e, x.end) - Math.max(a, x.start));
        if (minutes > 0) pieces.push({ d, shift, minutes, start: a, end: e });
      }
    }
    const stepRow = step;
    const qty = quantities.get(op.stepId) ?? '0';
    const total = pieces.reduce((t, p) => t + p.minutes, 0) || 1;
    let given = new Decimal(0);
    pieces.forEach((p, i) => {
      const q =
        i === pieces.length - 1
          ? new Decimal(qty).minus(given)
          : new Decimal(qty)
              .times(p.minutes)
              .dividedBy(total)
              .toDecimalPlaces(stepRow.unitPrecision, Decimal.ROUND_DOWN);
      if (q.lte(0)) return;
      given = given.plus(q);
      lines.push({
        taskId: stepRow.taskId,
        taskNo: stepRow.taskNo,
        equipmentId: m.id,
        equipmentCode: m.code,
        equipmentName: m.name,
        operatorId: m.operatorId,
        workshopType: m.workshopType,
        workDate: addDays(b.today, p.d),
        shift: p.shift,
        quantity: q.toString(),
        minutes: p.minutes,
        orderNo: lotInfo.orderNo,
        processName: stepRow.processName,
        start: p.start,
        end: p.end,
      });
    });
    bars.push({ ...base, kind: 'machine', machineId: m.id, equipmentCode: m.code, setup: op.setup });
  }
  return { lines, bars };
}

function kpisOf(b: Built, s: PlantSchedule) {
  const late = s.lots
    .filter((l) => l.late)
    .sort((x, y) => y.tardiness - x.tardiness)
    .map((l) => {
      const info = b.lots.get(l.lotId)!;
      const held = l.heldBy;
      const step = held ? b.steps.get(held.stepId) : undefined;
      const m = held?.machineId ? b.machines.get(held.machineId) : undefined;
      const blocker = held?.blockedBy ? b.lots.get(held.blockedBy)?.orderNo : undefined;
      return {
        orderNo: info.orderNo,
        productName: info.productName,
        dueDate: info.dueDate,
        finish: l.completion,
        tardinessMinutes: l.tardiness,
        heldBy: held
          ? {
              taskNo: step?.taskNo,
              processName: step?.processName,
              equipmentCode: m?.code,
              equipmentName: m?.name,
              waitedMinutes: held.waited,
              behindOrderNo: blocker,
            }
          : null,
        explanation: !held
          ? '剩余工时超过交期前的可用班次'
          : held.waited >= 1
            ? `工序「${step?.processName ?? ''}」在设备 ${m?.code ?? ''} ${m?.name ?? ''} 上等待 ${Math.round(held.waited)} 分钟` +
              (blocker ? `（排在订单 ${blocker} 之后）` : '')
            : `工序「${step?.processName ?? ''}」在设备 ${m?.code ?? ''} ${m?.name ?? ''} 上立即开工，仍需 ${Math.round(held.took)} 分钟（含班次间隔），交期前完不成`,
      };
    });
  return {
    lateOrders: s.kpis.lateOrders,
    tardinessMinutes: Math.round(s.kpis.weightedTardiness),
    changeovers: s.kpis.changeovers,
    makespanMinutes: s.kpis.makespan,
    score: Math.round(s.kpis.score * 10) / 10,
    late,
    machineLoads: s.machineLoads
      .filter((x) => x.busy > 0)
      .map((x) => {
        const m = b.machines.get(x.machineId)!;
        return {
          equipmentId: m.id,
          equipmentCode: m.code,
          equipmentName: m.name,
          workshopType: m.workshopType,
          busyMinutes: Math.round(x.busy),
          availableMinutes: Math.round(x.available),
          load: x.available > 0 ? Math.round((x.busy / x.available) * 1000) / 10 : 0,
        };
      }),
  };
}

/** 自动排产: the proposal and the due-date-order baseline, both checked. */
export async function autoSchedule(db: Db, user: AuthUser, body: AutoScheduleBody) {
  const b = await buildPlantModel(db, body);
  const q = new Map<string, string>();
  // Quantities to dispatch, per step (task).
  const rows = await sql<{ id: number; remaining: string }>`
    SELECT id, GREATEST(planned_quantity - dispatched_quantity, 0)::text AS remaining FROM workshop_task
     WHERE id = ANY(${sql.val([...b.steps.values()].map((s) => s.taskId))}::bigint[])`.execute(db);
  for (const r of rows.rows) q.set(`T${r.id}`, new Decimal(r.remaining).toString());

  const weights = body.weights ?? {};
  const t0 = performance.now();
  const proposal = solvePlant(b.problem, {
    timeLimitMs: body.timeLimitSeconds * 1000,
    seed: body.seed ?? 43,
    weights,
  });
  const seconds = (performance.now() - t0) / 1000;
  // Baseline: the planner's way by hand, orders by due date (then priority), each step on the machine free first.
  const edd = [...b.problem.lots].sort((x, y) => x.due - y.due || (y.weight ?? 1) - (x.weight ?? 1));
  const baseline = schedulePlantSequence(
    b.problem,
    edd.flatMap((l) => l.steps.map(() => l.id)),
    weights,
  );
  const violations = checkPlantSchedule(b.problem, proposal.operations);
  const all = linesOf(b, proposal, b.problem, q);
  const lastDay = addDays(b.today, body.horizonDays - 1);
  const lines = all.lines.filter((l) => l.workDate <= lastDay);
  const bars = all.bars;
  for (const l of lines) if (l.operatorId == null) l.operatorId = Number(user.id);
  return {
    today: b.today,
    now: b.now,
    horizonDays: body.horizonDays,
    orders: b.problem.lots.length,
    operations: proposal.operations.length,
    lockedDispatches: b.locked,
    seconds: Math.round(seconds * 100) / 100,
    iterations: proposal.iterations,
    violations: violations.map((v) => v.message),
    proposal: kpisOf(b, proposal),
    baseline: kpisOf(b, baseline),
    lines,
    beyondHorizon: all.lines.length - lines.length,
    bars,
  };
}

/** 发布: the proposal's lines become 派工单 through 派工, task by task, in one transaction. */
export async function publishSchedule(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof publishBody>,
  requestId?: string,
) {
  const tasks = await sql<{ id: number; workshopType: string }>`
    SELECT id, workshop_type FROM workshop_task WHERE id = ANY(${sql.val(body.lines.map((l) => l.taskId))}::bigint[])`.execute(
    db,
  );
  const kind = new Map(tasks.rows.map((r) => [Number(r.id), r.workshopType]));
  for (const [i, l] of body.lines.entries()) {
    const w = kind.get(l.taskId);
    if (!w)
      throw badRequest(`第 ${i + 1} 行的车间任务不存在`, [
        { field: `lines.${i}.taskId`, message: '车间任务不存在' },
      ]);
    if (!mayPlan(user, w, 'edit')) throw forbidden();
  }
  const byTask = new Map<number, typeof body.lines>();
  for (const l of body.lines) byTask.set(l.taskId, [...(byTask.get(l.taskId) ?? []), l]);
  const dispatches: { id: number; docNo: string }[] = [];
  const warnings: string[] = [];
  for (const [taskId, lines] of byTask) {
    for (let i = 0; i < lines.length; i += 50) {
      const r = await dispatchTask(
        db,
        user,
        taskId,
        {
          lines: lines.slice(i, i + 50).map((l) => ({
            operatorId: l.operatorId,
            equipmentId: l.equipmentId,
            workDate: l.workDate,
            shift: l.shift,
            quantity: l.quantity,
            remark: '自动排产',
          })),
        } as any,
        requestId,
      );
      dispatches.push(...r.dispatches);
      warnings.push(...r.warnings);
    }
  }
  return { dispatches, warnings: [...new Set(warnings)] };
}

export function autoScheduleRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/work-dispatch/auto-schedule',
    ...opened('list'),
    body: autoScheduleBody,
    handler: ({ body, user, app: { db } }) => autoSchedule(db, user, body),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/work-dispatch/auto-schedule/publish',
    ...opened('edit'),
    body: publishBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => publishSchedule(trx, user, body, req.id)),
  });
}
