// Growth runs (issue 39 §1): the demo's posted work reports copied back in time, so that the
// history is `factor` times the demo's while today stays as it is (a factory that has run for
// months). Each copy is the demo's month moved back by whole 32-day periods, with its own numbers;
// the day and month rollups are rebuilt from the reports afterwards, as posting would have kept them.
import { pgExec } from './lib.mjs';

const COLUMNS = `dispatch_id, flow_card_id, production_order_id, task_id, product_id, seq, process_id, workshop_type,
  workshop_id, order_step_id, operator_id, equipment_id, shift, good_quantity, work_scrap_quantity,
  material_scrap_quantity, scrap_reason, rework_quantity, hours, piece_rate, wage_amount`;

/** Grows the posted work reports of `url` from what they are now to `factor` × the demo's `base`. */
export async function growWorkReports(url, base, factor) {
  const have = Number(
    (await pgExec(url, `SELECT count(*)::int AS n FROM work_report WHERE status = 'posted'`)).rows[0].n,
  );
  const copies = Math.round(have / base);
  for (let j = copies; j < factor; j++) {
    await pgExec(
      url,
      `INSERT INTO work_report (doc_no, status, ${COLUMNS}, report_date, posted_at, created_at, updated_at)
       SELECT 'G' || ${j} || '-' || r.doc_no, 'posted', ${COLUMNS.split(',')
         .map((c) => `r.${c.trim()}`)
         .join(', ')},
              r.report_date - ${32 * j}, r.posted_at - interval '${32 * j} days', r.created_at - interval '${32 * j} days',
              r.updated_at - interval '${32 * j} days'
         FROM work_report r WHERE r.status = 'posted' AND r.doc_no NOT LIKE 'G%'`,
    );
  }
  for (const [table, period, value] of [
    ['work_report_day_rollup', 'day', 'r.report_date'],
    ['work_report_rollup', 'month', `date_trunc('month', r.report_date)::date`],
  ]) {
    await pgExec(url, `TRUNCATE ${table}`);
    await pgExec(
      url,
      `INSERT INTO ${table} (${period}, workshop_id, process_id, product_id, operator_id, scrap_reason, report_count,
                             good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours, standard_minutes)
       SELECT ${value}, COALESCE(r.workshop_id, 0), r.process_id, p.product_id, COALESCE(r.operator_id, 0),
              COALESCE(r.scrap_reason, ''), count(*)::int, sum(r.good_quantity), sum(r.work_scrap_quantity),
              sum(r.material_scrap_quantity), sum(r.rework_quantity), COALESCE(sum(r.hours), 0),
              COALESCE(sum(r.good_quantity * COALESCE(t.standard_minutes, 0)), 0)
         FROM work_report r LEFT JOIN workshop_task t ON t.id = r.task_id
        CROSS JOIN LATERAL (VALUES (r.product_id), (0)) p(product_id)
        WHERE r.status = 'posted'
        GROUP BY 1, 2, 3, 4, 5, 6`,
    );
  }
  await pgExec(url, 'ANALYZE work_report');
  await pgExec(url, 'ANALYZE work_report_day_rollup');
  await pgExec(url, 'ANALYZE work_report_rollup');
  return Number(
    (await pgExec(url, `SELECT count(*)::int AS n FROM work_report WHERE status = 'posted'`)).rows[0].n,
  );
}
