import { orderDates, productionOrderResource, purchaseRequisitionResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict } from '../../platform/errors.ts';
import { type App, route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { requisitionHooks } from '../purchase/requisition.ts';
import { lockPlanning, type MrpSheet, planMrp, type SheetOrder, storePegs } from './mrp.ts';
import { productionOrderHooks } from './production-order.ts';

/**
 * Documents from an MRP run's planned orders, each pegged (`mrp_peg`) to what it serves:
 * requisitions for planned purchases, draft production orders for planned made components.
 * Each runs the MRP again inside its transaction under the planning lock, so what it makes is
 * what the run shows now, and the documents it made count as supply in the next run.
 */

/** Requisitions (500 lines at most each) for planned purchases; the last supplier of each suggested. */
export async function requisitionFor(
  db: Db,
  user: AuthUser,
  planned: SheetOrder[],
  reason: string,
  extra: { requiredDate?: string; remark?: string } = {},
  requestId?: string,
) {
  const today = businessDay();
  const suppliers = await sql<{ materialId: number; supplierId: number }>`
    SELECT DISTINCT ON (l.material_id) l.material_id, o.supplier_id
      FROM purchase_order_line l JOIN purchase_order o ON o.id = l.purchase_order_id
     WHERE l.material_id = ANY(${sql.val([...new Set(planned.map((x) => x.itemId))])}::bigint[]) AND o.status <> 'draft'
     ORDER BY l.material_id, o.order_date DESC, o.id DESC`.execute(db);
  const supplierOf = new Map(suppliers.rows.map((s) => [Number(s.materialId), Number(s.supplierId)]));
  const made: { id: number; docNo: string; lines: number }[] = [];
  for (let i = 0; i < planned.length; i += purchaseRequisitionResource.lines?.[0]?.max ?? 500) {
    const chunk = planned.slice(i, i + (purchaseRequisitionResource.lines?.[0]?.max ?? 500));
    const dates = chunk.map((x) => (x.needDate < today ? today : x.needDate));
    const earliest = dates.reduce((a, b) => (a < b ? a : b));
    const id = await createRecord(
      { db, def: purchaseRequisitionResource, user },
      {
        requestDate: today,
        requiredDate: extra.requiredDate && extra.requiredDate >= today ? extra.requiredDate : earliest,
        requesterId: user.id,
        reason,
        remark: extra.remark,
        lines: chunk.map((x, k) => ({
          materialId: x.itemId,
          quantity: x.quantity,
          requiredDate: dates[k],
          supplierId: supplierOf.get(x.itemId) ?? null,
          remark: x.late ? `应于 ${x.startDate} 下单（已晚）` : undefined,
        })),
      },
      requisitionHooks,
      requestId,
    );
    await storePegs(db, { requisitionId: id }, chunk);
    const doc = await sql<{
      docNo: string;
    }>`SELECT doc_no FROM purchase_requisition WHERE id = ${id}`.execute(db);
    made.push({ id, docNo: doc.rows[0].docNo, lines: chunk.length });
  }
  return made;
}

/** One draft production order per planned order, dated back from its need date. */
export async function productionOrdersFor(
  db: Db,
  user: AuthUser,
  planned: SheetOrder[],
  common: Record<string, unknown>,
  requestId: string | undefined,
  calendar: MrpSheet['calendar'],
) {
  const today = businessDay();
  const orders: { id: number; docNo: string; productId: number; late: boolean }[] = [];
  for (const x of planned) {
    const dates = orderDates(x.needDate, x.leadTimeDays, today, calendar);
    const sales = [...new Set(x.pegs.filter((p) => p.ref.type === 'sale-order').map((p) => p.ref.id))];
    const id = await createRecord(
      { db, user, def: productionOrderResource },
      {
        productId: x.itemId,
        quantity: x.quantity,
        plannedStartDate: dates.plannedStartDate,
        dueDate: dates.dueDate,
        priority: 'normal',
        sourceType: 'mrp',
        saleOrderId: sales.length === 1 ? sales[0] : null,
        remark: `MRP运算 计划订单，需求日期 ${x.needDate}`,
        ...common,
      },
      productionOrderHooks,
      requestId,
    );
    if (sales.length === 1) {
      await sql`UPDATE production_order SET customer_id = (SELECT customer_id FROM sale_order WHERE id = ${sales[0]})
                 WHERE id = ${id}`.execute(db);
    }
    await storePegs(db, { productionOrderId: id }, [x]);
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM production_order WHERE id = ${id}`.execute(
      db,
    );
    orders.push({ id, docNo: doc.rows[0].docNo, productId: x.itemId, late: dates.late });
  }
  return orders;
}

export const planDocumentsBody = z
  .strictObject({
    materialIds: z.array(zx.id).max(5000, '物料不能超过 5000 个').optional(),
  })
  .optional();

const chosen = (list: SheetOrder[], ids?: number[]) =>
  ids?.length ? list.filter((x) => ids.includes(x.itemId)) : list;

/** 生成请购单 from the plan: its planned purchases (or those of the chosen materials). */
export async function planToRequisition(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof planDocumentsBody> = {},
  requestId?: string,
) {
  await lockPlanning(db);
  const sheet = await planMrp(db);
  const wanted = chosen(
    sheet.plannedOrders.filter((x) => !x.firm && x.source === 'buy'),
    body?.materialIds,
  );
  if (!wanted.length) throw conflict('MRP 运算没有待请购的计划订单');
  const requisitions = await requisitionFor(
    db,
    user,
    wanted,
    `MRP运算 计划采购（${sheet.today}）`,
    {},
    requestId,
  );
  return { requisitions };
}

/**
 * 生成自制件订单 from the plan: the planned production orders of made components (level 1 and
 * below; finished products are planned from their sales orders, 从销售订单生成, which names the
 * line), each a draft pegged to what it serves.
 */
export async function planToOrders(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof planDocumentsBody> = {},
  requestId?: string,
) {
  await lockPlanning(db);
  const sheet = await planMrp(db);
  const wanted = chosen(
    sheet.plannedOrders.filter((x) => !x.firm && x.source === 'make' && x.level > 0),
    body?.materialIds,
  );
  if (!wanted.length) throw conflict('MRP 运算没有待生成的自制件计划订单');
  return { orders: await productionOrdersFor(db, user, wanted, {}, requestId, sheet.calendar) };
}

export function mrpDocumentRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/mrp/plan/requisition',
    permission: 'production:requisition:add',
    body: planDocumentsBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => planToRequisition(trx, user, body, req.id)),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/mrp/plan/production-orders',
    permission: 'production:order:add',
    body: planDocumentsBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => planToOrders(trx, user, body, req.id)),
  });
}
