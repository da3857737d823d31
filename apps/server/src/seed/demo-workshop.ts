import {
  docPrefixOf,
  outsourcingOrderResource,
  SHIFT_MINUTES,
  workDispatchResource,
  workReportResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { writeWageLinesMany } from '../modules/finance/wages.ts';
import { taken } from '../modules/production/pieces.ts';
import { outsourceStep } from '../modules/production/produce-outsourcing.ts';
import { dispatchOrder } from '../modules/production/production-order-dispatch.ts';
import { finishedGoods, settleCard } from '../modules/production/work-report.ts';
import { notifyOperator, recountTask } from '../modules/production/workshop-task.ts';
import { outsourcingOrderHooks, outsourcingOrderTransitions } from '../modules/purchase/outsourcing-order.ts';
import { onReportAwaitingInspection } from '../modules/quality/sources.ts';
import { auditMany } from '../platform/audit.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { prepared } from '../platform/db/prepared.ts';
import { addDays, businessDay, dayInstant, nextDocNos } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/** Who works in each kind of workshop in the demo (the teams of 工厂建模). */
const OPERATORS: Record<string, string[]> = {
  machine: ['op01'],
  grinding: ['op02'],
  inspect: ['qc01'],
  assembly: ['op01', 'op02'],
};

/**
 * The machines (by their names in 工厂建模) a planner gives each demo process to: turning on the
 * lathes, 下料 on the band saw, each grinding step on its grinder. When all of them are full in a
 * shift the work goes to the workshop's least loaded machine.
 */
const SUITED: Record<string, string[]> = {
  下料: ['带锯床'],
  粗车: ['数控车床'],
  精车: ['数控车床'],
  车内圈: ['数控车床'],
  车外圈: ['数控车床'],
  磨端面: ['双端面磨床'],
  磨外径: ['无心磨床'],
  磨内径: ['内圆磨床'],
  磨沟道: ['沟道磨床', '外沟磨床'],
  超精: ['沟道超精机'],
  清洗: ['超声波清洗机'],
  尺寸检测: ['套圈内外径测量仪'],
  探伤: ['涡流探伤仪', '磁粉探伤机'],
  外观检测: ['轴承振动测量仪'],
  合套: ['自动合套机'],
  装球: ['装球机'],
  装保持架: ['保持架铆合机'],
  注脂: ['注脂机'],
  压盖: ['压盖机'],
  包装: ['自动包装机'],
};

interface Task {
  id: number;
  seq: number;
  workshopType: string;
  workshopId: number;
  productId: number;
  processId: number;
  processName: string;
  plannedQuantity: string;
  plannedStartDate: string;
  plannedFinishDate: string;
  orderStepId: number;
  inspectionRequired: boolean;
  standardMinutes: string | null;
}

/** The people, machines and teams of the demo floor, read once per order. */
interface Floor {
  as: (name: string) => AuthUser;
  /** Each workshop's machines; those in repair or idle today get no work still to do. */
  machines: Map<number, { id: number; name: string; running: boolean }[]>;
  teams: Map<number, number>;
  heatTreater: number | undefined;
  /** Minutes given out to a machine in a shift (`${machine}:${shift}`), all orders so far. */
  load: Map<string, number>;
}

/**
 * The demo floor works two shifts a day: 白班 from 08:00 and 夜班 from 20:00 (into the next
 * morning), both on Beijing time. Shifts are numbered in order: day k's 白班 is 2k and its 夜班
 * 2k + 1 (k days since 1970-01-01), so "the shift after" is +1.
 */
const DAY_MS = 86_400_000;
const shiftOf = (day: string, shift: 'day' | 'night' = 'day') =>
  (Date.parse(`${day}T00:00:00Z`) / DAY_MS) * 2 + (shift === 'night' ? 1 : 0);
const shiftDay = (i: number) => new Date(Math.floor(i / 2) * DAY_MS).toISOString().slice(0, 10);
const shiftName = (i: number): 'day' | 'night' => (i % 2 ? 'night' : 'day');
/** When a shift begins (ms). */
const shiftStart = (i: number) => Date.parse(`${shiftDay(i)}T${i % 2 ? '20' : '08'}:00:00+08:00`);
/** The shift under way at `at` (a 夜班 runs past midnight into the next day). */
export function currentShift(at = Date.now()): number {
  const local = at + 8 * 3_600_000;
  const day = Math.floor(local / DAY_MS);
  const hour = (local - day * DAY_MS) / 3_600_000;
  return hour < 8 ? day * 2 - 1 : hour < 20 ? day * 2 : day * 2 + 1;
}
/** A shift's work: 开工 ten minutes in, 完工 at 9 h 20 (breaks included), reports in between. */
const STARTED_MS = 10 * 60_000;
const FINISHED_MS = (9 * 60 + 20) * 60_000;
const stamp = (ms: number) => new Date(ms).toISOString();

/** Shifts a step needs: its planned pieces at its standard minutes, a shift's minutes at a time. */
const shiftsOf = (task: Task) => {
  const worth = shiftWorth(task);
  return worth ? Math.max(1, new Decimal(task.plannedQuantity).dividedBy(worth).ceil().toNumber()) : 1;
};
/** Pieces a machine makes in a shift at the step's standard minutes (none: the whole task). */
const shiftWorth = (task: Task) => {
  const minutes = new Decimal(task.standardMinutes ?? 0);
  const worth = minutes.gt(0) ? new Decimal(SHIFT_MINUTES).dividedBy(minutes).floor() : undefined;
  return worth?.gt(0) ? worth : undefined;
};

/**
 * The floor of one demo order: 派单 by plan01 into workshop tasks, then, by the order's stage,
 * every step dispatched and finished (完工 orders), the steps planned before today finished and the
 * current one running — one in four paused — with the next sometimes waiting (生产中), or the first step
 * dispatched for every other recent order (已下达). op01 (turning) and op02 (grinding) find
 * today's work in their queues. `n` varies the picture from order to order.
 *
 * Work is given out a shift at a time: a step runs over as many shifts as its pieces take at its
 * standard minutes, each shift one dispatch on the machine with the least work in that shift. A
 * step starts a shift after the step before it started and ends a shift after it ended (the cards
 * move on batch by batch); finished work lies before the shift under way, running work has its
 * past shifts finished and the present one running, with the next shift's dispatch waiting.
 *
 * The dispatches and reports are written in bulk, a few statements per task rather than per
 * document (issue 10: the demo seeds in bulk statements): they end in the states, quantities and
 * wage lines the application's own 派工, 报工 and 审核 would leave. The report rollups are rebuilt
 * once from the posted reports after the whole floor (`seedDemoProduction`).
 */
export async function seedOrderFloor(
  db: Db,
  admin: AuthUser,
  orderId: number,
  stage: 'released' | 'producing' | 'completed',
  n: number,
): Promise<void> {
  const users = await sql<{ id: number; userName: string; firstName: string; deptId: number | null }>`
    SELECT id, user_name, first_name, dept_id FROM app_user WHERE user_name IN ('plan01', 'op01', 'op02', 'qc01', 'head01', 'buy01')`.execute(
    db,
  );
  const as = (name: string): AuthUser => {
    const u = users.rows.find((x) => x.userName === name);
    return u ? { ...admin, id: u.id, userName: u.userName, firstName: u.firstName, deptId: u.deptId } : admin;
  };
  await dispatchOrder(db, as('plan01'), orderId, undefined);
  const tasks = (
    await sql<Task>`
      SELECT t.id, t.seq, t.workshop_type, t.workshop_id, t.product_id, t.process_id, p.name AS process_name,
             t.planned_quantity::text AS planned_quantity,
             to_char(t.planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
             to_char(t.planned_finish_date, 'YYYY-MM-DD') AS planned_finish_date, t.order_step_id,
             t.inspection_required, t.standard_minutes::text AS standard_minutes
        FROM workshop_task t JOIN process p ON p.id = t.process_id
       WHERE t.production_order_id = ${orderId} ORDER BY t.seq`.execute(db)
  ).rows;
  const kit = await sql<{ kind: string; workshopId: number; id: number; name: string; running: boolean }>`
    SELECT 'machine' AS kind, workshop_id, id, name, status = 'running' AS running FROM equipment WHERE workshop_id IS NOT NULL
    UNION ALL
    SELECT 'team', workshop_id, min(id), '', true FROM production_team WHERE workshop_id IS NOT NULL GROUP BY workshop_id
     ORDER BY 1, 2, 3`.execute(db);
  // The heat-treatment supplier (热处理外协), else the first one.
  const supplier = await sql<{ id: number }>`
    SELECT s.id FROM supplier s LEFT JOIN supplier_classify c ON c.id = s.classify_id
     ORDER BY (c.name = '热处理外协') IS TRUE DESC, s.id LIMIT 1`.execute(db);
  // The machines' shifts as the orders before this one filled them.
  const load = await sql<{ key: string; minutes: string }>`
    SELECT equipment_id || ':' || ((work_date - DATE '1970-01-01') * 2 + CASE WHEN shift = 'night' THEN 1 ELSE 0 END) AS key,
           sum(planned_minutes)::text AS minutes
      FROM work_dispatch WHERE equipment_id IS NOT NULL AND status <> 'closed' GROUP BY 1`.execute(db);
  const floor: Floor = {
    as,
    machines: new Map(),
    teams: new Map(),
    heatTreater: supplier.rows[0]?.id,
    load: new Map(load.rows.map((r) => [r.key, Number(r.minutes)])),
  };
  for (const k of kit.rows) {
    const w = Number(k.workshopId);
    if (k.kind === 'team') floor.teams.set(w, Number(k.id));
    else
      floor.machines.set(w, [
        ...(floor.machines.get(w) ?? []),
        { id: Number(k.id), name: k.name, running: k.running },
      ]);
  }
  const today = businessDay();
  const current = currentShift();
  // Work under way is where its plan puts it today: the steps planned to finish before today are
  // done and the next runs; every third order runs a step behind its plan, and the one after it a
  // step ahead.
  const planned = tasks.filter((t) => t.plannedFinishDate < today).length;
  const reached = planned + (n % 3 === 0 ? -1 : n % 3 === 1 ? 1 : 0);
  const done =
    stage === 'completed'
      ? tasks.length
      : stage === 'producing'
        ? Math.max(0, Math.min(tasks.length - 1, reached))
        : 0;
  // The shifts of the finished steps, from their planned starts; all of them before the present
  // shift (an order ahead of its plan began earlier).
  const spans: Span[] = [];
  for (const [k, task] of tasks.slice(0, done).entries()) {
    const need = shiftsOf(task);
    const first = Math.max(shiftOf(task.plannedStartDate), startAfter(spans[k - 1], need));
    spans.push({ first, last: first + need - 1 });
  }
  const late = (spans.at(-1)?.last ?? current - 1) - (current - 1);
  if (late > 0) for (const s of spans) Object.assign(s, { first: s.first - late, last: s.last - late });
  for (const [k, task] of tasks.entries()) {
    if (k < done) {
      const dispatches = await work(db, task, floor, 'completed', spans[k].first, current);
      await reportStep(db, orderId, task, floor, dispatches, 'completed', k === tasks.length - 1, current);
    } else if (k === done && stage === 'producing') {
      const running = n % 4 === 3 ? 'paused' : 'started';
      // Begun in a past shift when the step takes several (never all of them past), else now.
      const need = shiftsOf(task);
      const first = Math.min(
        current,
        Math.max(current - need + 1, shiftOf(task.plannedStartDate), startAfter(spans[k - 1], need)),
      );
      const dispatches = await work(db, task, floor, running, first, current);
      await reportStep(db, orderId, task, floor, dispatches, running, k === tasks.length - 1, current);
    } else if (k === done && stage === 'released' && n % 2 === 0)
      await work(db, task, floor, 'dispatched', current + (task.id % 3), current);
    else if (k === done + 1 && stage === 'producing' && n % 3 === 0)
      await work(db, task, floor, 'dispatched', current + (task.id % 3), current);
  }
}

/** The shifts a step's work took, first to last (`shiftOf` numbers). */
interface Span {
  first: number;
  last: number;
}

/**
 * The earliest first shift of a step of `need` shifts after the step before (`prev`): a shift after
 * it started and ending a shift after it ended, as the cards move on batch by batch.
 */
const startAfter = (prev: Span | undefined, need: number) =>
  prev ? Math.max(prev.first + 1, prev.last + 2 - need) : 0;

/** A dispatch of the demo floor as `work` wrote it. */
interface Dispatch {
  id: number;
  status: string;
  operator: AuthUser;
  equipmentId: number | null;
  workDate: string;
  shift: 'day' | 'night';
  /** Its shift's number (`shiftOf`). */
  at: number;
  quantity: Decimal;
}

/**
 * 派工 of a task by plan01, a shift's worth of pieces to a dispatch (what the machine makes in
 * SHIFT_MINUTES at the step's standard minutes), from shift `first` on:
 * - finished work (`completed`): every shift the step took, all 已完工;
 * - running work (`started`, `paused`): the past shifts 已完工, the present one running and the
 *   next shift's waiting (the rest of a big task waits for the next 派工);
 * - work waiting for its turn (`dispatched`): two shifts of it when big.
 * Each goes to the workshop's machine with the least work in its shift, as a planner balances
 * the plan. One insert, the task's recount, and the 「派工」 message of work still waiting.
 */
async function work(
  db: Db,
  task: Task,
  floor: Floor,
  stage: 'dispatched' | 'started' | 'paused' | 'completed',
  first: number,
  current: number,
): Promise<Dispatch[]> {
  const names = OPERATORS[task.workshopType] ?? ['op01'];
  const operator = floor.as(names[task.seq % names.length]);
  const planner = floor.as('plan01');
  const team = floor.teams.get(Number(task.workshopId)) ?? null;
  const planned = new Decimal(task.plannedQuantity);
  const worth = shiftWorth(task) ?? planned;
  // The step's pieces shared evenly over the shifts it takes (none over a shift's worth).
  const need = shiftsOf(task);
  const even = (k: number) => planned.dividedToIntegerBy(need).plus(planned.mod(need).gt(k) ? 1 : 0);
  const shifts: { at: number; status: string; quantity: Decimal }[] = [];
  if (stage === 'completed')
    for (let k = 0; k < need; k++) shifts.push({ at: first + k, status: 'completed', quantity: even(k) });
  else if (stage === 'dispatched') {
    const halves = planned.gt(500)
      ? [planned.dividedBy(2).floor(), planned.minus(planned.dividedBy(2).floor())]
      : [planned];
    for (const [k, q] of halves.entries())
      shifts.push({ at: first + k, status: 'dispatched', quantity: Decimal.min(q, worth) });
  } else {
    const past = Math.min(current - first, need - 1);
    for (let k = 0; k < past; k++)
      shifts.push({ at: current - past + k, status: 'completed', quantity: even(k) });
    shifts.push({ at: current, status: stage, quantity: even(past) });
    if (past + 1 < need) shifts.push({ at: current + 1, status: 'dispatched', quantity: even(past + 1) });
  }
  const kit = (floor.machines.get(Number(task.workshopId)) ?? []).filter(
    (m) => m.running || stage === 'completed',
  );
  const machines = kit.map((m) => m.id);
  const suited = kit.filter((m) => SUITED[task.processName]?.includes(m.name)).map((m) => m.id);
  let last: number | null = null;
  const rows = shifts.map((s, k) => {
    const minutes = new Decimal(task.standardMinutes ?? 0).times(s.quantity).toDecimalPlaces(2);
    // The least loaded machine for the process with room in the shift, else the workshop's least
    // loaded; on a tie the one the step ran on before.
    const loadOf = (m: number) => floor.load.get(`${m}:${s.at}`) ?? 0;
    const least = (ms: number[]) =>
      ms.reduce((a, m) => (loadOf(m) < loadOf(a) || (loadOf(m) === loadOf(a) && m === last) ? m : a));
    const fits = suited.length && loadOf(least(suited)) + minutes.toNumber() <= SHIFT_MINUTES;
    const machine = fits ? least(suited) : machines.length ? least(machines) : null;
    if (machine != null) floor.load.set(`${machine}:${s.at}`, loadOf(machine) + minutes.toNumber());
    last = machine;
    const begin = shiftStart(s.at);
    const now = Date.now();
    return {
      k,
      at: s.at,
      status: s.status,
      day: shiftDay(s.at),
      shift: shiftName(s.at),
      quantity: s.quantity.toString(),
      minutes: minutes.toString(),
      machine,
      startedAt:
        s.status === 'dispatched'
          ? null
          : stamp(Math.max(begin, Math.min(begin + STARTED_MS, now - 120_000))),
      finishedAt: s.status === 'completed' ? stamp(begin + FINISHED_MS) : null,
      updatedBy: s.status === 'dispatched' ? planner.id : operator.id,
    };
  });
  const docNos = await nextDocNos(
    db,
    docPrefixOf(workDispatchResource),
    rows.length,
    undefined,
    dayInstant(rows[0].day),
  );
  // Given out at 07:30 on the day of its first shift (work for later shifts, an hour ago).
  const made = stamp(Math.min(Date.parse(`${rows[0].day}T07:30:00+08:00`), Date.now() - 3_600_000));
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  const r = await prepared(sql<{
    id: number;
    k: number;
    status: string;
    workDate: string;
    shift: 'day' | 'night';
  }>`
    INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type,
                               workshop_id, team_id, operator_id, equipment_id, work_date, shift, quantity,
                               planned_minutes, started_at, finished_at, created_by, created_at, updated_by, updated_at)
    SELECT v.doc_no, v.status, t.id, t.production_order_id, t.product_id, t.process_id, t.workshop_type, t.workshop_id,
           ${team}::bigint, ${operator.id}::bigint, v.machine, v.work_date, v.shift, v.quantity,
           v.planned_minutes, v.started_at, v.finished_at, ${planner.id}::bigint, ${made}::timestamptz, v.updated_by,
           COALESCE(v.finished_at, v.started_at, ${made}::timestamptz)
      FROM unnest(${col((x) => docNos[x.k])}::text[], ${col((x) => x.status)}::text[], ${col((x) => x.day)}::date[],
                  ${col((x) => x.shift)}::text[], ${col((x) => x.quantity)}::numeric[], ${col((x) => x.minutes)}::numeric[],
                  ${col((x) => x.machine)}::bigint[], ${col((x) => x.startedAt)}::timestamptz[],
                  ${col((x) => x.finishedAt)}::timestamptz[], ${col((x) => x.updatedBy)}::bigint[]) WITH ORDINALITY
           AS v(doc_no, status, work_date, shift, quantity, planned_minutes, machine, started_at, finished_at, updated_by, n)
      JOIN workshop_task t ON t.id = ${task.id}::bigint
     ORDER BY v.n
    RETURNING id, status, to_char(work_date, 'YYYY-MM-DD') AS work_date, shift`).execute(db);
  await recountTask(db, task.id);
  const moves: Record<string, string[]> = {
    dispatched: [],
    started: ['start'],
    paused: ['start', 'pause'],
    completed: ['start', 'complete'],
  };
  await auditMany(
    db,
    r.rows.flatMap((d) => [
      {
        user: planner,
        entry: { entity: 'work-dispatch', entityId: d.id, action: 'create', after: { taskId: task.id } },
      },
      ...moves[d.status].map((action) => ({
        user: operator,
        entry: { entity: 'work-dispatch', entityId: d.id, action },
      })),
    ]),
  );
  for (const d of r.rows) if (d.status === 'dispatched') await notifyOperator(db, planner, Number(d.id));
  return r.rows.map((d, k) => ({
    ...d,
    id: Number(d.id),
    operator,
    equipmentId: rows[k].machine,
    at: rows[k].at,
    quantity: new Decimal(rows[k].quantity),
  }));
}

/** Scrap rates of the demo floor: turning 1–2 %, grinding 0.5–1 %, inspection and assembly less. */
const SCRAP: Record<string, [number, number]> = {
  machine: [0.01, 0.02],
  grinding: [0.005, 0.01],
  inspect: [0.002, 0.004],
  assembly: [0.001, 0.002],
};
/** Pieces to a tray (框) in each kind of workshop: what an operator reports at a time. */
const TRAY: Record<string, number> = { machine: 25, grinding: 40, inspect: 40, assembly: 40 };
const REASONS: Record<string, string[]> = {
  machine: ['size', 'setup', 'surface', 'material'],
  grinding: ['burn', 'size', 'surface', 'crack'],
  inspect: ['surface', 'crack', 'size'],
  assembly: ['surface', 'other'],
};

/** No card but `cardId` is out at the supplier: this one may stay out. */
async function keptOutNone(db: Db, cardId: number) {
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM flow_card_step
     WHERE outsourced AND flow_card_id <> ${cardId}
       AND COALESCE(sent_quantity, 0) > COALESCE(returned_quantity, 0) + material_scrap_quantity`.execute(db);
  return r.rows[0].n === 0;
}

/**
 * The heat-treatment 委外订单 for an order's cards arriving at the outsourced step: one line of
 * the ring for all of them, approved, placed by purchasing on `day` (and numbered by it).
 */
async function heatTreatmentOrder(
  db: Db,
  buyer: AuthUser,
  orderId: number,
  floor: Floor,
  cards: { productId: number; outProcessId: number | null; outQuantity: string | null }[],
  day: string,
) {
  const total = cards.reduce((a, c) => a.plus(c.outQuantity ?? 0), new Decimal(0));
  const id = await createRecord(
    { db, user: buyer, def: outsourcingOrderResource },
    {
      supplierId: floor.heatTreater,
      processId: cards[0].outProcessId,
      productionOrderId: orderId,
      orderDate: day,
      deliveryDate: addDays(day, 1),
      remark: '套圈淬火+回火，按流转卡分批送回',
      lines: [
        {
          materialId: cards[0].productId,
          quantity: total.toString(),
          unitPrice: '0.85',
          weight: total.times('0.12').toDecimalPlaces(3).toString(),
        },
      ],
    },
    outsourcingOrderHooks,
  );
  await runTransition(
    db,
    buyer,
    outsourcingOrderResource,
    'approve',
    id,
    {},
    outsourcingOrderTransitions.approve,
  );
  return id;
}

/** A demo report: what the operator reported and how far it went (提交, 待检验, 已入账). */
interface Report {
  id: number;
  docNo: string;
  status: 'submitted' | 'inspecting' | 'posted';
  /** Approved on a step flagged for inspection (an inspection task was raised). */
  inspected: boolean;
  /** The shift's dispatch it was reported on. */
  dispatch: Dispatch;
  flowCardId: number;
  cardNo: string;
  goodQuantity: string;
  workScrapQuantity: string;
  materialScrapQuantity: string;
  reworkQuantity: string;
  scrapReason: string | null;
  hours: string;
  /** When it was reported (and approved). */
  at: string;
}

/**
 * 报工 of one task's step on every card of the order (half of them while the step still runs),
 * by the dispatch's operator, approved by the workshop (an inspected step checked by qc01).
 * While work runs the last reports wait as 已提交 and 待检验. Heat treatment before the step is
 * sent and received on the cards first (one card kept out at the supplier).
 *
 * The reports are inserted in their final states and posted as `move` (work-report.ts) posts
 * them: the card steps and the next step's arrivals, the cards settled, the task's progress, the
 * dispatch's reported quantity, the wage lines, 完工入库 at the last step, an inspection task for
 * each report approved on an inspected step, and the audit trail.
 */
async function reportStep(
  db: Db,
  orderId: number,
  task: Task,
  floor: Floor,
  dispatches: Dispatch[],
  stage: 'started' | 'paused' | 'completed',
  /** The order's last step (its reports make the 完工入库). */
  lastStep: boolean,
  /** The shift under way (`currentShift`). */
  current: number,
) {
  const { as } = floor;
  const cards = (
    await sql<{
      id: number;
      productId: number;
      outSeq: number | null;
      outProcessId: number | null;
      outQuantity: string | null;
    }>`
      SELECT c.id, c.product_id, o.seq AS out_seq, o.process_id AS out_process_id, o.input_quantity::text AS out_quantity
        FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
        LEFT JOIN flow_card_step o ON o.flow_card_id = c.id AND o.outsourced AND o.seq < ${task.seq}
             AND c.current_seq = o.seq AND o.input_quantity > COALESCE(o.sent_quantity, 0)
       WHERE c.production_order_id = ${orderId} AND c.status = 'open' AND s.order_step_id = ${task.orderStepId}
       ORDER BY c.id`.execute(db)
  ).rows;
  const admin = as('admin');
  // Heat treatment (an outsourced step just before this one): purchasing's 委外订单 for the order's
  // cards, then each card out onto it and back.
  const out = cards.filter((c) => c.outSeq != null && c.outQuantity != null);
  const buyer = as('buy01');
  // Placed the day before the step's work began (the rings back from the furnace by then).
  const placed = addDays(dispatches[0]?.workDate ?? businessDay(), -1);
  const outsourcingOrderId = out.length
    ? await heatTreatmentOrder(db, buyer, orderId, floor, out, placed)
    : undefined;
  let keptOut = false;
  for (const [i, c] of cards.entries()) {
    if (c.outSeq == null || c.outQuantity == null) continue;
    const q = new Decimal(c.outQuantity);
    await outsourceStep(db, admin, c.id, {
      action: 'send',
      quantity: q.toString(),
      weight: q.times('0.12').toDecimalPlaces(3).toString(),
      supplierId: floor.heatTreater,
      outsourcingOrderId,
    });
    // One card stays out at the supplier (none other is out, read from the database).
    if (stage !== 'completed' && i === cards.length - 1 && (await keptOutNone(db, c.id))) {
      keptOut = true;
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
  // Every card back, the pieces lost written off: the buyer closes what the supplier will not send.
  if (outsourcingOrderId && !keptOut) {
    const o = await sql<{
      status: string;
    }>`SELECT status FROM outsourcing_order WHERE id = ${outsourcingOrderId}`.execute(db);
    if (o.rows[0]?.status === 'partly-received') {
      await runTransition(
        db,
        buyer,
        outsourcingOrderResource,
        'close',
        outsourcingOrderId,
        { reason: '流转卡均已收回，差异已核销' },
        outsourcingOrderTransitions.close,
      );
    }
  }
  const active = dispatches.filter((d) => d.status !== 'dispatched');
  if (!active.length) return;
  const [lo, hi] = SCRAP[task.workshopType] ?? [0.005, 0.01];
  const reasons = REASONS[task.workshopType] ?? ['other'];
  const fresh = await sql<{ id: number; docNo: string; inputQuantity: string; taken: string }>`
    SELECT c.id, c.doc_no, s.input_quantity::text AS input_quantity,
           ${taken('s')}::text AS taken
      FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
     WHERE c.production_order_id = ${orderId} AND c.status = 'open' AND s.order_step_id = ${task.orderStepId}
     ORDER BY c.id`.execute(db);
  const list = fresh.rows.filter((c) => new Decimal(c.inputQuantity).minus(c.taken).gt(0));
  if (!list.length) return;
  // 按框报工: on a step that is neither inspected nor the order's last, the operator reports each
  // tray as it is done; the scrap of the card goes with its last tray.
  const tray = task.inspectionRequired || lastStep ? 0 : (TRAY[task.workshopType] ?? 0);
  type Part = { c: (typeof list)[number]; good: Decimal; ws: Decimal; ms: Decimal };
  /** `good` pieces of a lot of card `p.c`, without scrap (its scrap goes with the card's last lot). */
  const goodOnly = (p: Part, good: Decimal): Part => ({
    c: p.c,
    good,
    ws: new Decimal(0),
    ms: new Decimal(0),
  });
  const parts: Part[] = list.flatMap((c) => {
    const waiting = new Decimal(c.inputQuantity).minus(c.taken);
    const rate = lo + ((hi - lo) * ((c.id * 7) % 10)) / 10;
    const scrap = Decimal.min(waiting.times(rate).round(), waiting);
    const ws = scrap.times(0.6).ceil();
    const good = waiting.minus(scrap);
    const n = tray ? Math.max(1, good.dividedBy(tray).ceil().toNumber()) : 1;
    return Array.from({ length: n }, (_, k) => {
      const end = k === n - 1;
      return {
        c,
        good: end ? good.minus(new Decimal(tray).times(n - 1)) : new Decimal(tray),
        ws: end ? ws : new Decimal(0),
        ms: end ? scrap.minus(ws) : new Decimal(0),
      };
    });
  });
  // The cards' pieces in order over the shifts that worked them: each finished shift its
  // dispatch's pieces, the running shift as far as it has got (by the time into it), a card
  // crossing from one shift to the next reported in each. The rest waits for the shifts to come.
  const now = Date.now();
  const into = Math.min(Math.max((now - shiftStart(current)) / (12 * 3_600_000), 0), 1);
  // A finished step's shifts each worked their share of what arrived (fewer pieces than given out
  // by the scrap before it; the last shift whatever was left).
  const arrived = parts.reduce((a, p) => a.plus(p.good).plus(p.ws).plus(p.ms), new Decimal(0));
  const given = active.reduce((a, d) => a.plus(d.quantity), new Decimal(0));
  const share = stage === 'completed' ? Decimal.min(arrived.dividedBy(given), 1) : new Decimal(1);
  const slots = active.map((d) => ({
    d,
    room: (d.status === 'completed' ? d.quantity.times(share) : d.quantity.times(0.2 + 0.7 * into)).floor(),
    parts: [] as Part[],
  }));
  let j = 0;
  for (const part of parts) {
    let p: Part | undefined = part;
    while (p) {
      while (j < slots.length - 1 && slots[j].room.lte(0)) j++;
      const slot = slots[j];
      if (slot.room.lte(0) && slot.d.status !== 'completed') break;
      if (p.good.lte(slot.room) || (slot.d.status === 'completed' && j === slots.length - 1)) {
        slot.parts.push(p);
        slot.room = slot.room.minus(p.good).minus(p.ws).minus(p.ms);
        p = undefined;
      } else {
        slot.parts.push(goodOnly(p, slot.room));
        p = { ...p, good: p.good.minus(slot.room) };
        slot.room = new Decimal(0);
      }
    }
  }
  // The running shift has reported at least twice, on an inspected step three times (one posted,
  // one waiting for inspection, the last for approval): its biggest lot split where it has fewer.
  const live = slots.find((x) => x.d.status !== 'completed');
  while (live && live.parts.length < (task.inspectionRequired ? 3 : 2)) {
    const k = live.parts.reduce((m, p, i, all) => (p.good.gt(all[m].good) ? i : m), 0);
    const p = live.parts[k];
    if (!p?.good.gte(2)) break;
    const half = p.good.dividedBy(2).floor();
    live.parts.splice(k, 1, goodOnly(p, half), { ...p, good: p.good.minus(half) });
  }
  const placedParts = slots.flatMap((x) => {
    // Reported through the shift, and never after the present (running work up to a minute ago).
    const from = shiftStart(x.d.at);
    const begin = Math.max(from, Math.min(from + 20 * 60_000, now - 120_000));
    const end = x.d.status === 'completed' ? from + FINISHED_MS : Math.max(begin, now - 60_000);
    return x.parts.map((p, i) => ({
      ...p,
      d: x.d,
      at: stamp(begin + Math.floor(((i + 1) * (end - begin)) / x.parts.length / 60_000) * 60_000),
    }));
  });
  if (!placedParts.length) return;
  const docNos = await nextDocNos(
    db,
    docPrefixOf(workReportResource),
    placedParts.length,
    undefined,
    dayInstant(placedParts[0].d.workDate),
  );
  const reports: Report[] = placedParts.map((p, i) => {
    const taken = p.good.plus(p.ws).plus(p.ms);
    // While the step runs, its last report waits for approval and the one before for inspection.
    const running = stage !== 'completed';
    const approved = !(running && i === placedParts.length - 1);
    const held = task.inspectionRequired && running && i > 0 && i === placedParts.length - 2;
    return {
      id: 0,
      docNo: docNos[i],
      status: !approved ? 'submitted' : held ? 'inspecting' : 'posted',
      inspected: approved && task.inspectionRequired,
      dispatch: p.d,
      flowCardId: Number(p.c.id),
      cardNo: p.c.docNo,
      goodQuantity: p.good.toString(),
      workScrapQuantity: p.ws.toString(),
      materialScrapQuantity: p.ms.toString(),
      reworkQuantity: '0',
      scrapReason: p.ws.plus(p.ms).gt(0) ? reasons[p.c.id % reasons.length] : null,
      hours: taken
        .times(task.standardMinutes ?? 1)
        .dividedBy(60)
        .toDecimalPlaces(2)
        .toString(),
      at: p.at,
    };
  });
  // The reports' ids first, so the posted ones' wage lines (no foreign key to the report) are
  // written before the reports, and each report is inserted with its piece rate and wage.
  const ids = await prepared(sql<{ id: number }>`
    SELECT nextval(pg_get_serial_sequence('work_report', 'id')) AS id FROM generate_series(1, ${reports.length}::int)`).execute(
    db,
  );
  for (const [i, r] of reports.entries()) r.id = Number(ids.rows[i].id);
  const { operator } = active[0];
  const record = ({ dispatch, ...r }: Report) => ({
    ...r,
    dispatchId: dispatch.id,
    productionOrderId: orderId,
    taskId: task.id,
    productId: task.productId,
    processId: task.processId,
    workshopType: task.workshopType,
    workshopId: task.workshopId,
    operatorId: operator.id,
    reportDate: dispatch.workDate,
    shift: dispatch.shift,
  });
  const posted = reports.filter((r) => r.status === 'posted');
  const wages = await writeWageLinesMany(db, posted.map(record));
  const wageOf = new Map(posted.map((r, i) => [r.id, wages[i]]));

  const col = <T>(f: (r: (typeof reports)[number]) => T) => reports.map(f);
  await prepared(sql`
    INSERT INTO work_report (id, doc_no, status, dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq,
                             process_id, workshop_type, workshop_id, order_step_id, operator_id, equipment_id,
                             report_date, shift, good_quantity, work_scrap_quantity, material_scrap_quantity,
                             scrap_reason, rework_quantity, hours, inspection_required, posted_at, piece_rate, wage_amount,
                             created_by, created_at, updated_by, updated_at, version)
    SELECT v.id, v.doc_no, v.status, d.id, v.card, t.production_order_id, t.id, t.product_id, t.seq, t.process_id,
           t.workshop_type, t.workshop_id, t.order_step_id, d.operator_id, d.equipment_id, d.work_date, d.shift, v.good,
           v.ws, v.ms, v.reason, 0, v.hours, t.inspection_required,
           CASE WHEN v.status = 'posted' THEN v.at END, v.rate, v.amount, d.operator_id, v.at,
           CASE WHEN v.status = 'submitted' THEN d.operator_id ELSE ${admin.id}::bigint END, v.at,
           CASE WHEN v.status = 'submitted' THEN 2 WHEN t.inspection_required THEN 4 ELSE 3 END
      FROM unnest(${col((r) => r.id)}::bigint[], ${col((r) => r.docNo)}::text[], ${col((r) => r.status)}::text[],
                  ${col((r) => r.dispatch.id)}::bigint[],
                  ${col((r) => r.flowCardId)}::bigint[], ${col((r) => r.goodQuantity)}::numeric[],
                  ${col((r) => r.workScrapQuantity)}::numeric[], ${col((r) => r.materialScrapQuantity)}::numeric[],
                  ${col((r) => r.scrapReason)}::text[], ${col((r) => r.hours)}::numeric[],
                  ${col((r) => r.at)}::timestamptz[], ${col((r) => wageOf.get(r.id)?.pieceRate ?? null)}::numeric[],
                  ${col((r) => wageOf.get(r.id)?.amount ?? null)}::numeric[])
           AS v(id, doc_no, status, dispatch, card, good, ws, ms, reason, hours, at, rate, amount)
      JOIN work_dispatch d ON d.id = v.dispatch
      JOIN workshop_task t ON t.id = d.task_id`).execute(db);

  // Each card's step counts its pieces, the next step receives the good ones: one statement.
  const last = new Set<number>();
  if (posted.length) {
    // A card's trays summed: one row per card, in from its first report, out at its last, on
    // the machine of its last.
    type Card = { good: Decimal; ws: Decimal; ms: Decimal; in: string; out: string; machine: number | null };
    const byCard = new Map<number, Card>();
    for (const r of posted) {
      const c = byCard.get(r.flowCardId);
      byCard.set(r.flowCardId, {
        good: new Decimal(r.goodQuantity).plus(c?.good ?? 0),
        ws: new Decimal(r.workScrapQuantity).plus(c?.ws ?? 0),
        ms: new Decimal(r.materialScrapQuantity).plus(c?.ms ?? 0),
        in: c?.in ?? r.at,
        out: r.at,
        machine: r.dispatch.equipmentId,
      });
    }
    const cards = [...byCard];
    const moved = await prepared(sql<{ cardId: number; last: boolean }>`
      UPDATE flow_card_step s SET
             good_quantity = s.good_quantity + CASE WHEN s.id = x.cur_id THEN x.good ELSE 0 END,
             work_scrap_quantity = s.work_scrap_quantity + CASE WHEN s.id = x.cur_id THEN x.ws ELSE 0 END,
             material_scrap_quantity = s.material_scrap_quantity + CASE WHEN s.id = x.cur_id THEN x.ms ELSE 0 END,
             in_time = CASE WHEN s.id = x.cur_id THEN COALESCE(s.in_time, x.in_time) ELSE s.in_time END,
             out_time = CASE WHEN s.id = x.cur_id THEN x.out_time ELSE s.out_time END,
             operator_id = CASE WHEN s.id = x.cur_id THEN ${operator.id}::bigint ELSE s.operator_id END,
             equipment_id = CASE WHEN s.id = x.cur_id THEN COALESCE(x.machine, s.equipment_id) ELSE s.equipment_id END,
             input_quantity = s.input_quantity + CASE WHEN s.id = x.cur_id THEN 0 ELSE x.good END
        FROM (SELECT v.card, v.good, v.ws, v.ms, v.in_time, v.out_time, v.machine, cur.id AS cur_id, nxt.id AS next_id
                FROM unnest(${cards.map(([id]) => id)}::bigint[], ${cards.map(([, c]) => c.good.toString())}::numeric[],
                            ${cards.map(([, c]) => c.ws.toString())}::numeric[],
                            ${cards.map(([, c]) => c.ms.toString())}::numeric[], ${cards.map(([, c]) => c.in)}::timestamptz[],
                            ${cards.map(([, c]) => c.out)}::timestamptz[], ${cards.map(([, c]) => c.machine)}::bigint[])
                     AS v(card, good, ws, ms, in_time, out_time, machine)
                JOIN flow_card_step cur ON cur.flow_card_id = v.card AND cur.order_step_id = ${task.orderStepId}
                LEFT JOIN LATERAL (SELECT n.id FROM flow_card_step n WHERE n.flow_card_id = v.card AND n.seq > cur.seq
                                    ORDER BY n.seq LIMIT 1) nxt ON true) x
       WHERE s.id = x.cur_id OR s.id = x.next_id
      RETURNING x.card AS card_id, x.next_id IS NULL AS last`).execute(db);
    for (const m of moved.rows) if (m.last) last.add(Number(m.cardId));
    for (const [id] of cards) await settleCard(db, id);
    const sum = (f: (r: Report) => Decimal.Value) =>
      posted.reduce((a, r) => a.plus(f(r)), new Decimal(0)).toString();
    await recountTask(db, task.id, [], {
      dispatchId: active[0].id,
      good: sum((r) => r.goodQuantity),
      scrap: sum((r) => new Decimal(r.workScrapQuantity).plus(r.materialScrapQuantity)),
    });
  }

  // Inspected steps: each approved report raised its inspection task, the dispatch's reported
  // pieces growing report by report (first article, then patrol, then the final one).
  const report = (rs: Report[]) =>
    prepared(sql`
      UPDATE work_dispatch d SET reported_quantity = d.reported_quantity + v.good
        FROM (SELECT id, sum(good) AS good FROM unnest(${rs.map((r) => r.dispatch.id)}::bigint[],
                                                        ${rs.map((r) => r.goodQuantity)}::numeric[]) AS x(id, good)
               GROUP BY id) v
       WHERE d.id = v.id`).execute(db);
  if (task.inspectionRequired) {
    for (const r of reports) {
      if (r.inspected) await onReportAwaitingInspection(db, admin, record(r));
      if (r.status === 'posted') await report([r]);
    }
  } else if (posted.length) {
    await report(posted);
  }
  // The last step's good pieces: 完工入库 of each report.
  for (const r of posted) if (last.has(r.flowCardId)) await finishedGoods(db, record(r), admin, 1, r.cardNo);

  const entry = (r: Report, action: string, from: string | null, to: string) => ({
    entity: 'work-report',
    entityId: r.id,
    action,
    ...(from ? { before: { status: from } } : {}),
    after: { status: to },
  });
  await auditMany(
    db,
    reports.flatMap((r) => [
      { user: operator, entry: entry(r, 'create', null, 'draft') },
      { user: operator, entry: entry(r, 'submit', 'draft', 'submitted') },
      ...(r.status === 'submitted'
        ? []
        : [
            { user: admin, entry: entry(r, 'approve', 'submitted', r.inspected ? 'inspecting' : 'posted') },
            ...(r.inspected && r.status === 'posted'
              ? [{ user: as('qc01'), entry: entry(r, 'inspect', 'inspecting', 'posted') }]
              : []),
          ]),
    ]),
  );
}
