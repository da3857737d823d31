-- Hand-written (issue 42): the OEE rollup. A machine's states of one closed day (milliseconds per
-- state, the stop time by state and reason, the parts its signals counted), as
-- modules/equipment/oee.ts computes them from the facts, so that an OEE over a month sums
-- 200 × 31 rows in SQL instead of reading every signal and event. Only days that can no longer
-- change are kept (three local days back and older: a night shift runs into the next day, and
-- what is still open ends now). The postings keep it right in their own transaction: a trigger on
-- every fact the timeline reads deletes the days from that fact's day − 2 on (any business time
-- zone) and bumps the machine's generation; a reader that computed days from older facts does not
-- store them. Facts stamped within the last 12 hours (the live signals and operator events)
-- cannot touch a kept day and skip both. The table starts empty: a day is stored by the first OEE
-- query that computes it, so the existing history is filled by the first report over it.

CREATE TABLE oee_machine_day (
  equipment_id bigint NOT NULL,
  day date NOT NULL,
  -- The business time zone and the calculation's version the row was computed with; rows of
  -- another basis are not read.
  basis varchar(80) NOT NULL,
  -- Milliseconds in each state (whole milliseconds: sums are exact in any order).
  run_ms float8 NOT NULL,
  run_no_dispatch_ms float8 NOT NULL,
  idle_ms float8 NOT NULL,
  setup_ms float8 NOT NULL,
  material_ms float8 NOT NULL,
  labour_ms float8 NOT NULL,
  fault_ms float8 NOT NULL,
  other_ms float8 NOT NULL,
  planned_ms float8 NOT NULL,
  off_shift_ms float8 NOT NULL,
  signal_parts integer NOT NULL DEFAULT 0,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (equipment_id, day, basis)
);

-- The day's stop time by state and reason (the loss Pareto's rows), with its day.
CREATE TABLE oee_machine_day_stop (
  equipment_id bigint NOT NULL,
  day date NOT NULL,
  basis varchar(80) NOT NULL,
  state varchar(20) NOT NULL,
  reason varchar(500) NOT NULL,
  ms float8 NOT NULL,
  PRIMARY KEY (equipment_id, day, basis, state, reason),
  FOREIGN KEY (equipment_id, day, basis) REFERENCES oee_machine_day (equipment_id, day, basis) ON DELETE CASCADE
);

CREATE TABLE oee_rollup_gen (
  equipment_id bigint PRIMARY KEY,
  gen bigint NOT NULL DEFAULT 0
);
INSERT INTO oee_rollup_gen (equipment_id) SELECT id FROM equipment;

-- A fact of machine `eq` changed at `since`: forget its days from since's UTC day − 2 on.
CREATE FUNCTION oee_rollup_touch(eq bigint, since timestamptz) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF eq IS NULL OR since IS NULL OR since >= now() - interval '12 hours' THEN RETURN; END IF;
  INSERT INTO oee_rollup_gen AS g (equipment_id, gen) VALUES (eq, 1)
  ON CONFLICT (equipment_id) DO UPDATE SET gen = g.gen + 1;
  DELETE FROM oee_machine_day WHERE equipment_id = eq AND day >= (since AT TIME ZONE 'UTC')::date - 2;
END $$;

-- The same for a fact kept by local date (a dispatch's work date, a maintenance record's day).
CREATE FUNCTION oee_rollup_touch_day(eq bigint, d date) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF eq IS NULL OR d IS NULL OR d >= (now() AT TIME ZONE 'UTC')::date THEN RETURN; END IF;
  INSERT INTO oee_rollup_gen AS g (equipment_id, gen) VALUES (eq, 1)
  ON CONFLICT (equipment_id) DO UPDATE SET gen = g.gen + 1;
  DELETE FROM oee_machine_day WHERE equipment_id = eq AND day >= d - 2;
END $$;

-- Every day of machine `eq` (its calendar or its workshop changed).
CREATE FUNCTION oee_rollup_forget(eq bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO oee_rollup_gen AS g (equipment_id, gen) VALUES (eq, 1)
  ON CONFLICT (equipment_id) DO UPDATE SET gen = g.gen + 1;
  DELETE FROM oee_machine_day WHERE equipment_id = eq;
END $$;

-- Signals arrive in batches: one statement trigger, the machines in key order.
CREATE FUNCTION oee_rollup_signals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO oee_rollup_gen AS g (equipment_id, gen)
  SELECT equipment_id, 1 FROM changed_rows WHERE at < now() - interval '12 hours'
   GROUP BY equipment_id ORDER BY equipment_id
  ON CONFLICT (equipment_id) DO UPDATE SET gen = g.gen + 1;
  DELETE FROM oee_machine_day d
   USING (SELECT equipment_id, min(at) AS at FROM changed_rows WHERE at < now() - interval '12 hours'
           GROUP BY equipment_id) c
   WHERE d.equipment_id = c.equipment_id AND d.day >= (c.at AT TIME ZONE 'UTC')::date - 2;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_signal_insert AFTER INSERT ON machine_signal
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION oee_rollup_signals();
CREATE TRIGGER oee_rollup_signal_delete AFTER DELETE ON machine_signal
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION oee_rollup_signals();

CREATE FUNCTION oee_rollup_signal_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oee_rollup_touch(OLD.equipment_id, OLD.at);
  PERFORM oee_rollup_touch(NEW.equipment_id, NEW.at);
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_signal_update AFTER UPDATE ON machine_signal
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_signal_update();

-- The operator's events: the state from `at` on.
CREATE FUNCTION oee_rollup_dispatch_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM oee_rollup_touch(OLD.equipment_id, OLD.at); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM oee_rollup_touch(NEW.equipment_id, NEW.at); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_dispatch_event AFTER INSERT OR UPDATE OR DELETE ON dispatch_event
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_dispatch_event();

-- Repairs: 故障 from the report to the repair, or to now while open. Closing an open repair
-- changes nothing before its repair time.
CREATE FUNCTION oee_rollup_repair() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_end timestamptz;
  new_end timestamptz;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.equipment_id = NEW.equipment_id
     AND COALESCE(OLD.reported_at, OLD.created_at) = COALESCE(NEW.reported_at, NEW.created_at) THEN
    old_end := CASE WHEN OLD.repaired_at IS NOT NULL THEN OLD.repaired_at
                    WHEN OLD.status IN ('reported', 'dispatched', 'repairing') THEN 'infinity' END;
    new_end := CASE WHEN NEW.repaired_at IS NOT NULL THEN NEW.repaired_at
                    WHEN NEW.status IN ('reported', 'dispatched', 'repairing') THEN 'infinity' END;
    IF old_end IS DISTINCT FROM new_end THEN
      PERFORM oee_rollup_touch(NEW.equipment_id,
        CASE WHEN old_end IS NULL OR new_end IS NULL THEN COALESCE(NEW.reported_at, NEW.created_at)
             ELSE least(old_end, new_end) END);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM oee_rollup_touch(OLD.equipment_id, COALESCE(OLD.reported_at, OLD.created_at)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM oee_rollup_touch(NEW.equipment_id, COALESCE(NEW.reported_at, NEW.created_at)); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_repair AFTER INSERT OR UPDATE OR DELETE ON equipment_repair
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_repair();

-- Maintenance records: their minutes on their day.
CREATE FUNCTION oee_rollup_maintenance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM oee_rollup_touch_day(OLD.equipment_id, OLD.done_date); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM oee_rollup_touch_day(NEW.equipment_id, NEW.done_date); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_maintenance AFTER INSERT OR UPDATE OR DELETE ON maintenance_record
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_maintenance();

-- Dispatches given for a shift make it scheduled time (its work date, its shift, not closed).
CREATE FUNCTION oee_rollup_dispatch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.equipment_id IS NOT DISTINCT FROM NEW.equipment_id
     AND OLD.work_date IS NOT DISTINCT FROM NEW.work_date AND OLD.shift IS NOT DISTINCT FROM NEW.shift
     AND (OLD.status = 'closed') = (NEW.status = 'closed') THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN PERFORM oee_rollup_touch_day(OLD.equipment_id, OLD.work_date); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM oee_rollup_touch_day(NEW.equipment_id, NEW.work_date); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_dispatch AFTER INSERT OR UPDATE OR DELETE ON work_dispatch
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_dispatch();

-- A workshop's shift calendar: every day of its machines.
CREATE FUNCTION oee_rollup_calendar() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oee_rollup_forget(e.id)
     FROM equipment e
    WHERE e.workshop_id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.workshop_id END,
                            CASE WHEN TG_OP <> 'DELETE' THEN NEW.workshop_id END)
    ORDER BY e.id;
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_calendar AFTER INSERT OR UPDATE OR DELETE ON work_calendar
  FOR EACH ROW EXECUTE FUNCTION oee_rollup_calendar();

-- A machine moved to another workshop works that workshop's calendar.
CREATE FUNCTION oee_rollup_equipment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM oee_rollup_forget(NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER oee_rollup_equipment AFTER UPDATE OF workshop_id ON equipment
  FOR EACH ROW WHEN (OLD.workshop_id IS DISTINCT FROM NEW.workshop_id) EXECUTE FUNCTION oee_rollup_equipment();
