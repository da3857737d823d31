import { outsourcingOrderResource, stockInboundResource, stockOutboundResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { makeSerializer } from '../../platform/http/serialize.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { once, withRetry } from '../../platform/idempotency.ts';
import { businessDay } from '../../platform/numbering.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { runTransition } from '../../platform/resource/lifecycle.ts';
import { assertPrecision } from '../../platform/resource/precision.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { qty } from '../orders/order-lines.ts';
import { outsourcingOrderHooks, outsourcingOrderTransitions } from '../purchase/outsourcing-order.ts';
import {
  DOC_HOOKS,
  guardReversal,
  postDocumentByName,
  reverseDocumentByName,
} from '../warehouse/documents.ts';
import { type CardStep, lockCardStep } from './flow-card.ts';
import { shopFloorEvents } from './inspection-events.ts';
import { taken } from './pieces.ts';
import { refreshFlowCardSummary } from './report-rollup.ts';
import { nextStep, settleCard } from './work-report.ts';

/**
 * 生产委外: an outsourced step (热处理) on a flow card, done through purchasing's documents.
 *  - 发出 makes (or attaches to) a 委外订单 line of the supplier, the step's process and the card's
 *    product, and posts a 委外发料出库 against it;
 *  - 收回 posts a 委外入库 against the order lines the card was sent on (the payable of the
 *    processing fee follows from that posting) and the pieces arrive at the card's next step;
 *  - 差异核销 writes what is still out off as 料废; an order made by the card is then closed;
 *  - 撤销 takes the card's last 发出 or 收回 back, reversing its document.
 * Each runs in one transaction under the card's and its step's row locks (the order and its lines
 * are locked by the documents' posting), and `flow_card_outsourcing` keeps every move with its
 * order line and document. The card's pieces are process state, not stock: the documents are
 * posted line-side (no ledger rows) into the semi-finished store they name, and are reversed only
 * through the card.
 */

export const outsourceBody = z.strictObject({
  action: z.enum(['send', 'return', 'reconcile', 'undo'], {
    error: '操作只能是：发出、收回、差异核销、撤销',
  }),
  quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }).optional(),
  weight: fieldSchema({ name: 'weight', label: '重量(kg)', kind: 'decimal', scale: 3, min: 0 }).optional(),
  supplierId: zx.id.optional(),
  hardnessHrc: fieldSchema({
    name: 'hardnessHrc',
    label: '硬度(HRC)',
    kind: 'decimal',
    scale: 1,
    min: 0,
    max: 100,
  }).optional(),
  /** 发出 onto this approved 委外订单 (a line of the card's product with enough left to send). */
  outsourcingOrderId: zx.id.optional(),
  /** 发出 on a new order: the processing price per piece; without it, the supplier's last price. */
  unitPrice: fieldSchema({ name: 'unitPrice', label: '加工单价', kind: 'price', min: 0 }).optional(),
});
type Body = Pick<z.infer<typeof outsourceBody>, 'action' | 'supplierId' | 'outsourcingOrderId'> & {
  quantity?: string;
  weight?: string;
  hardnessHrc?: string;
  unitPrice?: string;
};

/** The documents are made in the command's name, whoever's 生产委外 permission ran it. */
const PERMISSIONS = [
  'purchase:outsourcing:add',
  'purchase:outsourcing:approve',
  'purchase:outsourcing:close',
  'warehouse:outbound:add',
  'warehouse:inbound:add',
];
const asSystem = (user: AuthUser): AuthUser => ({
  ...user,
  permissions: new Set([...user.permissions, ...PERMISSIONS]),
});

interface Movement {
  id: number;
  flowCardStepId: number;
  action: 'send' | 'return' | 'write-off';
  outsourcingOrderId: number;
  outsourcingOrderLineId: number;
  orderCreated: boolean;
  stockOutboundId: number | null;
  stockInboundId: number | null;
  quantity: string;
  weight: string | null;
}

async function movements(db: Db, stepId: number): Promise<Movement[]> {
  const r = await sql<Movement>`
    SELECT id, flow_card_step_id, action, outsourcing_order_id, outsourcing_order_line_id, order_created,
           stock_outbound_id, stock_inbound_id, quantity::text AS quantity, weight::text AS weight
      FROM flow_card_outsourcing WHERE flow_card_step_id = ${stepId} AND reversed_at IS NULL ORDER BY id`.execute(
    db,
  );
  return r.rows.map((m) => ({ ...m, id: Number(m.id) }));
}

/** What is still out on each order line the step was sent on (sent − returned − written off), in send order. */
function outByLine(ms: Movement[]) {
  const lines = new Map<number, { orderId: number; lineId: number; created: boolean; out: Decimal }>();
  for (const m of ms) {
    const key = Number(m.outsourcingOrderLineId);
    const l = lines.get(key) ?? {
      orderId: Number(m.outsourcingOrderId),
      lineId: key,
      created: false,
      out: new Decimal(0),
    };
    l.created ||= m.orderCreated;
    l.out = m.action === 'send' ? l.out.plus(m.quantity) : l.out.minus(m.quantity);
    lines.set(key, l);
  }
  return [...lines.values()];
}

/** The semi-finished store the card's documents name (nothing moves in it: they post line-side). */
async function semiStore(db: Db): Promise<number> {
  const r = await sql<{ id: number }>`
    SELECT id FROM warehouse WHERE status = '1' AND type = 'semi' ORDER BY code LIMIT 1`.execute(db);
  if (!r.rows[0]) throw conflict('没有启用的半成品仓，不能生成委外发料和委外入库单，请在仓库建模中设置');
  return Number(r.rows[0].id);
}

interface Card {
  id: number;
  docNo: string;
  productionOrderId: number;
  productId: number;
}

async function record(
  db: Db,
  user: AuthUser,
  card: Card,
  step: CardStep,
  m: Omit<Movement, 'id' | 'flowCardStepId'> & { hardnessHrc?: string | null },
) {
  await sql`
    INSERT INTO flow_card_outsourcing (flow_card_id, flow_card_step_id, action, outsourcing_order_id,
                                       outsourcing_order_line_id, order_created, stock_outbound_id, stock_inbound_id,
                                       quantity, weight, hardness_hrc, created_by)
    VALUES (${card.id}, ${step.id}, ${m.action}, ${m.outsourcingOrderId}, ${m.outsourcingOrderLineId},
            ${m.orderCreated}, ${m.stockOutboundId}, ${m.stockInboundId}, ${m.quantity}, ${m.weight},
            ${m.hardnessHrc ?? null}, ${user.id})`.execute(db);
}

/** The order line a 发出 goes on: the named order's line of the product, or a new approved order. */
async function orderLineFor(
  db: Db,
  user: AuthUser,
  card: Card,
  step: CardStep,
  supplierId: number,
  q: Decimal,
  body: Body,
  requestId?: string,
) {
  if (body.outsourcingOrderId) {
    const o = (
      await sql<{ id: number; docNo: string; status: string; supplierId: number; processId: number }>`
        SELECT id, doc_no, status, supplier_id, process_id FROM outsourcing_order
         WHERE id = ${body.outsourcingOrderId} FOR UPDATE`.execute(db)
    ).rows[0];
    if (!o) throw fieldError('outsourcingOrderId', '所选委外订单不存在或已被删除');
    if (!['approved', 'partly-received'].includes(o.status)) {
      throw conflict(`委外订单 ${o.docNo} 不是已审核或部分收回的订单，不能发出`);
    }
    if (Number(o.supplierId) !== supplierId) {
      throw fieldError('outsourcingOrderId', `委外订单 ${o.docNo} 的加工供应商与所选供应商不一致`);
    }
    if (Number(o.processId) !== Number(step.processId)) {
      throw fieldError('outsourcingOrderId', `委外订单 ${o.docNo} 的委外工序与本工序不一致`);
    }
    const line = (
      await sql<{ id: number; open: string }>`
        SELECT id, (base_quantity - sent_quantity)::text AS open FROM outsourcing_order_line
         WHERE outsourcing_order_id = ${o.id} AND material_id = ${card.productId}
         ORDER BY (base_quantity - sent_quantity >= ${q.toString()}::numeric) DESC, id LIMIT 1`.execute(db)
    ).rows[0];
    if (!line) throw fieldError('outsourcingOrderId', `委外订单 ${o.docNo} 没有本卡产品的明细`);
    if (new Decimal(line.open).lt(q)) {
      throw conflict(`委外订单 ${o.docNo} 本产品还可发 ${qty(line.open)}，不够本次发出 ${qty(q)}`);
    }
    return { orderId: Number(o.id), lineId: Number(line.id), created: false };
  }
  const as = asSystem(user);
  const today = businessDay();
  const id = await createRecord(
    { db, user: as, def: outsourcingOrderResource },
    {
      supplierId,
      processId: step.processId,
      productionOrderId: card.productionOrderId,
      orderDate: today,
      deliveryDate: today,
      remark: `流转卡 ${card.docNo} 第 ${step.seq} 道工序委外`,
      lines: [
        {
          materialId: card.productId,
          quantity: q.toString(),
          unitPrice: body.unitPrice,
          weight: body.weight,
        },
      ],
    },
    outsourcingOrderHooks,
    requestId,
  ).catch((e) => {
    // The order's own field errors name its lines; here they are the 发出's price.
    if (e?.errors?.some?.((d: any) => /unitPrice/.test(d.field))) {
      throw fieldError('unitPrice', '该供应商没有本产品的历史加工单价，请填写加工单价');
    }
    throw e;
  });
  await runTransition(
    db,
    as,
    outsourcingOrderResource,
    'approve',
    id,
    {},
    outsourcingOrderTransitions.approve,
    requestId,
  );
  const line = (
    await sql<{
      id: number;
    }>`SELECT id FROM outsourcing_order_line WHERE outsourcing_order_id = ${id}`.execute(db)
  ).rows[0];
  return { orderId: id, lineId: Number(line.id), created: true };
}

/** A posted line-side 委外发料出库 (send) or 委外入库 (return) of `q` pieces on an order line. */
async function postDocument(
  db: Db,
  user: AuthUser,
  kind: 'stock-outbound' | 'stock-inbound',
  card: Card,
  step: CardStep,
  orderId: number,
  lineId: number,
  q: Decimal,
  requestId?: string,
) {
  const def = kind === 'stock-inbound' ? stockInboundResource : stockOutboundResource;
  const id = await createRecord(
    { db, user: asSystem(user), def },
    {
      type: kind === 'stock-inbound' ? 'outsourced' : 'outsourcing',
      warehouseId: await semiStore(db),
      bizDate: businessDay(),
      outsourcingOrderId: orderId,
      remark: `流转卡 ${card.docNo} 第 ${step.seq} 道工序${kind === 'stock-inbound' ? '收回' : '发出'}（直送产线，不经仓库）`,
      lines: [
        {
          materialId: card.productId,
          quantity: q.toString(),
          sourceLineId: lineId,
          batchNo: card.docNo,
          qualityStatus: 'qualified',
        },
      ],
    },
    DOC_HOOKS[kind],
    requestId,
  );
  await postDocumentByName(db, kind, id, user, { lineSide: true });
  return id;
}

async function send(db: Db, user: AuthUser, card: Card, step: CardStep, body: Body, requestId?: string) {
  const q = new Decimal(body.quantity ?? 0);
  if (q.lte(0)) throw fieldError('quantity', '请填写数量');
  const sent = new Decimal(step.sentQuantity ?? 0);
  const supplierId = body.supplierId ?? (step.supplierId != null ? Number(step.supplierId) : undefined);
  if (!supplierId) throw fieldError('supplierId', '请选择委外供应商');
  if (step.supplierId != null && sent.gt(0) && Number(step.supplierId) !== supplierId) {
    throw conflict(`流转卡 ${card.docNo} 本工序已发往其他供应商，不能再发往另一家`);
  }
  if (sent.plus(q).gt(step.inputQuantity)) {
    throw conflict(
      `流转卡 ${card.docNo} 本工序到达 ${qty(step.inputQuantity)}，已发出 ${qty(sent)}，最多还可发出 ${qty(new Decimal(step.inputQuantity).minus(sent))}`,
    );
  }
  const line = await orderLineFor(db, user, card, step, supplierId, q, body, requestId);
  const outbound = await postDocument(
    db,
    user,
    'stock-outbound',
    card,
    step,
    line.orderId,
    line.lineId,
    q,
    requestId,
  );
  await record(db, user, card, step, {
    action: 'send',
    outsourcingOrderId: line.orderId,
    outsourcingOrderLineId: line.lineId,
    orderCreated: line.created,
    stockOutboundId: outbound,
    stockInboundId: null,
    quantity: q.toString(),
    weight: body.weight ?? null,
  });
  await sql`
    UPDATE flow_card_step SET sent_quantity = ${sent.plus(q).toString()}::numeric,
           sent_weight = COALESCE(sent_weight, 0) + ${body.weight ?? '0'}::numeric,
           supplier_id = ${supplierId}, in_time = COALESCE(in_time, now())
     WHERE id = ${step.id}`.execute(db);
}

/** 收回: 委外入库 on the lines still out, in the order they were sent on. */
async function receive(db: Db, user: AuthUser, card: Card, step: CardStep, body: Body, requestId?: string) {
  const q = new Decimal(body.quantity ?? 0);
  if (q.lte(0)) throw fieldError('quantity', '请填写数量');
  const out = new Decimal(step.sentQuantity ?? 0)
    .minus(step.returnedQuantity ?? 0)
    .minus(step.materialScrapQuantity);
  if (q.gt(out)) throw conflict(`流转卡 ${card.docNo} 在外 ${qty(out)}，不能收回 ${qty(q)}`);
  let left = q;
  const lines = outByLine(await movements(db, step.id)).filter((l) => l.out.gt(0));
  for (const [i, l] of lines.entries()) {
    if (left.lte(0)) break;
    const take = i === lines.length - 1 ? left : Decimal.min(left, l.out);
    // The weight goes with the first document (it is weighed once, for the whole 收回).
    const inbound = await postDocument(
      db,
      user,
      'stock-inbound',
      card,
      step,
      l.orderId,
      l.lineId,
      take,
      requestId,
    );
    await record(db, user, card, step, {
      action: 'return',
      outsourcingOrderId: l.orderId,
      outsourcingOrderLineId: l.lineId,
      orderCreated: false,
      stockOutboundId: null,
      stockInboundId: inbound,
      quantity: take.toString(),
      weight: left.eq(q) ? (body.weight ?? null) : null,
      hardnessHrc: body.hardnessHrc ?? null,
    });
    left = left.minus(take);
  }
  if (left.gt(0)) throw conflict(`流转卡 ${card.docNo} 的委外发出记录不完整，不能收回`);
  await sql`
    UPDATE flow_card_step SET returned_quantity = COALESCE(returned_quantity, 0) + ${q.toString()}::numeric,
           good_quantity = good_quantity + ${q.toString()}::numeric,
           hardness_hrc = COALESCE(${body.hardnessHrc ?? null}::numeric, hardness_hrc), out_time = now()
     WHERE id = ${step.id}`.execute(db);
  const next = await nextStep(db, card.id, step.seq);
  if (next) {
    await sql`UPDATE flow_card_step SET input_quantity = input_quantity + ${q.toString()}::numeric
               WHERE id = ${next.id}`.execute(db);
    await shopFloorEvents.cardArrived.emit(db, user, card.id, step.seq);
  }
}

/** 差异核销: what is out becomes 料废; an order the card made (not a buyer's) is closed. */
async function reconcile(db: Db, user: AuthUser, card: Card, step: CardStep, requestId?: string) {
  const out = new Decimal(step.sentQuantity ?? 0)
    .minus(step.returnedQuantity ?? 0)
    .minus(step.materialScrapQuantity);
  if (out.lte(0)) throw conflict(`流转卡 ${card.docNo} 没有在外未回的数量`);
  for (const l of outByLine(await movements(db, step.id)).filter((x) => x.out.gt(0))) {
    await record(db, user, card, step, {
      action: 'write-off',
      outsourcingOrderId: l.orderId,
      outsourcingOrderLineId: l.lineId,
      orderCreated: false,
      stockOutboundId: null,
      stockInboundId: null,
      quantity: l.out.toString(),
      weight: null,
    });
    if (l.created) {
      await runTransition(
        db,
        asSystem(user),
        outsourcingOrderResource,
        'close',
        l.orderId,
        { reason: `流转卡 ${card.docNo} 差异核销 ${qty(l.out)}` },
        outsourcingOrderTransitions.close,
        requestId,
      );
    }
  }
  await sql`
    UPDATE flow_card_step SET material_scrap_quantity = material_scrap_quantity + ${out.toString()}::numeric,
           out_time = now()
     WHERE id = ${step.id}`.execute(db);
}

/**
 * 撤销: the card's last 发出 or 收回 (of any of its outsourced steps), with its document reversed.
 * A 收回 is refused once the next step has used the pieces; a 差异核销 is final.
 */
async function undo(db: Db, user: AuthUser, cardId: number, requestId?: string) {
  const last = (
    await sql<Movement & { seq: number }>`
      SELECT m.id, m.action, m.outsourcing_order_id, m.outsourcing_order_line_id, m.order_created,
             m.stock_outbound_id, m.stock_inbound_id, m.quantity::text AS quantity, m.weight::text AS weight, s.seq
        FROM flow_card_outsourcing m JOIN flow_card_step s ON s.id = m.flow_card_step_id
       WHERE m.flow_card_id = ${cardId} AND m.reversed_at IS NULL ORDER BY m.id DESC LIMIT 1`.execute(db)
  ).rows[0];
  const { card, step } = await lockCardStep(db, cardId, last ? { seq: last.seq } : {});
  if (!last) throw conflict(`流转卡 ${card.docNo} 没有可撤销的委外发出或收回`);
  if (last.action === 'write-off') throw conflict(`流转卡 ${card.docNo} 最近一次是差异核销，核销后不能撤销`);
  const q = new Decimal(last.quantity);
  if (last.action === 'send') {
    const sent = new Decimal(step.sentQuantity ?? 0).minus(q);
    if (sent.lt(new Decimal(step.returnedQuantity ?? 0).plus(step.materialScrapQuantity))) {
      throw conflict(`流转卡 ${card.docNo} 已收回或核销，不能撤销发出`);
    }
    await reverseDocumentByName(db, 'stock-outbound', Number(last.stockOutboundId), user, { owner: true });
    await sql`
      UPDATE flow_card_step SET sent_quantity = ${sent.toString()}::numeric,
             sent_weight = greatest(COALESCE(sent_weight, 0) - ${last.weight ?? '0'}::numeric, 0),
             supplier_id = CASE WHEN ${sent.toString()}::numeric > 0 THEN supplier_id END,
             in_time = CASE WHEN ${sent.toString()}::numeric > 0 OR good_quantity > 0 THEN in_time END
       WHERE id = ${step.id}`.execute(db);
    if (last.orderCreated) {
      await runTransition(
        db,
        asSystem(user),
        outsourcingOrderResource,
        'close',
        Number(last.outsourcingOrderId),
        { reason: `流转卡 ${card.docNo} 撤销发出` },
        outsourcingOrderTransitions.close,
        requestId,
      );
    }
  } else {
    const next = await nextStep(db, card.id, step.seq);
    if (next) {
      const used = (
        await sql<{ used: string }>`
          SELECT greatest(
                   ${taken('s')},
                   COALESCE(s.sent_quantity, 0),
                   (SELECT COALESCE(sum(${taken('r')}), 0)
                      FROM work_report r WHERE r.flow_card_id = ${card.id} AND r.order_step_id = s.order_step_id))::text AS used
            FROM flow_card_step s WHERE s.id = ${next.id}`.execute(db)
      ).rows[0].used;
      if (new Decimal(next.inputQuantity).minus(q).lt(used)) {
        throw conflict(`流转卡 ${card.docNo} 收回的件已在下道工序报工或发出，不能撤销收回`);
      }
      await sql`UPDATE flow_card_step SET input_quantity = input_quantity - ${q.toString()}::numeric
                 WHERE id = ${next.id}`.execute(db);
      await shopFloorEvents.cardArrived.emit(db, user, card.id, step.seq);
    }
    await reverseDocumentByName(db, 'stock-inbound', Number(last.stockInboundId), user, { owner: true });
  }
  await sql`UPDATE flow_card_outsourcing SET reversed_at = now(), reversed_by = ${user.id} WHERE id = ${last.id}`.execute(
    db,
  );
  if (last.action === 'return') {
    // The hardness shown is the last 收回's still standing.
    await sql`
      UPDATE flow_card_step SET returned_quantity = returned_quantity - ${q.toString()}::numeric,
             good_quantity = good_quantity - ${q.toString()}::numeric,
             hardness_hrc = (SELECT hardness_hrc FROM flow_card_outsourcing
                              WHERE flow_card_step_id = ${step.id} AND action = 'return' AND reversed_at IS NULL
                              ORDER BY id DESC LIMIT 1)
       WHERE id = ${step.id}`.execute(db);
  }
  return { card, step, action: last.action };
}

/**
 * One 生产委外 action on a card, at its current step (撤销: at the step of the card's last move).
 * Answers the card, the step and the documents the action posted or reversed.
 */
export async function outsourceStep(db: Db, user: AuthUser, cardId: number, body: Body, requestId?: string) {
  let card: Card;
  let step: CardStep;
  if (body.action === 'undo') {
    ({ card, step } = await undo(db, user, cardId, requestId));
  } else {
    ({ card, step } = await lockCardStep(db, cardId));
    if (!step.outsourced) throw conflict(`流转卡 ${card.docNo} 当前第 ${step.seq} 道工序不是委外工序`);
    // The pieces sent and received are the card's product, counted in its unit (no 10.5 件).
    if (body.quantity != null)
      await assertPrecision(db, [
        { field: 'quantity', label: '数量', quantity: body.quantity, materialId: card.productId },
      ]);
    if (body.action === 'send') await send(db, user, card, step, body, requestId);
    else if (body.action === 'return') await receive(db, user, card, step, body, requestId);
    else await reconcile(db, user, card, step, requestId);
  }
  await settleCard(db, cardId);
  await refreshFlowCardSummary(db, [cardId]);
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
  return { id: cardId, docNo: card.docNo, seq: step.seq, stepId: Number(step.id) };
}

// ------------------------------------------------------------------ reads

const STATE = {
  waiting: sql`s.input_quantity > COALESCE(s.sent_quantity, 0)`,
  out: sql`COALESCE(s.sent_quantity, 0) > COALESCE(s.returned_quantity, 0) + s.material_scrap_quantity`,
};

/** 生产委外: the cards' outsourced steps that have pieces, by state (待发出, 在外, 已收回). */
export async function outsourcedSteps(db: Db, state?: string) {
  const { waiting, out } = STATE;
  const where =
    state === 'waiting'
      ? waiting
      : state === 'out'
        ? out
        : state === 'done'
          ? sql`NOT (${waiting}) AND NOT (${out})`
          : sql`true`;
  const r = await sql<Record<string, any>>`
    SELECT s.id AS step_id, c.id AS card_id, c.doc_no AS card_no, c.status AS card_status, c.heat_no,
           o.doc_no AS order_no, c.product_id, m.name AS product_name, m.spec AS product_spec, s.seq, p.name AS process_name,
           s.input_quantity::text AS input_quantity, COALESCE(s.sent_quantity, 0)::text AS sent_quantity,
           s.sent_weight::text AS sent_weight, sp.name AS supplier_name, s.supplier_id,
           COALESCE(s.returned_quantity, 0)::text AS returned_quantity,
           s.material_scrap_quantity::text AS written_off, s.hardness_hrc::text AS hardness_hrc, s.in_time, s.out_time,
           CASE WHEN ${waiting} THEN 'waiting' WHEN ${out} THEN 'out' ELSE 'done' END AS state,
           (c.current_seq = s.seq AND c.status = 'open') AS current,
           (SELECT string_agg(DISTINCT w.doc_no, '、') FROM flow_card_outsourcing x
              JOIN outsourcing_order w ON w.id = x.outsourcing_order_id
             WHERE x.flow_card_step_id = s.id AND x.reversed_at IS NULL) AS outsourcing_order_no
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

/**
 * 生产委外详情 of a card's outsourced step: the step, its 委外订单 lines, and every move with its
 * 委外发料出库 / 委外入库 (and the payable the 委外入库 made), undone ones included.
 */
export async function outsourcingInfo(db: Db, stepId: number) {
  const { waiting, out } = STATE;
  const head = (
    await sql<Record<string, any>>`
      SELECT s.id AS step_id, s.seq, s.outsourced, p.name AS process_name, c.id AS card_id, c.doc_no AS card_no,
             c.status AS card_status, c.heat_no, c.quantity::text AS card_quantity, c.current_seq,
             o.id AS production_order_id, o.doc_no AS production_order_no,
             m.id AS product_id, m.code AS product_code, m.name AS product_name, m.spec AS product_spec,
             s.supplier_id, sp.name AS supplier_name, s.input_quantity::text AS input_quantity,
             COALESCE(s.sent_quantity, 0)::text AS sent_quantity, COALESCE(s.sent_weight, 0)::text AS sent_weight,
             COALESCE(s.returned_quantity, 0)::text AS returned_quantity,
             (SELECT COALESCE(sum(x.weight), 0) FROM flow_card_outsourcing x
               WHERE x.flow_card_step_id = s.id AND x.action = 'return' AND x.reversed_at IS NULL)::text AS returned_weight,
             s.material_scrap_quantity::text AS written_off,
             (COALESCE(s.sent_quantity, 0) - COALESCE(s.returned_quantity, 0) - s.material_scrap_quantity)::text AS out_quantity,
             (COALESCE(s.sent_quantity, 0) - COALESCE(s.returned_quantity, 0))::text AS difference,
             s.hardness_hrc::text AS hardness_hrc, s.in_time, s.out_time,
             CASE WHEN ${waiting} THEN 'waiting' WHEN ${out} THEN 'out' ELSE 'done' END AS state,
             (c.current_seq = s.seq AND c.status = 'open') AS current
        FROM flow_card_step s
        JOIN flow_card c ON c.id = s.flow_card_id
        JOIN production_order o ON o.id = c.production_order_id
        JOIN material m ON m.id = c.product_id
        JOIN process p ON p.id = s.process_id
        LEFT JOIN supplier sp ON sp.id = s.supplier_id
       WHERE s.id = ${stepId}`.execute(db)
  ).rows[0];
  if (!head?.outsourced) throw notFound('委外工序不存在或已被删除');
  const orders = await sql<Record<string, any>>`
    SELECT DISTINCT ON (l.id) w.id, w.doc_no, w.status, w.order_date, sp.name AS supplier_name, l.id AS line_id,
           l.base_quantity::text AS quantity, l.unit_price::text AS unit_price, l.amount::text AS amount,
           l.sent_quantity::text AS sent_quantity, l.sent_weight::text AS sent_weight,
           l.received_quantity::text AS received_quantity, l.received_weight::text AS received_weight,
           x.order_created
      FROM flow_card_outsourcing x
      JOIN outsourcing_order w ON w.id = x.outsourcing_order_id
      JOIN outsourcing_order_line l ON l.id = x.outsourcing_order_line_id
      JOIN supplier sp ON sp.id = w.supplier_id
     WHERE x.flow_card_step_id = ${stepId}
     ORDER BY l.id, x.order_created DESC`.execute(db);
  const moves = await sql<Record<string, any>>`
    SELECT x.id, x.action, x.quantity::text AS quantity, x.weight::text AS weight, x.hardness_hrc::text AS hardness_hrc,
           x.outsourcing_order_id, w.doc_no AS outsourcing_order_no, x.order_created,
           x.stock_outbound_id, ob.doc_no AS stock_outbound_no, ob.status AS stock_outbound_status,
           x.stock_inbound_id, ib.doc_no AS stock_inbound_no, ib.status AS stock_inbound_status,
           py.id AS payable_id, py.doc_no AS payable_no, py.amount::text AS payable_amount, py.status AS payable_status,
           x.created_at, cu.first_name AS created_by_name, x.reversed_at, ru.first_name AS reversed_by_name
      FROM flow_card_outsourcing x
      JOIN outsourcing_order w ON w.id = x.outsourcing_order_id
      LEFT JOIN stock_outbound ob ON ob.id = x.stock_outbound_id
      LEFT JOIN stock_inbound ib ON ib.id = x.stock_inbound_id
      LEFT JOIN LATERAL (SELECT id, doc_no, amount, status FROM payable
                          WHERE source_doc_type = 'stock-inbound' AND source_doc_id = x.stock_inbound_id
                          ORDER BY id LIMIT 1) py ON true
      LEFT JOIN app_user cu ON cu.id = x.created_by
      LEFT JOIN app_user ru ON ru.id = x.reversed_by
     WHERE x.flow_card_step_id = ${stepId}
     ORDER BY x.id`.execute(db);
  return { ...head, orders: orders.rows, movements: moves.rows };
}

/** Open 委外订单 a 发出 may attach to: the supplier's, for the process, with the product still to send. */
async function openOrders(db: Db, stepId: number, supplierId?: number) {
  const r = await sql<Record<string, any>>`
    SELECT w.id, w.doc_no, w.supplier_id, sp.name AS supplier_name, w.order_date,
           sum(l.base_quantity - l.sent_quantity)::text AS open_quantity
      FROM flow_card_step s
      JOIN flow_card c ON c.id = s.flow_card_id
      JOIN outsourcing_order w ON w.process_id = s.process_id AND w.status IN ('approved', 'partly-received')
      JOIN outsourcing_order_line l ON l.outsourcing_order_id = w.id AND l.material_id = c.product_id
      JOIN supplier sp ON sp.id = w.supplier_id
     WHERE s.id = ${stepId} AND (${supplierId ?? null}::bigint IS NULL OR w.supplier_id = ${supplierId ?? null})
     GROUP BY w.id, sp.name
    HAVING sum(l.base_quantity - l.sent_quantity) > 0
     ORDER BY w.doc_no DESC LIMIT 50`.execute(db);
  return { list: r.rows };
}

// ------------------------------------------------------------------ routes

/** Documents a card posted are reversed through the card (撤销), never alone from the warehouse. */
guardReversal(async (db, docType, id) => {
  const column = docType === 'stock-inbound' ? sql`stock_inbound_id` : sql`stock_outbound_id`;
  if (docType !== 'stock-inbound' && docType !== 'stock-outbound') return;
  const r = await sql<{ docNo: string }>`
    SELECT c.doc_no FROM flow_card_outsourcing x JOIN flow_card c ON c.id = x.flow_card_id
     WHERE ${column} = ${id} LIMIT 1`.execute(db);
  if (r.rows[0]) {
    throw conflict(`该单据由流转卡 ${r.rows[0].docNo} 的委外工序生成，请在生产委外详情中撤销`);
  }
});

export function produceOutsourcingRoutes(app: App) {
  const serialize = makeSerializer(app.ringmes.config.timeZone);
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
    url: '/api/v1/flow-card/outsourced-info/:id',
    permission: 'production:outsourcing:list',
    params: idParams,
    handler: ({ params, app: { db } }) => outsourcingInfo(db, params.id),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/outsourcing-orders/:id',
    permission: 'production:outsourcing:edit',
    alsoAllowedBy: ['production:order:dispatch'],
    params: idParams,
    query: z.strictObject({ supplierId: zx.id.optional() }),
    handler: ({ params, query, app: { db } }) => openOrders(db, params.id, query.supplierId),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/flow-card/outsource/:id',
    permission: 'production:outsourcing:edit',
    alsoAllowedBy: ['production:order:dispatch'],
    params: idParams,
    body: outsourceBody,
    handler: ({ params, body, user, req, app: { db } }) => {
      const key = req.headers['idempotency-key'];
      return withRetry(() =>
        db
          .transaction()
          .execute((trx) =>
            once(
              trx,
              `flow-card:outsource:${params.id}`,
              typeof key === 'string' ? key : undefined,
              serialize,
              () => outsourceStep(trx, user, params.id, body as Body, req.id),
            ),
          ),
      );
    },
  });
}
