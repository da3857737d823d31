-- Hand-written (issue 39 §1): one material's 库存流水 counts its moves and sums what came in and went
-- out (the page's summary and each move's balance after it) by the material's index alone: the
-- quantity rides in the index, so the sums are an index-only scan instead of a heap read per move
-- (EXPLAIN ANALYZE, 20,000 moves of one material in a 1,000,000-row ledger: 422 ms → 16 ms).
-- It replaces the plain (material_id, id) index, which it serves in full.
CREATE INDEX stock_ledger_material_qty_idx ON stock_ledger (material_id, id) INCLUDE (quantity);
DROP INDEX stock_ledger_material_idx;
