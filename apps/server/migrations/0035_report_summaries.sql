-- Hand-written
-- Summaries behind the production reports (生产部 › 统计报表), kept by
-- modules/production/report-rollup.ts in the transactions that change what they sum up:
--
-- * work_report_day_rollup: the daily twin of work_report_rollup (0029), same keys with the report
--   date instead of its month, detail rows per product and summary rows with product_id 0. A report
--   over a date range reads whole months from the monthly rollup and the days at either end of the
--   range from this one.
-- * work_report_process_rollup: posted reports per month and process only (工序月产能分析), a few
--   rows a month instead of every workshop × operator × scrap reason.
-- * flow_card_summary: one row per flow card with its step progress (steps, steps done, finished and
--   scrapped pieces, what waits at the current step and where, what waits in each kind of workshop),
--   recomputed from the card's steps whenever they change (开卡, 拆分, 合并, 报工入账/反审核, 委外).
-- * flow_card_wip: what waits on a card per workshop of its route (0 = a step without workshop);
--   rows exist for every workshop of the route, the partial index holds only those with pieces.
CREATE TABLE work_report_day_rollup (
  day date NOT NULL,
  workshop_id bigint NOT NULL,
  process_id bigint NOT NULL,
  product_id bigint NOT NULL,
  operator_id bigint NOT NULL,
  scrap_reason varchar(20) NOT NULL,
  report_count integer NOT NULL DEFAULT 0,
  good_quantity numeric(18,4) NOT NULL DEFAULT 0,
  work_scrap_quantity numeric(18,4) NOT NULL DEFAULT 0,
  material_scrap_quantity numeric(18,4) NOT NULL DEFAULT 0,
  rework_quantity numeric(18,4) NOT NULL DEFAULT 0,
  hours numeric(18,2) NOT NULL DEFAULT 0,
  standard_minutes numeric(24,6) NOT NULL DEFAULT 0,
  PRIMARY KEY (day, workshop_id, process_id, product_id, operator_id, scrap_reason)
);
CREATE INDEX work_report_day_rollup_product_idx ON work_report_day_rollup (product_id, day);

CREATE TABLE work_report_process_rollup (
  month date NOT NULL,
  process_id bigint NOT NULL,
  report_count integer NOT NULL DEFAULT 0,
  good_quantity numeric(18,4) NOT NULL DEFAULT 0,
  hours numeric(18,2) NOT NULL DEFAULT 0,
  standard_minutes numeric(24,6) NOT NULL DEFAULT 0,
  PRIMARY KEY (month, process_id)
);

CREATE TABLE flow_card_summary (
  flow_card_id bigint PRIMARY KEY REFERENCES flow_card (id) ON DELETE CASCADE,
  production_order_id bigint NOT NULL,
  sale_order_id bigint,
  steps_total integer NOT NULL DEFAULT 0,
  steps_done integer NOT NULL DEFAULT 0,
  finished_quantity numeric(18,4) NOT NULL DEFAULT 0,
  scrap_quantity numeric(18,4) NOT NULL DEFAULT 0,
  current_seq integer,
  current_process_id bigint,
  current_workshop_id bigint,
  current_outsourced boolean NOT NULL DEFAULT false,
  current_waiting numeric(18,4) NOT NULL DEFAULT 0,
  machine_waiting numeric(18,4) NOT NULL DEFAULT 0,
  grinding_waiting numeric(18,4) NOT NULL DEFAULT 0,
  inspect_waiting numeric(18,4) NOT NULL DEFAULT 0,
  assembly_waiting numeric(18,4) NOT NULL DEFAULT 0,
  outsourced_waiting numeric(18,4) NOT NULL DEFAULT 0
);
CREATE INDEX flow_card_summary_sale_order_idx ON flow_card_summary (sale_order_id);

CREATE TABLE flow_card_wip (
  flow_card_id bigint NOT NULL REFERENCES flow_card (id) ON DELETE CASCADE,
  workshop_id bigint NOT NULL,
  waiting numeric(18,4) NOT NULL DEFAULT 0,
  PRIMARY KEY (flow_card_id, workshop_id)
);
-- The card reports select cards by 开卡 time.
CREATE INDEX flow_card_created_at_idx ON flow_card (created_at);

CREATE INDEX flow_card_wip_waiting_idx ON flow_card_wip (workshop_id, flow_card_id) WHERE waiting > 0;

-- Backfill from the reports posted and the cards opened before this migration.
INSERT INTO work_report_day_rollup (day, workshop_id, process_id, product_id, operator_id, scrap_reason, report_count,
                                    good_quantity, work_scrap_quantity, material_scrap_quantity, rework_quantity, hours,
                                    standard_minutes)
SELECT r.report_date, COALESCE(r.workshop_id, 0), r.process_id, p.product_id, COALESCE(r.operator_id, 0),
       COALESCE(r.scrap_reason, ''), count(*)::int, sum(r.good_quantity), sum(r.work_scrap_quantity),
       sum(r.material_scrap_quantity), sum(r.rework_quantity), COALESCE(sum(r.hours), 0),
       COALESCE(sum(r.good_quantity * COALESCE(t.standard_minutes, 0)), 0)
  FROM work_report r LEFT JOIN workshop_task t ON t.id = r.task_id
 CROSS JOIN LATERAL (VALUES (r.product_id), (0)) p(product_id)
 WHERE r.status = 'posted'
 GROUP BY 1, 2, 3, 4, 5, 6;

INSERT INTO work_report_process_rollup (month, process_id, report_count, good_quantity, hours, standard_minutes)
SELECT month, process_id, sum(report_count)::int, sum(good_quantity), sum(hours), sum(standard_minutes)
  FROM work_report_rollup WHERE product_id = 0
 GROUP BY month, process_id;

INSERT INTO flow_card_summary (flow_card_id, production_order_id, sale_order_id, steps_total, steps_done,
                               finished_quantity, scrap_quantity, current_seq, current_process_id, current_workshop_id,
                               current_outsourced, current_waiting, machine_waiting, grinding_waiting, inspect_waiting,
                               assembly_waiting, outsourced_waiting)
SELECT c.id, c.production_order_id, o.sale_order_id, count(*)::int,
       count(*) FILTER (WHERE st.input_quantity > 0 AND st.waiting = 0)::int,
       COALESCE((array_agg(st.good_quantity ORDER BY st.seq DESC))[1], 0),
       COALESCE(sum(st.work_scrap_quantity + st.material_scrap_quantity), 0),
       c.current_seq, max(st.process_id) FILTER (WHERE st.seq = c.current_seq),
       max(st.workshop_id) FILTER (WHERE st.seq = c.current_seq),
       COALESCE(bool_or(st.outsourced) FILTER (WHERE st.seq = c.current_seq), false),
       COALESCE(sum(st.waiting) FILTER (WHERE st.seq = c.current_seq), 0),
       COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND NOT st.outsourced AND st.workshop_type = 'machine'), 0),
       COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND NOT st.outsourced AND st.workshop_type = 'grinding'), 0),
       COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND NOT st.outsourced AND st.workshop_type = 'inspect'), 0),
       COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND NOT st.outsourced AND st.workshop_type = 'assembly'), 0),
       COALESCE(sum(st.waiting) FILTER (WHERE st.waiting > 0 AND st.outsourced), 0)
  FROM flow_card c
  JOIN production_order o ON o.id = c.production_order_id
  JOIN (SELECT s.*, w.type AS workshop_type,
               s.input_quantity - s.good_quantity - s.work_scrap_quantity - s.material_scrap_quantity AS waiting
          FROM flow_card_step s LEFT JOIN workshop w ON w.id = s.workshop_id) st ON st.flow_card_id = c.id
 GROUP BY c.id, c.production_order_id, o.sale_order_id, c.current_seq;

INSERT INTO flow_card_wip (flow_card_id, workshop_id, waiting)
SELECT s.flow_card_id, COALESCE(s.workshop_id, 0),
       sum(s.input_quantity - s.good_quantity - s.work_scrap_quantity - s.material_scrap_quantity)
  FROM flow_card_step s
 GROUP BY 1, 2;
