-- 全局搜索 (issue 41 §2): a document number typed from its start (SC2024…) is read from an index
-- on the number in byte order, highest first (`COLLATE "C"`, so a prefix is one index range
-- whatever the database's collation), not gathered from the trigram index and sorted.
DO $$
DECLARE
  target record;
BEGIN
  FOR target IN
    SELECT * FROM (VALUES
      ('sale_order', 'doc_no'), ('stock_up_order', 'doc_no'), ('purchase_requisition', 'doc_no'),
      ('production_order', 'doc_no'), ('workshop_task', 'task_no'), ('work_dispatch', 'doc_no'),
      ('work_report', 'doc_no'), ('flow_card', 'doc_no'), ('technical_document', 'doc_no'),
      ('inspection_task', 'doc_no'), ('purchase_order', 'doc_no'), ('outsourcing_order', 'doc_no'),
      ('receivable', 'doc_no'), ('receipt', 'doc_no'), ('payable', 'doc_no'), ('payment', 'doc_no'),
      ('equipment_repair', 'doc_no'), ('maintenance_record', 'doc_no'), ('inspection_record', 'doc_no'),
      ('stock_inbound', 'doc_no'), ('stock_outbound', 'doc_no'), ('stock_transfer', 'doc_no'),
      ('stocktake', 'doc_no')
    ) AS t(tbl, col)
  LOOP
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I ((%I COLLATE "C"))',
      target.tbl || '_' || target.col || '_prefix', target.tbl, target.col);
  END LOOP;
END $$;
