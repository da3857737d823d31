-- Issue 12, posting speed. work_report had two identical indexes on (dispatch_id, id): the
-- generated work_report_dispatch_id_idx (0022) and the hand-written work_report_dispatch_idx
-- (0022's extra SQL). Every report insert and every non-HOT update (each posting moves the status)
-- wrote both; one is enough.
DROP INDEX IF EXISTS work_report_dispatch_idx;
