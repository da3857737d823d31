import {
  calendarProblems,
  DEFAULT_WORK_CALENDAR,
  type DispatchTrack,
  emptyStateMinutes,
  localDay,
  localMidnight,
  MACHINE_STATE_OPTIONS,
  type MachineSignal,
  type MachineState,
  machineStateLabel,
  machineTimeline,
  type OeeInput,
  oee,
  type ShiftInterval,
  SIX_BIG_LOSSES,
  STATE_LOSS,
  shiftIntervals,
  stateMinutes,
  stopReasonOf,
  type TimelineSegment,
  type WorkCalendar,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { liveNotify } from '../../platform/live/notify.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import { getBusinessTimeZone } from '../../platform/resource/query.ts';

/**
 * Machine time and OEE (issue 42; docs/oee.md): each machine's states per day from the operator's
 * dispatch events, repairs, maintenance, machine signals and its workshop's shift calendar
 * (packages/domain/src/equipment/oee.ts), and OEE = availability × performance × quality with
 * the pieces of approved 报工 at their task's standard minutes. Workshops and the plant sum their
 * machines' minutes and pieces.
 */

export const OEE_QUERY = 'factory:oee:query';
export const OEE_EXPORT = 'factory:oee:export';
export const OEE_SETTING = 'factory:oee:setting';
export const OEE_SIGNAL = 'factory:oee:signal';

/** The calendar of a workshop that has none of its own (the domain's, which 自动排产 works too). */
export const DEFAULT_CALENDAR: WorkCalendar = DEFAULT_WORK_CALENDAR;

const DAY_MS = 86_400_000;
/** At most this many days in one OEE request (a quarter): the timelines are computed per request. */
const MAX_DAYS = 93;
const APPROVED = sql.join(['approved', 'inspecting', 'inspected', 'posted'].map((s) => sql.lit(s)));

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The business time zone's offset from UTC at an instant, in minutes. */
function offsetAt(at: number): number {
  const tz = getBusinessTimeZone();
  // A formatter costs far more to make than to use: one per time zone.
  let format = formatters.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(tz, format);
  }
  const parts = format.formatToParts(new Date(at));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return (
    (Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute')) -
      Math.floor(at / 60_000) * 60_000) /
    60_000
  );
}

const dayPattern = (label: string) =>
  z
    .string({ error: `${label}必须是日期` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), `${label}不是有效日期`);

const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

const rangeQuery = z
  .strictObject({
    from: dayPattern('开始日期'),
    to: dayPattern('结束日期'),
    workshopId: zx.id.optional(),
    equipmentId: zx.id.optional(),
    workshopType: z
      .enum(['machine', 'grinding', 'inspect', 'assembly'], { error: '车间类型无效' })
      .optional(),
  })
  .refine((q) => q.from <= q.to, { message: '开始日期不能晚于结束日期', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS < MAX_DAYS, {
    message: `一次最多查询 ${MAX_DAYS} 天`,
    path: ['to'],
  });

const summaryQuery = z
  .strictObject({
    from: dayPattern('开始日期'),
    to: dayPattern('结束日期'),
    workshopId: zx.id.optional(),
    equipmentId: zx.id.optional(),
    workshopType: z
      .enum(['machine', 'grinding', 'inspect', 'assembly'], { error: '车间类型无效' })
      .optional(),
    level: z
      .enum(['plant', 'workshop', 'machine'], { error: '层级只能是 plant、workshop 或 machine' })
      .default('machine'),
    period: z
      .enum(['all', 'day', 'week', 'month'], { error: '周期只能是 all、day、week 或 month' })
      .default('all'),
  })
  .refine((q) => q.from <= q.to, { message: '开始日期不能晚于结束日期', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS < MAX_DAYS, {
    message: `一次最多查询 ${MAX_DAYS} 天`,
    path: ['to'],
  });

type Range = z.infer<typeof rangeQuery>;

interface Machine {
  id: number;
  code: string;
  name: string;
  workshopId: number;
  workshopName: string;
  oeeTarget: number | null;
}

/** A day's stop time of one state and reason, in milliseconds (the loss Pareto's rows). */
export interface StopTime {
  state: MachineState;
  reason: string;
  ms: number;
}

/** One machine's one day: its timeline and the figures OEE is computed from. */
export interface MachineDay {
  machine: Machine;
  day: string;
  /** The day's states; empty when the day was read from the rollup (oee_machine_day). */
  segments: TimelineSegment[];
  input: OeeInput;
  /** The day's milliseconds per state. */
  ms: Record<MachineState, number>;
  stops: StopTime[];
  signalParts: number;
}

/** The Pareto's reason of a stop segment: the declared pause reason, 短停(信号), or the state. */
function stopReason(s: TimelineSegment): string {
  return ['setup', 'material', 'labour', 'other'].includes(s.state) && s.reason
    ? stopReasonOf(s.reason).label
    : s.reason === '短停(信号)'
      ? '短停(信号)'
      : machineStateLabel(s.state);
}

function stopTimes(segments: TimelineSegment[]): StopTime[] {
  const by = new Map<string, StopTime>();
  for (const s of segments) {
    if (!STATE_LOSS[s.state]) continue;
    const reason = stopReason(s);
    const key = `${s.state}:${reason}`;
    const row = by.get(key) ?? { state: s.state, reason, ms: 0 };
    row.ms += s.to - s.from;
    by.set(key, row);
  }
  return [...by.values()];
}

async function machinesOf(
  db: Db,
  q: { workshopId?: number; equipmentId?: number; workshopType?: string },
): Promise<Machine[]> {
  const r = await sql<Machine>`
    SELECT e.id::int AS id, e.code, e.name, e.workshop_id::int AS workshop_id, w.name AS workshop_name,
           s.oee_target::float8 AS oee_target
      FROM equipment e JOIN workshop w ON w.id = e.workshop_id
      LEFT JOIN machine_setting s ON s.equipment_id = e.id
     WHERE e.status <> 'scrapped'
       ${q.workshopId ? sql`AND e.workshop_id = ${q.workshopId}` : sql``}
       ${q.equipmentId ? sql`AND e.id = ${q.equipmentId}` : sql``}
       ${q.workshopType ? sql`AND w.type = ${q.workshopType}` : sql``}
     ORDER BY w.id, e.code`.execute(db);
  return r.rows;
}

export async function calendarOf(db: Db, workshopId: number): Promise<WorkCalendar> {
  const r = await sql<{ calendar: WorkCalendar }>`
    SELECT calendar FROM work_calendar WHERE workshop_id = ${workshopId}`.execute(db);
  return r.rows[0]?.calendar ?? DEFAULT_CALENDAR;
}

const idList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}`));

/**
 * The machines' days of a range: the machines' facts read in a few statements, each machine's
 * timeline computed once over the range and cut at the local midnights.
 */
async function computeDays(
  db: Db,
  machines: Machine[],
  q: { from: string; to: string },
): Promise<MachineDay[]> {
  const from = localMidnight(q.from, offsetAt(Date.parse(`${q.from}T00:00:00Z`)));
  const end = nextDay(q.to);
  // Up to now: what is still open (a dispatch, a pause, a repair, the last signal) ends now, and
  // the rest of today is not counted yet.
  const to = Math.max(
    from,
    Math.min(localMidnight(end, offsetAt(Date.parse(`${end}T00:00:00Z`))), Date.now()),
  );
  const ids = idList(machines.map((m) => m.id));
  const fromTs = new Date(from).toISOString();
  const toTs = new Date(to).toISOString();
  const [calendars, events, repairs, maintenance, signals, assigned] = await Promise.all([
    sql<{ workshopId: number; calendar: WorkCalendar }>`
      SELECT workshop_id::int AS workshop_id, calendar FROM work_calendar`.execute(db),
    // The events of every dispatch on these machines that is open at some time in the range.
    sql<{
      equipmentId: number;
      dispatchId: number;
      kind: DispatchTrack['events'][number]['kind'];
      reason: string | null;
      at: Date;
    }>`
      SELECT e.equipment_id::int AS equipment_id, e.dispatch_id::int AS dispatch_id, e.kind, e.reason, e.at
        FROM dispatch_event e
       WHERE e.equipment_id IN (${ids}) AND e.at < ${toTs}::timestamptz
         AND e.dispatch_id IN (
           SELECT x.dispatch_id FROM dispatch_event x
            WHERE x.equipment_id IN (${ids}) AND x.at < ${toTs}::timestamptz
            GROUP BY x.dispatch_id
           HAVING max(x.at) >= ${fromTs}::timestamptz OR bool_and(x.kind NOT IN ('complete', 'close')))
       ORDER BY e.dispatch_id, e.at, e.id`.execute(db),
    sql<{ id: number; equipmentId: number; from: Date; to: Date | null }>`
      SELECT r.id::int AS id, r.equipment_id::int AS equipment_id, COALESCE(r.reported_at, r.created_at) AS from,
             r.repaired_at AS to
        FROM equipment_repair r
       WHERE r.equipment_id IN (${ids})
         AND (r.repaired_at IS NOT NULL OR r.status IN ('reported', 'dispatched', 'repairing'))
         AND COALESCE(r.reported_at, r.created_at) < ${toTs}::timestamptz
         AND (r.repaired_at IS NULL OR r.repaired_at > ${fromTs}::timestamptz)`.execute(db),
    sql<{ id: number; equipmentId: number; day: string; minutes: number }>`
      SELECT m.id::int AS id, m.equipment_id::int AS equipment_id, to_char(m.done_date, 'YYYY-MM-DD') AS day,
             m.minutes
        FROM maintenance_record m
       WHERE m.equipment_id IN (${ids}) AND m.minutes > 0
         AND m.done_date BETWEEN ${q.from}::date AND ${q.to}::date`.execute(db),
    sql<{ equipmentId: number; at: Date; state: MachineSignal['state'] | null; partCount: number | null }>`
      SELECT s.equipment_id::int AS equipment_id, s.at, s.state, s.part_count
        FROM machine_signal s
       WHERE s.equipment_id IN (${ids}) AND s.at >= ${fromTs}::timestamptz AND s.at < ${toTs}::timestamptz
      UNION ALL
      SELECT p.equipment_id, p.at, p.state, NULL
        FROM (SELECT DISTINCT ON (s.equipment_id) s.equipment_id::int AS equipment_id, s.at, s.state
                FROM machine_signal s
               WHERE s.equipment_id IN (${ids}) AND s.at < ${fromTs}::timestamptz AND s.state IS NOT NULL
               ORDER BY s.equipment_id, s.at DESC) p
       ORDER BY 1, 2`.execute(db),
    // The shifts each machine was given work for (a dispatch waiting in its shift is scheduled time).
    sql<{ equipmentId: number; day: string; shift: string }>`
      SELECT DISTINCT d.equipment_id::int AS equipment_id, to_char(d.work_date, 'YYYY-MM-DD') AS day, d.shift
        FROM work_dispatch d
       WHERE d.equipment_id IN (${ids}) AND d.status <> 'closed'
         AND d.work_date BETWEEN ${q.from}::date - 1 AND ${q.to}::date`.execute(db),
  ]);
  const calendar = new Map(calendars.rows.map((c) => [c.workshopId, c.calendar]));
  const by = <T extends { equipmentId: number }>(rows: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rows) {
      const l = m.get(r.equipmentId);
      if (l) l.push(r);
      else m.set(r.equipmentId, [r]);
    }
    return m;
  };
  const eventsBy = by(events.rows);
  const repairsBy = by(repairs.rows);
  const maintBy = by(maintenance.rows);
  const signalsBy = by(signals.rows);
  const assignedBy = new Map<number, Set<string>>();
  for (const a of assigned.rows) {
    const set = assignedBy.get(a.equipmentId) ?? new Set<string>();
    set.add(`${a.day}:${a.shift}`);
    assignedBy.set(a.equipmentId, set);
  }
  const days: string[] = [];
  for (let d = q.from; d <= q.to; d = nextDay(d)) days.push(d);
  const shiftCache = new Map<number, ShiftInterval[]>();
  const out: MachineDay[] = [];
  for (const m of machines) {
    let shifts = shiftCache.get(m.workshopId);
    if (!shifts) {
      const cal = calendar.get(m.workshopId) ?? DEFAULT_CALENDAR;
      // The day before too: a night shift that began then runs into the range.
      const before = new Date(Date.parse(`${q.from}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
      shifts = shiftIntervals(cal, before, end, offsetAt(from));
      shiftCache.set(m.workshopId, shifts);
    }
    const tracks = new Map<number, DispatchTrack>();
    for (const e of eventsBy.get(m.id) ?? []) {
      const t = tracks.get(e.dispatchId) ?? { dispatchId: e.dispatchId, events: [] };
      tracks.set(e.dispatchId, t);
      t.events.push({ at: new Date(e.at).getTime(), kind: e.kind, reason: e.reason });
    }
    // Planned maintenance: its minutes from the start of the day's first shift (a record keeps the day, not the hour).
    const maint = (maintBy.get(m.id) ?? []).map((r) => {
      const first = shifts.find((s) => s.day === r.day);
      const start = first?.from ?? localMidnight(r.day, offsetAt(from)) + 8 * 3_600_000;
      return { recordId: r.id, from: start, to: start + r.minutes * 60_000 };
    });
    const sigRows = signalsBy.get(m.id) ?? [];
    const timeline = machineTimeline({
      window: { from, to },
      shifts: scheduledShifts(shifts, assignedBy.get(m.id) ?? new Set(), [...tracks.values()], sigRows, to),
      dispatches: [...tracks.values()],
      repairs: (repairsBy.get(m.id) ?? []).map((r) => ({
        repairId: r.id,
        from: new Date(r.from).getTime(),
        to: r.to ? new Date(r.to).getTime() : to,
      })),
      maintenance: maint,
      signals: sigRows
        .filter((s) => s.state)
        .map((s) => ({ at: new Date(s.at).getTime(), state: s.state as MachineSignal['state'] })),
    });
    const parts = new Map<string, number>();
    for (const s of sigRows)
      if (s.partCount) {
        const d = localDay(new Date(s.at).getTime(), offsetAt(from));
        parts.set(d, (parts.get(d) ?? 0) + s.partCount);
      }
    let k = 0;
    for (const day of days) {
      const dayFrom = localMidnight(day, offsetAt(from));
      const dayTo = dayFrom + DAY_MS;
      const segments: TimelineSegment[] = [];
      while (k < timeline.length && timeline[k].to <= dayFrom) k++;
      for (let j = k; j < timeline.length && timeline[j].from < dayTo; j++) {
        const s = timeline[j];
        segments.push({ ...s, from: Math.max(s.from, dayFrom), to: Math.min(s.to, dayTo) });
      }
      out.push({
        machine: m,
        day,
        segments,
        stops: stopTimes(segments),
        signalParts: parts.get(day) ?? 0,
        input: { ...NO_PIECES, minutes: stateMinutes(segments) },
        ms: stateMs(segments),
      });
    }
  }
  return out;
}

/** The state columns of the rollup, in the domain's state order. */
const STATE_COLUMNS: [MachineState, string][] = [
  ['run', 'run_ms'],
  ['runNoDispatch', 'run_no_dispatch_ms'],
  ['idle', 'idle_ms'],
  ['setup', 'setup_ms'],
  ['material', 'material_ms'],
  ['labour', 'labour_ms'],
  ['fault', 'fault_ms'],
  ['other', 'other_ms'],
  ['planned', 'planned_ms'],
  ['offShift', 'off_shift_ms'],
];

/** Milliseconds per state (whole milliseconds, so sums are exact in any order). */
type StateMs = Record<MachineState, number>;
const emptyMs = (): StateMs => emptyStateMinutes();

function stateMs(segments: TimelineSegment[]): StateMs {
  const m = emptyMs();
  for (const s of segments) m[s.state] += s.to - s.from;
  return m;
}

interface Pieces {
  idealGoodMinutes: number;
  idealScrapMinutes: number;
  good: number;
  scrap: number;
}
const NO_PIECES: Pieces = { idealGoodMinutes: 0, idealScrapMinutes: 0, good: 0, scrap: 0 };

/** The rollup rows' basis: the business time zone and this version of the calculation. */
const ROLLUP_VERSION = 1;
const rollupBasis = () => `${getBusinessTimeZone()}|v${ROLLUP_VERSION}`;
/** Days at least this many local days back are closed: nothing can change them but a late fact. */
const CLOSED_AFTER_DAYS = 3;

const dayAdd = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

type Period = 'all' | 'day' | 'week' | 'month';

/** The period key of a `date` column in SQL, as periodOf answers it in JS. */
function periodSql(column: RawBuilder<unknown>, period: Period, range: { from: string; to: string }) {
  if (period === 'day') return sql`to_char(${column}, 'YYYY-MM-DD')`;
  if (period === 'month') return sql`to_char(${column}, 'YYYY-MM')`;
  if (period === 'week') return sql`to_char(date_trunc('week', ${column})::date, 'YYYY-MM-DD')`;
  return sql`${`${range.from}~${range.to}`}::text`;
}

/** The pieces of approved 报工 per machine and period, at their task's standard minutes. */
function piecesOf(db: Db, ids: ReturnType<typeof idList>, q: { from: string; to: string }, period: Period) {
  return sql<{
    equipmentId: number;
    period: string;
    good: number;
    scrap: number;
    idealGood: number;
    idealScrap: number;
  }>`
    SELECT w.equipment_id::int AS equipment_id, ${periodSql(sql.ref('w.report_date'), period, q)} AS period,
           sum(w.good_quantity)::float8 AS good,
           sum(w.work_scrap_quantity + w.material_scrap_quantity)::float8 AS scrap,
           sum(w.good_quantity * COALESCE(t.standard_minutes, 0))::float8 AS ideal_good,
           sum((w.work_scrap_quantity + w.material_scrap_quantity) * COALESCE(t.standard_minutes, 0))::float8 AS ideal_scrap
      FROM work_report w LEFT JOIN workshop_task t ON t.id = w.task_id
     WHERE w.equipment_id IN (${ids}) AND w.status IN (${APPROVED})
       AND w.report_date BETWEEN ${q.from}::date AND ${q.to}::date
     GROUP BY 1, 2`.execute(db);
}

/** One machine's figures over one period: state milliseconds and pieces. */
export interface MachinePeriod {
  machine: Machine;
  period: string;
  ms: StateMs;
  pieces: Pieces;
}

/** What OEE is computed from: the minutes of summed milliseconds and the pieces. */
function inputOf(ms: StateMs, pieces: Pieces): OeeInput {
  const minutes = emptyStateMinutes();
  for (const k of Object.keys(minutes) as MachineState[]) minutes[k] = ms[k] / 60_000;
  return { minutes, ...pieces };
}

function addMs(into: StateMs, from: StateMs) {
  for (const k of Object.keys(into) as MachineState[]) into[k] += from[k];
}

function addPieces(into: Pieces, from: Pieces) {
  into.idealGoodMinutes += from.idealGoodMinutes;
  into.idealScrapMinutes += from.idealScrapMinutes;
  into.good += from.good;
  into.scrap += from.scrap;
}

/**
 * Every machine's state milliseconds and pieces per period of the range, and (with `stops`) the
 * stop time by state and reason over the range. Closed days (three local days back and older) are
 * summed in SQL from the rollup (oee_machine_day, migration 0078) where it holds them; the other
 * days are computed from the facts (computeDays) and the closed ones among them stored, unless a
 * posting touched the machine since (its generation moved). Pieces are summed from the approved
 * 报工 of the range.
 */
export async function machinePeriods(
  db: Db,
  q: Range,
  period: Period,
  stops = false,
): Promise<{ periods: MachinePeriod[]; stops: StopTime[] }> {
  const machines = await machinesOf(db, q);
  if (!machines.length) return { periods: [], stops: [] };
  const machineIds = machines.map((m) => m.id);
  const ids = idList(machineIds);
  const basis = rollupBasis();
  const now = Date.now();
  const lastClosed = dayAdd(localDay(now, offsetAt(now)), -CLOSED_AFTER_DAYS);
  const closedTo = q.to < lastClosed ? q.to : lastClosed;
  const anyClosed = q.from <= closedTo;
  // Per machine, the first closed day of the range the rollup does not hold (or the day after
  // the closed ones): kept before it, computed from it on.
  const [gens, firstMissing] = anyClosed
    ? await Promise.all([
        sql<{ equipmentId: number; gen: string }>`
          SELECT equipment_id::int AS equipment_id, gen::text AS gen FROM oee_rollup_gen
           WHERE equipment_id IN (${ids})`.execute(db),
        sql<{ equipmentId: number; day: string }>`
          SELECT m.id::int AS equipment_id, to_char(COALESCE(
                   (SELECT min(d)::date FROM generate_series(${q.from}::date, ${closedTo}::date, interval '1 day') d
                     WHERE NOT EXISTS (SELECT 1 FROM oee_machine_day k
                                        WHERE k.equipment_id = m.id AND k.day = d::date AND k.basis = ${basis})),
                   ${closedTo}::date + 1), 'YYYY-MM-DD') AS day
            FROM unnest(${machineIds}::bigint[]) m(id)`.execute(db),
      ])
    : [{ rows: [] }, { rows: [] }];
  const computeFrom = new Map<number, string>(machines.map((m) => [m.id, q.from]));
  for (const r of firstMissing.rows) computeFrom.set(r.equipmentId, r.day);
  const keptTo = machines.map((m) => dayAdd(computeFrom.get(m.id) as string, -1));
  const keptSpan = sql`unnest(${machineIds}::bigint[], ${keptTo}::date[]) r(id, kept_to)`;
  const [kept, keptStops, pieces] = await Promise.all([
    anyClosed
      ? sql<Record<string, any>>`
          SELECT k.equipment_id::int AS equipment_id, ${periodSql(sql.ref('k.day'), period, q)} AS period,
                 ${sql.join(STATE_COLUMNS.map(([, c]) => sql`sum(${sql.ref(`k.${c}`)})::float8 AS ${sql.ref(c)}`))}
            FROM oee_machine_day k JOIN ${keptSpan} ON k.equipment_id = r.id
           WHERE k.basis = ${basis} AND k.day >= ${q.from}::date AND k.day <= r.kept_to
           GROUP BY 1, 2`.execute(db)
      : { rows: [] },
    anyClosed && stops
      ? sql<{ state: MachineState; reason: string; ms: number }>`
          SELECT s.state, s.reason, sum(s.ms)::float8 AS ms
            FROM oee_machine_day_stop s JOIN ${keptSpan} ON s.equipment_id = r.id
           WHERE s.basis = ${basis} AND s.day >= ${q.from}::date AND s.day <= r.kept_to
           GROUP BY 1, 2`.execute(db)
      : { rows: [] },
    piecesOf(db, ids, q, period),
  ]);
  const byId = new Map(machines.map((m) => [m.id, m]));
  const out = new Map<string, MachinePeriod>();
  const at = (machine: Machine, p: string) => {
    const key = `${machine.id}|${p}`;
    let row = out.get(key);
    if (!row) {
      row = { machine, period: p, ms: emptyMs(), pieces: { ...NO_PIECES } };
      out.set(key, row);
    }
    return row;
  };
  for (const r of kept.rows) {
    const row = at(byId.get(r.equipmentId) as Machine, r.period);
    for (const [state, c] of STATE_COLUMNS) row.ms[state] += r[camel(c)];
  }
  const stopBy = new Map<string, StopTime>();
  const addStop = (s: StopTime) => {
    const key = `${s.state}:${s.reason}`;
    const row = stopBy.get(key);
    if (row) row.ms += s.ms;
    else stopBy.set(key, { ...s });
  };
  for (const s of keptStops.rows) addStop(s);
  // The days the rollup does not hold, computed from the facts, grouped by where they start.
  const groups = new Map<string, Machine[]>();
  for (const m of machines) {
    const from = computeFrom.get(m.id) as string;
    if (from > q.to) continue;
    const list = groups.get(from) ?? [];
    list.push(m);
    groups.set(from, list);
  }
  const toKeep: MachineDay[] = [];
  for (const [from, list] of groups)
    for (const d of await computeDays(db, list, { from, to: q.to })) {
      addMs(at(d.machine, periodOf(d.day, period, q)).ms, d.ms);
      if (stops) for (const s of d.stops) addStop(s);
      if (d.day <= closedTo) toKeep.push(d);
    }
  for (const p of pieces.rows) {
    const m = byId.get(p.equipmentId);
    if (m)
      addPieces(at(m, p.period).pieces, {
        idealGoodMinutes: p.idealGood,
        idealScrapMinutes: p.idealScrap,
        good: p.good,
        scrap: p.scrap,
      });
  }
  if (anyClosed) await keepDays(db, basis, toKeep, new Map(gens.rows.map((g) => [g.equipmentId, g.gen])));
  // In the machines' order (workshop, code), each machine's periods in time order.
  const index = new Map(machines.map((m, i) => [m.id, i]));
  const periods = [...out.values()].sort(
    (a, b) =>
      (index.get(a.machine.id) as number) - (index.get(b.machine.id) as number) ||
      (a.period < b.period ? -1 : a.period > b.period ? 1 : 0),
  );
  return { periods, stops: [...stopBy.values()] };
}

/**
 * Fills the rollup with the closed days of the last 93 days, one machine and month at a time (a
 * report over them then sums kept rows instead of computing; docs/oee.md). Days already kept are
 * not computed again. Stops between machines once `stopped()` says so; answers the machines done.
 */
export async function fillOeeRollup(db: Db, stopped: () => boolean = () => false): Promise<number> {
  const now = Date.now();
  const to = dayAdd(localDay(now, offsetAt(now)), -CLOSED_AFTER_DAYS);
  const from = dayAdd(to, -(MAX_DAYS - 1));
  let done = 0;
  for (const m of await machinesOf(db, {})) {
    for (let f = from; f <= to; f = dayAdd(f, 31)) {
      if (stopped()) return done;
      const t = dayAdd(f, 30) < to ? dayAdd(f, 30) : to;
      await machinePeriods(db, { from: f, to: t, equipmentId: m.id }, 'all');
    }
    done++;
  }
  return done;
}

/** Starts fillOeeRollup 15 s after the server starts (`OEE_BACKFILL=0` turns it off). */
export function startOeeBackfill(app: App) {
  const { db } = app.ringmes;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setTimeout(() => {
    const t0 = Date.now();
    running = fillOeeRollup(db, () => stopped)
      .then((n) => app.log.info({ machines: n, ms: Date.now() - t0 }, 'OEE 汇总：已回填近 93 天的已结束日'))
      .catch((err) => app.log.warn({ err }, 'OEE 汇总回填失败（报表仍按原始数据计算）'));
  }, 15_000);
  timer.unref();
  app.addHook('onClose', async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  });
}

/** snake_case → camelCase, as the driver's plugin names the columns. */
const camel = (c: string) => c.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());

/**
 * Stores computed closed days in the rollup, for the machines no posting touched since their
 * generation was read (the generations locked in key order, so a posting that touches one waits
 * and then deletes what was stored here).
 */
async function keepDays(db: Db, basis: string, days: MachineDay[], genBy: Map<number, string>) {
  if (!days.length) return;
  const machineIds = [...new Set(days.map((d) => d.machine.id))].sort((a, b) => a - b);
  const unknown = machineIds.filter((id) => !genBy.has(id));
  if (unknown.length) {
    // Machines no trigger has seen yet get a generation; their days are stored by the next query.
    await sql`
      INSERT INTO oee_rollup_gen (equipment_id) SELECT unnest(${unknown}::bigint[]) ORDER BY 1
      ON CONFLICT (equipment_id) DO NOTHING`.execute(db);
  }
  const known = machineIds.filter((id) => genBy.has(id));
  if (!known.length) return;
  await db.transaction().execute(async (trx) => {
    const now = await sql<{ equipmentId: number; gen: string }>`
      SELECT equipment_id::int AS equipment_id, gen::text AS gen FROM oee_rollup_gen
       WHERE equipment_id = ANY(${known}::bigint[]) ORDER BY equipment_id FOR SHARE`.execute(trx);
    const same = new Set(
      now.rows.filter((r) => genBy.get(r.equipmentId) === r.gen).map((r) => r.equipmentId),
    );
    const rows = days.filter((d) => same.has(d.machine.id));
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const inserted = await sql<{ equipmentId: number; day: string }>`
        INSERT INTO oee_machine_day (equipment_id, day, basis, ${sql.join(STATE_COLUMNS.map(([, c]) => sql.ref(c)))}, signal_parts)
        VALUES ${sql.join(
          chunk.map(
            (d) =>
              sql`(${d.machine.id}, ${d.day}::date, ${basis}, ${sql.join(STATE_COLUMNS.map(([s]) => sql`${d.ms[s]}`))}, ${d.signalParts})`,
          ),
        )}
        ON CONFLICT DO NOTHING
        RETURNING equipment_id::int AS equipment_id, to_char(day, 'YYYY-MM-DD') AS day`.execute(trx);
      const fresh = new Set(inserted.rows.map((r) => `${r.equipmentId}:${r.day}`));
      const stopRows = chunk
        .filter((d) => fresh.has(`${d.machine.id}:${d.day}`))
        .flatMap((d) =>
          d.stops.map(
            (s) => sql`(${d.machine.id}, ${d.day}::date, ${basis}, ${s.state}, ${s.reason}, ${s.ms})`,
          ),
        );
      for (let j = 0; j < stopRows.length; j += 1000)
        await sql`
          INSERT INTO oee_machine_day_stop (equipment_id, day, basis, state, reason, ms)
          VALUES ${sql.join(stopRows.slice(j, j + 1000))}`.execute(trx);
    }
  });
}

/**
 * Marks the shifts a machine had work in: a dispatch given for the shift (its work date and shift
 * code), a dispatch open during it, or a run signal in it. The others are no planned production
 * time for the machine (计划停机, 无生产任务).
 */
function scheduledShifts(
  shifts: ShiftInterval[],
  assigned: Set<string>,
  tracks: DispatchTrack[],
  signals: { at: Date; state: string | null }[],
  windowEnd: number,
): ShiftInterval[] {
  const busy: { from: number; to: number }[] = [];
  for (const t of tracks) {
    if (!t.events.length) continue;
    const last = t.events[t.events.length - 1];
    const closed = last.kind === 'complete' || last.kind === 'close';
    busy.push({ from: t.events[0].at, to: closed ? last.at : windowEnd });
  }
  const states = signals.filter((x) => x.state);
  for (let i = 0; i < states.length; i++)
    if (states[i].state === 'run')
      busy.push({
        from: new Date(states[i].at).getTime(),
        to: i + 1 < states.length ? new Date(states[i + 1].at).getTime() : windowEnd,
      });
  return shifts.map((s) => ({
    ...s,
    scheduled: assigned.has(`${s.day}:${s.shift}`) || busy.some((b) => b.from < s.to && b.to > s.from),
  }));
}

/** The period a day falls in: the day, its ISO week's Monday, its month, or the whole range. */
function periodOf(day: string, period: 'all' | 'day' | 'week' | 'month', range: Range): string {
  if (period === 'day') return day;
  if (period === 'month') return day.slice(0, 7);
  if (period === 'week') {
    const t = Date.parse(`${day}T00:00:00Z`);
    const wd = new Date(t).getUTCDay() || 7;
    return new Date(t - (wd - 1) * DAY_MS).toISOString().slice(0, 10);
  }
  return `${range.from}~${range.to}`;
}

const pct = (v: number | null) => (v === null ? null : Math.round(v * 10_000) / 100);
const min1 = (v: number) => Math.round(v * 10) / 10;

/** One row of the OEE report: the figures of a group of machine days. */
function figures(input: OeeInput, target: number | null) {
  const r = oee(input);
  const oeePercent = pct(r.oee);
  const targetPercent = pct(target);
  return {
    plannedMinutes: min1(r.plannedMinutes),
    runMinutes: min1(r.runMinutes),
    stopMinutes: min1(r.plannedMinutes - r.runMinutes),
    good: input.good,
    scrap: input.scrap,
    availability: pct(r.availability),
    performance: pct(r.performance),
    quality: pct(r.quality),
    oee: oeePercent,
    target: targetPercent,
    gap:
      oeePercent !== null && targetPercent !== null
        ? Math.round((oeePercent - targetPercent) * 100) / 100
        : null,
    losses: Object.fromEntries(Object.entries(r.losses).map(([k, v]) => [k, min1(v)])),
    states: Object.fromEntries(Object.entries(input.minutes).map(([k, v]) => [k, min1(v)])),
  };
}

export async function oeeSummary(db: Db, q: z.infer<typeof summaryQuery>) {
  const { periods } = await machinePeriods(db, q, q.period);
  const groups = new Map<
    string,
    {
      key: string;
      level: string;
      id: number | null;
      name: string;
      workshopName: string | null;
      period: string;
      ms: StateMs;
      pieces: Pieces;
      target: number | null;
    }
  >();
  const allMs = emptyMs();
  const allPieces = { ...NO_PIECES };
  for (const p of periods) {
    const m = p.machine;
    const [id, name, workshopName, target] =
      q.level === 'machine'
        ? [m.id, `${m.code} ${m.name}`, m.workshopName, m.oeeTarget]
        : q.level === 'workshop'
          ? [m.workshopId, m.workshopName, null, null]
          : [null, '全厂', null, null];
    const key = `${id ?? 'plant'}:${p.period}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        key,
        level: q.level,
        id,
        name,
        workshopName,
        period: p.period,
        ms: emptyMs(),
        pieces: { ...NO_PIECES },
        target,
      };
      groups.set(key, g);
    }
    addMs(g.ms, p.ms);
    addPieces(g.pieces, p.pieces);
    addMs(allMs, p.ms);
    addPieces(allPieces, p.pieces);
  }
  const rows = [...groups.values()].map((g) => ({
    key: g.key,
    level: g.level,
    id: g.id,
    name: g.name,
    workshopName: g.workshopName,
    period: g.period,
    ...figures(inputOf(g.ms, g.pieces), g.target),
  }));
  return { rows, total: figures(inputOf(allMs, allPieces), null) };
}

/**
 * The loss Pareto: stop minutes by state and declared reason, then the speed and defect losses,
 * largest first with the cumulative share; the six big losses; the machines that lose most.
 */
export async function oeeLosses(db: Db, q: Range) {
  const { periods, stops } = await machinePeriods(db, q, 'all', true);
  const allMs = emptyMs();
  const allPieces = { ...NO_PIECES };
  for (const p of periods) {
    addMs(allMs, p.ms);
    addPieces(allPieces, p.pieces);
  }
  const all = oee(inputOf(allMs, allPieces));
  const items = [
    // Stops by reason first (equal minutes keep this order: stops, then speed, then defects).
    ...stops
      .sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
      .map(({ state, reason, ms }) => ({
        state,
        reason,
        minutes: ms / 60_000,
        label: reason,
        loss: STATE_LOSS[state] as string,
      })),
    { state: null, reason: '速度损失', label: '速度损失', loss: 'speed', minutes: all.losses.speed },
    { state: null, reason: '不良损失', label: '不良损失', loss: 'defects', minutes: all.losses.defects },
  ]
    .filter((r) => r.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes);
  const sum = items.reduce((a, r) => a + r.minutes, 0);
  let acc = 0;
  const pareto = items.map((r) => {
    acc += r.minutes;
    return {
      ...r,
      minutes: min1(r.minutes),
      cumulativePercent: sum > 0 ? Math.round((acc / sum) * 1000) / 10 : 0,
    };
  });
  const machines = periods
    .map(({ machine, ms, pieces }) => {
      const r = oee(inputOf(ms, pieces));
      const lost = Object.values(r.losses).reduce((a, b) => a + b, 0);
      return {
        equipmentId: machine.id,
        name: `${machine.code} ${machine.name}`,
        workshopName: machine.workshopName,
        lossMinutes: min1(lost),
        oee: pct(r.oee),
        losses: Object.fromEntries(Object.entries(r.losses).map(([k, v]) => [k, min1(v)])),
      };
    })
    .sort((a, b) => b.lossMinutes - a.lossMinutes)
    .slice(0, 10);
  return {
    pareto,
    bigLosses: SIX_BIG_LOSSES.map((l) => ({ ...l, minutes: min1(all.losses[l.value]) })),
    topMachines: machines,
  };
}

const timelineQuery = z.strictObject({ equipmentId: zx.id, day: dayPattern('日期') });

/** A machine's day: its states with the dispatches and repairs behind them, and the day's OEE. */
export async function machineDayDetail(db: Db, q: z.infer<typeof timelineQuery>) {
  const machines = await machinesOf(db, { equipmentId: q.equipmentId });
  // The day's segments are wanted: computed from the facts, never read from the rollup.
  const [computed] = machines.length ? await computeDays(db, machines, { from: q.day, to: q.day }) : [];
  if (!computed) throw notFound('设备不存在或已报废');
  const pieces = await piecesOf(db, idList([q.equipmentId]), { from: q.day, to: q.day }, 'day');
  const d = {
    ...computed,
    input: {
      ...computed.input,
      ...(pieces.rows[0]
        ? {
            idealGoodMinutes: pieces.rows[0].idealGood,
            idealScrapMinutes: pieces.rows[0].idealScrap,
            good: pieces.rows[0].good,
            scrap: pieces.rows[0].scrap,
          }
        : NO_PIECES),
    },
  };
  const dispatchIds = [...new Set(d.segments.flatMap((s) => s.dispatchIds))];
  const repairIds = [...new Set(d.segments.flatMap((s) => s.repairIds))];
  const [dispatches, repairs, reports] = await Promise.all([
    dispatchIds.length
      ? sql<any>`
          SELECT d.id::int AS id, d.doc_no, d.status, d.quantity::float8 AS quantity, d.reported_quantity::float8 AS reported_quantity,
                 m.name AS product_name, p.name AS process_name, u.first_name AS operator_name, d.started_at, d.finished_at,
                 d.workshop_type
            FROM work_dispatch d LEFT JOIN material m ON m.id = d.product_id
            LEFT JOIN process p ON p.id = d.process_id LEFT JOIN app_user u ON u.id = d.operator_id
           WHERE d.id IN (${idList(dispatchIds)}) ORDER BY d.id`.execute(db)
      : { rows: [] },
    repairIds.length
      ? sql<any>`
          SELECT r.id::int AS id, r.doc_no, r.status, r.fault_description, r.reported_at, r.repaired_at, r.downtime_minutes
            FROM equipment_repair r WHERE r.id IN (${idList(repairIds)}) ORDER BY r.id`.execute(db)
      : { rows: [] },
    sql<any>`
      SELECT w.id::int AS id, w.doc_no, w.status, w.good_quantity::float8 AS good_quantity,
             (w.work_scrap_quantity + w.material_scrap_quantity)::float8 AS scrap_quantity,
             t.standard_minutes::float8 AS standard_minutes, w.dispatch_id::int AS dispatch_id
        FROM work_report w LEFT JOIN workshop_task t ON t.id = w.task_id
       WHERE w.equipment_id = ${q.equipmentId} AND w.report_date = ${q.day}::date AND w.status IN (${APPROVED})
       ORDER BY w.id`.execute(db),
  ]);
  return {
    equipmentId: d.machine.id,
    name: `${d.machine.code} ${d.machine.name}`,
    workshopName: d.machine.workshopName,
    day: d.day,
    segments: d.segments.map((s) => ({
      from: new Date(s.from).toISOString(),
      to: new Date(s.to).toISOString(),
      minutes: min1((s.to - s.from) / 60_000),
      state: s.state,
      stateLabel: machineStateLabel(s.state),
      reason: s.reason,
      dispatchIds: s.dispatchIds,
      repairIds: s.repairIds,
    })),
    signalParts: d.signalParts,
    dispatches: dispatches.rows,
    repairs: repairs.rows,
    reports: reports.rows,
    ...figures(d.input, d.machine.oeeTarget),
  };
}

// ------------------------------------------------------------------ settings

const hm = z.string().regex(/^([01]\d|2[0-4]):[0-5]\d$/, '时间格式应为 HH:mm');
const calendarBody = z.strictObject({
  shifts: z
    .array(
      z.strictObject({
        code: zx.required(20),
        name: zx.required(20),
        start: hm,
        end: hm,
        breaks: z.array(z.strictObject({ start: hm, end: hm, name: zx.text(20).optional() })).max(10),
      }),
    )
    .min(1, '至少一个班次')
    .max(4, '最多 4 个班次'),
  weekdays: z.array(z.number().int().min(1, '星期为 1–7').max(7, '星期为 1–7')).max(7),
  holidays: z.array(dayPattern('节假日')).max(366),
  workdays: z.array(dayPattern('调休工作日')).max(366),
});

const mappingSchema = z.strictObject({
  stateField: zx.required(60),
  runValues: z.array(z.union([z.string().max(40), z.number()])).max(20),
  stopValues: z.array(z.union([z.string().max(40), z.number()])).max(20),
  faultValues: z.array(z.union([z.string().max(40), z.number()])).max(20),
  countField: zx.text(60).optional(),
  timeField: zx.text(60).optional(),
});
export type SignalMapping = z.infer<typeof mappingSchema>;

const settingBody = z.strictObject({
  oeeTarget: z
    .number({ error: 'OEE 目标必须是数字' })
    .gt(0, 'OEE 目标应大于 0')
    .max(100, 'OEE 目标不能超过 100%')
    .nullable(),
  signalTopic: zx.text(200).nullable().optional(),
  signalMapping: mappingSchema.nullable().optional(),
});

const signalBody = z.strictObject({
  signals: z
    .array(
      z.strictObject({
        equipmentId: zx.id,
        at: z.iso.datetime({ offset: true, error: '时间应为 ISO 8601（带时区）' }),
        state: z.enum(['run', 'stop', 'fault'], { error: '状态只能是 run、stop 或 fault' }).optional(),
        partCount: z.number().int().min(0).max(1_000_000).optional(),
      }),
    )
    .min(1, '至少一条信号')
    .max(1000, '一次最多 1000 条信号'),
});

/** Stores machine signals (MQTT or the signed API); unknown machines are a 400 naming the line. */
export async function recordSignals(
  db: Db,
  source: 'mqtt' | 'api',
  rows: z.infer<typeof signalBody>['signals'],
) {
  const ids = [...new Set(rows.map((r) => r.equipmentId))];
  const known = await sql<{ id: number; workshopType: string }>`
    SELECT e.id::int AS id, w.type AS workshop_type FROM equipment e JOIN workshop w ON w.id = e.workshop_id
     WHERE e.id IN (${idList(ids)}) AND e.status <> 'scrapped'`.execute(db);
  const ok = new Set(known.rows.map((r) => r.id));
  const bad = rows.findIndex((r) => !ok.has(r.equipmentId));
  if (bad >= 0) throw badRequest(`第 ${bad + 1} 条信号的设备不存在或已报废`);
  const values = rows.map(
    (r) =>
      sql`(${r.equipmentId}, ${r.at}::timestamptz, ${r.state ?? null}, ${r.partCount ?? null}, ${source})`,
  );
  await sql`INSERT INTO machine_signal (equipment_id, at, state, part_count, source) VALUES ${sql.join(values)}`.execute(
    db,
  );
  // The live boards show each machine's last signal: their workshops' views recompute.
  const workshops = new Set(known.rows.map((r) => r.workshopType));
  await liveNotify(db, { topic: 'signal', workshop: workshops.size === 1 ? [...workshops][0] : null });
  return { accepted: rows.length };
}

export function oeeRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/oee/summary',
    permission: OEE_QUERY,
    query: summaryQuery,
    handler: ({ query, app: { db } }) => oeeSummary(db, query),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/losses',
    permission: OEE_QUERY,
    query: rangeQuery,
    handler: ({ query, app: { db } }) => oeeLosses(db, query),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/timeline',
    permission: OEE_QUERY,
    query: timelineQuery,
    handler: ({ query, app: { db } }) => machineDayDetail(db, query),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/states',
    permission: OEE_QUERY,
    handler: async () => ({
      states: MACHINE_STATE_OPTIONS,
      bigLosses: SIX_BIG_LOSSES,
      emptyMinutes: emptyStateMinutes(),
    }),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/export',
    permission: OEE_EXPORT,
    query: summaryQuery,
    async handler({ query, user, app: { db, config } }) {
      const data = await oeeSummary(db, query);
      const wb = new (await exceljs()).Workbook();
      const ws = wb.addWorksheet('设备OEE');
      ws.addRow([`设备OEE ${query.from} 至 ${query.to}`]);
      const head = [
        '对象',
        '车间',
        '期间',
        '计划生产(分钟)',
        '运行(分钟)',
        '停机(分钟)',
        '良品',
        '不良',
        '时间开动率(%)',
        '性能开动率(%)',
        '合格品率(%)',
        'OEE(%)',
        '目标(%)',
        '差距(%)',
      ];
      ws.addRow(head);
      ws.getRow(2).font = { bold: true };
      for (const r of data.rows)
        ws.addRow(
          [
            r.name,
            r.workshopName ?? '',
            r.period,
            r.plannedMinutes,
            r.runMinutes,
            r.stopMinutes,
            r.good,
            r.scrap,
            r.availability,
            r.performance,
            r.quality,
            r.oee,
            r.target,
            r.gap,
          ].map(neutralise),
        );
      const t = data.total;
      ws.addRow([
        '合计',
        '',
        '',
        t.plannedMinutes,
        t.runMinutes,
        t.stopMinutes,
        t.good,
        t.scrap,
        t.availability,
        t.performance,
        t.quality,
        t.oee,
        null,
        null,
      ]);
      ws.columns.forEach((c) => {
        c.width = 14;
      });
      const { file, fileName } = newExportFile(config.exportDir, user.id, '设备OEE');
      await wb.xlsx.writeFile(file);
      return { fileName, rows: data.rows.length };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/calendar/:id',
    permission: OEE_QUERY,
    alsoAllowedBy: [OEE_SETTING],
    params: idParams,
    handler: async ({ params, app: { db } }) => {
      const r = await sql<{ calendar: WorkCalendar; version: number }>`
        SELECT calendar, version FROM work_calendar WHERE workshop_id = ${params.id}`.execute(db);
      return { workshopId: params.id, calendar: r.rows[0]?.calendar ?? DEFAULT_CALENDAR, own: !!r.rows[0] };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/oee/calendar/:id',
    permission: OEE_SETTING,
    params: idParams,
    body: calendarBody,
    async handler({ params, body, user, app: { db } }) {
      const problems = calendarProblems(body);
      if (problems.length) throw badRequest(problems.join('；'));
      const ws = await sql`SELECT 1 FROM workshop WHERE id = ${params.id}`.execute(db);
      if (!ws.rows.length) throw notFound('车间不存在');
      await sql`
        INSERT INTO work_calendar (workshop_id, calendar, updated_by) VALUES (${params.id}, ${JSON.stringify(body)}::jsonb, ${user.id})
        ON CONFLICT (workshop_id) DO UPDATE SET calendar = EXCLUDED.calendar, updated_by = EXCLUDED.updated_by,
          updated_at = now(), version = work_calendar.version + 1`.execute(db);
      return { workshopId: params.id, calendar: body };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/oee/machine-setting/:id',
    permission: OEE_QUERY,
    alsoAllowedBy: [OEE_SETTING],
    params: idParams,
    handler: async ({ params, app: { db } }) => {
      const r = await sql<any>`
        SELECT e.id::int AS equipment_id, (s.oee_target * 100)::float8 AS oee_target, s.signal_topic, s.signal_mapping
          FROM equipment e LEFT JOIN machine_setting s ON s.equipment_id = e.id WHERE e.id = ${params.id}`.execute(
        db,
      );
      if (!r.rows[0]) throw notFound('设备不存在');
      return r.rows[0];
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/oee/machine-setting/:id',
    permission: OEE_SETTING,
    params: idParams,
    body: settingBody,
    async handler({ params, body, user, app: { db } }) {
      const e = await sql`SELECT 1 FROM equipment WHERE id = ${params.id}`.execute(db);
      if (!e.rows.length) throw notFound('设备不存在');
      if (body.signalTopic && !body.signalMapping) throw badRequest('配置信号主题时请同时配置报文映射');
      if (body.signalTopic) {
        const taken = await sql<{ code: string }>`
          SELECT e.code FROM machine_setting s JOIN equipment e ON e.id = s.equipment_id
           WHERE s.signal_topic = ${body.signalTopic} AND s.equipment_id <> ${params.id}`.execute(db);
        if (taken.rows[0]) throw badRequest(`信号主题已被设备 ${taken.rows[0].code} 使用`);
      }
      const target = body.oeeTarget === null ? null : body.oeeTarget / 100;
      await sql`
        INSERT INTO machine_setting (equipment_id, oee_target, signal_topic, signal_mapping, updated_by)
        VALUES (${params.id}, ${target}, ${body.signalTopic ?? null},
                ${body.signalMapping ? JSON.stringify(body.signalMapping) : null}::jsonb, ${user.id})
        ON CONFLICT (equipment_id) DO UPDATE SET oee_target = EXCLUDED.oee_target, signal_topic = EXCLUDED.signal_topic,
          signal_mapping = EXCLUDED.signal_mapping, updated_by = EXCLUDED.updated_by, updated_at = now(),
          version = machine_setting.version + 1`.execute(db);
      return { equipmentId: params.id, oeeTarget: body.oeeTarget, signalTopic: body.signalTopic ?? null };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/oee/signals',
    permission: OEE_SIGNAL,
    body: signalBody,
    handler: ({ body, app: { db } }) => recordSignals(db, 'api', body.signals),
  });
}
