import { outsourcingOrderResource, SHIFT_MINUTES } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { writeWageLinesMany } from '../modules/finance/wages.ts';
import { outsourceStep } from '../modules/production/produce-outsourcing.ts';
import { dispatchOrder } from '../modules/production/production-order-dispatch.ts';
import { finishedGoods, settleCard, WORK_REPORT_PREFIX } from '../modules/production/work-report.ts';
import { DISPATCH_PREFIX, notifyOperator, recountTask } from '../modules/production/workshop-task.ts';
import { outsourcingOrderHooks, outsourcingOrderTransitions } from '../modules/purchase/outsourcing-order.ts';
import { onReportAwaitingInspection } from '../modules/quality/sources.ts';
import { auditMany } from '../platform/audit.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { prepared } from '../platform/db/prepared.ts';
import { businessDay, dayInstant, nextDocNos } from '../platform/numbering.ts';
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
  productId: number;
  processId: number;
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
  machines: Map<number, number[]>;
  teams: Map<number, number>;
  heatTreater: number | undefined;
}

/**
 * The floor of one demo order: 派单 by plan01 into workshop tasks, then, by the order's stage,
 * every step dispatched and finished (完工 orders), the steps planned before today finished and the
 * current one running — one in four paused — with the next sometimes waiting (生产中), or the first step
 * dispatched for every other recent order (已下达). op01 (turning) and op02 (grinding) find
 * today's work in their queues. `n` varies the picture from order to order.
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
      SELECT id, seq, workshop_type, workshop_id, product_id, process_id, planned_quantity::text AS planned_quantity,
             to_char(planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
             to_char(planned_finish_date, 'YYYY-MM-DD') AS planned_finish_date, order_step_id, inspection_required,
             standard_minutes::text AS standard_minutes
        FROM workshop_task WHERE production_order_id = ${orderId} ORDER BY seq`.execute(db)
  ).rows;
  const kit = await sql<{ kind: string; workshopId: number; id: number }>`
    SELECT 'machine' AS kind, workshop_id, id FROM equipment WHERE workshop_id IS NOT NULL
    UNION ALL
    SELECT 'team', workshop_id, min(id) FROM production_team WHERE workshop_id IS NOT NULL GROUP BY workshop_id
     ORDER BY 1, 2, 3`.execute(db);
  // The heat-treatment supplier (热处理外协), else the first one.
  const supplier = await sql<{ id: number }>`
    SELECT s.id FROM supplier s LEFT JOIN supplier_classify c ON c.id = s.classify_id
     ORDER BY (c.name = '热处理外协') IS TRUE DESC, s.id LIMIT 1`.execute(db);
  const floor: Floor = { as, machines: new Map(), teams: new Map(), heatTreater: supplier.rows[0]?.id };
  for (const k of kit.rows) {
    const w = Number(k.workshopId);
    if (k.kind === 'team') floor.teams.set(w, Number(k.id));
    else floor.machines.set(w, [...(floor.machines.get(w) ?? []), Number(k.id)]);
  }
  const today = businessDay();
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
  for (const [k, task] of tasks.entries()) {
    if (k < done) {
      const dispatches = await work(db, task, floor, 'completed', today);
      await reportStep(db, orderId, task, floor, dispatches, 'completed', k === tasks.length - 1);
    } else if (k === done && stage === 'producing') {
      const running = n % 4 === 3 ? 'paused' : 'started';
      const dispatches = await work(db, task, floor, running, today);
      await reportStep(db, orderId, task, floor, dispatches, running, k === tasks.length - 1);
    } else if (k === done && stage === 'released' && n % 2 === 0)
      await work(db, task, floor, 'dispatched', today);
    else if (k === done + 1 && stage === 'producing' && n % 3 === 0)
      await work(db, task, floor, 'dispatched', today);
  }
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A dispatch of the demo floor as `work` wrote it. */
interface Dispatch {
  id: number;
  status: string;
  operator: AuthUser;
  equipmentId: number | null;
  workDate: string;
  shift: 'day' | 'night';
}

/**
 * 派工 of a task (two shifts when big) by plan01, its dispatches moved on to `stage` and dated on
 * the plan: one insert, the task's recount, and the 「派工」 message of work still waiting.
 */
async function work(
  db: Db,
  task: Task,
  floor: Floor,
  stage: 'dispatched' | 'started' | 'paused' | 'completed',
  today: string,
): Promise<Dispatch[]> {
  const names = OPERATORS[task.workshopType] ?? ['op01'];
  const operator = floor.as(names[task.seq % names.length]);
  const planner = floor.as('plan01');
  const team = floor.teams.get(Number(task.workshopId)) ?? null;
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
  // Work still to do goes to the workshop's machine with the least work already given out that
  // day, as a planner balances the plan; finished work stays where the pattern put it.
  const machines = floor.machines.get(Number(task.workshopId)) ?? [];
  const machine = !machines.length
    ? null
    : stage === 'completed'
      ? (machines[(task.seq + task.id) % 3] ?? null)
      : Number(
          (
            await prepared(sql<{ id: number }>`
              SELECT m.id FROM unnest(${machines}::bigint[]) WITH ORDINALITY AS m(id, k)
               ORDER BY (SELECT coalesce(sum(d.planned_minutes), 0) FROM work_dispatch d
                          WHERE d.equipment_id = m.id AND d.work_date = ${day}::date AND d.status <> 'completed'), m.k
               LIMIT 1`).execute(db)
          ).rows[0].id,
        );
  const split = planned.gt(500)
    ? [planned.dividedBy(2).floor(), planned.minus(planned.dividedBy(2).floor())]
    : [planned];
  // Work waiting for its turn is given out a shift's worth at a time (what the machine makes in
  // SHIFT_MINUTES at the step's standard minutes), as a planner does: the rest of a big order waits
  // for the next 派工, and the 排产计划 shows the shifts full, not twenty times over.
  const minutes = new Decimal(task.standardMinutes ?? 0);
  const shiftWorth = minutes.gt(0) ? new Decimal(SHIFT_MINUTES).dividedBy(minutes).floor() : undefined;
  const waiting = (n: number) => stage === 'dispatched' || (stage !== 'completed' && n > 0);
  const halves = split.map((q, n) => (waiting(n) && shiftWorth?.gt(0) ? Decimal.min(q, shiftWorth) : q));
  const docNos = await nextDocNos(db, DISPATCH_PREFIX, halves.length, undefined, dayInstant(day));
  // The night half of running work waits for its shift.
  const statusOf = (n: number) => (stage === 'completed' ? 'completed' : waiting(n) ? 'dispatched' : stage);
  const made = `${day < today ? day : today} 07:30:00+08`;
  const rows = halves.map((q, n) => {
    const status = statusOf(n);
    const startedAt = status === 'dispatched' ? null : `${day} ${n === 0 ? '08:10' : '20:05'}:00+08`;
    const finishedAt = status === 'completed' ? `${day} ${n === 0 ? '17:20' : '23:40'}:00+08` : null;
    return {
      docNo: docNos[n],
      status,
      shift: n === 0 ? 'day' : 'night',
      quantity: q.toString(),
      minutes: new Decimal(task.standardMinutes ?? 0).times(q).toDecimalPlaces(2).toString(),
      startedAt,
      finishedAt,
      updatedBy: status === 'dispatched' ? planner.id : operator.id,
    };
  });
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  const r = await prepared(sql<{ id: number; status: string; workDate: string; shift: 'day' | 'night' }>`
    INSERT INTO work_dispatch (doc_no, status, task_id, production_order_id, product_id, process_id, workshop_type,
                               workshop_id, team_id, operator_id, equipment_id, work_date, shift, quantity,
                               planned_minutes, started_at, finished_at, created_by, created_at, updated_by, updated_at)
    SELECT v.doc_no, v.status, t.id, t.production_order_id, t.product_id, t.process_id, t.workshop_type, t.workshop_id,
           ${team}::bigint, ${operator.id}::bigint, ${machine}::bigint, ${day}::date, v.shift, v.quantity,
           v.planned_minutes, v.started_at, v.finished_at, ${planner.id}::bigint, ${made}::timestamptz, v.updated_by,
           COALESCE(v.finished_at, v.started_at, ${made}::timestamptz)
      FROM unnest(${col((x) => x.docNo)}::text[], ${col((x) => x.status)}::text[], ${col((x) => x.shift)}::text[],
                  ${col((x) => x.quantity)}::numeric[], ${col((x) => x.minutes)}::numeric[],
                  ${col((x) => x.startedAt)}::timestamptz[], ${col((x) => x.finishedAt)}::timestamptz[],
                  ${col((x) => x.updatedBy)}::bigint[]) WITH ORDINALITY
           AS v(doc_no, status, shift, quantity, planned_minutes, started_at, finished_at, updated_by, n)
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
  return r.rows.map((d) => ({ ...d, id: Number(d.id), operator, equipmentId: machine }));
}

/** Scrap rates of the demo floor: turning 1–2 %, grinding 0.5–1 %, inspection and assembly less. */
const SCRAP: Record<string, [number, number]> = {
  machine: [0.01, 0.02],
  grinding: [0.005, 0.01],
  inspect: [0.002, 0.004],
  assembly: [0.001, 0.002],
};
/** Pieces to a tray (框) in each kind of workshop: what an operator reports at a time. */
const TRAY: Record<string, number> = { machine: 25, grinding: 20, inspect: 40, assembly: 40 };
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
  const dispatch = dispatches.find((d) => d.status !== 'dispatched');
  if (!dispatch) return;
  const { operator } = dispatch;
  const [lo, hi] = SCRAP[task.workshopType] ?? [0.005, 0.01];
  const reasons = REASONS[task.workshopType] ?? ['other'];
  const fresh = await sql<{ id: number; docNo: string; inputQuantity: string; taken: string }>`
    SELECT c.id, c.doc_no, s.input_quantity::text AS input_quantity,
           (s.good_quantity + s.work_scrap_quantity + s.material_scrap_quantity)::text AS taken
      FROM flow_card c JOIN flow_card_step s ON s.flow_card_id = c.id
     WHERE c.production_order_id = ${orderId} AND c.status = 'open' AND s.order_step_id = ${task.orderStepId}
     ORDER BY c.id`.execute(db);
  const list = (
    stage === 'completed' ? fresh.rows : fresh.rows.slice(0, Math.ceil(fresh.rows.length / 2) + 1)
  ).filter((c) => new Decimal(c.inputQuantity).minus(c.taken).gt(0));
  if (!list.length) return;
  // 按框报工: on a step that is neither inspected nor the order's last, the operator reports each
  // tray as it is done; the scrap of the card goes with its last tray.
  const tray = task.inspectionRequired || lastStep ? 0 : (TRAY[task.workshopType] ?? 0);
  const parts = list.flatMap((c) => {
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
  const docNos = await nextDocNos(
    db,
    WORK_REPORT_PREFIX,
    parts.length,
    undefined,
    dayInstant(dispatch.workDate),
  );
  // Reported through the shift, 08:30 to 17:30, and never after the present: today's trays up to
  // a minute ago (before the shift has begun, in the hour before that).
  const shiftStart = Date.parse(`${dispatch.workDate}T08:30:00+08:00`);
  const end = Math.min(shiftStart + 540 * 60_000, Date.now() - 60_000);
  const start = Math.min(shiftStart, end - 60 * 60_000);
  const timeOf = (i: number) =>
    new Date(start + Math.floor(((i + 1) * (end - start)) / parts.length / 60_000) * 60_000).toISOString();
  const reports: Report[] = parts.map((p, i) => {
    const taken = p.good.plus(p.ws).plus(p.ms);
    // While the step runs, its last report waits for approval and the one before for inspection.
    const running = stage !== 'completed';
    const approved = !(running && i === parts.length - 1);
    const held = task.inspectionRequired && running && i > 0 && i === parts.length - 2;
    return {
      id: 0,
      docNo: docNos[i],
      status: !approved ? 'submitted' : held ? 'inspecting' : 'posted',
      inspected: approved && task.inspectionRequired,
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
      at: timeOf(i),
    };
  });
  // The reports' ids first, so the posted ones' wage lines (no foreign key to the report) are
  // written before the reports, and each report is inserted with its piece rate and wage.
  const ids = await prepared(sql<{ id: number }>`
    SELECT nextval(pg_get_serial_sequence('work_report', 'id')) AS id FROM generate_series(1, ${reports.length}::int)`).execute(
    db,
  );
  for (const [i, r] of reports.entries()) r.id = Number(ids.rows[i].id);
  const record = (r: Report) => ({
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
                  ${col((r) => r.flowCardId)}::bigint[], ${col((r) => r.goodQuantity)}::numeric[],
                  ${col((r) => r.workScrapQuantity)}::numeric[], ${col((r) => r.materialScrapQuantity)}::numeric[],
                  ${col((r) => r.scrapReason)}::text[], ${col((r) => r.hours)}::numeric[],
                  ${col((r) => r.at)}::timestamptz[], ${col((r) => wageOf.get(r.id)?.pieceRate ?? null)}::numeric[],
                  ${col((r) => wageOf.get(r.id)?.amount ?? null)}::numeric[])
           AS v(id, doc_no, status, card, good, ws, ms, reason, hours, at, rate, amount)
      JOIN work_dispatch d ON d.id = ${dispatch.id}::bigint
      JOIN workshop_task t ON t.id = d.task_id`).execute(db);

  // Each card's step counts its pieces, the next step receives the good ones: one statement.
  const last = new Set<number>();
  if (posted.length) {
    // A card's trays summed: one row per card.
    const byCard = new Map<number, { good: Decimal; ws: Decimal; ms: Decimal }>();
    for (const r of posted) {
      const c = byCard.get(r.flowCardId) ?? { good: new Decimal(0), ws: new Decimal(0), ms: new Decimal(0) };
      byCard.set(r.flowCardId, {
        good: c.good.plus(r.goodQuantity),
        ws: c.ws.plus(r.workScrapQuantity),
        ms: c.ms.plus(r.materialScrapQuantity),
      });
    }
    const cards = [...byCard];
    const moved = await prepared(sql<{ cardId: number; last: boolean }>`
      UPDATE flow_card_step s SET
             good_quantity = s.good_quantity + CASE WHEN s.id = x.cur_id THEN x.good ELSE 0 END,
             work_scrap_quantity = s.work_scrap_quantity + CASE WHEN s.id = x.cur_id THEN x.ws ELSE 0 END,
             material_scrap_quantity = s.material_scrap_quantity + CASE WHEN s.id = x.cur_id THEN x.ms ELSE 0 END,
             in_time = CASE WHEN s.id = x.cur_id THEN COALESCE(s.in_time, ${`${dispatch.workDate} 08:10:00+08`}::timestamptz) ELSE s.in_time END,
             out_time = CASE WHEN s.id = x.cur_id THEN ${posted[posted.length - 1].at}::timestamptz ELSE s.out_time END,
             operator_id = CASE WHEN s.id = x.cur_id THEN ${operator.id}::bigint ELSE s.operator_id END,
             equipment_id = CASE WHEN s.id = x.cur_id THEN COALESCE(${dispatch.equipmentId}::bigint, s.equipment_id) ELSE s.equipment_id END,
             input_quantity = s.input_quantity + CASE WHEN s.id = x.cur_id THEN 0 ELSE x.good END
        FROM (SELECT v.card, v.good, v.ws, v.ms, cur.id AS cur_id, nxt.id AS next_id
                FROM unnest(${cards.map(([id]) => id)}::bigint[], ${cards.map(([, c]) => c.good.toString())}::numeric[],
                            ${cards.map(([, c]) => c.ws.toString())}::numeric[],
                            ${cards.map(([, c]) => c.ms.toString())}::numeric[]) AS v(card, good, ws, ms)
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
      dispatchId: dispatch.id,
      good: sum((r) => r.goodQuantity),
      scrap: sum((r) => new Decimal(r.workScrapQuantity).plus(r.materialScrapQuantity)),
    });
  }

  // Inspected steps: each approved report raised its inspection task, the dispatch's reported
  // pieces growing report by report (first article, then patrol, then the final one).
  const report = (good: string) =>
    prepared(
      sql`UPDATE work_dispatch SET reported_quantity = reported_quantity + ${good}::numeric WHERE id = ${dispatch.id}`,
    ).execute(db);
  if (task.inspectionRequired) {
    for (const r of reports) {
      if (r.inspected) await onReportAwaitingInspection(db, admin, record(r));
      if (r.status === 'posted') await report(r.goodQuantity);
    }
  } else if (posted.length) {
    await report(posted.reduce((a, r) => a.plus(r.goodQuantity), new Decimal(0)).toString());
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
