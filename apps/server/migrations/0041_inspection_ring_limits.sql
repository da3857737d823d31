-- Hand-written (issue 13): 计量 inspection items take their limits from the bearing ring standard,
-- and a flow card arriving at another workshop gets its 车间来料 inspection.

-- 检验项目 ▸ 套圈特性: the ISO 492 / GB/T 307.1 characteristic a 计量 item measures.
ALTER TABLE inspection_item ADD COLUMN ring_characteristic varchar(20)
  CHECK (ring_characteristic IN ('dmp', 'Vdsp', 'Vdmp', 'Bs', 'VBs', 'Kia', 'Dmp', 'VDsp', 'VDmp', 'Cs', 'VCs', 'Kea'));
CREATE INDEX inspection_item_ring_characteristic_idx ON inspection_item (ring_characteristic, id);

-- 检验单 ▸ 客户: whose tightenings apply (derived from the source when not chosen).
ALTER TABLE inspection_task ADD COLUMN customer_id bigint REFERENCES customer (id);
CREATE INDEX inspection_task_customer_id_idx ON inspection_task (customer_id, id);

-- 检验单 ▸ 到达工序: one 车间来料 task per flow card step the pieces arrived at.
ALTER TABLE inspection_task ADD COLUMN flow_card_step_id integer;
CREATE UNIQUE INDEX inspection_task_flow_card_step_key ON inspection_task (flow_card_step_id)
  WHERE flow_card_step_id IS NOT NULL;

-- 检验单项目: the characteristic, and where its frozen limits came from.
ALTER TABLE inspection_task_item ADD COLUMN ring_characteristic varchar(20)
  CHECK (ring_characteristic IN ('dmp', 'Vdsp', 'Vdmp', 'Bs', 'VBs', 'Kia', 'Dmp', 'VDsp', 'VDmp', 'Cs', 'VCs', 'Kea'));
ALTER TABLE inspection_task_item ADD COLUMN limit_source varchar(20) CHECK (limit_source IN ('standard', 'override', 'typed'));
ALTER TABLE inspection_task_item ADD COLUMN limit_note varchar(200);
