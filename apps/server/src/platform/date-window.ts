import type { Db } from './db/db.ts';
import { businessDay } from './numbering.ts';
import { getBusinessTimeZone } from './resource/query.ts';
import { readSettings, SETTING_KEYS } from './settings.ts';

/**
 * The window of stored business dates (docs/architecture.md, "Bounds on numbers and dates"): a
 * date a user types into a document, a rate, a receivable or a measurement lies between
 * `dates.earliest` (default 2000-01-01) and today + `dates.yearsAhead` years (default 5), so that
 * a slip of the keyboard (1900-01-01, 9999-12-31) never lands in the books, in a closed month or
 * in a chart's range. Filters (the date ranges lists and reports are searched by) stay unbounded.
 *
 * Field schemas are synchronous, so the two settings are kept here, read again by a hook before
 * any write that is more than `FRESH_MS` after the last read (`dateWindowHook`): a change in
 * 系统设置 takes effect on every server process within seconds, without a restart.
 */

export const DATE_WINDOW_DEFAULTS = { earliest: '2000-01-01', yearsAhead: 5 } as const;
/** How long the settings read serve before a write reads them again. */
const FRESH_MS = 5_000;
/** A measured time may be this far ahead of the server's clock (a gauge's clock runs fast). */
export const CLOCK_SKEW_MS = 5 * 60_000;

let current: { earliest: string; yearsAhead: number } = { ...DATE_WINDOW_DEFAULTS };
let readAt = 0;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD. */
export function isDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const t = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return t.toISOString().startsWith(s);
}

/** Stored values of the two settings, each falling back to its default when unset or unusable. */
export function windowSettings(stored: Map<string, unknown>) {
  const e = stored.get(SETTING_KEYS.datesEarliest);
  const y = stored.get(SETTING_KEYS.datesYearsAhead);
  const years = typeof y === 'string' && /^\d{1,3}$/.test(y) ? Number(y) : y;
  return {
    earliest: typeof e === 'string' && isDay(e) ? e : DATE_WINDOW_DEFAULTS.earliest,
    yearsAhead:
      typeof years === 'number' && Number.isInteger(years) && years >= 0 && years <= 100
        ? years
        : DATE_WINDOW_DEFAULTS.yearsAhead,
  };
}

/** Reads the window's settings now (at start, and by the hook when they are stale). */
export async function readDateWindow(db: Db): Promise<void> {
  const stored = await readSettings(db, [SETTING_KEYS.datesEarliest, SETTING_KEYS.datesYearsAhead]);
  current = windowSettings(stored);
  readAt = Date.now();
}

/** `day` + `years` years (29 February falls back to the 28th). */
function addYears(day: string, years: number): string {
  const y = String(Number(day.slice(0, 4)) + years).padStart(4, '0');
  const out = `${y}${day.slice(4)}`;
  return isDay(out) ? out : `${y}-02-28`;
}

/** The window as it stands: [earliest, latest], days in the factory's time zone. */
export function dateWindow(now = new Date()): { earliest: string; latest: string } {
  return {
    earliest: current.earliest,
    latest: addYears(businessDay(now, getBusinessTimeZone()), current.yearsAhead),
  };
}

/** The business day of an instant (a stored time) in the factory's time zone. */
export const dayOfInstant = (iso: string) => {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? '' : businessDay(t, getBusinessTimeZone());
};

/** Why a day (YYYY-MM-DD) may not be stored, or undefined when it lies in the window. */
export function outsideWindow(day: string, label: string): string | undefined {
  const w = dateWindow();
  if (day < w.earliest || day > w.latest) return `${label}须在 ${w.earliest} 至 ${w.latest} 之间`;
  return undefined;
}

/** Why a month (YYYY-MM) may not be stored, or undefined when it has a day in the window. */
export function monthOutsideWindow(month: string, label: string): string | undefined {
  const w = dateWindow();
  if (month < w.earliest.slice(0, 7) || month > w.latest.slice(0, 7))
    return `${label}须在 ${w.earliest.slice(0, 7)} 至 ${w.latest.slice(0, 7)} 之间`;
  return undefined;
}

/** Why a day that has passed (a measuring day) may not be stored: after today. */
export function dayInFuture(day: string, label: string): string | undefined {
  return day > businessDay(new Date(), getBusinessTimeZone()) ? `${label}不能晚于今天` : undefined;
}

/** Why a time that has happened (a measurement) may not be stored: later than now (a few minutes of skew allowed). */
export function inFuture(iso: string, label: string): string | undefined {
  return Date.parse(iso) > Date.now() + CLOCK_SKEW_MS ? `${label}不能晚于当前时间` : undefined;
}

/**
 * A `preValidation` hook: before a write (anything but GET and HEAD) reads the window's settings
 * again when the last read is older than a few seconds, so the field schemas judge with them.
 */
export function dateWindowHook(db: Db) {
  return (req: { method: string }, _reply: unknown, done: (err?: Error) => void) => {
    if (req.method === 'GET' || req.method === 'HEAD' || Date.now() - readAt < FRESH_MS) return done();
    // A failed read keeps the window as it was: the write itself meets the database next.
    readDateWindow(db).then(
      () => done(),
      () => done(),
    );
  };
}
