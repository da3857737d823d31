-- 小数位数 of a unit (issue 34 §2, packages/domain resource/precision.ts): how many digits after the
-- point a quantity counted in the unit may have. Counted units take whole numbers only; measured
-- ones keep decimals. Every quantity whose unit is known (document lines, production orders,
-- dispatches, work reports, flow cards, 委外 pieces) is checked against it on save.
--
-- Existing units are set by their code or name; a unit neither list knows keeps 4 places (what
-- every quantity column allowed so far) until someone sets it on the 计量单位 page. A new unit
-- defaults to 0, as the declaration says: most units of a bearing factory are counted.
ALTER TABLE material_unit ADD COLUMN precision integer NOT NULL DEFAULT 4
  CHECK (precision >= 0) CHECK (precision <= 4);

UPDATE material_unit SET precision = 0
 WHERE upper(code) IN ('PCS', 'PC', 'SET', 'EA', 'GRN', 'BOX', 'CTN', 'BKT', 'ROLL', 'PR', 'PAIR', 'BAG', 'PKG')
    OR name IN ('件', '套', '个', '粒', '颗', '只', '台', '根', '支', '把', '块', '片', '张', '条', '箱', '盒',
                '包', '袋', '卷', '桶', '瓶', '罐', '副', '对', '双', '组', '付', '批', '次');

UPDATE material_unit SET precision = 3
 WHERE upper(code) IN ('KG', 'M', 'L')
    OR lower(name) IN ('kg', '千克', '公斤', 'm', '米', 'l', '升');

UPDATE material_unit SET precision = 2
 WHERE upper(code) IN ('G', 'CM')
    OR lower(name) IN ('g', '克', 'cm', '厘米');

ALTER TABLE material_unit ALTER COLUMN precision SET DEFAULT 0;
