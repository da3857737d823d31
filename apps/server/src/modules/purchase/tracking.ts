import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { contains } from '../../platform/db/like.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';

/**
 * 采购订单跟踪: every line of approved purchase orders with ordered, received, returned and open
 * quantities (base unit), late when still open after its delivery date, and the trail of stock
 * documents made against it (采购入库 and 采购退货出库, drafts included).
 */
const trackingQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  orderId: zx.id.optional(),
  docNo: zx.text(30).optional(),
  supplierId: zx.id.optional(),
  materialId: zx.id.optional(),
  status: z
    .enum(['approved', 'partly-received', 'completed', 'closed'], { error: '订单状态不正确' })
    .optional(),
  /** 1: only lines with something still to receive. */
  open: zx.flag.optional(),
  /** 1: only open lines past their delivery date. */
  late: zx.flag.optional(),
});

async function tracking(db: Db, q: z.infer<typeof trackingQuery>) {
  const openExpr = sql`CASE WHEN o.status IN ('approved', 'partly-received')
                            THEN greatest(l.base_quantity - (l.received_quantity - l.returned_quantity), 0) ELSE 0 END`;
  const where = sql.join(
    [
      sql`o.status <> 'draft'`,
      q.orderId ? sql`o.id = ${q.orderId}` : sql`true`,
      q.supplierId ? sql`o.supplier_id = ${q.supplierId}` : sql`true`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
      q.status ? sql`o.status = ${q.status}` : sql`true`,
      q.docNo ? contains(sql.ref('o.doc_no'), q.docNo) : sql`true`,
      q.open === '1' || q.late === '1' ? sql`${openExpr} > 0` : sql`true`,
      q.late === '1' ? sql`l.delivery_date < CURRENT_DATE` : sql`true`,
    ],
    sql` AND `,
  );
  const offset = (Math.max(q.pageNum, 1) - 1) * q.pageSize;
  const r = await sql<Record<string, any>>`
    SELECT l.id AS line_id, l.line_no, o.id AS order_id, o.doc_no, o.status, o.order_date,
           o.supplier_id, s.name AS supplier_name, l.material_id, m.code AS material_code,
           m.name AS material_name, m.spec AS material_spec, u.name AS unit_name, l.delivery_date,
           l.base_quantity, l.received_quantity, l.returned_quantity,
           ${openExpr} AS open_quantity,
           (${openExpr} > 0 AND l.delivery_date < CURRENT_DATE) AS late,
           COALESCE((
             SELECT json_agg(json_build_object('kind', d.kind, 'id', d.id, 'docNo', d.doc_no, 'type', d.type,
                                               'bizDate', d.biz_date, 'status', d.status, 'quantity', d.quantity)
                             ORDER BY d.biz_date, d.kind, d.doc_no) FROM (
               SELECT 'inbound' AS kind, h.id, h.doc_no, h.type, to_char(h.biz_date, 'YYYY-MM-DD') AS biz_date,
                      h.status, il.base_quantity::text AS quantity
                 FROM stock_inbound_line il JOIN stock_inbound h ON h.id = il.stock_inbound_id
                WHERE il.source_line_id = l.id AND h.purchase_order_id = o.id
               UNION ALL
               SELECT 'outbound', h.id, h.doc_no, h.type, to_char(h.biz_date, 'YYYY-MM-DD'), h.status,
                      ol.base_quantity::text
                 FROM stock_outbound_line ol JOIN stock_outbound h ON h.id = ol.stock_outbound_id
                WHERE ol.source_line_id = l.id AND h.purchase_order_id = o.id) d), '[]') AS documents,
           count(*) OVER () AS total
      FROM purchase_order_line l
      JOIN purchase_order o ON o.id = l.purchase_order_id
      JOIN supplier s ON s.id = o.supplier_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE ${where}
     ORDER BY l.delivery_date, o.doc_no, l.line_no
     LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  return {
    total: Number(r.rows[0]?.total ?? 0),
    pageNum: q.pageNum,
    pageSize: q.pageSize,
    list: r.rows.map(({ total: _t, documents, ...row }) => ({
      ...row,
      documents: typeof documents === 'string' ? JSON.parse(documents) : documents,
    })),
  };
}

const trackingAnswer = z.object({
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(
    z.object({
      lineId: z.number().int(),
      lineNo: z.number().int(),
      orderId: z.number().int(),
      docNo: z.string(),
      status: z.string(),
      orderDate: z.string().nullable(),
      supplierId: z.number().int(),
      supplierName: z.string(),
      materialId: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      materialSpec: z.string().nullable(),
      unitName: z.string().nullable(),
      deliveryDate: z.string().nullable(),
      baseQuantity: z.string(),
      receivedQuantity: z.string(),
      returnedQuantity: z.string(),
      openQuantity: z.string(),
      late: z.boolean().nullable(),
      /** 采购入库 and 采购退货出库 made against the line, drafts included. */
      documents: z.array(
        z.object({
          kind: z.enum(['inbound', 'outbound']),
          id: z.number().int(),
          docNo: z.string(),
          type: z.string(),
          bizDate: z.string().nullable(),
          status: z.string(),
          quantity: z.string().nullable(),
        }),
      ),
    }),
  ),
});

export function trackingRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/purchase-order/tracking',
    permission: 'purchase:order:list',
    query: trackingQuery,
    response: trackingAnswer,
    handler: ({ query, app: { db } }) => tracking(db, query),
  });
}
