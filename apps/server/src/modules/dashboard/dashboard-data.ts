import { SCRAP_REASON_OPTIONS, WORKSHOP_KINDS } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { businessDay } from '../../platform/numbering.ts';
import { missedChecks } from '../equipment/equipment-alerts.ts';

/** A dashboard's scope: the whole factory or one workshop kind. */
export type DashboardScope = 'whole' | 'machine' | 'grinding' | 'inspect' | 'assembly';
export const DASHBOARD_SCOPES: readonly DashboardScope[] = [
  'whole',
  'machine',
  'grinding',
  'inspect',
  'assembly',
];

/** The permission of a scope's dashboard page (menu-tree: `dashboard:<scope>:query`). */
export const scopePermission = (scope: DashboardScope) => `dashboard:${scope}:query` as const;

/** Days the scrap Pareto and the yield trend look back. */
export const PARETO_DAYS = 7;

const SHIFT_LABEL: Record<string, string> = { day: '白班', night: '夜班' };
const REASON_LABEL = new Map(SCRAP_REASON_OPTIONS.map((o) => [o.value, o.label]));
const WORKSHOP_NAME = new Map(WORKSHOP_KINDS.map((k) => [k.type, k.name]));

const rate = (part: Decimal, whole: Decimal) =>
  whole.gt(0) ? part.div(whole).times(100).toDecimalPlaces(1).toNumber() : null;

/**
 * Everything one dashboard shows, computed in one read (a handful of indexed queries over today's
 * rows): the stream sends it whole, so a screen never asks again on its own.
 */
/** The 漏点检 a board lists at most (the latest). */
const MISSED_CHECKS_SHOWN = 20;

export async function dashboardSnapshot(db: Db, scope: DashboardScope, timeZone: string) {
  // Every commit before this instant is in the snapshot (each query sees what committed before it).
  const startedAt = Date.now();
  const day = businessDay(new Date(startedAt), timeZone);
  const w = scope === 'whole' ? null : scope;
  const kinds = WORKSHOP_KINDS.filter((k) => !w || k.type === w);
  // A workshop's rollup rows: those of its workshops (the rollup keys reports by workshop id).
  const inScope = w ? sql`JOIN workshop ws ON ws.id = r.workshop_id AND ws.type = ${w}` : sql``;

  const [plan, actual, orders, orderCounts, pareto, week, equipment, ranking, recent] = await Promise.all([
    prepared(sql<{ workshopType: string; shift: string; planned: string }>`
      SELECT workshop_type, shift, sum(quantity)::text AS planned
        FROM work_dispatch
       WHERE work_date = ${day} AND status <> 'closed' AND (${w}::text IS NULL OR workshop_type = ${w})
       GROUP BY workshop_type, shift`).execute(db),
    prepared(sql<{
      workshopType: string;
      shift: string;
      good: string;
      scrap: string;
      rework: string;
      reports: number;
    }>`
      SELECT workshop_type, shift, sum(good_quantity)::text AS good,
             sum(work_scrap_quantity + material_scrap_quantity)::text AS scrap,
             sum(rework_quantity)::text AS rework, count(*)::int AS reports
        FROM work_report
       WHERE report_date = ${day} AND status = 'posted' AND (${w}::text IS NULL OR workshop_type = ${w})
       GROUP BY workshop_type, shift`).execute(db),
    prepared(sql<Record<string, any>>`
      SELECT p.id, p.doc_no, m.name AS product_name, m.spec AS product_spec, p.quantity::text AS quantity,
             p.produced_quantity::text AS produced_quantity, p.due_date, p.status, p.priority,
             (p.due_date < ${day}::date) AS late
        FROM production_order p JOIN material m ON m.id = p.product_id
       WHERE p.status IN ('released', 'producing')
         AND (${w}::text IS NULL OR EXISTS (
               SELECT 1 FROM workshop_task t WHERE t.production_order_id = p.id AND t.workshop_type = ${w}
                  AND t.status NOT IN ('completed', 'closed')))
       ORDER BY (p.due_date < ${day}::date) DESC, p.due_date, p.id
       LIMIT 12`).execute(db),
    prepared(sql<{ inProgress: number; late: number; producing: number }>`
      SELECT count(*)::int AS in_progress, count(*) FILTER (WHERE p.due_date < ${day}::date)::int AS late,
             count(*) FILTER (WHERE p.status = 'producing')::int AS producing
        FROM production_order p
       WHERE p.status IN ('released', 'producing')
         AND (${w}::text IS NULL OR EXISTS (
               SELECT 1 FROM workshop_task t WHERE t.production_order_id = p.id AND t.workshop_type = ${w}
                  AND t.status NOT IN ('completed', 'closed')))`).execute(db),
    // The week's figures from the day rollup's every-product rows (product_id 0): a few rows a day
    // whatever the history, where summing work_report's rows grew with it.
    prepared(sql<{ scrapReason: string; quantity: string }>`
      SELECT r.scrap_reason, sum(r.work_scrap_quantity + r.material_scrap_quantity)::text AS quantity
        FROM work_report_day_rollup r ${inScope}
       WHERE r.product_id = 0 AND r.scrap_reason <> ''
         AND r.day > ${day}::date - ${PARETO_DAYS}::int AND r.day <= ${day}::date
       GROUP BY r.scrap_reason
      HAVING sum(r.work_scrap_quantity + r.material_scrap_quantity) > 0
       ORDER BY sum(r.work_scrap_quantity + r.material_scrap_quantity) DESC, r.scrap_reason`).execute(db),
    prepared(sql<{ good: string; scrap: string; rework: string }>`
      SELECT COALESCE(sum(r.good_quantity), 0)::text AS good,
             COALESCE(sum(r.work_scrap_quantity + r.material_scrap_quantity), 0)::text AS scrap,
             COALESCE(sum(r.rework_quantity), 0)::text AS rework
        FROM work_report_day_rollup r ${inScope}
       WHERE r.product_id = 0 AND r.day > ${day}::date - ${PARETO_DAYS}::int AND r.day <= ${day}::date`).execute(
      db,
    ),
    prepared(sql<Record<string, any>>`
      SELECT e.id, e.code, e.name, ws.type AS workshop_type, e.status AS ledger_status,
             r.doc_no AS repair_no, r.status AS repair_status,
             d.doc_no AS dispatch_no, u.first_name AS operator_name, d.started_at,
             sg.state AS signal_state, sg.at AS signal_at
        FROM equipment e
        JOIN workshop ws ON ws.id = e.workshop_id
        LEFT JOIN LATERAL (
              SELECT doc_no, status FROM equipment_repair
               WHERE equipment_id = e.id AND status IN ('reported', 'dispatched', 'repairing')
               ORDER BY id DESC LIMIT 1) r ON true
        LEFT JOIN LATERAL (
              SELECT doc_no, operator_id, started_at FROM work_dispatch
               WHERE equipment_id = e.id AND status = 'started'
               ORDER BY started_at DESC NULLS LAST, id DESC LIMIT 1) d ON true
        LEFT JOIN app_user u ON u.id = d.operator_id
        -- The machine's last state signal (MQTT or the signed API), when it sends any.
        LEFT JOIN LATERAL (
              SELECT state, at FROM machine_signal
               WHERE equipment_id = e.id AND state IS NOT NULL
               ORDER BY at DESC LIMIT 1) sg ON true
       WHERE e.status <> 'scrapped' AND (${w}::text IS NULL OR ws.type = ${w})
       ORDER BY ws.type, e.code
       LIMIT 200`).execute(db),
    prepared(sql<Record<string, any>>`
      SELECT r.operator_id, u.first_name AS operator_name, sum(r.good_quantity)::text AS good,
             sum(r.work_scrap_quantity + r.material_scrap_quantity)::text AS scrap, count(*)::int AS reports
        FROM work_report r JOIN app_user u ON u.id = r.operator_id
       WHERE r.report_date = ${day} AND r.status = 'posted' AND (${w}::text IS NULL OR r.workshop_type = ${w})
       GROUP BY r.operator_id, u.first_name
       ORDER BY sum(r.good_quantity) DESC, r.operator_id
       LIMIT 10`).execute(db),
    prepared(sql<Record<string, any>>`
      SELECT r.id, r.doc_no, CASE WHEN (r.posted_at AT TIME ZONE ${timeZone})::date = ${day}::date
                  THEN to_char(r.posted_at AT TIME ZONE ${timeZone}, 'HH24:MI:SS')
                  ELSE to_char(r.posted_at AT TIME ZONE ${timeZone}, 'MM-DD HH24:MI') END AS posted_at, r.workshop_type, r.shift, u.first_name AS operator_name,
             m.name AS product_name, m.spec AS product_spec, pr.name AS process_name,
             r.good_quantity::text AS good, (r.work_scrap_quantity + r.material_scrap_quantity)::text AS scrap
        FROM work_report r
        LEFT JOIN app_user u ON u.id = r.operator_id
        LEFT JOIN material m ON m.id = r.product_id
        LEFT JOIN process pr ON pr.id = r.process_id
       WHERE r.status = 'posted' AND r.posted_at IS NOT NULL ${w ? sql`AND r.workshop_type = ${w}` : sql``}
       ORDER BY r.posted_at DESC, r.id DESC
       LIMIT 10`).execute(db),
  ]);

  // Output against plan, per workshop and shift, with the day totals.
  const cell = (type: string, shift: string) => {
    const p = plan.rows.find((r) => r.workshopType === type && r.shift === shift);
    const a = actual.rows.find((r) => r.workshopType === type && r.shift === shift);
    return {
      shift,
      shiftLabel: SHIFT_LABEL[shift],
      planned: new Decimal(p?.planned ?? 0),
      good: new Decimal(a?.good ?? 0),
      scrap: new Decimal(a?.scrap ?? 0),
      rework: new Decimal(a?.rework ?? 0),
      reports: a?.reports ?? 0,
    };
  };
  const out = (c: { planned: Decimal; good: Decimal; scrap: Decimal; rework: Decimal }) => ({
    planned: c.planned.toString(),
    good: c.good.toString(),
    scrap: c.scrap.toString(),
    rework: c.rework.toString(),
    achievement: rate(c.good, c.planned),
  });
  const totals = {
    planned: new Decimal(0),
    good: new Decimal(0),
    scrap: new Decimal(0),
    rework: new Decimal(0),
  };
  const output = kinds.map((k) => {
    const shifts = ['day', 'night'].map((s) => cell(k.type, s));
    const sum = {
      planned: shifts[0].planned.plus(shifts[1].planned),
      good: shifts[0].good.plus(shifts[1].good),
      scrap: shifts[0].scrap.plus(shifts[1].scrap),
      rework: shifts[0].rework.plus(shifts[1].rework),
    };
    for (const key of ['planned', 'good', 'scrap', 'rework'] as const)
      totals[key] = totals[key].plus(sum[key]);
    return {
      workshopType: k.type,
      workshopName: k.name,
      ...out(sum),
      shifts: shifts.map((c) => ({
        shift: c.shift,
        shiftLabel: c.shiftLabel,
        reports: c.reports,
        ...out(c),
      })),
    };
  });

  // First-pass yield: good pieces of all that went through (good + scrap + rework) the first time.
  const fpy = (good: Decimal, scrap: Decimal, rework: Decimal) => rate(good, good.plus(scrap).plus(rework));
  const weekRow = week.rows[0];
  const paretoTotal = pareto.rows.reduce((s, r) => s.plus(r.quantity), new Decimal(0));
  let running = new Decimal(0);

  // 漏点检: shifts in which an equipment worked without its check (equipment/equipment-alerts.ts).
  const missed = await missedChecks(db, day, { workshopType: w, limit: MISSED_CHECKS_SHOWN });

  const equipmentRows = equipment.rows.map((e) => {
    const down = !!e.repairNo || e.ledgerStatus === 'repair';
    const state = down ? 'down' : e.dispatchNo ? 'running' : 'idle';
    return {
      id: e.id,
      code: e.code,
      name: e.name,
      workshopType: e.workshopType,
      state,
      repairNo: e.repairNo ?? null,
      repairStatus: e.repairStatus ?? null,
      dispatchNo: e.dispatchNo ?? null,
      operatorName: e.operatorName ?? null,
      signalState: (e.signalState as 'run' | 'stop' | 'fault' | null) ?? null,
      signalAt: e.signalAt ? new Date(e.signalAt).toISOString() : null,
    };
  });
  const count = (s: string) => equipmentRows.filter((e) => e.state === s).length;

  return {
    scope,
    scopeName: w ? (WORKSHOP_NAME.get(w) ?? w) : '全厂',
    day,
    /** Epoch milliseconds: the computation began (it shows every commit before) and ended. */
    startedAt,
    computedAt: Date.now(),
    output,
    totals: out(totals),
    orders: {
      inProgress: orderCounts.rows[0]?.inProgress ?? 0,
      producing: orderCounts.rows[0]?.producing ?? 0,
      late: orderCounts.rows[0]?.late ?? 0,
      list: orders.rows.map((o) => ({
        id: o.id,
        docNo: o.docNo,
        productName: o.productName,
        productSpec: o.productSpec,
        quantity: o.quantity,
        producedQuantity: o.producedQuantity,
        dueDate: o.dueDate,
        status: o.status,
        priority: o.priority,
        late: !!o.late,
        progress: rate(new Decimal(o.producedQuantity), new Decimal(o.quantity)),
      })),
    },
    quality: {
      today: { ...out(totals), firstPassYield: fpy(totals.good, totals.scrap, totals.rework) },
      days: PARETO_DAYS,
      period: {
        good: weekRow.good,
        scrap: weekRow.scrap,
        rework: weekRow.rework,
        firstPassYield: fpy(
          new Decimal(weekRow.good),
          new Decimal(weekRow.scrap),
          new Decimal(weekRow.rework),
        ),
      },
      pareto: pareto.rows.map((r) => {
        running = running.plus(r.quantity);
        return {
          reason: r.scrapReason,
          label: REASON_LABEL.get(r.scrapReason) ?? r.scrapReason,
          quantity: r.quantity,
          cumulative: rate(running, paretoTotal),
        };
      }),
    },
    equipment: {
      running: count('running'),
      idle: count('idle'),
      down: count('down'),
      list: equipmentRows,
    },
    missedChecks: { list: missed, more: missed.length >= MISSED_CHECKS_SHOWN },
    ranking: ranking.rows.map((r, i) => ({
      rank: i + 1,
      operatorId: r.operatorId,
      operatorName: r.operatorName,
      good: r.good,
      scrap: r.scrap,
      reports: r.reports,
    })),
    recent: recent.rows.map((r) => ({
      id: r.id,
      docNo: r.docNo,
      postedAt: r.postedAt,
      workshopType: r.workshopType,
      workshopName: WORKSHOP_NAME.get(r.workshopType) ?? r.workshopType,
      shiftLabel: SHIFT_LABEL[r.shift] ?? r.shift,
      operatorName: r.operatorName,
      productName: r.productName,
      productSpec: r.productSpec,
      processName: r.processName,
      good: r.good,
      scrap: r.scrap,
    })),
  };
}

export type DashboardSnapshot = Awaited<ReturnType<typeof dashboardSnapshot>>;
