import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../src/platform/db/timestamp.ts';

const parseDate = pg.types.getTypeParser(1184) as (text: string) => unknown;
const pad = (v: number, n = 2) => String(v).padStart(n, '0');
const time = (d: unknown) => (d instanceof Date ? d.getTime() : d);

describe('timestamptz text → Date', () => {
  it('reads what PostgreSQL writes as pg’s own parser does', () => {
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 1000, max: 9999 }),
          month: fc.integer({ min: 1, max: 12 }),
          day: fc.integer({ min: 1, max: 28 }),
          hour: fc.integer({ min: 0, max: 23 }),
          minute: fc.integer({ min: 0, max: 59 }),
          second: fc.integer({ min: 0, max: 59 }),
          fraction: fc.option(fc.integer({ min: 1, max: 999_999 }), { nil: undefined }),
          digits: fc.integer({ min: 1, max: 6 }),
          sign: fc.constantFrom('+', '-'),
          zone: fc.constantFrom('00', '08', '05:30', '03:30', '12', '00:00:12', '09:00'),
        }),
        (t) => {
          const fraction =
            t.fraction === undefined
              ? ''
              : `.${pad(t.fraction, 6).slice(0, t.digits).replace(/0+$/, '') || '0'}`;
          const text =
            `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}` +
            `${fraction}${t.sign}${t.zone}`;
          const ours = parseTimestamptz(text);
          expect(ours).toBeInstanceOf(Date);
          // pg's parser takes milliseconds as 1000 × the fraction, which floating point may put a
          // hair under the whole millisecond it truncates to; ours counts whole microseconds.
          expect(Math.abs((time(ours) as number) - (time(parseDate(text)) as number))).toBeLessThanOrEqual(1);
          expect((ours as Date).getUTCMilliseconds()).toBe(
            Math.trunc((Number(`0${fraction || '.0'}`) * 1e6) / 1000),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('leaves what it does not read by position to pg’s parser', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0099-01-02 03:04:05+00',
      '2026-11-27 12:00:00+00 BC',
      '12026-01-01 00:00:00+00',
      '2026-11-27 12:00:00',
      '2026-11-27',
    ]) {
      expect(time(parseTimestamptz(text)), text).toEqual(time(parseDate(text)));
    }
    expect(parseTimestamptz('2026-11-27 20:26:41.5+08')).toEqual(new Date('2026-11-27T12:26:41.500Z'));
  });
});
