import {
  stockInboundResource,
  WORKSHOP_KINDS,
  workDispatchResource,
  workReportResource,
  workshopPermission,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { auditInsert } from '../../platform/audit.ts';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, fieldError, forbidden } from '../../platform/errors.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { businessDay, dayInstant, nextDocNo } from '../../platform/numbering.ts';
import { createRecord, getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import {
  lifecycleHooks,
  registerLifecycle,
  runTransition,
  type TransitionHandlers,
} from '../../platform/resource/lifecycle.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { assertInScope, gate } from '../../platform/resource/scope.ts';
import { qty } from '../orders/order-lines.ts';
import { DOC_HOOKS, postDocumentByName, reverseDocumentByName } from '../warehouse/documents.ts';
import { lockCardStep } from './flow-card.ts';
import { recountTask, taskRow } from './workshop-task.ts';

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
 *  3. a piece-rate wage line (`piece_wage`, the process's 计件单价 × good);
 *  4. on the last step a posted 生产入库 of the good pieces (batch = the card number) into the
 *     finished-goods store (a component order's into the semi-finished store).
 * 反审核 reverses all four, refused once the next step has reported what it received.
 */

export const WORK_REPORT_PREFIX = 'BG';

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
    SELECT COALESCE(sum(good_quantity + work_scrap_quantity + material_scrap_quantity), 0)::text AS q
      FROM work_report WHERE flow_card_id = ${cardId} AND order_step_id = ${orderStepId} AND id <> ${exceptId}`.execute(
    db,
  );
  return new Decimal(r.rows[0].q);
}

export const workReportHooks: ResourceHooks = lifecycleHooks(workReportResource, {
  async prepare({ db }, data) {
    return { docNo: await nextDocNo(db, WORK_REPORT_PREFIX, undefined, dayInstant(data.reportDate)) };
  },
  async validate({ db }, data, before) {
    const d = await dispatchRow(db, Number(data.dispatchId));
    if (before && Number(before.dispatchId) !== d.id)
      throw fieldError('dispatchId', '报工单的派工单不能更改');
    if (!['started', 'paused', 'completed'].includes(d.status)) {
      throw fieldError('dispatchId', `派工单 ${d.docNo} 尚未开工，不能报工`);
    }
    const task = await taskRow(db, d.taskId);
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
    const orderStep = await sql<{ orderStepId: number }>`
      SELECT order_step_id FROM workshop_task WHERE id = ${task.id}`.execute(db);
    const stepId = Number(orderStep.rows[0].orderStepId);
    const { card, step } = await lockCardStep(db, Number(data.flowCardId), { orderStepId: stepId }).catch(
      (e) => {
        throw fieldError('flowCardId', e.message);
      },
    );
    if (Number(card.productionOrderId) !== Number(task.productionOrderId)) {
      throw fieldError('flowCardId', `流转卡 ${card.docNo} 不是生产订单 ${task.orderNo} 的卡`);
    }
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
  async derive({ db }, data) {
    const d = await dispatchRow(db, Number(data.dispatchId));
    const t = await sql<Record<string, any>>`
      SELECT t.id, t.production_order_id, t.product_id, t.process_id, t.seq, t.workshop_type, t.workshop_id,
             t.order_step_id, t.inspection_required
        FROM workshop_task t WHERE t.id = ${d.taskId}`.execute(db);
    const task = t.rows[0];
    return {
      taskId: Number(task.id),
      productionOrderId: Number(task.productionOrderId),
      productId: Number(task.productId),
      processId: Number(task.processId),
      seq: task.seq,
      workshopType: task.workshopType,
      workshopId: task.workshopId,
      orderStepId: Number(task.orderStepId),
      inspectionRequired: task.inspectionRequired,
      operatorId: data.operatorId ?? d.operatorId,
      equipmentId: data.equipmentId ?? d.equipmentId,
    };
  },
});

// ------------------------------------------------------------------ 入账 and its reversal

/** The next step of a card after `seq` (undefined on the last). */
async function nextStep(db: Db, cardId: number, seq: number) {
  const r = await sql<{ id: number; seq: number; inputQuantity: string }>`
    SELECT id, seq, input_quantity::text AS input_quantity FROM flow_card_step
     WHERE flow_card_id = ${cardId} AND seq > ${seq} ORDER BY seq LIMIT 1 FOR UPDATE`.execute(db);
  return r.rows[0];
}

/** A card's current step: the first with pieces waiting; 已完工 when none waits and its last step is done. */
async function settleCard(db: Db, cardId: number) {
  await sql`
    UPDATE flow_card c SET current_seq = COALESCE(w.seq, c.current_seq),
           status = CASE WHEN w.seq IS NULL AND l.done THEN 'completed' ELSE c.status END,
           updated_at = now(), version = c.version + 1
      FROM (SELECT min(seq) AS seq FROM flow_card_step
             WHERE flow_card_id = ${cardId} AND input_quantity > good_quantity + work_scrap_quantity + material_scrap_quantity) w,
           (SELECT bool_and(input_quantity > 0 AND input_quantity = good_quantity + work_scrap_quantity + material_scrap_quantity) AS done
              FROM (SELECT * FROM flow_card_step WHERE flow_card_id = ${cardId} ORDER BY seq DESC LIMIT 1) last) l
     WHERE c.id = ${cardId} AND c.status IN ('open', 'completed')`.execute(db);
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

async function post(db: Db, report: Record<string, any>, user: AuthUser) {
  const sign = 1;
  await move(db, report, user, sign);
}

async function unpost(db: Db, report: Record<string, any>, user: AuthUser) {
  await move(db, report, user, -1);
}

/** Applies a report's quantities (sign 1) or takes them back (sign −1), in one transaction. */
async function move(db: Db, report: Record<string, any>, user: AuthUser, sign: 1 | -1) {
  const cardId = Number(report.flowCardId);
  const { card, step } = await lockCardStep(db, cardId, { orderStepId: Number(report.orderStepId) }).catch(
    async (e) => {
      // Taking back a report of a card that completed with it: the card is open again.
      if (sign > 0) throw e;
      await sql`UPDATE flow_card SET status = 'open' WHERE id = ${cardId} AND status = 'completed'`.execute(
        db,
      );
      return lockCardStep(db, cardId, { orderStepId: Number(report.orderStepId) });
    },
  );
  const good = new Decimal(report.goodQuantity).times(sign);
  const ws = new Decimal(report.workScrapQuantity).times(sign);
  const ms = new Decimal(report.materialScrapQuantity).times(sign);
  const rw = new Decimal(report.reworkQuantity).times(sign);
  const next = await nextStep(db, cardId, step.seq);
  if (sign < 0 && next) {
    const used = await reportedAt(db, cardId, Number((await stepOrder(db, next.id)).orderStepId), 0);
    if (used.gt(new Decimal(next.inputQuantity).plus(good))) {
      throw conflict(
        `流转卡 ${card.docNo} 下道工序已报工 ${qty(used)}，不能反审核本报工单，请先反审核下道工序的报工`,
      );
    }
  }
  if (sign > 0) {
    const posted = await sql<{ q: string }>`
      SELECT (good_quantity + work_scrap_quantity + material_scrap_quantity)::text AS q FROM flow_card_step WHERE id = ${step.id}`.execute(
      db,
    );
    if (new Decimal(posted.rows[0].q).plus(good).plus(ws).plus(ms).gt(step.inputQuantity)) {
      throw conflict(
        `流转卡 ${card.docNo} 第 ${step.seq} 道工序入账数量超过到达数量 ${qty(step.inputQuantity)}`,
      );
    }
  }
  await sql`
    UPDATE flow_card_step SET good_quantity = good_quantity + ${good.toString()}::numeric,
           work_scrap_quantity = work_scrap_quantity + ${ws.toString()}::numeric,
           material_scrap_quantity = material_scrap_quantity + ${ms.toString()}::numeric,
           rework_quantity = greatest(rework_quantity + ${rw.toString()}::numeric, 0),
           in_time = COALESCE(in_time, now()), out_time = CASE WHEN ${sign} > 0 THEN now() ELSE out_time END,
           operator_id = COALESCE(${report.operatorId}, operator_id), equipment_id = COALESCE(${report.equipmentId}, equipment_id)
     WHERE id = ${step.id}`.execute(db);
  if (next) {
    await sql`UPDATE flow_card_step SET input_quantity = input_quantity + ${good.toString()}::numeric
               WHERE id = ${next.id}`.execute(db);
  }
  await settleCard(db, cardId);

  await taskRow(db, Number(report.taskId), true);
  await sql`
    UPDATE workshop_task SET completed_quantity = completed_quantity + ${good.toString()}::numeric,
           scrap_quantity = scrap_quantity + ${ws.plus(ms).toString()}::numeric
     WHERE id = ${report.taskId}`.execute(db);
  await sql`UPDATE work_dispatch SET reported_quantity = reported_quantity + ${good.toString()}::numeric
             WHERE id = ${report.dispatchId}`.execute(db);
  await recountTask(db, Number(report.taskId));

  const rate = await sql<{ rate: string | null }>`
    SELECT piece_rate::text AS rate FROM process WHERE id = ${report.processId}`.execute(db);
  const pieceRate = new Decimal(rate.rows[0]?.rate ?? 0);
  if (sign > 0) {
    const amount = pieceRate.times(report.goodQuantity).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    await sql`
      INSERT INTO piece_wage (work_report_id, operator_id, work_date, process_id, product_id, production_order_id,
                              quantity, piece_rate, amount)
      VALUES (${report.id}, ${report.operatorId}, ${report.reportDate}, ${report.processId}, ${report.productId},
              ${report.productionOrderId}, ${report.goodQuantity}, ${pieceRate.toString()}, ${amount.toString()})`.execute(
      db,
    );
    await sql`UPDATE work_report SET piece_rate = ${pieceRate.toString()}, wage_amount = ${amount.toString()},
                     posted_at = now() WHERE id = ${report.id}`.execute(db);
  } else {
    await sql`DELETE FROM piece_wage WHERE work_report_id = ${report.id}`.execute(db);
    await sql`UPDATE work_report SET piece_rate = NULL, wage_amount = NULL, posted_at = NULL, stock_inbound_id = NULL
               WHERE id = ${report.id}`.execute(db);
  }

  if (!next) await finishedGoods(db, report, user, sign, card.docNo);
}

async function stepOrder(db: Db, stepId: number) {
  const r = await sql<{
    orderStepId: number;
  }>`SELECT order_step_id FROM flow_card_step WHERE id = ${stepId}`.execute(db);
  return r.rows[0];
}

/** The last step's good pieces: the order's produced quantity and a posted 生产入库 (or its reversal). */
async function finishedGoods(
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

/** 审核: posts at once, or waits as 待检验 on a step flagged for inspection. */
const approve: TransitionHandlers = {
  async effect({ db, record, user }) {
    if (record.inspectionRequired) {
      await sql`UPDATE work_report SET status = 'inspecting' WHERE id = ${record.id}`.execute(db);
      return;
    }
    await post(db, record, user);
    await sql`UPDATE work_report SET status = 'posted' WHERE id = ${record.id}`.execute(db);
  },
};

export const workReportTransitions: Record<string, TransitionHandlers> = {
  approve,
  inspect: {
    async effect({ db, record, user }) {
      await post(db, record, user);
      await sql`UPDATE work_report SET status = 'posted' WHERE id = ${record.id}`.execute(db);
    },
  },
  unapprove: {
    async effect({ db, record, user }) {
      const full = await sql<{ stockInboundId: number | null }>`
        SELECT stock_inbound_id FROM work_report WHERE id = ${record.id}`.execute(db);
      if (record.status === 'posted') await unpost(db, { ...record, ...full.rows[0] }, user);
    },
  },
};

// ------------------------------------------------------------------ the operator's 报工

const field = (name: string) => {
  const f = workReportResource.fields.find((x) => x.name === name);
  if (!f) throw new Error(`work-report has no field ${name}`);
  return fieldSchema(f);
};

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
  assertInScope(user, workDispatchResource, 'report', d);
  if (!user.isAdmin && Number(d.operatorId) !== user.id) {
    throw badRequest(`派工单 ${d.docNo} 不是派给你的，请由本人报工`);
  }
  const as = { ...user, permissions: new Set([...user.permissions, `${workReportResource.permission}:add`]) };
  const id = await createRecord(
    { db, user: as, def: workReportResource },
    { ...body, dispatchId, reportDate: businessDay() },
    workReportHooks,
    requestId,
  );
  await runTransition(db, as, workReportResource, 'submit', id, {}, {}, requestId);
  return getRecord(db, workReportResource, id);
}

const semiPerms = WORKSHOP_KINDS.map((k) => `${workshopPermission(k, 'Semi')}:list` as Permission);

export function workReportRoutes(app: App) {
  registerLifecycle(app, workReportResource, workReportTransitions);
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/outsourced',
    permission: 'production:outsourcing:list',
    query: z.strictObject({
      state: z.enum(['waiting', 'out', 'done'], { error: '状态只能是：待发出、在外、已收回' }).optional(),
    }),
    handler: ({ query, app: { db } }) => outsourcedSteps(db, query.state),
  });
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
    url: '/api/v1/flow-card/outsource/:id',
    permission: 'production:outsourcing:edit',
    alsoAllowedBy: ['production:order:dispatch'],
    params: idParams,
    body: outsourceBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => outsourceStep(trx, user, params.id, body, req.id)),
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

// ------------------------------------------------------------------ 委外工序 on the card

export const outsourceBody = z.strictObject({
  action: z.enum(['send', 'return', 'reconcile'], { error: '操作只能是：发出、收回、差异核销' }),
  quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }).optional(),
  weight: fieldSchema({ name: 'weight', label: '重量(kg)', kind: 'decimal', scale: 3, min: 0 }).optional(),
  supplierId: z.coerce.number().int().positive().optional(),
  hardnessHrc: fieldSchema({
    name: 'hardnessHrc',
    label: '硬度(HRC)',
    kind: 'decimal',
    scale: 1,
    min: 0,
    max: 100,
  }).optional(),
});

/**
 * An outsourced step (热处理) on a card, at the card's current step: 发出 the pieces that arrived
 * (quantity, weight, supplier), 收回 what comes back (with the hardness found), the returned pieces
 * arriving at the next step, and 差异核销: what was sent and never came back is written off as
 * 料废, so the card can move on.
 */
export async function outsourceStep(
  db: Db,
  user: AuthUser,
  cardId: number,
  body: z.infer<typeof outsourceBody>,
  requestId?: string,
) {
  const { card, step } = await lockCardStep(db, cardId);
  if (!step.outsourced) throw conflict(`流转卡 ${card.docNo} 当前第 ${step.seq} 道工序不是委外工序`);
  const sent = new Decimal(step.sentQuantity ?? 0);
  const back = new Decimal(step.returnedQuantity ?? 0);
  const q = new Decimal((body.quantity as string | undefined) ?? 0);
  if (body.action !== 'reconcile' && q.lte(0)) throw fieldError('quantity', '请填写数量');
  if (body.action === 'send') {
    if (!body.supplierId && !step.supplierId) throw fieldError('supplierId', '请选择委外供应商');
    if (sent.plus(q).gt(step.inputQuantity)) {
      throw conflict(
        `流转卡 ${card.docNo} 本工序到达 ${qty(step.inputQuantity)}，已发出 ${qty(sent)}，最多还可发出 ${qty(new Decimal(step.inputQuantity).minus(sent))}`,
      );
    }
    await sql`
      UPDATE flow_card_step SET sent_quantity = ${sent.plus(q).toString()}::numeric,
             sent_weight = COALESCE(sent_weight, 0) + ${(body.weight as string | undefined) ?? '0'}::numeric,
             supplier_id = COALESCE(${body.supplierId ?? null}, supplier_id), in_time = COALESCE(in_time, now())
       WHERE id = ${step.id}`.execute(db);
  } else {
    const out = sent.minus(back).minus(step.materialScrapQuantity);
    const take = body.action === 'return' ? q : out;
    if (body.action === 'return' && q.gt(out)) {
      throw conflict(`流转卡 ${card.docNo} 在外 ${qty(out)}，不能收回 ${qty(q)}`);
    }
    if (body.action === 'reconcile' && out.lte(0)) throw conflict(`流转卡 ${card.docNo} 没有在外未回的数量`);
    await sql`
      UPDATE flow_card_step SET
             returned_quantity = COALESCE(returned_quantity, 0) + ${body.action === 'return' ? take.toString() : '0'}::numeric,
             good_quantity = good_quantity + ${body.action === 'return' ? take.toString() : '0'}::numeric,
             material_scrap_quantity = material_scrap_quantity + ${body.action === 'reconcile' ? take.toString() : '0'}::numeric,
             hardness_hrc = COALESCE(${(body.hardnessHrc as string | undefined) ?? null}::numeric, hardness_hrc),
             out_time = now()
       WHERE id = ${step.id}`.execute(db);
    if (body.action === 'return') {
      const next = await nextStep(db, cardId, step.seq);
      if (next) {
        await sql`UPDATE flow_card_step SET input_quantity = input_quantity + ${take.toString()}::numeric
                   WHERE id = ${next.id}`.execute(db);
      }
    }
  }
  await settleCard(db, cardId);
  await auditInsert(
    user,
    {
      entity: 'flow-card',
      entityId: cardId,
      action: `outsource-${body.action}`,
      after: { seq: step.seq, ...body },
    },
    requestId,
  ).execute(db);
  return { id: cardId, docNo: card.docNo, seq: step.seq };
}

/** 生产委外: the cards' outsourced steps that have pieces, by state (待发出, 在外, 已收回). */
export async function outsourcedSteps(db: Db, state?: string) {
  const waiting = sql`s.input_quantity > COALESCE(s.sent_quantity, 0)`;
  const out = sql`COALESCE(s.sent_quantity, 0) > COALESCE(s.returned_quantity, 0) + s.material_scrap_quantity`;
  const where =
    state === 'waiting'
      ? waiting
      : state === 'out'
        ? out
        : state === 'done'
          ? sql`NOT (${waiting}) AND NOT (${out})`
          : sql`true`;
  const r = await sql<Record<string, any>>`
    SELECT c.id AS card_id, c.doc_no AS card_no, c.status AS card_status, c.heat_no, o.doc_no AS order_no,
           m.name AS product_name, m.spec AS product_spec, s.seq, p.name AS process_name,
           s.input_quantity::text AS input_quantity, COALESCE(s.sent_quantity, 0)::text AS sent_quantity,
           s.sent_weight::text AS sent_weight, sp.name AS supplier_name, s.supplier_id,
           COALESCE(s.returned_quantity, 0)::text AS returned_quantity,
           s.material_scrap_quantity::text AS written_off, s.hardness_hrc::text AS hardness_hrc, s.in_time, s.out_time,
           CASE WHEN ${waiting} THEN 'waiting' WHEN ${out} THEN 'out' ELSE 'done' END AS state,
           (c.current_seq = s.seq AND c.status = 'open') AS current
      FROM flow_card_step s
      JOIN flow_card c ON c.id = s.flow_card_id
      JOIN production_order o ON o.id = c.production_order_id
      JOIN material m ON m.id = c.product_id
      JOIN process p ON p.id = s.process_id
      LEFT JOIN supplier sp ON sp.id = s.supplier_id
     WHERE s.outsourced AND s.input_quantity > 0 AND ${where}
     ORDER BY s.in_time DESC NULLS FIRST, c.doc_no
     LIMIT 1000`.execute(db);
  return { list: r.rows };
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
           (nxt.input_quantity - nxt.good_quantity - nxt.work_scrap_quantity - nxt.material_scrap_quantity
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
       AND nxt.input_quantity - nxt.good_quantity - nxt.work_scrap_quantity - nxt.material_scrap_quantity
             - COALESCE(nxt.sent_quantity, 0) + COALESCE(nxt.returned_quantity, 0) > 0
     ORDER BY prev.out_time NULLS LAST, c.doc_no
     LIMIT 2000`.execute(db);
  return { list: r.rows };
}
