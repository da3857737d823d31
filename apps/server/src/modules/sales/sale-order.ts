import {
  SALE_ORDER_ATTACHMENT_OWNER,
  SALE_ORDER_FILES_OPEN,
  SALE_ORDER_LIFECYCLE,
  SALE_ORDER_OVER_CREDIT,
  saleOrderResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AttachmentOwner, dropAttachmentRows } from '../../platform/attachments/attachments.ts';
import { audit } from '../../platform/audit.ts';
import { can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionCtx } from '../../platform/resource/lifecycle.ts';
import {
  assertNoStockDocuments,
  lineDefaults,
  type OrderPricing,
  priceOrder,
  validateOrder,
} from '../orders/order-lines.ts';
import { reportingTransitions, SALE_REPORT } from '../orders/report.ts';
import { salesHooks } from './sales-hooks.ts';

/** Sales orders price from the customer's last price, else the product's sale price. */
const PRICING: OrderPricing = {
  table: 'sale_order',
  lineTable: 'sale_order_line',
  parentColumn: 'sale_order_id',
  partyColumn: 'customer_id',
  fallbackColumn: 'sale_price',
  noPrice: '该产品没有销售价，也没有该客户的历史成交价，请填写单价',
};

export const saleOrderHooks: ResourceHooks = lifecycleHooks(saleOrderResource, {
  async prepare({ user }, data) {
    return {
      salespersonId: data.salespersonId ?? user.id,
    };
  },
  validate: ({ db }, data) => validateOrder(db, data),
  async afterSave({ db }, id) {
    await priceOrder(db, PRICING, id);
  },
  // Only drafts are deleted (the lifecycle checks first); their files' rows go with them.
  async beforeDelete({ db }, ids) {
    await dropAttachmentRows(db, SALE_ORDER_ATTACHMENT_OWNER, ids);
  },
});

/**
 * 附件 of a sales order (合同、图纸、技术协议): any file type the store accepts, read with the order's
 * read permission and changed by whoever may add or edit orders, while the order is open (草稿 to 部分发货).
 * Locks the order, so an upload and closing the order happen one after the other.
 */
export const saleOrderAttachmentOwner: AttachmentOwner = {
  name: SALE_ORDER_ATTACHMENT_OWNER,
  label: '销售订单附件',
  read: 'sale:order:list',
  // Whoever drafts orders attaches the customer's files to them, as does whoever edits them.
  write: ['sale:order:edit', 'sale:order:add'],
  async assertWritable(db, orderId) {
    const r = await sql<{ docNo: string; status: string }>`
      SELECT doc_no, status FROM sale_order WHERE id = ${orderId} FOR UPDATE`.execute(db);
    const order = r.rows[0];
    if (!order) throw notFound('销售订单不存在或已被删除');
    if (!SALE_ORDER_FILES_OPEN.includes(order.status)) {
      const label = SALE_ORDER_LIFECYCLE.states.find((s) => s.value === order.status)?.label ?? order.status;
      throw conflict(`销售订单 ${order.docNo} 当前为「${label}」，不能再上传或删除附件`);
    }
  },
};

/** What a customer owes and has on order, for the credit check: money as exact strings. */
export interface CreditPosition {
  limit: string | null;
  openOrders: string;
  receivables: string;
}

/**
 * The customer's open exposure besides the order `exceptId`: the unshipped share of every approved
 * order (amount × unshipped ÷ ordered base quantity, to the fen per line), plus the open amount
 * of its receivables (应收管理: shipped and not yet received). Locks the customer row, so two approvals
 * for one customer are checked one after the other.
 */
export async function creditPosition(db: Db, customerId: number, exceptId: number): Promise<CreditPosition> {
  // Lock first, then sum in a statement of its own: under READ COMMITTED that statement's snapshot
  // is taken after the lock was granted, so it sees what the previous holder committed.
  const c = await sql<{ limit: string | null }>`
    SELECT credit_limit::text AS limit FROM customer WHERE id = ${customerId} FOR UPDATE`.execute(db);
  const r = await sql<{ openOrders: string }>`
    SELECT COALESCE(sum(round(l.amount * (l.base_quantity - l.shipped_quantity) / l.base_quantity, 2)), 0)::text AS open_orders
      FROM sale_order o JOIN sale_order_line l ON l.sale_order_id = o.id
     WHERE o.customer_id = ${customerId} AND o.id <> ${exceptId}
       AND o.status IN ('approved', 'producing', 'partly-shipped') AND l.base_quantity > 0`.execute(db);
  return {
    limit: c.rows[0].limit,
    openOrders: r.rows[0].openOrders,
    receivables: await salesHooks.openReceivables.ask(db, customerId),
  };
}

const yuan = (d: Decimal.Value) => new Decimal(d).toFixed(2);

/**
 * 审核: the credit check, then who approved when. Going over the limit is refused with the figures,
 * unless the user may approve over credit; then the order is flagged and an audit row says so.
 */
async function approve(ctx: TransitionCtx) {
  const { db, record, user } = ctx;
  const p = await creditPosition(db, record.customerId, record.id);
  const total = new Decimal(p.openOrders).plus(p.receivables).plus(record.amount);
  const over = p.limit !== null && total.gt(p.limit);
  if (over && !can(user, SALE_ORDER_OVER_CREDIT)) {
    throw conflict(
      `超出客户信用额度，不能审核：信用额度 ${yuan(p.limit as string)} 元，应收未收 ${yuan(p.receivables)} 元，` +
        `其他未发货订单 ${yuan(p.openOrders)} 元，本单 ${yuan(record.amount)} 元，合计 ${yuan(total)} 元`,
    );
  }
  await sql`UPDATE sale_order SET approved_at = now(), approved_by_id = ${user.id}, over_credit = ${over}
             WHERE id = ${record.id}`.execute(db);
  if (over) {
    await audit(
      db,
      user,
      {
        entity: 'sale-order',
        entityId: record.id,
        action: 'overCredit',
        after: { limit: p.limit, openOrders: p.openOrders, receivables: p.receivables, order: record.amount },
      },
      ctx.requestId,
    );
  }
}

/** What the order's transitions do beyond moving the state. */
export const saleOrderTransitions = reportingTransitions(SALE_REPORT, SALE_ORDER_LIFECYCLE, {
  approve: { effect: approve },
  unapprove: {
    async guard({ db, record }) {
      await assertNoStockDocuments(db, 'sale_order_id', record.id);
      await salesHooks.unapproving.emit(db, record.id);
    },
    async effect({ db, record }) {
      await sql`UPDATE sale_order SET approved_at = NULL, approved_by_id = NULL, over_credit = false
                 WHERE id = ${record.id}`.execute(db);
    },
  },
});

const lineDefaultsQuery = z.strictObject({
  customerId: zx.id.optional(),
  materialId: zx.id,
  unitId: zx.id.optional(),
  /** The order being edited: its own lines are not its last price. */
  orderId: zx.id.optional(),
});

/** A line's unit, its ratio to the base unit and the price saving will give it (`lineDefaults`). */
const lineDefaultsAnswer = z.object({
  unitId: z.number().int().nullable(),
  unitName: z.string().nullable(),
  baseUnitId: z.number().int().nullable(),
  baseUnitName: z.string().nullable(),
  unitQuantity: z.string().nullable(),
  baseQuantity: z.string().nullable(),
  basePrecision: z.number().int().nullable(),
  unitPrice: z.string().nullable(),
  priceSource: z.enum(['last', 'material']).nullable(),
});

export function saleOrderRoutes(app: App) {
  // The order form shows a line's unit, price and amount as they are typed, as saving will set them.
  route(app, {
    method: 'GET',
    url: '/api/v1/sale-order/line-defaults',
    permission: 'sale:order:add',
    alsoAllowedBy: ['sale:order:edit'],
    query: lineDefaultsQuery,
    response: lineDefaultsAnswer,
    async handler({ query, app: { db } }) {
      const d = await lineDefaults(db, PRICING, {
        partyId: query.customerId,
        materialId: query.materialId,
        unitId: query.unitId,
        orderId: query.orderId,
      });
      if (!d) throw notFound('产品不存在或已被删除');
      return d;
    },
  });
}
