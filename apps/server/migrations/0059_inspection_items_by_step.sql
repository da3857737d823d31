-- Hand-written (issue 35): inspection items fit the part and the process step.

-- 物料 ▸ 零件类型: a finished bearing or one of its rings; an inspection takes the items of its part only.
ALTER TABLE material ADD COLUMN part_type varchar(20) CHECK (part_type IN ('bearing', 'inner', 'outer'));
CREATE INDEX material_part_type_idx ON material (part_type, id);

-- 检验项目 ▸ 测量部位: what the item measures (bore, outside diameter, raceway…), so which parts have it.
ALTER TABLE inspection_item ADD COLUMN feature varchar(20)
  CHECK (feature IN ('bore', 'outside', 'width', 'raceway', 'raceway-roughness', 'raceway-roundness', 'radial-clearance', 'vibration'));
CREATE INDEX inspection_item_feature_idx ON inspection_item (feature, id);

-- 检验模板 (the step's item set): which sizes the step checks and the drawing they come from…
ALTER TABLE inspection_template
  ADD COLUMN size_stage varchar(20) CHECK (size_stage IN ('turning', 'grinding', 'final')),
  ADD COLUMN technical_document_id bigint REFERENCES technical_document (id);
CREATE INDEX inspection_template_size_stage_idx ON inspection_template (size_stage, id);
CREATE INDEX inspection_template_technical_document_id_idx ON inspection_template (technical_document_id, id);

-- …and per line the step's size: nominal, deviations (in the item's unit) and the allowance left.
ALTER TABLE inspection_template_line
  ADD COLUMN nominal numeric(18,4),
  ADD COLUMN upper_tolerance numeric(18,4),
  ADD COLUMN lower_tolerance numeric(18,4),
  ADD COLUMN allowance numeric(18,4) CHECK (allowance >= 0) CHECK (allowance <= 10);

-- 检验单项目: the nominal its limits rest on, and limits from the step's drawing (工序图).
ALTER TABLE inspection_task_item ADD COLUMN nominal numeric(18,4);
ALTER TABLE inspection_task_item DROP CONSTRAINT inspection_task_item_limit_source_check;
ALTER TABLE inspection_task_item ADD CONSTRAINT inspection_task_item_limit_source_check
  CHECK (limit_source IN ('standard', 'override', 'drawing', 'typed'));
