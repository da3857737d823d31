import type { EnumOption } from '../resource/types.ts';

/*
 * Machine time and OEE (issue 42), pure: no database, no clock. Times are epoch milliseconds;
 * minutes are what the reports show. docs/oee.md holds the definitions and their sources.
 *
 * A machine's time in a window is cut into states by one rule per instant (machineTimeline):
 *   planned maintenance                      → 计划停机 (计划保养)
 *   an open repair, or a fault signal         → 故障 (in planned production time)
 *   a dispatch running, or a run signal       → 运行 (运行(无派工) when only the signal runs)
 *   a dispatch paused with a reason           → that reason's state (换型/调机, 待料, 缺人, 其他 …)
 *   nothing                                   → 待机
 * outside the shifts or in a break, only a run signal counts (overtime extends the planned time);
 * anything else there is 非工作时间 / 计划停机 (休息) and no loss. A shift in which the machine has
 * no work (ShiftInterval.scheduled false) is 计划停机 (无生产任务): no planned production time.
 */

export type MachineState =
  | 'run'
  | 'runNoDispatch'
  | 'idle'
  | 'setup'
  | 'material'
  | 'labour'
  | 'fault'
  | 'other'
  | 'planned'
  | 'offShift';

export const MACHINE_STATE_OPTIONS: EnumOption[] = [
  { value: 'run', label: '运行', color: 'green' },
  { value: 'runNoDispatch', label: '运行(无派工)', color: 'lime' },
  { value: 'idle', label: '待机', color: 'gold' },
  { value: 'setup', label: '换型/调机', color: 'purple' },
  { value: 'material', label: '待料', color: 'orange' },
  { value: 'labour', label: '缺人', color: 'magenta' },
  { value: 'fault', label: '故障', color: 'red' },
  { value: 'other', label: '其他', color: 'volcano' },
  { value: 'planned', label: '计划停机', color: 'blue' },
  { value: 'offShift', label: '非工作时间', color: 'default' },
];

export const machineStateLabel = (s: string): string =>
  MACHINE_STATE_OPTIONS.find((o) => o.value === s)?.label ?? s;

/** States that are not planned production time. */
const UNPLANNED: ReadonlySet<MachineState> = new Set(['planned', 'offShift']);
/** States in which the machine makes parts. */
const RUNNING: ReadonlySet<MachineState> = new Set(['run', 'runNoDispatch']);

/**
 * The declared reasons an operator gives for 暂停 on the operator sheet, each with the state it
 * puts the machine in. The label is what the sheet records as the pause reason.
 */
export const STOP_REASONS = [
  { value: 'setup', label: '换型/调机', state: 'setup' },
  { value: 'material', label: '待料', state: 'material' },
  { value: 'labour', label: '缺人', state: 'labour' },
  { value: 'fault', label: '设备故障', state: 'fault' },
  { value: 'quality', label: '质量问题', state: 'other' },
  { value: 'other', label: '其他', state: 'other' },
] as const satisfies readonly { value: string; label: string; state: MachineState }[];

export type StopReason = (typeof STOP_REASONS)[number]['value'];

/**
 * The state a pause puts the machine in, from the reason text the sheet recorded: the declared
 * reason whose label the text starts with (「待料：外圈毛坯未到」 is 待料); anything else is 其他.
 */
export function stopReasonOf(text: string | null | undefined): (typeof STOP_REASONS)[number] {
  const t = (text ?? '').trim();
  return STOP_REASONS.find((r) => t.startsWith(r.label)) ?? STOP_REASONS[STOP_REASONS.length - 1];
}

// ------------------------------------------------------------------ shift calendar

export interface ShiftBreak {
  start: string; // HH:mm
  end: string;
  name?: string;
}

export interface ShiftDef {
  code: string;
  name: string;
  /** HH:mm; an end at or before the start runs past midnight (夜班 20:00–04:00). */
  start: string;
  end: string;
  breaks: ShiftBreak[];
}

/** A workshop's calendar: its shifts, the weekdays it works (1 = Monday … 7 = Sunday), holidays and extra working days (调休). */
export interface WorkCalendar {
  shifts: ShiftDef[];
  weekdays: number[];
  holidays: string[];
  workdays: string[];
}

export interface Interval {
  from: number;
  to: number;
}

export interface ShiftInterval extends Interval {
  day: string;
  shift: string;
  breaks: Interval[];
  /**
   * Whether the machine has work in this shift (false: no dispatch for it and no run signal, so
   * the shift is no planned production time for it — 计划停机 (无生产任务)). Default true.
   */
  scheduled?: boolean;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

const hhmm = (s: string): number => {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s);
  if (!m || Number(m[1]) > 24 || Number(m[2]) > 59) throw new Error(`时间格式应为 HH:mm：${s}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

/** Midnight of a local day (YYYY-MM-DD) at the given UTC offset, as epoch ms. */
export function localMidnight(day: string, utcOffsetMinutes: number): number {
  return Date.parse(`${day}T00:00:00Z`) - utcOffsetMinutes * MINUTE;
}

/** The local day (YYYY-MM-DD) of an instant. */
export function localDay(at: number, utcOffsetMinutes: number): string {
  return new Date(at + utcOffsetMinutes * MINUTE).toISOString().slice(0, 10);
}

/**
 * The calendar of a workshop that has none of its own: one day shift, Monday to Saturday. OEE's
 * planned time and 自动排产's working time both use it.
 */
export const DEFAULT_WORK_CALENDAR: WorkCalendar = {
  shifts: [
    {
      code: 'day',
      name: '白班',
      start: '08:00',
      end: '17:00',
      breaks: [{ start: '12:00', end: '13:00', name: '午休' }],
    },
  ],
  weekdays: [1, 2, 3, 4, 5, 6],
  holidays: [],
  workdays: [],
};

/** Whether the calendar works on a local day: a listed workday, else a weekday that is not a holiday. */
export function isWorkday(cal: WorkCalendar, day: string): boolean {
  if (cal.workdays.includes(day)) return true;
  if (cal.holidays.includes(day)) return false;
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
  return cal.weekdays.includes(wd);
}

/** Checks a calendar; answers the Chinese problems (empty when it is usable). */
export function calendarProblems(cal: WorkCalendar): string[] {
  const out: string[] = [];
  for (const s of cal.shifts) {
    let start: number;
    let end: number;
    try {
      start = hhmm(s.start);
      end = hhmm(s.end);
    } catch (e) {
      out.push(`班次 ${s.name}：${(e as Error).message}`);
      continue;
    }
    const len = (end - start + 1440) % 1440 || 1440;
    for (const b of s.breaks) {
      try {
        const bs = (hhmm(b.start) - start + 1440) % 1440;
        const be = (hhmm(b.end) - start + 1440) % 1440 || 1440;
        if (bs >= be || be > len) out.push(`班次 ${s.name} 的休息 ${b.start}–${b.end} 不在班次时间内`);
      } catch (e) {
        out.push(`班次 ${s.name}：${(e as Error).message}`);
      }
    }
  }
  return out;
}

/** The shifts (with their breaks) that start on the local days [fromDay, toDay). */
export function shiftIntervals(
  cal: WorkCalendar,
  fromDay: string,
  toDay: string,
  utcOffsetMinutes: number,
): ShiftInterval[] {
  const out: ShiftInterval[] = [];
  const end = localMidnight(toDay, utcOffsetMinutes);
  for (let m = localMidnight(fromDay, utcOffsetMinutes); m < end; m += DAY) {
    const day = localDay(m, utcOffsetMinutes);
    if (!isWorkday(cal, day)) continue;
    for (const s of cal.shifts) {
      const start = hhmm(s.start);
      const len = (hhmm(s.end) - start + 1440) % 1440 || 1440;
      const from = m + start * MINUTE;
      const breaks = s.breaks.map((b) => {
        const bs = (hhmm(b.start) - start + 1440) % 1440;
        const be = (hhmm(b.end) - start + 1440) % 1440 || 1440;
        return { from: from + bs * MINUTE, to: from + Math.min(be, len) * MINUTE };
      });
      out.push({ day, shift: s.code, from, to: from + len * MINUTE, breaks });
    }
  }
  return out;
}

// ------------------------------------------------------------------ events → timeline

/** One 派工单's operator events on a machine, in time order. */
export interface DispatchEvent {
  at: number;
  kind: 'start' | 'pause' | 'resume' | 'complete' | 'close';
  /** The pause reason as recorded (its declared label first). */
  reason?: string | null;
}

export interface DispatchTrack {
  dispatchId: number;
  events: DispatchEvent[];
}

/** A machine signal: the state the machine reports from this instant on. */
export interface MachineSignal {
  at: number;
  state: 'run' | 'stop' | 'fault';
}

export interface TimelineInput {
  window: Interval;
  shifts: ShiftInterval[];
  dispatches: DispatchTrack[];
  /** Open-to-closed repairs: reported (or started) until repaired; an open one runs to the window's end. */
  repairs: (Interval & { repairId: number })[];
  /** Planned maintenance done on the machine. */
  maintenance: (Interval & { recordId: number })[];
  /** Machine signals in time order; before the first one the machine has no signal. */
  signals: MachineSignal[];
}

export interface TimelineSegment extends Interval {
  state: MachineState;
  /** The pause reason, 休息, 计划保养, 短停(信号) — why the state is what it is. */
  reason: string | null;
  dispatchIds: number[];
  repairIds: number[];
}

type Mark = { at: number; end: boolean; apply: (s: Sweep) => void };

interface Sweep {
  shift: number;
  unscheduled: number;
  brk: number;
  maint: number;
  repairs: Map<number, number>;
  running: Set<number>;
  paused: Map<number, string>;
  signal: MachineSignal['state'] | null;
}

/** The segments of a machine's time in the window, adjacent equal ones merged; they tile the window. */
export function machineTimeline(input: TimelineInput): TimelineSegment[] {
  const { window: w } = input;
  if (!(w.to > w.from)) return [];
  const marks: Mark[] = [];
  const span = (from: number, to: number, on: (s: Sweep) => void, off: (s: Sweep) => void) => {
    const a = Math.max(from, w.from);
    const b = Math.min(to, w.to);
    if (b <= a) return;
    marks.push({ at: a, end: false, apply: on }, { at: b, end: true, apply: off });
  };
  for (const s of input.shifts) {
    if (s.scheduled === false) {
      span(
        s.from,
        s.to,
        (x) => x.unscheduled++,
        (x) => x.unscheduled--,
      );
      continue;
    }
    span(
      s.from,
      s.to,
      (x) => x.shift++,
      (x) => x.shift--,
    );
    for (const b of s.breaks)
      span(
        b.from,
        b.to,
        (x) => x.brk++,
        (x) => x.brk--,
      );
  }
  for (const m of input.maintenance)
    span(
      m.from,
      m.to,
      (x) => x.maint++,
      (x) => x.maint--,
    );
  for (const r of input.repairs)
    span(
      r.from,
      r.to,
      (x) => x.repairs.set(r.repairId, (x.repairs.get(r.repairId) ?? 0) + 1),
      (x) => {
        const n = (x.repairs.get(r.repairId) ?? 1) - 1;
        if (n > 0) x.repairs.set(r.repairId, n);
        else x.repairs.delete(r.repairId);
      },
    );
  for (const d of input.dispatches) {
    const id = d.dispatchId;
    let runFrom: number | null = null;
    let pauseFrom: number | null = null;
    let reason = '';
    const endRun = (at: number) => {
      if (runFrom !== null)
        span(
          runFrom,
          at,
          (x) => x.running.add(id),
          (x) => x.running.delete(id),
        );
      runFrom = null;
    };
    const endPause = (at: number) => {
      if (pauseFrom !== null) {
        const why = reason;
        span(
          pauseFrom,
          at,
          (x) => x.paused.set(id, why),
          (x) => x.paused.delete(id),
        );
      }
      pauseFrom = null;
    };
    for (const e of d.events) {
      if (e.kind === 'start' || e.kind === 'resume') {
        endPause(e.at);
        if (runFrom === null) runFrom = e.at;
      } else if (e.kind === 'pause') {
        endRun(e.at);
        if (pauseFrom === null) {
          pauseFrom = e.at;
          reason = e.reason ?? '';
        }
      } else {
        endRun(e.at);
        endPause(e.at);
      }
    }
    endRun(w.to);
    endPause(w.to);
  }
  for (let i = 0; i < input.signals.length; i++) {
    const s = input.signals[i];
    const next = input.signals[i + 1]?.at ?? w.to;
    span(
      s.at,
      next,
      (x) => {
        x.signal = s.state;
      },
      (x) => {
        if (x.signal === s.state) x.signal = null;
      },
    );
  }
  // Ends before starts at one instant, so a signal that hands over to the next one at t is off
  // before the next is on.
  marks.sort((a, b) => a.at - b.at || (a.end ? 0 : 1) - (b.end ? 0 : 1));
  const sw: Sweep = {
    shift: 0,
    unscheduled: 0,
    brk: 0,
    maint: 0,
    repairs: new Map(),
    running: new Set(),
    paused: new Map(),
    signal: null,
  };
  const out: TimelineSegment[] = [];
  const push = (from: number, to: number) => {
    if (to <= from) return;
    const seg = classify(sw);
    const last = out[out.length - 1];
    if (
      last &&
      last.to === from &&
      last.state === seg.state &&
      last.reason === seg.reason &&
      sameIds(last.dispatchIds, seg.dispatchIds) &&
      sameIds(last.repairIds, seg.repairIds)
    )
      last.to = to;
    else out.push({ from, to, ...seg });
  };
  let at = w.from;
  let i = 0;
  while (i < marks.length) {
    const t = marks[i].at;
    push(at, t);
    at = Math.max(at, t);
    while (i < marks.length && marks[i].at === t) marks[i++].apply(sw);
  }
  push(at, w.to);
  return out;
}

/** The shared empty id list of the segments with no dispatch or repair behind them (never mutated). */
const NONE: number[] = [];

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function classify(s: Sweep): Omit<TimelineSegment, 'from' | 'to'> {
  const inShift = s.shift > 0 && s.brk === 0;
  const repairIds = s.repairs.size ? [...s.repairs.keys()].sort((a, b) => a - b) : NONE;
  const running = s.running.size ? [...s.running].sort((a, b) => a - b) : NONE;
  const paused = s.paused.size ? [...s.paused.keys()].sort((a, b) => a - b) : NONE;
  const off = (): Omit<TimelineSegment, 'from' | 'to'> =>
    s.shift > 0
      ? { state: 'planned', reason: '休息', dispatchIds: NONE, repairIds: NONE }
      : s.unscheduled > 0
        ? { state: 'planned', reason: '无生产任务', dispatchIds: NONE, repairIds: NONE }
        : { state: 'offShift', reason: null, dispatchIds: NONE, repairIds: NONE };
  if (s.maint > 0) return { state: 'planned', reason: '计划保养', dispatchIds: NONE, repairIds };
  const fault = repairIds.length > 0 || s.signal === 'fault';
  if (fault)
    return inShift
      ? { state: 'fault', reason: null, dispatchIds: [...running, ...paused], repairIds }
      : off();
  const signalRuns = s.signal === 'run';
  // Outside the shifts and in breaks only a machine's own signal proves it runs: a dispatch left
  // open over a break or a night is not production.
  if (!inShift)
    return signalRuns
      ? { state: running.length ? 'run' : 'runNoDispatch', reason: null, dispatchIds: running, repairIds }
      : off();
  if (running.length > 0) {
    if (s.signal === 'stop') return { state: 'idle', reason: '短停(信号)', dispatchIds: running, repairIds };
    return { state: 'run', reason: null, dispatchIds: running, repairIds };
  }
  if (signalRuns) return { state: 'runNoDispatch', reason: null, dispatchIds: paused, repairIds };
  if (paused.length > 0) {
    const why = s.paused.get(paused[paused.length - 1]) ?? '';
    return { state: stopReasonOf(why).state, reason: why || null, dispatchIds: paused, repairIds };
  }
  return { state: 'idle', reason: null, dispatchIds: NONE, repairIds };
}

// ------------------------------------------------------------------ OEE

export type StateMinutes = Record<MachineState, number>;

export const emptyStateMinutes = (): StateMinutes => ({
  run: 0,
  runNoDispatch: 0,
  idle: 0,
  setup: 0,
  material: 0,
  labour: 0,
  fault: 0,
  other: 0,
  planned: 0,
  offShift: 0,
});

/** Minutes per state of a timeline. */
export function stateMinutes(segments: TimelineSegment[]): StateMinutes {
  const m = emptyStateMinutes();
  for (const s of segments) m[s.state] += (s.to - s.from) / MINUTE;
  return m;
}

/** The production facts of a machine over a period, beside its state minutes. */
export interface OeeInput {
  minutes: StateMinutes;
  /** Σ standard minutes per piece × good pieces (approved 报工). */
  idealGoodMinutes: number;
  /** Σ standard minutes per piece × scrap pieces. */
  idealScrapMinutes: number;
  good: number;
  scrap: number;
}

/** The six big losses (Nakajima), in minutes; the factor each one lowers. */
export const SIX_BIG_LOSSES = [
  { value: 'breakdown', label: '设备故障', factor: 'availability' },
  { value: 'setup', label: '换型调整', factor: 'availability' },
  { value: 'idling', label: '停机等待', factor: 'availability' },
  { value: 'speed', label: '速度损失', factor: 'performance' },
  { value: 'defects', label: '不良损失', factor: 'quality' },
  { value: 'startup', label: '启动损失', factor: 'quality' },
] as const;

export type BigLoss = (typeof SIX_BIG_LOSSES)[number]['value'];

/** The big loss each state's minutes belong to (running states lose nothing here). */
export const STATE_LOSS: Partial<Record<MachineState, BigLoss>> = {
  fault: 'breakdown',
  setup: 'setup',
  idle: 'idling',
  material: 'idling',
  labour: 'idling',
  other: 'idling',
};

export interface OeeResult {
  calendarMinutes: number;
  plannedMinutes: number;
  runMinutes: number;
  /** Standard minutes of the good pieces: the fully productive time. */
  fullyProductiveMinutes: number;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  oee: number | null;
  losses: Record<BigLoss, number>;
}

/**
 * OEE = availability × performance × quality:
 * availability = run ÷ planned production time, performance = ideal minutes of all pieces ÷ run
 * (capped at 1: above it the standard minutes are too long, and the excess is not output),
 * quality = good ÷ (good + scrap). A factor with nothing to divide is null, and so is the OEE.
 * Losses: the stop states' minutes; speed = run − ideal minutes of all pieces; defects = the
 * ideal minutes of the scrap.
 */
export function oee(input: OeeInput): OeeResult {
  const m = input.minutes;
  const calendarMinutes = Object.values(m).reduce((a, b) => a + b, 0);
  const plannedMinutes = calendarMinutes - m.planned - m.offShift;
  const runMinutes = m.run + m.runNoDispatch;
  const idealMinutes = input.idealGoodMinutes + input.idealScrapMinutes;
  const availability = plannedMinutes > 0 ? runMinutes / plannedMinutes : null;
  const performance = runMinutes > 0 ? Math.min(1, idealMinutes / runMinutes) : null;
  const pieces = input.good + input.scrap;
  const quality = pieces > 0 ? input.good / pieces : null;
  const losses: Record<BigLoss, number> = {
    breakdown: 0,
    setup: 0,
    idling: 0,
    speed: 0,
    defects: 0,
    startup: 0,
  };
  for (const [state, loss] of Object.entries(STATE_LOSS)) losses[loss as BigLoss] += m[state as MachineState];
  const counted = Math.min(idealMinutes, runMinutes);
  losses.speed = runMinutes - counted;
  // Scrap's share of the counted minutes, so that the losses and the good pieces' time add up to the planned time.
  losses.defects = idealMinutes > 0 ? (counted * input.idealScrapMinutes) / idealMinutes : 0;
  const fullyProductiveMinutes = counted - losses.defects;
  const value =
    availability === null || performance === null || quality === null
      ? null
      : availability * performance * quality;
  return {
    calendarMinutes,
    plannedMinutes,
    runMinutes,
    fullyProductiveMinutes,
    availability,
    performance,
    quality,
    oee: value,
    losses,
  };
}

/** Adds machines' (or days') inputs: a workshop's OEE is computed from the summed minutes and pieces, never averaged. */
export function sumOeeInputs(inputs: OeeInput[]): OeeInput {
  const minutes = emptyStateMinutes();
  let idealGoodMinutes = 0;
  let idealScrapMinutes = 0;
  let good = 0;
  let scrap = 0;
  for (const i of inputs) {
    for (const k of Object.keys(minutes) as MachineState[]) minutes[k] += i.minutes[k];
    idealGoodMinutes += i.idealGoodMinutes;
    idealScrapMinutes += i.idealScrapMinutes;
    good += i.good;
    scrap += i.scrap;
  }
  return { minutes, idealGoodMinutes, idealScrapMinutes, good, scrap };
}

export const isPlannedState = (s: MachineState) => !UNPLANNED.has(s);
export const isRunningState = (s: MachineState) => RUNNING.has(s);
