-- MRP: open 备货单 lines are demands of the plan (issue 37 §1; docs/mrp.md). A planned order's
-- pegs may name the 备货单 line it is made for, kept with the requisition or production order made
-- from it, like a sales order line.
ALTER TABLE mrp_peg DROP CONSTRAINT mrp_peg_demand_type_check;
ALTER TABLE mrp_peg ADD CONSTRAINT mrp_peg_demand_type_check
  CHECK (demand_type IN ('sale-order', 'stock-up-order', 'production-order', 'stock', 'safety-stock'));
ALTER TABLE mrp_peg ADD COLUMN stock_up_order_id bigint REFERENCES stock_up_order (id) ON DELETE CASCADE;
ALTER TABLE mrp_peg ADD COLUMN stock_up_order_line_id bigint REFERENCES stock_up_order_line (id) ON DELETE CASCADE;
CREATE INDEX mrp_peg_stock_up_order_idx ON mrp_peg (stock_up_order_id) WHERE stock_up_order_id IS NOT NULL;
CREATE INDEX mrp_peg_stock_up_order_line_idx ON mrp_peg (stock_up_order_line_id) WHERE stock_up_order_line_id IS NOT NULL;
