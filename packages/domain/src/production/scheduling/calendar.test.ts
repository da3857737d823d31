import { describe, expect, it } from 'vitest';
import type { WorkCalendar } from '../../equipment/oee.ts';
import { dispatchShiftOf, isScheduleDay, scheduleWindows } from './calendar.ts';

// 2026-10-01 is a Thursday; 10-03 a Saturday, 10-04 a Sunday.
const twoShifts: WorkCalendar = {
  shifts: [
    { code: 'day', name: '白班', start: '08:00', end: '17:00', breaks: [{ start: '12:00', end: '13:00' }] },
    { code: 'n', name: '夜班', start: '20:00', end: '04:00', breaks: [{ start: '00:00', end: '00:30' }] },
  ],
  weekdays: [1, 2, 3, 4, 5, 6],
  holidays: [],
  workdays: [],
};

describe('自动排产 working time: 班次日历 met with 生产日历', () => {
  it('cuts breaks out of each shift; a shift past midnight belongs to its first day', () => {
    const w = scheduleWindows(twoShifts, null, '2026-10-01', 1);
    expect(w.map((x) => [x.start, x.end, x.shift, x.day])).toEqual([
      [480, 720, 'day', '2026-10-01'],
      [780, 1020, 'day', '2026-10-01'],
      [1200, 1440, 'night', '2026-10-01'],
      [1470, 1680, 'night', '2026-10-01'],
    ]);
  });

  it('the workshop’s own days first, then the factory’s, then both weekday sets', () => {
    const factory = { weekdays: [1, 2, 3, 4, 5], holidays: ['2026-10-01'], workdays: ['2026-10-04'] };
    // A factory holiday is off in the workshop…
    expect(isScheduleDay('2026-10-01', twoShifts, factory)).toBe(false);
    // …unless the workshop itself works it.
    expect(isScheduleDay('2026-10-01', { ...twoShifts, workdays: ['2026-10-01'] }, factory)).toBe(true);
    // A Saturday: the workshop works Saturdays, the factory does not.
    expect(isScheduleDay('2026-10-03', twoShifts, factory)).toBe(false);
    expect(isScheduleDay('2026-10-03', twoShifts, null)).toBe(true);
    // A factory 调休 Sunday works in every workshop, unless the workshop declares it a holiday.
    expect(isScheduleDay('2026-10-04', twoShifts, factory)).toBe(true);
    expect(isScheduleDay('2026-10-04', { ...twoShifts, holidays: ['2026-10-04'] }, factory)).toBe(false);
    // A plain Friday: both work.
    expect(isScheduleDay('2026-10-02', twoShifts, factory)).toBe(true);
    const days = scheduleWindows(twoShifts, factory, '2026-10-01', 4).map((x) => x.dayIndex);
    expect([...new Set(days)]).toEqual([1, 3]);
  });

  it('names the 派工 shift by code, else by start time', () => {
    expect(dispatchShiftOf({ code: 'night', start: '08:00' })).toBe('night');
    expect(dispatchShiftOf({ code: 'A', start: '07:30' })).toBe('day');
    expect(dispatchShiftOf({ code: 'C', start: '22:00' })).toBe('night');
    expect(dispatchShiftOf({ code: 'C', start: '00:00' })).toBe('night');
  });
});
