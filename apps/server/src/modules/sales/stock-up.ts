import { stockUpOrderResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { assertNotBefore, fillLineBases, type LineTables, unitErrors } from '../orders/order-lines.ts';

/**
 * 备货单 (stock-up orders): finished bearings to make for stock ahead of orders — a season, a
 * customer's forecast. Approved, their lines are what production plans from besides sales orders
 * (生产订单 → 从备货单生成, modules/production/from-stock-up.ts, which also keeps each line's 已排产
 * and the 备货单's state — 生产中, 已完成 — following its production orders).
 */

const LINES: LineTables = {
  table: 'stock_up_order',
  lineTable: 'stock_up_order_line',
  parentColumn: 'stock_up_order_id',
  date: ['required_date', 'required_date'],
};

export const stockUpHooks: ResourceHooks = lifecycleHooks(stockUpOrderResource, {
  async prepare({ user }) {
    return {
      ownerId: user.id,
    };
  },
  async validate({ db }, data) {
    assertNotBefore(data, 'requiredDate', 'orderDate', '完成日期不能早于单据日期');
    const errors = await unitErrors(db, data.lines ?? []);
    if (errors.length) throw badRequest(errors[0].message, errors);
  },
  afterSave: ({ db }, id) => fillLineBases(db, LINES, id),
});

export const stockUpTransitions: Record<string, TransitionHandlers> = {
  approve: {
    async effect({ db, record, user }) {
      await sql`UPDATE stock_up_order SET approved_at = now(), approved_by_id = ${user.id} WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
  unapprove: {
    guard: async ({ db, record }) => {
      const r = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM stock_up_order_line WHERE stock_up_order_id = ${record.id} AND planned_quantity > 0`.execute(
        db,
      );
      if (r.rows[0].n > 0) throw conflict('备货单已排产，不能反审核');
    },
    async effect({ db, record }) {
      await sql`UPDATE stock_up_order SET approved_at = NULL, approved_by_id = NULL WHERE id = ${record.id}`.execute(
        db,
      );
    },
  },
};

/**
 * 生产进度 of a 备货单: per line what is planned and produced by the production orders made from it,
 * and those orders (with their ring orders) with state, quantity, produced and dates.
 */
export async function stockUpProgress(db: Db, id: number) {
  const lines = await sql<Record<string, unknown>>`
    SELECT l.id, l.line_no, l.material_id, m.code AS material_code, m.name AS material_name, u.name AS unit_name,
           COALESCE(l.base_quantity, l.quantity)::text AS base_quantity, l.planned_quantity::text AS planned_quantity,
           COALESCE((SELECT sum(p.produced_quantity) FROM production_order p WHERE p.stock_up_line_id = l.id), 0)::text
             AS produced_quantity
      FROM stock_up_order_line l JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit u ON u.id = m.unit_id
     WHERE l.stock_up_order_id = ${id}
     ORDER BY l.line_no`.execute(db);
  if (!lines.rows.length) throw notFound('备货单不存在或已被删除');
  const orders = await sql<Record<string, unknown>>`
    SELECT p.id, p.doc_no, p.status, p.source_type, p.stock_up_line_id, p.parent_order_id, m.name AS product_name,
           p.quantity::text AS quantity, p.produced_quantity::text AS produced_quantity,
           to_char(p.planned_start_date, 'YYYY-MM-DD') AS planned_start_date, to_char(p.due_date, 'YYYY-MM-DD') AS due_date
      FROM production_order p JOIN material m ON m.id = p.product_id
     WHERE p.stock_up_order_id = ${id}
     ORDER BY p.id`.execute(db);
  return { lines: lines.rows, orders: orders.rows };
}

const progressAnswer = z.object({
  lines: z.array(
    z.object({
      id: z.number().int(),
      lineNo: z.number().int(),
      materialId: z.number().int(),
      materialCode: z.string(),
      materialName: z.string(),
      unitName: z.string().nullable(),
      baseQuantity: z.string(),
      plannedQuantity: z.string().nullable(),
      producedQuantity: z.string(),
    }),
  ),
  orders: z.array(
    z.object({
      id: z.number().int(),
      docNo: z.string(),
      status: z.string(),
      sourceType: z.string().nullable(),
      stockUpLineId: z.number().int().nullable(),
      parentOrderId: z.number().int().nullable(),
      productName: z.string(),
      quantity: z.string(),
      producedQuantity: z.string().nullable(),
      plannedStartDate: z.string().nullable(),
      dueDate: z.string().nullable(),
    }),
  ),
});

export function stockUpRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stock-up-order/progress/:id',
    permission: 'sale:stockUp:list',
    params: idParams,
    response: progressAnswer,
    handler: ({ params, app: { db } }) => stockUpProgress(db, params.id),
  });
}
