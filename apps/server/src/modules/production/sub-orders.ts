import { productionOrderResource, roundUpToPrecision } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { App } from '../../app.ts';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { addDays } from '../../platform/numbering.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { unitsOf } from '../../platform/resource/precision.ts';
import { productionOrderHooks } from './production-order.ts';
import { writeRequirements } from './release-production-order.ts';

/** Days before the parent's start that a component order is planned to begin. */
export const LEAD_DAYS = 10;

/**
 * 生成自制件订单: a released order's made-in-house components (the first-level BOM lines that have
 * a BOM of their own — a bearing's rings) become production orders of their own, drafts planned to
 * finish when the parent starts. The parent then needs the component itself rather than what it
 * is made of: its frozen BOM stops at the component and its requirements are netted again (so the
 * steel is reserved once, by the ring order). Refused once the parent has issued materials.
 */
export async function makeSubOrders(db: Db, user: AuthUser, orderId: number, requestId?: string) {
  await sql`SELECT id FROM production_order WHERE id = ${orderId} FOR UPDATE`.execute(db);
  const r = await sql<{
    docNo: string;
    status: string;
    priority: string;
    plannedStartDate: string;
  }>`SELECT doc_no, status, priority, to_char(planned_start_date, 'YYYY-MM-DD') AS planned_start_date
       FROM production_order WHERE id = ${orderId}`.execute(db);
  const order = r.rows[0];
  if (!order) throw notFound('生产订单不存在或已被删除');
  if (!['released', 'producing'].includes(order.status)) {
    throw conflict(`生产订单 ${order.docNo} 下达后才能生成自制件订单`);
  }
  const issued = await sql`
    SELECT 1 FROM production_order_material WHERE production_order_id = ${orderId} AND issued_quantity > 0 LIMIT 1`.execute(
    db,
  );
  if (issued.rows.length) throw conflict(`生产订单 ${order.docNo} 已领料，不能再生成自制件订单`);
  const made = await sql<{ docNo: string }>`
    SELECT doc_no FROM production_order WHERE parent_order_id = ${orderId} AND status <> 'closed' LIMIT 1`.execute(
    db,
  );
  if (made.rows[0]) throw conflict(`已生成自制件订单 ${made.rows[0].docNo}`);

  const rows = (
    await sql<{ id: number; level: number; materialId: number; requiredQuantity: string; exploded: boolean }>`
      SELECT id, level, material_id, required_quantity::text AS required_quantity, exploded
        FROM production_order_bom WHERE production_order_id = ${orderId} ORDER BY line_no`.execute(db)
  ).rows;
  const parts = rows.filter((x) => x.level === 1 && x.exploded);
  if (!parts.length) throw conflict('订单的BOM没有自制件（带启用BOM的一级子件）');
  // The component's subtree leaves the parent's frozen BOM; the component becomes a leaf.
  const below: number[] = [];
  for (const [i, x] of rows.entries()) {
    if (x.level !== 1 || !x.exploded) continue;
    for (let j = i + 1; j < rows.length && rows[j].level > 1; j++) below.push(Number(rows[j].id));
  }
  await sql`DELETE FROM production_order_bom WHERE id = ANY(${sql.val(below)}::bigint[])`.execute(db);
  await sql`UPDATE production_order_bom SET exploded = false
             WHERE id = ANY(${sql.val(parts.map((x) => Number(x.id)))}::bigint[])`.execute(db);
  await sql`DELETE FROM production_order_material WHERE production_order_id = ${orderId}`.execute(db);
  await writeRequirements(db, orderId);

  const need = new Map<number, Decimal>();
  for (const x of parts) {
    need.set(
      Number(x.materialId),
      (need.get(Number(x.materialId)) ?? new Decimal(0)).plus(x.requiredQuantity),
    );
  }
  const due = order.plannedStartDate;
  const orders: { id: number; docNo: string }[] = [];
  // Made in whole pieces (or whatever the component's unit counts): 101.5 rings are 102 to make.
  const { ofMaterial } = await unitsOf(db, [...need.keys()]);
  for (const [productId, quantity] of need) {
    const id = await createRecord(
      { db, user, def: productionOrderResource },
      {
        productId,
        quantity: roundUpToPrecision(quantity, ofMaterial.get(productId)?.precision ?? 4),
        plannedStartDate: addDays(due, -LEAD_DAYS),
        dueDate: due,
        priority: order.priority,
        sourceType: 'sub-order',
        parentOrderId: orderId,
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
    method: 'POST',
    url: '/api/v1/production-order/sub-orders/:id',
    permission: 'production:order:add',
    params: idParams,
    handler: ({ params, user, req, app: { db } }) =>
      db.transaction().execute((trx) => makeSubOrders(trx, user, params.id, req.id)),
  });
}
