import { purchaseOrderResource, purchaseRequisitionResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { contains } from '../../platform/db/like.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { assertNotBefore, fillLineBases, type LineTables, qty, unitErrors } from '../orders/order-lines.ts';

// A cycle, used only at call time: purchase orders check requisition links, 生成采购订单 makes orders.
import { purchaseOrderHooks } from './purchase-order.ts';

/**
 * 请购单 (purchase requisitions): what production or a department needs bought. Approved lines
 * are turned into purchase orders (生成采购订单, merged by supplier); each purchase order line
 * names its requisition line, and the requisition line's ordered quantity (base unit) is the sum
 * of those purchase order lines — of a closed order only what it received. The requisition's
 * state follows: nothing ordered → 已审核, some → 部分下单, all → 已下单.
 */

const LINES: LineTables = {
  table: 'purchase_requisition',
  lineTable: 'purchase_requisition_line',
  parentColumn: 'purchase_requisition_id',
  date: ['required_date', 'required_date'],
};

/** Requisition states whose lines may be ordered. */
const ORDERABLE = ['approved', 'partly-ordered'];

export const requisitionHooks: ResourceHooks = lifecycleHooks(purchaseRequisitionResource, {
  async prepare({ user }, data) {
    return {
      requesterId: data.requesterId ?? user.id,
    };
  },
  async derive({ db }, data) {
    const r = await sql<{
      deptId: number | null;
    }>`SELECT dept_id FROM app_user WHERE id = ${data.requesterId}`.execute(db);
    return { deptId: r.rows[0]?.deptId ?? null };
  },
  async validate({ db }, data) {
    assertNotBefore(data, 'requiredDate', 'requestDate', '需求日期不能早于请购日期');
    const errors = await unitErrors(db, data.lines ?? []);
    if (errors.length) throw badRequest(errors[0].message, errors);
  },
  afterSave: ({ db }, id) => fillLineBases(db, LINES, id),
});

export const requisitionTransitions: Record<string, TransitionHandlers> = {
  approve: {
    async effect({ db, record, user }) {
      await sql`UPDATE purchase_requisition SET approved_at = now(), approved_by_id = ${user.id} WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
  unapprove: {
    async guard({ db, record }) {
      const r = await sql<{ docNo: string }>`
        SELECT o.doc_no FROM purchase_order_line pl
          JOIN purchase_order o ON o.id = pl.purchase_order_id
          JOIN purchase_requisition_line l ON l.id = pl.requisition_line_id
         WHERE l.purchase_requisition_id = ${record.id} LIMIT 1`.execute(db);
      if (r.rows[0]) throw conflict(`请购单已生成采购订单 ${r.rows[0].docNo}，不能反审核`);
    },
    async effect({ db, record }) {
      await sql`UPDATE purchase_requisition SET approved_at = NULL, approved_by_id = NULL WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
};

// ------------------------------------------------------------------ ordered quantities

/**
 * Purchase order lines that name requisition lines: each must be an approved requisition's line
 * of the same material. Called when a purchase order is saved.
 */
export async function checkRequisitionLinks(db: Db, lines: Record<string, any>[]) {
  const linked = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.requisitionLineId != null);
  if (!linked.length) return;
  const r = await sql<{ id: number; materialId: number; status: string; docNo: string }>`
    SELECT l.id, l.material_id, r.status, r.doc_no FROM purchase_requisition_line l
      JOIN purchase_requisition r ON r.id = l.purchase_requisition_id
     WHERE l.id = ANY(${sql.val(linked.map(({ l }) => Number(l.requisitionLineId)))}::bigint[])`.execute(db);
  const byId = new Map(r.rows.map((x) => [Number(x.id), x]));
  for (const { l, i } of linked) {
    const req = byId.get(Number(l.requisitionLineId));
    const message = !req
      ? '所引用的请购单明细不存在'
      : req.status === 'draft'
        ? `请购单 ${req.docNo} 未审核`
        : Number(req.materialId) !== Number(l.materialId)
          ? `物料与请购单 ${req.docNo} 的明细不一致`
          : null;
    if (message)
      throw badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.materialId`, message }]);
  }
}

/**
 * Recounts the ordered quantity of requisition lines from the purchase order lines that name
 * them (leaving out the orders in `without`, which are being deleted or unlinked), under the
 * requisition lines' row locks, and moves their requisitions' states. Refuses (409) ordering more
 * than requested, and more of a closed requisition than it had.
 */
export async function syncRequisitionLines(db: Db, lineIds: number[], without: number[] = []) {
  const ids = [...new Set(lineIds.map(Number))].sort((a, b) => a - b);
  if (!ids.length) return;
  await lockLines(db, ids);
  // A statement of its own after the locks, so it reads what the previous holder committed.
  const { rows } = await sql<{
    id: number;
    docNo: string;
    status: string;
    materialName: string;
    baseQuantity: string;
    before: string;
    after: string;
    requisitionId: number;
  }>`
    SELECT l.id, r.doc_no, r.status, m.name AS material_name, l.base_quantity::text AS base_quantity,
           l.ordered_quantity::text AS before, l.purchase_requisition_id AS requisition_id,
           COALESCE((SELECT sum(CASE WHEN o.status = 'closed'
                                     THEN greatest(pl.received_quantity - pl.returned_quantity, 0)
                                     ELSE pl.base_quantity END)
                       FROM purchase_order_line pl JOIN purchase_order o ON o.id = pl.purchase_order_id
                      WHERE pl.requisition_line_id = l.id
                        AND NOT (o.id = ANY(${sql.val(without)}::bigint[]))), 0)::text AS after
      FROM purchase_requisition_line l
      JOIN purchase_requisition r ON r.id = l.purchase_requisition_id
      JOIN material m ON m.id = l.material_id
     WHERE l.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  for (const x of rows) {
    const after = new Decimal(x.after);
    const more = after.gt(x.before);
    if (more && after.gt(x.baseQuantity)) {
      throw conflict(
        `超出请购数量：请购单 ${x.docNo}「${x.materialName}」请购 ${qty(x.baseQuantity)}，` +
          `已下单 ${qty(x.before)}，最多还可下单 ${qty(Decimal.max(new Decimal(x.baseQuantity).minus(x.before), 0))}`,
      );
    }
    if (more && x.status === 'closed') throw conflict(`请购单 ${x.docNo} 已关闭，不能再下单`);
  }
  const changed = rows.filter((x) => !new Decimal(x.after).eq(x.before));
  if (!changed.length) return;
  await sql`
    UPDATE purchase_requisition_line l SET ordered_quantity = x.q
      FROM unnest(${sql.val(changed.map((x) => x.id))}::bigint[], ${sql.val(changed.map((x) => x.after))}::numeric[]) AS x(id, q)
     WHERE l.id = x.id`.execute(db);
  const reqIds = [...new Set(changed.map((x) => Number(x.requisitionId)))];
  await sql`
    WITH x AS (
      SELECT purchase_requisition_id AS id,
             CASE WHEN bool_and(ordered_quantity >= base_quantity) THEN 'ordered'
                  WHEN bool_or(ordered_quantity > 0) THEN 'partly-ordered' ELSE 'approved' END AS next
        FROM purchase_requisition_line WHERE purchase_requisition_id = ANY(${sql.val(reqIds)}::bigint[])
       GROUP BY purchase_requisition_id
    )
    UPDATE purchase_requisition r SET status = x.next, updated_at = now(), version = r.version + 1
      FROM x WHERE r.id = x.id AND r.status IN ('approved', 'partly-ordered', 'ordered') AND r.status <> x.next`.execute(
    db,
  );
}

/** Row locks on requisition lines, in id order (every path takes them so, after any order's lock). */
async function lockLines(db: Db, ids: number[]) {
  await sql`SELECT id FROM purchase_requisition_line WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
    db,
  );
}

/** The requisition lines a purchase order's stored lines name. */
export async function requisitionLinesOf(db: Db, orderIds: number[]): Promise<number[]> {
  const r = await sql<{ id: number }>`
    SELECT DISTINCT requisition_line_id AS id FROM purchase_order_line
     WHERE purchase_order_id = ANY(${sql.val(orderIds)}::bigint[]) AND requisition_line_id IS NOT NULL`.execute(
    db,
  );
  return r.rows.map((x) => Number(x.id));
}

// ------------------------------------------------------------------ 生成采购订单

const openLinesQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  docNo: zx.text(30).optional(),
  materialId: zx.id.optional(),
  supplierId: zx.id.optional(),
});

/** Open lines of approved requisitions (requested − ordered > 0), earliest need first. */
async function openLines(db: Db, q: z.infer<typeof openLinesQuery>) {
  const where = sql.join(
    [
      sql`r.status IN ('approved', 'partly-ordered')`,
      sql`l.ordered_quantity < l.base_quantity`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
      q.supplierId ? sql`l.supplier_id = ${q.supplierId}` : sql`true`,
      q.docNo ? contains(sql.ref('r.doc_no'), q.docNo) : sql`true`,
    ],
    sql` AND `,
  );
  const offset = (Math.max(q.pageNum, 1) - 1) * q.pageSize;
  const r = await sql<Record<string, any>>`
    SELECT l.id AS line_id, l.line_no, r.id AS requisition_id, r.doc_no, r.reason,
           l.material_id, m.code AS material_code, m.name AS material_name, m.spec AS material_spec,
           u.name AS unit_name, l.required_date, l.supplier_id, s.name AS supplier_name,
           l.base_quantity, l.ordered_quantity, l.base_quantity - l.ordered_quantity AS open_quantity,
           count(*) OVER () AS total
      FROM purchase_requisition_line l
      JOIN purchase_requisition r ON r.id = l.purchase_requisition_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
      LEFT JOIN supplier s ON s.id = l.supplier_id
     WHERE ${where}
     ORDER BY l.required_date, r.doc_no, l.line_no
     LIMIT ${q.pageSize} OFFSET ${offset}`.execute(db);
  return { total: Number(r.rows[0]?.total ?? 0), list: r.rows.map(({ total: _t, ...row }) => row) };
}

export const toOrdersBody = z.strictObject({
  orderDate: fieldSchema({ name: 'orderDate', label: '订单日期', kind: 'date' }).optional(),
  remark: zx.text(500).optional(),
  lines: z
    .array(
      z.strictObject({
        requisitionLineId: zx.id,
        /** Base-unit quantity to order; default: all that is open. */
        quantity: fieldSchema({ name: 'quantity', label: '数量', kind: 'quantity', min: 0.0001 }).optional(),
        /** Supplier to buy from; default: the line's suggested supplier. */
        supplierId: zx.id.optional(),
      }),
      { error: '请选择要下单的请购明细' },
    )
    .min(1, '请选择要下单的请购明细')
    .max(500, '一次最多 500 行'),
});

const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

/**
 * 生成采购订单: draft purchase orders from chosen requisition lines, one per supplier, each line
 * naming its requisition line. The requisition lines are locked first (in id order), so two
 * buyers ordering the last open quantity at once never order it twice.
 */
export async function toOrders(
  db: Db,
  user: AuthUser,
  body: z.infer<typeof toOrdersBody>,
  requestId?: string,
) {
  const ids = body.lines.map((l) => l.requisitionLineId);
  if (new Set(ids).size !== ids.length) throw badRequest('同一请购明细不能选择两次');
  await lockLines(db, ids);
  const r = await sql<{
    id: number;
    docNo: string;
    status: string;
    materialId: number;
    materialName: string;
    supplierId: number | null;
    requiredDate: string;
    open: string;
  }>`
    SELECT l.id, r.doc_no, r.status, l.material_id, m.name AS material_name, l.supplier_id,
           to_char(COALESCE(l.required_date, r.required_date), 'YYYY-MM-DD') AS required_date,
           (l.base_quantity - l.ordered_quantity)::text AS open
      FROM purchase_requisition_line l
      JOIN purchase_requisition r ON r.id = l.purchase_requisition_id
      JOIN material m ON m.id = l.material_id
     WHERE l.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  if (r.rows.length !== ids.length) throw notFound('所选请购明细不存在或已被删除');
  const byId = new Map(r.rows.map((x) => [Number(x.id), x]));
  const orderDate = (body.orderDate as string | undefined) ?? today();
  const groups = new Map<
    number,
    { materialId: number; quantity: string; deliveryDate: string; requisitionLineId: number }[]
  >();
  body.lines.forEach((line, i) => {
    const x = byId.get(line.requisitionLineId);
    if (!x) return;
    const where = `第 ${i + 1} 行（请购单 ${x.docNo}「${x.materialName}」）`;
    if (!ORDERABLE.includes(x.status)) {
      throw conflict(
        `${where}：请购单${x.status === 'draft' ? '未审核' : x.status === 'closed' ? '已关闭' : '已全部下单'}`,
      );
    }
    const open = new Decimal(x.open);
    const quantity = line.quantity != null ? new Decimal(line.quantity as string) : open;
    if (open.lte(0) || quantity.gt(open)) {
      throw conflict(`${where}：超出未下单数量，最多还可下单 ${qty(Decimal.max(open, 0))}`);
    }
    const supplierId = line.supplierId ?? x.supplierId;
    if (!supplierId) {
      throw badRequest(`${where}：请选择供应商`, [
        { field: `lines.${i}.supplierId`, message: '请选择供应商' },
      ]);
    }
    const list = groups.get(Number(supplierId)) ?? [];
    list.push({
      materialId: Number(x.materialId),
      quantity: quantity.toString(),
      deliveryDate: x.requiredDate < orderDate ? orderDate : x.requiredDate,
      requisitionLineId: Number(x.id),
    });
    groups.set(Number(supplierId), list);
  });
  const ctx = { db, def: purchaseOrderResource, user };
  const created: { id: number; docNo: string; supplierId: number; lines: number }[] = [];
  for (const [supplierId, lines] of groups) {
    const id = await createRecord(
      ctx,
      {
        supplierId,
        orderDate,
        deliveryDate: lines.map((l) => l.deliveryDate).sort()[0],
        remark:
          body.remark ??
          `由请购单生成：${[...new Set(lines.map((l) => byId.get(l.requisitionLineId)?.docNo))].join('、')}`,
        lines,
      },
      purchaseOrderHooks,
      requestId,
    );
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM purchase_order WHERE id = ${id}`.execute(db);
    created.push({ id, docNo: doc.rows[0].docNo, supplierId, lines: lines.length });
  }
  return { orders: created };
}

const openLinesAnswer = z.object({
  total: z.number().int(),
  list: z.array(
    z.object({
      lineId: z.number().int(),
      lineNo: z.number().int(),
      requisitionId: z.number().int(),
      docNo: z.string(),
      reason: z.string().nullable(),
      materialId: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      materialSpec: z.string().nullable(),
      unitName: z.string().nullable(),
      requiredDate: z.string().nullable(),
      supplierId: z.number().int().nullable(),
      supplierName: z.string().nullable(),
      baseQuantity: z.string(),
      orderedQuantity: z.string(),
      openQuantity: z.string(),
    }),
  ),
});

export function requisitionRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/purchase-requisition/open-lines',
    permission: 'purchase:order:add',
    query: openLinesQuery,
    response: openLinesAnswer,
    handler: ({ query, app: { db } }) => openLines(db, query),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/purchase-requisition/to-orders',
    permission: 'purchase:order:add',
    body: toOrdersBody,
    // The draft purchase orders made, one per supplier.
    response: z.object({
      orders: z.array(
        z.object({
          id: z.number().int(),
          docNo: z.string(),
          supplierId: z.number().int(),
          lines: z.number().int(),
        }),
      ),
    }),
    handler: ({ body, user, req, app: { db } }) =>
      db.transaction().execute((trx) => toOrders(trx, user, body, req.id)),
  });
}
