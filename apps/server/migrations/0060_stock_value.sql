-- Stock valuation per material and warehouse (issue 37 §2): the value of a material's stock in a
-- warehouse is always the sum of its ledger amounts. `stock_value` holds the pair's quantity (the
-- sum of its stock_balance rows), its value (the sum of its ledger amounts) and the average
-- (value ÷ quantity; the last one when empty; NULL: never had one). Only the posting service
-- (modules/warehouse/posting.ts) writes it; docs/architecture.md, "Valuation and reversals".
CREATE TABLE stock_value (
  material_id bigint NOT NULL REFERENCES material (id),
  warehouse_id bigint NOT NULL REFERENCES warehouse (id),
  quantity numeric(18,4) NOT NULL DEFAULT 0,
  value numeric(18,2) NOT NULL DEFAULT 0,
  avg_cost numeric(18,6),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (material_id, warehouse_id),
  -- No value without stock, no negative value: a reversal that would leave either writes an adjustment.
  CONSTRAINT stock_value_value_check CHECK (value >= 0 AND (quantity > 0 OR value = 0))
);
CREATE INDEX stock_value_warehouse_idx ON stock_value (warehouse_id);

-- A valuation adjustment (成本调整) moves value only: a ledger row of quantity 0.
ALTER TABLE stock_ledger DROP CONSTRAINT stock_ledger_quantity_check;
ALTER TABLE stock_ledger ADD CONSTRAINT stock_ledger_quantity_check CHECK (quantity <> 0 OR amount <> 0);

-- Existing stock: each pair is worth what its ledger rows sum to (what 库存报表 already showed).
-- Where that is not a value stock can have — an amount left on a pair without stock, or a negative
-- value, which reversals at the issue's cost with the average left alone produced — one adjustment
-- row (document 'valuation' CBTZ-0060, quantity 0) brings it to 0. Empty pairs keep the material's
-- old average as their last one.
CREATE TEMPORARY TABLE stock_value_0060 ON COMMIT DROP AS
SELECT k.material_id, k.warehouse_id, coalesce(b.q, 0) AS quantity, coalesce(l.v, 0) AS value, mc.avg_cost
  FROM (SELECT material_id, warehouse_id FROM stock_balance UNION SELECT material_id, warehouse_id FROM stock_ledger) k
  LEFT JOIN (SELECT material_id, warehouse_id, sum(quantity) AS q FROM stock_balance GROUP BY 1, 2) b
         ON b.material_id = k.material_id AND b.warehouse_id = k.warehouse_id
  LEFT JOIN (SELECT material_id, warehouse_id, sum(amount) AS v FROM stock_ledger GROUP BY 1, 2) l
         ON l.material_id = k.material_id AND l.warehouse_id = k.warehouse_id
  LEFT JOIN material_cost mc ON mc.material_id = k.material_id;

INSERT INTO stock_ledger (material_id, warehouse_id, quantity, unit_cost, amount, doc_type, doc_kind, doc_id, doc_no)
SELECT material_id, warehouse_id, 0, 0, -value, 'valuation', 'adjustment', 0, 'CBTZ-0060'
  FROM stock_value_0060
 WHERE value <> 0 AND (quantity <= 0 OR value < 0)
 ORDER BY material_id, warehouse_id;

INSERT INTO stock_value (material_id, warehouse_id, quantity, value, avg_cost)
SELECT material_id, warehouse_id, quantity, v, CASE WHEN quantity > 0 THEN round(v / quantity, 6) ELSE avg_cost END
  FROM (SELECT *, CASE WHEN quantity <= 0 OR value < 0 THEN 0 ELSE value END AS v FROM stock_value_0060) s;

-- The material's average over its warehouses, for readers that know no warehouse; written by nobody.
DROP TABLE material_cost;
CREATE VIEW material_cost AS
SELECT material_id, sum(quantity) AS quantity,
       coalesce(CASE WHEN sum(quantity) > 0 THEN round(sum(value) / sum(quantity), 6)
                     ELSE (array_agg(avg_cost ORDER BY updated_at DESC) FILTER (WHERE avg_cost IS NOT NULL))[1] END,
                0)::numeric(18,6) AS avg_cost,
       max(updated_at) AS updated_at
  FROM stock_value GROUP BY material_id;
