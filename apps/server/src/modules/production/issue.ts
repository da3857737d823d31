import { PRODUCTION_ORDER_LIFECYCLE, PRODUCTION_ORDER_RESERVING, stateLabel } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { percentSetting, qty } from '../orders/order-lines.ts';
import { registerStockSource, type SourceMove, type StockKind } from '../warehouse/sources.ts';
import { linkAssembly } from './assembly-link.ts';

/**
 * 领料出库 against a production order: the document names the order, each line the requirement
 * (production_order_material) of its material. Posting adds to the requirement's issued quantity,
 * reversing takes it back; issued never exceeds required × (1 + allowance/100), checked under the
 * order's and its requirements' row locks so concurrent issues of the last pieces queue. The first
 * issue moves a released order to 生产中. Component cards issued (a ring card's number as batch)
 * link the order's cards to them (装配领用, assembly-link.ts).
 */

/** Over-issue allowance in percent of the requirement (超领比例), system setting `production.overIssuePercent`; default 0. */
const OVER_ISSUE = 'production.overIssuePercent';

interface Requirement {
  id: number;
  materialId: number;
  materialName: string;
  requiredQuantity: string;
  issuedQuantity: string;
}

async function orderHead(db: Db, id: number, lock = false) {
  const r = await sql<{ id: number; docNo: string; status: string }>`
    SELECT id, doc_no, status FROM production_order WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
    db,
  );
  if (!r.rows[0]) throw notFound('生产订单不存在或已被删除');
  return r.rows[0];
}

async function requirements(db: Db, id: number, lock = false): Promise<Requirement[]> {
  const r = await sql<Requirement>`
    SELECT pm.id, pm.material_id, m.name AS material_name, pm.required_quantity::text AS required_quantity,
           pm.issued_quantity::text AS issued_quantity
      FROM production_order_material pm JOIN material m ON m.id = pm.material_id
     WHERE pm.production_order_id = ${id} ORDER BY pm.id ${lock ? sql`FOR UPDATE OF pm` : sql``}`.execute(db);
  return r.rows;
}

const stateText = (s: string) => stateLabel(PRODUCTION_ORDER_LIFECYCLE, s);

async function link(
  db: Db,
  doc: { kind: StockKind; type: string; orderId: number; data: Record<string, any> },
  lines: Record<string, any>[],
) {
  const order = await orderHead(db, doc.orderId);
  if (!PRODUCTION_ORDER_RESERVING.includes(order.status)) {
    throw conflict(`生产订单 ${order.docNo} ${stateText(order.status)}，不能领料`);
  }
  const needs = await requirements(db, doc.orderId);
  const byId = new Map(needs.map((x) => [Number(x.id), x]));
  lines.forEach((line, i) => {
    const named = line.sourceLineId != null ? byId.get(Number(line.sourceLineId)) : undefined;
    const match = named ?? needs.find((x) => Number(x.materialId) === Number(line.materialId));
    if (!match || Number(match.materialId) !== Number(line.materialId)) {
      const message = `生产订单 ${order.docNo} 的物料需求中没有本行的物料`;
      throw badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.materialId`, message }]);
    }
    line.sourceLineId = Number(match.id);
  });
  return { sourceNo: order.docNo };
}

async function apply(db: Db, orderId: number, moves: SourceMove[]) {
  const order = await orderHead(db, orderId, true);
  const adds = moves.some((m) => m.quantity.gt(0));
  if (adds && !PRODUCTION_ORDER_RESERVING.includes(order.status)) {
    throw conflict(`生产订单 ${order.docNo} ${stateText(order.status)}，不能领料`);
  }
  const needs = await requirements(db, orderId, true);
  const byId = new Map(needs.map((x) => [Number(x.id), x]));
  const allowance = adds ? await percentSetting(db, OVER_ISSUE) : new Decimal(0);
  const next = new Map<number, Decimal>();
  for (const m of moves) {
    const need = byId.get(m.lineId);
    if (!need) throw conflict(`生产订单 ${order.docNo} 的物料需求已变更，请重新选择订单`);
    const before = next.get(m.lineId) ?? new Decimal(need.issuedQuantity);
    const after = before.plus(m.quantity);
    const where = `生产订单 ${order.docNo}「${need.materialName}」`;
    if (after.lt(0)) throw conflict(`${where}已领料 ${qty(before)}，不能冲减 ${qty(m.quantity.neg())}`);
    const most = new Decimal(need.requiredQuantity).times(allowance.plus(100)).dividedBy(100);
    if (m.quantity.gt(0) && after.gt(most)) {
      throw conflict(
        `超出生产订单需求：${where}需求 ${qty(need.requiredQuantity)}，已领料 ${qty(before)}，本次 ${qty(m.quantity)}，` +
          `最多还可领 ${qty(Decimal.max(most.minus(before), 0))}` +
          (allowance.gt(0) ? `（含超领 ${allowance.toString()}%）` : ''),
      );
    }
    next.set(m.lineId, after);
  }
  await sql`
    UPDATE production_order_material pm SET issued_quantity = x.q
      FROM unnest(${sql.val([...next.keys()])}::bigint[], ${sql.val([...next.values()].map((d) => d.toString()))}::numeric[]) AS x(id, q)
     WHERE pm.id = x.id`.execute(db);
  if (adds && order.status === 'released') {
    await sql`UPDATE production_order SET status = 'producing', updated_at = now(), version = version + 1
               WHERE id = ${orderId}`.execute(db);
  }
  // Rings issued (batch = a ring card's number) are the bearing cards' 装配领用: linked again.
  await linkAssembly(db, orderId);
}

registerStockSource({
  field: 'productionOrderId',
  label: '生产订单',
  types: { outbound: { requisition: 1 } },
  link,
  apply,
  // 领料出库's order picker: released or producing orders with something left to issue; choosing
  // one takes each requirement's open quantity (required − issued, base unit) as a line.
  picker: {
    table: 'production_order',
    lineTable: 'production_order_material',
    parentColumn: 'production_order_id',
    lifecycle: PRODUCTION_ORDER_LIFECYCLE,
    party: { column: 'customer_id', table: 'customer' },
    dateColumn: 'planned_start_date',
    productColumn: 'product_id',
    types: {
      requisition: { states: PRODUCTION_ORDER_RESERVING, open: sql`l.required_quantity - l.issued_quantity` },
    },
  },
});
