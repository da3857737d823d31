import { type RawBuilder, sql } from 'kysely';

/** The two order rollups (`report.ts`): which tables, columns and states each reads. */
export interface ReportKind {
  kind: 'sale' | 'purchase';
  table: 'sale_order' | 'purchase_order';
  lineTable: 'sale_order_line' | 'purchase_order_line';
  parentColumn: 'sale_order_id' | 'purchase_order_id';
  partyColumn: 'customer_id' | 'supplier_id';
  /** Delivered base quantity of a line (alias `l`). */
  done: RawBuilder<unknown>;
  /** Order states whose undelivered quantity is still open. */
  openStates: string[];
}

export const SALE_REPORT: ReportKind = {
  kind: 'sale',
  table: 'sale_order',
  lineTable: 'sale_order_line',
  parentColumn: 'sale_order_id',
  partyColumn: 'customer_id',
  done: sql`l.shipped_quantity`,
  openStates: ['approved', 'producing', 'partly-shipped'],
};

export const PURCHASE_REPORT: ReportKind = {
  kind: 'purchase',
  table: 'purchase_order',
  lineTable: 'purchase_order_line',
  parentColumn: 'purchase_order_id',
  partyColumn: 'supplier_id',
  done: sql`(l.received_quantity - l.returned_quantity)`,
  openStates: ['approved', 'partly-received'],
};
