import { stockInboundResource, stockOutboundResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { contains } from '../../platform/db/like.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { ALL_ROWS_MAX, checkAllRows } from '../../platform/paging.ts';
import { createRecord, getRecord } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import { answerRowSchema, fieldSchema } from '../../platform/resource/schema.ts';
import { assertInScope, gate } from '../../platform/resource/scope.ts';
import { promisedDay } from '../orders/on-time.ts';
import { percentSetting, qty } from '../orders/order-lines.ts';
import { markCompleted, refreshOrderReport, SALE_REPORT } from '../orders/report.ts';
import { DOC_HOOKS } from '../warehouse/documents.ts';
import { registerStockSource, type SourceMove, type StockKind } from '../warehouse/sources.ts';

/**
 * Shipping against sales orders (销售仓库): 销售出库 drafts made from open order lines, sales
 * returns against shipped lines, and what posting them does to the order. An order line's
 * shipped quantity (base unit) is the sum of its posted shipments minus posted returns; it never
 * exceeds the ordered quantity plus the over-ship allowance, and the order's state follows it:
 * nothing shipped → 已审核 (生产中 while in production), some → 部分发货, all → 已完成.
 */

/** States an order can be shipped in. */
const SHIPPABLE = ['approved', 'producing', 'partly-shipped'];

/**
 * Over-ship allowance in percent of the ordered quantity (销售超发比例). Default 0: never more
 * than ordered. Read from the system setting `sales.overShipPercent` (sys_setting) when it is set.
 */
const OVER_SHIP = 'sales.overShipPercent';

interface OrderLineRow {
  id: number;
  lineNo: number;
  materialId: number;
  materialName: string;
  baseQuantity: string;
  shippedQuantity: string;
}

async function orderHead(db: Db, orderId: number, lock = false) {
  const r = await sql<{ id: number; docNo: string; status: string; customerId: number }>`
    SELECT id, doc_no, status, customer_id FROM sale_order WHERE id = ${orderId}
    ${lock ? sql`FOR UPDATE` : sql``}`.execute(db);
  const o = r.rows[0];
  if (!o) throw notFound('销售订单不存在或已被删除');
  return o;
}

async function orderLines(db: Db, orderId: number, lock = false): Promise<OrderLineRow[]> {
  const r = await sql<OrderLineRow>`
    SELECT l.id, l.line_no, l.material_id, m.name AS material_name,
           l.base_quantity::text AS base_quantity, l.shipped_quantity::text AS shipped_quantity
      FROM sale_order_line l JOIN material m ON m.id = l.material_id
     WHERE l.sale_order_id = ${orderId}
     ORDER BY l.id ${lock ? sql`FOR UPDATE OF l` : sql``}`.execute(db);
  return r.rows;
}

const STATE_TEXT: Record<string, string> = {
  draft: '草稿',
  approved: '已审核',
  producing: '生产中',
  'partly-shipped': '部分发货',
  completed: '已完成',
  closed: '已关闭',
};

/** The order's state after its shipped quantities changed (closed and draft orders keep theirs). */
async function settleOrderState(db: Db, orderId: number) {
  await sql`
    WITH x AS (
      SELECT CASE WHEN bool_and(shipped_quantity >= base_quantity) THEN 'completed'
                  WHEN bool_or(shipped_quantity > 0) THEN 'partly-shipped' END AS shipped_state
        FROM sale_order_line WHERE sale_order_id = ${orderId}
    ), s AS (
      SELECT o.id, COALESCE(x.shipped_state, CASE WHEN o.status = 'producing' THEN 'producing' ELSE 'approved' END) AS next
        FROM sale_order o, x
       WHERE o.id = ${orderId} AND o.status IN ('approved', 'producing', 'partly-shipped', 'completed')
    )
    UPDATE sale_order o SET status = s.next, updated_at = now(), version = o.version + 1
      FROM s WHERE o.id = s.id AND o.status <> s.next`.execute(db);
}

/** Links a stock document's lines to the order's lines: the named one, or the first with the material. */
async function link(
  db: Db,
  doc: { kind: StockKind; type: string; orderId: number; data: Record<string, any> },
  lines: Record<string, any>[],
) {
  const order = await orderHead(db, doc.orderId);
  const shipping = doc.kind === 'outbound';
  if (shipping ? !SHIPPABLE.includes(order.status) : order.status === 'draft') {
    throw conflict(`销售订单 ${order.docNo} ${STATE_TEXT[order.status]}，不能${shipping ? '发货' : '退货'}`);
  }
  if (doc.data.customerId != null && Number(doc.data.customerId) !== Number(order.customerId)) {
    throw badRequest(`客户与销售订单 ${order.docNo} 的客户不一致`, [
      { field: 'customerId', message: '与销售订单的客户不一致' },
    ]);
  }
  const ordered = await orderLines(db, doc.orderId);
  const byId = new Map(ordered.map((l) => [Number(l.id), l]));
  lines.forEach((line, i) => {
    const named = line.sourceLineId != null ? byId.get(Number(line.sourceLineId)) : undefined;
    const match =
      named ??
      ordered.find(
        (o) =>
          Number(o.materialId) === Number(line.materialId) &&
          (!shipping || new Decimal(o.shippedQuantity).lt(o.baseQuantity)),
      ) ??
      ordered.find((o) => Number(o.materialId) === Number(line.materialId));
    if (!match || Number(match.materialId) !== Number(line.materialId)) {
      const message = named
        ? `销售订单 ${order.docNo} 第 ${named.lineNo} 行的产品是「${named.materialName}」，与本行物料不一致`
        : `销售订单 ${order.docNo} 没有本行的产品`;
      throw badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.materialId`, message }]);
    }
    line.sourceLineId = Number(match.id);
  });
  return { customerId: order.customerId, sourceNo: order.docNo };
}

/**
 * Posting or reversing against the order: locks the order, then its lines in id order (the same
 * order for every document, so concurrent shipments queue rather than deadlock), checks the
 * bounds with exact decimals and writes the new shipped quantities and state.
 */
async function apply(db: Db, orderId: number, moves: SourceMove[], _type: string, day?: string) {
  const order = await orderHead(db, orderId, true);
  const adds = moves.some((m) => m.quantity.gt(0));
  if (adds && !SHIPPABLE.includes(order.status) && order.status !== 'completed') {
    throw conflict(`销售订单 ${order.docNo} ${STATE_TEXT[order.status]}，不能发货`);
  }
  const lines = await orderLines(db, orderId, true);
  const byId = new Map(lines.map((l) => [Number(l.id), l]));
  const allowance = adds ? await percentSetting(db, OVER_SHIP) : new Decimal(0);
  const next = new Map<number, Decimal>();
  for (const m of moves) {
    const line = byId.get(m.lineId);
    if (!line) throw conflict(`销售订单 ${order.docNo} 的明细已变更，请重新发货`);
    const before = next.get(m.lineId) ?? new Decimal(line.shippedQuantity);
    const after = before.plus(m.quantity);
    if (after.lt(0)) {
      throw conflict(
        `退货数量超过已发货数量：销售订单 ${order.docNo} 第 ${line.lineNo} 行「${line.materialName}」` +
          `已发货 ${qty(before)}，本次退回 ${qty(m.quantity.neg())}`,
      );
    }
    const most = new Decimal(line.baseQuantity).times(allowance.plus(100)).dividedBy(100);
    if (m.quantity.gt(0) && after.gt(most)) {
      throw conflict(
        `超出销售订单未发数量：${order.docNo} 第 ${line.lineNo} 行「${line.materialName}」订购 ${qty(line.baseQuantity)}，` +
          `已发货 ${qty(before)}，本次 ${qty(m.quantity)}，最多还可发 ${qty(Decimal.max(most.minus(before), 0))}` +
          (allowance.gt(0) ? `（含超发 ${allowance.toString()}%）` : ''),
      );
    }
    next.set(m.lineId, after);
  }
  await sql`
    UPDATE sale_order_line l SET shipped_quantity = x.q
      FROM unnest(${sql.val([...next.keys()])}::bigint[], ${sql.val([...next.values()].map((d) => d.toString()))}::numeric[]) AS x(id, q)
     WHERE l.id = x.id`.execute(db);
  await markCompleted(db, SALE_REPORT, [...next.keys()], day);
  await settleOrderState(db, orderId);
  await refreshOrderReport(db, SALE_REPORT, [orderId]);
}

registerStockSource({
  field: 'saleOrderId',
  label: '销售订单',
  types: { outbound: { sales: 1 }, inbound: { 'sales-return': -1 } },
  link,
  apply,
});

// ------------------------------------------------------------------ 销售仓库

const openLinesQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  customerId: zx.id.optional(),
  materialId: zx.id.optional(),
  docNo: zx.text(30).optional(),
  /** 1: only lines past their delivery date. */
  late: zx.flag.optional(),
  /** 1: also lines fully shipped (for returns). */
  shipped: zx.flag.optional(),
});

const shipQuantity = fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 });

const shipBody = z.strictObject({
  warehouseId: zx.id,
  bizDate: zx.businessDay('业务日期').optional(),
  remark: zx.text(500).optional(),
  lines: z
    .array(z.strictObject({ lineId: zx.id, quantity: shipQuantity }), { error: '请选择要发货的订单明细' })
    .min(1, '请选择要发货的订单明细')
    .max(500, '一次最多 500 行'),
});

/** 欠发 of a sales order line (alias given): ordered less shipped, never below zero (base unit). */
export const owedOf = (line: string) =>
  sql<string>`greatest(${sql.ref(`${line}.base_quantity`)} - ${sql.ref(`${line}.shipped_quantity`)}, 0)`;

/** 库存 of a product for shipping: its qualified stock on hand in every warehouse (base unit). */
export const availableOf = (materialId: unknown) => sql<string>`
  COALESCE((SELECT sum(b.quantity) FROM stock_balance b
             WHERE b.material_id = ${materialId} AND b.quality_status = 'qualified'), 0)`;

/**
 * The rows of 销售仓库: each open line of approved orders with ordered, shipped, owed, already on
 * a 销售出库 draft (pending, base unit) and the qualified stock on hand (all warehouses), late first.
 */
async function openLines(db: Db, q: z.infer<typeof openLinesQuery>) {
  const today = businessDay();
  const where = sql.join(
    [
      sql`o.status IN ('approved', 'producing', 'partly-shipped'${q.shipped === '1' ? sql`, 'completed'` : sql``})`,
      q.shipped === '1' ? sql`l.shipped_quantity > 0` : sql`l.shipped_quantity < l.base_quantity`,
      q.customerId ? sql`o.customer_id = ${q.customerId}` : sql`true`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
      q.docNo ? contains(sql.ref('o.doc_no'), q.docNo) : sql`true`,
      // 逾期: promised before today and not shipped in full (orders/on-time.ts, the cockpit's 逾期未交货).
      q.late === '1' ? sql`${promisedDay} < ${today}::date` : sql`true`,
    ],
    sql` AND `,
  );
  const pageSize = q.pageSize;
  const offset = (Math.max(q.pageNum, 1) - 1) * pageSize;
  const r = await sql<Record<string, any>>`
    SELECT l.id AS line_id, l.line_no, o.id AS order_id, o.doc_no, o.customer_id, c.name AS customer_name,
           l.material_id, m.code AS material_code, m.name AS material_name, m.spec AS material_spec,
           u.name AS unit_name, l.delivery_date, l.base_quantity, l.shipped_quantity,
           ${owedOf('l')} AS owed_quantity,
           COALESCE((SELECT sum(CASE WHEN ol.unit_id IS NULL OR ol.unit_id = m.unit_id THEN ol.quantity
                                     ELSE (SELECT round_ratio(ol.quantity * c.base_quantity, c.unit_quantity, bu.precision)
                                             FROM material_unit_conversion c, material_unit bu
                                            WHERE c.material_id = ol.material_id AND c.unit_id = ol.unit_id
                                              AND bu.id = m.unit_id) END)
                       FROM stock_outbound_line ol JOIN stock_outbound d ON d.id = ol.stock_outbound_id
                      WHERE ol.source_line_id = l.id AND d.sale_order_id = o.id AND d.status = 'draft'), 0) AS pending_quantity,
           ${availableOf(sql.ref('l.material_id'))} AS available_quantity,
           ${promisedDay} < ${today}::date AS late, o.status,
           count(*) OVER () AS total
      FROM sale_order_line l
      JOIN sale_order o ON o.id = l.sale_order_id
      JOIN customer c ON c.id = o.customer_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE ${where}
     ORDER BY l.delivery_date, o.doc_no, l.line_no
     LIMIT ${pageSize} OFFSET ${offset}`.execute(db);
  const total = Number(r.rows[0]?.total ?? 0);
  return { total, list: r.rows.map(({ total: _t, ...row }) => row) };
}

/**
 * Makes the stock document of a 发货 (销售出库 draft) or a 退货 (销售退货入库 draft) for the chosen
 * lines, all of one order, through the warehouse's own create path (numbering, checks, links).
 * The 发货/退货 permission is what lets the salesperson make that one draft; posting it stays
 * with the warehouse.
 */
async function makeDocument(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof shipBody>,
  kind: 'outbound' | 'inbound',
  requestId: string,
) {
  const ids = body.lines.map((l) => l.lineId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一订单明细不能选择两次');
  const r = await sql<{ id: number; saleOrderId: number; materialId: number }>`
    SELECT id, sale_order_id, material_id FROM sale_order_line WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(
    db,
  );
  if (r.rows.length !== ids.length) throw notFound('所选订单明细不存在或已被删除');
  const orders = new Set(r.rows.map((x) => Number(x.saleOrderId)));
  if (orders.size > 1) throw badRequest('一次只能为一个销售订单发货或退货');
  const orderId = [...orders][0];
  const byId = new Map(r.rows.map((x) => [Number(x.id), x]));
  const shipping = kind === 'outbound';
  const def = shipping ? stockOutboundResource : stockInboundResource;
  const scoped = shipping ? 'warehouse:salesOutbound:add' : 'warehouse:salesReturnInbound:add';
  const actor: AuthUser = { ...user, permissions: new Set([...user.permissions, scoped]) };
  const id = await createRecord(
    { db, def, user: actor },
    {
      type: shipping ? 'sales' : 'sales-return',
      warehouseId: body.warehouseId,
      bizDate: body.bizDate,
      saleOrderId: orderId,
      remark: body.remark,
      lines: body.lines.map((l) => ({
        materialId: Number(byId.get(l.lineId)?.materialId),
        quantity: l.quantity,
        sourceLineId: l.lineId,
        qualityStatus: shipping ? 'qualified' : 'pending',
      })),
    },
    DOC_HOOKS[def.name],
    requestId,
  );
  return getRecord(db, def, id);
}

/** 销售仓库 as a workbook: the filtered lines (every page, up to ALL_ROWS_MAX), base units. */
async function openLinesWorkbook(rows: Record<string, any>[], shipped: boolean) {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet('销售仓库', { views: [{ state: 'frozen', ySplit: 1 }] });
  const columns: [string, number, (r: Record<string, any>) => unknown][] = [
    ['订单号', 18, (r) => r.docNo],
    ['行号', 6, (r) => r.lineNo],
    ['客户', 24, (r) => r.customerName],
    ['物料编码', 16, (r) => r.materialCode],
    ['物料名称', 20, (r) => r.materialName],
    ['规格', 16, (r) => r.materialSpec ?? ''],
    ['单位', 6, (r) => r.unitName ?? ''],
    ['交货日期', 12, (r) => r.deliveryDate ?? ''],
    ['订购数量', 12, (r) => Number(r.baseQuantity)],
    ['已发数量', 12, (r) => Number(r.shippedQuantity)],
    ['欠发数量', 12, (r) => Number(r.owedQuantity)],
    ['待过账', 12, (r) => Number(r.pendingQuantity)],
    ['成品库存', 12, (r) => Number(r.availableQuantity)],
    ['逾期', 6, (r) => (r.late ? '是' : '')],
  ];
  ws.columns = columns.map(([header, width]) => ({ header, width }));
  ws.getRow(1).font = { bold: true };
  for (const r of rows) ws.addRow(columns.map(([, , cell]) => neutralise(cell(r))));
  ws.headerFooter.oddHeader = shipped ? '销售仓库（已发货）' : '销售仓库（待发货）';
  return wb;
}

// ------------------------------------------------------------------ 送货单

/**
 * The 送货单 (delivery note) of a 销售出库: what the customer receives and signs. Each line is
 * priced and counted as its sales order line was sold — the line's unit (箱 when the order said
 * 箱), the quantity in that unit, the order's tax-inclusive unit price and the amount — never at
 * the stock cost the posting recorded on the outbound line. The header names the customer with
 * its address, contact and phone. A line shipped without an order line keeps its own unit and has
 * no price.
 */
export async function deliveryNote(db: Db, id: number) {
  const head = await sql<Record<string, any>>`
    SELECT d.id, d.doc_no, d.type, d.status, d.biz_date, d.remark, w.name AS warehouse_name,
           o.id AS sale_order_id, o.doc_no AS sale_order_no, o.tax_rate, o.currency, sp.first_name AS salesperson_name,
           c.id AS customer_id, c.code AS customer_code, c.name AS customer_name, c.address,
           COALESCE(NULLIF(c.contact, ''), pc.name) AS contact,
           COALESCE(NULLIF(c.phone, ''), pc.phone) AS phone
      FROM stock_outbound d
      LEFT JOIN warehouse w ON w.id = d.warehouse_id
      LEFT JOIN sale_order o ON o.id = d.sale_order_id
      LEFT JOIN app_user sp ON sp.id = o.salesperson_id
      LEFT JOIN customer c ON c.id = COALESCE(d.customer_id, o.customer_id)
      LEFT JOIN LATERAL (SELECT x.name, x.phone FROM customer_contact x WHERE x.customer_id = c.id
                          ORDER BY x.is_primary DESC, x.line_no LIMIT 1) pc ON true
     WHERE d.id = ${id}`.execute(db);
  const note = head.rows[0];
  if (!note) throw notFound('出库单不存在或已被删除');
  if (note.type !== 'sales') throw badRequest('只有销售出库单有送货单');
  // The quantity in the order line's unit: the outbound line's own when it was entered in that
  // unit, else its base quantity at the order line's ratio (ordered ÷ ordered in base units).
  const lines = await sql<Record<string, any>>`
    WITH x AS (
      SELECT l.id, l.line_no, m.code AS material_code, m.name AS material_name, m.spec, l.batch_no,
             COALESCE(su.name, bu.name) AS unit_name, sol.unit_price,
             CASE WHEN sol.id IS NULL THEN l.quantity
                  WHEN COALESCE(l.unit_id, m.unit_id) IS NOT DISTINCT FROM COALESCE(sol.unit_id, m.unit_id) THEN l.quantity
                  ELSE round(COALESCE(l.base_quantity, l.quantity) * sol.quantity / NULLIF(sol.base_quantity, 0), 4) END AS quantity,
             CASE WHEN sol.id IS NULL THEN COALESCE(ou.name, bu.name) END AS own_unit_name,
             so.doc_no AS order_no, sol.line_no AS order_line_no
        FROM stock_outbound_line l
        JOIN material m ON m.id = l.material_id
        LEFT JOIN material_unit bu ON bu.id = m.unit_id
        LEFT JOIN material_unit ou ON ou.id = l.unit_id
        LEFT JOIN stock_outbound d ON d.id = l.stock_outbound_id
        LEFT JOIN sale_order_line sol ON sol.id = l.source_line_id AND sol.sale_order_id = d.sale_order_id
        LEFT JOIN sale_order so ON so.id = sol.sale_order_id
        LEFT JOIN material_unit su ON su.id = sol.unit_id
       WHERE l.stock_outbound_id = ${id})
    SELECT id, line_no, material_code, material_name, spec, batch_no, COALESCE(own_unit_name, unit_name) AS unit_name,
           quantity::text AS quantity, unit_price::text AS unit_price,
           CASE WHEN unit_price IS NULL THEN NULL ELSE round(quantity * unit_price, 2)::text END AS amount,
           order_no, order_line_no
      FROM x ORDER BY line_no`.execute(db);
  const amount = lines.rows.reduce((sum, l) => (l.amount == null ? sum : sum.plus(l.amount)), new Decimal(0));
  const byUnit = new Map<string, Decimal>();
  for (const l of lines.rows)
    byUnit.set(l.unitName ?? '', (byUnit.get(l.unitName ?? '') ?? new Decimal(0)).plus(l.quantity));
  return {
    ...note,
    lines: lines.rows,
    totals: {
      amount: amount.toFixed(2),
      /** Quantities per unit: 套 and 箱 are never added. */
      quantities: [...byUnit].map(([unitName, q]) => ({ unitName, quantity: q.toString() })),
    },
  };
}

// ------------------------------------------------------------------ answers

const id = z.number().int();
const text = z.string().nullable();
const deliveryNoteAnswer = z.object({
  id,
  docNo: z.string(),
  type: z.literal('sales'),
  status: z.string(),
  bizDate: z.string(),
  remark: text,
  warehouseName: text,
  saleOrderId: id.nullable(),
  saleOrderNo: text,
  taxRate: text,
  currency: text,
  salespersonName: text,
  customerId: id.nullable(),
  customerCode: text,
  customerName: text,
  address: text,
  contact: text,
  phone: text,
  lines: z.array(
    z.object({
      id,
      lineNo: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      spec: text,
      batchNo: text,
      unitName: text,
      quantity: z.string(),
      /** The order line's tax-inclusive price; null for a line shipped without one. */
      unitPrice: text,
      amount: text,
      orderNo: text,
      orderLineNo: z.number().int().nullable(),
    }),
  ),
  totals: z.object({
    amount: z.string(),
    quantities: z.array(z.object({ unitName: z.string(), quantity: z.string() })),
  }),
});
const openLinesAnswer = z.object({
  total: z.number().int(),
  list: z.array(
    z.object({
      lineId: id,
      lineNo: z.number().int(),
      orderId: id,
      docNo: z.string(),
      customerId: id,
      customerName: z.string(),
      materialId: id,
      materialCode: z.string(),
      materialName: z.string(),
      materialSpec: text,
      unitName: text,
      deliveryDate: text,
      baseQuantity: z.string(),
      shippedQuantity: z.string(),
      owedQuantity: z.string(),
      /** In 销售出库 drafts not yet posted. */
      pendingQuantity: z.string(),
      availableQuantity: z.string(),
      late: z.boolean().nullable(),
      status: z.string(),
    }),
  ),
});

export function shippingRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stock-outbound/delivery-note/:id',
    ...gate(stockOutboundResource, 'list'),
    params: idParams,
    response: deliveryNoteAnswer,
    async handler({ params, user, app: { db } }) {
      // Whoever reads the 销售出库 prints its 送货单 (a keeper of sales outbound only: his kind).
      assertInScope(
        user,
        stockOutboundResource,
        'list',
        await getRecord(db, stockOutboundResource, params.id),
      );
      return deliveryNote(db, params.id);
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/sale-order/open-lines',
    permission: 'sale:warehouse:list',
    query: openLinesQuery,
    response: openLinesAnswer,
    handler: ({ query, app: { db } }) => openLines(db, query),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/sale-order/open-lines/export',
    permission: 'sale:warehouse:export',
    query: openLinesQuery,
    response: z.object({ fileName: z.string(), rows: z.number().int() }),
    async handler({ query, user, app: { db, config } }) {
      const all = await openLines(db, { ...query, pageNum: 1, pageSize: ALL_ROWS_MAX + 1 });
      checkAllRows(all.total);
      const wb = await openLinesWorkbook(all.list, query.shipped === '1');
      const { file, fileName } = newExportFile(config.exportDir, user.id, '销售仓库');
      await wb.xlsx.writeFile(file);
      return { fileName, rows: all.list.length };
    },
  });
  for (const [name, kind] of [
    ['ship', 'outbound'],
    ['return-goods', 'inbound'],
  ] as const) {
    route(app, {
      method: 'POST',
      url: `/api/v1/sale-order/${name}`,
      permission: name === 'ship' ? 'sale:warehouse:ship' : 'sale:warehouse:return',
      body: shipBody,
      // The draft made, as the warehouse's `info` answers it.
      response: z.lazy(() =>
        answerRowSchema(kind === 'outbound' ? stockOutboundResource : stockInboundResource),
      ),
      handler: ({ body, user, req, app: { db } }) =>
        db.transaction().execute((trx) => makeDocument(trx, user, body, kind, req.id)),
    });
  }
}
