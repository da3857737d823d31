import { PRODUCTION_PRIORITY_OPTIONS, productionOrderResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { contains } from '../../platform/db/like.ts';
import { badRequest, conflict, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { businessDay, dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { qty } from '../orders/order-lines.ts';
import { salesHooks } from '../sales/sales-hooks.ts';
import { assertNoFlowCards } from './flow-card.ts';
import {
  checkStockUpLine,
  fromStockUpRoutes,
  recountStockUp,
  settleStockUp,
  stockUpOrderHooks,
} from './from-stock-up.ts';
import { assertNoDispatches, closeTasks, removeTasks } from './production-order-dispatch.ts';
import { releaseOrder, settleSaleOrder, unreleaseOrder } from './release-production-order.ts';

/**
 * 生产订单 (production orders) `SC…`: a product, a quantity and a due date, made by hand, from
 * approved sales order lines (从销售订单生成, one order per line) or from approved 备货单 lines
 * (从备货单生成, from-stock-up.ts). What a sales order line has planned is the quantity of the
 * production orders naming it (of a closed one only what it produced); it never exceeds the line's
 * quantity. Release, requirements and issues are in release-production-order.ts, requirements.ts
 * and issue.ts.
 */

/** Sales order states whose lines may be planned. */
const PLANNABLE = ['approved', 'producing', 'partly-shipped'];

/**
 * What production orders plan of a sales order line (base unit), leaving out `exceptId`: the one
 * rule for 已计划, used by the planners' checks and picker and by the sales order's figures.
 */
export const plannedOf = (lineId: unknown, exceptId = 0) => sql<string>`
  COALESCE((SELECT sum(CASE WHEN p.status = 'closed' THEN p.produced_quantity ELSE p.quantity END)
              FROM production_order p WHERE p.sale_order_line_id = ${lineId} AND p.id <> ${exceptId}), 0)`;

/**
 * A production order made from a sales order line: the line's product, an order that may be
 * planned, and no more than the line's unplanned quantity. Locks the line, so two planners
 * planning the last pieces at once are checked one after the other.
 */
async function checkSaleLine(db: Db, data: Record<string, any>, exceptId: number) {
  await sql`SELECT id FROM sale_order_line WHERE id = ${data.saleOrderLineId} FOR UPDATE`.execute(db);
  const r = await sql<{
    saleOrderId: number;
    docNo: string;
    status: string;
    lineNo: number;
    materialId: number;
    baseQuantity: string;
    planned: string;
  }>`
    SELECT o.id AS sale_order_id, o.doc_no, o.status, l.line_no, l.material_id, l.base_quantity::text AS base_quantity,
           ${plannedOf(data.saleOrderLineId, exceptId)}::text AS planned
      FROM sale_order_line l JOIN sale_order o ON o.id = l.sale_order_id WHERE l.id = ${data.saleOrderLineId}`.execute(
    db,
  );
  const line = r.rows[0];
  if (!line) throw conflict('所对应的销售订单明细已不存在，请重新选择');
  const where = `销售订单 ${line.docNo} 第 ${line.lineNo} 行`;
  if (!PLANNABLE.includes(line.status)) throw conflict(`${where}：订单不是已审核状态，不能安排生产`);
  if (Number(line.materialId) !== Number(data.productId)) {
    throw fieldError('productId', `产品与${where}的产品不一致`);
  }
  const open = new Decimal(line.baseQuantity).minus(line.planned);
  if (new Decimal(data.quantity).gt(open)) {
    throw conflict(
      `超出销售订单未计划数量：${where}订购 ${qty(line.baseQuantity)}，已计划 ${qty(line.planned)}，` +
        `最多还可计划 ${qty(Decimal.max(open, 0))}`,
    );
  }
  return line;
}

export const productionOrderHooks: ResourceHooks = lifecycleHooks(productionOrderResource, {
  async prepare({ db }, data) {
    return {
      docNo: await nextDocNoOf(db, productionOrderResource, dayInstant(data.plannedStartDate)),
    };
  },
  async validate({ db }, data, before) {
    if (data.dueDate < data.plannedStartDate) {
      throw fieldError('dueDate', '计划完工不能早于计划开工');
    }
    for (const [field, table, label] of [
      ['bomId', 'bom', 'BOM'],
      ['routeId', 'process_route', '工艺路线'],
    ] as const) {
      if (data[field] == null) continue;
      const r = await sql<{ productId: number }>`
        SELECT product_id FROM ${sql.table(table)} WHERE id = ${data[field]}`.execute(db);
      if (Number(r.rows[0]?.productId) !== Number(data.productId))
        throw fieldError(field, `所选${label}不是该产品的`);
    }
    if (data.saleOrderLineId != null) await checkSaleLine(db, data, before?.id ?? 0);
    if (data.stockUpLineId != null) await checkStockUpLine(db, data, before?.id ?? 0);
  },
  async derive({ db }, data) {
    const r = await sql<{
      unitId: number | null;
    }>`SELECT unit_id FROM material WHERE id = ${data.productId}`.execute(db);
    return { unitId: r.rows[0]?.unitId ?? null };
  },
  ...stockUpOrderHooks,
});

/** Refused (409) while a 领料出库 (not reversed) names the order. */
async function assertNoIssues(db: Db, id: number) {
  const r = await sql<{ docNo: string }>`
    SELECT doc_no FROM stock_outbound WHERE production_order_id = ${id} AND status <> 'reversed' LIMIT 1`.execute(
    db,
  );
  if (r.rows[0]) throw conflict(`订单已有领料出库单 ${r.rows[0].docNo}，请先冲销后再反下达`);
}

/** The 备货单 an order was made from (or its parent was) follows its state and 已排产. */
async function settleStockUpOf(db: Db, record: Record<string, any>) {
  if (!record.stockUpOrderId) return;
  await recountStockUp(db, [Number(record.id)]);
  await settleStockUp(db, Number(record.stockUpOrderId));
}

const settle: TransitionHandlers = {
  async effect({ db, record, user }) {
    await closeTasks(db, user, record.id);
    if (record.saleOrderId) await settleSaleOrder(db, record.saleOrderId);
    await settleStockUpOf(db, record);
  },
};

export const productionOrderTransitions: Record<string, TransitionHandlers> = {
  release: {
    async effect({ db, record, user }) {
      await releaseOrder(db, record, user);
      await settleStockUpOf(db, record);
    },
  },
  unrelease: {
    async guard({ db, record }) {
      await assertNoIssues(db, record.id);
      await assertNoDispatches(db, record.id);
      await assertNoFlowCards(db, record.id);
    },
    async effect({ db, record }) {
      await removeTasks(db, record.id);
      await unreleaseOrder(db, record);
      await settleStockUpOf(db, record);
    },
  },
  complete: { effect: ({ db, record }) => settleStockUpOf(db, record) },
  close: settle,
};

/** 反审核 of a sales order: refused while production orders (other than closed) are planned from it. */
export async function assertNoProductionOrders(db: Db, saleOrderId: number) {
  const r = await sql<{ docNo: string }>`
    SELECT doc_no FROM production_order WHERE sale_order_id = ${saleOrderId} AND status <> 'closed' LIMIT 1`.execute(
    db,
  );
  if (r.rows[0]) throw conflict(`订单已安排生产（生产订单 ${r.rows[0].docNo}），不能反审核`);
}

// Sales asks production (`sales/sales-hooks.ts`): what a line has planned, and whether an order
// may be un-approved.
salesHooks.plannedOf.provide((lineId) => plannedOf(lineId));
salesHooks.unapproving.on(assertNoProductionOrders);

// ------------------------------------------------------------------ 从销售订单生成

const saleLinesQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  docNo: zx.text(30).optional(),
  customerId: zx.id.optional(),
  materialId: zx.id.optional(),
  /** 1: also lines planned in full. */
  all: zx.flag.optional(),
});

/** Lines of approved sales orders with what is planned of them, earliest delivery first. */
export async function saleLines(db: Db, q: z.infer<typeof saleLinesQuery>) {
  const planned = plannedOf(sql.ref('l.id'));
  const where = sql.join(
    [
      sql`o.status = ANY(${sql.val(PLANNABLE)}::text[])`,
      q.all === '1' ? sql`true` : sql`l.base_quantity > ${planned}`,
      q.customerId ? sql`o.customer_id = ${q.customerId}` : sql`true`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
      q.docNo ? contains(sql.ref('o.doc_no'), q.docNo) : sql`true`,
    ],
    sql` AND `,
  );
  const offset = (Math.max(q.pageNum, 1) - 1) * q.pageSize;
  const r = await sql<Record<string, any>>`
    SELECT l.id AS line_id, l.line_no, o.id AS sale_order_id, o.doc_no, o.status, c.name AS customer_name,
           l.material_id, m.code AS material_code, m.name AS material_name, m.spec AS material_spec,
           u.name AS unit_name, to_char(COALESCE(l.delivery_date, o.delivery_date), 'YYYY-MM-DD') AS delivery_date,
           l.base_quantity, l.shipped_quantity, ${planned} AS planned_quantity,
           greatest(l.base_quantity - ${planned}, 0) AS unplanned_quantity,
           EXISTS (SELECT 1 FROM bom b WHERE b.product_id = l.material_id AND b.status = 'active') AS has_bom,
           count(*) OVER () AS total
      FROM sale_order_line l
      JOIN sale_order o ON o.id = l.sale_order_id
      JOIN customer c ON c.id = o.customer_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE ${where}
     ORDER BY COALESCE(l.delivery_date, o.delivery_date), o.doc_no, l.line_no
     LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  return { total: Number(r.rows[0]?.total ?? 0), list: r.rows.map(({ total: _t, ...row }) => row) };
}

export const fromSaleLinesBody = z.strictObject({
  plannedStartDate: fieldSchema({ name: 'plannedStartDate', label: '计划开工', kind: 'date' }).optional(),
  priority: z
    .enum(PRODUCTION_PRIORITY_OPTIONS.map((o) => o.value) as [string, ...string[]], {
      error: '优先级只能是：紧急、高、普通、低',
    })
    .optional(),
  remark: zx.text(500).optional(),
  lines: z
    .array(
      z.strictObject({
        saleOrderLineId: zx.id,
        /** Base-unit quantity to make; default: all that is unplanned. */
        quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }).optional(),
      }),
      { error: '请选择要生产的销售订单明细' },
    )
    .min(1, '请选择要生产的销售订单明细')
    .max(200, '一次最多 200 行'),
});

/**
 * 从销售订单生成: one draft production order per chosen line, for the line's product, due on the
 * line's delivery date. The lines are locked in id order first; each order's own check (the
 * save hook) refuses planning more than the line's unplanned quantity.
 */
export async function fromSaleLines(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof fromSaleLinesBody>,
  requestId?: string,
) {
  const ids = body.lines.map((l) => l.saleOrderLineId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一销售订单明细不能选择两次');
  await sql`SELECT id FROM sale_order_line WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
    db,
  );
  const r = await sql<{
    id: number;
    saleOrderId: number;
    customerId: number;
    docNo: string;
    materialId: number;
    deliveryDate: string;
    open: string;
  }>`
    SELECT l.id, o.id AS sale_order_id, o.customer_id, o.doc_no, l.material_id,
           to_char(COALESCE(l.delivery_date, o.delivery_date), 'YYYY-MM-DD') AS delivery_date,
           (l.base_quantity - ${plannedOf(sql.ref('l.id'), 0)})::text AS open
      FROM sale_order_line l JOIN sale_order o ON o.id = l.sale_order_id
     WHERE l.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  if (r.rows.length !== ids.length) throw notFound('所选销售订单明细不存在或已被删除');
  const byId = new Map(r.rows.map((x) => [Number(x.id), x]));
  const start = (body.plannedStartDate as string | undefined) ?? businessDay();
  const ctx = { db, def: productionOrderResource, user };
  const orders: { id: number; docNo: string }[] = [];
  for (const line of body.lines) {
    const x = byId.get(line.saleOrderLineId);
    if (!x) continue;
    const quantity = (line.quantity as string | undefined) ?? Decimal.max(new Decimal(x.open), 0).toString();
    if (new Decimal(quantity).lte(0)) throw conflict(`销售订单 ${x.docNo} 的该明细已全部安排生产`);
    const id = await createRecord(
      ctx,
      {
        productId: Number(x.materialId),
        quantity,
        plannedStartDate: start,
        dueDate: x.deliveryDate < start ? start : x.deliveryDate,
        priority: body.priority ?? 'normal',
        sourceType: 'sales',
        saleOrderId: Number(x.saleOrderId),
        customerId: Number(x.customerId),
        saleOrderLineId: Number(x.id),
        remark: body.remark ?? `由销售订单 ${x.docNo} 生成`,
      },
      productionOrderHooks,
      requestId,
    );
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM production_order WHERE id = ${id}`.execute(
      db,
    );
    orders.push({ id, docNo: doc.rows[0].docNo });
  }
  return { orders };
}

export function productionOrderRoutes(app: App) {
  fromStockUpRoutes(app, productionOrderHooks);
  route(app, {
    method: 'GET',
    url: '/api/v1/production-order/sale-lines',
    permission: 'production:order:add',
    query: saleLinesQuery,
    handler: ({ query, app: { db } }) => saleLines(db, query),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/production-order/from-sale-lines',
    permission: 'production:order:add',
    body: fromSaleLinesBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => fromSaleLines(trx, user, body, req.id)),
  });
}
