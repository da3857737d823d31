import type { RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { hook, port } from '../../platform/hooks.ts';

/**
 * What sales needs from the modules above it, which register here at start: production (what a
 * line has planned, and whether an order may be un-approved) and finance (a customer's open
 * receivables for the credit check). Sales imports neither (docs/architecture.md, import rule 5).
 */
export const salesHooks = {
  /** 反审核 of a sales order is about to happen: may refuse (production: 已安排生产). */
  unapproving: hook<[db: Db, saleOrderId: number]>(),
  /** 应收未收 of a customer: shipped and not yet received, in 元 (finance). */
  openReceivables: port<[db: Db, customerId: number], Promise<string>>('openReceivables'),
  /** SQL: the base quantity planned in production orders of a sales order line (production). */
  plannedOf: port<[lineId: unknown], RawBuilder<string>>('plannedOf'),
};
