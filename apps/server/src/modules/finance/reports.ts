import {
  type EnumOption,
  FINANCE_REPORTS,
  type FinanceReportDef,
  PRODUCTION_ORDER_LIFECYCLE,
  WORK_REPORT_LIFECYCLE,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { attachUnits } from '../../platform/report-units.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import {
  type CostingContext,
  costingContext,
  costRollupSql,
  standardsSql,
} from '../production/cost-rollup.ts';
import { taken } from '../production/pieces.ts';
import { exactText } from './wages.ts';

/**
 * The 财务部 reports (declared in packages/domain finance-reports.ts). Each report here is its
 * facts: one SQL row per fact with `day` (the fact's date, for the range and the month grouping),
 * `<group>_key` / `<group>_label` per grouping, a column per filter, the measures and the
 * drill-down's columns (`doc_id`, optionally `doc_resource`, open the document). Everything else
 * — filtering, grouping, totals, ratios, drill-down, Excel — is the same code for all of them.
 */

export interface ReportQuery {
  groupBy: string;
  from?: string;
  to?: string;
  date?: string;
  key?: string;
  refs: Record<string, number | undefined>;
}

interface Facts {
  sql(q: ReportQuery, ctx?: any): RawBuilder<unknown>;
  /** What the facts need besides SQL, read first (the cost reports: rates and standard costs). */
  prepare?: (db: Db, q: ReportQuery) => Promise<unknown>;
  /** Summed measures a ratio needs but the report does not show. */
  hidden?: string[];
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const labelOf = (col: RawBuilder<unknown>, options: EnumOption[]) =>
  sql`CASE ${col} ${sql.join(
    options.map((o) => sql`WHEN ${o.value} THEN ${o.label}`),
    sql` `,
  )} ELSE ${col}::text END`;
const monthCols = sql`to_char(day, 'YYYY-MM')`;
/** The base unit of the fact's material `mt`, as `un` (a fact's `unit_name`). */
const UNIT = sql`LEFT JOIN material_unit un ON un.id = mt.unit_id`;

/** Stock at the end of a day per material and warehouse: the monthly rollup before its month plus its month's ledger rows. */
export function stockAt(date: string, warehouseId?: number) {
  const first = `${date.slice(0, 7)}-01`;
  const wh = (a: string) => (warehouseId ? sql`AND ${sql.ref(`${a}.warehouse_id`)} = ${warehouseId}` : sql``);
  return sql`
    SELECT material_id, warehouse_id, sum(quantity) AS quantity, sum(amount) AS amount FROM (
      SELECT r.material_id, r.warehouse_id, r.quantity, r.amount FROM stock_ledger_month r
       WHERE r.month < ${first}::date ${wh('r')}
      UNION ALL
      SELECT l.material_id, l.warehouse_id, l.quantity, l.amount FROM stock_ledger l
       WHERE l.biz_date >= ${first}::date AND l.biz_date <= ${date}::date ${wh('l')}
    ) s GROUP BY material_id, warehouse_id`;
}

/** The cost roll-up's rows (production/cost-rollup.ts) as the relation `a`. */
function rolledUp(rows: Record<string, any>[]) {
  const col = (k: string) => sql.val(rows.map((r) => (r[k] == null ? null : String(r[k]))));
  return sql`unnest(${sql.val(rows.map((r) => Number(r.id)))}::bigint[], ${col('docNo')}::text[],
                    ${sql.val(rows.map((r) => Number(r.productId)))}::bigint[], ${col('day')}::date[],
                    ${col('produced')}::numeric[], ${col('material')}::numeric[], ${col('labour')}::numeric[],
                    ${col('outsourcing')}::numeric[], ${col('overhead')}::numeric[], ${col('scrap')}::numeric[])
             AS a(id, doc_no, product_id, day, produced, material, labour, outsourcing, overhead, scrap)`;
}

const FACTS: Record<string, Facts> = {
  'sales-report': {
    sql: () => sql`
      SELECT o.biz_date AS day, o.id AS doc_id, o.doc_no, o.customer_id, l.material_id,
             o.customer_id::text AS customer_key, c.name AS customer_label, c.name AS customer_name,
             l.material_id::text AS material_key, mt.name AS material_label, mt.name AS material_name,
             so.doc_no AS order_no, COALESCE(l.base_quantity, l.quantity) AS quantity,
             round(l.quantity * COALESCE(sol.unit_price, l.unit_price, 0), 2) AS revenue,
             COALESCE(-g.amount, 0) AS cost,
             round(l.quantity * COALESCE(sol.unit_price, l.unit_price, 0), 2) - COALESCE(-g.amount, 0) AS margin,
             un.name AS unit_name
        FROM stock_outbound o JOIN stock_outbound_line l ON l.stock_outbound_id = o.id
        JOIN material mt ON mt.id = l.material_id ${UNIT}
        LEFT JOIN customer c ON c.id = o.customer_id
        LEFT JOIN sale_order so ON so.id = o.sale_order_id
        LEFT JOIN sale_order_line sol ON sol.id = l.source_line_id AND sol.sale_order_id = o.sale_order_id
        LEFT JOIN LATERAL (SELECT sum(s.amount) AS amount FROM stock_ledger s
                            WHERE s.doc_type = 'stock-outbound' AND s.doc_id = o.id AND s.line_id = l.id
                              AND s.reversal_of IS NULL) g ON true
       WHERE o.type = 'sales' AND o.status = 'posted'`,
  },
  'purchase-report': {
    sql: () => sql`
      SELECT i.biz_date AS day, i.id AS doc_id, 'stock-inbound' AS doc_resource, i.doc_no, '采购入库' AS kind_label,
             i.supplier_id, l.material_id, i.supplier_id::text AS supplier_key, s.name AS supplier_label,
             s.name AS supplier_name, l.material_id::text AS material_key, mt.name AS material_label,
             mt.name AS material_name, po.doc_no AS order_no, COALESCE(l.base_quantity, l.quantity) AS quantity,
             round(l.quantity * COALESCE(pol.unit_price, l.unit_price, 0), 2) AS amount, 0 AS return_amount,
             round(l.quantity * COALESCE(pol.unit_price, l.unit_price, 0), 2) AS net_amount, un.name AS unit_name
        FROM stock_inbound i JOIN stock_inbound_line l ON l.stock_inbound_id = i.id
        JOIN material mt ON mt.id = l.material_id ${UNIT} LEFT JOIN supplier s ON s.id = i.supplier_id
        LEFT JOIN purchase_order po ON po.id = i.purchase_order_id
        LEFT JOIN purchase_order_line pol ON pol.id = l.source_line_id AND pol.purchase_order_id = i.purchase_order_id
       WHERE i.type = 'purchase' AND i.status = 'posted'
      UNION ALL
      SELECT o.biz_date, o.id, 'stock-outbound', o.doc_no, '采购退货', o.supplier_id, l.material_id,
             o.supplier_id::text, s.name, s.name, l.material_id::text, mt.name, mt.name, po.doc_no,
             -COALESCE(l.base_quantity, l.quantity), 0,
             round(l.quantity * COALESCE(pol.unit_price, l.unit_price, 0), 2),
             -round(l.quantity * COALESCE(pol.unit_price, l.unit_price, 0), 2), un.name
        FROM stock_outbound o JOIN stock_outbound_line l ON l.stock_outbound_id = o.id
        JOIN material mt ON mt.id = l.material_id ${UNIT} LEFT JOIN supplier s ON s.id = o.supplier_id
        LEFT JOIN purchase_order po ON po.id = o.purchase_order_id
        LEFT JOIN purchase_order_line pol ON pol.id = l.source_line_id AND pol.purchase_order_id = o.purchase_order_id
       WHERE o.type = 'purchase-return' AND o.status = 'posted'`,
  },
  'production-report': {
    sql: () => sql`
      SELECT p.planned_start_date AS day, p.id AS doc_id, p.doc_no, p.product_id AS material_id,
             p.id::text AS order_key, p.doc_no AS order_label, p.product_id::text AS material_key,
             mt.name AS material_label, mt.name AS material_name,
             ${labelOf(sql`p.status`, PRODUCTION_ORDER_LIFECYCLE.states)} AS status_label,
             p.quantity AS planned, p.produced_quantity AS produced,
             COALESCE(mc.amount, 0) AS material_cost, COALESCE(w.amount, 0) AS labor_cost,
             COALESCE(mc.amount, 0) + COALESCE(w.amount, 0) AS total_cost, un.name AS unit_name
        FROM production_order p JOIN material mt ON mt.id = p.product_id ${UNIT}
        LEFT JOIN LATERAL (SELECT -sum(s.amount) AS amount FROM stock_outbound o
                             JOIN stock_ledger s ON s.doc_type = 'stock-outbound' AND s.doc_id = o.id
                            WHERE o.production_order_id = p.id AND o.status = 'posted' AND s.reversal_of IS NULL) mc ON true
        LEFT JOIN LATERAL (SELECT sum(amount) AS amount FROM piece_wage WHERE production_order_id = p.id) w ON true
       WHERE p.status <> 'draft'`,
  },
  // 成本差异 (issue 37 §4): one fact per production order, in the month of its last 生产入库 — the
  // actual cost rolled up (production/cost-rollup.ts) against its product's standard × finished.
  // The roll-up runs once per request (in `prepare`); the report's queries read its rows.
  'cost-variance': {
    prepare: async (db, q) => {
      const ctx = await costingContext(db, { productId: q.refs.materialId });
      // One pass over a month's 报工 and a few sums: compiling the statement (JIT) took longer
      // than it saved, so the roll-up runs in a transaction of its own without it.
      const rolled = await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL jit = off`.execute(trx);
        return costRollupSql({ from: q.from, to: q.to, productId: q.refs.materialId }, ctx).execute(trx);
      });
      return { ctx, rows: rolled.rows as Record<string, any>[] };
    },
    sql: (_q, { ctx, rows }: { ctx: CostingContext; rows: Record<string, any>[] }) => sql`
      SELECT a.day, a.id AS doc_id, a.doc_no, a.product_id AS material_id,
             a.id::text AS order_key, a.doc_no AS order_label, a.product_id::text AS material_key,
             mt.name AS material_label, mt.name AS material_name, un.name AS unit_name, a.produced,
             v.std_material + v.std_labour + v.std_outsourcing + v.std_overhead AS standard_total,
             a.material - a.scrap + a.labour + a.outsourcing + a.overhead AS actual_total,
             a.material - a.scrap - v.std_material AS material_variance, a.labour - v.std_labour AS labour_variance,
             a.outsourcing - v.std_outsourcing AS outsourcing_variance, a.overhead - v.std_overhead AS overhead_variance,
             a.material - a.scrap + a.labour + a.outsourcing + a.overhead
               - (v.std_material + v.std_labour + v.std_outsourcing + v.std_overhead) AS total_variance
        FROM ${rolledUp(rows)}
        JOIN material mt ON mt.id = a.product_id ${UNIT}
        LEFT JOIN ${standardsSql(ctx.standards)} ON s.product_id = a.product_id
        CROSS JOIN LATERAL (SELECT round(COALESCE(s.material, 0) * a.produced, 2) AS std_material,
                                   round(COALESCE(s.labour, 0) * a.produced, 2) AS std_labour,
                                   round(COALESCE(s.outsourcing, 0) * a.produced, 2) AS std_outsourcing,
                                   round(COALESCE(s.overhead, 0) * a.produced, 2) AS std_overhead) v`,
  },
  // 产品成本 (issue 37 §4): one fact per posted 生产入库 row of a product, at what it brought into
  // stock (the order's actual cost, production/product-cost.ts): units and cost per product and month.
  'product-cost': {
    sql: () => sql`
      SELECT d.biz_date AS day, d.id AS doc_id, d.doc_no, g.material_id, d.source_no AS order_no,
             g.material_id::text AS material_key, mt.name AS material_label, mt.name AS material_name,
             g.material_id::text || '|' || to_char(d.biz_date, 'YYYY-MM') AS material_month_key,
             mt.name || ' ' || to_char(d.biz_date, 'YYYY-MM') AS material_month_label,
             g.quantity AS produced, g.amount AS total_cost, un.name AS unit_name
        FROM stock_inbound d
        JOIN stock_ledger g ON g.doc_type = 'stock-inbound' AND g.doc_id = d.id AND g.reversal_of IS NULL AND g.quantity <> 0
        JOIN material mt ON mt.id = g.material_id ${UNIT}
       WHERE d.type = 'production' AND d.status = 'posted'`,
  },
  'inventory-report': {
    sql: (q) => sql`
      SELECT s.material_id AS doc_id, s.warehouse_id, mt.material_type_id,
             s.warehouse_id::text AS warehouse_key, w.name AS warehouse_label,
             mt.material_type_id::text AS material_type_key, ty.name AS material_type_label,
             s.material_id::text AS material_key, mt.name AS material_label,
             mt.code AS material_code, mt.name AS material_name, ty.name AS material_type_name, w.name AS warehouse_name,
             s.quantity, s.amount AS value, un.name AS unit_name
        FROM (${stockAt(q.date ?? businessDay(), q.refs.warehouseId)}) s
        JOIN material mt ON mt.id = s.material_id ${UNIT} JOIN warehouse w ON w.id = s.warehouse_id
        LEFT JOIN material_type ty ON ty.id = mt.material_type_id
       WHERE s.quantity <> 0 OR s.amount <> 0`,
  },
  'job-booking': {
    hidden: ['output'],
    sql: () => sql`
      SELECT r.report_date AS day, r.id AS doc_id, r.doc_no, r.operator_id, r.process_id,
             r.operator_id::text AS operator_key, u.first_name AS operator_label, u.first_name AS operator_name,
             r.process_id::text AS process_key, pr.name AS process_label, pr.name AS process_name,
             r.workshop_id::text AS workshop_key, ws.name AS workshop_label, mt.name AS material_name,
             ${labelOf(sql`r.status`, WORK_REPORT_LIFECYCLE.states)} AS status_label,
             1 AS reports, r.good_quantity AS good, r.work_scrap_quantity AS work_scrap,
             r.material_scrap_quantity AS material_scrap, r.rework_quantity AS rework, COALESCE(r.hours, 0) AS hours,
             -- The report's exact wage lines (the report's own wage_amount is shown to the fen).
             COALESCE((SELECT sum(w.amount) FROM piece_wage w WHERE w.work_report_id = r.id), 0) AS wage,
             ${taken('r')} AS output, un.name AS unit_name
        FROM work_report r LEFT JOIN app_user u ON u.id = r.operator_id LEFT JOIN process pr ON pr.id = r.process_id
        LEFT JOIN workshop ws ON ws.id = r.workshop_id LEFT JOIN material mt ON mt.id = r.product_id ${UNIT}
       WHERE r.status <> 'draft'`,
  },
  'work-order': {
    sql: () => sql`
      SELECT p.planned_start_date AS day, p.id AS doc_id, p.doc_no, p.product_id AS material_id, p.due_date::text AS due_date,
             p.status AS status_key, ${labelOf(sql`p.status`, PRODUCTION_ORDER_LIFECYCLE.states)} AS status_label,
             p.product_id::text AS material_key, mt.name AS material_label, mt.name AS material_name,
             1 AS orders, p.quantity AS planned, p.produced_quantity AS produced,
             CASE WHEN p.due_date < ${businessDay()}::date AND p.status IN ('released', 'producing') THEN 1 ELSE 0 END AS late,
             un.name AS unit_name
        FROM production_order p JOIN material mt ON mt.id = p.product_id ${UNIT}`,
  },
  'production-statistics': {
    hidden: ['output'],
    sql: () => sql`
      SELECT r.report_date AS day, r.id AS doc_id, r.doc_no, r.product_id AS material_id,
             r.report_date::text AS day_key, r.report_date::text AS day_label,
             r.workshop_id::text AS workshop_key, ws.name AS workshop_label, ws.name AS workshop_name,
             r.product_id::text AS material_key, mt.name AS material_label, mt.name AS material_name,
             pr.name AS process_name, r.good_quantity AS good,
             r.work_scrap_quantity + r.material_scrap_quantity AS scrap, r.rework_quantity AS rework,
             ${taken('r')} AS output, un.name AS unit_name
        FROM work_report r LEFT JOIN workshop ws ON ws.id = r.workshop_id
        LEFT JOIN material mt ON mt.id = r.product_id ${UNIT} LEFT JOIN process pr ON pr.id = r.process_id
       WHERE r.status = 'posted'`,
  },
  'production-line': {
    hidden: ['output'],
    sql: () => sql`
      SELECT r.report_date AS day, r.id AS doc_id, r.doc_no, e.line_id,
             COALESCE(e.line_id::text, '0') AS line_key, COALESCE(pl.name, '未分产线') AS line_label,
             COALESCE(pl.name, '未分产线') AS line_name,
             COALESCE(r.equipment_id::text, '0') AS equipment_key, COALESCE(e.name, '未指定设备') AS equipment_label,
             e.name AS equipment_name, pr.name AS process_name,
             1 AS reports, r.good_quantity AS good, r.work_scrap_quantity + r.material_scrap_quantity AS scrap,
             COALESCE(r.hours, 0) AS hours, ${taken('r')} AS output, un.name AS unit_name
        FROM work_report r LEFT JOIN equipment e ON e.id = r.equipment_id
        LEFT JOIN material mt ON mt.id = r.product_id ${UNIT}
        LEFT JOIN production_line pl ON pl.id = e.line_id LEFT JOIN process pr ON pr.id = r.process_id
       WHERE r.status = 'posted'`,
  },
  'equipment-inspection': {
    sql: () => sql`
      SELECT i.check_date AS day, i.id AS doc_id, i.doc_no, i.equipment_id,
             COALESCE(i.equipment_id::text, '0') AS equipment_key, COALESCE(e.name, '未指定设备') AS equipment_label,
             e.name AS equipment_name, COALESCE(i.checker_id::text, '0') AS checker_key,
             COALESCE(u.first_name, '未填写') AS checker_label, u.first_name AS checker_name,
             CASE i.result WHEN 'ok' THEN '正常' WHEN 'ng' THEN '异常' ELSE '未判定' END AS result_label,
             1 AS records, CASE WHEN i.result = 'ng' THEN 1 ELSE 0 END AS ng, i.ng_count AS ng_items
        FROM inspection_record i LEFT JOIN equipment e ON e.id = i.equipment_id
        LEFT JOIN app_user u ON u.id = i.checker_id`,
  },
  'equipment-maintenance': {
    sql: () => sql`
      SELECT r.done_date AS day, r.id AS doc_id, r.doc_no, r.equipment_id,
             COALESCE(r.equipment_id::text, '0') AS equipment_key, COALESCE(e.name, '未指定设备') AS equipment_label,
             e.name AS equipment_name, COALESCE(r.done_by_id::text, '0') AS person_key,
             COALESCE(u.first_name, '未填写') AS person_label, u.first_name AS person_name, r.content,
             1 AS records, COALESCE(r.minutes, 0) AS minutes
        FROM maintenance_record r LEFT JOIN equipment e ON e.id = r.equipment_id
        LEFT JOIN app_user u ON u.id = r.done_by_id`,
  },
};

/** The summed measures of a report (ratios are computed from them). */
const summed = (def: FinanceReportDef) => [
  ...def.measures.filter((x) => !x.ratio && !x.per).map((x) => x.name),
  ...(FACTS[def.name].hidden ?? []),
];

/**
 * A measure summed over facts: money to the fen once, after summing (a wage line may be a fraction
 * of a fen: 计件工资 and 计件人工 sum the exact lines, as the wage sheet does).
 */
const summedAs = (def: FinanceReportDef, n: string) =>
  def.measures.find((x) => x.name === n)?.kind === 'money'
    ? sql`round(COALESCE(sum(${sql.ref(snake(n))}), 0), 2)::text AS ${sql.ref(snake(n))}`
    : sql`COALESCE(sum(${sql.ref(snake(n))}), 0)::text AS ${sql.ref(snake(n))}`;

function ratios(def: FinanceReportDef, row: Record<string, any>) {
  for (const x of def.measures) {
    if (x.per) {
      const den = new Decimal(row[x.per[1]] ?? 0);
      row[x.name] = den.isZero()
        ? null
        : new Decimal(row[x.per[0]] ?? 0).div(den).toFixed(6, Decimal.ROUND_HALF_UP);
    }
    if (!x.ratio) continue;
    const den = new Decimal(row[x.ratio[1]] ?? 0);
    row[x.name] = den.isZero()
      ? null
      : new Decimal(row[x.ratio[0]] ?? 0).div(den).times(100).toFixed(2, Decimal.ROUND_HALF_UP);
  }
  return row;
}

function factsWhere(def: FinanceReportDef, q: ReportQuery) {
  const where = [sql`true`];
  const ranged = def.filters.some((x) => x.kind === 'range');
  if (ranged && q.from) where.push(sql`f.day >= ${q.from}::date`);
  if (ranged && q.to) where.push(sql`f.day <= ${q.to}::date`);
  for (const f of def.filters) {
    const v = q.refs[f.name];
    if (f.kind === 'ref' && v) where.push(sql`${sql.ref(`f.${snake(f.name)}`)} = ${v}`);
  }
  return sql.join(where, sql` AND `);
}

function groupKey(q: ReportQuery) {
  if (q.groupBy === 'month') return { key: monthCols, label: monthCols };
  return { key: sql.ref(`${snake(q.groupBy)}_key`), label: sql.ref(`${snake(q.groupBy)}_label`) };
}

export async function readReport(db: Db, def: FinanceReportDef, q: ReportQuery) {
  const names = summed(def);
  const sums = sql.join(
    names.map((n) => summedAs(def, n)),
    sql`, `,
  );
  const facts = sql`SELECT * FROM (${FACTS[def.name].sql(q, await FACTS[def.name].prepare?.(db, q))}) f WHERE ${factsWhere(def, q)}`;
  const g = groupKey(q);
  const firstMoney = def.measures.find((x) => x.kind === 'money' && !x.ratio && !x.per) ?? def.measures[0];
  const order = ['month', 'day'].includes(q.groupBy)
    ? sql`1`
    : sql`sum(${sql.ref(snake(firstMoney.name))}) DESC NULLS LAST, 2`;
  const perUnit = def.measures.filter((x) => x.perUnit && !x.ratio && !x.per).map((x) => x.name);
  const [rows, totals, units] = await Promise.all([
    sql<Record<string, any>>`
      SELECT ${g.key}::text AS key, max(${g.label}) AS label, count(*)::int AS fact_count, ${sums}
        FROM (${facts}) x GROUP BY 1 ORDER BY ${order} LIMIT 2000`.execute(db),
    sql<Record<string, any>>`SELECT count(*)::int AS fact_count, ${sums} FROM (${facts}) x`.execute(db),
    perUnit.length
      ? sql<Record<string, any>>`
          SELECT ${g.key}::text AS key, COALESCE(x.unit_name, '') AS unit_name, count(*)::int AS n,
                 ${sql.join(
                   perUnit.map(
                     (n) => sql`COALESCE(sum(${sql.ref(snake(n))}), 0)::text AS ${sql.ref(snake(n))}`,
                   ),
                   sql`, `,
                 )}
            FROM (${facts}) x GROUP BY 1, 2`.execute(db)
      : undefined,
  ]);
  const out = {
    rows: rows.rows.map((r) => ratios(def, r)),
    totals: ratios(def, totals.rows[0] ?? {}),
  };
  if (units) attachUnits(perUnit, out, units.rows);
  return out;
}

export async function reportDetail(
  db: Db,
  def: FinanceReportDef,
  q: ReportQuery,
  page: { pageNum: number; pageSize: number },
) {
  const g = groupKey(q);
  const facts = sql`SELECT * FROM (${FACTS[def.name].sql(q, await FACTS[def.name].prepare?.(db, q))}) f WHERE ${factsWhere(def, q)}`;
  const cond = q.key === undefined ? sql`true` : sql`${g.key}::text = ${q.key}`;
  const names = summed(def);
  const cols = sql.join(
    [
      sql`x.doc_id`,
      // A fact's quantities are in its material's base unit.
      ...(def.measures.some((x) => x.perUnit) ? [sql`x.unit_name`] : []),
      ...def.detail.map((c) =>
        c.kind === 'date'
          ? sql`${sql.ref(`x.${snake(c.name)}`)}::text AS ${sql.ref(snake(c.name))}`
          : sql.ref(`x.${snake(c.name)}`),
      ),
      ...names.map((n) =>
        def.measures.find((x) => x.name === n)?.kind === 'money'
          ? sql`${exactText(sql.ref(`x.${snake(n)}`))} AS ${sql.ref(snake(n))}`
          : sql`${sql.ref(`x.${snake(n)}`)}::text AS ${sql.ref(snake(n))}`,
      ),
    ],
    sql`, `,
  );
  const docResource =
    def.name === 'purchase-report' ? sql`x.doc_resource` : sql`${def.docResource ?? null}::text`;
  const order =
    def.name === 'inventory-report' ? sql`x.material_code, x.warehouse_name` : sql`x.day DESC, x.doc_id DESC`;
  const [rows, total] = await Promise.all([
    sql<Record<string, any>>`
      SELECT ${cols}, ${docResource} AS doc_resource FROM (${facts}) x WHERE ${cond}
       ORDER BY ${order} LIMIT ${page.pageSize} OFFSET ${(Math.max(page.pageNum, 1) - 1) * page.pageSize}`.execute(
      db,
    ),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM (${facts}) x WHERE ${cond}`.execute(db),
  ]);
  return { rows: rows.rows.map((r) => ratios(def, r)), total: total.rows[0].n };
}

// ------------------------------------------------------------------ routes

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');

function querySchema(def: FinanceReportDef) {
  const refs: Record<string, z.ZodType> = {};
  for (const f of def.filters) if (f.kind === 'ref') refs[f.name] = zx.id.optional();
  const groups = def.groups.map((x) => x.value) as [string, ...string[]];
  return z
    .strictObject({
      groupBy: z.enum(groups, { error: `汇总方式只能是 ${groups.join('、')}` }).default(groups[0]),
      from: day.optional(),
      to: day.optional(),
      date: day.optional(),
      key: z.string().max(60).optional(),
      pageNum: zx.pageNum,
      pageSize: zx.pageSize,
      ...refs,
    })
    .refine((v) => !v.from || !v.to || v.from <= v.to, {
      message: '开始日期不能晚于结束日期',
      path: ['from'],
    })
    .transform((v) => {
      const { groupBy, from, to, date, key, pageNum, pageSize, ...rest } = v as Record<string, any>;
      return {
        q: { groupBy, from, to, date, key, refs: rest } as ReportQuery,
        page: { pageNum, pageSize } as { pageNum: number; pageSize: number },
      };
    });
}

const cellOf = (kind: string, v: unknown) =>
  v == null || v === ''
    ? ''
    : ['int', 'quantity', 'money', 'percent'].includes(kind)
      ? Number(v)
      : neutralise(v);

/** Quantities per unit as one text: 件 12,340 · kg 5,230.5. */
export const unitText = (list: { unitName: string; quantity: string }[]) =>
  list
    .map((u) =>
      `${u.unitName} ${new Decimal(u.quantity).toNumber().toLocaleString('zh-CN', { maximumFractionDigits: 4 })}`.trim(),
    )
    .join(' · ');

async function reportWorkbook(
  def: FinanceReportDef,
  q: ReportQuery,
  report: Awaited<ReturnType<typeof readReport>>,
) {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(def.title);
  const by = def.groups.find((x) => x.value === q.groupBy)?.label ?? '';
  const span =
    def.name === 'inventory-report'
      ? `截止 ${q.date ?? businessDay()}`
      : `${q.from ?? '最早'} 至 ${q.to ?? '最近'}`;
  ws.addRow([`${def.title}（${by}）${span}`]);
  ws.addRow([by.replace(/^按/, ''), ...def.measures.map((x) => x.label)]);
  ws.getRow(2).font = { bold: true };
  // A quantity over several units is written per unit, as text (件 12,340 · kg 5,230.5).
  const cell = (r: Record<string, any>, x: FinanceReportDef['measures'][number]) =>
    x.perUnit && r[x.name] == null && r.units?.[x.name]?.length
      ? unitText(r.units[x.name])
      : cellOf(x.kind, r[x.name]);
  for (const r of report.rows) ws.addRow([neutralise(r.label ?? ''), ...def.measures.map((x) => cell(r, x))]);
  ws.addRow(['合计', ...def.measures.map((x) => cell(report.totals, x))]);
  ws.getRow(ws.rowCount).font = { bold: true };
  ws.columns.forEach((col, i) => {
    col.width = i === 0 ? 24 : 16;
    const m = def.measures[i - 1];
    if (m?.kind === 'money') col.numFmt = '#,##0.00';
  });
  ws.views = [{ state: 'frozen', ySplit: 2 }];
  return wb;
}

// ------------------------------------------------------------------ answers

/** A sum as exact text; null for a quotient over zero, or a quantity summed over several units. */
const figure = z.string().nullable();
const unitSums = z.array(z.object({ unitName: z.string(), quantity: z.string() }));

/** A row or the totals of a report: its summed measures (text), its ratios and, per unit, its quantities. */
function reportAnswer(def: FinanceReportDef) {
  const measures: Record<string, z.ZodType> = {};
  for (const n of [...def.measures.map((x) => x.name), ...(FACTS[def.name].hidden ?? [])])
    measures[n] = figure;
  const perUnit = def.measures.filter((x) => x.perUnit && !x.ratio && !x.per).map((x) => x.name);
  const units = perUnit.length
    ? { units: z.object(Object.fromEntries(perUnit.map((n) => [n, unitSums]))).optional() }
    : {};
  const row = z.object({
    key: z.string().nullable(),
    label: z.string().nullable(),
    factCount: z.number().int(),
    ...measures,
    ...units,
  });
  return z.object({
    rows: z.array(row),
    totals: z.object({ factCount: z.number().int(), ...measures, ...units }),
  });
}

/** The facts behind a row: the drill-down's columns, the measures and the document each opens. */
function detailAnswer(def: FinanceReportDef) {
  const cols: Record<string, z.ZodType> = {};
  for (const c of def.detail) cols[c.name] = z.string().nullable();
  for (const n of [...def.measures.map((x) => x.name), ...(FACTS[def.name].hidden ?? [])]) cols[n] = figure;
  return z.object({
    rows: z.array(
      z.object({
        docId: z.number().int(),
        ...(def.measures.some((x) => x.perUnit) ? { unitName: z.string().nullable() } : {}),
        ...cols,
        docResource: z.string().nullable(),
      }),
    ),
    total: z.number().int(),
  });
}

/** An export's answer: the file to download (GET /common/download?fileName=…) and the rows written. */
const exportAnswer = z.object({ fileName: z.string(), rows: z.number().int() });

export function financeReportRoutes(app: App) {
  for (const def of FINANCE_REPORTS) {
    const schema = querySchema(def);
    route(app, {
      method: 'GET',
      url: `/api/v1/finance-report/${def.name}`,
      permission: `${def.permission}:query` as Permission,
      query: schema,
      response: reportAnswer(def),
      handler: ({ query, app: { db } }) => readReport(db, def, query.q),
    });
    route(app, {
      method: 'GET',
      url: `/api/v1/finance-report/${def.name}/detail`,
      permission: `${def.permission}:query` as Permission,
      query: schema,
      response: detailAnswer(def),
      handler: ({ query, app: { db } }) => reportDetail(db, def, query.q, query.page),
    });
    route(app, {
      method: 'GET',
      url: `/api/v1/finance-report/${def.name}/export`,
      permission: `${def.permission}:export` as Permission,
      query: schema,
      response: exportAnswer,
      async handler({ query, user, app: { db, config } }) {
        const report = await readReport(db, def, query.q);
        const wb = await reportWorkbook(def, query.q, report);
        const { file, fileName } = newExportFile(config.exportDir, user.id, def.title);
        await wb.xlsx.writeFile(file);
        return { fileName, rows: report.rows.length };
      },
    });
  }
}
