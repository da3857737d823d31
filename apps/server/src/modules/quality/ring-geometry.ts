import {
  bearingKind,
  measurementSubgroupResource as def,
  GeometryInputError,
  MAX_READING_PLANES,
  MAX_READING_POINTS,
  MAX_SUBGROUP_SIZE,
  MEASURE_CHARACTERISTICS,
  READING_CHARACTERISTICS,
  type RingGeometry,
  type RingType,
  racewayDiameters,
  ringGeometry,
  SPC_FAMILIES,
  type SpcFamily,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { AppError, badRequest, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { resourceFieldSchema } from '../../platform/resource/schema.ts';
import { measurementHooks } from './measurement.ts';
import { productLimits } from './ring-standard.ts';

/**
 * Ring geometry from multi-point readings (issue 38 §3): a subgroup of rings entered or imported
 * as one reading set per ring (points per plane × planes, the characteristic's plan). Each ring's
 * quantities are computed and judged by `ringGeometry` (packages/domain), its value in the
 * 测量记录 subgroup — what the control charts plot — is its mean d_mp / width / raceway reading,
 * and the set is kept beside that value (ring_reading_set, migration 0066). Single-value subgroups
 * (the kit's add, the gauge import) are untouched.
 */

const ADD = 'measure:outsideDiameter:add' as const;
const LIST = 'measure:outsideDiameter:list' as const;
const IMPORT = 'measure:outsideDiameter:import' as const;
const REPORTS = Object.values(SPC_FAMILIES).map((f) => f.permission as `${string}:${string}:${string}`);
const READING_KEYS = Object.keys(READING_CHARACTERISTICS) as [string, ...string[]];
const FAMILY_KEYS = Object.keys(SPC_FAMILIES) as [SpcFamily, ...SpcFamily[]];

export interface ReadingPlanRow {
  characteristic: string;
  points: number;
  planes: number;
}

export async function readingPlans(db: Db): Promise<ReadingPlanRow[]> {
  const r = await sql<ReadingPlanRow>`
    SELECT characteristic, points::int AS points, planes::int AS planes FROM ring_reading_plan ORDER BY characteristic`.execute(
    db,
  );
  return r.rows;
}

async function planOf(db: Db, characteristic: string): Promise<ReadingPlanRow> {
  const r = await sql<ReadingPlanRow>`
    SELECT characteristic, points::int AS points, planes::int AS planes FROM ring_reading_plan
     WHERE characteristic = ${characteristic}`.execute(db);
  return r.rows[0] ?? { characteristic, ...READING_CHARACTERISTICS[characteristic].plan };
}

/** Which ring a product's reading set is of: its 零件类型, else the characteristic's (bore → inner, OD → outer). */
function ringTypeOf(partType: string | null, characteristic: string): RingType {
  if (partType === 'inner' || partType === 'outer') return partType;
  return characteristic === 'outside-diameter' ? 'outer' : 'inner';
}

/** What the computation needs of a product: ring type, nominal size of the characteristic, limits. */
async function geometryBasis(db: Db, productId: number, characteristic: string) {
  const p = await sql<{ partType: string | null }>`
    SELECT part_type FROM material WHERE id = ${productId}`.execute(db);
  if (!p.rows.length) throw fieldError('productId', '产品不存在或已被删除');
  const ringType = ringTypeOf(p.rows[0].partType, characteristic);
  const kind = READING_CHARACTERISTICS[characteristic].kind;
  if (kind === 'raceway')
    return { ringType, nominal: await racewayNominal(db, productId, characteristic, ringType), limits: [] };
  // Diameters and widths are judged by the ring standard: the product needs its class and sizes.
  const { product, limits } = await productLimits(db, productId);
  const nominal =
    kind === 'width' ? product.B : characteristic === 'outside-diameter' ? product.D : product.d;
  return { ringType, nominal, limits };
}

/**
 * The nominal a raceway reading deviates from. 沟道直径: the groove (bottom) diameter of the ring in
 * the bearing whose active BOM uses it — pitch diameter Dpw = (d + D) / 2 ∓ the ball diameter Dw
 * from the ball's spec (「G10 Φ9.525」), inner Dpw − Dw, outer Dpw + Dw (racewayDiameters): a 6206
 * (30 × 62, Dw 9.525) inner ring 36.475 mm, outer 55.525 mm. 沟道位置 of a deep-groove ring: the
 * middle of its width, B / 2 (the groove is symmetric). null when the product has no such bearing,
 * sizes or ball; the readings are then shown without a deviation.
 */
async function racewayNominal(db: Db, productId: number, characteristic: string, ringType: RingType) {
  if (characteristic === 'raceway-position') {
    const p = await sql<{ name: string; code: string; spec: string | null; width: string | null }>`
      SELECT name, code, spec, bearing_width::text AS width FROM material WHERE id = ${productId}`.execute(
      db,
    );
    const x = p.rows[0];
    if (!x?.width || bearingKind(x.spec, x.code, x.name)?.type !== '深沟球轴承') return null;
    return new Decimal(x.width).div(2).toNumber();
  }
  const b = await sql<{ d: string | null; D: string | null; ball: string | null }>`
    SELECT b.bore_diameter::text AS d, b.outside_diameter::text AS "D", ball.spec AS ball
      FROM bom JOIN material b ON b.id = bom.product_id AND b.part_type = 'bearing'
      JOIN bom_line l ON l.bom_id = bom.id AND l.material_id = ${productId}
      JOIN bom_line bl ON bl.bom_id = bom.id JOIN material ball ON ball.id = bl.material_id
     WHERE bom.status = 'active' AND ball.name LIKE '%球%' AND ball.spec LIKE '%Φ%'
     ORDER BY bom.id LIMIT 1`.execute(db);
  const x = b.rows[0];
  const dw = /Φ\s*(\d+(?:\.\d+)?)/.exec(x?.ball ?? '')?.[1];
  if (!x?.d || !x.D || !dw) return null;
  return Number(racewayDiameters(x.d, x.D, dw)[ringType]);
}

const reading = z.coerce
  .number({ error: '读数必须是数字' })
  .refine(Number.isFinite, '读数必须是数字')
  .refine((v) => v > 0 && v < 100_000, '读数应为正数（mm）');
const ringBody = z.strictObject({
  readings: z
    .array(z.array(reading).min(1).max(MAX_READING_POINTS, `每个截面最多 ${MAX_READING_POINTS} 个测点`))
    .min(1, '至少需要一个截面的读数')
    .max(MAX_READING_PLANES, `最多 ${MAX_READING_PLANES} 个截面`),
});
const f = (name: string) => resourceFieldSchema(def, name);

export const readingSetBody = z.strictObject({
  productId: zx.id,
  characteristic: z.enum(READING_KEYS, { error: '该测量特性不按套圈读数组录入（角度按单值录入）' }),
  equipmentId: zx.id,
  operatorId: zx.id,
  measuredAt: f('measuredAt') as z.ZodType<string>,
  flowCardId: zx.id.nullable().optional(),
  lsl: (f('lsl') as z.ZodType<string | null>).nullable().optional(),
  usl: (f('usl') as z.ZodType<string | null>).nullable().optional(),
  specReason: zx.text(200).nullable().optional(),
  remark: zx.text(500).nullable().optional(),
  rings: z
    .array(ringBody)
    .min(1, '至少录入一件套圈的读数')
    .max(MAX_SUBGROUP_SIZE, `一个子组最多 ${MAX_SUBGROUP_SIZE} 件`),
});
export type ReadingSetBody = z.infer<typeof readingSetBody>;

const num = (v: unknown) => (v == null || v === '' ? null : Number(v));

/** Computes every ring of a body against the plan and the product, or 400 naming the ring and reading. */
async function computeRings(
  db: Db,
  body: Pick<ReadingSetBody, 'productId' | 'characteristic' | 'rings'> & {
    lsl?: unknown;
    usl?: unknown;
  },
) {
  const plan = await planOf(db, body.characteristic);
  const basis = await geometryBasis(db, body.productId, body.characteristic);
  return body.rings.map((ring, i) => {
    const shape = ring.readings.map((p) => p.length);
    if (ring.readings.length !== plan.planes || shape.some((n) => n !== plan.points))
      throw fieldError(
        `rings.${i}.readings`,
        `第 ${i + 1} 件的读数应为 ${plan.planes} 个截面 × 每截面 ${plan.points} 点（测量特性的读数方案），实为 ${shape.join('+')} 个`,
      );
    try {
      return ringGeometry({
        characteristic: body.characteristic,
        ringType: basis.ringType,
        readings: ring.readings,
        nominal: basis.nominal,
        limits: basis.limits,
        spec: { lsl: num(body.lsl), usl: num(body.usl) },
      });
    } catch (e) {
      if (e instanceof GeometryInputError)
        throw fieldError(`rings.${i}.${e.field}`, `第 ${i + 1} 件：${e.message}`);
      throw e;
    }
  });
}

const dec = (v: number | null, places: number) => (v == null ? null : new Decimal(v).toFixed(places));

/**
 * Saves one subgroup of reading sets: the 测量记录 subgroup through the resource kit (its limits
 * from the ring standard, flow card check, statistics, SPC alarms), each ring's value its mean
 * d_mp / width / raceway reading, and the sets beside the values. Answers the subgroup and rings.
 */
export async function addReadingSets(db: Db, user: AuthUser, body: ReadingSetBody) {
  return db.transaction().execute(async (trx) => {
    // Limits first: a typed raceway limit judges the rings; a standard one is derived by the kit.
    const rings = await computeRings(trx, body);
    const { rings: _r, ...header } = body;
    const id = await createRecord(
      { db: trx, user, def },
      { ...header, values: rings.map((g) => ({ value: new Decimal(g.value).toFixed(6) })) },
      measurementHooks,
    );
    const values = await sql<{ id: number; lineNo: number }>`
      SELECT id, line_no FROM measurement_value WHERE measurement_subgroup_id = ${id} ORDER BY line_no`.execute(
      trx,
    );
    await insertSets(
      trx,
      id,
      values.rows.map((v) => Number(v.id)),
      body.rings,
      rings,
    );
    return { id, rings: rings.map((g, i) => ({ valueId: Number(values.rows[i]?.id), ...g })) };
  });
}

async function insertSets(
  db: Db,
  subgroupId: number,
  valueIds: number[],
  input: { readings: number[][] }[],
  rings: RingGeometry[],
) {
  for (let i = 0; i < rings.length; i++) {
    const g = rings[i];
    const readings = input[i].readings;
    await sql`
      INSERT INTO ring_reading_set (measurement_value_id, measurement_subgroup_id, ring_type, points, planes, readings,
        nominal, mean_mm, mean_deviation_um, deviation_min_um, deviation_max_um, variation_um, mean_variation_um,
        plane_means, checks, verdict)
      VALUES (${valueIds[i]}, ${subgroupId}, ${g.ringType}, ${readings[0].length}, ${readings.length},
        ${sql.val(readings.flat().map((x) => new Decimal(x).toFixed(6)))}::numeric[],
        ${dec(g.nominal, 4)}, ${new Decimal(g.value).toFixed(7)}, ${dec(g.meanDeviation, 4)}, ${dec(g.deviationMin, 4)},
        ${dec(g.deviationMax, 4)}, ${dec(g.variation, 4)}, ${dec(g.meanVariation, 4)},
        ${g.planes ? sql`${sql.val(g.planes.map((p) => new Decimal(p.mp).toFixed(7)))}::numeric[]` : null},
        ${JSON.stringify(g.checks)}::jsonb, ${g.verdict})`.execute(db);
  }
}

// ------------------------------------------------------------------ import

/**
 * A gauge's reading sets as text (CSV or tab separated): one line per ring, its readings plane by
 * plane (points × planes numbers), optionally after a first 「件号」 column that is not a number;
 * a header line is skipped. Consecutive rings form subgroups of `subgroupSize`. All or nothing: the
 * bad lines are answered by their number.
 */
export const readingImportBody = readingSetBody.omit({ rings: true }).extend({
  text: z.string().min(1, '请粘贴或上传读数').max(2_000_000, '读数文件过大（最多 2 MB）'),
  subgroupSize: z
    .number()
    .int()
    .min(1, '子组容量至少为 1')
    .max(MAX_SUBGROUP_SIZE, `子组容量最多 ${MAX_SUBGROUP_SIZE}`),
  dryRun: z.boolean().default(false),
});

/** Rings one import takes: every subgroup is saved through the kit in one transaction. */
export const MAX_IMPORT_RINGS = 2_000;

export async function importReadingSets(db: Db, user: AuthUser, body: z.infer<typeof readingImportBody>) {
  const plan = await planOf(db, body.characteristic);
  const need = plan.points * plan.planes;
  const errors: { row: number; message: string }[] = [];
  const rings: { readings: number[][] }[] = [];
  const lines = body.text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const NUM = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
  let seen = false;
  lines.forEach((line, i) => {
    const cells = line
      .split(/[,\t;]/)
      .map((c) => c.trim())
      .filter(Boolean);
    if (!cells.length) return;
    const first = !seen;
    seen = true;
    // A header: the first line, with a cell that is not a number.
    if (first && !cells.every((c) => NUM.test(c))) return;
    // One more cell than readings: the first is the ring's 件号.
    const values = cells.length === need + 1 ? cells.slice(1) : cells;
    if (values.length !== need || !values.every((c) => NUM.test(c))) {
      errors.push({
        row: i + 1,
        message: `应有 ${need} 个读数（${plan.planes} 个截面 × ${plan.points} 点，可在前面加一列件号），实有 ${values.length} 个${values.every((c) => NUM.test(c)) ? '' : '，且含非数字'}`,
      });
      return;
    }
    const xs = values.map(Number);
    rings.push({
      readings: Array.from({ length: plan.planes }, (_, p) =>
        xs.slice(p * plan.points, (p + 1) * plan.points),
      ),
    });
  });
  if (!rings.length && !errors.length) throw fieldError('text', '文件中没有读数');
  if (rings.length > MAX_IMPORT_RINGS)
    throw fieldError('text', `一次最多导入 ${MAX_IMPORT_RINGS} 件，请分批导入`);
  if (errors.length)
    throw new AppError(
      400,
      '400',
      `导入失败：有 ${errors.length} 行读数不正确，未导入任何数据`,
      errors.slice(0, 200).map((e) => ({ field: `第${e.row}行`, message: e.message })),
    );
  const { text: _t, subgroupSize, dryRun, ...header } = body;
  const groups: { readings: number[][] }[][] = [];
  for (let i = 0; i < rings.length; i += subgroupSize) groups.push(rings.slice(i, i + subgroupSize));
  if (dryRun) {
    const computed = await computeRings(db, { ...header, rings });
    return {
      rings: rings.length,
      subgroups: groups.length,
      fail: computed.filter((g) => g.verdict === 'fail').length,
      imported: 0,
    };
  }
  let fail = 0;
  const ids: number[] = [];
  // One subgroup after another in one transaction: all or nothing.
  await db.transaction().execute(async (trx) => {
    for (const g of groups) {
      const computed = await computeRings(trx, { ...header, rings: g });
      fail += computed.filter((x) => x.verdict === 'fail').length;
      const id = await createRecord(
        { db: trx, user, def },
        { ...header, values: computed.map((x) => ({ value: new Decimal(x.value).toFixed(6) })) },
        measurementHooks,
      );
      const values = await sql<{ id: number }>`
        SELECT id FROM measurement_value WHERE measurement_subgroup_id = ${id} ORDER BY line_no`.execute(trx);
      await insertSets(
        trx,
        id,
        values.rows.map((v) => Number(v.id)),
        g,
        computed,
      );
      ids.push(id);
    }
  });
  return { rings: rings.length, subgroups: groups.length, fail, imported: ids.length, ids };
}

// ------------------------------------------------------------------ reads

export interface RingSetRow {
  id: number;
  subgroupId: number;
  valueId: number;
  lineNo: number;
  productId: number;
  productName: string;
  characteristic: string;
  equipmentName: string;
  flowCardId: number | null;
  flowCardNo: string | null;
  measuredAt: string;
  ringType: RingType;
  points: number;
  planes: number;
  readings: number[][];
  nominal: number | null;
  meanMm: string;
  meanDeviationUm: number | null;
  deviationMinUm: number | null;
  deviationMaxUm: number | null;
  variationUm: number;
  meanVariationUm: number | null;
  planeMeans: string[] | null;
  checks: unknown[];
  verdict: string;
  lsl: string | null;
  usl: string | null;
}

const listQuery = z.strictObject({
  family: z.enum(FAMILY_KEYS, { error: '报表类型不正确' }).optional(),
  characteristic: z.enum(READING_KEYS, { error: '测量特性不正确' }).optional(),
  productId: zx.id.optional(),
  equipmentId: zx.id.optional(),
  flowCardId: zx.id.optional(),
  subgroupId: zx.id.optional(),
  verdict: z.enum(['pass', 'fail', 'incomplete'], { error: '判定只能是 pass、fail、incomplete' }).optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
    .optional(),
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
});

function characteristicsOf(family?: SpcFamily, characteristic?: string): string[] {
  const all = Object.keys(READING_CHARACTERISTICS);
  if (characteristic) return [characteristic];
  if (!family) return all;
  return MEASURE_CHARACTERISTICS.filter((c) => c.family === family && all.includes(c.value)).map(
    (c) => c.value,
  );
}

/** The reading sets of rings, newest first, with their figures, checks and the subgroup's limits. */
export async function ringSets(db: Db, q: z.infer<typeof listQuery>) {
  const chars = characteristicsOf(q.family, q.characteristic);
  const where = sql`s.characteristic = ANY(${sql.val(chars)}::text[])
    ${q.productId ? sql`AND s.product_id = ${q.productId}` : sql``}
    ${q.equipmentId ? sql`AND s.equipment_id = ${q.equipmentId}` : sql``}
    ${q.flowCardId ? sql`AND s.flow_card_id = ${q.flowCardId}` : sql``}
    ${q.subgroupId ? sql`AND s.id = ${q.subgroupId}` : sql``}
    ${q.verdict ? sql`AND r.verdict = ${q.verdict}` : sql``}
    ${q.from ? sql`AND s.measured_at >= (${q.from}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}
    ${q.to ? sql`AND s.measured_at < (${q.to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}`;
  const size = q.pageSize;
  const offset = (Math.max(q.pageNum, 1) - 1) * size;
  const [rows, total, summary] = await Promise.all([
    sql<Record<string, any>>`
      SELECT r.id, r.measurement_subgroup_id AS subgroup_id, r.measurement_value_id AS value_id, v.line_no,
             s.product_id, m.name AS product_name, s.characteristic, e.name AS equipment_name, s.flow_card_id,
             c.doc_no AS flow_card_no, s.measured_at, r.ring_type, r.points, r.planes, r.readings::float8[] AS readings,
             r.nominal::float8 AS nominal, r.mean_mm::text AS mean_mm, r.mean_deviation_um::float8 AS mean_deviation_um,
             r.deviation_min_um::float8 AS deviation_min_um, r.deviation_max_um::float8 AS deviation_max_um,
             r.variation_um::float8 AS variation_um, r.mean_variation_um::float8 AS mean_variation_um,
             r.plane_means::text[] AS plane_means, r.checks, r.verdict, s.lsl::text AS lsl, s.usl::text AS usl
        FROM ring_reading_set r
        JOIN measurement_subgroup s ON s.id = r.measurement_subgroup_id
        JOIN measurement_value v ON v.id = r.measurement_value_id
        JOIN material m ON m.id = s.product_id
        JOIN equipment e ON e.id = s.equipment_id
        LEFT JOIN flow_card c ON c.id = s.flow_card_id
       WHERE ${where}
       ORDER BY s.measured_at DESC, s.id DESC, v.line_no
       LIMIT ${size} OFFSET ${offset}`.execute(db),
    sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ring_reading_set r JOIN measurement_subgroup s ON s.id = r.measurement_subgroup_id
       WHERE ${where}`.execute(db),
    sql<Record<string, any>>`
      SELECT s.characteristic, count(*)::int AS rings, count(*) FILTER (WHERE r.verdict = 'fail')::int AS fail,
             count(*) FILTER (WHERE r.verdict = 'pass')::int AS pass,
             avg(r.mean_deviation_um)::float8 AS mean_deviation_um, max(r.variation_um)::float8 AS max_variation_um,
             max(r.mean_variation_um)::float8 AS max_mean_variation_um
        FROM ring_reading_set r JOIN measurement_subgroup s ON s.id = r.measurement_subgroup_id
       WHERE ${where} GROUP BY s.characteristic ORDER BY s.characteristic`.execute(db),
  ]);
  const list: RingSetRow[] = rows.rows.map((x) => {
    const flat = (x.readings as number[]).map(Number);
    return {
      ...(x as RingSetRow),
      id: Number(x.id),
      subgroupId: Number(x.subgroupId),
      valueId: Number(x.valueId),
      productId: Number(x.productId),
      flowCardId: x.flowCardId == null ? null : Number(x.flowCardId),
      readings: Array.from({ length: x.planes }, (_, p) => flat.slice(p * x.points, (p + 1) * x.points)),
    };
  });
  return { list, total: total.rows[0]?.n ?? 0, pageNum: q.pageNum, pageSize: size, summary: summary.rows };
}

/**
 * Per-ring sizes for 选配 (issue 38 §4) and anything else that sorts rings by size: for each ring
 * measured with a reading set, its mean diameter (d_mp of an inner ring's bore, D_mp of an outer
 * ring's outside diameter: the mean of its planes' d_mp) and its groove (raceway) diameter, in mm,
 * with the verdict of the diameter's set. A ring is 「ring k of flow card X」: the k-th value of the
 * characteristic measured on the card (by measuring time, subgroup and line), as the subgroups
 * number them; rings measured without a card are not answered. `productIds` narrows to products.
 */
export interface RingSizeRow {
  cardId: number;
  cardNo: string;
  ringNo: number;
  productId: number;
  ringType: RingType;
  /** d_mp / D_mp (mm) and the measurement value it is. */
  meanDiameterMm: number | null;
  meanDiameterValueId: number | null;
  /** Δd_mp / ΔD_mp of that mean (μm) and the set's verdict (ISO 492). */
  meanDeviationUm: number | null;
  verdict: string | null;
  /** Mean groove diameter (mm) and the measurement value it is. */
  grooveMm: number | null;
  grooveValueId: number | null;
}

export async function ringSizes(
  db: Db,
  filter: { productIds?: number[]; cardIds?: number[] } = {},
): Promise<RingSizeRow[]> {
  const r = await sql<Record<string, any>>`
    WITH sets AS (
      SELECT s.flow_card_id AS card_id, s.product_id, s.characteristic, r.ring_type, r.measurement_value_id AS value_id,
             r.mean_mm::float8 AS mean_mm, r.mean_deviation_um::float8 AS dev, r.verdict,
             row_number() OVER (PARTITION BY s.flow_card_id, s.characteristic ORDER BY s.measured_at, s.id, v.line_no)::int AS ring_no
        FROM ring_reading_set r
        JOIN measurement_subgroup s ON s.id = r.measurement_subgroup_id
        JOIN measurement_value v ON v.id = r.measurement_value_id
       WHERE s.flow_card_id IS NOT NULL
         AND s.characteristic IN ('bore-diameter', 'outside-diameter', 'raceway-diameter')
         ${filter.productIds ? sql`AND s.product_id = ANY(${sql.val(filter.productIds)}::bigint[])` : sql``}
         ${filter.cardIds ? sql`AND s.flow_card_id = ANY(${sql.val(filter.cardIds)}::bigint[])` : sql``}),
    rings AS (SELECT DISTINCT card_id, ring_no, product_id, ring_type FROM sets)
    SELECT g.card_id, c.doc_no AS card_no, g.ring_no, g.product_id, g.ring_type,
           d.mean_mm AS diameter, d.value_id AS diameter_value_id, d.dev, d.verdict,
           w.mean_mm AS groove, w.value_id AS groove_value_id
      FROM rings g
      JOIN flow_card c ON c.id = g.card_id
      LEFT JOIN sets d ON d.card_id = g.card_id AND d.ring_no = g.ring_no
       AND d.characteristic = CASE g.ring_type WHEN 'inner' THEN 'bore-diameter' ELSE 'outside-diameter' END
      LEFT JOIN sets w ON w.card_id = g.card_id AND w.ring_no = g.ring_no AND w.characteristic = 'raceway-diameter'
     WHERE d.value_id IS NOT NULL OR w.value_id IS NOT NULL
     ORDER BY g.card_id, g.ring_no`.execute(db);
  // A ring appears once even when its diameter and groove sets name different ring types.
  const seen = new Set<string>();
  const out: RingSizeRow[] = [];
  for (const x of r.rows) {
    const key = `${x.cardId}#${x.ringNo}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      cardId: Number(x.cardId),
      cardNo: x.cardNo,
      ringNo: Number(x.ringNo),
      productId: Number(x.productId),
      ringType: x.ringType,
      meanDiameterMm: x.diameter == null ? null : Number(x.diameter),
      meanDiameterValueId: x.diameterValueId == null ? null : Number(x.diameterValueId),
      meanDeviationUm: x.dev == null ? null : Number(x.dev),
      verdict: x.verdict ?? null,
      grooveMm: x.groove == null ? null : Number(x.groove),
      grooveValueId: x.grooveValueId == null ? null : Number(x.grooveValueId),
    });
  }
  return out;
}

// ------------------------------------------------------------------ routes

export function ringGeometryRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/ring-geometry/plans',
    permission: ADD,
    alsoAllowedBy: [LIST, IMPORT, ...REPORTS],
    handler: ({ app: { db } }) => readingPlans(db),
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/ring-geometry/plans',
    permission: 'measure:outsideDiameter:edit',
    body: z.strictObject({
      characteristic: z.enum(READING_KEYS, { error: '该测量特性不按套圈读数组录入' }),
      points: z
        .number()
        .int()
        .min(1, '每截面至少 1 点')
        .max(MAX_READING_POINTS, `每截面最多 ${MAX_READING_POINTS} 点`),
      planes: z
        .number()
        .int()
        .min(1, '至少 1 个截面')
        .max(MAX_READING_PLANES, `最多 ${MAX_READING_PLANES} 个截面`),
    }),
    async handler({ body, user, app: { db } }) {
      await sql`
        INSERT INTO ring_reading_plan (characteristic, points, planes, updated_by, updated_at)
        VALUES (${body.characteristic}, ${body.points}, ${body.planes}, ${user.id}, now())
        ON CONFLICT (characteristic) DO UPDATE SET points = EXCLUDED.points, planes = EXCLUDED.planes,
          updated_by = EXCLUDED.updated_by, updated_at = now()`.execute(db);
      return readingPlans(db);
    },
  });

  // The figures of reading sets before they are saved: the entry grid shows them as typed.
  route(app, {
    method: 'POST',
    url: '/api/v1/ring-geometry/preview',
    permission: ADD,
    alsoAllowedBy: [IMPORT],
    body: readingSetBody.pick({ productId: true, characteristic: true, rings: true, lsl: true, usl: true }),
    async handler({ body, app: { db } }) {
      const product = await sql`SELECT id FROM material WHERE id = ${body.productId}`.execute(db);
      if (!product.rows.length) throw notFound('产品不存在或已被删除');
      return { rings: await computeRings(db, body) };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/ring-geometry/add',
    permission: ADD,
    body: readingSetBody,
    handler: ({ body, user, app: { db } }) => addReadingSets(db, user, body),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/ring-geometry/import',
    permission: IMPORT,
    body: readingImportBody,
    handler: ({ body, user, app: { db } }) => importReadingSets(db, user, body),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-geometry/page',
    permission: LIST,
    alsoAllowedBy: REPORTS,
    query: listQuery,
    async handler({ query, app: { db } }) {
      if (query.from && query.to && query.from > query.to) throw badRequest('结束日期不能早于开始日期');
      return ringSets(db, query);
    },
  });
}
