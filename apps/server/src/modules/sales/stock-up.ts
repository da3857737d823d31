import { stockUpOrderResource } from '@ringmes/domain';
import { sql } from 'kysely';
import type { App } from '../../app.ts';
import { badRequest, conflict } from '../../platform/errors.ts';
import { dayInstant, nextDocNo } from '../../platform/numbering.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import {
  lifecycleHooks,
  registerLifecycle,
  type TransitionHandlers,
} from '../../platform/resource/lifecycle.ts';
import { assertNotBefore, fillLineBases, type LineTables, unitErrors } from '../orders/order-lines.ts';

/**
 * 备货单 (stock-up orders): finished bearings to make for stock ahead of orders — a season, a
 * customer's forecast. Approved, their lines are what production plans from besides sales orders.
 */
export const STOCK_UP_PREFIX = 'BH';

const LINES: LineTables = {
  table: 'stock_up_order',
  lineTable: 'stock_up_order_line',
  parentColumn: 'stock_up_order_id',
  date: ['required_date', 'required_date'],
};

export const stockUpHooks: ResourceHooks = lifecycleHooks(stockUpOrderResource, {
  async prepare({ db, user }, data) {
    return {
      docNo: await nextDocNo(db, STOCK_UP_PREFIX, undefined, dayInstant(data.orderDate)),
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

export function stockUpRoutes(app: App) {
  registerLifecycle(app, stockUpOrderResource, stockUpTransitions);
}
