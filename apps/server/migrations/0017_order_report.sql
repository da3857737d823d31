-- Monthly rollup of sales and purchase orders for 销售统计报表 and 采购明细报表
-- (modules/orders/report.ts keeps it): one row per kind, order month, customer or supplier and
-- material, recounted from the order lines whenever an order is approved, un-approved, closed,
-- shipped or received. Reports read it instead of aggregating every order line.

-- The day a line was shipped / received in full (the business date of that document): a line
-- is on time when it is no later than its delivery date.
ALTER TABLE sale_order_line ADD COLUMN completed_on date;
ALTER TABLE purchase_order_line ADD COLUMN completed_on date;

CREATE TABLE order_report_month (
  kind varchar(10) NOT NULL CHECK (kind IN ('sale', 'purchase')),
  month date NOT NULL,
  party_id bigint NOT NULL,
  material_id bigint NOT NULL,
  line_count integer NOT NULL DEFAULT 0,
  ordered_quantity numeric(18,4) NOT NULL DEFAULT 0,
  ordered_amount numeric(18,2) NOT NULL DEFAULT 0,
  done_quantity numeric(18,4) NOT NULL DEFAULT 0,
  open_quantity numeric(18,4) NOT NULL DEFAULT 0,
  open_amount numeric(18,2) NOT NULL DEFAULT 0,
  completed_lines integer NOT NULL DEFAULT 0,
  on_time_lines integer NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, month, party_id, material_id)
);
CREATE INDEX order_report_month_party_idx ON order_report_month (kind, party_id, month);
CREATE INDEX order_report_month_material_idx ON order_report_month (kind, material_id, month);
-- Finding an order month's lines of one party when a rollup row is recounted.
CREATE INDEX sale_order_customer_date_idx ON sale_order (customer_id, order_date);
CREATE INDEX purchase_order_supplier_date_idx ON purchase_order (supplier_id, order_date);
