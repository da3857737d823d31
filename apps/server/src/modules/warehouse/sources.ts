import type { LifecycleDef } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { badRequest } from '../../platform/errors.ts';

/**
 * Orders that stock documents are made against (销售订单, 采购订单; outsourcing and production
 * orders follow the same shape). The stock document names the order in a header
 * field and each line the order line it moves (`sourceLineId`). The warehouse calls the source:
 *   - when a draft is saved, to check the lines against the order and link them;
 *   - when it posts (+1) or is reversed (−1), to move the order lines' tracked quantities in
 *     the same transaction, under the order lines' row locks.
 * Owning modules register their source; the warehouse knows nothing of orders beyond this.
 */

export type StockKind = 'inbound' | 'outbound';

export interface SourceLine {
  /** Index of the line on the document (for field errors). */
  index: number;
  materialId: number;
  sourceLineId: number | null;
}

export interface SourceMove {
  /** The order line. */
  lineId: number;
  /** Base-unit quantity, signed: + adds to the order line's tracked quantity, − takes from it. */
  quantity: Decimal;
}

export interface StockSource {
  /** Header field of the stock document naming the order, e.g. `saleOrderId`. */
  field: string;
  label: string;
  /** Document types allowed against this source, by kind, with the sign of their effect. */
  types: Partial<Record<StockKind, Record<string, 1 | -1>>>;
  /**
   * Checks a draft against the order (state, party, materials) and links every line to its
   * order line; answers header values to store (customer, 来源单号). `lines` are the body's
   * line objects: the source sets their `sourceLineId`.
   */
  link(
    db: Db,
    doc: { kind: StockKind; type: string; orderId: number; data: Record<string, any> },
    lines: Record<string, any>[],
  ): Promise<Record<string, unknown>>;
  /** Posting or reversing a document of `type`: applies the signed base-unit moves to the order's lines. */
  /** `day`: the document's business date (a line delivered in full is complete on that day). */
  apply(db: Db, orderId: number, moves: SourceMove[], type: string, day?: string): Promise<void>;
  /** What the warehouse forms pick from (`source-orders`, `source-lines`); none: no picker. */
  picker?: SourcePicker;
}

/**
 * How the warehouse forms choose an order and take its open lines, declared by the source: the
 * order and line tables, the party, and per document type the order states it can be made
 * against and what is open on a line (base unit; SQL over the line, alias `l`).
 */
export interface SourcePicker {
  table: string;
  lineTable: string;
  parentColumn: string;
  /** The order's states, for the refusal of one a document cannot be made against. */
  lifecycle: LifecycleDef;
  party: { column: string; table: string };
  /** The order's date column, shown and sorted by (default `order_date`). */
  dateColumn?: string;
  /** An order of one product (生产订单): its column; the option then names the product and is found by it. */
  productColumn?: string;
  types: Record<string, { states: readonly string[]; open: RawBuilder<unknown> }>;
}

const SOURCES: StockSource[] = [];

export function registerStockSource(source: StockSource) {
  if (!SOURCES.some((s) => s.field === source.field)) SOURCES.push(source);
}

/** The source a document of `kind` and `type` is made against, with its picker for that type. */
export function pickerOf(kind: StockKind, type: string) {
  const source = SOURCES.find(
    (s) => Object.hasOwn(s.types[kind] ?? {}, type) && s.picker && Object.hasOwn(s.picker.types, type),
  );
  return source?.picker ? { source, picker: source.picker, rule: source.picker.types[type] } : undefined;
}

/** Header columns a document of `kind` has for its sources (snake case): the posting reads them. */
export const sourceColumns = (kind: StockKind) =>
  SOURCES.filter((s) => s.types[kind]).map((s) => s.field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));

/**
 * Validate hook of inbound and outbound documents: links the lines of a document made against
 * an order (setting each line's `sourceLineId`), and clears stale links on one that is not.
 * Answers the header values the order decides (customer, 来源单号).
 */
export async function linkSources(db: Db, kind: StockKind, data: Record<string, any>) {
  const lines: Record<string, any>[] = data.lines ?? [];
  const header: Record<string, unknown> = {};
  let linked = false;
  for (const source of SOURCES) {
    const orderId = data[source.field];
    if (orderId == null) continue;
    const allowed = source.types[kind] ?? {};
    if (!(data.type in allowed)) {
      throw badRequest(`只有${Object.keys(allowed).length ? '对应类型的' : ''}单据可以关联${source.label}`, [
        { field: source.field, message: `该出入库类型不能关联${source.label}` },
      ]);
    }
    Object.assign(header, await source.link(db, { kind, type: data.type, orderId, data }, lines));
    linked = true;
  }
  if (!linked) for (const l of lines) l.sourceLineId = null;
  return header;
}

/**
 * Posting (`direction` 1) or reversing (−1) a document: hands each source its signed moves.
 * `head` carries the header's type and order fields (camelCase); `lines` the lines with their
 * base quantities.
 */
export async function applySources(
  db: Db,
  kind: StockKind,
  head: Record<string, any>,
  lines: { sourceLineId: number | null; baseQuantity: string | number }[],
  direction: 1 | -1,
) {
  for (const source of SOURCES) {
    const orderId = head[source.field];
    if (orderId == null) continue;
    const sign = source.types[kind]?.[head.type];
    if (!sign) continue;
    const moves = lines
      .filter((l) => l.sourceLineId != null)
      .map((l) => ({
        lineId: Number(l.sourceLineId),
        quantity: new Decimal(l.baseQuantity).times(sign * direction),
      }));
    if (moves.length) await source.apply(db, Number(orderId), moves, head.type, head.bizDate);
  }
}

/** The lines of a posted document as reversal needs them. */
export async function postedLines(db: Db, lineTable: string, parentColumn: string, id: number) {
  const r = await sql<{ sourceLineId: number | null; baseQuantity: string }>`
    SELECT source_line_id AS "sourceLineId", base_quantity::text AS "baseQuantity"
      FROM ${sql.table(lineTable)} WHERE ${sql.ref(parentColumn)} = ${id} AND source_line_id IS NOT NULL`.execute(
    db,
  );
  return r.rows;
}
