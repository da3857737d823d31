-- Hand-written
-- Wages are rounded once per worker and month, never per fragment (issue 34): four reports of
-- 0.05 piece at 0.10 元 were paid 0.01 each (0.04 for 0.2 piece, where 0.02 is right). A wage
-- line keeps its exact amounts (quantity × rate, numeric without a fixed scale: 0.005), the
-- month's sums (`wage_month`) add them exactly, and the sheet and the close round each worker's
-- month to the fen once (modules/finance/wages.ts). Lines posted before keep their fen amounts.
-- The closed sheet (`wage_sheet`, `wage_period`) stays in fen. Dropping a numeric's precision
-- and scale rewrites no table.
ALTER TABLE piece_wage
  ALTER COLUMN good_amount TYPE numeric,
  ALTER COLUMN deduction_amount TYPE numeric,
  ALTER COLUMN rework_amount TYPE numeric,
  ALTER COLUMN amount TYPE numeric;

ALTER TABLE wage_month
  ALTER COLUMN good_amount TYPE numeric,
  ALTER COLUMN deduction_amount TYPE numeric,
  ALTER COLUMN rework_amount TYPE numeric,
  ALTER COLUMN adjustment_amount TYPE numeric,
  ALTER COLUMN total_amount TYPE numeric;
