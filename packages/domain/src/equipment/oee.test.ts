import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DispatchTrack,
  emptyStateMinutes,
  localMidnight,
  machineTimeline,
  oee,
  type ShiftInterval,
  shiftIntervals,
  stateMinutes,
  stopReasonOf,
  sumOeeInputs,
  type WorkCalendar,
} from './oee.ts';

const CST = 480; // Asia/Shanghai, UTC+8
const DAY = '2026-11-02'; // a Monday
const at = (hm: string, day = DAY) => Date.parse(`${day}T${hm}:00+08:00`);
const round = (v: number | null, places = 4) => (v === null ? null : Number(v.toFixed(places)));

const dayShift: WorkCalendar = {
  shifts: [
    {
      code: 'day',
      name: '白班',
      start: '08:00',
      end: '16:00',
      breaks: [
        { start: '10:00', end: '10:15', name: '上午休息' },
        { start: '12:00', end: '12:30', name: '午餐' },
        { start: '14:30', end: '14:45', name: '下午休息' },
      ],
    },
  ],
  weekdays: [1, 2, 3, 4, 5],
  holidays: ['2026-10-01'],
  workdays: ['2026-10-10'],
};

describe('the textbook example (Vorne, oee.com: 480-min shift, 2 × 15 min breaks, 30 min meal, 47 min down, ideal cycle 1.0 s, 19,271 pieces, 423 rejects)', () => {
  it('A = 373/420 = 88.81 %, P = 19,271 s/22,380 s = 86.11 %, Q = 18,848/19,271 = 97.80 %, OEE = 74.79 %', () => {
    const minutes = { ...emptyStateMinutes(), planned: 60, fault: 47, run: 373 };
    const ideal = 1 / 60; // minutes per piece
    const r = oee({
      minutes,
      idealGoodMinutes: 18_848 * ideal,
      idealScrapMinutes: 423 * ideal,
      good: 18_848,
      scrap: 423,
    });
    expect(r.plannedMinutes).toBe(420);
    expect(r.runMinutes).toBe(373);
    expect(round(r.availability)).toBe(0.8881);
    expect(round(r.performance)).toBe(0.8611);
    expect(round(r.quality)).toBe(0.978);
    expect(round(r.oee)).toBe(0.7479);
    // OEE is also the fully productive time over the planned time: 18,848 s of 25,200 s.
    expect(round(r.fullyProductiveMinutes / r.plannedMinutes)).toBe(0.7479);
    // The losses and the good pieces' time add up to the planned time.
    expect(round(r.losses.breakdown, 6)).toBe(47);
    expect(round(r.losses.speed, 4)).toBe(round(373 - 19_271 / 60, 4)); // 51.8167 min
    expect(round(r.losses.defects, 4)).toBe(round(423 / 60, 4)); // 7.05 min
    const sum = Object.values(r.losses).reduce((a, b) => a + b, 0) + r.fullyProductiveMinutes;
    expect(round(sum, 9)).toBe(420);
  });
});

describe('one grinder, one day shift with its breaks, a repair, a setup, pieces and scrap (by hand)', () => {
  // 08:00–16:00 with 60 min of breaks: planned production time 420 min.
  // The operator starts his dispatch at 08:10 (08:00–08:10 待机, 10 min); the machine breaks
  // 09:00–09:30 (报修 → 修复, 故障 30 min); 13:00–13:17 he pauses for 换型/调机 (17 min) and runs on
  // to 16:00. Run = 420 − 10 − 30 − 17 = 363 min. 640 good and 20 scrap at 0.5 standard minutes.
  const shifts = shiftIntervals(dayShift, DAY, '2026-11-03', CST);
  const dispatches: DispatchTrack[] = [
    {
      dispatchId: 7,
      events: [
        { at: at('08:10'), kind: 'start' },
        { at: at('13:00'), kind: 'pause', reason: '换型/调机：换 6206 外圈夹具' },
        { at: at('13:17'), kind: 'resume' },
        { at: at('16:00'), kind: 'complete' },
      ],
    },
  ];
  const timeline = machineTimeline({
    window: { from: localMidnight(DAY, CST), to: localMidnight('2026-11-03', CST) },
    shifts,
    dispatches,
    repairs: [{ repairId: 3, from: at('09:00'), to: at('09:30') }],
    maintenance: [],
    signals: [],
  });

  it('cuts the day into states, naming the dispatch and the repair behind them', () => {
    const shown = timeline.map((s) => [
      new Date(s.from + CST * 60_000).toISOString().slice(11, 16),
      s.state,
      s.reason,
    ]);
    expect(shown).toEqual([
      ['00:00', 'offShift', null],
      ['08:00', 'idle', null],
      ['08:10', 'run', null],
      ['09:00', 'fault', null],
      ['09:30', 'run', null],
      ['10:00', 'planned', '休息'],
      ['10:15', 'run', null],
      ['12:00', 'planned', '休息'],
      ['12:30', 'run', null],
      ['13:00', 'setup', '换型/调机：换 6206 外圈夹具'],
      ['13:17', 'run', null],
      ['14:30', 'planned', '休息'],
      ['14:45', 'run', null],
      ['16:00', 'offShift', null],
    ]);
    expect(timeline.find((s) => s.state === 'fault')).toMatchObject({ repairIds: [3], dispatchIds: [7] });
  });

  it('A = 363/420 = 86.43 %, P = 330/363 = 90.91 %, Q = 640/660 = 96.97 %, OEE = 320/420 = 76.19 %', () => {
    const minutes = stateMinutes(timeline);
    expect(minutes).toMatchObject({ idle: 10, fault: 30, setup: 17, run: 363, planned: 60, offShift: 960 });
    const r = oee({
      minutes,
      idealGoodMinutes: 640 * 0.5,
      idealScrapMinutes: 20 * 0.5,
      good: 640,
      scrap: 20,
    });
    expect(r.plannedMinutes).toBe(420);
    expect(round(r.availability)).toBe(0.8643);
    expect(round(r.performance)).toBe(0.9091);
    expect(round(r.quality)).toBe(0.9697);
    expect(round(r.oee)).toBe(0.7619);
    expect(r.losses).toEqual({ breakdown: 30, setup: 17, idling: 10, speed: 33, defects: 10, startup: 0 });
  });
});

describe('the shift calendar', () => {
  it('works on weekdays and 调休 days, not on holidays or weekends; a night shift runs past midnight', () => {
    const cal: WorkCalendar = {
      ...dayShift,
      shifts: [
        ...dayShift.shifts,
        {
          code: 'night',
          name: '夜班',
          start: '20:00',
          end: '04:00',
          breaks: [{ start: '00:00', end: '00:30' }],
        },
      ],
    };
    expect(shiftIntervals(cal, '2026-10-01', '2026-10-02', CST)).toEqual([]); // 国庆
    expect(shiftIntervals(cal, '2026-10-11', '2026-10-12', CST)).toEqual([]); // a Sunday
    expect(shiftIntervals(cal, '2026-10-10', '2026-10-11', CST)).toHaveLength(2); // a Saturday worked (调休)
    const night = shiftIntervals(cal, DAY, '2026-11-03', CST)[1];
    expect(night).toMatchObject({
      day: DAY,
      shift: 'night',
      from: at('20:00'),
      to: at('04:00', '2026-11-03'),
    });
    expect(night.breaks).toEqual([{ from: at('00:00', '2026-11-03'), to: at('00:30', '2026-11-03') }]);
  });
});

describe('signals and operator entries reconciled', () => {
  const shifts = shiftIntervals(dayShift, DAY, '2026-11-03', CST);
  const window = { from: at('08:00'), to: at('10:00') };
  it('a machine running while no dispatch is open is 运行(无派工); a stop signal under a running dispatch is 待机 (短停)', () => {
    const t = machineTimeline({
      window,
      shifts,
      dispatches: [{ dispatchId: 1, events: [{ at: at('09:00'), kind: 'start' }] }],
      repairs: [],
      maintenance: [],
      signals: [
        { at: at('08:30'), state: 'run' },
        { at: at('09:20'), state: 'stop' },
        { at: at('09:25'), state: 'run' },
        { at: at('09:50'), state: 'fault' },
      ],
    });
    expect(t.map((s) => [s.state, (s.to - s.from) / 60_000, s.reason])).toEqual([
      ['idle', 30, null],
      ['runNoDispatch', 30, null],
      ['run', 20, null],
      ['idle', 5, '短停(信号)'],
      ['run', 25, null],
      ['fault', 10, null],
    ]);
  });
  it('a shift with no work for the machine is 计划停机 (无生产任务), not a loss; a run signal in it still counts', () => {
    const t = machineTimeline({
      window,
      shifts: shifts.map((s) => ({ ...s, scheduled: false })),
      dispatches: [],
      repairs: [{ repairId: 1, from: at('08:00'), to: at('08:30') }],
      maintenance: [],
      signals: [
        { at: at('09:00'), state: 'run' },
        { at: at('09:20'), state: 'stop' },
      ],
    });
    expect(t.map((s) => [s.state, (s.to - s.from) / 60_000, s.reason])).toEqual([
      ['planned', 60, '无生产任务'],
      ['runNoDispatch', 20, null],
      ['planned', 40, '无生产任务'],
    ]);
  });
  it('planned maintenance is 计划停机 even with a dispatch open; a pause with an undeclared reason is 其他', () => {
    const t = machineTimeline({
      window,
      shifts,
      dispatches: [
        {
          dispatchId: 1,
          events: [
            { at: at('08:00'), kind: 'start' },
            { at: at('08:40'), kind: 'pause', reason: '去开会' },
            { at: at('09:00'), kind: 'resume' },
          ],
        },
      ],
      repairs: [],
      maintenance: [{ recordId: 5, from: at('09:30'), to: at('10:00') }],
      signals: [],
    });
    expect(t.map((s) => [s.state, (s.to - s.from) / 60_000])).toEqual([
      ['run', 40],
      ['other', 20],
      ['run', 30],
      ['planned', 30],
    ]);
    expect(stopReasonOf('待料：外圈毛坯未到').state).toBe('material');
    expect(stopReasonOf(null).value).toBe('other');
  });
});

describe('properties', () => {
  const day0 = localMidnight(DAY, CST);
  const minute = fc.integer({ min: 0, max: 1440 });
  const arbSpan = fc
    .tuple(minute, minute)
    .map(([a, b]) => ({ from: day0 + Math.min(a, b) * 60_000, to: day0 + Math.max(a, b) * 60_000 }));
  const arbDispatch = fc
    .array(
      fc.tuple(
        minute,
        fc.constantFrom('start', 'pause', 'resume', 'complete' as const),
        fc.constantFrom('待料', '换型/调机', '', '缺人'),
      ),
      { maxLength: 8 },
    )
    .map(
      (evs): DispatchTrack => ({
        dispatchId: 0,
        events: evs
          .sort((a, b) => a[0] - b[0])
          .map(
            ([m, kind, reason]) =>
              ({ at: day0 + m * 60_000, kind, reason }) as DispatchTrack['events'][number],
          ),
      }),
    );
  const arbSignals = fc
    .array(fc.tuple(minute, fc.constantFrom('run', 'stop', 'fault' as const)), { maxLength: 10 })
    .map((s) => s.sort((a, b) => a[0] - b[0]).map(([m, state]) => ({ at: day0 + m * 60_000, state })));
  const shiftsAll: ShiftInterval[] = shiftIntervals(
    {
      ...dayShift,
      shifts: [...dayShift.shifts, { code: 'night', name: '夜班', start: '20:00', end: '04:00', breaks: [] }],
    },
    '2026-11-01',
    '2026-11-03',
    CST,
  );
  const shifts = shiftsAll.map((s, i) => ({ ...s, scheduled: i % 3 !== 1 }));

  it('the states tile the window, the minutes add up to the calendar time, and 0 ≤ A, P, Q, OEE ≤ 1', () => {
    fc.assert(
      fc.property(
        fc.array(arbDispatch, { maxLength: 3 }),
        fc.array(arbSpan, { maxLength: 3 }),
        fc.array(arbSpan, { maxLength: 2 }),
        arbSignals,
        fc.nat(2000),
        fc.nat(200),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        (dispatches, repairs, maintenance, signals, good, scrap, ideal) => {
          const window = { from: day0, to: day0 + 86_400_000 };
          const t = machineTimeline({
            window,
            shifts,
            dispatches: dispatches.map((d, i) => ({ ...d, dispatchId: i + 1 })),
            repairs: repairs.map((r, i) => ({ ...r, repairId: i + 1 })),
            maintenance: maintenance.map((r, i) => ({ ...r, recordId: i + 1 })),
            signals,
          });
          expect(t[0].from).toBe(window.from);
          expect(t[t.length - 1].to).toBe(window.to);
          for (let i = 1; i < t.length; i++) expect(t[i].from).toBe(t[i - 1].to);
          const minutes = stateMinutes(t);
          const r = oee({
            minutes,
            idealGoodMinutes: good * ideal,
            idealScrapMinutes: scrap * ideal,
            good,
            scrap,
          });
          expect(r.calendarMinutes).toBeCloseTo(1440, 9);
          for (const f of [r.availability, r.performance, r.quality, r.oee]) {
            if (f === null) continue;
            expect(f).toBeGreaterThanOrEqual(0);
            expect(f).toBeLessThanOrEqual(1 + 1e-12);
          }
          if (r.plannedMinutes > 0) {
            const lost = Object.values(r.losses).reduce((a, b) => a + b, 0);
            expect(lost + r.fullyProductiveMinutes).toBeCloseTo(r.plannedMinutes, 6);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a workshop is its machines summed, not averaged', () => {
    const a = {
      minutes: { ...emptyStateMinutes(), run: 400, fault: 80 },
      idealGoodMinutes: 400,
      idealScrapMinutes: 0,
      good: 800,
      scrap: 0,
    };
    const b = {
      minutes: { ...emptyStateMinutes(), run: 100, idle: 380 },
      idealGoodMinutes: 50,
      idealScrapMinutes: 0,
      good: 100,
      scrap: 0,
    };
    const r = oee(sumOeeInputs([a, b]));
    expect(round(r.oee)).toBe(round(450 / 960)); // not (0.8333 + 0.1042) / 2
  });
});
