import {
  type ResourceDef,
  stockInboundResource,
  type TransitionDef,
  WORK_REPORT_LIFECYCLE,
  WORKSHOP_KINDS,
  workDispatchResource,
  workReportResource,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { AppError, conflict, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { businessDay, dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import { createRecord, getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import {
  lifecycleHooks,
  runTransition,
  type TransitionCtx,
  type TransitionHandlers,
} from '../../platform/resource/lifecycle.ts';
import { resourceFieldSchema } from '../../platform/resource/schema.ts';
import { assertInScope, gate, grantingFor, ownerRuleLifted } from '../../platform/resource/scope.ts';
import { SETTING_KEYS, settingOn } from '../../platform/settings.ts';
import { takeBackWageLines, WAGE_CLOSE_SHARED, wageLinesInsert } from '../finance/wages.ts';
import { percentSetting, qty } from '../orders/order-lines.ts';
import { DOC_HOOKS, postDocumentByName, reverseDocumentByName } from '../warehouse/documents.ts';
import { cardStepLock, cardStepOf, lockCardStep } from './flow-card.ts';
import { shopFloorEvents } from './inspection-events.ts';
import { taken } from './pieces.ts';
import { rollupWorkReport } from './report-rollup.ts';
import { OVER_DISPATCH, taskNotice, taskRecount } from './workshop-task.ts';

/**
 * 报工 (work reports). A report names a dispatch (so its task, order step and workshop) and a
 * flow card of the same order; it reports good, scrap (工废 / 料废) and rework pieces at that card
 * step. What a step may report is what arrived at it (the card step's input) less what its other
 * reports already count — checked under the card step's row lock, so two operators reporting the
 * last pieces at once are judged one after the other. Rework pieces stay at the step.
 *
 * 入账 (posting, in the transaction of 审核 or 检验完成) moves the quantities:
 *  1. the card step counts good, scrap and rework, and the good pieces arrive at the next step
 *     (semi-finished stock is a card's pieces waiting at a step);
 *  2. the task's completed and scrap, the dispatch's reported, the card's current step (and
 *     completion), and on the last step the order's produced quantity;
 *  3. a piece-rate wage line (`piece_wage`, at the 工序工资 rate in force on the report date —
 *     modules/finance/wages.ts);
 *  4. on the last step a posted 生产入库 of the good pieces (batch = the card number) into the
 *     finished-goods store (a component order's into the semi-finished store).
 * 反审核 reverses all four, refused once the next step has reported what it received.
 */

interface Dispatch {
  id: number;
  docNo: string;
  status: string;
  taskId: number;
  productionOrderId: number;
  operatorId: number;
  equipmentId: number | null;
  workshopType: string;
}

async function dispatchRow(db: Db, id: number): Promise<Dispatch> {
  const r = await sql<Dispatch>`
    SELECT id, doc_no, status, task_id, production_order_id, operator_id, equipment_id, workshop_type
      FROM work_dispatch WHERE id = ${id}`.execute(db);
  if (!r.rows[0]) throw fieldError('dispatchId', '所选派工单不存在或已被删除');
  return r.rows[0];
}

const scrapOf = (r: Record<string, any>) =>
  new Decimal(r.workScrapQuantity ?? 0).plus(r.materialScrapQuantity ?? 0);
/** What a report takes from its step's arrived pieces: good and scrap (rework stays). */
const takenOf = (r: Record<string, any>) => new Decimal(r.goodQuantity ?? 0).plus(scrapOf(r));

/** Σ good + scrap of a card step's reports, leaving out `exceptId`. */
async function reportedAt(db: Db, cardId: number, orderStepId: number, exceptId: number): Promise<Decimal> {
  const r = await sql<{ q: string }>`
    SELECT COALESCE(sum(${taken()}), 0)::text AS q
      FROM work_report WHERE flow_card_id = ${cardId} AND order_step_id = ${orderStepId} AND id <> ${exceptId}`.execute(
    db,
  );
  return new Decimal(r.rows[0].q);
}

/**
 * Good + scrap of a dispatch's reports (every state, as at the card step) stay within its quantity
 * plus `production.overDispatchPercent`, judged under the dispatch's row lock (taken after the
 * card step's, in the order postings lock), so parallel reports are counted one after the other.
 */
async function withinDispatch(db: Db, d: Dispatch, data: Record<string, any>, exceptId: number) {
  const r = await sql<{ quantity: string; reported: string }>`
    SELECT quantity::text,
           (SELECT COALESCE(sum(${taken()}), 0) FROM work_report
             WHERE dispatch_id = ${d.id} AND id <> ${exceptId})::text AS reported
      FROM work_dispatch WHERE id = ${d.id} FOR UPDATE`.execute(db);
  const row = r.rows[0];
  const most = new Decimal(row.quantity)
    .times(new Decimal(100).plus(await percentSetting(db, OVER_DISPATCH)))
    .dividedBy(100);
  const left = most.minus(row.reported);
  if (takenOf(data).gt(left))
    throw conflict(
      `超出派工数量：派工单 ${d.docNo} 派工 ${qty(row.quantity)}，已报 ${qty(row.reported)}，` +
        `最多还可报 ${qty(Decimal.max(left, 0))}（合格 + 废品）`,
    );
}

/** A report's dispatch with its task and order: what validating and deriving a report read, in one query. */
interface Source extends Dispatch {
  productId: number;
  processId: number;
  seq: number;
  workshopId: number | null;
  orderStepId: number;
  inspectionRequired: boolean;
  orderNo: string;
}

/** The source read by `validate`, reused by `derive` of the same save (both get the same data object). */
const sources = new WeakMap<object, Source>();

async function sourceOf(db: Db, data: Record<string, any>): Promise<Source> {
  const known = sources.get(data);
  if (known && known.id === Number(data.dispatchId)) return known;
  const r = await prepared(sql<Source>`
    SELECT d.id, d.doc_no, d.status, d.task_id, t.production_order_id, d.operator_id, d.equipment_id, t.workshop_type,
           t.product_id, t.process_id, t.seq, t.workshop_id, t.order_step_id, t.inspection_required, o.doc_no AS order_no
      FROM work_dispatch d JOIN workshop_task t ON t.id = d.task_id JOIN production_order o ON o.id = t.production_order_id
     WHERE d.id = ${Number(data.dispatchId)}`).execute(db);
  if (!r.rows[0]) throw fieldError('dispatchId', '所选派工单不存在或已被删除');
  sources.set(data, r.rows[0]);
  return r.rows[0];
}

export const workReportHooks: ResourceHooks = lifecycleHooks(workReportResource, {
  async prepare({ db }, data) {
    return { docNo: await nextDocNoOf(db, workReportResource, dayInstant(data.reportDate)) };
  },
  async validate({ db }, data, before) {
    const d = await sourceOf(db, data);
    if (before && Number(before.dispatchId) !== d.id)
      throw fieldError('dispatchId', '报工单的派工单不能更改');
    if (!['started', 'paused', 'completed'].includes(d.status)) {
      throw fieldError('dispatchId', `派工单 ${d.docNo} 尚未开工，不能报工`);
    }
    if (!before) await shopFloorEvents.reportAdding.emit(db, d.id);
    const good = new Decimal(data.goodQuantity ?? 0);
    const scrap = scrapOf(data);
    if (
      good
        .plus(scrap)
        .plus(data.reworkQuantity ?? 0)
        .lte(0)
    ) {
      throw fieldError('goodQuantity', '合格数、废品数、返工数至少填一项');
    }
    if (scrap.gt(0) && !data.scrapReason) throw fieldError('scrapReason', '有废品时请选择废品原因');
    const stepId = Number(d.orderStepId);
    // A card that is not there is a bad field; one that cannot take reports (held, split…) a 409.
    const { card, step } = await lockCardStep(db, Number(data.flowCardId), { orderStepId: stepId }).catch(
      (e) => {
        throw e instanceof AppError && e.status === 409 ? e : fieldError('flowCardId', e.message);
      },
    );
    if (Number(card.productionOrderId) !== Number(d.productionOrderId)) {
      throw fieldError('flowCardId', `流转卡 ${card.docNo} 不是生产订单 ${d.orderNo} 的卡`);
    }
    await withinDispatch(db, d, data, before?.id ?? 0);
    const others = await reportedAt(db, card.id, stepId, before?.id ?? 0);
    const left = new Decimal(step.inputQuantity).minus(others);
    if (takenOf(data).gt(left)) {
      throw conflict(
        `超出本工序可报数量：流转卡 ${card.docNo} 第 ${step.seq} 道工序到达 ${qty(step.inputQuantity)}，` +
          `已报 ${qty(others)}，最多还可报 ${qty(Decimal.max(left, 0))}（合格 + 废品）`,
      );
    }
    if (new Decimal(data.reworkQuantity ?? 0).gt(Decimal.max(left.minus(takenOf(data)), 0))) {
      throw fieldError(
        'reworkQuantity',
        `返工数不能超过本工序尚未报工的 ${qty(left.minus(takenOf(data)))} 件`,
      );
    }
  },
  async derive({ db, user }, data, before) {
    const d = await sourceOf(db, data);
    // The operator is the dispatch's; only who approves the workshop's reports names another.
    const named = data.operatorId != null && Number(data.operatorId) !== Number(d.operatorId);
    if (named && !ownerRuleLifted(user, workReportResource, before ? 'edit' : 'add', d))
      throw fieldError(
        'operatorId',
        `报工的操作工须是派工单 ${d.docNo} 的操作工，改为他人须由车间审核报工的人员操作`,
      );
    return {
      taskId: Number(d.taskId),
      productionOrderId: Number(d.productionOrderId),
      productId: Number(d.productId),
      processId: Number(d.processId),
      seq: d.seq,
      workshopType: d.workshopType,
      workshopId: d.workshopId,
      orderStepId: Number(d.orderStepId),
      inspectionRequired: d.inspectionRequired,
      operatorId: named ? data.operatorId : d.operatorId,
      equipmentId: data.equipmentId ?? d.equipmentId,
    };
  },
});

// ------------------------------------------------------------------ 入账 and its reversal

/** The next step of a card after `seq` (undefined on the last). */
export async function nextStep(db: Db, cardId: number, seq: number) {
  const r = await sql<{ id: number; seq: number; inputQuantity: string }>`
    SELECT id, seq, input_quantity::text AS input_quantity FROM flow_card_step
     WHERE flow_card_id = ${cardId} AND seq > ${seq} ORDER BY seq LIMIT 1 FOR UPDATE`.execute(db);
  return r.rows[0];
}

/**
 * The UPDATE that settles card `cardId` from `steps`, its step rows as they now stand (`seq`,
 * `input_quantity`, `done` = good + scrap): the current step is the first with pieces waiting;
 * 已完工 when none waits and the last step is done.
 */
const settleFrom = (cardId: number, steps: RawBuilder<unknown>) => sql`
  UPDATE flow_card c SET current_seq = COALESCE(w.seq, c.current_seq),
         status = CASE WHEN w.seq IS NULL AND l.done THEN 'completed' ELSE c.status END,
         updated_at = now(), version = c.version + 1
    FROM (SELECT min(seq) AS seq FROM ${steps} st WHERE input_quantity > done) w,
         (SELECT bool_and(input_quantity > 0 AND input_quantity = done) AS done
            FROM (SELECT * FROM ${steps} st ORDER BY seq DESC LIMIT 1) last) l
   WHERE c.id = ${cardId} AND c.status IN ('open', 'completed')`;

const DONE = taken();

/** A card's current step: the first with pieces waiting; 已完工 when none waits and its last step is done. */
export async function settleCard(db: Db, cardId: number) {
  await prepared(
    settleFrom(
      cardId,
      sql`(SELECT seq, input_quantity, ${DONE} AS done FROM flow_card_step WHERE flow_card_id = ${cardId})`,
    ),
  ).execute(db);
}

/** Where a finished order's pieces are received: the semi-finished store for a component order. */
async function receivingStore(db: Db, orderId: number): Promise<number> {
  const r = await sql<{ id: number }>`
    SELECT w.id FROM warehouse w, production_order p
     WHERE p.id = ${orderId} AND w.status = '1'
       AND w.type = CASE WHEN p.parent_order_id IS NULL THEN 'finished' ELSE 'semi' END
     ORDER BY w.code LIMIT 1`.execute(db);
  if (!r.rows[0]) throw conflict('没有启用的成品仓（或半成品仓），不能完工入库，请在仓库建模中设置');
  return Number(r.rows[0].id);
}

/**
 * Applies a report's quantities (sign 1) or takes them back (sign −1), in one transaction, and
 * leaves the report in `status`. The round-trips of a posting (issue 12's posting speed), each
 * a named prepared statement, in the order every posting takes its row locks: the report, its
 * card and step locked and read, with the wage close lock (1, `readForPosting`, the transition's
 * read); the posting's row changes (1): both step rows, the card settled, the task's progress and
 * recount, the wage line and the live notifications; then the rollups with the dispatch's count,
 * the report row and `also` (the transition's audit row) in one statement (`postingHooks`). A
 * reversal locks the card itself and takes the wage lines back on its own (`takeBackWageLines`).
 * The next workshop's 来料检验 only when the pieces reach another workshop; the last step adds the
 * 生产入库.
 */
async function move(
  db: Db,
  report: Record<string, any>,
  user: AuthUser,
  sign: 1 | -1,
  status: string,
  also: RawBuilder<unknown>[] = [],
  stamp?: RawBuilder<unknown>,
) {
  const cardId = Number(report.flowCardId);
  // A posting's card and step were locked with the report, and the wage close lock taken
  // (`readForPosting`).
  const { card, step } =
    sign > 0
      ? cardStepOf(report)
      : await lockCardStep(db, cardId, { orderStepId: Number(report.orderStepId) }).catch(async () => {
          // Taking back a report of a card that completed with it: the card is open again.
          await sql`UPDATE flow_card SET status = 'open' WHERE id = ${cardId} AND status = 'completed'`.execute(
            db,
          );
          return lockCardStep(db, cardId, { orderStepId: Number(report.orderStepId) });
        });
  const good = new Decimal(report.goodQuantity).times(sign);
  const ws = new Decimal(report.workScrapQuantity).times(sign);
  const ms = new Decimal(report.materialScrapQuantity).times(sign);
  const rw = new Decimal(report.reworkQuantity).times(sign);
  if (sign < 0) {
    const next = await nextStep(db, cardId, step.seq);
    if (next) {
      const used = await reportedAt(db, cardId, Number((await stepOrder(db, next.id)).orderStepId), 0);
      if (used.gt(new Decimal(next.inputQuantity).plus(good))) {
        throw conflict(
          `流转卡 ${card.docNo} 下道工序已报工 ${qty(used)}，不能反审核本报工单，请先反审核下道工序的报工`,
        );
      }
    }
  } else {
    // The step row is locked and read by lockCardStep: what it counts is known here.
    const posted = new Decimal(step.goodQuantity)
      .plus(step.workScrapQuantity)
      .plus(step.materialScrapQuantity);
    if (posted.plus(good).plus(ws).plus(ms).gt(step.inputQuantity)) {
      throw conflict(
        `流转卡 ${card.docNo} 第 ${step.seq} 道工序入账数量超过到达数量 ${qty(step.inputQuantity)}`,
      );
    }
  }
  // The posting's row changes, one statement answering the step rows changed (none after this
  // one: the last step, 完工入库): this step counts the pieces and the next one (if any) receives
  // the good ones; the card is settled from its steps as they now stand (the changed rows as
  // returned, the others as read); the task's row lock, before the dispatch's (as every dispatch
  // change takes them), with its progress; the wage line; the live screens told.
  const posting = {
    dispatchId: Number(report.dispatchId),
    good: good.toString(),
    scrap: ws.plus(ms).toString(),
  };
  const moved = await prepared(sql<{
    id: number;
    workshopId: number | null;
    outsourced: boolean;
    pieceRate: string | null;
    wageAmount: string | null;
  }>`
    WITH moved AS (
    UPDATE flow_card_step s SET
           good_quantity = s.good_quantity + CASE WHEN s.id = ${step.id} THEN ${good.toString()}::numeric ELSE 0 END,
           work_scrap_quantity = s.work_scrap_quantity + CASE WHEN s.id = ${step.id} THEN ${ws.toString()}::numeric ELSE 0 END,
           material_scrap_quantity = s.material_scrap_quantity + CASE WHEN s.id = ${step.id} THEN ${ms.toString()}::numeric ELSE 0 END,
           rework_quantity = CASE WHEN s.id = ${step.id} THEN greatest(s.rework_quantity + ${rw.toString()}::numeric, 0) ELSE s.rework_quantity END,
           in_time = CASE WHEN s.id = ${step.id} THEN COALESCE(s.in_time, now()) ELSE s.in_time END,
           out_time = CASE WHEN s.id = ${step.id} AND ${sign} > 0 THEN now() ELSE s.out_time END,
           operator_id = CASE WHEN s.id = ${step.id} THEN COALESCE(${report.operatorId}, s.operator_id) ELSE s.operator_id END,
           equipment_id = CASE WHEN s.id = ${step.id} THEN COALESCE(${report.equipmentId}, s.equipment_id) ELSE s.equipment_id END,
           input_quantity = s.input_quantity + CASE WHEN s.id = ${step.id} THEN 0 ELSE ${good.toString()}::numeric END
     WHERE s.flow_card_id = ${cardId}
       AND (s.id = ${step.id} OR s.id = (SELECT n.id FROM flow_card_step n WHERE n.flow_card_id = ${cardId} AND n.seq > ${step.seq}
                                          ORDER BY n.seq LIMIT 1))
     RETURNING s.id, s.seq, s.workshop_id, s.outsourced, s.input_quantity, ${DONE} AS done),
    steps AS (
      SELECT seq, input_quantity, done FROM moved
      UNION ALL
      SELECT seq, input_quantity, ${DONE} FROM flow_card_step
       WHERE flow_card_id = ${cardId} AND id NOT IN (SELECT id FROM moved)),
    settled AS (${settleFrom(cardId, sql`steps`)}),
    task AS (${taskRecount(Number(report.taskId), [], posting)})${
      sign > 0
        ? sql`,
    wage AS (${wageLinesInsert([report])})`
        : sql``
    }
    SELECT m.id, m.workshop_id, m.outsourced,
           ${sign > 0 ? sql`(SELECT piece_rate FROM wage)` : sql`NULL`} AS piece_rate,
           ${sign > 0 ? sql`(SELECT amount FROM wage)` : sql`NULL`} AS wage_amount,
           (SELECT count(*) FROM task, LATERAL (SELECT ${taskNotice(posting)}) n) AS told
      FROM moved m`).execute(db);
  const next = moved.rows.find((r) => Number(r.id) !== Number(step.id));
  const last = !next;
  // The pieces reach another workshop's step: its 来料检验 follows (`cardArrived`).
  const arrivesElsewhere =
    next != null && !next.outsourced && Number(next.workshopId ?? 0) !== Number(step.workshopId ?? 0);

  const wage = sign > 0 ? { pieceRate: moved.rows[0].pieceRate, amount: moved.rows[0].wageAmount } : null;
  if (sign < 0) await takeBackWageLines(db, report);
  // The dispatch's count (its lock after the task's) and the report's row ride in the rollups'
  // statement: two round-trips fewer.
  const rows = [
    sql`UPDATE work_dispatch SET reported_quantity = reported_quantity + ${good.toString()}::numeric
         WHERE id = ${report.dispatchId}`,
    sql`UPDATE work_report SET status = ${status}, ${stamp ? sql`${stamp}, ` : sql``}piece_rate = ${wage?.pieceRate ?? null},
               wage_amount = ${wage?.amount ?? null},
               posted_at = ${wage ? sql`now()` : null}${wage ? sql`` : sql`, stock_inbound_id = NULL`}
         WHERE id = ${report.id}`,
  ];
  await postingHooks(db, report, user, sign, arrivesElsewhere ? step.seq : null, [...rows, ...also]);
  // Last, so the rows every finished-goods posting of the day shares (the 生产入库 number counter,
  // the product's stock balance) stay locked for the shortest time before the commit.
  if (last) await finishedGoods(db, report, user, sign, card.docNo);
}

/**
 * The one place where the hooks that follow a report's posting (or its reversal) run, in the
 * posting transaction: the report rollups (report-rollup.ts) and, when the good pieces arrived at
 * (or left) a next step, its workshop's 来料检验 (`shopFloorEvents.cardArrived`). The live screens are told
 * by the task's recount (`recountTask`).
 */
async function postingHooks(
  db: Db,
  report: Record<string, any>,
  user: AuthUser,
  sign: 1 | -1,
  seq: number | null,
  also: RawBuilder<unknown>[] = [],
) {
  await rollupWorkReport(db, report, sign, also);
  if (seq != null) await shopFloorEvents.cardArrived.emit(db, user, Number(report.flowCardId), seq);
}

async function stepOrder(db: Db, stepId: number) {
  const r = await sql<{
    orderStepId: number;
  }>`SELECT order_step_id FROM flow_card_step WHERE id = ${stepId}`.execute(db);
  return r.rows[0];
}

/** The last step's good pieces: the order's produced quantity and a posted 生产入库 (or its reversal). */
export async function finishedGoods(
  db: Db,
  report: Record<string, any>,
  user: AuthUser,
  sign: 1 | -1,
  cardNo: string,
) {
  await sql`
    UPDATE production_order SET produced_quantity = produced_quantity + ${new Decimal(report.goodQuantity).times(sign).toString()}::numeric,
           updated_at = now(), version = version + 1
     WHERE id = ${report.productionOrderId}`.execute(db);
  if (sign < 0) {
    if (report.stockInboundId)
      await reverseDocumentByName(db, 'stock-inbound', Number(report.stockInboundId), user);
    return;
  }
  if (!new Decimal(report.goodQuantity).gt(0)) return;
  const order = await sql<{
    docNo: string;
  }>`SELECT doc_no FROM production_order WHERE id = ${report.productionOrderId}`.execute(db);
  const id = await createRecord(
    { db, user: { ...user, isAdmin: true }, def: stockInboundResource },
    {
      type: 'production',
      warehouseId: await receivingStore(db, Number(report.productionOrderId)),
      bizDate: report.reportDate,
      sourceNo: order.rows[0].docNo,
      remark: `报工单 ${report.docNo} 末道工序完工入库`,
      lines: [
        { materialId: Number(report.productId), quantity: String(report.goodQuantity), batchNo: cardNo },
      ],
    },
    DOC_HOOKS['stock-inbound'],
  );
  await postDocumentByName(db, 'stock-inbound', id, user);
  await sql`UPDATE work_report SET stock_inbound_id = ${id} WHERE id = ${report.id}`.execute(db);
}

/**
 * 审核 and 检验完成 read the report locked, then its card and the card's step of the report locked,
 * and take the wage close lock (the wage line, written in a later statement, sees every month
 * closed before): one statement, the order of the locks every posting takes. The card's state is
 * judged when the posting uses it (`cardStepOf`), after the transition's own checks.
 */
async function readForPosting(db: Db, id: number): Promise<Record<string, any>> {
  const r = await prepared(sql<Record<string, any>>`
    SELECT t.*, cs.*
      FROM (SELECT * FROM work_report WHERE id = ${id} FOR UPDATE) t
      LEFT JOIN LATERAL (${cardStepLock(sql`t.flow_card_id`, sql`order_step_id = t.order_step_id`, WAGE_CLOSE_SHARED)}) cs
        ON true`).execute(db);
  if (!r.rows[0]) throw notFound(`${workReportResource.label}不存在或已被删除`);
  return r.rows[0];
}

/**
 * Maker ≠ checker (系统设置 「报工审核人不得为报工人」, on unless switched off): nobody approves or
 * passes inspection of a report of his own work, his wage being in it. The setting is read only
 * when it applies, off the posting's hot path.
 */
async function notOwnReport({ db, record, user }: TransitionCtx) {
  if (Number(record.operatorId) !== Number(user.id)) return;
  if (await settingOn(db, SETTING_KEYS.approverNotReporter, true))
    throw conflict('报工审核人不得为报工人：本人的报工须由他人审核（系统设置 → 职责分离）');
}

/**
 * 审核: posts at once, or waits as 待检验 on a step flagged for inspection. Either way the report's
 * row is written once, its state with the posting's columns (`movesState`).
 */
const approve: TransitionHandlers = {
  movesState: true,
  read: readForPosting,
  guard: notOwnReport,
  async effect(ctx) {
    const { db, record, user } = ctx;
    if (record.inspectionRequired) {
      await sql`UPDATE work_report SET status = 'inspecting', ${ctx.stamp} WHERE id = ${record.id}`.execute(
        db,
      );
      await shopFloorEvents.reportAwaitingInspection.emit(db, user, record);
      ctx.settled = 'inspecting';
      return;
    }
    // The audit row goes with the rollups' statement.
    await move(db, record, user, 1, 'posted', [ctx.audit], ctx.stamp);
    ctx.audited = true;
    ctx.settled = 'posted';
  },
};

/** 提交: the card must still take reports (not held, not split or merged away since the draft). */
const submit: TransitionHandlers = {
  async guard({ db, record }) {
    await lockCardStep(db, Number(record.flowCardId), { orderStepId: Number(record.orderStepId) });
  },
};

/** 入账 of a report that waited 待检验, with the transition's audit row in the rollups' statement. */
async function postWaiting(ctx: TransitionCtx) {
  await move(ctx.db, ctx.record, ctx.user, 1, 'posted', [ctx.audit], ctx.stamp);
  ctx.audited = true;
  ctx.settled = 'posted';
}

/**
 * 检验完成 is the inspection's to give: the server's own transition, declared here and not in the
 * resource's lifecycle, so it has no route and no button — a report waiting for inspection is
 * posted by its task's 合格 / 让步接收 (`completeInspection`), or by 越过检验入账.
 */
const INSPECTED: TransitionDef = {
  name: 'inspect',
  label: '检验完成',
  from: ['inspecting'],
  to: 'inspected',
};
const byInspection: ResourceDef = {
  ...workReportResource,
  lifecycle: { ...WORK_REPORT_LIFECYCLE, transitions: [INSPECTED] },
};

/**
 * The inspection task's 合格 / 让步接收 (quality/inspection.ts) posts the report that waited for it,
 * in the task's transaction; `verdict` (检验单 JY… 合格) goes on the report's audit row.
 */
export function completeInspection(db: Db, user: AuthUser, reportId: number, verdict: string) {
  return runTransition(
    db,
    { ...user, isAdmin: true },
    byInspection,
    INSPECTED.name,
    reportId,
    { reason: verdict },
    {
      movesState: true,
      read: readForPosting,
      guard: notOwnReport,
      effect: postWaiting,
    },
  );
}

export const workReportTransitions: Record<string, TransitionHandlers> = {
  submit,
  approve,
  // 越过检验入账: its own permission and a reason; the open inspection task is closed as 已越过
  // (a failed one refuses: 返工复检 or 让步接收 decide it), then the report is posted.
  inspectOverride: {
    movesState: true,
    read: readForPosting,
    guard: notOwnReport,
    async effect(ctx) {
      await shopFloorEvents.inspectionOverridden.emit(
        ctx.db,
        ctx.user,
        ctx.record,
        ctx.reason ?? '',
        ctx.requestId,
      );
      await postWaiting(ctx);
    },
  },
  unapprove: {
    async effect(ctx) {
      const { db, record, user } = ctx;
      if (record.status === 'posted') await move(db, record, user, -1, ctx.transition.to);
      await shopFloorEvents.reportWithdrawn.emit(db, record.id);
      ctx.settled = ctx.transition.to;
    },
  },
};

// ------------------------------------------------------------------ the operator's 报工

const field = (name: string) => resourceFieldSchema(workReportResource, name);

export const quickReportBody = z.strictObject({
  flowCardId: field('flowCardId'),
  goodQuantity: field('goodQuantity'),
  workScrapQuantity: field('workScrapQuantity').optional(),
  materialScrapQuantity: field('materialScrapQuantity').optional(),
  scrapReason: field('scrapReason').nullable().optional(),
  reworkQuantity: field('reworkQuantity').optional(),
  hours: field('hours').nullable().optional(),
  remark: field('remark').nullable().optional(),
});

/**
 * 报工 from the operator's running sheet: a report of his dispatch for today, submitted at once
 * (the workshop approves it). The operator's 报工 permission (操作工任务) is the gate.
 */
export async function quickReport(
  db: Db,
  user: AuthUser,
  dispatchId: number,
  body: z.infer<typeof quickReportBody>,
  requestId?: string,
) {
  const d = await dispatchRow(db, dispatchId);
  // His own dispatch only (the owner rule), unless he dispatches in the workshop.
  assertInScope(user, workDispatchResource, 'report', d);
  const as = grantingFor(user, workReportResource);
  const id = await createRecord(
    { db, user: as, def: workReportResource },
    { ...body, dispatchId, reportDate: businessDay() },
    workReportHooks,
    requestId,
  );
  await runTransition(db, as, workReportResource, 'submit', id, {}, submit, requestId);
  return getRecord(db, workReportResource, id);
}

const semiPerms = WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Semi')}:list` as Permission);

export function workReportRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/semi',
    permission: semiPerms[0],
    alsoAllowedBy: semiPerms.slice(1),
    query: z.strictObject({
      workshopType: z.enum(WORKSHOP_KINDS.map((k) => k.type) as [string, ...string[]], {
        error: '车间类型只能是：车加工、磨加工、检测、装配',
      }),
    }),
    async handler({ query, user, app: { db } }) {
      const k = WORKSHOP_KINDS.find((x) => x.type === query.workshopType);
      if (!k || !can(user, `${workshopPermission(k, 'Semi')}:list`)) throw forbidden();
      return semiFinished(db, k.type);
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/work-dispatch/report/:id',
    ...gate(workDispatchResource, 'report'),
    params: idParams,
    body: quickReportBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => quickReport(trx, user, params.id, body, req.id)),
  });
}

// ------------------------------------------------------------------ 半成品

/**
 * A workshop's semi-finished stock: pieces it finished on a card that wait at the card's next
 * step, done in another workshop (or sent out), which has not taken them yet — by card, with
 * the age since the last piece left the workshop.
 */
export async function semiFinished(db: Db, workshopType: string) {
  const r = await sql<Record<string, any>>`
    SELECT c.id AS card_id, c.doc_no AS card_no, c.heat_no, o.id AS production_order_id, o.doc_no AS order_no,
           m.code AS product_code, m.name AS product_name, m.spec AS product_spec,
           prev.seq AS done_seq, pp.name AS done_process, nxt.seq AS next_seq, np.name AS next_process,
           COALESCE(nw.name, CASE WHEN nxt.outsourced THEN '委外' END) AS next_workshop,
           (nxt.input_quantity - ${taken('nxt')}
             - COALESCE(nxt.sent_quantity, 0) + COALESCE(nxt.returned_quantity, 0))::text AS quantity,
           prev.out_time AS finished_at,
           floor(extract(epoch FROM now() - prev.out_time) / 86400)::int AS age_days
      FROM flow_card c
      JOIN production_order o ON o.id = c.production_order_id
      JOIN material m ON m.id = c.product_id
      JOIN flow_card_step nxt ON nxt.flow_card_id = c.id
      JOIN LATERAL (SELECT p.* FROM flow_card_step p WHERE p.flow_card_id = c.id AND p.seq < nxt.seq
                     ORDER BY p.seq DESC LIMIT 1) prev ON true
      JOIN workshop pw ON pw.id = prev.workshop_id
      JOIN process pp ON pp.id = prev.process_id
      JOIN process np ON np.id = nxt.process_id
      LEFT JOIN workshop nw ON nw.id = nxt.workshop_id
     WHERE c.status = 'open' AND pw.type = ${workshopType}
       AND nxt.workshop_id IS DISTINCT FROM prev.workshop_id
       AND nxt.input_quantity - ${taken('nxt')}
             - COALESCE(nxt.sent_quantity, 0) + COALESCE(nxt.returned_quantity, 0) > 0
     ORDER BY prev.out_time NULLS LAST, c.doc_no
     LIMIT 2000`.execute(db);
  return { list: r.rows };
}
