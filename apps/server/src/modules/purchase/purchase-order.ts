import { PURCHASE_ORDER_LIFECYCLE, purchaseOrderResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import {
  assertNoStockDocuments,
  type OrderPricing,
  percentSetting,
  priceOrder,
  qty,
  validateOrder,
} from '../orders/order-lines.ts';
import {
  markCompleted,
  PURCHASE_REPORT,
  refreshOrderReport,
  reportingTransitions,
} from '../orders/report.ts';
import { registerStockSource, type SourceMove, type StockKind } from '../warehouse/sources.ts';
import { checkRequisitionLinks, requisitionLinesOf, syncRequisitionLines } from './requisition.ts';

/** Purchase orders price from the supplier's last price, else the material's standard cost. */
const PRICING: OrderPricing = {
  table: 'purchase_order',
  lineTable: 'purchase_order_line',
  parentColumn: 'purchase_order_id',
  partyColumn: 'supplier_id',
  fallbackColumn: 'standard_cost',
  noPrice: '该物料没有该供应商的历史采购价，也没有标准成本，请填写单价',
};

export const purchaseOrderHooks: ResourceHooks = lifecycleHooks(purchaseOrderResource, {
  async prepare({ user }, data) {
    return {
      buyerId: data.buyerId ?? user.id,
    };
  },
  async validate({ db }, data) {
    await validateOrder(db, data);
    await checkRequisitionLinks(db, data.lines ?? []);
  },
  async derive({ db }, data, before) {
    // Requisition lines this edit unlinks are recounted without the order; the rest after saving.
    const kept = new Set((data.lines ?? []).map((l: any) => Number(l.requisitionLineId)));
    const dropped = (before?.lines ?? [])
      .map((l: any) => Number(l.requisitionLineId))
      .filter((id: number) => id && !kept.has(id));
    if (before) await syncRequisitionLines(db, dropped, [before.id]);
    return {};
  },
  async afterSave({ db }, id) {
    await priceOrder(db, PRICING, id);
    await syncRequisitionLines(db, await requisitionLinesOf(db, [id]));
  },
  async beforeDelete({ db }, ids) {
    await syncRequisitionLines(db, await requisitionLinesOf(db, ids), ids);
  },
});

/** A closed order keeps of its requisition lines only what it received. */
const recountRequisitions: TransitionHandlers = {
  async effect({ db, record }) {
    await syncRequisitionLines(db, await requisitionLinesOf(db, [record.id]));
  },
};

export const purchaseOrderTransitions = reportingTransitions(PURCHASE_REPORT, PURCHASE_ORDER_LIFECYCLE, {
  close: recountRequisitions,
  approve: {
    async effect({ db, record, user }) {
      await sql`UPDATE purchase_order SET approved_at = now(), approved_by_id = ${user.id} WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
  unapprove: {
    guard: ({ db, record }) => assertNoStockDocuments(db, 'purchase_order_id', record.id),
    async effect({ db, record }) {
      await sql`UPDATE purchase_order SET approved_at = NULL, approved_by_id = NULL WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
});

// ------------------------------------------------------------------ receiving and returns

/** States in which goods can be received against an order. */
const RECEIVABLE = ['approved', 'partly-received'];
const STATE_TEXT = Object.fromEntries(
  purchaseOrderResource.lifecycle?.states.map((s) => [s.value, s.label]) ?? [],
);

/** Over-receipt allowance in percent (采购超收比例), system setting `purchase.overReceivePercent`; default 0. */
const OVER_RECEIVE = 'purchase.overReceivePercent';

interface Line {
  id: number;
  lineNo: number;
  materialId: number;
  materialName: string;
  baseQuantity: string;
  receivedQuantity: string;
  returnedQuantity: string;
}

async function orderHead(db: Db, id: number, lock = false) {
  const r = await sql<{ id: number; docNo: string; status: string; supplierId: number }>`
    SELECT id, doc_no, status, supplier_id FROM purchase_order WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
    db,
  );
  if (!r.rows[0]) throw notFound('采购订单不存在或已被删除');
  return r.rows[0];
}

async function orderLines(db: Db, id: number, lock = false): Promise<Line[]> {
  const r = await sql<Line>`
    SELECT l.id, l.line_no, l.material_id, m.name AS material_name, l.base_quantity::text AS base_quantity,
           l.received_quantity::text AS received_quantity, l.returned_quantity::text AS returned_quantity
      FROM purchase_order_line l JOIN material m ON m.id = l.material_id
     WHERE l.purchase_order_id = ${id} ORDER BY l.id ${lock ? sql`FOR UPDATE OF l` : sql``}`.execute(db);
  return r.rows;
}

/** Links a 采购入库 / 采购退货出库 draft to the order: its supplier, each line to the order line of its material. */
async function link(
  db: Db,
  doc: { kind: StockKind; type: string; orderId: number; data: Record<string, any> },
  lines: Record<string, any>[],
) {
  const order = await orderHead(db, doc.orderId);
  const receiving = doc.kind === 'inbound';
  if (receiving ? !RECEIVABLE.includes(order.status) : order.status === 'draft') {
    throw conflict(`采购订单 ${order.docNo} ${STATE_TEXT[order.status]}，不能${receiving ? '入库' : '退货'}`);
  }
  if (doc.data.supplierId != null && Number(doc.data.supplierId) !== Number(order.supplierId)) {
    throw badRequest(`供应商与采购订单 ${order.docNo} 的供应商不一致`, [
      { field: 'supplierId', message: '与采购订单的供应商不一致' },
    ]);
  }
  const ordered = await orderLines(db, doc.orderId);
  const byId = new Map(ordered.map((l) => [Number(l.id), l]));
  const open = (l: Line) => new Decimal(l.receivedQuantity).minus(l.returnedQuantity).lt(l.baseQuantity);
  lines.forEach((line, i) => {
    const named = line.sourceLineId != null ? byId.get(Number(line.sourceLineId)) : undefined;
    const same = (l: Line) => Number(l.materialId) === Number(line.materialId);
    const match = named ?? ordered.find((l) => same(l) && (!receiving || open(l))) ?? ordered.find(same);
    if (!match || !same(match)) {
      const message = named
        ? `采购订单 ${order.docNo} 第 ${named.lineNo} 行的物料是「${named.materialName}」，与本行物料不一致`
        : `采购订单 ${order.docNo} 没有本行的物料`;
      throw badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.materialId`, message }]);
    }
    line.sourceLineId = Number(match.id);
  });
  return { supplierId: order.supplierId, sourceNo: order.docNo };
}

/**
 * Posting or reversing against the order, under the order's and its lines' row locks: 采购入库
 * moves received, 采购退货出库 moves returned. Net received (received − returned) never exceeds
 * the ordered quantity plus the allowance; returned never exceeds received.
 */
async function apply(db: Db, orderId: number, moves: SourceMove[], type: string, day?: string) {
  const order = await orderHead(db, orderId, true);
  const receipt = type === 'purchase';
  if (receipt && moves.some((m) => m.quantity.gt(0)) && !RECEIVABLE.includes(order.status)) {
    throw conflict(`采购订单 ${order.docNo} ${STATE_TEXT[order.status]}，不能入库`);
  }
  const lines = await orderLines(db, orderId, true);
  const byId = new Map(lines.map((l) => [Number(l.id), { ...l }]));
  const allowance = await percentSetting(db, OVER_RECEIVE);
  for (const m of moves) {
    const l = byId.get(m.lineId);
    if (!l) throw conflict(`采购订单 ${order.docNo} 的明细已变更，请重新选择订单`);
    const where = `采购订单 ${order.docNo} 第 ${l.lineNo} 行「${l.materialName}」`;
    const received = new Decimal(l.receivedQuantity).plus(receipt ? m.quantity : 0);
    const returned = new Decimal(l.returnedQuantity).plus(receipt ? 0 : m.quantity);
    if (returned.gt(received)) {
      throw conflict(
        receipt
          ? `${where}已退货 ${qty(returned)}，入库不能冲减到 ${qty(received)}`
          : `退货数量超过已入库数量：${where}已入库 ${qty(received)}，已退货 ${qty(l.returnedQuantity)}，本次退 ${qty(m.quantity)}`,
      );
    }
    if (returned.lt(0)) throw conflict(`${where}的退货数量不能小于 0`);
    const most = new Decimal(l.baseQuantity).times(allowance.plus(100)).dividedBy(100);
    if (receipt && m.quantity.gt(0) && received.minus(returned).gt(most)) {
      throw conflict(
        `超出采购订单未到数量：${where}订购 ${qty(l.baseQuantity)}，已入库 ${qty(l.receivedQuantity)}，已退货 ${qty(returned)}，` +
          `本次 ${qty(m.quantity)}，最多还可收 ${qty(Decimal.max(most.minus(new Decimal(l.receivedQuantity).minus(returned)), 0))}` +
          (allowance.gt(0) ? `（含超收 ${allowance.toString()}%）` : ''),
      );
    }
    l.receivedQuantity = received.toString();
    l.returnedQuantity = returned.toString();
  }
  const changed = [...byId.values()].filter((l) => moves.some((m) => m.lineId === Number(l.id)));
  await sql`
    UPDATE purchase_order_line l SET received_quantity = x.r, returned_quantity = x.t
      FROM unnest(${sql.val(changed.map((l) => l.id))}::bigint[], ${sql.val(changed.map((l) => l.receivedQuantity))}::numeric[],
                  ${sql.val(changed.map((l) => l.returnedQuantity))}::numeric[]) AS x(id, r, t)
     WHERE l.id = x.id`.execute(db);
  await markCompleted(
    db,
    PURCHASE_REPORT,
    changed.map((l) => Number(l.id)),
    day,
  );
  if (order.status === 'closed') await syncRequisitionLines(db, await requisitionLinesOf(db, [orderId]));
  await sql`
    WITH x AS (
      SELECT CASE WHEN bool_and(received_quantity - returned_quantity >= base_quantity) THEN 'completed'
                  WHEN bool_or(received_quantity > 0) THEN 'partly-received' ELSE 'approved' END AS next
        FROM purchase_order_line WHERE purchase_order_id = ${orderId}
    )
    UPDATE purchase_order o SET status = x.next, updated_at = now(), version = o.version + 1
      FROM x WHERE o.id = ${orderId} AND o.status IN ('approved', 'partly-received', 'completed') AND o.status <> x.next`.execute(
    db,
  );
  await refreshOrderReport(db, PURCHASE_REPORT, [orderId]);
}

/** Returns go against any order past 草稿 (a completed or closed one still has what it received). */
const RETURNABLE = PURCHASE_ORDER_LIFECYCLE.states.map((s) => s.value).filter((s) => s !== 'draft');

registerStockSource({
  field: 'purchaseOrderId',
  label: '采购订单',
  types: { inbound: { purchase: 1 }, outbound: { 'purchase-return': 1 } },
  link,
  apply,
  picker: {
    table: 'purchase_order',
    lineTable: 'purchase_order_line',
    parentColumn: 'purchase_order_id',
    lifecycle: PURCHASE_ORDER_LIFECYCLE,
    party: { column: 'supplier_id', table: 'supplier' },
    types: {
      // To receive: ordered − received + returned; to return: received − returned.
      purchase: {
        states: RECEIVABLE,
        open: sql`l.base_quantity - l.received_quantity + l.returned_quantity`,
      },
      'purchase-return': { states: RETURNABLE, open: sql`l.received_quantity - l.returned_quantity` },
    },
  },
});
