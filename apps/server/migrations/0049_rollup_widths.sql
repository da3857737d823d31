-- Hand-written
-- Rollups and summaries never refuse a posting (issue 34): one sales order of 9,999,999 ×
-- 999,999,999.999999 fitted its own numeric(18,2) line but filled the month's row of
-- order_report_month, and every later approval of that material in that month answered 400
-- 「数值超出允许范围」. The fields are now bounded (quantity and price ≤ 10⁹, an amount and an
-- order's total ≤ 10¹², docs/architecture.md "Bounds on numbers and dates"), and every table that
-- sums documents gets ten more integer digits: numeric(28,x) holds 10¹⁴ orders at the bounds in
-- one row. Only the precision grows (the scale stays), so PostgreSQL rewrites no table.
ALTER TABLE order_report_month
  ALTER COLUMN ordered_quantity TYPE numeric(28,4),
  ALTER COLUMN ordered_amount TYPE numeric(28,2),
  ALTER COLUMN done_quantity TYPE numeric(28,4),
  ALTER COLUMN open_quantity TYPE numeric(28,4),
  ALTER COLUMN open_amount TYPE numeric(28,2);

ALTER TABLE stock_ledger_month
  ALTER COLUMN quantity TYPE numeric(28,4),
  ALTER COLUMN amount TYPE numeric(28,2);

ALTER TABLE work_report_rollup
  ALTER COLUMN good_quantity TYPE numeric(28,4),
  ALTER COLUMN work_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN material_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN rework_quantity TYPE numeric(28,4),
  ALTER COLUMN hours TYPE numeric(28,2),
  ALTER COLUMN standard_minutes TYPE numeric(38,6);

ALTER TABLE work_report_day_rollup
  ALTER COLUMN good_quantity TYPE numeric(28,4),
  ALTER COLUMN work_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN material_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN rework_quantity TYPE numeric(28,4),
  ALTER COLUMN hours TYPE numeric(28,2),
  ALTER COLUMN standard_minutes TYPE numeric(38,6);

ALTER TABLE work_report_process_rollup
  ALTER COLUMN good_quantity TYPE numeric(28,4),
  ALTER COLUMN hours TYPE numeric(28,2),
  ALTER COLUMN standard_minutes TYPE numeric(38,6);

ALTER TABLE flow_card_summary
  ALTER COLUMN finished_quantity TYPE numeric(28,4),
  ALTER COLUMN scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN current_waiting TYPE numeric(28,4),
  ALTER COLUMN machine_waiting TYPE numeric(28,4),
  ALTER COLUMN grinding_waiting TYPE numeric(28,4),
  ALTER COLUMN inspect_waiting TYPE numeric(28,4),
  ALTER COLUMN assembly_waiting TYPE numeric(28,4),
  ALTER COLUMN outsourced_waiting TYPE numeric(28,4);

ALTER TABLE flow_card_wip
  ALTER COLUMN waiting TYPE numeric(28,4);

ALTER TABLE sale_order_card_summary
  ALTER COLUMN card_quantity TYPE numeric(28,4),
  ALTER COLUMN machine_waiting TYPE numeric(28,4),
  ALTER COLUMN grinding_waiting TYPE numeric(28,4),
  ALTER COLUMN inspect_waiting TYPE numeric(28,4),
  ALTER COLUMN assembly_waiting TYPE numeric(28,4),
  ALTER COLUMN outsourced_waiting TYPE numeric(28,4),
  ALTER COLUMN finished_quantity TYPE numeric(28,4),
  ALTER COLUMN scrap_quantity TYPE numeric(28,4);

-- The wage months: the open months' sums and the closed months' sheets.
ALTER TABLE wage_month
  ALTER COLUMN good_quantity TYPE numeric(28,4),
  ALTER COLUMN good_amount TYPE numeric(28,2),
  ALTER COLUMN work_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN deduction_amount TYPE numeric(28,2),
  ALTER COLUMN rework_quantity TYPE numeric(28,4),
  ALTER COLUMN rework_amount TYPE numeric(28,2),
  ALTER COLUMN adjustment_amount TYPE numeric(28,2),
  ALTER COLUMN total_amount TYPE numeric(28,2);

ALTER TABLE wage_sheet
  ALTER COLUMN good_quantity TYPE numeric(28,4),
  ALTER COLUMN good_amount TYPE numeric(28,2),
  ALTER COLUMN work_scrap_quantity TYPE numeric(28,4),
  ALTER COLUMN deduction_amount TYPE numeric(28,2),
  ALTER COLUMN rework_quantity TYPE numeric(28,4),
  ALTER COLUMN rework_amount TYPE numeric(28,2),
  ALTER COLUMN adjustment_amount TYPE numeric(28,2),
  ALTER COLUMN total_amount TYPE numeric(28,2);

ALTER TABLE wage_period
  ALTER COLUMN total_amount TYPE numeric(28,2);
