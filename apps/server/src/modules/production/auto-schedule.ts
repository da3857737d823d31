import {
  canRun,
  checkPlantSchedule,
  DEFAULT_WORK_CALENDAR,
  type PlantLot,
  type PlantMachine,
  type PlantMaintenance,
  type PlantPin,
  type PlantProblem,
  type PlantSchedule,
  type ScheduleWindow,
  SHIFT_MINUTES,
  schedulePlantSequence,
  scheduleWindows,
  solvePlant,
  WORKSHOP_KINDS,
  type WorkCalendar,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import type { App, Permission } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { planningCalendar } from './mrp.ts';
import { dispatchTask } from './workshop-task.ts';

/**
 * 自动排产 (issue 43): the plant model built from the database, solved by the domain's
 * `solvePlant`, answered as a proposal beside an order-by-due-date baseline; 发布 turns the
 * proposal's lines into 派工单 through 派工 (`dispatchTask`), so they appear on the operator sheets.
 *
 * Model (docs/scheduling.md):
 * - Lots: an order's open flow cards (流转卡, not held), each with the route steps it has not passed
 *   and their quantity still to dispatch; quantity of a task not on any card (cards not opened yet,
 *   or an order without cards) is one more lot of the order. A task's dispatched quantity first
 *   counts for the cards past its step, then for the pending cards furthest along.
 * - Machines: the equipment of the task's workshop (not scrapped, not under repair, not in 故障 — an
 *   open 报修单 takes the machine out until it is repaired, as OEE counts its downtime) whose 可做工序
 *   (machine_setting.process_ids; none set: every step of its workshop) include the step's 工序, at
 *   its speed factor (machine_setting.speed_factor, default 1).
 * - Changeovers: a product's 换型族 (schedule_family; none: the product itself); setup minutes of a
 *   step from schedule_setup (its 工序 and family, else its 工序 for every family, else the run's
 *   `setupMinutes`).
 * - Working time: each workshop's 班次日历 (work_calendar, else OEE's default calendar) met with the
 *   factory's 生产日历 (`scheduleWindows`), a year past the horizon (work beyond it is placed and
 *   counted late; only the horizon's lines are answered for 发布); an active maintenance plan due in
 *   the horizon takes its machine's 白班 windows that day; open dispatches (已派工, 已开工, 暂停)
 *   stay where they are and take their machine's working time from their shift's start (a started
 *   or overdue one from now), and an order's lots start after its last one.
 * - Pins: proposal steps the planner dragged or locked stay on their machine from their shift's start.
 * - Due: the sales order's delivery date when the order has one, else the order's due date (end of
 *   day). Weights: 紧急 4, 高 2, 普通 1, 低 0.5.
 */

const DAY = 1440;
const CALENDAR_TAIL_DAYS = 366;
const PRIORITY_WEIGHT: Record<string, number> = { urgent: 4, high: 2, normal: 1, low: 0.5 };
/** Where a shift starts when the machine's calendar has no window that day (08:00, 20:00). */
const NOMINAL_START = { day: 480, night: 1200 } as const;

const weight = z.number({ error: '权重必须是数字' }).min(0, '权重不能为负').max(1e6, '权重过大').optional();

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
    .strictObject({ tardiness: weight, late: weight, changeovers: weight, makespan: weight })
    .optional(),
  seed: z
    .number({ error: '随机种子必须是数字' })
    .int('随机种子必须是整数')
    .min(0)
    .max(2 ** 31)
    .optional(),
  pins: z
    .array(
      z.strictObject({
        lotId: z.string().max(40),
        stepId: z.string().max(60),
        equipmentId: zx.id,
        workDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '生产日期格式应为 YYYY-MM-DD'),
        shift: z.enum(['day', 'night'], { error: '班次只能是白班或夜班' }),
      }),
    )
    .max(2000, '最多锁定 2000 道工序')
    .default([]),
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
    .max(5000, '一次最多发布 5000 行'),
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

/** Pieces of working time: `minutes` of it from `skip` working minutes after `start` on. */
function walk(windows: readonly ScheduleWindow[], start: number, skip: number, minutes: number) {
  const out: [number, number][] = [];
  let toSkip = skip;
  let left = minutes;
  for (const w of windows) {
    if (left <= 0) break;
    if (w.end <= start) continue;
    let a = Math.max(w.start, start);
    const cut = Math.min(toSkip, w.end - a);
    a += cut;
    toSkip -= cut;
    if (a >= w.end) continue;
    const e = Math.min(w.end, a + left);
    out.push([a, e]);
    left -= e - a;
  }
  return out;
}

/** The minute a machine's shift of a day starts: its first window that day, else the nominal start. */
function shiftStart(windows: readonly ScheduleWindow[], d: number, shift: 'day' | 'night') {
  const w = windows.find((x) => x.dayIndex === d && x.shift === shift);
  return w ? w.start : d * DAY + NOMINAL_START[shift];
}

interface Built {
  problem: PlantProblem;
  today: string;
  now: number;
  lots: Map<
    string,
    { orderNo: string; cardNo: string | null; productName: string; dueDate: string; priority: string }
  >;
  steps: Map<
    string,
    {
      taskId: number;
      taskNo: string;
      processName: string;
      workshopType: string;
      unitPrecision: number;
      quantity: string;
    }
  >;
  machines: Map<
    string,
    { id: number; code: string; name: string; workshopType: string; operatorId: number | null }
  >;
  /** Working windows per machine (its workshop's), with day and 派工 shift. */
  windows: Map<string, ScheduleWindow[]>;
  locked: number;
  unplanned: string[];
  pinsIgnored: number;
  /** Machines left out for 故障 (an open 报修单), `code name`. */
  down: string[];
}

const num = (v: unknown) => Number(v ?? 0);

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

  const [equipment, open, maint, steps, cards, calendars, factory, families, setups] = await Promise.all([
    sql<Record<string, any>>`
      SELECT e.id, e.code, e.name, e.workshop_id, w.type AS workshop_type, e.fault_state,
             s.speed_factor::float8 AS speed_factor, s.process_ids,
             (SELECT d.operator_id FROM work_dispatch d WHERE d.equipment_id = e.id ORDER BY d.id DESC LIMIT 1) AS last_operator,
             (SELECT t.member_ids[1] FROM production_team t WHERE t.workshop_id = e.workshop_id AND t.status = '1'
                 AND cardinality(t.member_ids) > 0 ORDER BY t.id LIMIT 1) AS team_operator
        FROM equipment e JOIN workshop w ON w.id = e.workshop_id
        LEFT JOIN machine_setting s ON s.equipment_id = e.id
       WHERE e.status NOT IN ('scrapped', 'repair') AND w.type IN ('machine', 'grinding', 'inspect', 'assembly')
       ORDER BY e.code`.execute(db),
    sql<Record<string, any>>`
      SELECT x.equipment_id, x.production_order_id, x.status, to_char(x.work_date, 'YYYY-MM-DD') AS work_date, x.shift,
             COALESCE(x.planned_minutes, 0)::float8 AS planned_minutes, x.quantity::float8 AS quantity,
             x.reported_quantity::float8 AS reported_quantity
        FROM work_dispatch x
       WHERE x.status IN ('dispatched', 'started', 'paused') AND x.work_date <= ${horizonEnd}::date
       ORDER BY x.id`.execute(db),
    sql<Record<string, any>>`
      SELECT equipment_id, to_char(next_due_date, 'YYYY-MM-DD') AS due FROM maintenance_plan
       WHERE status = '1' AND next_due_date BETWEEN ${today}::date AND ${horizonEnd}::date`.execute(db),
    sql<Record<string, any>>`
      SELECT o.id AS order_id, o.doc_no AS order_no, o.priority, o.product_id, m.name AS product_name,
             to_char(COALESCE(so.delivery_date, o.due_date), 'YYYY-MM-DD') AS due_date,
             s.seq, s.outsourced, s.process_id, t.id AS task_id, t.task_no, t.workshop_id, t.workshop_type,
             t.status AS task_status,
             COALESCE(t.standard_minutes, s.standard_minutes, 0)::float8 AS standard_minutes,
             GREATEST(t.planned_quantity - t.dispatched_quantity, 0)::text AS remaining,
             COALESCE(t.dispatched_quantity, 0)::text AS dispatched,
             p.name AS process_name, COALESCE(u.precision, 0) AS unit_precision
        FROM production_order o
        JOIN production_order_step s ON s.production_order_id = o.id
        JOIN process p ON p.id = s.process_id
        JOIN material m ON m.id = o.product_id
        LEFT JOIN material_unit u ON u.id = m.unit_id
        LEFT JOIN sale_order so ON so.id = o.sale_order_id
        LEFT JOIN workshop_task t ON t.order_step_id = s.id
       WHERE o.status IN ('released', 'producing')
       ORDER BY o.id, s.seq`.execute(db),
    sql<Record<string, any>>`
      SELECT c.id, c.doc_no, c.production_order_id, c.status, c.held, c.quantity::text AS quantity,
             COALESCE(c.current_seq, 0) AS current_seq
        FROM flow_card c JOIN production_order o ON o.id = c.production_order_id
       WHERE o.status IN ('released', 'producing') AND c.status IN ('open', 'completed')
       ORDER BY c.production_order_id, c.id`.execute(db),
    sql<{ workshopId: number; calendar: WorkCalendar }>`
      SELECT workshop_id::int AS workshop_id, calendar FROM work_calendar`.execute(db),
    planningCalendar(db),
    sql<{ materialId: number; family: string }>`
      SELECT material_id::int AS material_id, family FROM schedule_family`.execute(db),
    sql<{ processId: number; family: string; setupMinutes: number }>`
      SELECT process_id::int AS process_id, family, setup_minutes::float8 AS setup_minutes FROM schedule_setup`.execute(
      db,
    ),
  ]);

  // Working time per workshop: its 班次日历 met with the factory's 生产日历.
  const calendarOf = new Map(calendars.rows.map((c) => [Number(c.workshopId), c.calendar]));
  const windowsOf = new Map<number, ScheduleWindow[]>();
  const workshopWindows = (workshopId: number) => {
    let w = windowsOf.get(workshopId);
    if (!w) {
      w = scheduleWindows(
        calendarOf.get(workshopId) ?? DEFAULT_WORK_CALENDAR,
        factory,
        today,
        body.horizonDays + CALENDAR_TAIL_DAYS,
      );
      windowsOf.set(workshopId, w);
    }
    return w;
  };

  const machines: PlantMachine[] = [];
  const machineInfo: Built['machines'] = new Map();
  const machineWindows: Built['windows'] = new Map();
  const down: string[] = [];
  for (const e of equipment.rows) {
    if (e.faultState === 'fault') {
      down.push(`${e.code} ${e.name}`);
      continue;
    }
    const id = `E${e.id}`;
    const windows = workshopWindows(Number(e.workshopId));
    machineWindows.set(id, windows);
    const processIds = (e.processIds as (number | string)[] | null) ?? null;
    machines.push({
      id,
      group: `W${e.workshopId}`,
      workshop: e.workshopType,
      speed: e.speedFactor != null && Number(e.speedFactor) > 0 ? Number(e.speedFactor) : 1,
      capabilities: processIds?.length ? processIds.map((p) => `P${p}`) : undefined,
      calendar: windows.map((w) => [w.start, w.end] as [number, number]),
    });
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
  for (const m of maint.rows) {
    const id = `E${m.equipmentId}`;
    if (!known.has(id)) continue;
    const d = dayIndex(today, m.due);
    // The machine's 白班 that day.
    for (const w of machineWindows.get(id)!)
      if (w.dayIndex === d && w.shift === 'day')
        maintenance.push({ machineId: id, start: w.start, end: w.end });
  }
  // Open dispatches keep their slot (a past one what is left of it, from now): locked.
  const orderBusyUntil = new Map<number, number>();
  const perSlot = new Map<string, number>();
  for (const x of open.rows) {
    const left = num(x.plannedMinutes) * Math.max(0, 1 - num(x.reportedQuantity) / (num(x.quantity) || 1));
    const d = dayIndex(today, x.workDate);
    const id = `E${x.equipmentId}`;
    const shift = x.shift === 'night' ? 'night' : 'day';
    const windows = known.has(id) ? machineWindows.get(id)! : [];
    let start = shiftStart(windows, d, shift);
    const nominalEnd = d * DAY + NOMINAL_START[shift] + SHIFT_MINUTES;
    if (nominalEnd <= now || x.status !== 'dispatched') start = Math.max(start, now);
    let end = Math.max(start, nominalEnd);
    if (x.equipmentId != null && known.has(id) && left > 0) {
      const key = `${id}|${start}`;
      const offset = perSlot.get(key) ?? 0;
      perSlot.set(key, offset + Math.ceil(left));
      for (const [a, b] of walk(windows, start, offset, Math.ceil(left))) {
        maintenance.push({ machineId: id, start: a, end: b });
        end = Math.max(end, b);
      }
    }
    const o = Number(x.productionOrderId);
    orderBusyUntil.set(o, Math.max(orderBusyUntil.get(o) ?? 0, end));
  }

  const familyOf = new Map(families.rows.map((f) => [Number(f.materialId), f.family]));
  const setupOf = new Map(setups.rows.map((s) => [`${s.processId}|${s.family}`, Number(s.setupMinutes)]));
  const capable = (group: string, capability: string) =>
    machines.some((m) => m.group === group && (!m.capabilities || m.capabilities.includes(capability)));

  const lots: PlantLot[] = [];
  const lotInfo: Built['lots'] = new Map();
  const stepInfo: Built['steps'] = new Map();
  const unplanned: string[] = [];
  const byOrder = new Map<number, Record<string, any>[]>();
  for (const s of steps.rows) byOrder.set(Number(s.orderId), [...(byOrder.get(Number(s.orderId)) ?? []), s]);
  const cardsOf = new Map<number, Record<string, any>[]>();
  for (const c of cards.rows)
    cardsOf.set(Number(c.productionOrderId), [...(cardsOf.get(Number(c.productionOrderId)) ?? []), c]);
  const groups = new Set(machines.map((m) => m.group));

  for (const [orderId, rows] of byOrder) {
    const head = rows[0]!;
    const family = familyOf.get(Number(head.productId)) ?? `P${head.productId}`;
    const orderCards = cardsOf.get(orderId) ?? [];
    // The cards still to move, furthest along first.
    const pending = orderCards
      .filter((c) => c.status === 'open' && !c.held)
      .sort((a, b) => Number(b.currentSeq) - Number(a.currentSeq) || Number(a.id) - Number(b.id));
    // Per lot (card id, or 0 for the order's quantity on no card): its steps in route order.
    const lotSteps = new Map<number, PlantLot['steps'][number][]>();
    const stepsOf = (k: number) => {
      const l = lotSteps.get(k) ?? [];
      lotSteps.set(k, l);
      return l;
    };
    // Whether a lot's first step to plan comes after a step of its already dispatched (then it
    // starts after the order's open dispatches).
    const coveredBefore = new Set<number>();
    for (const s of rows) {
      if (s.outsourced) {
        // Heat treatment and other outsourced steps between work still to plan, for every lot.
        for (const [, l] of lotSteps)
          if (l.length)
            l.push({
              stepId: `O${orderId}-${s.seq}`,
              name: s.processName,
              outsourceLeadMinutes: body.outsourceLeadDays * DAY,
            });
        continue;
      }
      if (s.taskId == null || ['completed', 'closed'].includes(s.taskStatus)) continue;
      let remaining = new Decimal(s.remaining);
      if (remaining.lte(0)) {
        for (const c of pending) if (Number(c.currentSeq) <= Number(s.seq)) coveredBefore.add(Number(c.id));
        continue;
      }
      const group = `W${s.workshopId}`;
      const capability = `P${s.processId}`;
      if (!groups.has(group) || !capable(group, capability)) {
        unplanned.push(`${s.taskNo}（${s.processName}）：车间内没有能做此工序的设备`);
        continue;
      }
      // The dispatched quantity counts first for the cards past this step, then for the pending
      // cards furthest along; what is left of each pending card is its lot's work here.
      const past = orderCards
        .filter(
          (c) => c.status === 'completed' || (c.status === 'open' && Number(c.currentSeq) > Number(s.seq)),
        )
        .reduce<Decimal>((t, c) => t.plus(String(c.quantity)), new Decimal(0));
      let cover = Decimal.max(new Decimal(s.dispatched).minus(past), 0);
      const parts: [number, Decimal][] = [];
      for (const c of pending) {
        if (Number(c.currentSeq) > Number(s.seq)) continue;
        const covered = Decimal.min(cover, String(c.quantity));
        cover = cover.minus(covered);
        const need = Decimal.min(new Decimal(String(c.quantity)).minus(covered), remaining);
        if (covered.gt(0)) coveredBefore.add(Number(c.id));
        if (need.lte(0)) continue;
        parts.push([Number(c.id), need]);
        remaining = remaining.minus(need);
      }
      if (remaining.gt(0)) parts.push([0, remaining]);
      const setup =
        setupOf.get(`${s.processId}|${family}`) ?? setupOf.get(`${s.processId}|`) ?? body.setupMinutes;
      for (const [k, q] of parts) {
        const stepId = `T${s.taskId}-${k ? `C${k}` : 'O'}`;
        stepsOf(k).push({
          stepId,
          name: s.processName,
          group,
          capability,
          // Minutes per piece of this step times the lot's quantity here (lot quantity 1).
          minutesPerPiece: Number(s.standardMinutes) * q.toNumber(),
          setupMinutes: setup,
          family,
        });
        stepInfo.set(stepId, {
          taskId: Number(s.taskId),
          taskNo: s.taskNo,
          processName: s.processName,
          workshopType: s.workshopType,
          unitPrecision: Number(s.unitPrecision),
          quantity: q.toString(),
        });
      }
    }
    const cardNo = new Map(orderCards.map((c) => [Number(c.id), c.docNo as string]));
    for (const [k, list] of lotSteps) {
      while (list.length && list[list.length - 1]!.outsourceLeadMinutes !== undefined) list.pop();
      if (!list.length) continue;
      const id = k ? `C${k}` : `O${orderId}`;
      const busy = !k || coveredBefore.has(k) ? (orderBusyUntil.get(orderId) ?? 0) : 0;
      lots.push({
        id,
        orderId: head.orderNo,
        quantity: 1,
        due: (dayIndex(today, head.dueDate) + 1) * DAY,
        weight: PRIORITY_WEIGHT[head.priority] ?? 1,
        release: Math.max(now, busy),
        steps: list,
      });
      lotInfo.set(id, {
        orderNo: head.orderNo,
        cardNo: k ? (cardNo.get(k) ?? null) : null,
        productName: head.productName,
        dueDate: head.dueDate,
        priority: head.priority,
      });
    }
  }

  // The planner's pins: on their machine from their shift's start (stale ones are left out).
  const pins: PlantPin[] = [];
  let pinsIgnored = 0;
  const lotById = new Map(lots.map((l) => [l.id, l]));
  const machineById = new Map(machines.map((m) => [m.id, m]));
  for (const p of body.pins) {
    const lot = lotById.get(p.lotId);
    const stepIndex = lot?.steps.findIndex((s) => s.stepId === p.stepId) ?? -1;
    const machineId = `E${p.equipmentId}`;
    const m = machineById.get(machineId);
    if (!lot || stepIndex < 0 || !m || !canRun(m, lot.steps[stepIndex]!)) {
      pinsIgnored++;
      continue;
    }
    const start = Math.max(
      now,
      shiftStart(machineWindows.get(machineId)!, dayIndex(today, p.workDate), p.shift),
    );
    pins.push({ lotId: p.lotId, stepIndex, machineId, start });
  }
  return {
    problem: { machines, maintenance, lots, frozen: [], pins },
    today,
    now,
    lots: lotInfo,
    steps: stepInfo,
    machines: machineInfo,
    windows: machineWindows,
    locked: open.rows.length,
    unplanned,
    pinsIgnored,
    down,
  };
}

/**
 * A scheduled operation as 派工 lines: one per shift it works in (its machine's calendar windows),
 * the quantity split by minutes; lines of one task, machine, day and shift are one line. Also the
 * proposal's bars: one per operation, with the shift it starts in and the one it ends in.
 */
function linesOf(b: Built, s: PlantSchedule, problem: PlantProblem) {
  const lines = new Map<string, Record<string, any>>();
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
      key: `${op.lotId}|${op.stepId}`,
      lotId: op.lotId,
      stepId: op.stepId,
      orderNo: lotInfo.orderNo,
      cardNo: lotInfo.cardNo,
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
    // Working minutes of each calendar window inside [start, end), outside locked time, by shift.
    const busy = maint.get(op.machineId) ?? [];
    const windows = b.windows.get(op.machineId) ?? [];
    const pieces: { d: number; shift: 'day' | 'night'; minutes: number; start: number; end: number }[] = [];
    let lo = 0;
    let hi = windows.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (windows[mid]!.end <= op.start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < windows.length && windows[i]!.start < op.end; i++) {
      const w = windows[i]!;
      const a = Math.max(op.start, w.start);
      const e = Math.min(op.end, w.end);
      if (e <= a) continue;
      let minutes = e - a;
      for (const x of busy) minutes -= Math.max(0, Math.min(e, x.end) - Math.max(a, x.start));
      if (minutes <= 0) continue;
      const last = pieces[pieces.length - 1];
      if (last && last.d === w.dayIndex && last.shift === w.shift) {
        last.minutes += minutes;
        last.end = e;
      } else pieces.push({ d: w.dayIndex, shift: w.shift, minutes, start: a, end: e });
    }
    const qty = step.quantity;
    const total = pieces.reduce((t, p) => t + p.minutes, 0) || 1;
    let given = new Decimal(0);
    pieces.forEach((p, i) => {
      const q =
        i === pieces.length - 1
          ? new Decimal(qty).minus(given)
          : new Decimal(qty)
              .times(p.minutes)
              .dividedBy(total)
              .toDecimalPlaces(step.unitPrecision, Decimal.ROUND_DOWN);
      if (q.lte(0)) return;
      given = given.plus(q);
      const workDate = addDays(b.today, p.d);
      const k = `${step.taskId}|${m.id}|${workDate}|${p.shift}`;
      const same = lines.get(k);
      if (same) {
        same.quantity = new Decimal(same.quantity).plus(q).toString();
        same.minutes += p.minutes;
        same.start = Math.min(same.start, p.start);
        same.end = Math.max(same.end, p.end);
        if (lotInfo.cardNo && !same.cardNos.includes(lotInfo.cardNo)) same.cardNos.push(lotInfo.cardNo);
        return;
      }
      lines.set(k, {
        taskId: step.taskId,
        taskNo: step.taskNo,
        equipmentId: m.id,
        equipmentCode: m.code,
        equipmentName: m.name,
        operatorId: m.operatorId,
        workshopType: m.workshopType,
        workDate,
        shift: p.shift,
        quantity: q.toString(),
        minutes: p.minutes,
        orderNo: lotInfo.orderNo,
        cardNos: lotInfo.cardNo ? [lotInfo.cardNo] : [],
        processName: step.processName,
        start: p.start,
        end: p.end,
      });
    });
    const first = pieces[0];
    const last = pieces[pieces.length - 1];
    bars.push({
      ...base,
      kind: 'machine',
      machineId: m.id,
      equipmentId: m.id,
      equipmentCode: m.code,
      workshopType: m.workshopType,
      taskId: step.taskId,
      processName: step.processName,
      quantity: qty,
      setup: op.setup,
      pinned: op.pinned,
      workDate: first ? addDays(b.today, first.d) : null,
      shift: first?.shift ?? null,
      lastWorkDate: last ? addDays(b.today, last.d) : null,
      lastShift: last?.shift ?? null,
    });
  }
  return { lines: [...lines.values()], bars };
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
        cardNo: info.cardNo,
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
  const all = linesOf(b, proposal, b.problem);
  const lastDay = addDays(b.today, body.horizonDays - 1);
  const lines = all.lines.filter((l) => l.workDate <= lastDay);
  const bars = all.bars;
  for (const l of lines) if (l.operatorId == null) l.operatorId = Number(user.id);
  return {
    today: b.today,
    now: b.now,
    horizonDays: body.horizonDays,
    orders: new Set(b.problem.lots.map((l) => l.orderId)).size,
    lots: b.problem.lots.length,
    cardLots: b.problem.lots.filter((l) => l.id.startsWith('C')).length,
    operations: proposal.operations.length,
    lockedDispatches: b.locked,
    pins: b.problem.pins?.length ?? 0,
    pinsMoved: proposal.pinsMoved,
    pinsIgnored: b.pinsIgnored,
    down: b.down,
    unplanned: b.unplanned,
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

// ------------------------------------------------------------------ 排产参数

const machineSettingBody = z.strictObject({
  speedFactor: z
    .number({ error: '速度系数必须是数字' })
    .gt(0, '速度系数应大于 0')
    .max(10, '速度系数不能超过 10')
    .nullable(),
  processIds: z.array(zx.id, { error: '可做工序应为工序列表' }).max(200, '最多 200 个工序'),
});
const familyBody = z.strictObject({
  family: z.string().trim().max(40, '换型族不能超过 40 个字符').nullable(),
});
const setupsBody = z.strictObject({
  setups: z
    .array(
      z.strictObject({
        processId: zx.id,
        family: z.string().trim().max(40, '换型族不能超过 40 个字符').default(''),
        setupMinutes: z
          .number({ error: '换型时间必须是数字' })
          .min(0, '换型时间不能为负')
          .max(1440, '换型时间不能超过 1440 分钟'),
      }),
    )
    .max(1000, '最多 1000 条换型时间'),
});

const settingsAnswer = z.object({
  machines: z.array(
    z.object({
      equipmentId: z.number(),
      code: z.string(),
      name: z.string(),
      workshopName: z.string(),
      workshopType: z.string(),
      speedFactor: z.number().nullable(),
      processIds: z.array(z.number()),
    }),
  ),
  processes: z.array(z.object({ id: z.number(), code: z.string(), name: z.string() })),
  families: z.array(
    z.object({ materialId: z.number(), code: z.string(), name: z.string(), family: z.string().nullable() }),
  ),
  setups: z.array(z.object({ processId: z.number(), family: z.string(), setupMinutes: z.number() })),
});

/** What 自动排产 plans with: machines (speed, 可做工序), products' 换型族 and setup minutes. */
export async function scheduleSettings(db: Db): Promise<z.infer<typeof settingsAnswer>> {
  const [machines, processes, families, setups] = await Promise.all([
    sql<any>`
      SELECT e.id::int AS equipment_id, e.code, e.name, w.name AS workshop_name, w.type AS workshop_type,
             s.speed_factor::float8 AS speed_factor, COALESCE(s.process_ids, '{}') AS process_ids
        FROM equipment e JOIN workshop w ON w.id = e.workshop_id
        LEFT JOIN machine_setting s ON s.equipment_id = e.id
       WHERE e.status <> 'scrapped' AND w.type IN ('machine', 'grinding', 'inspect', 'assembly')
       ORDER BY w.type, e.code`.execute(db),
    sql<any>`SELECT id::int AS id, code, name FROM process ORDER BY code`.execute(db),
    // Products of open orders, and every product given a family.
    sql<any>`
      SELECT m.id::int AS material_id, m.code, m.name, f.family
        FROM material m LEFT JOIN schedule_family f ON f.material_id = m.id
       WHERE f.material_id IS NOT NULL
          OR EXISTS (SELECT 1 FROM production_order o WHERE o.product_id = m.id AND o.status IN ('released', 'producing'))
       ORDER BY m.code`.execute(db),
    sql<any>`
      SELECT process_id::int AS process_id, family, setup_minutes::float8 AS setup_minutes
        FROM schedule_setup ORDER BY process_id, family`.execute(db),
  ]);
  return {
    machines: machines.rows.map((m) => ({ ...m, processIds: (m.processIds ?? []).map(Number) })),
    processes: processes.rows,
    families: families.rows,
    setups: setups.rows,
  };
}

const kpisAnswer = z.looseObject({
  lateOrders: z.number(),
  tardinessMinutes: z.number(),
  changeovers: z.number(),
  makespanMinutes: z.number(),
  late: z.array(
    z.looseObject({ orderNo: z.string(), cardNo: z.string().nullable(), explanation: z.string() }),
  ),
  machineLoads: z.array(z.looseObject({ equipmentId: z.number(), load: z.number() })),
});
/** 自动排产's answer (the fields the page reads; see docs/scheduling.md). */
const runAnswer = z.looseObject({
  today: z.string(),
  orders: z.number(),
  lots: z.number(),
  cardLots: z.number(),
  operations: z.number(),
  lockedDispatches: z.number(),
  pins: z.number(),
  pinsMoved: z.number(),
  pinsIgnored: z.number(),
  down: z.array(z.string()),
  unplanned: z.array(z.string()),
  seconds: z.number(),
  iterations: z.number(),
  violations: z.array(z.string()),
  proposal: kpisAnswer,
  baseline: kpisAnswer,
  lines: z.array(
    z.looseObject({
      taskId: z.number(),
      equipmentId: z.number(),
      operatorId: z.number(),
      workDate: z.string(),
      shift: z.enum(['day', 'night']),
      quantity: z.string(),
      minutes: z.number(),
      cardNos: z.array(z.string()),
    }),
  ),
  beyondHorizon: z.number(),
  bars: z.array(
    z.looseObject({
      key: z.string(),
      kind: z.enum(['machine', 'outsourced']),
      lotId: z.string(),
      stepId: z.string(),
      pinned: z.boolean().optional(),
    }),
  ),
});

export function autoScheduleRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/work-dispatch/auto-schedule',
    ...opened('list'),
    body: autoScheduleBody,
    response: runAnswer,
    handler: ({ body, user, app: { db } }) => autoSchedule(db, user, body),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/work-dispatch/auto-schedule/publish',
    ...opened('edit'),
    body: publishBody,
    response: z.object({
      dispatches: z.array(z.looseObject({ id: z.number(), docNo: z.string() })),
      warnings: z.array(z.string()),
    }),
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => publishSchedule(trx, user, body, req.id)),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/work-dispatch/auto-schedule/settings',
    ...opened('list'),
    response: settingsAnswer,
    handler: ({ app: { db } }) => scheduleSettings(db),
  });
  route(app, {
    method: 'PUT',
    url: '/api/v1/work-dispatch/auto-schedule/machine/:id',
    ...opened('edit'),
    params: idParams,
    body: machineSettingBody,
    response: z.object({
      equipmentId: z.number(),
      speedFactor: z.number().nullable(),
      processIds: z.array(z.number()),
    }),
    async handler({ params, body, user, app: { db } }) {
      const e = await sql<{ workshopType: string }>`
        SELECT w.type AS workshop_type FROM equipment e JOIN workshop w ON w.id = e.workshop_id
         WHERE e.id = ${params.id}`.execute(db);
      if (!e.rows[0]) throw notFound('设备不存在');
      if (!mayPlan(user, e.rows[0].workshopType, 'edit')) throw forbidden();
      const ids = [...new Set(body.processIds)];
      if (ids.length) {
        const found = await sql<{ id: number }>`
          SELECT id::int AS id FROM process WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
        const have = new Set(found.rows.map((r) => Number(r.id)));
        const missing = ids.filter((x) => !have.has(x));
        if (missing.length)
          throw badRequest(`工序不存在：${missing.join('、')}`, [
            { field: 'processIds', message: '工序不存在' },
          ]);
      }
      await sql`
        INSERT INTO machine_setting (equipment_id, speed_factor, process_ids, updated_by)
        VALUES (${params.id}, ${body.speedFactor}, ${ids.length ? sql`${sql.val(ids)}::bigint[]` : null}, ${user.id})
        ON CONFLICT (equipment_id) DO UPDATE SET speed_factor = EXCLUDED.speed_factor, process_ids = EXCLUDED.process_ids,
          updated_by = EXCLUDED.updated_by, updated_at = now(), version = machine_setting.version + 1`.execute(
        db,
      );
      return { equipmentId: params.id, speedFactor: body.speedFactor, processIds: ids };
    },
  });
  route(app, {
    method: 'PUT',
    url: '/api/v1/work-dispatch/auto-schedule/family/:id',
    ...opened('edit'),
    params: idParams,
    body: familyBody,
    response: z.object({ materialId: z.number(), family: z.string().nullable() }),
    async handler({ params, body, user, app: { db } }) {
      const m = await sql`SELECT 1 FROM material WHERE id = ${params.id}`.execute(db);
      if (!m.rows.length) throw notFound('物料不存在');
      const family = body.family || null;
      if (family === null)
        await sql`DELETE FROM schedule_family WHERE material_id = ${params.id}`.execute(db);
      else
        await sql`
          INSERT INTO schedule_family (material_id, family, updated_by) VALUES (${params.id}, ${family}, ${user.id})
          ON CONFLICT (material_id) DO UPDATE SET family = EXCLUDED.family, updated_by = EXCLUDED.updated_by,
            updated_at = now()`.execute(db);
      return { materialId: params.id, family };
    },
  });
  route(app, {
    method: 'PUT',
    url: '/api/v1/work-dispatch/auto-schedule/setups',
    ...opened('edit'),
    body: setupsBody,
    response: z.object({ setups: z.number() }),
    handler: ({ body, user, app: { db } }) =>
      db.transaction().execute(async (trx) => {
        const seen = new Set<string>();
        for (const [i, x] of body.setups.entries()) {
          const k = `${x.processId}|${x.family}`;
          if (seen.has(k))
            throw badRequest(`第 ${i + 1} 行与前面的工序、换型族重复`, [
              { field: `setups.${i}.family`, message: '工序与换型族重复' },
            ]);
          seen.add(k);
        }
        const ids = [...new Set(body.setups.map((x) => x.processId))];
        if (ids.length) {
          const found = await sql<{ id: number }>`
            SELECT id::int AS id FROM process WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(trx);
          const have = new Set(found.rows.map((r) => Number(r.id)));
          const bad = body.setups.findIndex((x) => !have.has(x.processId));
          if (bad >= 0)
            throw badRequest(`第 ${bad + 1} 行的工序不存在`, [
              { field: `setups.${bad}.processId`, message: '工序不存在' },
            ]);
        }
        await sql`DELETE FROM schedule_setup`.execute(trx);
        for (const x of body.setups)
          await sql`
            INSERT INTO schedule_setup (process_id, family, setup_minutes, updated_by)
            VALUES (${x.processId}, ${x.family}, ${x.setupMinutes}, ${user.id})`.execute(trx);
        return { setups: body.setups.length };
      }),
  });
}
