-- 订单车间流转卡报表 per sales order without reading every card: per sales order, its cards that
-- are 在制 or 已完工 (count and pieces), what waits in each kind of workshop and at suppliers, what
-- came off the last steps and what was scrapped — the sums of their flow_card_summary rows,
-- recounted for a sales order whenever one of its cards changes (modules/production/report-rollup.ts).
CREATE TABLE sale_order_card_summary (
  sale_order_id bigint PRIMARY KEY REFERENCES sale_order (id) ON DELETE CASCADE,
  cards integer NOT NULL DEFAULT 0,
  card_quantity numeric(18,4) NOT NULL DEFAULT 0,
  machine_waiting numeric(18,4) NOT NULL DEFAULT 0,
  grinding_waiting numeric(18,4) NOT NULL DEFAULT 0,
  inspect_waiting numeric(18,4) NOT NULL DEFAULT 0,
  assembly_waiting numeric(18,4) NOT NULL DEFAULT 0,
  outsourced_waiting numeric(18,4) NOT NULL DEFAULT 0,
  finished_quantity numeric(18,4) NOT NULL DEFAULT 0,
  scrap_quantity numeric(18,4) NOT NULL DEFAULT 0
);
INSERT INTO sale_order_card_summary (sale_order_id, cards, card_quantity, machine_waiting, grinding_waiting,
                                     inspect_waiting, assembly_waiting, outsourced_waiting, finished_quantity,
                                     scrap_quantity)
SELECT f.sale_order_id, count(*), sum(c.quantity), sum(f.machine_waiting), sum(f.grinding_waiting),
       sum(f.inspect_waiting), sum(f.assembly_waiting), sum(f.outsourced_waiting), sum(f.finished_quantity),
       sum(f.scrap_quantity)
  FROM flow_card_summary f JOIN flow_card c ON c.id = f.flow_card_id
 WHERE f.sale_order_id IS NOT NULL AND c.status IN ('open', 'completed')
 GROUP BY f.sale_order_id;
