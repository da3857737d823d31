/**
 * Document numbers (单据编号): a prefix, the business date to the day, month or year, and a
 * serial counted within that period. The pattern decides both the look and how often the serial
 * restarts, so numbers of one pattern sort by date. Shared by the server (which hands the numbers
 * out) and the settings page (which shows a live example and checks prefixes as the server does).
 */
export const DOC_NO_PATTERNS = [
  { value: 'daily', label: '{前缀}{年月日}-{4位流水}', digits: 4 },
  { value: 'monthly', label: '{前缀}{年月}-{5位流水}', digits: 5 },
  { value: 'yearly', label: '{前缀}{年}-{6位流水}', digits: 6 },
] as const;

export type DocNoPattern = (typeof DOC_NO_PATTERNS)[number]['value'];

export const DOC_NO_PATTERN_VALUES = DOC_NO_PATTERNS.map((p) => p.value) as [DocNoPattern, ...DocNoPattern[]];

/** A prefix: 1–6 uppercase letters or digits, starting with a letter. */
export const DOC_PREFIX_REGEX = /^[A-Z][A-Z0-9]{0,5}$/;
export const DOC_PREFIX_MESSAGE = '前缀须为 1–6 位大写字母或数字，以字母开头';

/**
 * The first day of the period a business day (`YYYY-MM-DD`) counts in: the day itself, the
 * first of its month, or the first of its year.
 */
export function docNoPeriod(pattern: DocNoPattern, day: string): string {
  if (pattern === 'monthly') return `${day.slice(0, 7)}-01`;
  if (pattern === 'yearly') return `${day.slice(0, 4)}-01-01`;
  return day;
}

/** The `n`th number of a business day's period, e.g. `XS20261122-0001`, `XS202611-00001`, `XS2026-000001`. */
export function formatDocNo(prefix: string, pattern: DocNoPattern, day: string, n: number): string {
  const p = DOC_NO_PATTERNS.find((x) => x.value === pattern) ?? DOC_NO_PATTERNS[0];
  const date = day.replaceAll('-', '').slice(0, pattern === 'monthly' ? 6 : pattern === 'yearly' ? 4 : 8);
  // A serial past the width grows by a digit rather than wrapping (a busy day's 10000th number).
  return `${prefix}${date}-${String(n).padStart(p.digits, '0')}`;
}

/**
 * Why a document type may not take `prefix` while another type (`other`) prints `other.prefix`,
 * or null: the same prefix, or one that is the other followed by digits (the date of one can then
 * read as the other's prefix and date: `X` daily on 2020-12-10 and `X20` monthly in 2012-10 both
 * print `X20201210-…`).
 */
export function docPrefixClash(prefix: string, other: { docType: string; prefix: string }): string | null {
  if (prefix === other.prefix) return `前缀 ${prefix} 已被${other.docType}使用，各类单据的前缀不能相同`;
  const [short, long] = prefix.length < other.prefix.length ? [prefix, other.prefix] : [other.prefix, prefix];
  if (long.startsWith(short) && /^\d+$/.test(long.slice(short.length)))
    return `前缀 ${prefix} 与${other.docType}的前缀 ${other.prefix} 只差末尾数字，编号可能重复`;
  return null;
}
