-- Units without drift (issue 37 §3; packages/domain resource/unit-conversion.ts and
-- warehouse/unit-stock.ts; docs/architecture.md, "Unit conversion").

-- a ÷ b rounded half away from zero to p places, exactly (an integer division of exact numerics
-- decides the half): what `roundRatio` computes in packages/domain.
CREATE FUNCTION round_ratio(a numeric, b numeric, p integer) RETURNS numeric
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT round(sign(a) * sign(b) * div(2 * abs(a) * power(10::numeric, p) + abs(b), 2 * abs(b))
               / power(10::numeric, p), p)
$$;

-- A unit that is the kilogram: its conversion is the material's unit weight.
CREATE FUNCTION is_kilogram(code text, name text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(upper(code) = 'KG', false) OR coalesce(lower(name) IN ('kg', '千克', '公斤'), false)
$$;

-- 1. A conversion is an exact ratio: unit_quantity of the unit = base_quantity of the base unit
-- (「1 套 = 0.235 kg」: 0.235 kg = 1 套), entered either way. The six-decimal factor it replaces
-- (4.255319) made ten receipts of 1 kg 42.5530 套 and an issue of 10 kg 42.5532. Existing factors
-- become factor = 1 of the unit; a factor that is the rounded inverse of a short decimal (4.255319 =
-- 1 ÷ 0.235 to six places) becomes that exact ratio. `factor` stays as a derived column (the ratio
-- to ten places, for displays and BOM usage); quantities convert through the ratio.
ALTER TABLE material_unit_conversion
  ADD COLUMN unit_quantity numeric(18, 6) NOT NULL DEFAULT 1 CHECK (unit_quantity > 0),
  ADD COLUMN base_quantity numeric(18, 6);
UPDATE material_unit_conversion SET base_quantity = factor;
UPDATE material_unit_conversion c SET unit_quantity = x.inverse, base_quantity = 1
  FROM (SELECT id, round(1 / factor, 4) AS inverse FROM material_unit_conversion) x
 WHERE x.id = c.id AND c.factor <> trunc(c.factor) AND x.inverse > 0 AND round(1 / x.inverse, 6) = c.factor;
ALTER TABLE material_unit_conversion ALTER COLUMN base_quantity SET NOT NULL,
  ADD CONSTRAINT material_unit_conversion_base_quantity_check CHECK (base_quantity > 0);
ALTER TABLE material_unit_conversion DROP COLUMN factor;
ALTER TABLE material_unit_conversion
  ADD COLUMN factor numeric(18, 10) GENERATED ALWAYS AS (round(base_quantity / unit_quantity, 10)) STORED;

-- 2. The unit weight and the kilogram conversion are one fact: the conversion is stored, the
-- weight (kg per base unit, now six places) is derived from it on every save of the material. A
-- material with a weight and no kilogram conversion gets one (weight kg = 1 base unit); where both
-- existed and disagreed (balls: 0.0021 kg against 1 kg = 487.19 粒), the conversion stock was
-- counted by wins. A material counted in kg weighs 1.
ALTER TABLE material ALTER COLUMN weight TYPE numeric(18, 6);
INSERT INTO material_unit_conversion (material_id, line_no, unit_id, unit_quantity, base_quantity)
SELECT m.id, coalesce((SELECT max(c.line_no) FROM material_unit_conversion c WHERE c.material_id = m.id), 0) + 1,
       kg.id, m.weight, 1
  FROM material m
  CROSS JOIN LATERAL (SELECT u.id FROM material_unit u WHERE is_kilogram(u.code, u.name)
                       ORDER BY upper(u.code) = 'KG' DESC, u.id LIMIT 1) kg
 WHERE m.weight > 0 AND m.unit_id <> kg.id
   AND NOT EXISTS (SELECT 1 FROM material_unit u WHERE u.id = m.unit_id AND is_kilogram(u.code, u.name))
   AND NOT EXISTS (SELECT 1 FROM material_unit_conversion c JOIN material_unit u ON u.id = c.unit_id
                    WHERE c.material_id = m.id AND is_kilogram(u.code, u.name));
UPDATE material m SET weight = CASE
    WHEN EXISTS (SELECT 1 FROM material_unit u WHERE u.id = m.unit_id AND is_kilogram(u.code, u.name)) THEN 1
    ELSE (SELECT round(c.unit_quantity / c.base_quantity, 6) FROM material_unit_conversion c
            JOIN material_unit u ON u.id = c.unit_id
           WHERE c.material_id = m.id AND is_kilogram(u.code, u.name) ORDER BY c.line_no LIMIT 1) END
 WHERE weight IS DISTINCT FROM CASE
    WHEN EXISTS (SELECT 1 FROM material_unit u WHERE u.id = m.unit_id AND is_kilogram(u.code, u.name)) THEN 1
    ELSE (SELECT round(c.unit_quantity / c.base_quantity, 6) FROM material_unit_conversion c
            JOIN material_unit u ON u.id = c.unit_id
           WHERE c.material_id = m.id AND is_kilogram(u.code, u.name) ORDER BY c.line_no LIMIT 1) END;

-- 3. Stock by entry unit: inside a balance row, what came in counted in another unit is a part that
-- keeps both figures (10 kg ↔ 42.5530 套); an issue of those 10 kg takes exactly the 42.5530. Each
-- ledger row moves one part (its unit and the quantity in it) or loose stock (both NULL), so a part
-- is the sum of its ledger rows. Existing stock is loose.
ALTER TABLE stock_ledger
  ADD COLUMN unit_id bigint REFERENCES material_unit (id),
  ADD COLUMN unit_quantity numeric(18, 4),
  ADD CONSTRAINT stock_ledger_unit_check CHECK ((unit_id IS NULL) = (unit_quantity IS NULL));
CREATE INDEX stock_ledger_unit_id_idx ON stock_ledger (unit_id) WHERE unit_id IS NOT NULL;

CREATE TABLE stock_unit_balance (
  material_id bigint NOT NULL REFERENCES material (id),
  warehouse_id bigint NOT NULL REFERENCES warehouse (id),
  location_id bigint REFERENCES shelf_location (id),
  batch_no varchar(60) NOT NULL DEFAULT '',
  quality_status varchar(20) NOT NULL CHECK (quality_status IN ('pending', 'qualified', 'rejected')),
  unit_id bigint NOT NULL REFERENCES material_unit (id),
  -- In the unit, and in the base unit: both positive while the part exists.
  quantity numeric(18, 4) NOT NULL CHECK (quantity > 0),
  base_quantity numeric(18, 4) NOT NULL CHECK (base_quantity > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT stock_unit_balance_key
    UNIQUE NULLS NOT DISTINCT (material_id, warehouse_id, location_id, batch_no, quality_status, unit_id)
);
CREATE INDEX stock_unit_balance_unit_id_idx ON stock_unit_balance (unit_id);
