-- 工序月产能's per-process rollup had one row per month and process, which every posting of that
-- process updated: concurrent postings by different operators queued on it until each one
-- committed. The row is now split into 16 slots by operator (operator_id % 16), which the report
-- sums; postings of different operators rarely share a slot.
ALTER TABLE work_report_process_rollup ADD COLUMN slot smallint NOT NULL DEFAULT 0;
ALTER TABLE work_report_process_rollup DROP CONSTRAINT work_report_process_rollup_pkey;
ALTER TABLE work_report_process_rollup ADD PRIMARY KEY (month, process_id, slot);
