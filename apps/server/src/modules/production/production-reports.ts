import {
  FLOW_CARD_LIFECYCLE,
  PRODUCTION_ORDER_RESERVING,
  PRODUCTION_REPORTS,
  type ProductionReportDef,
  SCRAP_REASON_OPTIONS,
  SHIFT_MINUTES,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { badRequest, fieldError } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { addDays } from '../../platform/numbering.ts';
import { runExport } from '../../platform/resource/excel-export.ts';
import { taken } from './pieces.ts';
import { rebuildWorkReportRollup } from './report-rollup.ts';

/**
 * The eight production reports (生产部 › 统计报表), one route pair each:
 * `GET /api/v1/production-report/{name}` and `…/{name}/export`. Each report is a SQL row set
 * (`rows`) from which the answer's rows, totals, rates and chart series are all derived the same
 * way; the declarations in @ringmes/domain (production-reports.ts) name the columns, filters and
 * drill-downs. Work-report figures come from `work_report_rollup` (report-rollup.ts, kept in the
 * posting transaction), flow-card figures from the card steps posting keeps.
 */

/** A period bound: a day (YYYY-MM-DD) or a whole month (YYYY-MM: from its first, to its last day). */
const bound = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/, '期间格式应为 YYYY-MM-DD（或整月 YYYY-MM）')
  .refine((v) => {
    // Runs even when the pattern failed (zod continues after a failed regex): never throw here.
    const t = Date.parse(`${v.length === 7 ? `${v}-01` : v}T00:00:00Z`);
    return Number.isFinite(t) && (v.length === 7 || new Date(t).toISOString().startsWith(v));
  }, '期间日期不存在')
  // A period's arithmetic (its last day, the next month) stays inside four-digit years.
  .refine((v) => v.slice(0, 4) >= '0001' && v.slice(0, 4) <= '9998', '期间年份应在 0001–9998 之间');
const validBound = (v: string) => bound.safeParse(v).success;
export const reportQuery = z
  .strictObject({
    from: bound.optional(),
    to: bound.optional(),
    workshopId: zx.id.optional(),
    productId: zx.id.optional(),
    operatorId: zx.id.optional(),
    processId: zx.id.optional(),
    saleOrderId: zx.id.optional(),
    atWorkshopId: zx.id.optional(),
    materialId: zx.id.optional(),
    groupBy: z.string().max(20).optional(),
    pageNum: zx.pageNum,
    pageSize: zx.pageSize,
  })
  .refine(
    (q) => !q.from || !q.to || !validBound(q.from) || !validBound(q.to) || firstDay(q.from) <= lastDay(q.to),
    {
      message: '开始日期不能晚于结束日期',
      path: ['to'],
    },
  );
export type ReportQuery = z.infer<typeof reportQuery>;

// ------------------------------------------------------------------ the period

const nextMonth = (d: string) => {
  const [y, m] = d.split('-').map(Number);
  const year = (n: number) => String(n).padStart(4, '0');
  return m === 12 ? `${year(y + 1)}-01-01` : `${year(y)}-${String(m + 1).padStart(2, '0')}-01`;
};
const firstDay = (b: string) => (b.length === 7 ? `${b}-01` : b);
const lastDay = (b: string) => (b.length === 7 ? addDays(nextMonth(`${b}-01`), -1) : b);

/**
 * A report's period: first and last day (inclusive, dates of the factory), and the factory time
 * zone for the columns that are instants (a card's 开卡 time). Work-report dates are already
 * factory days.
 */
interface Period {
  from?: string;
  to?: string;
  tz: string;
}

function periodOf(def: ProductionReportDef, q: ReportQuery, tz: string): Period {
  if (def.periodUnit === 'month' && ((q.from?.length ?? 7) > 7 || (q.to?.length ?? 7) > 7)) {
    throw fieldError('from', `${def.title}按月统计，期间请选择月份（YYYY-MM）`);
  }
  return { from: q.from && firstDay(q.from), to: q.to && lastDay(q.to), tz };
}

/**
 * A day range split for the rollups: the whole months inside it (read from the monthly rollup,
 * `[monthFrom, monthTo)` in month starts, an open end unbounded) and the days at either end
 * outside whole months (read from the daily rollup, inclusive ranges).
 */
export function splitPeriod(p: { from?: string; to?: string }) {
  const monthFrom = p.from && (p.from.endsWith('-01') ? p.from : nextMonth(p.from));
  const monthTo = p.to && (addDays(p.to, 1).endsWith('-01') ? addDays(p.to, 1) : `${p.to.slice(0, 7)}-01`);
  if (monthFrom && monthTo && monthFrom >= monthTo) {
    return { months: null, days: [[p.from, p.to] as [string, string]] };
  }
  const days: [string, string][] = [];
  if (p.from && monthFrom && p.from < monthFrom) days.push([p.from, addDays(monthFrom, -1)]);
  if (p.to && monthTo && monthTo <= p.to) days.push([monthTo, p.to]);
  return { months: { from: monthFrom, to: monthTo }, days };
}

/** The instant bounds of a period over a timestamptz column, in the factory's days. */
function instantWhere(col: RawBuilder<unknown>, p: Period) {
  return and([
    opt(p.from, sql`${col} >= (${p.from ?? null}::date)::timestamp AT TIME ZONE ${p.tz}`),
    opt(p.to, sql`${col} < (${p.to ?? null}::date + 1)::timestamp AT TIME ZONE ${p.tz}`),
  ]);
}

/** The bounds of a period over a date column. */
function dateWhere(col: RawBuilder<unknown>, p: Period) {
  return and([
    opt(p.from, sql`${col} >= ${p.from ?? null}::date`),
    opt(p.to, sql`${col} <= ${p.to ?? null}::date`),
  ]);
}

interface Rate {
  key: string;
  num: string;
  den: string;
}

interface ReportSql {
  /** Every row of the report (no rates), columns aliased in snake_case. */
  rows: RawBuilder<unknown>;
  /** The order of the rows, over the alias `x`. */
  order: RawBuilder<unknown>;
  /** Columns summed in the totals (snake_case), rate inputs included. */
  sums: string[];
  /** Rates in %, one decimal: num ÷ den over the row's (or the totals') columns. */
  rates: Rate[];
  /** Further totals (scalar SQL) where a sum of the rows would double count. */
  extraTotals?: RawBuilder<unknown>;
  /** The chart's series: grouped from the rows `x`. */
  series?: RawBuilder<unknown>;
  /**
   * Names joined to the rows only once paged (a SELECT over `rel` aliased x, keeping x.*), so the
   * totals over every row never pay for them.
   */
  decorate?: (rel: RawBuilder<unknown>) => RawBuilder<unknown>;
  /**
   * The rows are a plain join (no grouping), read twice rather than kept: the page then comes from
   * an index in its order (LIMIT stops after a page) and the totals from one aggregate pass, where
   * keeping thousands of rows to sort them cost more than both (流转卡报表 over 4,926 cards).
   */
  inline?: boolean;
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const opt = (cond: unknown, frag: RawBuilder<unknown>) => (cond ? frag : sql`true`);
const and = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` AND `);
const rateSql = (r: Rate, alias: string) =>
  sql.raw(
    `round((${r.num.replaceAll('$', `${alias}.`)}) * 100 / NULLIF(${r.den.replaceAll('$', `${alias}.`)}, 0), 1) AS ${snake(r.key)}`,
  );

// ------------------------------------------------------------------ work-report rollup reports

/**
 * The rollup rows of a period, as a FROM item `r` with a `month` column: whole months from the
 * monthly rollup, the days at either end from the daily one (their `month` the day's month). The
 * product detail rows when the report filters or groups by product, else the product summary rows
 * (product 0).
 */
function rollupRows(q: ReportQuery, p: Period, byProduct = false) {
  const keys = and([
    sql`r.report_count > 0`,
    q.productId || byProduct ? sql`r.product_id <> 0` : sql`r.product_id = 0`,
    opt(q.workshopId, sql`r.workshop_id = ${q.workshopId ?? null}`),
    opt(q.productId, sql`r.product_id = ${q.productId ?? null}`),
    opt(q.operatorId, sql`r.operator_id = ${q.operatorId ?? null}`),
    opt(q.processId, sql`r.process_id = ${q.processId ?? null}`),
  ]);
  const { months, days } = splitPeriod(p);
  const cols = sql`r.workshop_id, r.process_id, r.product_id, r.operator_id, r.scrap_reason, r.report_count,
    r.good_quantity, r.work_scrap_quantity, r.material_scrap_quantity, r.rework_quantity, r.hours, r.standard_minutes`;
  const parts: RawBuilder<unknown>[] = [];
  if (months) {
    parts.push(sql`SELECT r.month, ${cols} FROM work_report_rollup r WHERE ${keys}
      AND ${opt(months.from, sql`r.month >= ${months.from ?? null}::date`)}
      AND ${opt(months.to, sql`r.month < ${months.to ?? null}::date`)}`);
  }
  if (days.length) {
    const inDays = sql.join(
      days.map(([a, b]) => sql`r.day BETWEEN ${a}::date AND ${b}::date`),
      sql` OR `,
    );
    parts.push(sql`SELECT date_trunc('month', r.day)::date AS month, ${cols} FROM work_report_day_rollup r
      WHERE ${keys} AND (${inDays})`);
  }
  return sql`(${sql.join(parts, sql` UNION ALL `)}) r`;
}

const USER_NAME = sql`COALESCE(NULLIF(u.first_name, ''), u.user_name)`;
const WORK_DAYS = (m: string) =>
  sql.raw(`(SELECT count(*)::int FROM generate_series(${m}, (${m} + interval '1 month' - interval '1 day'), interval '1 day') d
            WHERE extract(isodow FROM d) < 7)`);
const YIELD: Rate = {
  key: 'yieldRate',
  num: '$good_quantity',
  den: '$good_quantity + $work_scrap_quantity + $material_scrap_quantity',
};

function productionTotal(q: ReportQuery, p: Period): ReportSql {
  const by = q.groupBy ?? 'month';
  const groups: Record<
    string,
    { key: RawBuilder<unknown>; cols: RawBuilder<unknown>; join: RawBuilder<unknown> }
  > = {
    month: {
      key: sql`to_char(r.month, 'YYYY-MM')`,
      cols: sql`to_char(r.month, 'YYYY-MM') AS label, NULL::text AS code, to_char(r.month, 'YYYY-MM') AS month`,
      join: sql``,
    },
    workshop: {
      key: sql`r.workshop_id::text`,
      cols: sql`COALESCE(w.name, '（无车间）') AS label, w.code, w.type AS workshop_type`,
      join: sql`LEFT JOIN workshop w ON w.id = r.workshop_id`,
    },
    process: {
      key: sql`r.process_id::text`,
      cols: sql`p.name AS label, p.code, r.process_id`,
      join: sql`JOIN process p ON p.id = r.process_id`,
    },
    product: {
      key: sql`r.product_id::text`,
      cols: sql`m.name AS label, m.code, r.product_id`,
      join: sql`JOIN material m ON m.id = r.product_id`,
    },
    worker: {
      key: sql`r.operator_id::text`,
      cols: sql`${USER_NAME} AS label, u.user_name AS code, r.operator_id`,
      join: sql`LEFT JOIN app_user u ON u.id = r.operator_id`,
    },
  };
  const g = groups[by];
  if (!g) throw badRequest('汇总方式只能是 month、workshop、process、product 或 worker');
  return {
    rows: sql`
      SELECT ${g.key} AS key, ${g.cols}, sum(r.report_count)::int AS report_count, sum(r.good_quantity) AS good_quantity,
             sum(r.work_scrap_quantity) AS work_scrap_quantity, sum(r.material_scrap_quantity) AS material_scrap_quantity,
             sum(r.rework_quantity) AS rework_quantity, sum(r.hours) AS hours
        FROM ${rollupRows(q, p, by === 'product')} ${g.join}
       GROUP BY 1, 2, 3, 4`,
    order: by === 'month' ? sql`x.key` : sql`x.good_quantity DESC, x.key`,
    sums: [
      'report_count',
      'good_quantity',
      'work_scrap_quantity',
      'material_scrap_quantity',
      'rework_quantity',
      'hours',
    ],
    rates: [YIELD],
  };
}

function processCapacity(q: ReportQuery, p: Period): ReportSql {
  // Without a workshop, product or operator filter: the per-process monthly rollup (a few rows a
  // month); else the detailed rollup.
  const byProcess = !q.workshopId && !q.productId && !q.operatorId;
  const source = byProcess
    ? sql`(SELECT r.month, r.process_id, r.report_count, r.good_quantity, r.hours, r.standard_minutes
             FROM work_report_process_rollup r
            WHERE r.report_count > 0 AND ${dateWhere(sql`r.month`, p)}
              AND ${opt(q.processId, sql`r.process_id = ${q.processId ?? null}`)}) r`
    : rollupRows(q, p);
  return {
    rows: sql`
      SELECT to_char(a.month, 'YYYY-MM') || '|' || a.process_id AS key, to_char(a.month, 'YYYY-MM') AS month,
             a.process_id, p.name AS process_name, w.name AS workshop_name, ec.n AS equipment_count, wd.n AS work_days,
             a.good_quantity, a.hours, round(a.earned, 2) AS earned_minutes,
             ec.n * wd.n * ${SHIFT_MINUTES} AS capacity_minutes,
             CASE WHEN p.standard_minutes > 0 THEN floor(ec.n * wd.n * ${SHIFT_MINUTES} / p.standard_minutes) END AS capacity_quantity
        FROM (SELECT r.month, r.process_id, sum(r.good_quantity) AS good_quantity, sum(r.hours) AS hours,
                     sum(r.standard_minutes) AS earned
                FROM ${source} GROUP BY 1, 2) a
        JOIN process p ON p.id = a.process_id
        LEFT JOIN workshop w ON w.id = p.workshop_id
        CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM equipment e
                             WHERE e.workshop_id = p.workshop_id AND e.status IN ('running', 'idle')) ec
        CROSS JOIN LATERAL (SELECT ${WORK_DAYS('a.month')} AS n) wd`,
    order: sql`x.month, x.process_name`,
    sums: ['good_quantity', 'capacity_quantity', 'earned_minutes', 'capacity_minutes', 'hours'],
    rates: [{ key: 'utilisationRate', num: '$earned_minutes', den: '$capacity_minutes' }],
    series: sql`
      SELECT x.process_name AS label, sum(x.earned_minutes) AS earned_minutes, sum(x.capacity_minutes) AS capacity_minutes,
             round(sum(x.earned_minutes) * 100 / NULLIF(sum(x.capacity_minutes), 0), 1) AS utilisation_rate
        FROM rows x GROUP BY x.process_id, x.process_name ORDER BY x.process_name`,
  };
}

function workerCapacity(q: ReportQuery, p: Period): ReportSql {
  return {
    rows: sql`
      SELECT to_char(a.month, 'YYYY-MM') || '|' || a.operator_id AS key, to_char(a.month, 'YYYY-MM') AS month,
             a.operator_id, ${USER_NAME} AS operator_name, a.report_count, a.good_quantity, a.scrap_quantity, a.hours,
             round(a.earned, 2) AS earned_minutes, wd.n * ${SHIFT_MINUTES} AS available_minutes
        FROM (SELECT r.month, r.operator_id, sum(r.report_count)::int AS report_count, sum(r.good_quantity) AS good_quantity,
                     sum(r.work_scrap_quantity + r.material_scrap_quantity) AS scrap_quantity, sum(r.hours) AS hours,
                     sum(r.standard_minutes) AS earned
                FROM ${rollupRows(q, p)} GROUP BY 1, 2) a
        LEFT JOIN app_user u ON u.id = a.operator_id
        CROSS JOIN LATERAL (SELECT ${WORK_DAYS('a.month')} AS n) wd`,
    order: sql`x.month, x.operator_name`,
    sums: ['report_count', 'good_quantity', 'scrap_quantity', 'hours', 'earned_minutes', 'available_minutes'],
    rates: [
      { key: 'utilisationRate', num: '$earned_minutes', den: '$available_minutes' },
      { key: 'efficiencyRate', num: '$earned_minutes', den: '$hours * 60' },
    ],
    series: sql`
      SELECT x.operator_name AS label, sum(x.earned_minutes) AS earned_minutes, sum(x.available_minutes) AS available_minutes,
             round(sum(x.earned_minutes) * 100 / NULLIF(sum(x.available_minutes), 0), 1) AS utilisation_rate
        FROM rows x GROUP BY x.operator_id, x.operator_name ORDER BY sum(x.earned_minutes) DESC`,
  };
}

const REASON_LABEL = sql.raw(
  `CASE f.scrap_reason ${SCRAP_REASON_OPTIONS.map((o) => `WHEN '${o.value}' THEN '${o.label}'`).join(' ')} ELSE '（未填原因）' END`,
);

function workerReject(q: ReportQuery, p: Period): ReportSql {
  return {
    rows: sql`
      SELECT f.operator_id || '|' || f.scrap_reason AS key, f.operator_id, ${USER_NAME} AS operator_name,
             NULLIF(f.scrap_reason, '') AS scrap_reason, ${REASON_LABEL} AS reason_label,
             f.ws AS work_scrap_quantity, f.ms AS material_scrap_quantity, f.ws + f.ms AS scrap_quantity, t.output AS output_quantity
        FROM (SELECT r.operator_id, r.scrap_reason, sum(r.work_scrap_quantity) AS ws, sum(r.material_scrap_quantity) AS ms
                FROM ${rollupRows(q, p)} GROUP BY 1, 2) f
        JOIN (SELECT r.operator_id, sum(${taken('r')}) AS output
                FROM ${rollupRows(q, p)} GROUP BY 1) t ON t.operator_id = f.operator_id
        LEFT JOIN app_user u ON u.id = f.operator_id
       WHERE f.ws + f.ms > 0`,
    order: sql`x.operator_name, x.scrap_quantity DESC, x.key`,
    sums: ['work_scrap_quantity', 'material_scrap_quantity', 'scrap_quantity'],
    extraTotals: sql`(SELECT COALESCE(sum(${taken('r')}), 0)
                        FROM ${rollupRows(q, p)}) AS output_quantity`,
    rates: [{ key: 'scrapRate', num: '$scrap_quantity', den: '$output_quantity' }],
    series: sql`
      SELECT x.operator_name AS label, sum(x.work_scrap_quantity) AS work_scrap_quantity,
             sum(x.material_scrap_quantity) AS material_scrap_quantity,
             round(sum(x.scrap_quantity) * 100 / NULLIF(max(x.output_quantity), 0), 1) AS scrap_rate
        FROM rows x GROUP BY x.operator_id, x.operator_name ORDER BY sum(x.scrap_quantity) DESC`,
  };
}

// ------------------------------------------------------------------ flow-card reports

/**
 * The cards of a report: opened in the period (factory days), of the product / sales order, with
 * a step in the workshop, reported by the operator, waiting in a workshop (`atWorkshopId`).
 */
function cardWhere(q: ReportQuery, p: Period) {
  return and([
    instantWhere(sql`c.created_at`, p),
    opt(q.productId, sql`c.product_id = ${q.productId ?? null}`),
    opt(q.saleOrderId, sql`o.sale_order_id = ${q.saleOrderId ?? null}`),
    opt(
      q.workshopId,
      sql`EXISTS (SELECT 1 FROM flow_card_wip x WHERE x.flow_card_id = c.id AND x.workshop_id = ${q.workshopId ?? null})`,
    ),
    opt(
      q.operatorId,
      sql`EXISTS (SELECT 1 FROM work_report wr WHERE wr.flow_card_id = c.id AND wr.operator_id = ${q.operatorId ?? null})`,
    ),
    opt(
      q.atWorkshopId,
      sql`c.status = 'open' AND EXISTS (SELECT 1 FROM flow_card_wip x WHERE x.flow_card_id = c.id
            AND x.workshop_id = ${q.atWorkshopId ?? null} AND x.waiting > 0)`,
    ),
  ]);
}

const CARD_STATUS_LABEL = sql.raw(
  `CASE x.status ${FLOW_CARD_LIFECYCLE.states.map((s) => `WHEN '${s.value}' THEN '${s.label}'`).join(' ')} END`,
);

/** 流转卡报表: each card with its progress, from the card summary (report-rollup.ts). */
function flowCards(q: ReportQuery, p: Period): ReportSql {
  return {
    rows: sql`
      SELECT c.id AS flow_card_id, c.quantity, CASE WHEN c.status = 'open' THEN f.current_waiting ELSE 0 END AS waiting_quantity,
             f.finished_quantity, f.scrap_quantity
        FROM flow_card c
        JOIN flow_card_summary f ON f.flow_card_id = c.id
        ${q.saleOrderId ? sql`JOIN production_order o ON o.id = c.production_order_id` : sql``}
       WHERE ${cardWhere(q, p)}`,
    decorate: (rel) => sql`
      SELECT x.*, c.doc_no, o.id AS production_order_id, o.doc_no AS order_no, m.name AS product_name, c.status,
             to_char(c.created_at AT TIME ZONE ${p.tz}, 'YYYY-MM-DD') AS opened_on,
             f.steps_done || '/' || f.steps_total AS steps_done,
             CASE WHEN c.status = 'open' THEN f.current_seq || ' ' || cp.name END AS current_step,
             CASE WHEN c.status = 'open' THEN COALESCE(cw.name, CASE WHEN f.current_outsourced THEN '委外' END) END AS current_workshop
        FROM ${rel} x
        JOIN flow_card c ON c.id = x.flow_card_id
        JOIN flow_card_summary f ON f.flow_card_id = c.id
        JOIN production_order o ON o.id = c.production_order_id
        JOIN material m ON m.id = c.product_id
        LEFT JOIN process cp ON cp.id = f.current_process_id
        LEFT JOIN workshop cw ON cw.id = f.current_workshop_id`,
    order: sql`x.flow_card_id DESC`,
    inline: true,
    sums: ['quantity', 'waiting_quantity', 'finished_quantity', 'scrap_quantity'],
    rates: [{ key: 'progressRate', num: '$finished_quantity', den: '$quantity' }],
    // By state, from the cards alone: cheap over every matching card.
    series: sql`
      SELECT ${CARD_STATUS_LABEL} AS label, count(*)::int AS cards, sum(x.quantity) AS quantity
        FROM (SELECT c.status, c.quantity FROM flow_card c
                ${q.saleOrderId ? sql`JOIN production_order o ON o.id = c.production_order_id` : sql``}
               WHERE ${cardWhere(q, p)}) x
       GROUP BY x.status ORDER BY min(array_position(${sql.val(FLOW_CARD_LIFECYCLE.states.map((s) => s.value))}::text[], x.status::text))`,
  };
}

/**
 * 车间流转卡报表: per workshop, the open cards with pieces waiting there now (flow_card_wip) and
 * the period's posted output (the rollups).
 */
function cardsByWorkshop(q: ReportQuery, p: Period): ReportSql {
  return {
    rows: sql`
      SELECT w.id AS workshop_id, w.name AS workshop_name, w.type AS workshop_type, w.code,
             COALESCE(a.open_cards, 0) AS open_cards, COALESCE(a.waiting, 0) AS waiting_quantity,
             COALESCE(o.report_count, 0) AS report_count, COALESCE(o.good_quantity, 0) AS good_quantity,
             COALESCE(o.work_scrap_quantity, 0) AS work_scrap_quantity,
             COALESCE(o.material_scrap_quantity, 0) AS material_scrap_quantity
        FROM workshop w
        LEFT JOIN (SELECT x.workshop_id, count(*)::int AS open_cards, sum(x.waiting) AS waiting
                     FROM flow_card_wip x JOIN flow_card c ON c.id = x.flow_card_id
                    WHERE x.waiting > 0 AND c.status = 'open' AND ${opt(q.productId, sql`c.product_id = ${q.productId ?? null}`)}
                    GROUP BY x.workshop_id) a ON a.workshop_id = w.id
        LEFT JOIN (SELECT r.workshop_id, sum(r.report_count)::int AS report_count, sum(r.good_quantity) AS good_quantity,
                          sum(r.work_scrap_quantity) AS work_scrap_quantity, sum(r.material_scrap_quantity) AS material_scrap_quantity
                     FROM ${rollupRows({ ...q, workshopId: undefined }, p)} GROUP BY 1) o
               ON o.workshop_id = w.id
       WHERE (w.status = '1' OR a.open_cards > 0 OR o.report_count > 0)
         AND ${opt(q.workshopId, sql`w.id = ${q.workshopId ?? null}`)}`,
    order: sql`x.code`,
    sums: [
      'open_cards',
      'waiting_quantity',
      'report_count',
      'good_quantity',
      'work_scrap_quantity',
      'material_scrap_quantity',
    ],
    rates: [YIELD],
  };
}

/**
 * 订单车间流转卡报表: per sales order (ordered in the period), where its open and completed cards'
 * pieces are (waiting in each kind of workshop, out at a supplier, finished, scrapped), summed
 * from the card summary.
 */
function cardsBySalesOrder(q: ReportQuery, p: Period): ReportSql {
  const orders = sql`SELECT so2.id FROM sale_order so2 WHERE ${dateWhere(sql`so2.order_date`, p)}
                        AND ${opt(q.saleOrderId, sql`so2.id = ${q.saleOrderId ?? null}`)}`;
  // Without a product filter: the sales orders' card summaries (one row each); else their cards.
  const rows = q.productId
    ? null
    : sql`
        SELECT s.sale_order_id, s.cards, s.card_quantity, s.machine_waiting AS machine, s.grinding_waiting AS grinding,
               s.inspect_waiting AS inspect, s.assembly_waiting AS assembly, s.outsourced_waiting AS outsourced,
               s.finished_quantity AS finished, s.scrap_quantity AS scrap
          FROM sale_order_card_summary s
         WHERE s.sale_order_id IN (${orders}) AND s.cards > 0`;
  return {
    rows:
      rows ??
      sql`
        SELECT f.sale_order_id, count(*)::int AS cards, sum(c.quantity) AS card_quantity,
                     sum(f.machine_waiting) AS machine, sum(f.grinding_waiting) AS grinding,
                     sum(f.inspect_waiting) AS inspect, sum(f.assembly_waiting) AS assembly,
                     sum(f.outsourced_waiting) AS outsourced, sum(f.finished_quantity) AS finished,
                     sum(f.scrap_quantity) AS scrap
                FROM flow_card_summary f JOIN flow_card c ON c.id = f.flow_card_id
               WHERE f.sale_order_id IN (${orders})
                 AND c.status IN ('open', 'completed') AND ${opt(q.productId, sql`c.product_id = ${q.productId ?? null}`)}
               GROUP BY f.sale_order_id`,
    decorate: (rel) => sql`
      SELECT x.*, so.doc_no AS sale_order_no, cu.name AS customer_name, to_char(so.delivery_date, 'YYYY-MM-DD') AS delivery_date
        FROM ${rel} x JOIN sale_order so ON so.id = x.sale_order_id JOIN customer cu ON cu.id = so.customer_id`,
    order: sql`x.sale_order_id DESC`,
    sums: [
      'cards',
      'card_quantity',
      'machine',
      'grinding',
      'inspect',
      'assembly',
      'outsourced',
      'finished',
      'scrap',
    ],
    rates: [],
  };
}

// ------------------------------------------------------------------ 在制需求

const RESERVING = sql.join(PRODUCTION_ORDER_RESERVING.map((v) => sql.lit(v)));

function inProgressRequirement(q: ReportQuery, p: Period): ReportSql {
  const byOrder = q.groupBy === 'order';
  if (q.groupBy && !['material', 'order'].includes(q.groupBy))
    throw badRequest('汇总方式只能是 material 或 order');
  const lines = sql`
    SELECT pm.id, pm.production_order_id, po.doc_no, pm.material_id, pm.required_quantity, pm.issued_quantity,
           pm.required_quantity - pm.issued_quantity AS open_quantity
      FROM production_order_material pm JOIN production_order po ON po.id = pm.production_order_id
     WHERE po.status IN (${RESERVING}) AND pm.required_quantity > pm.issued_quantity
       AND ${dateWhere(sql`po.planned_start_date`, p)}
       AND ${opt(q.productId, sql`po.product_id = ${q.productId ?? null}`)}
       AND ${opt(q.materialId, sql`pm.material_id = ${q.materialId ?? null}`)}`;
  const grouped = byOrder
    ? sql`SELECT l.id::text AS key, l.production_order_id, l.doc_no AS order_no, l.material_id, 1 AS orders,
                 l.required_quantity, l.issued_quantity, l.open_quantity FROM (${lines}) l`
    : sql`SELECT l.material_id::text AS key, NULL::bigint AS production_order_id, NULL::text AS order_no, l.material_id,
                 -- One requirement per order and material (production_order_material_key): no DISTINCT.
                 count(*)::int AS orders, sum(l.required_quantity) AS required_quantity,
                 sum(l.issued_quantity) AS issued_quantity, sum(l.open_quantity) AS open_quantity
            FROM (${lines}) l GROUP BY l.material_id`;
  // Stock, open production and open purchases of each listed material: a lookup per material
  // (the reserving orders by their partial index, migration 0048). The states are literals, so the
  // one plan kept for every call (a named statement) uses that index whatever the period.
  return {
    rows: sql`
      SELECT g.*, m.code AS material_code, m.name AS material_name, COALESCE(s.q, 0) AS stock_quantity,
             COALESCE(mk.q, 0) AS in_production_quantity, COALESCE(c.q, 0) AS in_transit_quantity,
             greatest(g.open_quantity - COALESCE(s.q, 0) - COALESCE(mk.q, 0) - COALESCE(c.q, 0), 0) AS shortage_quantity
        FROM (${grouped}) g
        JOIN material m ON m.id = g.material_id
        LEFT JOIN LATERAL (SELECT sum(b.quantity) AS q FROM stock_balance b
                            WHERE b.material_id = g.material_id AND b.quality_status = 'qualified') s ON true
        LEFT JOIN LATERAL (SELECT sum(greatest(p.quantity - p.produced_quantity, 0)) AS q FROM production_order p
                            WHERE p.product_id = g.material_id AND p.status IN (${RESERVING})) mk ON true
        LEFT JOIN LATERAL (SELECT sum(greatest(COALESCE(pl.base_quantity, pl.quantity) - pl.received_quantity + pl.returned_quantity, 0)) AS q
                             FROM purchase_order_line pl JOIN purchase_order po2 ON po2.id = pl.purchase_order_id
                            WHERE pl.material_id = g.material_id AND po2.status IN ('approved', 'partly-received')) c ON true`,
    order: byOrder ? sql`x.order_no, x.material_code` : sql`x.shortage_quantity DESC, x.material_code`,
    sums: ['orders', 'required_quantity', 'issued_quantity', 'open_quantity', 'shortage_quantity'],
    rates: [],
  };
}

// ------------------------------------------------------------------ answering

const BUILDERS: Record<string, (q: ReportQuery, p: Period) => ReportSql> = {
  processFlowCardReport: flowCards,
  flowCardByWorkShopPage: cardsByWorkshop,
  flowCardBySalesAndWorkshopPage: cardsBySalesOrder,
  analyzeMonthlyProcessCapacity: processCapacity,
  analyzeMonthlyWorkerCapacity: workerCapacity,
  productionTotal,
  listInProgressRequirement: inProgressRequirement,
  workerRejectStats: workerReject,
};

/** The rows with their rates, as a statement over `rows` (alias x). */
function withRates(s: ReportSql) {
  const rates = s.rates.map((r) => rateSql(r, 'x'));
  return sql`SELECT x.*${rates.length ? sql`, ${sql.join(rates)}` : sql``} FROM rows x`;
}

const camel = (k: string) => k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * One report's answer: rows (a page of them when paged), totals, the chart's series, and the row
 * count. The rows are computed once (a materialised CTE) for the page and the totals together;
 * the totals travel as one JSON column of decimal strings (exact, as every quantity).
 */
export async function readProductionReport(
  db: Db,
  def: ProductionReportDef,
  q: ReportQuery,
  timeZone: string,
) {
  const s = BUILDERS[def.name](q, periodOf(def, q, timeZone));
  const sums = s.sums.map((c) => sql.raw(`COALESCE(sum(x.${c}), 0) AS ${c}`));
  const totalRates = s.rates.map((r) => rateSql(r, 't'));
  const totalKeys = [
    ...s.sums,
    ...(s.extraTotals ? ['output_quantity'] : []),
    ...s.rates.map((r) => snake(r.key)),
  ];
  const asJson = sql.raw(
    `json_build_object('row_count', tot.row_count, ${totalKeys.map((k) => `'${k}', tot.${k}::text`).join(', ')})::text`,
  );
  const page = def.paged
    ? sql`LIMIT ${q.pageSize} OFFSET ${(Math.max(q.pageNum, 1) - 1) * q.pageSize}`
    : sql`LIMIT 5000`;
  // Named statements (the rows and the chart's series), one per report and filter set: these run
  // often and plan in about as long as they execute.
  const [rows, series] = await Promise.all([
    prepared(sql<Record<string, any>>`
      WITH rows AS ${s.inline ? sql`NOT MATERIALIZED` : sql`MATERIALIZED`} (${s.rows}),
           tot AS (SELECT t.*${totalRates.length ? sql`, ${sql.join(totalRates)}` : sql``}
                     FROM (SELECT count(*)::int AS row_count, ${sql.join(sums)}${s.extraTotals ? sql`, ${s.extraTotals}` : sql``}
                             FROM rows x) t),
           page AS (${withRates(s)} ORDER BY ${s.order} ${page})
      SELECT page.*, (SELECT ${asJson} FROM tot) AS report_totals
        FROM (SELECT 1) one
        LEFT JOIN (${s.decorate ? sql`${s.decorate(sql`page`)} ORDER BY ${s.order}` : sql`SELECT * FROM page`}) page ON true`).execute(
      db,
    ),
    s.series
      ? prepared(sql<Record<string, any>>`WITH rows AS (${s.rows}) ${s.series}`).execute(db)
      : Promise.resolve(undefined),
  ]);
  const raw = JSON.parse(rows.rows[0]?.reportTotals ?? '{"row_count":0}') as Record<string, any>;
  const totals: Record<string, any> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'row_count') continue;
    // Counts stay numbers (as in the rows); rates are numbers with one decimal.
    totals[camel(k)] =
      v == null
        ? null
        : s.rates.some((r) => snake(r.key) === k) || /(_count|^cards|^orders|^open_cards)$/.test(k)
          ? Number(v)
          : v;
  }
  const list = rows.rows
    .filter((r) => Object.keys(r).some((k) => k !== 'reportTotals' && r[k] != null))
    .map(({ reportTotals: _, ...r }) => r);
  return { rows: list, totals, total: Number(raw.row_count), series: series?.rows };
}

/** The export: every row (not only a page) and the totals row last, streamed by the export machinery. */
async function exportProductionReport(app: App, userId: number, def: ProductionReportDef, q: ReportQuery) {
  const { db, dbKind, config } = app.ringmes;
  const s = BUILDERS[def.name](q, periodOf(def, q, config.timeZone));
  const rated = new Set([
    ...s.sums,
    ...s.rates.map((r) => snake(r.key)),
    ...(s.extraTotals ? ['output_quantity'] : []),
  ]);
  const cols = def.columns.map((c) => snake(c.key));
  const sums = s.sums.map((c) => sql.raw(`COALESCE(sum(x.${c}), 0) AS ${c}`));
  const totalRates = s.rates.map((r) => rateSql(r, 'tt'));
  const totalCols = cols.map((c, i) =>
    def.columns[i].total && rated.has(c)
      ? sql.raw(`t.${c}`)
      : i === 0
        ? sql.raw(`'合计' AS ${c}`)
        : sql.raw(`NULL AS ${c}`),
  );
  const statement = sql`(
    WITH rows AS (${s.rows}),
         rated AS (${withRates(s)}),
         t AS (SELECT tt.*${totalRates.length ? sql`, ${sql.join(totalRates)}` : sql``}
                 FROM (SELECT ${sql.join(sums)}${s.extraTotals ? sql`, ${s.extraTotals}` : sql``} FROM rows x) tt)
    SELECT row_number() OVER (ORDER BY ${s.order}) AS id, ${sql.join(cols.map((c) => sql.raw(`x.${c}`)))}
      FROM ${s.decorate ? sql`(${s.decorate(sql`rated`)})` : sql`rated`} x
    UNION ALL
    SELECT ${Number.MAX_SAFE_INTEGER}::bigint, ${sql.join(totalCols)} FROM t)`;
  const states = new Map(FLOW_CARD_LIFECYCLE.states.map((x) => [x.value, x.label]));
  const cell = (kind: string, v: unknown) =>
    v == null
      ? ''
      : kind === 'text'
        ? String(v)
        : kind === 'status'
          ? (states.get(String(v)) ?? String(v))
          : Number(v);
  return runExport({ db, dbKind, exportDir: config.exportDir, log: app.log }, userId, {
    query: db.selectFrom(statement.as('t')).selectAll(),
    order: { column: 't.id', desc: false },
    title: def.title,
    sheetName: def.title,
    fields: def.columns.map((c) => ({
      name: c.key,
      label: c.kind === 'rate' ? `${c.label}(%)` : c.label,
      kind: 'text',
    })),
    cells: (row) => def.columns.map((c) => cell(c.kind, row[c.key])),
  });
}

export function productionReportRoutes(app: App) {
  // Maintenance: after loading work reports outside the application (an import, a benchmark).
  route(app, {
    method: 'POST',
    url: '/api/v1/production-report/rebuild',
    permission: 'system:setting:edit',
    body: z.strictObject({}).optional(),
    handler: ({ app: { db } }) =>
      db.transaction().execute(async (trx) => {
        await rebuildWorkReportRollup(trx);
        const r = await sql<{ rows: number }>`SELECT count(*)::int AS rows FROM work_report_rollup`.execute(
          trx,
        );
        return { rows: r.rows[0].rows };
      }),
  });
  for (const def of PRODUCTION_REPORTS) {
    route(app, {
      method: 'GET',
      url: `/api/v1/production-report/${def.name}`,
      permission: `${def.permission}:query` as Permission,
      query: reportQuery,
      handler: ({ query, app: { db } }) => readProductionReport(db, def, query, app.ringmes.config.timeZone),
    });
    route(app, {
      method: 'GET',
      url: `/api/v1/production-report/${def.name}/export`,
      permission: `${def.permission}:export` as Permission,
      query: reportQuery,
      handler: ({ query, user }) => exportProductionReport(app, user.id, def, query),
    });
  }
}
