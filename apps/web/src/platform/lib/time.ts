import dayjs from 'dayjs';

/** Spec section 9: the default date format. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';

type TimeInput = string | number | Date | null | undefined;

/** Seconds since the epoch (10 digits) are accepted as well as milliseconds. */
function toDate(value: Exclude<TimeInput, null | undefined>): Date {
  if (typeof value === 'number') return new Date(value < 1e11 ? value * 1000 : value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return toDate(Number(value));
  return value instanceof Date ? value : dayjs(value).toDate();
}

/** Formats a time as `YYYY-MM-DD HH:mm:ss` (or another format); empty for no value. */
export function formatTime(value: TimeInput, format: string = DATE_TIME_FORMAT): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(toDate(value));
  return d.isValid() ? d.format(format) : '';
}

/**
 * Relative time as the original helper showed it: under 30 s 刚刚, under an hour N分钟前,
 * under a day N小时前, under two days 1天前; older times as M月D日H时m分 (or `format`).
 */
export function relativeTime(value: TimeInput, now: number = Date.now(), format?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  const diff = (now - date.getTime()) / 1000;
  if (diff < 30) return '刚刚';
  if (diff < 3600) return `${Math.ceil(diff / 60)}分钟前`;
  if (diff < 3600 * 24) return `${Math.ceil(diff / 3600)}小时前`;
  if (diff < 3600 * 24 * 2) return '1天前';
  if (format) return dayjs(date).format(format);
  return `${date.getMonth() + 1}月${date.getDate()}日${date.getHours()}时${date.getMinutes()}分`;
}
