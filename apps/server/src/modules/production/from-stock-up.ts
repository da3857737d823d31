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
import { businessDay } from '../../platform/numbering.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { qty } from '../orders/order-lines.ts';

/**
 * 从备货单生成: approved 备货单 lines become draft production orders, one per line, as sales order
 * lines do (production-order.ts). The order names the 备货单 and its line (`stockUpOrderId`,
 * `stockUpLineId`, source 备货单); the line's 已排产 is recounted from the orders naming it (a closed
 * one counts what it produced) and never exceeds the line. The 备货单 follows its orders: 生产中
 * once one is released, 已完成 when every line is produced in full.
 */

/** 备货单 states whose lines may be planned. */
const PLANNABLE = ['approved', 'producing'];

/** What production orders plan of a 备货单 line (base unit), leaving out `exceptIds`. */
const plannedOf = (lineId: unknown, exceptIds: number[] = []) => sql<string>`
  COALESCE((SELECT sum(CASE WHEN p.status = 'closed' THEN p.produced_quantity ELSE p.quantity END)
              FROM production_order p
             WHERE p.stock_up_line_id = ${lineId} AND p.id <> ALL(${sql.val(exceptIds)}::bigint[])), 0)`;

/**
 * Save hook of a production order naming a 备货单 line: the line's product, a 备货单 that may be
 * planned, no more than the line's unplanned quantity — under the line's row lock.
 */
export async function checkStockUpLine(db: Db, data: Record<string, any>, exceptId: number) {
  await sql`SELECT id FROM stock_up_order_line WHERE id = ${data.stockUpLineId} FOR UPDATE`.execute(db);
  const r = await sql<{
    stockUpOrderId: number;
    docNo: string;
    status: string;
    lineNo: number;
    materialId: number;
    baseQuantity: string;
    planned: string;
  }>`
    SELECT o.id AS stock_up_order_id, o.doc_no, o.status, l.line_no, l.material_id,
           l.base_quantity::text AS base_quantity, ${plannedOf(data.stockUpLineId, [exceptId])}::text AS planned
      FROM stock_up_order_line l JOIN stock_up_order o ON o.id = l.stock_up_order_id
     WHERE l.id = ${data.stockUpLineId}`.execute(db);
  const line = r.rows[0];
  if (!line) throw conflict('所对应的备货单明细已不存在，请重新选择');
  const where = `备货单 ${line.docNo} 第 ${line.lineNo} 行`;
  if (!PLANNABLE.includes(line.status)) throw conflict(`${where}：备货单不是已审核状态，不能安排生产`);
  if (Number(line.materialId) !== Number(data.productId)) {
    throw fieldError('productId', `产品与${where}的产品不一致`);
  }
  if (data.stockUpOrderId != null && Number(data.stockUpOrderId) !== Number(line.stockUpOrderId)) {
    throw conflict(`${where}不属于所选备货单`);
  }
  const open = new Decimal(line.baseQuantity ?? 0).minus(line.planned);
  if (new Decimal(data.quantity).gt(open)) {
    throw conflict(
      `超出备货单未排产数量：${where}备货 ${qty(line.baseQuantity ?? 0)}，已排产 ${qty(line.planned)}，` +
        `最多还可排产 ${qty(Decimal.max(open, 0))}`,
    );
  }
}

/**
 * 已排产 of the 备货单 lines the orders `ids` name, recounted (leaving out `gone`, orders being
 * deleted), and each 备货单's state from its orders.
 */
export async function recountStockUp(db: Db, ids: number[], gone: number[] = []) {
  if (!ids.length) return;
  const r = await sql<{ lineId: number; stockUpOrderId: number }>`
    SELECT DISTINCT p.stock_up_line_id AS line_id, l.stock_up_order_id
      FROM production_order p JOIN stock_up_order_line l ON l.id = p.stock_up_line_id
     WHERE p.id = ANY(${sql.val(ids)}::bigint[]) ORDER BY 1`.execute(db);
  if (!r.rows.length) return;
  const lines = r.rows.map((x) => Number(x.lineId));
  await sql`SELECT id FROM stock_up_order_line WHERE id = ANY(${sql.val(lines)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
    db,
  );
  // A statement of its own after the locks, so it reads what the previous holder committed.
  await sql`
    UPDATE stock_up_order_line l SET planned_quantity = ${plannedOf(sql.ref('l.id'), gone)}
     WHERE l.id = ANY(${sql.val(lines)}::bigint[])`.execute(db);
  for (const id of new Set(r.rows.map((x) => Number(x.stockUpOrderId)))) await settleStockUp(db, id, gone);
}

/**
 * A 备货单 is 已完成 when each line's orders have produced its quantity, 生产中 while one of its
 * orders is released, in production or completed, else 已审核; a draft or closed one stays.
 */
export async function settleStockUp(db: Db, stockUpOrderId: number, gone: number[] = []) {
  await sql`
    UPDATE stock_up_order o SET status = x.next, updated_at = now(), version = o.version + 1
      FROM (SELECT CASE
              WHEN NOT EXISTS (
                SELECT 1 FROM stock_up_order_line l WHERE l.stock_up_order_id = ${stockUpOrderId}
                   AND COALESCE((SELECT sum(p.produced_quantity) FROM production_order p
                                  WHERE p.stock_up_line_id = l.id AND p.id <> ALL(${sql.val(gone)}::bigint[])), 0)
                       < COALESCE(l.base_quantity, l.quantity))
                THEN 'completed'
              WHEN EXISTS (SELECT 1 FROM production_order p WHERE p.stock_up_order_id = ${stockUpOrderId}
                              AND p.status IN ('released', 'producing', 'completed')
                              AND p.id <> ALL(${sql.val(gone)}::bigint[]))
                THEN 'producing'
              ELSE 'approved' END AS next) x
     WHERE o.id = ${stockUpOrderId} AND o.status IN ('approved', 'producing', 'completed') AND o.status <> x.next`.execute(
    db,
  );
}

/** The production order hooks' share: checks on save, recounts after save and before delete. */
export const stockUpOrderHooks: Required<Pick<ResourceHooks, 'afterSave' | 'beforeDelete'>> = {
  afterSave: ({ db }, id) => recountStockUp(db, [id]),
  beforeDelete: ({ db }, ids) => recountStockUp(db, ids, ids),
};

// ------------------------------------------------------------------ the planner's picker

const linesQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  docNo: zx.text(30).optional(),
  materialId: zx.id.optional(),
  /** 1: also lines planned in full. */
  all: zx.flag.optional(),
});

/** Lines of approved 备货单 with what is planned of them, earliest completion date first. */
export async function stockUpLines(db: Db, q: z.infer<typeof linesQuery>) {
  const planned = plannedOf(sql.ref('l.id'));
  const where = sql.join(
    [
      sql`o.status = ANY(${sql.val(PLANNABLE)}::text[])`,
      q.all === '1' ? sql`true` : sql`l.base_quantity > ${planned}`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
      q.docNo ? contains(sql.ref('o.doc_no'), q.docNo) : sql`true`,
    ],
    sql` AND `,
  );
  const offset = (Math.max(q.pageNum, 1) - 1) * q.pageSize;
  const r = await sql<Record<string, any>>`
    SELECT l.id AS line_id, l.line_no, o.id AS stock_up_order_id, o.doc_no, o.status, o.purpose,
           c.name AS customer_name, l.material_id, m.code AS material_code, m.name AS material_name,
           m.spec AS material_spec, u.name AS unit_name,
           to_char(COALESCE(l.required_date, o.required_date), 'YYYY-MM-DD') AS required_date,
           l.base_quantity, ${planned} AS planned_quantity,
           greatest(l.base_quantity - ${planned}, 0) AS unplanned_quantity,
           EXISTS (SELECT 1 FROM bom b WHERE b.product_id = l.material_id AND b.status = 'active') AS has_bom,
           count(*) OVER () AS total
      FROM stock_up_order_line l
      JOIN stock_up_order o ON o.id = l.stock_up_order_id
      LEFT JOIN customer c ON c.id = o.customer_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE ${where}
     ORDER BY COALESCE(l.required_date, o.required_date), o.doc_no, l.line_no
     LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  return { total: Number(r.rows[0]?.total ?? 0), list: r.rows.map(({ total: _t, ...row }) => row) };
}

export const fromStockUpBody = z.strictObject({
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
        stockUpLineId: zx.id,
        /** Base-unit quantity to make; default: all that is unplanned. */
        quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }).optional(),
      }),
      { error: '请选择要生产的备货单明细' },
    )
    .min(1, '请选择要生产的备货单明细')
    .max(200, '一次最多 200 行'),
});

/**
 * One draft production order per chosen 备货单 line, due on the line's completion date; the lines
 * are locked in id order first, and each order's own save hook refuses planning past the line.
 */
export async function fromStockUpLines(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof fromStockUpBody>,
  hooks: ResourceHooks,
  requestId?: string,
) {
  const ids = body.lines.map((l) => l.stockUpLineId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一备货单明细不能选择两次');
  await sql`SELECT id FROM stock_up_order_line WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
    db,
  );
  const r = await sql<{
    id: number;
    stockUpOrderId: number;
    customerId: number | null;
    docNo: string;
    materialId: number;
    requiredDate: string;
    open: string;
  }>`
    SELECT l.id, o.id AS stock_up_order_id, o.customer_id, o.doc_no, l.material_id,
           to_char(COALESCE(l.required_date, o.required_date), 'YYYY-MM-DD') AS required_date,
           (COALESCE(l.base_quantity, l.quantity) - ${plannedOf(sql.ref('l.id'))})::text AS open
      FROM stock_up_order_line l JOIN stock_up_order o ON o.id = l.stock_up_order_id
     WHERE l.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  if (r.rows.length !== ids.length) throw notFound('所选备货单明细不存在或已被删除');
  const byId = new Map(r.rows.map((x) => [Number(x.id), x]));
  const start = (body.plannedStartDate as string | undefined) ?? businessDay();
  const orders: { id: number; docNo: string }[] = [];
  for (const line of body.lines) {
    const x = byId.get(line.stockUpLineId);
    if (!x) continue;
    const quantity = (line.quantity as string | undefined) ?? Decimal.max(new Decimal(x.open), 0).toString();
    if (new Decimal(quantity).lte(0)) throw conflict(`备货单 ${x.docNo} 的该明细已全部安排生产`);
    const id = await createRecord(
      { db, def: productionOrderResource, user },
      {
        productId: Number(x.materialId),
        quantity,
        plannedStartDate: start,
        dueDate: x.requiredDate < start ? start : x.requiredDate,
        priority: body.priority ?? 'normal',
        sourceType: 'stock-up',
        stockUpOrderId: Number(x.stockUpOrderId),
        stockUpLineId: Number(x.id),
        customerId: x.customerId == null ? null : Number(x.customerId),
        remark: body.remark ?? `由备货单 ${x.docNo} 生成`,
      },
      hooks,
      requestId,
    );
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM production_order WHERE id = ${id}`.execute(
      db,
    );
    orders.push({ id, docNo: doc.rows[0].docNo });
  }
  return { orders };
}

export function fromStockUpRoutes(app: App, hooks: ResourceHooks) {
  route(app, {
    method: 'GET',
    url: '/api/v1/production-order/stock-up-lines',
    permission: 'production:order:add',
    query: linesQuery,
    handler: ({ query, app: { db } }) => stockUpLines(db, query),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/production-order/from-stock-up-lines',
    permission: 'production:order:add',
    body: fromStockUpBody,
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => fromStockUpLines(trx, user, body, hooks, req.id)),
  });
}
