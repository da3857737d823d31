-- 销售统计报表 / 采购明细报表 read the rollup's summary rows (per month and party, or per month and
-- material) and sum them: covering indexes let those reads skip the table (index-only scans),
-- grouped in index order. Only the summary rows are in them.
CREATE INDEX order_report_month_party_sum_idx ON order_report_month (kind, party_id, month)
  INCLUDE (line_count, ordered_quantity, ordered_amount, done_quantity, open_quantity, open_amount, completed_lines, on_time_lines)
  WHERE material_id = 0;
CREATE INDEX order_report_month_material_sum_idx ON order_report_month (kind, material_id, month)
  INCLUDE (line_count, ordered_quantity, ordered_amount, done_quantity, open_quantity, open_amount, completed_lines, on_time_lines)
  WHERE party_id = 0;
