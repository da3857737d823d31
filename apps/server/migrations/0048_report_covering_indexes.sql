-- Covering indexes for two production reports (生产部 › 统计报表), so that they read index pages
-- only (once autovacuum has marked the table's pages all-visible):
--
-- * 车间流转卡报表 sums what waits per workshop over the wip rows with pieces. Those rows are a few
--   among every card's rows (one per workshop of the route), scattered over the table: the partial
--   index now carries `waiting`, so the heap is not visited (4.8 → 1.9 ms on the bench data).
-- * 在制需求 sums, per material, what released orders still have to make. The orders that reserve
--   (PRODUCTION_ORDER_RESERVING in @ringmes/domain) are few against every order ever made; this
--   index holds only them, by product, with the two quantities.
DROP INDEX flow_card_wip_waiting_idx;
CREATE INDEX flow_card_wip_waiting_idx ON flow_card_wip (workshop_id, flow_card_id) INCLUDE (waiting) WHERE waiting > 0;

CREATE INDEX production_order_reserving_product_idx ON production_order (product_id)
  INCLUDE (quantity, produced_quantity) WHERE status IN ('released', 'producing');
