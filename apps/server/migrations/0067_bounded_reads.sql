-- Hand-written (issue 39 §1): reads that stay bounded as the tables grow.
--
-- The dashboards' 最近报工 (the last 10 posted reports, of the factory or of one workshop) read by
-- the posting time instead of scanning every posted report.
CREATE INDEX work_report_recent_idx ON work_report (posted_at DESC, id DESC)
  WHERE status = 'posted' AND posted_at IS NOT NULL;
CREATE INDEX work_report_recent_workshop_idx ON work_report (workshop_type, posted_at DESC, id DESC)
  WHERE status = 'posted' AND posted_at IS NOT NULL;

-- 库存流水 searched by document number: the document's moves, newest first, by the index.
CREATE INDEX stock_ledger_doc_no_idx ON stock_ledger (doc_no, id);
