import type { LifecycleDef } from '@ringmes/domain';
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
import type { TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { monthsPeriod, type OnTimeRow, onTimeDelivery } from './on-time.ts';
import { PURCHASE_REPORT, type ReportKind, SALE_REPORT } from './report-kinds.ts';

export { PURCHASE_REPORT, type ReportKind, SALE_REPORT };

/**
 * The monthly rollup behind 销售统计报表 and 采购明细报表 (table `order_report_month`): per order
 * month, customer or supplier and material, what was ordered (approved orders, closed ones
 * included), delivered (shipped, or received less returned), still open (orders not completed
 * or closed), and how many lines were delivered in full and how many of those on time.
 *
 * A row is recounted from its order lines — never incremented — whenever one of its orders is
 * approved, un-approved, closed, shipped or received: the rows are locked first (in key order,
 * in a statement of their own), so concurrent recounts of one row queue and the last sees all.
 * What each of the two reads is its `ReportKind` (`report-kinds.ts`).
 */

/** The measures of a set of order lines (aliases o, l), in the rollup's column order. */
function measures(k: ReportKind) {
  const open = sql`o.status IN (${sql.join(k.openStates.map((s) => sql`${s}`))})`;
  const remaining = sql`greatest(l.base_quantity - ${k.done}, 0)`;
  return sql`count(l.id)::int AS line_count,
           COALESCE(sum(l.base_quantity), 0) AS ordered_quantity, COALESCE(sum(COALESCE(l.amount, 0)), 0) AS ordered_amount,
           COALESCE(sum(${k.done}), 0) AS done_quantity,
           COALESCE(sum(CASE WHEN ${open} THEN ${remaining} ELSE 0 END), 0) AS open_quantity,
           COALESCE(sum(CASE WHEN ${open} AND l.base_quantity > 0
                    THEN round(${remaining} * COALESCE(l.amount, 0) / l.base_quantity, 2) ELSE 0 END), 0) AS open_amount,
           count(l.completed_on)::int AS completed_lines,
           count(*) FILTER (WHERE l.completed_on <= l.delivery_date)::int AS on_time_lines`;
}

/** The rollup's measure columns, in the order `measures` answers them. */
const COLUMNS = [
  'line_count',
  'ordered_quantity',
  'ordered_amount',
  'done_quantity',
  'open_quantity',
  'open_amount',
  'completed_lines',
  'on_time_lines',
];
const isCount = (c: string) => c.endsWith('lines') || c === 'line_count';
const MEASURES = sql.raw(COLUMNS.join(', '));
const SET_MEASURES = sql.raw(COLUMNS.map((c) => `${c} = a.${c}`).join(', '));
/** The measures of a recount (alias x), zero where the key has no lines left. */
const ZERO_MEASURES = sql.raw(COLUMNS.map((c) => `COALESCE(x.${c}, 0) AS ${c}`).join(', '));
const SUM_MEASURES = sql.raw(
  COLUMNS.map((c) => `COALESCE(sum(f.${c}), 0)${isCount(c) ? '::int' : ''} AS ${c}`).join(', '),
);

interface Keys {
  months: string[];
  parties: number[];
  materials: number[];
}

const keyList = (keys: Keys) =>
  sql`unnest(${sql.val(keys.months)}::date[], ${sql.val(keys.parties)}::bigint[], ${sql.val(keys.materials)}::bigint[])
      AS k(month, party_id, material_id)`;

/** Creates the rollup rows of `keys` if missing, then locks them in key order (a statement of its own). */
async function lockKeys(db: Db, kind: string, keys: Keys) {
  await sql`
    INSERT INTO order_report_month (kind, month, party_id, material_id)
    SELECT ${kind}, k.month, k.party_id, k.material_id FROM ${keyList(keys)}
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    SELECT 1 FROM order_report_month r, ${keyList(keys)}
     WHERE r.kind = ${kind} AND r.month = k.month AND r.party_id = k.party_id AND r.material_id = k.material_id
     ORDER BY r.month, r.party_id, r.material_id FOR UPDATE OF r`.execute(db);
}

const split = (rows: { month: string; partyId: number; materialId: number }[]): Keys => ({
  months: rows.map((r) => r.month),
  parties: rows.map((r) => Number(r.partyId)),
  materials: rows.map((r) => Number(r.materialId)),
});

/**
 * Recounts the rollup rows the given orders contribute to (call after their lines or state
 * changed): the detail rows (month, party, material) from the order lines, then the summary rows
 * (month, party, 0) and (month, 0, material) from the detail rows, which the reports read when
 * they group by one of them.
 */
export async function refreshOrderReport(db: Db, k: ReportKind, orderIds: number[]) {
  if (!orderIds.length) return;
  const found = await sql<{ month: string; partyId: number; materialId: number }>`
    SELECT DISTINCT to_char(date_trunc('month', o.order_date), 'YYYY-MM-DD') AS month,
           ${sql.ref(`o.${k.partyColumn}`)} AS party_id, l.material_id
      FROM ${sql.table(k.lineTable)} l JOIN ${sql.table(k.table)} o ON o.id = ${sql.ref(`l.${k.parentColumn}`)}
     WHERE o.id = ANY(${sql.val(orderIds)}::bigint[])
     ORDER BY 1, 2, 3`.execute(db);
  if (!found.rows.length) return;
  const detail = split(found.rows);
  await lockKeys(db, k.kind, detail);
  // After the locks: it reads what the previous holder committed. One pass over the lines of
  // the orders of each (month, party) touched (index on party and order date), grouped by
  // material; a key whose lines are all gone counts zero.
  await sql`
    WITH k AS (SELECT * FROM ${keyList(detail)}),
    pm AS (SELECT DISTINCT month, party_id FROM k),
    x AS (
      SELECT pm.month, pm.party_id, l.material_id, ${measures(k)}
        FROM pm
        JOIN ${sql.table(k.table)} o ON ${sql.ref(`o.${k.partyColumn}`)} = pm.party_id
              AND o.order_date >= pm.month AND o.order_date < (pm.month + interval '1 month')::date AND o.status <> 'draft'
        JOIN ${sql.table(k.lineTable)} l ON ${sql.ref(`l.${k.parentColumn}`)} = o.id
       GROUP BY 1, 2, 3),
    a AS (
      SELECT k.month, k.party_id, k.material_id, ${ZERO_MEASURES}
        FROM k LEFT JOIN x ON x.month = k.month AND x.party_id = k.party_id AND x.material_id = k.material_id)
    UPDATE order_report_month r SET ${SET_MEASURES}
      FROM a WHERE r.kind = ${k.kind} AND r.month = a.month AND r.party_id = a.party_id AND r.material_id = a.material_id`.execute(
    db,
  );
  const byParty = [
    ...new Map(found.rows.map((r) => [`${r.month}|${r.partyId}`, { ...r, materialId: 0 }])).values(),
  ];
  const byMaterial = [
    ...new Map(found.rows.map((r) => [`${r.month}|${r.materialId}`, { ...r, partyId: 0 }])).values(),
  ];
  const summary = split(
    [...byParty, ...byMaterial].sort((x, y) =>
      x.month !== y.month
        ? x.month < y.month
          ? -1
          : 1
        : Number(x.partyId) - Number(y.partyId) || Number(x.materialId) - Number(y.materialId),
    ),
  );
  await lockKeys(db, k.kind, summary);
  // Each summary row from the detail rows of its month and party (or material): an index each.
  await sql`
    WITH k AS (SELECT * FROM ${keyList(summary)}),
    a AS (
      SELECT k.month, k.party_id, k.material_id, ${SUM_MEASURES}
        FROM k LEFT JOIN order_report_month f ON f.kind = ${k.kind} AND f.month = k.month
              AND f.party_id = k.party_id AND f.material_id <> 0
       WHERE k.material_id = 0
       GROUP BY 1, 2, 3
      UNION ALL
      SELECT k.month, k.party_id, k.material_id, ${SUM_MEASURES}
        FROM k LEFT JOIN order_report_month f ON f.kind = ${k.kind} AND f.month = k.month
              AND f.material_id = k.material_id AND f.party_id <> 0
       WHERE k.party_id = 0
       GROUP BY 1, 2, 3)
    UPDATE order_report_month r SET ${SET_MEASURES}
      FROM a WHERE r.kind = ${k.kind} AND r.month = a.month AND r.party_id = a.party_id AND r.material_id = a.material_id`.execute(
    db,
  );
}

/** Every transition of an order's lifecycle, each also recounting the order's rollup rows after its effect. */
export function reportingTransitions(
  k: ReportKind,
  lifecycle: LifecycleDef,
  handlers: Record<string, TransitionHandlers>,
): Record<string, TransitionHandlers> {
  return Object.fromEntries(
    lifecycle.transitions.map((t) => [
      t.name,
      {
        guard: handlers[t.name]?.guard,
        async effect(ctx) {
          await handlers[t.name]?.effect?.(ctx);
          await refreshOrderReport(ctx.db, k, [ctx.record.id]);
        },
      } satisfies TransitionHandlers,
    ]),
  );
}

/** Rebuilds the whole rollup of a kind from the order lines (maintenance, benchmarks). */
export async function rebuildOrderReport(db: Db, k: ReportKind) {
  await sql`DELETE FROM order_report_month WHERE kind = ${k.kind}`.execute(db);
  await sql`
    INSERT INTO order_report_month (kind, month, party_id, material_id, ${MEASURES})
    SELECT ${k.kind}, date_trunc('month', o.order_date)::date, ${sql.ref(`o.${k.partyColumn}`)}, l.material_id, ${measures(k)}
      FROM ${sql.table(k.lineTable)} l JOIN ${sql.table(k.table)} o ON o.id = ${sql.ref(`l.${k.parentColumn}`)}
     WHERE o.status <> 'draft'
     GROUP BY 2, 3, 4`.execute(db);
  for (const [party, material] of [
    ['f.party_id', '0'],
    ['0', 'f.material_id'],
  ]) {
    await sql`
      INSERT INTO order_report_month (kind, month, party_id, material_id, ${MEASURES})
      SELECT ${k.kind}, f.month, ${sql.raw(party)}, ${sql.raw(material)}, ${SUM_MEASURES}
        FROM order_report_month f WHERE f.kind = ${k.kind} AND f.party_id <> 0 AND f.material_id <> 0
       GROUP BY 2, 3, 4`.execute(db);
  }
}

/**
 * The day a line's delivered quantity reached the ordered one: set to `day` when this move
 * completes it, cleared when a return or reversal takes it below again.
 */
export async function markCompleted(db: Db, k: ReportKind, lineIds: number[], day: string | undefined) {
  if (!lineIds.length) return;
  await sql`
    UPDATE ${sql.table(k.lineTable)} l SET completed_on = CASE
        WHEN ${k.done} < l.base_quantity THEN NULL
        ELSE COALESCE(l.completed_on, ${day ?? null}::date, CURRENT_DATE) END
     WHERE l.id = ANY(${sql.val(lineIds)}::bigint[])`.execute(db);
}

export type ReportQuery = {
  groupBy: 'party' | 'material' | 'month';
  from?: string;
  to?: string;
  partyId?: number;
  materialId?: number;
};

/** Rows of a report from the rollup: grouped, with labels, totals, the monthly series and the top parties. */
export async function readReport(db: Db, k: ReportKind, q: ReportQuery) {
  const partyTable = k.kind === 'sale' ? 'customer' : 'supplier';
  // The coarsest rows that still hold the grouping and the filters: summary rows per party or
  // per material where they do (a few thousand), the detail rows only when both are asked.
  const GRAIN = {
    detail: sql`r.party_id <> 0 AND r.material_id <> 0`,
    party: sql`r.material_id = 0 AND r.party_id <> 0`,
    material: sql`r.party_id = 0 AND r.material_id <> 0`,
  };
  const grain =
    q.partyId && q.materialId
      ? GRAIN.detail
      : q.groupBy === 'party'
        ? q.materialId
          ? GRAIN.detail
          : GRAIN.party
        : q.groupBy === 'material'
          ? q.partyId
            ? GRAIN.detail
            : GRAIN.material
          : q.materialId
            ? GRAIN.material
            : GRAIN.party;
  const filters = (g: RawBuilder<unknown>) =>
    sql.join(
      [
        sql`r.kind = ${k.kind}`,
        g,
        sql`r.line_count > 0`,
        q.from ? sql`r.month >= ${`${q.from}-01`}::date` : sql`true`,
        q.to ? sql`r.month <= ${`${q.to}-01`}::date` : sql`true`,
        q.partyId ? sql`r.party_id = ${q.partyId}` : sql`true`,
        q.materialId ? sql`r.material_id = ${q.materialId}` : sql`true`,
      ],
      sql` AND `,
    );
  const where = filters(grain);
  // 平均单价: ordered amount ÷ ordered base quantity, exact numeric at the price scale (6 places).
  const averagePrice = sql`round(sum(r.ordered_amount) / NULLIF(sum(r.ordered_quantity), 0), 6) AS average_price`;
  const sums = sql`sum(r.line_count)::int AS line_count, sum(r.ordered_quantity) AS ordered_quantity,
    sum(r.ordered_amount) AS ordered_amount, ${averagePrice}, sum(r.done_quantity) AS done_quantity,
    sum(r.open_quantity) AS open_quantity, sum(r.open_amount) AS open_amount,
    sum(r.completed_lines)::int AS completed_lines`;
  // Grouped on the rollup's own column first (a few hundred groups), labelled after: joining
  // and sorting text per rollup row cost more than the sums.
  const group =
    q.groupBy === 'month'
      ? {
          raw: sql`r.month`,
          key: sql`to_char(g.k, 'YYYY-MM')`,
          label: sql`to_char(g.k, 'YYYY-MM')`,
          code: sql`NULL`,
          join: sql``,
        }
      : q.groupBy === 'party'
        ? {
            raw: sql`r.party_id`,
            key: sql`g.k::text`,
            label: sql`p.name`,
            code: sql`p.code`,
            join: sql`JOIN ${sql.table(partyTable)} p ON p.id = g.k`,
          }
        : {
            raw: sql`r.material_id`,
            key: sql`g.k::text`,
            label: sql`m.name`,
            code: sql`m.code`,
            join: sql`JOIN material m ON m.id = g.k`,
          };
  // Quantities per base unit (套 and 件 never add up): the detail rows by the row's key and unit.
  const unitKey =
    q.groupBy === 'month'
      ? sql`to_char(r.month, 'YYYY-MM')`
      : q.groupBy === 'party'
        ? sql`r.party_id::text`
        : sql`r.material_id::text`;
  const [rows, totals, months, top, units] = await Promise.all([
    sql<Record<string, any>>`
      WITH g AS (SELECT ${group.raw} AS k, ${sums} FROM order_report_month r WHERE ${where} GROUP BY 1)
      SELECT ${group.key} AS key, ${group.label} AS label, ${group.code} AS code, g.line_count, g.ordered_quantity,
             g.ordered_amount, g.average_price, g.done_quantity, g.open_quantity, g.open_amount, g.completed_lines
        FROM g ${group.join}
       ORDER BY ${q.groupBy === 'month' ? sql`g.k` : sql`g.ordered_amount DESC, 1`}`.execute(db),
    sql<Record<string, any>>`SELECT ${sums} FROM order_report_month r WHERE ${where}`.execute(db),
    sql<Record<string, any>>`
      SELECT to_char(r.month, 'YYYY-MM') AS month, sum(r.ordered_amount) AS ordered_amount,
             sum(r.ordered_quantity) AS ordered_quantity, ${averagePrice}, sum(r.done_quantity) AS done_quantity,
             sum(r.completed_lines)::int AS completed_lines
        FROM order_report_month r WHERE ${where} GROUP BY r.month ORDER BY r.month`.execute(db),
    sql<Record<string, any>>`
      WITH g AS (
        SELECT r.party_id, sum(r.ordered_amount) AS ordered_amount FROM order_report_month r
         WHERE ${filters(q.materialId ? GRAIN.detail : GRAIN.party)}
         GROUP BY 1 ORDER BY 2 DESC LIMIT 10)
      SELECT p.name AS label, g.ordered_amount
        FROM g JOIN ${sql.table(partyTable)} p ON p.id = g.party_id ORDER BY 2 DESC, p.id`.execute(db),
    sql<Record<string, any>>`
      SELECT ${unitKey} AS key, COALESCE(u.name, '') AS unit_name, sum(r.line_count)::int AS n,
             sum(r.ordered_quantity)::text AS ordered_quantity, sum(r.done_quantity)::text AS done_quantity,
             sum(r.open_quantity)::text AS open_quantity
        FROM order_report_month r JOIN material m ON m.id = r.material_id LEFT JOIN material_unit u ON u.id = m.unit_id
       WHERE ${filters(GRAIN.detail)}
       GROUP BY 1, 2`.execute(db),
  ]);
  // 准时交货率 by its one definition (on-time.ts): the lines promised in the period's months,
  // grouped as the rows are (a month row: the lines promised in that month).
  const period = {
    ...monthsPeriod(q.from, q.to),
    asOf: businessDay(),
    partyId: q.partyId,
    materialId: q.materialId,
  };
  const [onTimeRows, onTimeMonths, onTimeAll] = await Promise.all([
    onTimeDelivery(db, k, { ...period, groupBy: q.groupBy }),
    q.groupBy === 'month' ? undefined : onTimeDelivery(db, k, { ...period, groupBy: 'month' }),
    onTimeDelivery(db, k, period),
  ]);
  const byMonth = new Map((onTimeMonths ?? onTimeRows).map((x) => [x.key, x]));
  const byKey = new Map(onTimeRows.map((x) => [x.key, x]));
  const NONE = { dueLines: 0, onTimeLines: 0, lateLines: 0, onTimeRate: null };
  const onTime = (x?: OnTimeRow) => {
    const { key: _k, ...measures } = x ?? { key: '', ...NONE };
    return measures;
  };
  // Lines promised in the period by a month, party or material that ordered nothing in it still show.
  const missing = onTimeRows.filter((x) => !rows.rows.some((r) => String(r.key) === x.key));
  const labels = new Map<string, { label: string; code: string | null }>();
  if (missing.length && q.groupBy !== 'month') {
    const table = q.groupBy === 'party' ? partyTable : 'material';
    const named = await sql<{ id: number; name: string; code: string | null }>`
      SELECT id, name, code FROM ${sql.table(table)}
       WHERE id = ANY(${sql.val(missing.map((x) => Number(x.key)))}::bigint[])`.execute(db);
    for (const n of named.rows) labels.set(String(n.id), { label: n.name, code: n.code });
  }
  const extra = missing.map((x) => ({
    key: x.key,
    label: q.groupBy === 'month' ? x.key : (labels.get(x.key)?.label ?? x.key),
    code: q.groupBy === 'month' ? null : (labels.get(x.key)?.code ?? null),
    lineCount: 0,
    orderedQuantity: '0',
    orderedAmount: '0',
    averagePrice: null,
    doneQuantity: '0',
    openQuantity: '0',
    openAmount: '0',
    completedLines: 0,
  }));
  const allRows = [...rows.rows, ...extra];
  if (q.groupBy === 'month') allRows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const extraMonths = [...byMonth.keys()]
    .filter((m) => !months.rows.some((r) => r.month === m))
    .map((m) => ({
      month: m,
      orderedAmount: '0',
      orderedQuantity: '0',
      averagePrice: null,
      doneQuantity: '0',
    }));
  const allMonths = [...months.rows, ...extraMonths].sort((a, b) =>
    a.month < b.month ? -1 : a.month > b.month ? 1 : 0,
  );
  const report = {
    rows: allRows.map((r) => ({ ...r, ...onTime(byKey.get(String(r.key))) }) as Record<string, any>),
    totals: { ...(totals.rows[0] ?? {}), ...onTime(onTimeAll[0]) },
    months: allMonths.map((r) => ({ ...r, ...onTime(byMonth.get(r.month)) })),
    top: top.rows,
  };
  attachUnits(QUANTITIES, report, units.rows);
  return report;
}

/** The report's quantities, in base units: per unit over several (platform/report-units.ts). */
const QUANTITIES = ['orderedQuantity', 'doneQuantity', 'openQuantity'];

// ------------------------------------------------------------------ routes

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '月份格式应为 YYYY-MM');
const reportQuery = z.strictObject({
  groupBy: z
    .enum(['party', 'material', 'month'], { error: '汇总方式只能是 party、material 或 month' })
    .default('month'),
  from: month.optional(),
  to: month.optional(),
  partyId: zx.id.optional(),
  materialId: zx.id.optional(),
});

const TEXT = {
  sale: {
    title: '销售统计报表',
    party: '客户',
    done: '已发货',
    open: '未发货',
    base: 'sale-order',
    perm: 'sale:report',
  },
  purchase: {
    title: '采购明细报表',
    party: '供应商',
    done: '已入库(净)',
    open: '未到货',
    base: 'purchase-order',
    perm: 'purchase:report',
  },
} as const;

/** A quantity cell: its figure, or per unit as text over several units (套 120 · 件 40). */
function quantityCell(r: Record<string, any>, name: string) {
  if (r[name] != null) return Number(r[name]);
  return ((r.units?.[name] ?? []) as { unitName: string; quantity: string }[])
    .map((u) => `${u.unitName} ${Number(u.quantity)}`)
    .join(' · ');
}

async function reportWorkbook(k: ReportKind, q: ReportQuery, report: Awaited<ReturnType<typeof readReport>>) {
  const t = TEXT[k.kind];
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(t.title);
  const by = { party: t.party, material: '物料', month: '月份' }[q.groupBy];
  ws.addRow([`${t.title}（按${by}）${q.from ?? '最早'} 至 ${q.to ?? '最近'}`]);
  ws.addRow([
    by,
    '编码',
    '订单行数',
    '订购数量',
    '订购金额(元)',
    '平均单价(元)',
    `${t.done}数量`,
    `${t.open}数量`,
    `${t.open}金额(元)`,
    '交齐行数',
    '到期行数',
    '准时行数',
    '逾期行数',
    '准时率(%)',
  ]);
  ws.getRow(2).font = { bold: true };
  const line = (label: string, code: string, r: Record<string, any>) =>
    ws.addRow(
      [
        label,
        code,
        Number(r.lineCount ?? 0),
        quantityCell(r, 'orderedQuantity'),
        Number(r.orderedAmount ?? 0),
        r.averagePrice == null ? '' : Number(r.averagePrice),
        quantityCell(r, 'doneQuantity'),
        quantityCell(r, 'openQuantity'),
        Number(r.openAmount ?? 0),
        Number(r.completedLines ?? 0),
        Number(r.dueLines ?? 0),
        Number(r.onTimeLines ?? 0),
        Number(r.lateLines ?? 0),
        r.onTimeRate ?? '',
      ].map(neutralise),
    );
  for (const r of report.rows) line(r.label ?? '', r.code ?? '', r);
  line('合计', '', report.totals);
  ws.columns.forEach((c, i) => {
    c.width = i < 2 ? 20 : 14;
  });
  ws.views = [{ state: 'frozen', ySplit: 2 }];
  return wb;
}

export function orderReportRoutes(app: App) {
  // Maintenance: after loading orders outside the application (an import, a migration).
  route(app, {
    method: 'POST',
    url: '/api/v1/order-report/rebuild',
    permission: 'system:setting:edit',
    body: z.strictObject({}).optional(),
    handler: ({ app: { db } }) =>
      db.transaction().execute(async (trx) => {
        for (const k of [SALE_REPORT, PURCHASE_REPORT]) await rebuildOrderReport(trx, k);
        const r = await sql<{ kind: string; rows: number }>`
          SELECT kind, count(*)::int AS rows FROM order_report_month GROUP BY kind ORDER BY kind`.execute(
          trx,
        );
        return Object.fromEntries(r.rows.map((x) => [x.kind, x.rows]));
      }),
  });
  for (const k of [SALE_REPORT, PURCHASE_REPORT]) {
    const t = TEXT[k.kind];
    route(app, {
      method: 'GET',
      url: `/api/v1/${t.base}/report`,
      permission: `${t.perm}:query` as Permission,
      query: reportQuery,
      handler: ({ query, app: { db } }) => readReport(db, k, query),
    });
    route(app, {
      method: 'GET',
      url: `/api/v1/${t.base}/report/export`,
      permission: `${t.perm}:export` as Permission,
      query: reportQuery,
      async handler({ query, user, app: { db, config } }) {
        const report = await readReport(db, k, query);
        const wb = await reportWorkbook(k, query, report);
        const { file, fileName } = newExportFile(config.exportDir, user.id, t.title);
        await wb.xlsx.writeFile(file);
        return { fileName, rows: report.rows.length };
      },
    });
  }
}
