import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { taken } from './pieces.ts';

/**
 * The summaries behind the production reports, each kept in the transaction that changes what it
 * sums up (migrations 0029 and 0035):
 *
 * - `work_report_rollup` (per month) and `work_report_day_rollup` (per day): posted work reports
 *   per workshop, process, product, operator and scrap reason. 入账 adds a report's figures to its
 *   rows, 反审核 subtracts them, by upserts (`INSERT … ON CONFLICT DO UPDATE` takes the row's lock,
 *   so concurrent postings to one row add up one after the other). The figures are read from the
 *   report row itself, which posting never changes, so a reversal takes back exactly what the
 *   posting added. Each report also counts in a summary row with `product_id` 0 (every product):
 *   reports that neither filter nor group by product read only those.
 * - `work_report_process_rollup`: the same per month and process only (工序月产能分析), in 16
 *   slots by operator so that concurrent postings of one process rarely share a row.
 * - `flow_card_summary` / `flow_card_wip`: a card's step progress and what waits where, recomputed
 *   from the card's steps (not incremented), so it is right whatever changed them: 开卡, 拆分, 合并
 *   (the new cards' steps), 报工入账/反审核 and 委外 (after the card is settled, under its row lock).
 *
 * Posting a work report keeps all of them in ONE statement (data-modifying CTEs, executed in the
 * order written, so two postings take row locks in the same order); `also` adds statements of
 * the same transaction to it (the transition's audit row).
 */
export async function rollupWorkReport(
  db: Db,
  report: Record<string, any>,
  sign: 1 | -1,
  also: RawBuilder<unknown>[] = [],
) {
  const id = Number(report.id);
  const figures = sql`
    ${sign}::int AS report_count, ${sign} * r.good_quantity AS good_quantity,
    ${sign} * r.work_scrap_quantity AS work_scrap_quantity, ${sign} * r.material_scrap_quantity AS material_scrap_quantity,
    ${sign} * r.rework_quantity AS rework_quantity, ${sign} * COALESCE(r.hours, 0) AS hours,
    ${sign} * r.good_quantity * COALESCE(t.standard_minutes, 0) AS standard_minutes`;
  const r = await prepared(sql`
    WITH src AS (
      SELECT r.report_date, COALESCE(r.workshop_id, 0) AS workshop_id, r.process_id, p.product_id,
             COALESCE(r.operator_id, 0) AS operator_id, COALESCE(r.scrap_reason, '') AS scrap_reason, p.k, ${figures}
        FROM work_report r LEFT JOIN workshop_task t ON t.id = r.task_id
       CROSS JOIN LATERAL (VALUES (r.product_id, 1), (0, 2)) p(product_id, k)
       WHERE r.id = ${id}),
    m AS (${upsert('work_report_rollup', 'month', sql`date_trunc('month', s.report_date)::date`)}),
    d AS (${upsert('work_report_day_rollup', 'day', sql`s.report_date`)}),
    p AS (
      INSERT INTO work_report_process_rollup AS u (month, process_id, slot, report_count, good_quantity, hours, standard_minutes)
      SELECT date_trunc('month', s.report_date)::date, s.process_id, ${PROCESS_SLOT}, s.report_count, s.good_quantity, s.hours,
             s.standard_minutes
        FROM src s WHERE s.k = 2
      ON CONFLICT (month, process_id, slot) DO UPDATE SET
        report_count = u.report_count + excluded.report_count, good_quantity = u.good_quantity + excluded.good_quantity,
        hours = u.hours + excluded.hours, standard_minutes = u.standard_minutes + excluded.standard_minutes),
    ${cardSummaryCtes(sql`(SELECT flow_card_id FROM work_report WHERE id = ${id})`)}
    ${sql.join(
      also.map((a, k) => sql`, ${sql.ref(`x${k}`)} AS (${a})`),
      sql``,
    )}
    SELECT o.sale_order_id FROM production_order o WHERE o.id = ${Number(report.productionOrderId)}`).execute(
    db,
  );
  const saleOrderId = (r.rows[0] as { saleOrderId?: number | null } | undefined)?.saleOrderId;
  if (saleOrderId != null) await recountSaleOrderCards(db, sql`SELECT ${Number(saleOrderId)}::bigint`);
}

/**
 * The slot of the per-process rollup a report counts in: by operator, so that postings of
 * different operators of one process do not queue on one row (migration 0044).
 */
const PROCESS_SLOT = sql`(s.operator_id % 16)::smallint`;

/** One upsert of the report's two rows (detail, then product 0) into a work-report rollup. */
function upsert(table: string, period: string, value: RawBuilder<unknown>) {
  return sql`
    INSERT INTO ${sql.table(table)} AS u (${sql.ref(period)}, workshop_id, process_id, product_id, operator_id, scrap_reason,
           report_count, good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours, standard_minutes)
    SELECT ${value}, s.workshop_id, s.process_id, s.product_id, s.operator_id, s.scrap_reason, s.report_count,
           s.good_quantity, s.work_scrap_quantity, s.material_scrap_quantity, s.rework_quantity, s.hours, s.standard_minutes
      FROM src s ORDER BY s.k
    ON CONFLICT (${sql.ref(period)}, workshop_id, process_id, product_id, operator_id, scrap_reason) DO UPDATE SET
      report_count = u.report_count + excluded.report_count,
      good_quantity = u.good_quantity + excluded.good_quantity,
      work_scrap_quantity = u.work_scrap_quantity + excluded.work_scrap_quantity,
      material_scrap_quantity = u.material_scrap_quantity + excluded.material_scrap_quantity,
      rework_quantity = u.rework_quantity + excluded.rework_quantity,
      hours = u.hours + excluded.hours,
      standard_minutes = u.standard_minutes + excluded.standard_minutes`;
}

const WAITING = sql`s.input_quantity - ${taken('s')}`;
const waitingIn = (type: string) =>
  sql`COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND NOT st.outsourced AND st.workshop_type = ${type}), 0)`;

/**
 * The flow-card summary of the cards `ids` (a SQL set of card ids) as they stand, computed from
 * their steps (`FLOW_CARD_SUMMARY_SELECT` is the same figures for tests and the rebuild).
 */
function cardSummarySelect(ids: RawBuilder<unknown> | null) {
  return sql`
    SELECT c.id AS flow_card_id, c.production_order_id, o.sale_order_id, count(*)::int AS steps_total,
           count(*) FILTER (WHERE st.input_quantity > 0 AND st.waiting = 0)::int AS steps_done,
           COALESCE((array_agg(st.good_quantity ORDER BY st.seq DESC))[1], 0) AS finished_quantity,
           COALESCE(sum(st.scrap), 0) AS scrap_quantity, c.current_seq,
           max(st.process_id) FILTER (WHERE st.seq = c.current_seq) AS current_process_id,
           max(st.workshop_id) FILTER (WHERE st.seq = c.current_seq) AS current_workshop_id,
           COALESCE(bool_or(st.outsourced) FILTER (WHERE st.seq = c.current_seq), false) AS current_outsourced,
           COALESCE(sum(st.waiting) FILTER (WHERE st.seq = c.current_seq), 0) AS current_waiting,
           ${waitingIn('machine')} AS machine_waiting, ${waitingIn('grinding')} AS grinding_waiting,
           ${waitingIn('inspect')} AS inspect_waiting, ${waitingIn('assembly')} AS assembly_waiting,
           COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND st.outsourced), 0) AS outsourced_waiting
      FROM flow_card c
      JOIN production_order o ON o.id = c.production_order_id
      JOIN (SELECT s.flow_card_id, s.seq, s.process_id, s.workshop_id, s.outsourced, s.input_quantity, s.good_quantity,
                   s.work_scrap_quantity + s.material_scrap_quantity AS scrap, ${WAITING} AS waiting, w.type AS workshop_type
              FROM flow_card_step s LEFT JOIN workshop w ON w.id = s.workshop_id
             ${ids ? sql`WHERE s.flow_card_id IN ${ids}` : sql``}) st ON st.flow_card_id = c.id
     GROUP BY c.id, c.production_order_id, o.sale_order_id, c.current_seq`;
}

const SUMMARY_COLS = [
  'production_order_id',
  'sale_order_id',
  'steps_total',
  'steps_done',
  'finished_quantity',
  'scrap_quantity',
  'current_seq',
  'current_process_id',
  'current_workshop_id',
  'current_outsourced',
  'current_waiting',
  'machine_waiting',
  'grinding_waiting',
  'inspect_waiting',
  'assembly_waiting',
  'outsourced_waiting',
];

/** What waits on each card per workshop of its route (`ids` null: every card). */
function cardWipSelect(ids: RawBuilder<unknown> | null) {
  return sql`
    SELECT s.flow_card_id, COALESCE(s.workshop_id, 0) AS workshop_id, sum(${WAITING}) AS waiting
      FROM flow_card_step s ${ids ? sql`WHERE s.flow_card_id IN ${ids}` : sql``}
     GROUP BY 1, 2`;
}

/** The CTEs (`cs`, `cw`) that bring the cards' summary and WIP rows up to date (no trailing comma). */
function cardSummaryCtes(ids: RawBuilder<unknown>) {
  return sql`
    cs AS (
      INSERT INTO flow_card_summary (flow_card_id, ${sql.raw(SUMMARY_COLS.join(', '))}) ${cardSummarySelect(ids)}
      ON CONFLICT (flow_card_id) DO UPDATE SET ${sql.raw(SUMMARY_COLS.map((c) => `${c} = excluded.${c}`).join(', '))}),
    cw AS (
      INSERT INTO flow_card_wip (flow_card_id, workshop_id, waiting) ${cardWipSelect(ids)}
      ON CONFLICT (flow_card_id, workshop_id) DO UPDATE SET waiting = excluded.waiting)`;
}

/**
 * Brings the summaries of cards whose steps changed outside a posting up to date (开卡, 拆分, 合并,
 * 委外): one statement. Call it after the steps changed, with the cards locked.
 */
export async function refreshFlowCardSummary(db: Db, cardIds: number[]) {
  if (!cardIds.length) return;
  await prepared(sql`
    WITH ${cardSummaryCtes(sql`(SELECT unnest(${sql.val(cardIds)}::bigint[]))`)}
    SELECT 1`).execute(db);
  await recountSaleOrderCards(db, saleOrdersOfCards(cardIds));
}

/** The sales orders behind cards (a SQL set of ids). */
export const saleOrdersOfCards = (cardIds: number[]) => sql`
  SELECT DISTINCT o.sale_order_id FROM flow_card c JOIN production_order o ON o.id = c.production_order_id
   WHERE c.id = ANY(${sql.val(cardIds)}::bigint[]) AND o.sale_order_id IS NOT NULL`;

/**
 * `sale_order_card_summary` of the sales orders `ids` (a SQL set), recounted from their cards'
 * summaries: the cards 在制 or 已完工 count. Call after a card of theirs changed (its steps, its
 * summary or its state), in the same transaction; the row lock queues recounts of one order.
 */
export async function recountSaleOrderCards(db: Db, ids: RawBuilder<unknown>) {
  await prepared(sql`
    INSERT INTO sale_order_card_summary AS t (sale_order_id, ${sql.raw(SALE_ORDER_CARD_COLS.join(', '))})
    SELECT so.id, ${SALE_ORDER_CARD_SELECT}
      FROM (${ids}) so(id)
      LEFT JOIN flow_card_summary f ON f.sale_order_id = so.id
      LEFT JOIN flow_card c ON c.id = f.flow_card_id AND c.status IN ('open', 'completed')
     GROUP BY so.id
    ON CONFLICT (sale_order_id) DO UPDATE SET
      ${sql.raw(SALE_ORDER_CARD_COLS.map((k) => `${k} = excluded.${k}`).join(', '))}`).execute(db);
}

export const SALE_ORDER_CARD_COLS = [
  'cards',
  'card_quantity',
  'machine_waiting',
  'grinding_waiting',
  'inspect_waiting',
  'assembly_waiting',
  'outsourced_waiting',
  'finished_quantity',
  'scrap_quantity',
];
/** The columns of a sales order's card summary over f (flow_card_summary) and c (its counted card, else null). */
const SALE_ORDER_CARD_SELECT = sql.raw(
  [
    'count(c.id)::int',
    'COALESCE(sum(c.quantity), 0)',
    ...SALE_ORDER_CARD_COLS.slice(2).map((k) => `COALESCE(sum(f.${k}) FILTER (WHERE c.id IS NOT NULL), 0)`),
  ].join(', '),
);

/** Every sales order's card summary from the cards (tests, rebuild). */
export const SALE_ORDER_CARD_SUMMARY_SELECT = sql`
  SELECT f.sale_order_id, ${SALE_ORDER_CARD_SELECT}
    FROM flow_card_summary f LEFT JOIN flow_card c ON c.id = f.flow_card_id AND c.status IN ('open', 'completed')
   WHERE f.sale_order_id IS NOT NULL GROUP BY f.sale_order_id`;

/** The card summary / WIP computed from every card's steps (tests, rebuild). */
export const FLOW_CARD_SUMMARY_SELECT = cardSummarySelect(null);
export const FLOW_CARD_WIP_SELECT = cardWipSelect(null);
export const FLOW_CARD_SUMMARY_COLUMNS = SUMMARY_COLS;

/** The rollup's figures aggregated from the posted reports themselves (tests, benchmarks, rebuild). */
export const rawRollupSelect = (period: 'month' | 'day') => sql`
  SELECT ${period === 'month' ? sql`date_trunc('month', r.report_date)::date` : sql`r.report_date`} AS ${sql.ref(period)},
         COALESCE(r.workshop_id, 0) AS workshop_id, r.process_id, r.product_id, COALESCE(r.operator_id, 0) AS operator_id,
         COALESCE(r.scrap_reason, '') AS scrap_reason, count(*)::int AS report_count,
         sum(r.good_quantity) AS good_quantity, sum(r.work_scrap_quantity) AS work_scrap_quantity,
         sum(r.material_scrap_quantity) AS material_scrap_quantity, sum(r.rework_quantity) AS rework_quantity,
         COALESCE(sum(r.hours), 0) AS hours, COALESCE(sum(r.good_quantity * COALESCE(t.standard_minutes, 0)), 0) AS standard_minutes
    FROM work_report r LEFT JOIN workshop_task t ON t.id = r.task_id
   WHERE r.status = 'posted'
   GROUP BY 1, 2, 3, 4, 5, 6`;
export const RAW_ROLLUP_SELECT = rawRollupSelect('month');

const ROLLUP_COLS = sql`workshop_id, process_id, product_id, operator_id, scrap_reason, report_count, good_quantity,
  work_scrap_quantity, material_scrap_quantity, rework_quantity, hours, standard_minutes`;

/** The product summary rows (product 0) from the detail rows of a work-report rollup. */
const summaryFromDetail = (table: string, period: string) => sql`
  SELECT ${sql.ref(period)}, workshop_id, process_id, 0, operator_id, scrap_reason, sum(report_count)::int, sum(good_quantity),
         sum(work_scrap_quantity), sum(material_scrap_quantity), sum(rework_quantity), sum(hours), sum(standard_minutes)
    FROM ${sql.table(table)} WHERE product_id <> 0
   GROUP BY ${sql.ref(period)}, workshop_id, process_id, operator_id, scrap_reason`;
export const SUMMARY_FROM_DETAIL = summaryFromDetail('work_report_rollup', 'month');

/**
 * Rebuilds every summary from the posted reports and the card steps (maintenance: after loading
 * reports or cards outside the application).
 */
export async function rebuildWorkReportRollup(db: Db) {
  for (const [table, period] of [
    ['work_report_rollup', 'month'],
    ['work_report_day_rollup', 'day'],
  ] as const) {
    await sql`DELETE FROM ${sql.table(table)}`.execute(db);
    await sql`INSERT INTO ${sql.table(table)} (${sql.ref(period)}, ${ROLLUP_COLS}) ${rawRollupSelect(period)}`.execute(
      db,
    );
    await sql`INSERT INTO ${sql.table(table)} (${sql.ref(period)}, ${ROLLUP_COLS}) ${summaryFromDetail(table, period)}`.execute(
      db,
    );
  }
  await sql`DELETE FROM work_report_process_rollup`.execute(db);
  await sql`
    INSERT INTO work_report_process_rollup (month, process_id, slot, report_count, good_quantity, hours, standard_minutes)
    SELECT month, process_id, (operator_id % 16)::smallint, sum(report_count)::int, sum(good_quantity), sum(hours),
           sum(standard_minutes)
      FROM work_report_rollup WHERE product_id = 0 GROUP BY 1, 2, 3`.execute(db);
  await sql`DELETE FROM flow_card_wip`.execute(db);
  await sql`DELETE FROM flow_card_summary`.execute(db);
  await sql`INSERT INTO flow_card_summary (flow_card_id, ${sql.raw(SUMMARY_COLS.join(', '))}) ${FLOW_CARD_SUMMARY_SELECT}`.execute(
    db,
  );
  await sql`DELETE FROM sale_order_card_summary`.execute(db);
  await sql`INSERT INTO sale_order_card_summary (sale_order_id, ${sql.raw(SALE_ORDER_CARD_COLS.join(', '))})
            ${SALE_ORDER_CARD_SUMMARY_SELECT}`.execute(db);
  await sql`INSERT INTO flow_card_wip (flow_card_id, workshop_id, waiting) ${FLOW_CARD_WIP_SELECT}`.execute(
    db,
  );
}
