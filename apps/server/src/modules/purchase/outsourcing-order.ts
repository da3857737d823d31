import {
  OUTSOURCING_ORDER_LIFECYCLE,
  outsourcingOrderResource,
  QUALITY_STATUS,
  stockInboundResource,
  stockOutboundResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { createRecord, getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { answerRowSchema, fieldSchema } from '../../platform/resource/schema.ts';
import {
  assertNoStockDocuments,
  type OrderPricing,
  percentSetting,
  priceOrder,
  qty,
  validateOrder,
} from '../orders/order-lines.ts';
import { DOC_HOOKS } from '../warehouse/documents.ts';
import { registerStockSource, type SourceMove, type StockKind } from '../warehouse/sources.ts';

/**
 * 委外订单 (WW…): material sent to a supplier for one process (热处理 as a rule) at a processing
 * price. 委外发料出库 sends it, 委外入库 takes it back, 委外退货出库 returns received pieces to the
 * supplier. Each order line tracks sent, received and returned quantities (base unit) and their
 * weight (kg), moved under the order's and its lines' row locks when those documents post or are
 * reversed: sent ≤ ordered, received − returned ≤ sent (plus the purchase over-receipt allowance),
 * returned ≤ received.
 */

/** Processing prices: the supplier's last price for the material; no material fallback. */
const PRICING: OrderPricing = {
  table: 'outsourcing_order',
  lineTable: 'outsourcing_order_line',
  parentColumn: 'outsourcing_order_id',
  partyColumn: 'supplier_id',
  fallbackColumn: null,
  noPrice: '该物料没有该供应商的历史加工单价，请填写加工单价',
};

/**
 * A line's weight when not typed: the quantity itself when the line or the material counts in kg,
 * else the base quantity through the material's kilogram conversion (its unit weight, exactly:
 * 300 件 at 0.35 kg = 1 件 weigh 105 kg). Lines of neither keep no weight (their weights stay 0).
 */
async function fillWeights(db: Db, id: number) {
  await sql`
    UPDATE outsourcing_order_line l SET weight = CASE
        WHEN is_kilogram(u.code, u.name) THEN round(l.base_quantity, 4)
        WHEN EXISTS (SELECT 1 FROM material_unit lu WHERE lu.id = l.unit_id AND is_kilogram(lu.code, lu.name))
          THEN round(l.quantity, 4)
        ELSE (SELECT round_ratio(l.base_quantity * c.unit_quantity, c.base_quantity, 4)
                FROM material_unit_conversion c JOIN material_unit k ON k.id = c.unit_id
               WHERE c.material_id = m.id AND is_kilogram(k.code, k.name) ORDER BY c.line_no LIMIT 1) END
      FROM material m LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE l.outsourcing_order_id = ${id} AND m.id = l.material_id AND l.weight IS NULL`.execute(db);
}

export const outsourcingOrderHooks: ResourceHooks = lifecycleHooks(outsourcingOrderResource, {
  async prepare({ user }, data) {
    return {
      buyerId: data.buyerId ?? user.id,
    };
  },
  async validate({ db }, data) {
    await validateOrder(db, data);
  },
  async afterSave({ db }, id) {
    await priceOrder(db, PRICING, id);
    await fillWeights(db, id);
  },
});

export const outsourcingOrderTransitions: Record<string, TransitionHandlers> = {
  approve: {
    async effect({ db, record, user }) {
      await sql`UPDATE outsourcing_order SET approved_at = now(), approved_by_id = ${user.id} WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
  unapprove: {
    guard: ({ db, record }) => assertNoStockDocuments(db, 'outsourcing_order_id', record.id),
    async effect({ db, record }) {
      await sql`UPDATE outsourcing_order SET approved_at = NULL, approved_by_id = NULL WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
};

// ------------------------------------------------------------------ sending, receiving, returns

/** States in which material can be sent out and received back. */
const OPEN = ['approved', 'partly-received'];
const STATE_TEXT = Object.fromEntries(OUTSOURCING_ORDER_LIFECYCLE.states.map((s) => [s.value, s.label]));
/** The over-receipt allowance of purchasing (采购超收比例) also bounds receiving back. */
const OVER_RECEIVE = 'purchase.overReceivePercent';

type Operation = 'send' | 'receive' | 'return';
/** The stock document type of each operation, and back. */
const TYPES: Record<Operation, { kind: StockKind; type: string; verb: string }> = {
  send: { kind: 'outbound', type: 'outsourcing', verb: '发料' },
  receive: { kind: 'inbound', type: 'outsourced', verb: '收货' },
  return: { kind: 'outbound', type: 'outsourcing-return', verb: '退货' },
};
const operationOf = (kind: StockKind, type: string): Operation =>
  (Object.keys(TYPES) as Operation[]).find(
    (k) => TYPES[k].kind === kind && TYPES[k].type === type,
  ) as Operation;

interface Line {
  id: number;
  lineNo: number;
  materialId: number;
  materialName: string;
  baseQuantity: string;
  weight: string | null;
  sentQuantity: string;
  sentWeight: string;
  receivedQuantity: string;
  receivedWeight: string;
  returnedQuantity: string;
  returnedWeight: string;
}

async function orderHead(db: Db, id: number, lock = false) {
  const r = await sql<{ id: number; docNo: string; status: string; supplierId: number }>`
    SELECT id, doc_no, status, supplier_id FROM outsourcing_order WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
    db,
  );
  if (!r.rows[0]) throw notFound('委外订单不存在或已被删除');
  return r.rows[0];
}

async function orderLines(db: Db, id: number, lock = false): Promise<Line[]> {
  const r = await sql<Line>`
    SELECT l.id, l.line_no, l.material_id, m.name AS material_name, l.base_quantity::text AS base_quantity,
           l.weight::text AS weight, l.sent_quantity::text AS sent_quantity, l.sent_weight::text AS sent_weight,
           l.received_quantity::text AS received_quantity, l.received_weight::text AS received_weight,
           l.returned_quantity::text AS returned_quantity, l.returned_weight::text AS returned_weight
      FROM outsourcing_order_line l JOIN material m ON m.id = l.material_id
     WHERE l.outsourcing_order_id = ${id} ORDER BY l.id ${lock ? sql`FOR UPDATE OF l` : sql``}`.execute(db);
  return r.rows;
}

/** What is still open on a line for an operation (base unit): to send, to receive back, returnable. */
function openOf(l: Line, op: Operation, allowance: Decimal = new Decimal(0)): Decimal {
  const net = new Decimal(l.receivedQuantity).minus(l.returnedQuantity);
  const open =
    op === 'send'
      ? new Decimal(l.baseQuantity).minus(l.sentQuantity)
      : op === 'receive'
        ? new Decimal(l.sentQuantity).times(allowance.plus(100)).dividedBy(100).minus(net)
        : net;
  return Decimal.max(open, 0);
}

function assertOpen(order: { docNo: string; status: string }, op: Operation) {
  const ok = op === 'return' ? order.status !== 'draft' : OPEN.includes(order.status);
  if (!ok) throw conflict(`委外订单 ${order.docNo} ${STATE_TEXT[order.status]}，不能${TYPES[op].verb}`);
}

/** Links a 委外发料 / 委外入库 / 委外退货 draft to the order: its supplier, each line to the order line of its material. */
async function link(
  db: Db,
  doc: { kind: StockKind; type: string; orderId: number; data: Record<string, any> },
  lines: Record<string, any>[],
) {
  const order = await orderHead(db, doc.orderId);
  const op = operationOf(doc.kind, doc.type);
  assertOpen(order, op);
  if (doc.data.supplierId != null && Number(doc.data.supplierId) !== Number(order.supplierId)) {
    throw badRequest(`供应商与委外订单 ${order.docNo} 的加工供应商不一致`, [
      { field: 'supplierId', message: '与委外订单的加工供应商不一致' },
    ]);
  }
  const ordered = await orderLines(db, doc.orderId);
  const byId = new Map(ordered.map((l) => [Number(l.id), l]));
  lines.forEach((line, i) => {
    const named = line.sourceLineId != null ? byId.get(Number(line.sourceLineId)) : undefined;
    const same = (l: Line) => Number(l.materialId) === Number(line.materialId);
    const match = named ?? ordered.find((l) => same(l) && openOf(l, op).gt(0)) ?? ordered.find(same);
    if (!match || !same(match)) {
      const message = named
        ? `委外订单 ${order.docNo} 第 ${named.lineNo} 行的物料是「${named.materialName}」，与本行物料不一致`
        : `委外订单 ${order.docNo} 没有本行的物料`;
      throw badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.materialId`, message }]);
    }
    line.sourceLineId = Number(match.id);
  });
  return { supplierId: order.supplierId, sourceNo: order.docNo };
}

/** Weight of a base quantity on a line: in proportion to the line's weight (none without one). */
function weightOf(l: Line, quantity: Decimal): Decimal {
  if (l.weight == null || new Decimal(l.baseQuantity).isZero()) return new Decimal(0);
  return quantity.times(l.weight).dividedBy(l.baseQuantity).toDecimalPlaces(4);
}

/**
 * Posting (+) or reversing (−) a document against the order, under the order's and its lines'
 * row locks, so that concurrent receipts of the last pieces queue and never exceed what was sent.
 */
async function apply(db: Db, orderId: number, moves: SourceMove[], type: string) {
  const order = await orderHead(db, orderId, true);
  const op = type === 'outsourced' ? 'receive' : type === 'outsourcing' ? 'send' : 'return';
  if (moves.some((m) => m.quantity.gt(0))) assertOpen(order, op);
  const lines = await orderLines(db, orderId, true);
  const byId = new Map(lines.map((l) => [Number(l.id), { ...l }]));
  const allowance = await percentSetting(db, OVER_RECEIVE);
  for (const m of moves) {
    const l = byId.get(m.lineId);
    if (!l) throw conflict(`委外订单 ${order.docNo} 的明细已变更，请重新选择订单`);
    const where = `委外订单 ${order.docNo} 第 ${l.lineNo} 行「${l.materialName}」`;
    const w = weightOf(l, m.quantity);
    const sent = new Decimal(l.sentQuantity).plus(op === 'send' ? m.quantity : 0);
    const received = new Decimal(l.receivedQuantity).plus(op === 'receive' ? m.quantity : 0);
    const returned = new Decimal(l.returnedQuantity).plus(op === 'return' ? m.quantity : 0);
    const net = received.minus(returned);
    const most = sent.times(allowance.plus(100)).dividedBy(100);
    if (op === 'send' && m.quantity.gt(0) && sent.gt(l.baseQuantity)) {
      throw conflict(
        `超出委外订单未发数量：${where}委外 ${qty(l.baseQuantity)}，已发料 ${qty(l.sentQuantity)}，本次 ${qty(m.quantity)}，` +
          `最多还可发 ${qty(openOf(l, 'send'))}`,
      );
    }
    if (op === 'send' && m.quantity.lt(0) && net.gt(most)) {
      throw conflict(`${where}已收回 ${qty(net)}，发料不能冲减到 ${qty(sent)}`);
    }
    if (op === 'receive' && m.quantity.gt(0) && net.gt(most)) {
      throw conflict(
        `收回数量超过已发料数量：${where}已发料 ${qty(l.sentQuantity)}，已收回 ${qty(l.receivedQuantity)}，` +
          `已退货 ${qty(l.returnedQuantity)}，本次 ${qty(m.quantity)}，最多还可收 ${qty(openOf(l, 'receive', allowance))}` +
          (allowance.gt(0) ? `（含超收 ${allowance.toString()}%）` : ''),
      );
    }
    if (returned.gt(received)) {
      throw conflict(
        op === 'return'
          ? `退货数量超过已收回数量：${where}已收回 ${qty(received)}，已退货 ${qty(l.returnedQuantity)}，本次退 ${qty(m.quantity)}`
          : `${where}已退货 ${qty(returned)}，收货不能冲减到 ${qty(received)}`,
      );
    }
    if (sent.lt(0) || received.lt(0) || returned.lt(0)) throw conflict(`${where}的累计数量不能小于 0`);
    const add = (v: string, mine: boolean) => Decimal.max(new Decimal(v).plus(mine ? w : 0), 0).toString();
    l.sentWeight = add(l.sentWeight, op === 'send');
    l.receivedWeight = add(l.receivedWeight, op === 'receive');
    l.returnedWeight = add(l.returnedWeight, op === 'return');
    l.sentQuantity = sent.toString();
    l.receivedQuantity = received.toString();
    l.returnedQuantity = returned.toString();
  }
  const changed = [...byId.values()].filter((l) => moves.some((m) => m.lineId === Number(l.id)));
  const col = (k: keyof Line) => sql.val(changed.map((l) => l[k]));
  await sql`
    UPDATE outsourcing_order_line l
       SET sent_quantity = x.sq, sent_weight = x.sw, received_quantity = x.rq, received_weight = x.rw,
           returned_quantity = x.tq, returned_weight = x.tw
      FROM unnest(${col('id')}::bigint[], ${col('sentQuantity')}::numeric[], ${col('sentWeight')}::numeric[],
                  ${col('receivedQuantity')}::numeric[], ${col('receivedWeight')}::numeric[],
                  ${col('returnedQuantity')}::numeric[], ${col('returnedWeight')}::numeric[])
           AS x(id, sq, sw, rq, rw, tq, tw)
     WHERE l.id = x.id`.execute(db);
  // 部分收回 once anything is back, 已收回 when every line is back in full (net of returns).
  await sql`
    WITH x AS (
      SELECT CASE WHEN bool_and(received_quantity - returned_quantity >= base_quantity) THEN 'received'
                  WHEN bool_or(received_quantity > 0) THEN 'partly-received' ELSE 'approved' END AS next
        FROM outsourcing_order_line WHERE outsourcing_order_id = ${orderId}
    )
    UPDATE outsourcing_order o SET status = x.next, updated_at = now(), version = o.version + 1
      FROM x WHERE o.id = ${orderId} AND o.status IN ('approved', 'partly-received', 'received') AND o.status <> x.next`.execute(
    db,
  );
}

registerStockSource({
  field: 'outsourcingOrderId',
  label: '委外订单',
  types: { outbound: { outsourcing: 1, 'outsourcing-return': 1 }, inbound: { outsourced: 1 } },
  link,
  apply,
  picker: {
    table: 'outsourcing_order',
    lineTable: 'outsourcing_order_line',
    parentColumn: 'outsourcing_order_id',
    lifecycle: OUTSOURCING_ORDER_LIFECYCLE,
    party: { column: 'supplier_id', table: 'supplier' },
    // As `openOf` without the over-receipt allowance: to send, to receive back, returnable.
    types: {
      outsourcing: { states: OPEN, open: sql`l.base_quantity - l.sent_quantity` },
      outsourced: { states: OPEN, open: sql`l.sent_quantity - (l.received_quantity - l.returned_quantity)` },
      'outsourcing-return': {
        states: OUTSOURCING_ORDER_LIFECYCLE.states.map((s) => s.value).filter((s) => s !== 'draft'),
        open: sql`l.received_quantity - l.returned_quantity`,
      },
    },
  },
});

// ------------------------------------------------------------------ the order's own calls

const lineQuantity = fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 });

const documentBody = z.strictObject({
  warehouseId: zx.id,
  bizDate: zx.businessDay('业务日期').optional(),
  remark: zx.text(500).optional(),
  lines: z
    .array(
      z.strictObject({
        lineId: zx.id,
        quantity: lineQuantity,
        batchNo: zx.text(60).optional(),
        qualityStatus: z
          .enum(QUALITY_STATUS.map((q) => q.value) as [string, ...string[]], { error: '质量状态不正确' })
          .optional(),
      }),
      { error: '请选择委外订单明细' },
    )
    .min(1, '请选择委外订单明细')
    .max(500, '一次最多 500 行'),
});

/**
 * 发料 / 收货 / 退货 from the order: a 委外发料出库, 委外入库 or 委外退货出库 draft of the chosen
 * lines, through the warehouse's own create path (numbering, scope check, links). Posting it
 * stays with the warehouse.
 */
async function makeDocument(
  db: Db,
  user: AuthUser,
  orderId: number,
  op: Operation,
  body: z.infer<typeof documentBody>,
  requestId: string,
) {
  const order = await orderHead(db, orderId);
  assertOpen(order, op);
  const ids = body.lines.map((l) => l.lineId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一订单明细不能选择两次');
  const byId = new Map((await orderLines(db, orderId)).map((l) => [Number(l.id), l]));
  body.lines.forEach((l, i) => {
    if (!byId.has(l.lineId)) {
      throw badRequest(`第 ${i + 1} 行不是委外订单 ${order.docNo} 的明细`, [
        { field: `lines.${i}.lineId`, message: '不是该委外订单的明细' },
      ]);
    }
  });
  const { kind, type } = TYPES[op];
  const def = kind === 'inbound' ? stockInboundResource : stockOutboundResource;
  const id = await createRecord(
    { db, def, user },
    {
      type,
      warehouseId: body.warehouseId,
      bizDate: body.bizDate,
      outsourcingOrderId: orderId,
      remark: body.remark,
      lines: body.lines.map((l) => ({
        materialId: Number(byId.get(l.lineId)?.materialId),
        quantity: l.quantity,
        sourceLineId: l.lineId,
        batchNo: l.batchNo,
        qualityStatus: l.qualityStatus ?? 'qualified',
      })),
    },
    DOC_HOOKS[def.name],
    requestId,
  );
  return getRecord(db, def, id);
}

/** The order's trail: every stock document naming it (drafts included), with its lines' base quantities. */
async function documents(db: Db, id: number) {
  await orderHead(db, id);
  const r = await sql<Record<string, any>>`
    SELECT d.* FROM (
      SELECT 'inbound' AS kind, h.id, h.doc_no, h.type, to_char(h.biz_date, 'YYYY-MM-DD') AS biz_date, h.status,
             h.warehouse_id, w.name AS warehouse_name,
             (SELECT COALESCE(sum(l.base_quantity), 0) FROM stock_inbound_line l WHERE l.stock_inbound_id = h.id)::text AS quantity
        FROM stock_inbound h JOIN warehouse w ON w.id = h.warehouse_id WHERE h.outsourcing_order_id = ${id}
      UNION ALL
      SELECT 'outbound', h.id, h.doc_no, h.type, to_char(h.biz_date, 'YYYY-MM-DD'), h.status,
             h.warehouse_id, w.name,
             (SELECT COALESCE(sum(l.base_quantity), 0) FROM stock_outbound_line l WHERE l.stock_outbound_id = h.id)::text
        FROM stock_outbound h JOIN warehouse w ON w.id = h.warehouse_id WHERE h.outsourcing_order_id = ${id}) d
     ORDER BY d.biz_date, d.doc_no`.execute(db);
  return r.rows;
}

/** Who may make each document from the order: the warehouse's add permission of its type (or kind). */
const MAKERS: Record<Operation, { url: string; permission: Permission; alsoAllowedBy: Permission[] }> = {
  send: {
    url: 'send-out',
    permission: 'warehouse:outbound:add',
    alsoAllowedBy: ['warehouse:outsourcingOutbound:add'],
  },
  receive: {
    url: 'receive-back',
    permission: 'warehouse:inbound:add',
    alsoAllowedBy: ['warehouse:outsourcedInbound:add'],
  },
  return: {
    url: 'return-goods',
    permission: 'warehouse:outbound:add',
    alsoAllowedBy: ['warehouse:outsourcingOutbound:add', 'purchase:outsourcingReturn:add'],
  },
};

/** A stock document naming the order (drafts included), with its lines' base quantity. */
const documentsAnswer = z.array(
  z.object({
    kind: z.enum(['inbound', 'outbound']),
    id: z.number().int(),
    docNo: z.string(),
    type: z.string(),
    bizDate: z.string().nullable(),
    status: z.string(),
    warehouseId: z.number().int(),
    warehouseName: z.string(),
    quantity: z.string(),
  }),
);

export function outsourcingOrderRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/outsourcing-order/documents/:id',
    permission: 'purchase:outsourcing:list',
    params: idParams,
    response: documentsAnswer,
    handler: ({ params, app: { db } }) => documents(db, params.id),
  });
  for (const op of Object.keys(MAKERS) as Operation[]) {
    const m = MAKERS[op];
    route(app, {
      method: 'POST',
      url: `/api/v1/outsourcing-order/${m.url}/:id`,
      permission: m.permission,
      alsoAllowedBy: m.alsoAllowedBy,
      params: idParams,
      body: documentBody,
      // The draft made, as the warehouse's `info` answers it.
      response: z.lazy(() =>
        answerRowSchema(TYPES[op].kind === 'inbound' ? stockInboundResource : stockOutboundResource),
      ),
      handler: ({ params, body, user, req, app: { db } }) =>
        db.transaction().execute((trx) => makeDocument(trx, user, params.id, op, body, req.id)),
    });
  }
}
