import { productionOrderResource, roundUpToPrecision, SHIFT_MINUTES } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { addDays, businessDay } from '../../platform/numbering.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { unitsOf } from '../../platform/resource/precision.ts';
import { productionOrderHooks } from './production-order.ts';
import { writeRequirements } from './release-production-order.ts';

/**
 * 生成自制件订单: a released order's made-in-house components (the first-level BOM lines that have
 * a BOM of their own — a bearing's rings) become production orders of their own, drafts that carry
 * the parent's sales order, customer and 备货单 and are planned backwards from the parent's start.
 * The parent then needs the component itself rather than what it is made of: its frozen BOM stops
 * at the component and its requirements are netted again (so the steel is reserved once, by the
 * ring order). Refused once the parent has issued materials.
 *
 * Dates: a component order finishes the day before the parent's planned start and starts its lead
 * time earlier — never before today; when that is too late for the parent the plan says so
 * (`late`), and the drafts' dates stay the planner's to change before 下达.
 */

/** Lead time of a component without an active route with standard minutes (days). */
export const LEAD_DAYS = 10;
/** Days an outsourced step of the component's route (热处理) is away. */
export const OUTSOURCED_DAYS = 3;

interface ParentOrder {
  docNo: string;
  status: string;
  priority: string;
  plannedStartDate: string;
  saleOrderId: number | null;
  customerId: number | null;
  stockUpOrderId: number | null;
}

/**
 * A component's lead time in days from its active route. The batch moves on card by card, so the
 * steps overlap: the slowest in-house step's standard minutes × the quantity over one shift a day
 * (rounded up), plus a day for each further in-house step (the last card passing through) and
 * OUTSOURCED_DAYS for each outsourced one; at least one day; LEAD_DAYS without a route.
 */
export function leadDays(
  steps: { standardMinutes: string | null; outsourced: boolean }[] | undefined,
  quantity: Decimal.Value,
): number {
  if (!steps?.length) return LEAD_DAYS;
  const inHouse = steps.filter((s) => !s.outsourced);
  const slowest = inHouse.reduce((m, s) => Decimal.max(m, s.standardMinutes ?? 0), new Decimal(0));
  const bottleneck = slowest.times(quantity).dividedBy(SHIFT_MINUTES).ceil().toNumber();
  const away = (steps.length - inHouse.length) * OUTSOURCED_DAYS;
  return Math.max(bottleneck + Math.max(inHouse.length - 1, 0) + away, 1);
}

/** Finish the day before `parentStart`, start `days` earlier, never before `today`. */
export function backwardDates(parentStart: string, days: number, today: string) {
  const finishBy = addDays(parentStart, -1);
  let start = addDays(finishBy, -(days - 1));
  let due = finishBy;
  if (start < today) {
    start = today;
    due = addDays(today, days - 1);
  }
  return { plannedStartDate: start, dueDate: due, late: due >= parentStart };
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

/** The first-level exploded lines of the frozen BOM (the components made in-house) with what each needs. */
async function componentsOf(db: Db, orderId: number) {
  const r = await sql<{
    id: number;
    level: number;
    materialId: number;
    requiredQuantity: string;
    exploded: boolean;
  }>`
    SELECT id, level, material_id, required_quantity::text AS required_quantity, exploded
      FROM production_order_bom WHERE production_order_id = ${orderId} ORDER BY line_no`.execute(db);
  return r.rows;
}

export interface SubOrderPart {
  productId: number;
  productCode: string;
  productName: string;
  productSpec: string | null;
  unitName: string | null;
  /** What the parent needs, rounded up to what the component's unit counts (101.5 rings are 102). */
  quantity: string;
  routeVersionNo: string | null;
  leadDays: number;
  plannedStartDate: string;
  dueDate: string;
  /** The component cannot finish before the parent's planned start. */
  late: boolean;
}

/** The component orders an order would get: product, quantity, lead time and dates. */
async function partsOf(
  db: Db,
  order: ParentOrder,
  rows: Awaited<ReturnType<typeof componentsOf>>,
  today: string,
) {
  const need = new Map<number, Decimal>();
  for (const x of rows) {
    if (x.level !== 1 || !x.exploded) continue;
    const id = Number(x.materialId);
    need.set(id, (need.get(id) ?? new Decimal(0)).plus(x.requiredQuantity));
  }
  const ids = [...need.keys()];
  if (!ids.length) return [];
  const { ofMaterial } = await unitsOf(db, ids);
  const info = await sql<{
    id: number;
    code: string;
    name: string;
    spec: string | null;
    unitName: string | null;
    routeVersionNo: string | null;
    steps: { standardMinutes: string | null; outsourced: boolean }[] | null;
  }>`
    SELECT m.id, m.code, m.name, m.spec, u.name AS unit_name, r.version_no AS route_version_no,
           (SELECT json_agg(json_build_object('standardMinutes', s.standard_minutes::text, 'outsourced', s.outsourced))
              FROM process_route_step s WHERE s.process_route_id = r.id) AS steps
      FROM material m
      LEFT JOIN material_unit u ON u.id = m.unit_id
      LEFT JOIN LATERAL (SELECT id, version_no FROM process_route
                          WHERE product_id = m.id AND status = 'active' ORDER BY id LIMIT 1) r ON true
     WHERE m.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  const byId = new Map(info.rows.map((x) => [Number(x.id), x]));
  return ids.map((id): SubOrderPart => {
    const m = byId.get(id);
    const quantity = roundUpToPrecision(need.get(id) ?? 0, ofMaterial.get(id)?.precision ?? 4);
    const days = leadDays(m?.steps ?? undefined, quantity);
    return {
      productId: id,
      productCode: m?.code ?? '',
      productName: m?.name ?? '',
      productSpec: m?.spec ?? null,
      unitName: m?.unitName ?? null,
      quantity,
      routeVersionNo: m?.routeVersionNo ?? null,
      leadDays: days,
      ...backwardDates(order.plannedStartDate, days, today),
    };
  });
}

/**
 * What 生成自制件订单 would make of the order (the dialog): the components with quantities and
 * dates, the sub-orders made already, and why it cannot be done now (`refusal`).
 */
export async function subOrderPlan(db: Db, orderId: number) {
  const order = await parentOf(db, orderId, false);
  const rows = await componentsOf(db, orderId);
  const made = await sql<Record<string, unknown>>`
    SELECT p.id, p.doc_no, p.status, p.product_id, m.name AS product_name, p.quantity::text AS quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS planned_start_date, to_char(p.due_date, 'YYYY-MM-DD') AS due_date
      FROM production_order p JOIN material m ON m.id = p.product_id
     WHERE p.parent_order_id = ${orderId} ORDER BY p.id`.execute(db);
  let why = await refusal(db, orderId, order);
  // Once made, there is nothing more to make.
  const open = made.rows.some((r) => r.status !== 'closed');
  const parts = open ? [] : await partsOf(db, order, rows, businessDay());
  if (!why && !parts.length) why = '订单的BOM没有自制件（带启用BOM的一级子件）';
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
  const rows = await componentsOf(db, orderId);
  const parts = await partsOf(db, order, rows, businessDay());
  if (!parts.length) throw conflict('订单的BOM没有自制件（带启用BOM的一级子件）');
  // The component's subtree leaves the parent's frozen BOM; the component becomes a leaf.
  const below: number[] = [];
  for (const [i, x] of rows.entries()) {
    if (x.level !== 1 || !x.exploded) continue;
    for (let j = i + 1; j < rows.length && rows[j].level > 1; j++) below.push(Number(rows[j].id));
  }
  const top = rows.filter((x) => x.level === 1 && x.exploded).map((x) => Number(x.id));
  await sql`DELETE FROM production_order_bom WHERE id = ANY(${sql.val(below)}::bigint[])`.execute(db);
  await sql`UPDATE production_order_bom SET exploded = false WHERE id = ANY(${sql.val(top)}::bigint[])`.execute(
    db,
  );
  await sql`DELETE FROM production_order_material WHERE production_order_id = ${orderId}`.execute(db);
  await writeRequirements(db, orderId);

  const orders: { id: number; docNo: string }[] = [];
  for (const part of parts) {
    const id = await createRecord(
      { db, user, def: productionOrderResource },
      {
        productId: part.productId,
        quantity: part.quantity,
        plannedStartDate: dates?.plannedStartDate ?? part.plannedStartDate,
        dueDate: dates?.dueDate ?? part.dueDate,
        priority: order.priority,
        sourceType: 'sub-order',
        parentOrderId: orderId,
        saleOrderId: order.saleOrderId,
        customerId: order.customerId,
        stockUpOrderId: order.stockUpOrderId,
        remark: `生产订单 ${order.docNo} 的自制件`,
      },
      productionOrderHooks,
      requestId,
    );
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM production_order WHERE id = ${id}`.execute(
      db,
    );
    orders.push({ id, docNo: doc.rows[0].docNo });
  }
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
  return { orders };
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
