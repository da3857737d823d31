import { sql } from 'kysely';
import type { Db } from './db/db.ts';

/**
 * 系统设置 values live in `sys_setting` (key → jsonb) and are read from the database where they
 * are used, so a change made through any server process takes effect on every other one at its
 * next read, without a restart and without a cache to invalidate (the table is a few dozen rows
 * read by primary key). The one cache in front of them is the session cache (5 s).
 */
export const SETTING_KEYS = {
  companyName: 'companyName',
  companyLogo: 'companyLogo',
  sessionIdleMinutes: 'session.idleMinutes',
  sessionAbsoluteHours: 'session.absoluteHours',
  overShipPercent: 'sales.overShipPercent',
  overIssuePercent: 'production.overIssuePercent',
  overDispatchPercent: 'production.overDispatchPercent',
  overReceivePercent: 'purchase.overReceivePercent',
  shipmentInspectionRequired: 'shipmentInspectionRequired',
  /**
   * GB/T 2828.1 9.3.3: production is steady and the responsible authority approves reduced
   * inspection (boolean, off when unset): with it a switching score of 30 switches to 放宽.
   */
  samplingReducedApproved: 'quality.samplingReducedApproved',
  /** Per document type (its default prefix): `{ prefix, pattern }` where it differs from the default. */
  docNumbering: 'numbering.docTypes',
  /** 职责分离: 报工审核人不得为报工人 (boolean, on when unset). */
  approverNotReporter: 'production.approverNotReporter',
  /** 职责分离: 收付款确认人不得为制单人 (boolean, on when unset). */
  checkerNotMaker: 'finance.checkerNotMaker',
  /** Stored business dates lie between these (platform/date-window.ts): a day, and years after today. */
  datesEarliest: 'dates.earliest',
  datesYearsAhead: 'dates.yearsAhead',
  /** 成本核算: `[{ workshopId, basis: 'standard-minute' | 'hour', rate }]`, the overhead rate per workshop. */
  costingOverheadRates: 'costing.overheadRates',
  /** 成本核算: what a kg of scrap brings back (yuan, decimal string); unset: nothing recovered. */
  costingScrapPricePerKg: 'costing.scrapPricePerKg',
  /** 生产日历 (MRP lead times): the weekdays worked, 1 = Monday … 7 = Sunday; unset: every day. */
  planningWeekdays: 'planning.weekdays',
  /** 生产日历: holidays (YYYY-MM-DD) and extra working days (调休). */
  planningHolidays: 'planning.holidays',
  planningWorkdays: 'planning.workdays',
} as const;

/** The stored values of some keys (absent keys are missing from the map). */
export async function readSettings(db: Db, keys: readonly string[]): Promise<Map<string, unknown>> {
  if (!keys.length) return new Map();
  const rows = await db.selectFrom('sysSetting').select(['key', 'value']).where('key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.key as string, r.value as unknown]));
}

/** A yes/no setting: its stored boolean, or `fallback` when it is unset or not a boolean. */
export async function settingOn(db: Db, key: string, fallback: boolean): Promise<boolean> {
  const v = (await readSettings(db, [key])).get(key);
  return typeof v === 'boolean' ? v : fallback;
}

/**
 * A whole-number setting as an SQL expression, with `fallback` when it is unset or not a whole
 * number (sessions embed their timeouts in the query that resolves a token).
 */
export function intSettingSql(key: string, fallback: number) {
  return sql<number>`COALESCE((SELECT CASE WHEN value #>> '{}' ~ '^[0-9]{1,7}$' THEN (value #>> '{}')::int END
                                 FROM sys_setting WHERE key = ${key}), ${fallback}::int)`;
}
