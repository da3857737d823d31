import { isWorkday, type WorkCalendar } from '../../equipment/oee.ts';
import type { MrpCalendar } from '../mrp.ts';

/**
 * 自动排产's working time from the factory model: a workshop's 班次日历 (OEE's `work_calendar`:
 * shifts with breaks, weekdays, its holidays and 调休 days) met with the factory's 生产日历
 * (系统设置 › 生产日历, MRP's lead-time calendar). A day works for a workshop:
 * 1. when the workshop's own calendar names it — a 调休 workday works, a holiday does not (the
 *    workshop's own word is the most specific);
 * 2. else when the factory calendar names it — a factory holiday is off in every workshop, a factory
 *    调休 day works in every workshop (on its shifts);
 * 3. else when both the workshop's weekdays and the factory's weekdays include it.
 * So a day MRP counts as no working day is no working time in the schedule unless the workshop
 * itself says it works then, and the other way round.
 */

const DAY = 1440;

const hhmm = (s: string) => {
  const [h, m] = s.split(':').map(Number);
  return h! * 60 + m!;
};

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Whether a workshop works on `day` under the rule above. */
export function isScheduleDay(day: string, workshop: WorkCalendar, factory?: MrpCalendar | null): boolean {
  if (workshop.workdays.includes(day)) return true;
  if (workshop.holidays.includes(day)) return false;
  if (factory?.workdays.includes(day)) return true;
  if (factory?.holidays.includes(day)) return false;
  if (!isWorkday({ ...workshop, holidays: [], workdays: [] }, day)) return false;
  if (!factory) return true;
  const wd = new Date(`${day}T00:00:00Z`).getUTCDay() || 7;
  return factory.weekdays.includes(wd);
}

/** The 派工 shift a calendar shift is dispatched as: 夜班 when so coded or when it starts at 18:00 or later, or before 06:00. */
export function dispatchShiftOf(shift: { code: string; start: string }): 'day' | 'night' {
  if (shift.code === 'night') return 'night';
  if (shift.code === 'day') return 'day';
  const start = hhmm(shift.start);
  return start >= 18 * 60 || start < 6 * 60 ? 'night' : 'day';
}

export interface ScheduleWindow {
  /** Minutes from the first day's midnight. */
  start: number;
  end: number;
  /** The day the shift starts on (its 生产日期) and its 派工 shift. */
  day: string;
  dayIndex: number;
  shift: 'day' | 'night';
}

/**
 * The working windows of a workshop over `days` days from `firstDay`: each shift of each working
 * day, its breaks cut out, in minutes from `firstDay`'s midnight. A shift that ends at or before it
 * starts runs past midnight and belongs to the day it starts on.
 */
export function scheduleWindows(
  workshop: WorkCalendar,
  factory: MrpCalendar | null | undefined,
  firstDay: string,
  days: number,
): ScheduleWindow[] {
  const out: ScheduleWindow[] = [];
  for (let d = 0; d < days; d++) {
    const day = addDays(firstDay, d);
    if (!isScheduleDay(day, workshop, factory)) continue;
    for (const s of workshop.shifts) {
      const start = hhmm(s.start);
      const len = (hhmm(s.end) - start + DAY) % DAY || DAY;
      const cuts = s.breaks
        .map((b) => {
          const bs = (hhmm(b.start) - start + DAY) % DAY;
          const be = (hhmm(b.end) - start + DAY) % DAY || DAY;
          return [bs, Math.min(be, len)] as const;
        })
        .filter(([a, b]) => b > a)
        .sort((a, b) => a[0] - b[0]);
      const shift = dispatchShiftOf(s);
      let from = 0;
      const base = d * DAY + start;
      for (const [a, b] of cuts) {
        if (a > from) out.push({ start: base + from, end: base + a, day, dayIndex: d, shift });
        from = Math.max(from, b);
      }
      if (len > from) out.push({ start: base + from, end: base + len, day, dayIndex: d, shift });
    }
  }
  out.sort((a, b) => a.start - b.start);
  // Shifts of one day that overlap (a badly drawn calendar) are merged, so windows never overlap.
  const merged: ScheduleWindow[] = [];
  for (const w of out) {
    const last = merged[merged.length - 1];
    if (last && w.start < last.end) {
      if (w.end > last.end) merged.push({ ...w, start: last.end });
    } else merged.push(w);
  }
  return merged;
}
