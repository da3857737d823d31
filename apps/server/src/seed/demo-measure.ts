import { ringGeometry, STANDARD_CHARACTERISTIC } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { evaluateAlarms, refreshSubgroupStats, standardSpec } from '../modules/quality/measurement.ts';
import { productLimits } from '../modules/quality/ring-standard.ts';
import { approveRevision, draftRevision } from '../modules/quality/spc-limits.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';

// [equipment, product, characteristic, subgroups, lsl, usl, mean, sigma, drift (σ reached at the end, over the last 10 %)]
const SERIES: [string, string, string, number, number, number, number, number, number][] = [
  ['EQ-MJ-002', 'SF-6204-OR-P6', 'outside-diameter', 1600, 46.991, 47.0, 46.9955, 0.00094, 0],
  ['EQ-MJ-003', 'SF-6205-OR-P6', 'outside-diameter', 1600, 51.989, 52.0, 51.9945, 0.0011, 1.0],
  ['EQ-MJ-005', 'SF-6204-IR-P6', 'raceway-diameter', 300, 25.98, 26.0, 25.99, 0.0025, 0],
  ['EQ-MJ-006', 'SF-6206-OR-P0', 'raceway-position', 300, 7.97, 8.03, 8.0, 0.008, 0],
  ['EQ-MJ-001', 'SF-6204-IR-P6', 'ring-height', 300, 13.88, 14.0, 13.95, 0.015, 0],
];

/**
 * Rings measured as reading sets (issue 38 §3), 5 rings a subgroup: [equipment, product,
 * characteristic, subgroups, readings per plane, planes, target deviation from nominal (μm), σ of
 * the ring's size (μm), typical half out-of-roundness (μm), share of rings ground oval].
 * A 6206 of normal class: bore d = 30 (Δdmp 0/−10, Vdsp 8, Vdmp 8), OD D = 62 (ΔDmp 0/−13, VDsp 10,
 * VDmp 10), width B = 16 (ΔBs 0/−120, VBs 20). A deep-groove ring has no rib: no 挡边角度.
 */
const READING_SERIES: [string, string, string, number, number, number, number, number, number, number][] = [
  ['EQ-MJ-007', 'SF-6206-IR-P0', 'bore-diameter', 120, 4, 2, -5, 1.2, 1.5, 0.03],
  ['EQ-MJ-006', 'SF-6206-OR-P0', 'outside-diameter', 60, 4, 2, -6.5, 1.5, 1.8, 0.03],
  ['EQ-MJ-007', 'SF-6206-IR-P0', 'ring-height', 60, 4, 1, -40, 10, 1.5, 0],
];

/** The rings the demo measures (their cards get the subgroups measured while they were ground). */
export const MEASURED_PRODUCTS = [...new Set([...SERIES, ...READING_SERIES].map((x) => x[1]))];

/** A seeded generator (mulberry32): the demo's reading sets are the same on every seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, normal };
}

/**
 * The reading-set series: each ring's size, a taper between its planes and an oval (two-point
 * readings round the ring: size ± the half out-of-roundness), gauge noise 0.2 μm, read to 0.1 μm.
 * Each ring is computed and judged as entry does (ringGeometry against the product's limits),
 * stored as its subgroup's value with the set beside it.
 */
async function seedDemoReadingSets(db: Db, admin: AuthUser, operators: number[]) {
  const rnd = prng(38);
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const subgroupIds: number[] = [];
  for (const [
    eq,
    code,
    characteristic,
    count,
    points,
    planes,
    target,
    sigma,
    oval,
    ovalShare,
  ] of READING_SERIES) {
    const ids = await sql<{ equipmentId: number; productId: number }>`
      SELECT (SELECT id FROM equipment WHERE code = ${eq}) AS equipment_id,
             (SELECT id FROM material WHERE code = ${code}) AS product_id`.execute(db);
    const { equipmentId, productId } = ids.rows[0];
    if (!equipmentId || !productId) continue;
    const { product, limits } = await productLimits(db, Number(productId));
    const width = characteristic === 'ring-height';
    const nominal = width ? product.B : characteristic === 'outside-diameter' ? product.D : product.d;
    const ringType = characteristic === 'outside-diameter' ? 'outer' : 'inner';
    const std = await standardSpec(db, Number(productId), characteristic);
    const widthLimit = limits.find((l) => l.code === 'Bs');
    const lsl = std?.lsl ?? (width && widthLimit?.lower != null ? nominal + widthLimit.lower / 1000 : null);
    const usl = std?.usl ?? (width && widthLimit?.upper != null ? nominal + widthLimit.upper / 1000 : null);
    for (let i = 0; i < count; i++) {
      const at = new Date(hour - 42 * 86_400_000 + Math.floor((i * (42 * 24 * 60 - 90)) / count) * 60_000);
      const rings = Array.from({ length: 5 }, () => {
        const size = nominal + (target + sigma * rnd.normal()) / 1000;
        const taper = (0.8 * rnd.normal()) / 1000;
        const half = (rnd.next() < ovalShare ? 4.6 : Math.abs(oval + 0.6 * rnd.normal())) / 1000;
        const phase = rnd.next() * Math.PI;
        const readings = Array.from({ length: planes }, (_, p) =>
          Array.from({ length: points }, (_, k) => {
            const angle = phase + (k * Math.PI) / points;
            const x = width
              ? size + half * Math.cos(angle * 2) + (0.2 * rnd.normal()) / 1000
              : size +
                (p - (planes - 1) / 2) * taper +
                half * Math.cos(2 * angle) +
                (0.2 * rnd.normal()) / 1000;
            return Math.round(x * 10_000) / 10_000;
          }),
        );
        return { readings, g: ringGeometry({ characteristic, ringType, readings, nominal, limits }) };
      });
      const sub = await sql<{ id: number }>`
        INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, lsl, usl,
                                          spec_source, created_by, updated_by, created_at, updated_at)
        VALUES (${productId}, ${characteristic}, ${equipmentId}, ${operators[i % operators.length]}, ${at},
                ${lsl == null ? null : new Decimal(lsl).toFixed(4)}, ${usl == null ? null : new Decimal(usl).toFixed(4)},
                ${std ? 'standard' : 'typed'}, ${admin.id}, ${admin.id}, ${at}, ${at})
        RETURNING id`.execute(db);
      const subgroupId = Number(sub.rows[0].id);
      subgroupIds.push(subgroupId);
      const values = await sql<{ id: number }>`
        INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
        SELECT ${subgroupId}, k, v FROM unnest(${sql.val(rings.map((r) => new Decimal(r.g.value).toFixed(6)))}::numeric[])
          WITH ORDINALITY AS u(v, k)
        RETURNING id, line_no`.execute(db);
      const byLine = new Map(values.rows.map((v: any) => [Number(v.lineNo), Number(v.id)]));
      for (let k = 0; k < rings.length; k++) {
        const { readings, g } = rings[k];
        const d = (v: number | null, n: number) => (v == null ? null : new Decimal(v).toFixed(n));
        await sql`
          INSERT INTO ring_reading_set (measurement_value_id, measurement_subgroup_id, ring_type, points, planes, readings,
            nominal, mean_mm, mean_deviation_um, deviation_min_um, deviation_max_um, variation_um, mean_variation_um,
            plane_means, checks, verdict)
          VALUES (${byLine.get(k + 1)}, ${subgroupId}, ${ringType}, ${points}, ${planes},
            ${sql.val(readings.flat().map((x) => x.toFixed(4)))}::numeric[], ${d(nominal, 4)}, ${new Decimal(g.value).toFixed(7)},
            ${d(g.meanDeviation, 4)}, ${d(g.deviationMin, 4)}, ${d(g.deviationMax, 4)}, ${d(g.variation, 4)},
            ${d(g.meanVariation, 4)},
            ${g.planes ? sql`${sql.val(g.planes.map((p) => new Decimal(p.mp).toFixed(7)))}::numeric[]` : null},
            ${JSON.stringify(g.checks)}::jsonb, ${g.verdict})`.execute(db);
      }
    }
  }
  await refreshSubgroupStats(db, subgroupIds);
}

/**
 * Demo 测量记录 over the last six weeks on the grinding machines (about 20,000 values, set-based):
 * - EQ-MJ-002 外径 of SF-6204-OR-P6 (P6 ΔDmp 0/−9 µm): centred and in control, Cpk ≈ 1.6;
 * - EQ-MJ-003 外径 of SF-6205-OR-P6 (0/−11 µm): in control for four weeks, then (the last four days) the
 *   wheel wears and the mean drifts upwards (Western Electric rule 2 runs, later rule 1), which raised the SPC
 *   messages to the grinding workshop head and the quality inspector against its frozen limits
 *   (第 2 版, 第 1 版 superseded);
 * - EQ-MJ-005 沟道直径, EQ-MJ-006 沟道位置 and EQ-MJ-001 套圈高度 in control;
 * - reading sets (issue 38 §3): EQ-MJ-007 内径 (4 points × 2 planes) and 套圈高度 (4 points) of
 *   SF-6206-IR-P0, EQ-MJ-006 外径 of SF-6206-OR-P0, a few rings in each hundred ground oval (V_dsp over
 *   its limit: 超差). No 挡边角度: a deep-groove ring has no rib.
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
  await seedDemoReadingSets(db, admin, operators);
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
  await seedDemoDriftAlarm(db, admin);
}

/** Business day (Asia/Shanghai) of an instant, `days` later. */
const shanghaiDay = (t: Date, days = 0) =>
  new Date(t.getTime() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The drifting machine (EQ-MJ-003, 外径 of SF-6205-OR-P6) as a plant runs it (issue 38 §2):
 * - frozen limits with a revision: 第 1 版 from the first 10 days, approved; 第 2 版 from the four
 *   in-control weeks with the most extreme point removed for its cause, approved — 第 1 版 已替代;
 * - its last week entered as it happened, against 第 2 版: the wheel's drift raises the alarm (the
 *   message to the grinding head and the quality inspector; spc_violation.revision_id names 第 2 版).
 */
async function seedDemoDriftAlarm(db: Db, admin: AuthUser) {
  const key = await sql<{ equipmentId: number; productId: number; first: Date }>`
    SELECT e.id AS equipment_id, m.id AS product_id,
           (SELECT min(measured_at) FROM measurement_subgroup WHERE equipment_id = e.id AND product_id = m.id) AS first
      FROM equipment e, material m WHERE e.code = 'EQ-MJ-003' AND m.code = 'SF-6205-OR-P6'`.execute(db);
  const k = key.rows[0];
  if (!k?.first) return;
  const series = {
    productId: Number(k.productId),
    characteristic: 'outside-diameter',
    equipmentId: Number(k.equipmentId),
  };
  const qcRow = await sql<{ id: number }>`SELECT id FROM app_user WHERE user_name = 'qc01'`.execute(db);
  const qc: AuthUser = { ...admin, id: Number(qcRow.rows[0]?.id ?? admin.id), userName: 'qc01' };
  const first = new Date(k.first);
  const v1 = await draftRevision(db, qc, {
    ...series,
    from: shanghaiDay(first),
    to: shanghaiDay(first, 9),
    exclusions: [],
    remark: '新砂轮投产后的首批基准',
  });
  await approveRevision(db, admin, v1.id);
  const to = shanghaiDay(first, 27);
  const extreme = await sql<{ id: number }>`
    SELECT id FROM measurement_subgroup
     WHERE equipment_id = ${series.equipmentId} AND product_id = ${series.productId}
       AND measured_at < (${to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'
     ORDER BY abs(mean - ${v1.limits.center}) DESC, id LIMIT 1`.execute(db);
  const v2 = await draftRevision(db, qc, {
    ...series,
    from: shanghaiDay(first),
    to,
    exclusions: extreme.rows.map((x) => ({
      subgroupId: Number(x.id),
      reason: '量仪校零后首件未复测（已查明）',
    })),
    remark: '四周稳定运行数据重算',
  });
  await approveRevision(db, admin, v2.id);
  const recent = await sql<{ id: number }>`
    SELECT id FROM measurement_subgroup WHERE equipment_id = ${series.equipmentId} AND characteristic = 'outside-diameter'
       AND measured_at >= now() - interval '7 days'`.execute(db);
  // Entered by qc01: a flagged subgroup on an open card of the ring holds that card (SPC 失控) with
  // a 过程检验 task; the demo's cards of this ring are all completed, so none is held.
  await evaluateAlarms(
    db,
    recent.rows.map((r) => Number(r.id)),
    qc,
  );
}
