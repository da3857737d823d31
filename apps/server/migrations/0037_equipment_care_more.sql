-- Equipment care, second part (apps/server/src/modules/factory/equipment-care.ts, docs/equipment-care.md).
-- Hand-written: columns added to declared resources (schema-matches-definitions checks them).

-- 消息: an event sent once. A sender that names the event (e.g. `maintenance-overdue:12:2026-11-20`)
-- gets at most one message per user for it, however often it runs.
ALTER TABLE message ADD COLUMN event_key varchar(120);
CREATE UNIQUE INDEX message_event_key ON message (user_id, event_key) WHERE event_key IS NOT NULL;

-- 保养计划: a cycle in days or in running hours (the hours of work reports on the equipment).
ALTER TABLE maintenance_plan ADD COLUMN cycle_type varchar(20) NOT NULL DEFAULT 'days' CHECK (cycle_type IN ('days', 'hours'));
ALTER TABLE maintenance_plan ALTER COLUMN cycle_days DROP NOT NULL;
ALTER TABLE maintenance_plan ADD COLUMN cycle_hours numeric(18,2) CHECK (cycle_hours > 0) CHECK (cycle_hours <= 100000);
ALTER TABLE maintenance_plan ADD COLUMN hours_since numeric(18,2);
ALTER TABLE maintenance_plan ADD CONSTRAINT maintenance_plan_cycle_check
  CHECK ((cycle_type = 'days' AND cycle_days IS NOT NULL) OR (cycle_type = 'hours' AND cycle_hours IS NOT NULL));
CREATE INDEX maintenance_plan_cycle_type_idx ON maintenance_plan (cycle_type, id);

-- 保养记录: the 领料出库 of the spare parts used (posted through the warehouse outbound service).
ALTER TABLE maintenance_record ADD COLUMN outbound_id bigint REFERENCES stock_outbound (id);
CREATE UNIQUE INDEX maintenance_record_outbound_id_key ON maintenance_record (outbound_id) WHERE outbound_id IS NOT NULL;

-- 报工 hours per equipment and day (running hours of 保养计划).
CREATE INDEX work_report_equipment_date_idx ON work_report (equipment_id, report_date);
