-- Stock documents made against orders: the header names the order, each line the order line it
-- ships or returns. Posting and reversing move the order line's shipped quantity (modules/warehouse/sources.ts).

ALTER TABLE stock_outbound ADD COLUMN sale_order_id bigint REFERENCES sale_order (id);
ALTER TABLE stock_inbound ADD COLUMN sale_order_id bigint REFERENCES sale_order (id);
CREATE INDEX stock_outbound_sale_order_id_idx ON stock_outbound (sale_order_id, id);
CREATE INDEX stock_inbound_sale_order_id_idx ON stock_inbound (sale_order_id, id);

-- The order line a stock line ships, receives or returns; which order table it belongs to
-- follows from the header's order column.
ALTER TABLE stock_outbound_line ADD COLUMN source_line_id integer;
ALTER TABLE stock_inbound_line ADD COLUMN source_line_id integer;
CREATE INDEX stock_outbound_line_source_line_id_idx ON stock_outbound_line (source_line_id) WHERE source_line_id IS NOT NULL;
CREATE INDEX stock_inbound_line_source_line_id_idx ON stock_inbound_line (source_line_id) WHERE source_line_id IS NOT NULL;

