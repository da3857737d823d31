-- Hand-written
-- Monthly rollup of posted work reports for the production reports (生产部 › 统计报表), kept by
-- modules/production/report-rollup.ts in the transaction that posts (入账) or takes back (反审核)
-- a report: one row per report month, workshop, process, product, operator and scrap reason,
-- incremented by the report's figures on posting and decremented on its reversal. Reports read
-- these rows instead of aggregating every work report. Each report also counts in a summary row
-- with product_id 0 (every product), which reports without a product filter or grouping read. `workshop_id`/`operator_id` 0 and
-- `scrap_reason` '' stand for "none"; rows whose `report_count` fell back to 0 are left in place.
CREATE TABLE work_report_rollup (
  month date NOT NULL,
  workshop_id bigint NOT NULL,
  process_id bigint NOT NULL,
  product_id bigint NOT NULL,
  operator_id bigint NOT NULL,
  scrap_reason varchar(20) NOT NULL,
  report_count integer NOT NULL DEFAULT 0,
  good_quantity numeric(18,4) NOT NULL DEFAULT 0,
  work_scrap_quantity numeric(18,4) NOT NULL DEFAULT 0,
  material_scrap_quantity numeric(18,4) NOT NULL DEFAULT 0,
  rework_quantity numeric(18,4) NOT NULL DEFAULT 0,
  hours numeric(18,2) NOT NULL DEFAULT 0,
  -- Σ good × the task's standard minutes (分钟/件, frozen on the workshop task).
  standard_minutes numeric(24,6) NOT NULL DEFAULT 0,
  PRIMARY KEY (month, workshop_id, process_id, product_id, operator_id, scrap_reason)
);
CREATE INDEX work_report_rollup_operator_idx ON work_report_rollup (operator_id, month);
CREATE INDEX work_report_rollup_process_idx ON work_report_rollup (process_id, month);
CREATE INDEX work_report_rollup_product_idx ON work_report_rollup (product_id, month);

-- Backfill from the reports posted before this migration.
INSERT INTO work_report_rollup (month, workshop_id, process_id, product_id, operator_id, scrap_reason, report_count,
                                good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours,
                                standard_minutes)
SELECT date_trunc('month', r.report_date)::date, COALESCE(r.workshop_id, 0), r.process_id, r.product_id,
       COALESCE(r.operator_id, 0), COALESCE(r.scrap_reason, ''), count(*)::int,
       sum(r.good_quantity), sum(r.work_scrap_quantity), sum(r.material_scrap_quantity), sum(r.rework_quantity),
       COALESCE(sum(r.hours), 0), COALESCE(sum(r.good_quantity * COALESCE(t.standard_minutes, 0)), 0)
  FROM work_report r LEFT JOIN workshop_task t ON t.id = r.task_id
 WHERE r.status = 'posted'
 GROUP BY 1, 2, 3, 4, 5, 6;
INSERT INTO work_report_rollup (month, workshop_id, process_id, product_id, operator_id, scrap_reason, report_count,
                                good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours,
                                standard_minutes)
SELECT month, workshop_id, process_id, 0, operator_id, scrap_reason, sum(report_count)::int, sum(good_quantity),
       sum(work_scrap_quantity), sum(material_scrap_quantity), sum(rework_quantity), sum(hours), sum(standard_minutes)
  FROM work_report_rollup WHERE product_id <> 0
 GROUP BY month, workshop_id, process_id, operator_id, scrap_reason;
