import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { ReportKind } from './report-kinds.ts';

/**
 * 准时交货率 (on-time delivery; 准时到货率 for purchases), defined once and read by 销售统计报表,
 * 采购明细报表 and the 首页 cockpit alike (docs/glossary.md, "准时交货"):
 *
 * - A line is judged once its promised date (the line's 交货日期, else the order's) has passed:
 *   a line due today can still ship today.
 * - It is on time when the quantity delivered by its promised date reached the quantity ordered,
 *   i.e. its 发齐日期 (`completed_on`, the business date of the document that delivered it in
 *   full) is no later than that date. Delivered later, partly, or not at all: late.
 * - Lines of draft orders are not promised; a closed order's line that delivered nothing was
 *   cancelled, not delivered late. Any other line due in the period counts.
 * - 准时交货率 = on-time lines ÷ lines due in the period × 100, one decimal; none due: no rate.
 *
 * Lines are counted, never quantities: a line of 5,000 粒 and one of 50 套 weigh the same, and no
 * quantity of one unit is added to another.
 */

export interface OnTimeQuery {
  /** First and last promised day of the period (YYYY-MM-DD), both optional. */
  from?: string;
  to?: string;
  /** The day the judgement is made (today): only lines promised before it are due. */
  asOf: string;
  partyId?: number;
  materialId?: number;
  /** One row per due month (`YYYY-MM`), party id or material id; none: one row for everything. */
  groupBy?: 'month' | 'party' | 'material';
}

export interface OnTimeRow {
  key: string;
  dueLines: number;
  onTimeLines: number;
  lateLines: number;
  onTimeRate: number | null;
}

/** A line's promised day (aliases `l` order line, `o` order). */
export const promisedDay = sql`COALESCE(l.delivery_date, o.delivery_date)`;

/** Whether an order line (aliases `l`, `o`) counts for on-time delivery on `asOf`. */
export function dueLine(k: ReportKind, asOf: string): RawBuilder<boolean> {
  return sql<boolean>`(o.status <> 'draft' AND ${promisedDay} < ${asOf}::date
    AND NOT (o.status = 'closed' AND ${k.done} <= 0))`;
}

/** Whether a due line (aliases `l`, `o`) was delivered in full by its promised day. */
export const onTimeLine = sql<boolean>`(l.completed_on IS NOT NULL AND l.completed_on <= ${promisedDay})`;

/**
 * Whether an order line (aliases `l`, `o`) is overdue on `asOf`: due, not yet delivered in full,
 * and its order still open — the late lines that can still be shipped (销售仓库's 逾期).
 */
export function overdueLine(k: ReportKind, asOf: string): RawBuilder<boolean> {
  return sql<boolean>`(${dueLine(k, asOf)} AND o.status IN (${sql.join(k.openStates.map((s) => sql`${s}`))})
    AND ${k.done} < l.base_quantity)`;
}

/** On-time rate in percent, one decimal; null when nothing was due. */
export const onTimeRate = (onTime: number, due: number) =>
  due > 0 ? Math.round((onTime / due) * 1000) / 10 : null;

/** On-time delivery of the order lines due in a period, grouped as asked. */
export async function onTimeDelivery(db: Db, k: ReportKind, q: OnTimeQuery): Promise<OnTimeRow[]> {
  const key =
    q.groupBy === 'month'
      ? sql`to_char(${promisedDay}, 'YYYY-MM')`
      : q.groupBy === 'party'
        ? sql`${sql.ref(`o.${k.partyColumn}`)}::text`
        : q.groupBy === 'material'
          ? sql`l.material_id::text`
          : sql`''`;
  const where = sql.join(
    [
      dueLine(k, q.asOf),
      q.from ? sql`${promisedDay} >= ${q.from}::date` : sql`true`,
      q.to ? sql`${promisedDay} <= ${q.to}::date` : sql`true`,
      q.partyId ? sql`${sql.ref(`o.${k.partyColumn}`)} = ${q.partyId}` : sql`true`,
      q.materialId ? sql`l.material_id = ${q.materialId}` : sql`true`,
    ],
    sql` AND `,
  );
  const r = await sql<{ key: string; dueLines: number; onTimeLines: number }>`
    SELECT ${key} AS key, count(*)::int AS due_lines, count(*) FILTER (WHERE ${onTimeLine})::int AS on_time_lines
      FROM ${sql.table(k.lineTable)} l JOIN ${sql.table(k.table)} o ON o.id = ${sql.ref(`l.${k.parentColumn}`)}
     WHERE ${where}
     GROUP BY 1 ORDER BY 1`.execute(db);
  return r.rows.map((x) => ({
    key: x.key,
    dueLines: x.dueLines,
    onTimeLines: x.onTimeLines,
    lateLines: x.dueLines - x.onTimeLines,
    onTimeRate: onTimeRate(x.onTimeLines, x.dueLines),
  }));
}

/** The first and last day of the months `from` … `to` (YYYY-MM), as a period of promised days. */
export function monthsPeriod(from?: string, to?: string): { from?: string; to?: string } {
  const last = (m: string) => {
    const [y, mo] = m.split('-').map(Number);
    return `${m}-${String(new Date(Date.UTC(y, mo, 0)).getUTCDate()).padStart(2, '0')}`;
  };
  return { from: from ? `${from}-01` : undefined, to: to ? last(to) : undefined };
}
