import {
  DOC_NO_PATTERN_VALUES,
  DOC_PREFIX_REGEX,
  type DocNoPattern,
  docNoPeriod,
  docPrefixOf,
  formatDocNo,
  type ResourceDef,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { autonomousOf } from './db/autonomous.ts';
import type { Db } from './db/db.ts';
import { PREPARED, prepared } from './db/prepared.ts';
import { SETTING_KEYS } from './settings.ts';

/** How one document type is numbered: the prefix it prints and the pattern (daily by default). */
export interface DocNoRule {
  prefix: string;
  pattern: DocNoPattern;
}

/** A stored rule as 系统设置 saves it; anything else stored is ignored (the default applies). */
export const docNoRuleSchema = z.object({
  prefix: z.string().regex(DOC_PREFIX_REGEX),
  pattern: z.enum(DOC_NO_PATTERN_VALUES),
});

/** The rule of a document type (named by its default prefix) given the stored setting value. */
export function docNoRule(stored: unknown, defaultPrefix: string): DocNoRule {
  const r = docNoRuleSchema.safeParse(
    (stored as Record<string, unknown> | null | undefined)?.[defaultPrefix],
  );
  return r.success ? r.data : { prefix: defaultPrefix, pattern: 'daily' };
}

/**
 * The counter row of a type and pattern. The type's default prefix names it whatever prefix is
 * printed, so renaming a prefix continues the count; monthly and yearly counts get their own
 * rows (`XS:M`, `XS:Y`, dated the period's first day) so they never meet the daily one.
 */
const counterType = (defaultPrefix: string, pattern: DocNoPattern) =>
  pattern === 'daily' ? defaultPrefix : `${defaultPrefix}:${pattern === 'monthly' ? 'M' : 'Y'}`;

/**
 * Next document number of a type (named by its default prefix in the code) for the business day
 * of `at`, e.g. `XS20261122-0001`, printed with the prefix and pattern set in 系统设置 (read on
 * each call). The counter row is created or incremented by one atomic statement, so concurrent
 * callers never receive the same number. On PostgreSQL that statement commits at once (no saving
 * transaction holds the row): a save that fails after taking its number leaves that number unused,
 * so take it as late as possible, after the document's checks. On PGlite it is part of the
 * calling transaction (an aborted save gives its number back).
 */
export async function nextDocNo(
  db: Db,
  prefix: string,
  timeZone = 'Asia/Shanghai',
  at = new Date(),
): Promise<string> {
  return (await nextDocNos(db, prefix, 1, timeZone, at))[0];
}

/**
 * Next number of a numbered resource's documents (its declared `numbering`) for the business day
 * of `at`: the default way a document takes its `docNo`.
 */
export function nextDocNoOf(db: Db, def: ResourceDef, at = new Date()): Promise<string> {
  return nextDocNo(db, docPrefixOf(def), undefined, at);
}

/**
 * `count` consecutive numbers of a type for the business day of `at`, taken from the counter in
 * one statement (documents made in bulk: the demo's shop floor).
 */
export async function nextDocNos(
  db: Db,
  prefix: string,
  count: number,
  timeZone = 'Asia/Shanghai',
  at = new Date(),
): Promise<string[]> {
  if (count < 1) return [];
  const setting = await db
    .selectFrom('sysSetting')
    .modifyFront(PREPARED)
    .select(sql<unknown>`value -> ${prefix}::text`.as('rule'))
    .where('key', '=', SETTING_KEYS.docNumbering)
    .executeTakeFirst();
  const rule = docNoRule(setting ? { [prefix]: setting.rule } : undefined, prefix);
  const day = businessDay(at, timeZone);
  // On PostgreSQL the count moves on a connection of its own and commits at once, as a sequence
  // would: the day's counter row is locked for this one statement, not until the saving
  // transaction commits (every last-step 报工 of the day queued on the 生产入库 row; issue 39 §2).
  // The embedded database runs one transaction at a time: there the count moves inside it.
  const r = await prepared(sql<{ value: number }>`
    INSERT INTO doc_counter (doc_type, day, value)
    VALUES (${counterType(prefix, rule.pattern)}, ${docNoPeriod(rule.pattern, day)}, ${count}::int)
    ON CONFLICT (doc_type, day) DO UPDATE SET value = doc_counter.value + ${count}::int
    RETURNING value`).execute(autonomousOf(db) ?? db);
  const last = Number(r.rows[0].value);
  return Array.from({ length: count }, (_, i) =>
    formatDocNo(rule.prefix, rule.pattern, day, last - count + 1 + i),
  );
}

/** Calendar-day arithmetic on `YYYY-MM-DD` (no time zone involved): the day `n` days after `day`. */
export const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Noon of a business date in the factory's zone: the instant its document number is dated by. */
export const dayInstant = (day: string) => new Date(`${day}T12:00:00+08:00`);

/** One formatter per zone: building one is not cheap, and the day is asked for on every posting. */
const DAY_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in the factory's time zone, as `YYYY-MM-DD`. */
export function businessDay(at = new Date(), timeZone = 'Asia/Shanghai'): string {
  let format = DAY_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    DAY_FORMATS.set(timeZone, format);
  }
  return format.format(at);
}
