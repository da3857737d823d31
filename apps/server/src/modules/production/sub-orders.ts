import { LEAD_DAYS, OUTSOURCED_DAYS, orderDates, SHIFT_MINUTES } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { lockPlanning, orderMrp, type SheetOrder } from './mrp.ts';
import { productionOrdersFor } from './mrp-documents.ts';
import { writeRequirements } from './release-production-order.ts';

/**
 * 生成自制件订单: a released order's made-in-house components (its BOM's direct components with a
 * BOM of their own — a bearing's rings) become production orders of their own, drafts that carry
 * the parent's sales order, customer and 备货单. Their quantities are the order's MRP planned
 * orders as computed (`mrp.ts`): what the order needs less the free stock and open supply of the
 * ring, lot-sized — never the gross requirement. The parent then needs the component itself
 * rather than what it is made of: its frozen BOM stops at the component and its requirements are
 * netted again (the ring in stock is reserved by the parent, the steel by the ring order).
 * Refused once the parent has issued materials.
 *
 * Dates: a component order finishes the day before the parent's planned start and starts its lead
 * time earlier (the material's 提前期, else from its route) — never before today; when that is
 * too late for the parent the plan says so (`late`), and the drafts' dates stay the planner's to
 * change before 下达.
 */

export { LEAD_DAYS, OUTSOURCED_DAYS };

interface ParentOrder {
  docNo: string;
  status: string;
  priority: string;
  plannedStartDate: string;
  saleOrderId: number | null;
  customerId: number | null;
  stockUpOrderId: number | null;
}

async function parentOf(db: Db, orderId: number, lock: boolean): Promise<ParentOrder> {
  if (lock) await sql`SELECT id FROM production_order WHERE id = ${orderId} FOR UPDATE`.execute(db);
  const r = await sql<ParentOrder>`
    SELECT doc_no, status, priority, to_char(planned_start_date, 'YYYY-MM-DD') AS planned_start_date,
           sale_order_id, customer_id, stock_up_order_id
      FROM production_order WHERE id = ${orderId}`.execute(db);
  if (!r.rows[0]) throw notFound('生产订单不存在或已被删除');
  return r.rows[0];
}

/** Why the order cannot have component orders made now, or undefined. */
async function refusal(db: Db, orderId: number, order: ParentOrder): Promise<string | undefined> {
  if (!['released', 'producing'].includes(order.status))
    return `生产订单 ${order.docNo} 下达后才能生成自制件订单`;
  const made = await sql<{ docNo: string }>`
    SELECT doc_no FROM production_order WHERE parent_order_id = ${orderId} AND status <> 'closed'
     ORDER BY id LIMIT 1`.execute(db);
  if (made.rows[0]) return `已生成自制件订单 ${made.rows[0].docNo}`;
  const issued = await sql`
    SELECT 1 FROM production_order_material WHERE production_order_id = ${orderId} AND issued_quantity > 0 LIMIT 1`.execute(
    db,
  );
  if (issued.rows.length) return `生产订单 ${order.docNo} 已领料，不能再生成自制件订单`;
  return undefined;
}

export interface SubOrderPart {
  productId: number;
  productCode: string;
  productName: string;
  productSpec: string | null;
  unitName: string | null;
  /** The planned quantity of the order's MRP run: net of stock and supply, lot-sized, in the unit. */
  quantity: string;
  /** The net requirement it covers (the rest is lot-size surplus). */
  net: string;
  leadDays: number;
  plannedStartDate: string;
  dueDate: string;
  /** The component cannot finish before the parent's planned start. */
  late: boolean;
}

/**
 * The order's direct made components with planned orders in its MRP run (one per component: their
 * planned orders summed, needed at the parent's start), with lead time and dates.
 */
async function partsOf(db: Db, orderId: number, today: string) {
  const run = await orderMrp(db, orderId);
  const direct = new Set(run.rootLines.map((l) => l.childId));
  const byItem = new Map<number, SheetOrder>();
  for (const o of run.sheet.plannedOrders) {
    if (o.firm || o.source !== 'make' || !direct.has(o.itemId)) continue;
    const had = byItem.get(o.itemId);
    byItem.set(
      o.itemId,
      had
        ? {
            ...had,
            quantity: new Decimal(had.quantity).plus(o.quantity).toString(),
            net: new Decimal(had.net).plus(o.net).toString(),
            needDate: had.needDate < o.needDate ? had.needDate : o.needDate,
            leadTimeDays: Math.max(had.leadTimeDays, o.leadTimeDays),
            pegs: [...had.pegs, ...o.pegs],
          }
        : o,
    );
  }
  const planned = [...byItem.values()];
  const parts = planned.map(
    (o): SubOrderPart => ({
      productId: o.itemId,
      productCode: o.code,
      productName: o.name,
      productSpec: o.spec,
      unitName: o.unitName,
      quantity: o.quantity,
      net: o.net,
      leadDays: o.leadTimeDays,
      ...orderDates(o.needDate, o.leadTimeDays, today, run.sheet.calendar),
    }),
  );
  return { run, planned, parts };
}

/**
 * What 生成自制件订单 would make of the order (the dialog): the components with quantities and
 * dates, the sub-orders made already, and why it cannot be done now (`refusal`).
 */
export async function subOrderPlan(db: Db, orderId: number) {
  const order = await parentOf(db, orderId, false);
  const made = await sql<Record<string, unknown>>`
    SELECT p.id, p.doc_no, p.status, p.product_id, m.name AS product_name, p.quantity::text AS quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS planned_start_date, to_char(p.due_date, 'YYYY-MM-DD') AS due_date
      FROM production_order p JOIN material m ON m.id = p.product_id
     WHERE p.parent_order_id = ${orderId} ORDER BY p.id`.execute(db);
  let why = await refusal(db, orderId, order);
  // Once made, there is nothing more to make.
  const open = made.rows.some((r) => r.status !== 'closed');
  const parts =
    open || order.status === 'completed' || order.status === 'closed'
      ? []
      : (await partsOf(db, orderId, businessDay())).parts;
  if (!why && !parts.length)
    why = '订单没有需要生成订单的自制件（带启用BOM的一级子件在库存和在途之外的净需求）';
  return {
    order: {
      id: orderId,
      docNo: order.docNo,
      status: order.status,
      plannedStartDate: order.plannedStartDate,
    },
    parts,
    made: made.rows,
    refusal: why ?? null,
    /** The lead-time rule's numbers, for the dialog to state it. */
    rule: { shiftMinutes: SHIFT_MINUTES, outsourcedDays: OUTSOURCED_DAYS, withoutRouteDays: LEAD_DAYS },
  };
}

/**
 * `dates`: the demo's history keeps the dates it tells its story by (its floor is laid out on
 * them), instead of the plan back from the parent.
 */
export async function makeSubOrders(
  db: Db,
  user: AuthUser,
  orderId: number,
  requestId?: string,
  dates?: { plannedStartDate: string; dueDate: string },
) {
  const order = await parentOf(db, orderId, true);
  const why = await refusal(db, orderId, order);
  if (why) throw conflict(why);
  await lockPlanning(db);
  const { planned, run } = await partsOf(db, orderId, businessDay());
  if (!planned.length)
    throw conflict('订单没有需要生成订单的自制件（带启用BOM的一级子件在库存和在途之外的净需求）');
  // The component's subtree leaves the parent's frozen BOM; the component becomes a leaf the
  // parent takes from stock (what stock has) and from its 自制件订单 (the rest).
  const rows = await sql<{ id: number; level: number; materialId: number }>`
    SELECT id, level, material_id FROM production_order_bom WHERE production_order_id = ${orderId} ORDER BY line_no`.execute(
    db,
  );
  const cut = new Set(planned.map((p) => p.itemId));
  const top: number[] = [];
  const below: number[] = [];
  rows.rows.forEach((x, i) => {
    if (x.level !== 1 || !cut.has(Number(x.materialId))) return;
    top.push(Number(x.id));
    for (let j = i + 1; j < rows.rows.length && rows.rows[j].level > 1; j++)
      below.push(Number(rows.rows[j].id));
  });
  await sql`DELETE FROM production_order_bom WHERE id = ANY(${sql.val(below)}::bigint[])`.execute(db);
  await sql`UPDATE production_order_bom SET exploded = false, made_quantity = 0
             WHERE id = ANY(${sql.val(top)}::bigint[])`.execute(db);
  await sql`DELETE FROM production_order_material WHERE production_order_id = ${orderId}`.execute(db);
  await writeRequirements(db, orderId);

  const orders = await productionOrdersFor(
    db,
    user,
    planned,
    {
      priority: order.priority,
      sourceType: 'sub-order',
      parentOrderId: orderId,
      saleOrderId: order.saleOrderId,
      customerId: order.customerId,
      stockUpOrderId: order.stockUpOrderId,
      remark: `生产订单 ${order.docNo} 的自制件`,
      ...dates,
    },
    requestId,
    run.sheet.calendar,
  );
  await auditInsert(
    user,
    {
      entity: 'production-order',
      entityId: orderId,
      action: 'sub-orders',
      after: { orders: orders.map((o) => o.docNo) },
    },
    requestId,
  ).execute(db);
  return { orders: orders.map(({ id, docNo }) => ({ id, docNo })) };
}

export function subOrderRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/production-order/sub-orders/:id',
    permission: 'production:order:list',
    params: idParams,
    handler: ({ params, app: { db } }) => subOrderPlan(db, params.id),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/production-order/sub-orders/:id',
    permission: 'production:order:add',
    params: idParams,
    handler: ({ params, user, req, app: { db } }) =>
      db.transaction().execute((trx) => makeSubOrders(trx, user, params.id, req.id)),
  });
}
