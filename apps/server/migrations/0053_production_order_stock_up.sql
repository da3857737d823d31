-- 从备货单生成: a production order made from a 备货单 line names the 备货单 (its ring orders too);
-- the line itself is `stock_up_line_id` (0014). What a line has planned is recounted from the
-- orders naming it, found through the partial index.
ALTER TABLE production_order ADD COLUMN stock_up_order_id bigint REFERENCES stock_up_order (id);
CREATE INDEX production_order_stock_up_order_id_idx ON production_order (stock_up_order_id, id);
CREATE INDEX production_order_stock_up_line_idx ON production_order (stock_up_line_id) WHERE stock_up_line_id IS NOT NULL;
