-- 车间来料: pieces that reach a step after its incoming inspection started are a lot of their own,
-- so a step may have several tasks over time — but at most one waiting (待检验) at a time.
DROP INDEX inspection_task_flow_card_step_key;
CREATE INDEX inspection_task_flow_card_step_idx ON inspection_task (flow_card_step_id)
  WHERE flow_card_step_id IS NOT NULL;
CREATE UNIQUE INDEX inspection_task_flow_card_step_waiting_key ON inspection_task (flow_card_step_id)
  WHERE flow_card_step_id IS NOT NULL AND status = 'pending';
