import { PRODUCTION_ORDER_RESERVING, productionOrderResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { lockPlanning, mrpRoutes, orderMrp } from './mrp.ts';
import { mrpDocumentRoutes, requisitionFor } from './mrp-documents.ts';

/**
 * A released order's material requirements as they stand now, beside the figures frozen at
 * release: on hand (qualified, every warehouse), reserved by other released orders (their
 * required − issued), free = on hand − reserved by others, and the current shortage of what this
 * order still needs (required − issued − free, at least 0). 已请购 counts the lines of the
 * requisitions made for the order (生成请购单; of a closed requisition what it ordered); what is
 * left to requisition is the order's MRP planned purchase of the material (`mrp.ts`): its need
 * less free stock and every open supply, the requisitions made for it among them, lot-sized.
 */
export interface RequirementRow {
  id: number;
  lineNo: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  materialSpec: string | null;
  unitName: string | null;
  /** 小数位数 of the unit: what is to requisition is rounded up to it. */
  unitPrecision: number | null;
  requiredQuantity: string;
  issuedQuantity: string;
  reservedQuantity: string;
  shortageQuantity: string;
  onHand: string;
  reservedByOthers: string;
  freeQuantity: string;
  currentShortage: string;
  requisitionedQuantity: string;
  toRequisition: string;
}

export async function requirementsOf(db: Db, orderId: number) {
  const head = await sql<{ id: number; docNo: string; status: string }>`
    SELECT id, doc_no, status FROM production_order WHERE id = ${orderId}`.execute(db);
  if (!head.rows[0]) throw notFound('生产订单不存在或已被删除');
  const r = await sql<Omit<RequirementRow, 'freeQuantity' | 'currentShortage' | 'toRequisition'>>`
    SELECT pm.id, pm.line_no, pm.material_id, m.code AS material_code, m.name AS material_name, m.spec AS material_spec,
           u.name AS unit_name, u.precision AS unit_precision, pm.required_quantity::text AS required_quantity, pm.issued_quantity::text AS issued_quantity,
           pm.reserved_quantity::text AS reserved_quantity, pm.shortage_quantity::text AS shortage_quantity,
           COALESCE((SELECT sum(s.quantity) FROM stock_balance s
                      WHERE s.material_id = pm.material_id AND s.quality_status = 'qualified'), 0)::text AS on_hand,
           COALESCE((SELECT sum(greatest(o.required_quantity - o.issued_quantity, 0))
                       FROM production_order_material o JOIN production_order p ON p.id = o.production_order_id
                      WHERE o.material_id = pm.material_id AND p.id <> pm.production_order_id
                        AND p.status = ANY(${sql.val(PRODUCTION_ORDER_RESERVING)}::text[])), 0)::text AS reserved_by_others,
           COALESCE((SELECT sum(CASE WHEN r.status = 'closed' THEN rl.ordered_quantity ELSE rl.base_quantity END)
                       FROM production_order_requisition pr
                       JOIN purchase_requisition r ON r.id = pr.purchase_requisition_id
                       JOIN purchase_requisition_line rl ON rl.purchase_requisition_id = r.id
                      WHERE pr.production_order_id = pm.production_order_id AND rl.material_id = pm.material_id), 0)::text
             AS requisitioned_quantity
      FROM production_order_material pm
      JOIN material m ON m.id = pm.material_id
      LEFT JOIN material_unit u ON u.id = pm.unit_id
     WHERE pm.production_order_id = ${orderId}
     ORDER BY pm.line_no`.execute(db);
  const holding = PRODUCTION_ORDER_RESERVING.includes(head.rows[0].status);
  const toBuy = new Map<number, Decimal>();
  if (holding) {
    for (const o of await plannedPurchases(db, orderId)) {
      toBuy.set(o.itemId, (toBuy.get(o.itemId) ?? new Decimal(0)).plus(o.quantity));
    }
  }
  const list: RequirementRow[] = r.rows.map((x) => {
    const free = new Decimal(x.onHand).minus(x.reservedByOthers);
    const open = holding
      ? Decimal.max(new Decimal(x.requiredQuantity).minus(x.issuedQuantity), 0)
      : new Decimal(0);
    return {
      ...x,
      freeQuantity: free.toString(),
      currentShortage: Decimal.max(open.minus(Decimal.max(free, 0)), 0).toString(),
      toRequisition: (toBuy.get(Number(x.materialId)) ?? new Decimal(0)).toString(),
    };
  });
  const requisitions = await sql<{ id: number; docNo: string; status: string }>`
    SELECT r.id, r.doc_no, r.status FROM production_order_requisition pr
      JOIN purchase_requisition r ON r.id = pr.purchase_requisition_id
     WHERE pr.production_order_id = ${orderId} ORDER BY r.id`.execute(db);
  return { list, requisitions: requisitions.rows };
}

export const toRequisitionBody = z
  .strictObject({
    requiredDate: fieldSchema({ name: 'requiredDate', label: '需求日期', kind: 'date' }).optional(),
    remark: zx.text(500).optional(),
  })
  .optional();

/** The order's planned purchases in its MRP run (new planned orders of bought materials). */
async function plannedPurchases(db: Db, orderId: number) {
  const { sheet } = await orderMrp(db, orderId);
  return sheet.plannedOrders.filter((o) => !o.firm && o.source === 'buy');
}

/**
 * 生成请购单: one draft requisition of the order's MRP planned purchases, as computed — each line
 * the planned quantity (lot-sized), needed when its parent starts, the material's last supplier
 * suggested — pegged to the order. The order row is locked and the run is made under the planning
 * lock, so a double click makes one requisition: the second run counts the first requisition as
 * supply.
 */
export async function toRequisition(
  db: Db,
  user: AuthUser,
  orderId: number,
  body: z.infer<typeof toRequisitionBody> = {},
  requestId?: string,
) {
  const head = await sql<{ docNo: string; status: string }>`
    SELECT doc_no, status FROM production_order WHERE id = ${orderId} FOR UPDATE`.execute(db);
  const order = head.rows[0];
  if (!order) throw notFound('生产订单不存在或已被删除');
  if (!PRODUCTION_ORDER_RESERVING.includes(order.status))
    throw conflict(`生产订单 ${order.docNo} 不是已下达或生产中，不能生成请购单`);
  await lockPlanning(db);
  const wanted = await plannedPurchases(db, orderId);
  if (!wanted.length) throw conflict(`生产订单 ${order.docNo} 没有待请购的缺料`);
  const [made] = await requisitionFor(
    db,
    user,
    wanted,
    `生产订单 ${order.docNo} 缺料`,
    { requiredDate: body?.requiredDate as string | undefined, remark: body?.remark },
    requestId,
  );
  await sql`INSERT INTO production_order_requisition (production_order_id, purchase_requisition_id)
            VALUES (${orderId}, ${made.id})`.execute(db);
  return made;
}

/** The requirements, 生成请购单, and the MRP sheets and documents (`mrp.ts`, `mrp-documents.ts`). */
export function requirementRoutes(app: App) {
  mrpRoutes(app);
  mrpDocumentRoutes(app);
  route(app, {
    method: 'GET',
    url: `/api/v1/${productionOrderResource.name}/requirements/:id`,
    permission: 'production:order:list',
    params: idParams,
    handler: ({ params, app: { db } }) => requirementsOf(db, params.id),
  });
  route(app, {
    method: 'POST',
    url: `/api/v1/${productionOrderResource.name}/to-requisition/:id`,
    permission: 'production:requisition:add',
    params: idParams,
    body: toRequisitionBody,
    handler: ({ params, body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => toRequisition(trx, user, params.id, body, req.id)),
  });
}
