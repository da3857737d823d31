// Migration 0063 (issue 37 §3) on materials saved before it: a factor becomes an exact ratio (the
// six-decimal inverse 4.255319 of 「1 套 = 0.235 kg」 back to 0.235 kg = 1 套), the unit weight
// and the kilogram conversion become one fact (a weight without a kg line makes one; where both
// existed and disagreed the kg line, which stock was converted by, wins), and `factor` is derived.
// Figures worked by hand in the comments.
import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { databaseBefore } from './before-migration.ts';

let database: Database;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ database, close } = await databaseBefore('0063'));
});
afterAll(() => close?.());

it('turns factors into ratios and the unit weight into the kilogram conversion', async () => {
  const db = database.db;
  const id = async (q: RawBuilder<{ id: number }>) => Number((await q.execute(db)).rows[0].id);
  const unit = (code: string, name: string) =>
    id(sql`INSERT INTO material_unit (code, name) VALUES (${code}, ${name}) RETURNING id`);
  const [set, kg, box, ball] = [
    await unit('SET0063', '套'),
    await unit('KG', 'kg'),
    await unit('BOX0063', '箱'),
    await unit('GRN0063', '粒'),
  ];
  const type = await id(sql`INSERT INTO material_type (code, name) VALUES ('T0063', '原材料') RETURNING id`);
  const material = (code: string, unitId: number, weight: string | null) =>
    id(sql`INSERT INTO material (code, name, material_type_id, unit_id, weight)
           VALUES (${code}, ${code}, ${type}, ${unitId}, ${weight}) RETURNING id`);
  const conversion = (m: number, line: number, u: number, factor: string) =>
    sql`INSERT INTO material_unit_conversion (material_id, line_no, unit_id, factor)
        VALUES (${m}, ${line}, ${u}, ${factor})`.execute(db);
  // A: the material, 1 kg = 4.255319 套 (the inverse of 0.235), and a stale weight 0.2.
  const a = await material('A0063', set, '0.2');
  await conversion(a, 1, kg, '4.255319');
  // B: a bearing of 0.106 kg in boxes of 100, no kg line.
  const b = await material('B0063', set, '0.106');
  await conversion(b, 1, box, '100');
  // C: steel counted in kg. D: balls, 1 kg = 487.19 粒 and a weight of 0.0021 (1 ÷ 487.19 = 0.0020526…).
  const c = await material('C0063', kg, null);
  const d = await material('D0063', ball, '0.0021');
  await conversion(d, 1, kg, '487.19');
  // E: neither.
  const e = await material('E0063', set, null);

  expect(await migrate(db)).toContain('0063_unit_conversion.sql');

  const rows = await sql<{ m: number; line: number; u: number; uq: string; bq: string; factor: string }>`
    SELECT material_id AS m, line_no AS line, unit_id AS u, unit_quantity::text AS uq, base_quantity::text AS bq,
           factor::text AS factor
      FROM material_unit_conversion WHERE material_id IN (${a}, ${b}, ${c}, ${d}, ${e})
     ORDER BY material_id, line_no`.execute(db);
  expect(rows.rows.map((r) => [Number(r.m), r.line, Number(r.u), r.uq, r.bq, r.factor])).toEqual([
    // round(1 ÷ 4.255319, 4) = 0.2350 and round(1 ÷ 0.235, 6) = 4.255319: the exact ratio 0.235 kg = 1 套.
    [a, 1, kg, '0.235000', '1.000000', '4.2553191489'],
    [b, 1, box, '1.000000', '100.000000', '100.0000000000'],
    // B's weight becomes its kg line: 0.106 kg = 1 套.
    [b, 2, kg, '0.106000', '1.000000', '9.4339622642'],
    // 487.19 is no short inverse (1 ÷ 0.0021 = 476.19…): kept as 1 kg = 487.19 粒.
    [d, 1, kg, '1.000000', '487.190000', '487.1900000000'],
  ]);
  const weights = await sql<{ m: number; w: string | null }>`
    SELECT id AS m, weight::text AS w FROM material WHERE id IN (${a}, ${b}, ${c}, ${d}, ${e}) ORDER BY id`.execute(
    db,
  );
  expect(weights.rows.map((r) => [Number(r.m), r.w])).toEqual([
    [a, '0.235000'], // the kg line wins over the stale 0.2
    [b, '0.106000'],
    [c, '1.000000'], // counted in kg
    [d, '0.002053'], // 1 ÷ 487.19 = 0.0020526 → 0.002053, not the typed 0.0021
    [e, null],
  ]);
  // Conversions in SQL: 10 kg of A = 10 × 1 ÷ 0.235 = 42.553191… → 42.5532 (4 places), 43 whole.
  const r = await sql<{ p4: string; p0: string; neg: string; tie: string }>`
    SELECT round_ratio(10 * 1.0, 0.235, 4)::text AS p4, round_ratio(10, 0.235, 0)::text AS p0,
           round_ratio(-1, 8, 2)::text AS neg, round_ratio(1, 8, 2)::text AS tie`.execute(db);
  expect(r.rows[0]).toEqual({ p4: '42.5532', p0: '43', neg: '-0.13', tie: '0.13' });
}, 120_000);
