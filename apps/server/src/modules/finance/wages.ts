import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsAny } from '../../platform/db/like.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { conflict, fieldError } from '../../platform/errors.ts';
import { recordEvent } from '../../platform/events/outbox.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { withRetry } from '../../platform/idempotency.ts';
import { businessDay } from '../../platform/numbering.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';

/**
 * 工序工资: the piece-rate wage ledger (`piece_wage`) and its months.
 *
 * Posting a work report writes one line (`wageLinesInsert`): the rate in force on the report date
 * from `process_wage` (the product's own before the process's general one; without any, the
 * process's 计件单价 with no deduction and no rework pay), and
 *   good × rate − 工废 × deduction rate + rework × rework rate, exactly (no rounding).
 * Wages are rounded once per worker and month, never per line: the monthly sheet and the close
 * round each worker's month (`wage_month`, exact sums of the lines) to the fen, half away from
 * zero (`perWorker`). Four reports of 0.05 piece at 0.10 元 are 0.005 each and 0.02 in the month,
 * not 0.04 as a fen per line made them. A report's own wage (`work_report.wage_amount`) is its
 * line shown to the fen; it is never summed into pay.
 * The line belongs to the report's month, or — when that month is closed — to the next open month
 * as an adjustment. Taking a report back (`takeBackWageLines`) deletes its lines in open months
 * and reverses the ones in closed months with a negative adjustment in the next open month: a
 * closed month's lines and its sheet (`wage_sheet`, written at closing) never change.
 *
 * Closing and posting exclude each other through an advisory lock (shared for posting). Closing
 * and reopening never queue for it (`lockMonths`): a waiting exclusive request would make every
 * later posting wait behind it while holding its row locks, and a posting already holding the
 * shared lock that then needs one of those rows closes a cycle — PostgreSQL broke it by aborting
 * one side (the close answered 409 「数据正被他人同时修改」 while other flows posted reports).
 */

const CLOSE_LOCK = 7_312_031;
const D = (v: unknown) => new Decimal((v as string | number | null | undefined) ?? 0);

/**
 * The close lock, shared, as a select expression. Whoever writes wage lines takes it in a
 * statement BEFORE the one that writes them, so that statement's snapshot sees every month
 * closed before (a close commits only while no posting holds it). The report posting takes it
 * with the card's lock (work-report.ts).
 */
export const WAGE_CLOSE_SHARED = sql`pg_advisory_xact_lock_shared(${CLOSE_LOCK})`;

/** 'YYYY-MM-01' of a date or month. */
export const monthStart = (day: string) => `${day.slice(0, 7)}-01`;

/**
 * The first open wage month from `month` (a SQL date, a 1st): itself, or, when it is closed,
 * the month after the run of closed months it begins.
 */
const openMonthFrom = (month: RawBuilder<unknown>) => sql`
  CASE WHEN NOT EXISTS (SELECT 1 FROM wage_period c WHERE c.period = ${month}) THEN ${month}
       ELSE (SELECT min(c.period + interval '1 month')::date FROM wage_period c
              WHERE c.period >= ${month}
                AND NOT EXISTS (SELECT 1 FROM wage_period n WHERE n.period = (c.period + interval '1 month')::date)) END`;

/** The first open wage month from `period` on. */
export async function openPeriodFrom(db: Db, period: string): Promise<string> {
  const r = await sql<{
    period: string;
  }>`SELECT (${openMonthFrom(sql`${period}::date`)})::text AS period`.execute(db);
  return r.rows[0].period;
}

export async function isClosed(db: Db, period: string): Promise<boolean> {
  const r = await sql`SELECT 1 FROM wage_period WHERE period = ${period}::date`.execute(db);
  return r.rows.length > 0;
}

/**
 * The amounts of quantities at rates (SQL values or columns), exact (numeric products, never
 * rounded here: a line may be a fraction of a fen): a lateral row of `good_amount`,
 * `deduction_amount`, `rework_amount`; the net wage is good − deduction + rework. Rounding to the
 * fen happens once per worker and month (`fen`, `perWorker`).
 */
export const wageAmountsSql = (
  q: { good: unknown; workScrap: unknown; rework: unknown },
  rate: { piece: unknown; deduction: unknown; rework: unknown },
) => sql`(SELECT ${q.good} * ${rate.piece} AS good_amount,
                 ${q.workScrap} * ${rate.deduction} AS deduction_amount,
                 ${q.rework} * ${rate.rework} AS rework_amount)`;

/** A worker's month of exact amounts to the fen: once, half away from zero (HALF_UP). */
export const fen = (amount: RawBuilder<unknown>) => sql`round(${amount}, 2)`;

/** An exact amount as a line shows it: to the fen, or with every decimal it has beyond (0.005). */
export const exactText = (amount: RawBuilder<unknown>) =>
  sql`round(${amount}, greatest(2, scale(trim_scale(${amount}))))::text`;

/** The 工序工资 rate of a process (and product) in force on a day: values or columns of a query. */
const rateIn = (processId: unknown, productId: unknown, day: unknown) => sql`
  SELECT id, piece_rate, deduction_rate, rework_rate FROM process_wage
   WHERE process_id = ${processId} AND (product_id = ${productId} OR product_id IS NULL) AND valid_from <= ${day}::date
   ORDER BY product_id IS NULL, valid_from DESC LIMIT 1`;

/**
 * The INSERT of the wage lines of reports being posted (入账), one each: the rate in force on the
 * report date (`rateIn`; without one the process's 计件单价, no deduction, no rework pay), the
 * exact amounts (`wageAmountsSql`), and the report's month, or the next open one as an adjustment
 * when it is closed. RETURNING each report's piece rate and exact net wage (the report keeps it
 * to the fen). The close lock must be held from
 * an earlier statement (`WAGE_CLOSE_SHARED`). The posting runs it as a CTE of its row changes;
 * `writeWageLinesMany` on its own.
 */
export function wageLinesInsert(reports: Record<string, any>[]) {
  const col = <T>(f: (r: Record<string, any>) => T) => reports.map(f);
  const n = (v: unknown) => D(v).toString();
  const k = (c: string) => sql.ref(`k.${c}`);
  return sql<{ workReportId: number; pieceRate: string; amount: string }>`
    INSERT INTO piece_wage (work_report_id, doc_no, operator_id, work_date, process_id, product_id, production_order_id,
                            period, kind, rate_id, quantity, piece_rate, good_amount, work_scrap_quantity, deduction_rate,
                            deduction_amount, rework_quantity, rework_rate, rework_amount, amount)
    SELECT k.id, k.doc_no, k.operator_id, k.day, k.process_id, k.product_id, k.order_id, m.period,
           CASE WHEN m.period = m.own THEN 'report' ELSE 'adjustment' END, w.id, k.good, r.piece, a.good_amount,
           k.ws, r.deduction, a.deduction_amount, k.rw, r.rework, a.rework_amount,
           a.good_amount - a.deduction_amount + a.rework_amount
      FROM unnest(${col((r) => Number(r.id))}::bigint[], ${col((r) => r.docNo)}::text[],
                  ${col((r) => r.operatorId ?? null)}::bigint[], ${col((r) => String(r.reportDate).slice(0, 10))}::date[],
                  ${col((r) => r.processId)}::bigint[], ${col((r) => r.productId ?? null)}::bigint[],
                  ${col((r) => r.productionOrderId ?? null)}::bigint[], ${col((r) => n(r.goodQuantity))}::numeric[],
                  ${col((r) => n(r.workScrapQuantity))}::numeric[], ${col((r) => n(r.reworkQuantity))}::numeric[])
           AS k(id, doc_no, operator_id, day, process_id, product_id, order_id, good, ws, rw)
      LEFT JOIN LATERAL (${rateIn(k('process_id'), k('product_id'), k('day'))}) w ON true
      LEFT JOIN process p ON w.id IS NULL AND p.id = k.process_id
     CROSS JOIN LATERAL (SELECT COALESCE(w.piece_rate, p.piece_rate, 0) AS piece, COALESCE(w.deduction_rate, 0) AS deduction,
                                COALESCE(w.rework_rate, 0) AS rework) r
     CROSS JOIN LATERAL ${wageAmountsSql(
       { good: k('good'), workScrap: k('ws'), rework: k('rw') },
       { piece: sql.ref('r.piece'), deduction: sql.ref('r.deduction'), rework: sql.ref('r.rework') },
     )} a
     CROSS JOIN LATERAL (SELECT date_trunc('month', k.day)::date AS own) o
     CROSS JOIN LATERAL (SELECT o.own, ${openMonthFrom(sql.ref('o.own'))} AS period) m
    RETURNING work_report_id, piece_rate::text AS piece_rate, amount::text AS amount`;
}

/**
 * The wage lines of reports being posted, in the posting's transaction: the close lock, then
 * `wageLinesInsert`. Answers each report's piece rate and net wage, in the order given (the
 * demo's shop floor posts many at once).
 */
export async function writeWageLinesMany(
  db: Db,
  reports: Record<string, any>[],
): Promise<{ pieceRate: string; amount: string }[]> {
  if (!reports.length) return [];
  await prepared(sql`SELECT ${WAGE_CLOSE_SHARED}`).execute(db);
  const r = await prepared(wageLinesInsert(reports)).execute(db);
  const byReport = new Map(r.rows.map((x) => [Number(x.workReportId), x]));
  return reports.map((x) => {
    const line = byReport.get(Number(x.id)) as { pieceRate: string; amount: string };
    return { pieceRate: line.pieceRate, amount: line.amount };
  });
}

/**
 * Takes back a posted report's wage lines (反审核), in the transaction that takes back its posting:
 * lines of open months go; a closed month's lines stay and are reversed in the next open month.
 */
export async function takeBackWageLines(db: Db, report: Record<string, any>): Promise<void> {
  await prepared(sql`SELECT ${WAGE_CLOSE_SHARED}`).execute(db);
  const day = String(report.reportDate).slice(0, 10);
  const own = monthStart(day);
  // Lines of open months go; the closed months' lines stay and are reversed next open month.
  await sql`
    DELETE FROM piece_wage w WHERE w.work_report_id = ${report.id}
       AND NOT EXISTS (SELECT 1 FROM wage_period p WHERE p.period = w.period)`.execute(db);
  const kept = await sql<Record<string, string>>`
    SELECT sum(quantity)::text AS quantity, sum(good_amount)::text AS good_amount,
           sum(work_scrap_quantity)::text AS work_scrap_quantity, sum(deduction_amount)::text AS deduction_amount,
           sum(rework_quantity)::text AS rework_quantity, sum(rework_amount)::text AS rework_amount,
           sum(amount)::text AS amount, count(*)::int AS n, max(piece_rate)::text AS piece_rate,
           max(deduction_rate)::text AS deduction_rate, max(rework_rate)::text AS rework_rate
      FROM piece_wage WHERE work_report_id = ${report.id}`.execute(db);
  const k = kept.rows[0];
  if (
    Number(k.n) > 0 &&
    !(D(k.amount).isZero() && D(k.quantity).isZero() && D(k.workScrapQuantity).isZero())
  ) {
    const period = await openPeriodFrom(db, own);
    const neg = (v: string) => D(v).negated().toString();
    await sql`
      INSERT INTO piece_wage (work_report_id, doc_no, operator_id, work_date, process_id, product_id, production_order_id,
                              period, kind, quantity, piece_rate, good_amount, work_scrap_quantity, deduction_rate,
                              deduction_amount, rework_quantity, rework_rate, rework_amount, amount, remark)
      VALUES (${report.id}, ${report.docNo}, ${report.operatorId}, ${day}, ${report.processId}, ${report.productId},
              ${report.productionOrderId}, ${period}::date, 'adjustment', ${neg(k.quantity)}, ${k.pieceRate},
              ${neg(k.goodAmount)}, ${neg(k.workScrapQuantity)}, ${k.deductionRate}, ${neg(k.deductionAmount)},
              ${neg(k.reworkQuantity)}, ${k.reworkRate}, ${neg(k.reworkAmount)}, ${neg(k.amount)}, '反审核冲回已结账月份')`.execute(
      db,
    );
  }
}

// ------------------------------------------------------------------ rates

async function lastClosed(db: Db): Promise<string | null> {
  const r = await sql<{ p: string | null }>`SELECT max(period)::text AS p FROM wage_period`.execute(db);
  return r.rows[0]?.p ?? null;
}

/** A rate may not start in, nor be changed or removed from, a closed month. */
export const processWageHooks: ResourceHooks = {
  async validate({ db }, data, before) {
    if (before && (await isClosed(db, monthStart(String(before.validFrom))))) {
      throw conflict(
        `该单价生效于已结账月份 ${String(before.validFrom).slice(0, 7)}，不能修改；请新增一条生效日期在未结账月份的单价`,
      );
    }
    const from = String(data.validFrom);
    if (await isClosed(db, monthStart(from))) {
      throw fieldError('validFrom', `${from.slice(0, 7)} 的工资已结账，生效日期请选在未结账的月份`);
    }
    const dup = await sql<{ id: number }>`
      SELECT id FROM process_wage
       WHERE process_id = ${data.processId} AND COALESCE(product_id, 0) = ${data.productId ?? 0}
         AND valid_from = ${from}::date AND id <> ${before?.id ?? 0}`.execute(db);
    if (dup.rows[0]) throw fieldError('validFrom', '该工序（产品）在此生效日期已有单价，请修改那一条');
  },
  async beforeDelete({ db }, ids) {
    const used = await sql<{ validFrom: string }>`
      SELECT w.valid_from::text AS valid_from FROM process_wage w
       WHERE w.id = ANY(${ids}::bigint[])
         AND (EXISTS (SELECT 1 FROM piece_wage l WHERE l.rate_id = w.id)
              OR EXISTS (SELECT 1 FROM wage_period p WHERE p.period = date_trunc('month', w.valid_from)))
       LIMIT 1`.execute(db);
    if (used.rows[0]) throw conflict('该单价已用于计件工资，不能删除；价格变动请新增一条新的生效日期');
  },
};

// ------------------------------------------------------------------ the sheet

const monthQ = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式应为 YYYY-MM');
const sheetQuery = z.strictObject({
  month: monthQ,
  groupBy: z.enum(['worker', 'team'], { error: '汇总方式只能是 worker 或 team' }).default('worker'),
  teamId: zx.id.optional(),
  keyword: zx.text(40).optional(),
});
type SheetQuery = z.infer<typeof sheetQuery>;

const SUMS = [
  'lineCount',
  'goodQuantity',
  'goodAmount',
  'workScrapQuantity',
  'deductionAmount',
  'reworkQuantity',
  'reworkAmount',
  'adjustmentAmount',
  'totalAmount',
] as const;

/**
 * Per operator of a month: the closed sheet as it was closed, or the open month's sums now
 * (`wage_month`), each worker's month rounded to the fen once: 应发合计 from the exact total, and
 * each part (计件, 工废扣款, 返工, 调整) from its own exact sum, so a part may differ from its
 * lines' fen display by rounding, and the parts from the total by a fen or two, never the pay.
 */
function perWorker(period: string, closed: boolean) {
  if (closed) {
    return sql`
      SELECT s.operator_id, s.team_id, s.line_count, s.good_quantity, s.good_amount, s.work_scrap_quantity,
             s.deduction_amount, s.rework_quantity, s.rework_amount, s.adjustment_amount, s.total_amount
        FROM wage_sheet s WHERE s.period = ${period}::date`;
  }
  return sql`
    SELECT w.operator_id,
           (SELECT t.id FROM production_team t WHERE w.operator_id = ANY(t.member_ids) ORDER BY t.id LIMIT 1) AS team_id,
           w.line_count, w.good_quantity, ${fen(sql.ref('w.good_amount'))} AS good_amount, w.work_scrap_quantity,
           ${fen(sql.ref('w.deduction_amount'))} AS deduction_amount, w.rework_quantity,
           ${fen(sql.ref('w.rework_amount'))} AS rework_amount, ${fen(sql.ref('w.adjustment_amount'))} AS adjustment_amount,
           ${fen(sql.ref('w.total_amount'))} AS total_amount
      FROM wage_month w WHERE w.period = ${period}::date`;
}

export async function readSheet(db: Db, q: SheetQuery) {
  const period = `${q.month}-01`;
  const head = await sql<{ closedAt: Date; closedByName: string | null }>`
    SELECT p.closed_at, u.first_name AS closed_by_name
      FROM wage_period p LEFT JOIN app_user u ON u.id = p.closed_by WHERE p.period = ${period}::date`.execute(
    db,
  );
  const closed = head.rows.length > 0;
  const where = [sql`true`];
  if (q.teamId) where.push(sql`x.team_id = ${q.teamId}`);
  if (q.keyword) {
    where.push(containsAny(['u.user_name', 'u.first_name'], q.keyword));
  }
  const cond = sql.join(where, sql` AND `);
  const sums = sql`sum(x.line_count)::int AS line_count, sum(x.good_quantity)::text AS good_quantity,
    sum(x.good_amount)::text AS good_amount, sum(x.work_scrap_quantity)::text AS work_scrap_quantity,
    sum(x.deduction_amount)::text AS deduction_amount, sum(x.rework_quantity)::text AS rework_quantity,
    sum(x.rework_amount)::text AS rework_amount, sum(x.adjustment_amount)::text AS adjustment_amount,
    sum(x.total_amount)::text AS total_amount`;
  const rows =
    q.groupBy === 'team'
      ? await sql<Record<string, any>>`
          SELECT x.team_id AS key, x.team_id, COALESCE(t.name, '未分班组') AS team_name, t.code AS team_code,
                 count(*)::int AS worker_count, ${sums}
            FROM (${perWorker(period, closed)}) x JOIN app_user u ON u.id = x.operator_id
            LEFT JOIN production_team t ON t.id = x.team_id
           WHERE ${cond} GROUP BY x.team_id, t.name, t.code ORDER BY t.code NULLS LAST`.execute(db)
      : await sql<Record<string, any>>`
          SELECT x.operator_id AS key, x.operator_id, u.user_name, u.first_name AS operator_name, x.team_id,
                 t.name AS team_name, x.line_count, x.good_quantity::text, x.good_amount::text,
                 x.work_scrap_quantity::text, x.deduction_amount::text, x.rework_quantity::text,
                 x.rework_amount::text, x.adjustment_amount::text, x.total_amount::text
            FROM (${perWorker(period, closed)}) x JOIN app_user u ON u.id = x.operator_id
            LEFT JOIN production_team t ON t.id = x.team_id
           WHERE ${cond} ORDER BY t.name NULLS LAST, u.user_name`.execute(db);
  const totals = await sql<Record<string, any>>`
    SELECT count(*)::int AS worker_count, ${sums}
      FROM (${perWorker(period, closed)}) x JOIN app_user u ON u.id = x.operator_id WHERE ${cond}`.execute(
    db,
  );
  const t = totals.rows[0] ?? {};
  for (const k of SUMS) if (k !== 'lineCount') t[k] = t[k] ?? '0';
  return {
    month: q.month,
    closed,
    closedAt: head.rows[0]?.closedAt ?? null,
    closedByName: head.rows[0]?.closedByName ?? null,
    rows: rows.rows,
    totals: { ...t, lineCount: t.lineCount ?? 0 } as Record<string, any>,
  };
}

const linesQuery = z.strictObject({
  month: monthQ,
  operatorId: zx.id.optional(),
  teamId: zx.id.optional(),
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
});

/**
 * The lines behind a sheet row: each with its work report, for the drill-down, with its exact
 * amounts (a line may be a fraction of a fen; the sheet rounds the worker's month once).
 */
export async function sheetLines(db: Db, q: z.infer<typeof linesQuery>) {
  const period = `${q.month}-01`;
  const where = [sql`w.period = ${period}::date`];
  if (q.operatorId) where.push(sql`w.operator_id = ${q.operatorId}`);
  if (q.teamId) {
    where.push(sql`w.operator_id IN (SELECT unnest(member_ids) FROM production_team WHERE id = ${q.teamId})`);
  }
  const cond = sql.join(where, sql` AND `);
  const [rows, total] = await Promise.all([
    sql<Record<string, any>>`
      SELECT w.id, w.work_report_id, w.doc_no, w.work_date::text AS work_date, w.kind, w.remark,
             w.operator_id, u.first_name AS operator_name, u.user_name,
             p.name AS process_name, m.name AS product_name, m.code AS product_code, o.doc_no AS order_no,
             w.quantity::text, w.piece_rate::text, ${exactText(sql.ref('w.good_amount'))} AS good_amount,
             w.work_scrap_quantity::text, w.deduction_rate::text, ${exactText(sql.ref('w.deduction_amount'))} AS deduction_amount,
             w.rework_quantity::text, w.rework_rate::text, ${exactText(sql.ref('w.rework_amount'))} AS rework_amount,
             ${exactText(sql.ref('w.amount'))} AS amount
        FROM piece_wage w JOIN app_user u ON u.id = w.operator_id
        JOIN process p ON p.id = w.process_id JOIN material m ON m.id = w.product_id
        LEFT JOIN production_order o ON o.id = w.production_order_id
       WHERE ${cond} ORDER BY w.work_date, w.id
       LIMIT ${q.pageSize} OFFSET ${(Math.max(q.pageNum, 1) - 1) * q.pageSize}`.execute(db),
    sql<{ n: number; amount: string }>`
      SELECT count(*)::int AS n, ${exactText(sql`COALESCE(sum(amount), 0)`)} AS amount FROM piece_wage w WHERE ${cond}`.execute(
      db,
    ),
  ]);
  return { rows: rows.rows, total: total.rows[0].n, amount: total.rows[0].amount };
}

/**
 * Takes the closing lock exclusively without ever waiting in its queue: tries, and while a
 * posting holds it shared, tries again a moment later (at most `waitMs`, under the lock timeout).
 */
export async function lockMonths(trx: Db, waitMs = 8_000) {
  const until = Date.now() + waitMs;
  for (;;) {
    const r = await sql<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(${CLOSE_LOCK}) AS ok`.execute(trx);
    if (r.rows[0]?.ok) return;
    if (Date.now() >= until) throw conflict('有报工正在过账，请稍后重试');
    await new Promise((resolve) => setTimeout(resolve, 25 + Math.random() * 50));
  }
}

/** Closes a month, in the caller's transaction: writes its sheet as it stands and locks it. */
export async function closeMonth(trx: Db, month: string, userId: number) {
  const period = `${month}-01`;
  if (period > monthStart(businessDay())) throw conflict(`${month} 尚未到来，不能结账`);
  await lockMonths(trx);
  const ins = await sql`
    INSERT INTO wage_period (period, closed_by, line_count, total_amount)
    VALUES (${period}::date, ${userId}, 0, 0) ON CONFLICT (period) DO NOTHING`.execute(trx);
  if (!Number(ins.numAffectedRows ?? 0)) throw conflict(`${month} 的工资已结账，不能重复结账`);
  await sql`
    INSERT INTO wage_sheet (period, operator_id, team_id, line_count, good_quantity, good_amount, work_scrap_quantity,
                            deduction_amount, rework_quantity, rework_amount, adjustment_amount, total_amount)
    SELECT ${period}::date, x.operator_id, x.team_id, x.line_count, x.good_quantity, x.good_amount, x.work_scrap_quantity,
           x.deduction_amount, x.rework_quantity, x.rework_amount, x.adjustment_amount, x.total_amount
      FROM (${perWorker(period, false)}) x`.execute(trx);
  const t = await sql<{ n: number; amount: string }>`
    SELECT COALESCE(sum(line_count), 0)::int AS n, COALESCE(sum(total_amount), 0)::text AS amount
      FROM wage_sheet WHERE period = ${period}::date`.execute(trx);
  await sql`UPDATE wage_period SET line_count = ${t.rows[0].n}, total_amount = ${t.rows[0].amount}
             WHERE period = ${period}::date`.execute(trx);
  return { month, closed: true, lineCount: t.rows[0].n, totalAmount: t.rows[0].amount };
}

/**
 * 反结账: reopens the latest closed month, in the caller's transaction, under the closing lock
 * (no report posts meanwhile). Its sheet snapshot is deleted with the period row, so the month
 * reads its wage lines live again; the lines themselves never moved. Corrections made while it
 * was closed stay where they landed, as adjustments in the next month. The reason and the
 * snapshot's totals go to the audit log.
 */
export async function reopenMonth(
  trx: Db,
  month: string,
  user: AuthUser,
  reason: string,
  requestId?: string,
) {
  const period = `${month}-01`;
  await lockMonths(trx);
  const head = await sql<{ lineCount: number; totalAmount: string; closedAt: Date; closedBy: number | null }>`
    SELECT line_count, total_amount::text AS total_amount, closed_at, closed_by
      FROM wage_period WHERE period = ${period}::date FOR UPDATE`.execute(trx);
  const p = head.rows[0];
  if (!p) throw conflict(`${month} 的工资未结账，不需要反结账`);
  const latest = await lastClosed(trx);
  if (latest && latest > period)
    throw conflict(`只能反结账最近一个已结账月份（${latest.slice(0, 7)}）；请先反结账之后的月份`);
  const sheet = await sql`DELETE FROM wage_sheet WHERE period = ${period}::date`.execute(trx);
  await sql`DELETE FROM wage_period WHERE period = ${period}::date`.execute(trx);
  await audit(
    trx,
    user,
    {
      entity: 'wage-period',
      entityId: month,
      action: 'reopen',
      before: { month, ...p, sheetRows: Number(sheet.numAffectedRows ?? 0) },
      after: { month, closed: false, reason },
    },
    requestId,
  );
  return { month, closed: false };
}

async function sheetWorkbook(q: SheetQuery, sheet: Awaited<ReturnType<typeof readSheet>>) {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(`${q.month} 计件工资`);
  ws.addRow([`${q.month} 计件工资表${sheet.closed ? '（已结账）' : '（未结账）'}`]);
  const head =
    q.groupBy === 'team'
      ? ['班组', '人数', '计件金额', '工废扣款', '返工', '调整', '应发合计']
      : ['工号', '姓名', '班组', '计件金额', '工废扣款', '返工', '调整', '应发合计'];
  ws.addRow(head);
  ws.getRow(2).font = { bold: true };
  const money = (r: Record<string, any>) =>
    [r.goodAmount, r.deductionAmount, r.reworkAmount, r.adjustmentAmount, r.totalAmount].map((v) =>
      Number(v ?? 0),
    );
  for (const r of sheet.rows) {
    const lead =
      q.groupBy === 'team' ? [r.teamName, r.workerCount] : [r.userName, r.operatorName, r.teamName ?? ''];
    ws.addRow([...lead, ...money(r)].map(neutralise));
  }
  const t = sheet.totals;
  ws.addRow([
    ...(q.groupBy === 'team' ? ['合计', t.workerCount] : ['合计', `${t.workerCount} 人`, '']),
    ...money(t),
  ]);
  ws.getRow(ws.rowCount).font = { bold: true };
  ws.columns.forEach((c, i) => {
    c.width = i < 3 ? 16 : 14;
    if (i >= head.length - 5) c.numFmt = '#,##0.00';
  });
  ws.views = [{ state: 'frozen', ySplit: 2 }];
  return wb;
}

// ------------------------------------------------------------------ answers

const dec = z.string();
/** The sums of a sheet row or its totals (amounts to the fen, as exact text). */
const sums = {
  lineCount: z.number().int(),
  goodQuantity: dec,
  goodAmount: dec,
  workScrapQuantity: dec,
  deductionAmount: dec,
  reworkQuantity: dec,
  reworkAmount: dec,
  adjustmentAmount: dec,
  totalAmount: dec,
};
const sheetAnswer = z.object({
  month: z.string(),
  closed: z.boolean(),
  closedAt: z.string().nullable(),
  closedByName: z.string().nullable(),
  rows: z.array(
    z.union([
      // Per worker (groupBy=worker).
      z.object({
        key: z.number().int(),
        operatorId: z.number().int(),
        userName: z.string(),
        operatorName: z.string().nullable(),
        teamId: z.number().int().nullable(),
        teamName: z.string().nullable(),
        ...sums,
      }),
      // Per team (groupBy=team); workers of no team under key null, 未分班组.
      z.object({
        key: z.number().int().nullable(),
        teamId: z.number().int().nullable(),
        teamName: z.string(),
        teamCode: z.string().nullable(),
        workerCount: z.number().int(),
        ...sums,
      }),
    ]),
  ),
  totals: z.object({ workerCount: z.number().int(), ...sums }),
});
const sheetLinesAnswer = z.object({
  rows: z.array(
    z.object({
      id: z.number().int(),
      workReportId: z.number().int().nullable(),
      docNo: z.string().nullable(),
      workDate: z.string(),
      kind: z.string(),
      remark: z.string().nullable(),
      operatorId: z.number().int(),
      operatorName: z.string().nullable(),
      userName: z.string(),
      processName: z.string(),
      productName: z.string(),
      productCode: z.string(),
      orderNo: z.string().nullable(),
      quantity: dec,
      pieceRate: dec,
      goodAmount: dec,
      workScrapQuantity: dec,
      deductionRate: dec,
      deductionAmount: dec,
      reworkQuantity: dec,
      reworkRate: dec,
      reworkAmount: dec,
      amount: dec,
    }),
  ),
  total: z.number().int(),
  amount: dec,
});
const exportAnswer = z.object({ fileName: z.string(), rows: z.number().int() });

export function wageRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/process-wage/sheet',
    permission: 'finance:wage:list',
    query: sheetQuery,
    response: sheetAnswer,
    handler: ({ query, app: { db } }) => readSheet(db, query),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/process-wage/sheet/lines',
    permission: 'finance:wage:list',
    query: linesQuery,
    response: sheetLinesAnswer,
    handler: ({ query, app: { db } }) => sheetLines(db, query),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/process-wage/sheet/export',
    permission: 'finance:wage:export',
    query: sheetQuery,
    response: exportAnswer,
    async handler({ query, user, app: { db, config } }) {
      const sheet = await readSheet(db, query);
      const wb = await sheetWorkbook(query, sheet);
      const { file, fileName } = newExportFile(config.exportDir, user.id, `${query.month}计件工资表`);
      await wb.xlsx.writeFile(file);
      return { fileName, rows: sheet.rows.length };
    },
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/process-wage/periods',
    permission: 'finance:wage:list',
    response: z.object({
      rows: z.array(
        z.object({
          month: z.string(),
          closedAt: z.string(),
          closedByName: z.string().nullable(),
          lineCount: z.number().int(),
          totalAmount: dec,
        }),
      ),
      /** The first day of the latest closed month (YYYY-MM-DD), null before any close. */
      lastClosed: z.string().nullable(),
    }),
    handler: async ({ app: { db } }) => {
      const r = await sql<Record<string, any>>`
        SELECT to_char(p.period, 'YYYY-MM') AS month, p.closed_at, u.first_name AS closed_by_name, p.line_count,
               p.total_amount::text AS total_amount
          FROM wage_period p LEFT JOIN app_user u ON u.id = p.closed_by ORDER BY p.period DESC`.execute(db);
      return { rows: r.rows, lastClosed: await lastClosed(db) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/process-wage/close',
    permission: 'finance:wage:edit',
    // A month of the date window (1900-01 or 2099-01 is a slip, never a payroll).
    body: z.strictObject({ month: zx.businessMonth('结账月份') }),
    response: z.object({
      month: z.string(),
      closed: z.literal(true),
      lineCount: z.number().int(),
      totalAmount: dec,
    }),
    handler: ({ body, user, req, app: { db } }) =>
      withRetry(() =>
        db.transaction().execute(async (trx) => {
          const closed = await closeMonth(trx, body.month, user.id);
          // 工资月结 for the apps subscribed to it (a webhook, written in this transaction).
          await recordEvent(trx, {
            events: ['wage.closed'],
            resource: 'process-wage',
            key: `wage:${body.month}`,
            permission: 'finance:wage:list',
            data: { ...closed, month: body.month },
          });
          await audit(
            trx,
            user,
            { entity: 'wage-period', entityId: body.month, action: 'close', after: closed },
            req.id,
          );
          return closed;
        }),
      ),
  });
  route(app, {
    method: 'POST',
    url: '/api/v1/process-wage/reopen',
    permission: 'finance:wage:reopen',
    body: z.strictObject({
      month: monthQ,
      reason: z
        .string({ error: '请填写反结账原因' })
        .trim()
        .min(1, '请填写反结账原因')
        .max(500, '反结账原因最多 500 字'),
    }),
    response: z.object({ month: z.string(), closed: z.literal(false) }),
    handler: ({ body, user, req, app: { db } }) =>
      withRetry(() =>
        db.transaction().execute((trx) => reopenMonth(trx, body.month, user, body.reason, req.id)),
      ),
  });
}
