import { STANDARD_CHARACTERISTIC } from '@ringmes/domain';
import { sql } from 'kysely';
import { evaluateAlarms } from '../modules/quality/measurement.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';

// [equipment, product, characteristic, subgroups, lsl, usl, mean, sigma, drift (σ reached at the end, over the last 10 %)]
const SERIES: [string, string, string, number, number, number, number, number, number][] = [
  ['EQ-MJ-002', 'SF-6204-OR-P6', 'outside-diameter', 1600, 46.991, 47.0, 46.9955, 0.00094, 0],
  ['EQ-MJ-003', 'SF-6205-OR-P6', 'outside-diameter', 1600, 51.989, 52.0, 51.9945, 0.0011, 1.0],
  ['EQ-MJ-005', 'SF-6204-IR-P6', 'raceway-diameter', 300, 25.98, 26.0, 25.99, 0.0025, 0],
  ['EQ-MJ-006', 'SF-6206-OR-P0', 'raceway-position', 300, 7.97, 8.03, 8.0, 0.008, 0],
  ['EQ-MJ-001', 'SF-6204-IR-P6', 'ring-height', 300, 13.88, 14.0, 13.95, 0.015, 0],
  ['EQ-MJ-007', 'SF-6206-IR-P0', 'rib-angle', 100, 89.95, 90.05, 90.0, 0.01, 0],
];

/** The rings the demo measures (their cards get the subgroups measured while they were ground). */
export const MEASURED_PRODUCTS = [...new Set(SERIES.map((x) => x[1]))];

/**
 * Demo 测量记录 over the last six weeks on the grinding machines (about 20,000 values, set-based):
 * - EQ-MJ-002 外径 of SF-6204-OR-P6 (P6 ΔDmp 0/−9 µm): centred and in control, Cpk ≈ 1.6;
 * - EQ-MJ-003 外径 of SF-6205-OR-P6 (0/−11 µm): in control for four weeks, then (the last four days) the
 *   wheel wears and the mean drifts upwards (Western Electric rule 2 runs, later rule 1), which raised the SPC
 *   messages to the grinding workshop head and the quality inspector;
 * - EQ-MJ-005 沟道直径, EQ-MJ-006 沟道位置, EQ-MJ-001 套圈高度 and EQ-MJ-007 挡边角度 in control.
 * Values are normal (Box–Muller on a fixed seed), rounded to 0.1 µm as a gauge reads them. A
 * subgroup measured while a card of its ring was being ground names that card (the genealogy of a
 * shipped bearing reaches them); the last subgroups of EQ-MJ-002 name open cards of the ring. The
 * 外径 limits are the ring standard's (规格来源 标准); the others are typed.
 */
export async function seedDemoMeasurements(db: Db, admin: AuthUser): Promise<void> {
  await sql`SELECT setseed(0.4242)`.execute(db);
  const ops = await sql<{ id: number }>`
    SELECT id FROM app_user WHERE user_name IN ('op02', 'qc01') ORDER BY user_name`.execute(db);
  const operators = ops.rows.map((r) => Number(r.id));
  if (!operators.length) operators.push(admin.id);
  for (const [eq, product, characteristic, count, lsl, usl, mean, sigma, drift] of SERIES) {
    const ids = await sql<{ equipmentId: number; productId: number }>`
      SELECT (SELECT id FROM equipment WHERE code = ${eq}) AS equipment_id,
             (SELECT id FROM material WHERE code = ${product}) AS product_id`.execute(db);
    const { equipmentId, productId } = ids.rows[0];
    if (!equipmentId || !productId) continue;
    // Subgroups spread evenly over 42 days up to the last hour, operators alternating; their five
    // values drawn first, so each subgroup is written with its statistics in one statement.
    const at = sql`date_trunc('hour', now()) - interval '42 days' + (i * (42 * 24 * 60 - 60) / ${count}) * interval '1 minute'`;
    await sql`
      WITH v AS MATERIALIZED (
        SELECT i, k,
               round((${mean} + ${sigma} * (
                        GREATEST(0, i - 0.9 * ${count}) / (0.1 * ${count}) * ${drift}
                        + sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))::numeric, 4) AS value
          FROM generate_series(0, ${count - 1}) AS i, generate_series(1, 5) AS k),
      g AS (
        SELECT i, count(*)::int AS n, round(avg(value), 6) AS m, max(value) - min(value) AS r,
               round(sum(value * value) - sum(value) * sum(value) / count(*), 10) AS ss
          FROM v GROUP BY i),
      s AS (
        INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, lsl, usl,
                                          spec_source, sample_size, mean, range, ss_dev,
                                          created_by, updated_by, created_at, updated_at)
        SELECT ${productId}, ${characteristic}, ${equipmentId},
               (${sql.val(operators)}::bigint[])[1 + i % ${operators.length}],
               ${at}, ${lsl}, ${usl}, ${STANDARD_CHARACTERISTIC[characteristic] ? 'standard' : 'typed'},
               g.n, g.m, g.r, g.ss, ${admin.id}, ${admin.id}, ${at}, ${at}
          FROM g ORDER BY i
        RETURNING id, measured_at)
      INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
      SELECT s.id, v.k, v.value FROM v JOIN s ON s.measured_at = ${at}`.execute(db);
    // The drifting machine's last week was entered as it happened: its out-of-control points
    // raised the messages (the in-control machines' rare false alarms are left to the charts).
    if (!drift) continue;
    const recent = await sql<{ id: number }>`
      SELECT id FROM measurement_subgroup WHERE equipment_id = ${equipmentId} AND characteristic = ${characteristic}
         AND measured_at >= now() - interval '7 days'`.execute(db);
    await evaluateAlarms(
      db,
      recent.rows.map((r) => Number(r.id)),
    );
  }
  // Genealogy: a subgroup measured while a card of its product was at a grinding step was measured
  // on that card's rings (the card that came in last, a dozen subgroups a card at most); the latest
  // outer-ring subgroups of EQ-MJ-002 not placed so were measured on its open cards.
  await sql`
    WITH x AS (
      SELECT DISTINCT ON (s.id) s.id, c.id AS card_id, s.measured_at
        FROM measurement_subgroup s
        JOIN flow_card c ON c.product_id = s.product_id
        JOIN flow_card_step st ON st.flow_card_id = c.id AND st.in_time IS NOT NULL
        JOIN workshop w ON w.id = st.workshop_id AND w.type = 'grinding'
       WHERE s.flow_card_id IS NULL AND s.measured_at >= st.in_time AND s.measured_at <= COALESCE(st.out_time, now())
       ORDER BY s.id, st.in_time DESC, c.id),
    kept AS (
      SELECT id, card_id, row_number() OVER (PARTITION BY card_id ORDER BY measured_at DESC, id DESC) AS k FROM x)
    UPDATE measurement_subgroup s SET flow_card_id = kept.card_id FROM kept WHERE s.id = kept.id AND kept.k <= 12`.execute(
    db,
  );
  await sql`
    WITH cards AS (
      SELECT c.id, row_number() OVER (ORDER BY c.id) AS k
        FROM flow_card c JOIN material m ON m.id = c.product_id
       WHERE c.status = 'open' AND m.code = 'SF-6204-OR-P6' LIMIT 3),
         latest AS (
      SELECT s.id, row_number() OVER (ORDER BY s.measured_at DESC) AS k FROM measurement_subgroup s
        JOIN equipment e ON e.id = s.equipment_id
       WHERE e.code = 'EQ-MJ-002' AND s.flow_card_id IS NULL ORDER BY s.measured_at DESC LIMIT 24)
    UPDATE measurement_subgroup s SET flow_card_id = c.id
      FROM latest l JOIN cards c ON c.k = 1 + (l.k - 1) / 8
     WHERE s.id = l.id`.execute(db);
}
