-- Hand-written
-- 越过检验入账 (issue 35): a work report waiting 待检验 is posted by its inspection's result, or by
-- an explicit, permissioned override with a reason; the report's open inspection task is then
-- closed as 已越过 (overridden), kept as history, never judged.
ALTER TABLE inspection_task DROP CONSTRAINT inspection_task_status_check;
ALTER TABLE inspection_task ADD CONSTRAINT inspection_task_status_check
  CHECK (status IN ('pending', 'inspecting', 'passed', 'failed', 'conceded', 'overridden'));
