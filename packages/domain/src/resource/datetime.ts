/**
 * A `datetime` field typed without an offset ("2026-03-05 08:00" from a date picker, a gauge's CSV
 * or an API client) is a wall-clock time of the factory: it is read in the business time zone
 * (config `TZ_DISPLAY`, Asia/Shanghai), never as UTC. A value with `Z` or an offset is kept.
 */

const OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

/** The offset of `timeZone` at the instant `ms`, in minutes east of UTC. */
function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/**
 * The ISO text with an explicit offset of a datetime: offset-less wall times are interpreted in
 * `timeZone`. Text that is not a datetime is returned unchanged (the schema reports it).
 */
export function withBusinessOffset(text: string, timeZone: string): string {
  const s = text.trim();
  if (OFFSET.test(s)) return s;
  const m = WALL.exec(s);
  if (!m) return text;
  const [, y, mo, d, h, mi, sec = '00', frac = ''] = m;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  // The offset at the guessed instant, corrected once for a daylight-saving change between them.
  let offset = zoneOffsetMinutes(wall, timeZone);
  const again = zoneOffsetMinutes(wall - offset * 60_000, timeZone);
  if (again !== offset) offset = again;
  const sign = offset < 0 ? '-' : '+';
  return `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
