import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { salesHooks } from './sales-hooks.ts';
import { availableOf, owedOf } from './shipping.ts';

/**
 * 订单执行 of a sales order's detail: per line what is ordered, planned in production orders, in
 * stock, shipped and owed, and the documents made against the order (销售出库, 销售退货入库, 生产订单).
 * Each figure comes from the rule its own module keeps: 已计划 from production (`salesHooks.plannedOf`), 库存
 * and 欠发 from 销售仓库 (`availableOf`, `owedOf`). Quantities are in the product's base unit.
 */

export interface SaleOrderProgressLine {
  lineId: number;
  lineNo: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  materialSpec: string | null;
  unitName: string | null;
  baseQuantity: string;
  plannedQuantity: string;
  stockQuantity: string;
  shippedQuantity: string;
  owedQuantity: string;
}

/** A document made against the order; `quantity` is its base-unit total. */
export interface SaleOrderDocument {
  kind: 'sales-outbound' | 'sales-return' | 'production-order';
  id: number;
  docNo: string;
  /** 业务日期 of a stock document, 计划开工 of a production order. */
  date: string;
  status: string;
  quantity: string;
}

/** Two queries: every line's figures, then the documents. An order always has a line; none means no order. */
export async function saleOrderProgress(db: Db, orderId: number) {
  const lines = await sql<SaleOrderProgressLine>`
    SELECT l.id AS line_id, l.line_no, l.material_id, m.code AS material_code, m.name AS material_name,
           m.spec AS material_spec, u.name AS unit_name, l.base_quantity,
           ${salesHooks.plannedOf.ask(sql.ref('l.id'))} AS planned_quantity,
           ${availableOf(sql.ref('l.material_id'))} AS stock_quantity,
           l.shipped_quantity, ${owedOf('l')} AS owed_quantity
      FROM sale_order_line l
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE l.sale_order_id = ${orderId}
     ORDER BY l.line_no`.execute(db);
  if (!lines.rows.length) throw notFound('销售订单不存在或已被删除');
  const documents = await sql<SaleOrderDocument>`
    SELECT * FROM (
      SELECT 'sales-outbound' AS kind, d.id, d.doc_no, to_char(d.biz_date, 'YYYY-MM-DD') AS date, d.status,
             COALESCE((SELECT sum(x.base_quantity) FROM stock_outbound_line x WHERE x.stock_outbound_id = d.id), 0)::text AS quantity
        FROM stock_outbound d WHERE d.sale_order_id = ${orderId}
      UNION ALL
      SELECT 'sales-return', d.id, d.doc_no, to_char(d.biz_date, 'YYYY-MM-DD'), d.status,
             COALESCE((SELECT sum(x.base_quantity) FROM stock_inbound_line x WHERE x.stock_inbound_id = d.id), 0)::text
        FROM stock_inbound d WHERE d.sale_order_id = ${orderId}
      UNION ALL
      SELECT 'production-order', p.id, p.doc_no, to_char(p.planned_start_date, 'YYYY-MM-DD'), p.status,
             p.quantity::text
        FROM production_order p WHERE p.sale_order_id = ${orderId}
    ) d
    ORDER BY d.date, d.doc_no`.execute(db);
  return { lines: lines.rows, documents: documents.rows };
}

const progressAnswer = z.object({
  lines: z.array(
    z.object({
      lineId: z.number().int(),
      lineNo: z.number().int(),
      materialId: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      materialSpec: z.string().nullable(),
      unitName: z.string().nullable(),
      baseQuantity: z.string().nullable(),
      plannedQuantity: z.string(),
      stockQuantity: z.string(),
      shippedQuantity: z.string(),
      owedQuantity: z.string(),
    }),
  ),
  documents: z.array(
    z.object({
      kind: z.enum(['sales-outbound', 'sales-return', 'production-order']),
      id: z.number().int(),
      docNo: z.string(),
      date: z.string().nullable(),
      status: z.string(),
      quantity: z.string(),
    }),
  ),
});

export function saleOrderProgressRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/sale-order/progress/:id',
    permission: 'sale:order:list',
    params: idParams,
    response: progressAnswer,
    handler: ({ params, app: { db } }) => saleOrderProgress(db, params.id),
  });
}
