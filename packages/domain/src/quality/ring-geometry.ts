import type { DerivedLimit } from './ring-standard.ts';
import type { RingType } from './ring-standard-tables.ts';

/**
 * Ring geometry from multi-point readings, as ISO 1132-1 / ISO 492 (GB/T 4199 / GB/T 307.1)
 * define the quantities:
 *
 *  - d_s (D_s): a single diameter — one two-point reading;
 *  - d_mp (D_mp): the mean diameter in a single radial plane, the arithmetic mean of the largest
 *    and the smallest single diameter in that plane; Δd_mp = d_mp − d;
 *  - V_dsp (V_Dsp): diameter variation in a single radial plane, largest minus smallest single
 *    diameter in that plane (the out-of-roundness a two-point bore gauge sees);
 *  - V_dmp (V_Dmp): mean diameter variation, largest minus smallest d_mp of the ring's planes (taper);
 *  - B_s (C_s): a single width; ΔB_s = B_s − B; V_Bs (V_Cs): largest minus smallest single width.
 *
 * Readings are millimetres; every deviation and variation is answered in micrometres. The
 * arithmetic runs on integer nanometres (readings carry at most 6 decimals), so 29.9945 − 30 is
 * −5.5 μm exactly, not −5.499999.
 */

/** How many readings a characteristic takes per ring: points per radial plane × planes. */
export interface ReadingPlan {
  points: number;
  planes: number;
}

export const MAX_READING_POINTS = 24;
export const MAX_READING_PLANES = 5;

/** What a characteristic's reading set is: diameters by plane, single widths, or raceway readings. */
export type GeometryKind = 'diameter' | 'width' | 'raceway';

/**
 * The measured characteristics entered as a reading set per ring, with the default plan (the
 * migration seeds it; 系统 keeps one editable plan per characteristic). Angles stay single values.
 */
export const READING_CHARACTERISTICS: Record<
  string,
  { kind: GeometryKind; dimension: 'd/D' | 'B/C' | null; plan: ReadingPlan }
> = {
  'bore-diameter': { kind: 'diameter', dimension: 'd/D', plan: { points: 4, planes: 2 } },
  'outside-diameter': { kind: 'diameter', dimension: 'd/D', plan: { points: 4, planes: 2 } },
  'ring-height': { kind: 'width', dimension: 'B/C', plan: { points: 4, planes: 1 } },
  'raceway-diameter': { kind: 'raceway', dimension: null, plan: { points: 4, planes: 1 } },
  'raceway-position': { kind: 'raceway', dimension: null, plan: { points: 2, planes: 1 } },
};

export const takesReadingSet = (characteristic: string) => characteristic in READING_CHARACTERISTICS;

const nm = (mm: number) => Math.round(mm * 1_000_000);
/** nanometres → micrometres, 4 decimals at most (a d_mp may end in half a nanometre). */
const um = (n: number) => Math.round(n * 10) / 10_000;
const mmOf = (n: number) => Math.round(n) / 1_000_000;

export interface PlaneGeometry {
  /** The single diameters of the plane, mm, as read. */
  ds: number[];
  max: number;
  min: number;
  /** d_mp / D_mp, mm (to 0.0000005 mm). */
  mp: number;
  /** Δd_mp / ΔD_mp, μm. */
  deviation: number;
  /** V_dsp / V_Dsp, μm. */
  variation: number;
}

export interface DiameterGeometry {
  nominal: number;
  planes: PlaneGeometry[];
  /** The ring's mean diameter: the mean of its planes' d_mp (mm) — what size grouping sorts by. */
  mean: number;
  /** Its deviation from nominal, μm. */
  meanDeviation: number;
  /** The extreme Δd_mp of the planes, μm. */
  deviationMin: number;
  deviationMax: number;
  /** Δd_s of the single diameters, μm. */
  singleMin: number;
  singleMax: number;
  /** The largest V_dsp of the planes, μm. */
  planeVariation: number;
  /** V_dmp / V_Dmp, μm. */
  meanVariation: number;
}

export interface WidthGeometry {
  nominal: number;
  readings: number[];
  /** Mean of the single widths, mm. */
  mean: number;
  /** ΔB_s / ΔC_s of the single widths, μm. */
  deviationMin: number;
  deviationMax: number;
  /** V_Bs / V_Cs, μm. */
  variation: number;
}

export class GeometryInputError extends Error {
  constructor(
    public field: string,
    message: string,
  ) {
    super(message);
  }
}

function checkReadings(planes: number[][], field: string) {
  if (!planes.length) throw new GeometryInputError(field, '至少需要一个径向平面的读数');
  if (planes.length > MAX_READING_PLANES)
    throw new GeometryInputError(field, `径向平面最多 ${MAX_READING_PLANES} 个`);
  const n = planes[0].length;
  planes.forEach((p, i) => {
    if (p.length < 1) throw new GeometryInputError(field, `第 ${i + 1} 截面没有读数`);
    if (p.length !== n)
      throw new GeometryInputError(
        field,
        `各截面的测点数应相同（第 ${i + 1} 截面 ${p.length} 点，应为 ${n} 点）`,
      );
    if (p.length > MAX_READING_POINTS)
      throw new GeometryInputError(field, `每个截面最多 ${MAX_READING_POINTS} 个测点`);
    p.forEach((v, j) => {
      if (!Number.isFinite(v) || v <= 0)
        throw new GeometryInputError(field, `第 ${i + 1} 截面第 ${j + 1} 点的读数不是正数`);
    });
  });
}

/**
 * Bore (d) or outside (D) diameter geometry of one ring from its single diameters, plane by plane.
 * `nominal` is d or D (mm).
 */
export function diameterGeometry(planes: number[][], nominal: number): DiameterGeometry {
  checkReadings(planes, 'readings');
  const base = nm(nominal);
  const rows = planes.map((p) => {
    const xs = p.map(nm);
    const max = Math.max(...xs);
    const min = Math.min(...xs);
    return { xs, max, min, mp: (max + min) / 2 };
  });
  const mps = rows.map((r) => r.mp);
  const all = rows.flatMap((r) => r.xs);
  const mean = mps.reduce((s, x) => s + x, 0) / mps.length;
  return {
    nominal,
    planes: rows.map((r, i) => ({
      ds: planes[i],
      max: mmOf(r.max),
      min: mmOf(r.min),
      mp: r.mp / 1_000_000,
      deviation: um(r.mp - base),
      variation: um(r.max - r.min),
    })),
    mean: Math.round(mean * 10) / 10_000_000,
    meanDeviation: um(mean - base),
    deviationMin: um(Math.min(...mps) - base),
    deviationMax: um(Math.max(...mps) - base),
    singleMin: um(Math.min(...all) - base),
    singleMax: um(Math.max(...all) - base),
    planeVariation: um(Math.max(...rows.map((r) => r.max - r.min))),
    meanVariation: um(Math.max(...mps) - Math.min(...mps)),
  };
}

/** Width (B of an inner ring, C of an outer ring) from single widths (mm). */
export function widthGeometry(readings: number[], nominal: number): WidthGeometry {
  checkReadings([readings], 'widthReadings');
  const xs = readings.map(nm);
  const base = nm(nominal);
  const max = Math.max(...xs);
  const min = Math.min(...xs);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    nominal,
    readings,
    mean: Math.round(mean * 10) / 10_000_000,
    deviationMin: um(min - base),
    deviationMax: um(max - base),
    variation: um(max - min),
  };
}

/** A raceway (groove) diameter or position: mean, deviation from its nominal and spread, no ISO 492 limit. */
export function racewayGeometry(planes: number[][], nominal: number | null) {
  checkReadings(planes, 'racewayReadings');
  const xs = planes.flat().map(nm);
  const max = Math.max(...xs);
  const min = Math.min(...xs);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    nominal,
    mean: Math.round(mean * 10) / 10_000_000,
    deviation: nominal == null ? null : um(mean - nm(nominal)),
    variation: um(max - min),
  };
}

/** One judged quantity. */
export interface GeometryCheck {
  code: string;
  symbol: string;
  label: string;
  /** The measured value, μm: a deviation's extremes (min … max) or a variation. */
  value: number;
  valueMin?: number;
  /** The limits it was judged against, μm (null: the standard holds no value). */
  upper: number | null;
  lower: number | null;
  ok: boolean | null;
  missing?: string;
  /** μm unless said (a raceway reading against typed limits: mm). */
  unit?: 'mm';
}

export type GeometryVerdict = 'pass' | 'fail' | 'incomplete';

const CODES: Record<RingType, { mp: string; vsp: string; vmp: string; ws: string; vws: string }> = {
  inner: { mp: 'dmp', vsp: 'Vdsp', vmp: 'Vdmp', ws: 'Bs', vws: 'VBs' },
  outer: { mp: 'Dmp', vsp: 'VDsp', vmp: 'VDmp', ws: 'Cs', vws: 'VCs' },
};

/** The codes of the ring standard a ring's geometry is judged by (dmp, Vdsp, Vdmp, Bs, VBs or the outer ring's). */
export const geometryCodes = (ringType: RingType) => CODES[ringType];

/**
 * Judges a ring's geometry against its limits (deriveRingLimits or productLimits, μm): every
 * plane's Δd_mp inside the mean-diameter deviation, the largest V_dsp and V_dmp under their
 * maxima, every single width inside ΔB_s and V_Bs under its maximum. A quantity whose limit the
 * tables lack is answered `ok: null`, and the ring `incomplete` unless something already failed.
 */
export function judgeGeometry(
  ringType: RingType,
  geometry: { diameter?: DiameterGeometry | null; width?: WidthGeometry | null },
  limits: readonly Pick<
    DerivedLimit,
    'code' | 'symbol' | 'label' | 'upper' | 'lower' | 'available' | 'missing'
  >[],
): { checks: GeometryCheck[]; verdict: GeometryVerdict } {
  const c = CODES[ringType];
  const checks: GeometryCheck[] = [];
  const limitOf = (code: string) => limits.find((l) => l.code === code);
  const deviation = (code: string, min: number, max: number) => {
    const l = limitOf(code);
    const has = l?.available && l.upper != null && l.lower != null;
    checks.push({
      code,
      symbol: l?.symbol ?? code,
      label: l?.label ?? code,
      value: max,
      valueMin: min,
      upper: has ? (l.upper as number) : null,
      lower: has ? (l.lower as number) : null,
      ok: has ? min >= (l.lower as number) && max <= (l.upper as number) : null,
      ...(has ? {} : { missing: l?.missing ?? '标准数据缺失' }),
    });
  };
  const variation = (code: string, value: number) => {
    const l = limitOf(code);
    const has = l?.available && l.upper != null;
    checks.push({
      code,
      symbol: l?.symbol ?? code,
      label: l?.label ?? code,
      value,
      upper: has ? (l.upper as number) : null,
      lower: null,
      ok: has ? value <= (l.upper as number) : null,
      ...(has ? {} : { missing: l?.missing ?? '标准数据缺失' }),
    });
  };
  const d = geometry.diameter;
  if (d) {
    deviation(c.mp, d.deviationMin, d.deviationMax);
    variation(c.vsp, d.planeVariation);
    if (d.planes.length > 1) variation(c.vmp, d.meanVariation);
  }
  const w = geometry.width;
  if (w) {
    deviation(c.ws, w.deviationMin, w.deviationMax);
    if (w.readings.length > 1) variation(c.vws, w.variation);
  }
  const verdict: GeometryVerdict = checks.some((x) => x.ok === false)
    ? 'fail'
    : checks.some((x) => x.ok === null)
      ? 'incomplete'
      : 'pass';
  return { checks, verdict };
}

/** Everything a reading set makes: the ring's value (what its subgroup plots), figures, checks. */
export interface RingGeometry {
  kind: GeometryKind;
  ringType: RingType;
  /** mm: mean of the planes' d_mp, mean width, or mean raceway reading. */
  value: number;
  nominal: number | null;
  /** μm from nominal (null without one). */
  meanDeviation: number | null;
  deviationMin: number | null;
  deviationMax: number | null;
  /** μm: largest V_dsp (diameters), V_Bs (width) or spread (raceway). */
  variation: number;
  /** μm: V_dmp, diameters over two planes or more. */
  meanVariation: number | null;
  planes: PlaneGeometry[] | null;
  checks: GeometryCheck[];
  verdict: GeometryVerdict;
}

/**
 * One ring's reading set, computed and judged: diameters and widths against the ring standard's
 * limits of the ring's class and sizes (`limits`: deriveRingLimits / productLimits), raceway
 * readings against the subgroup's typed limits (`spec`, mm) when there are some.
 */
export function ringGeometry(input: {
  characteristic: string;
  ringType: RingType;
  readings: number[][];
  nominal: number | null;
  limits: Parameters<typeof judgeGeometry>[2];
  spec?: { lsl?: number | null; usl?: number | null };
}): RingGeometry {
  const c = READING_CHARACTERISTICS[input.characteristic];
  if (!c) throw new GeometryInputError('characteristic', '该测量特性不按套圈读数组录入');
  const { ringType, readings, nominal } = input;
  if (c.kind === 'diameter' || c.kind === 'width') {
    if (nominal == null) throw new GeometryInputError('productId', '产品未填写公称尺寸，不能计算偏差');
    if (c.kind === 'diameter') {
      const g = diameterGeometry(readings, nominal);
      const j = judgeGeometry(ringType, { diameter: g }, input.limits);
      return {
        kind: c.kind,
        ringType,
        value: g.mean,
        nominal,
        meanDeviation: g.meanDeviation,
        deviationMin: g.deviationMin,
        deviationMax: g.deviationMax,
        variation: g.planeVariation,
        meanVariation: g.planes.length > 1 ? g.meanVariation : null,
        planes: g.planes,
        ...j,
      };
    }
    const w = widthGeometry(readings.flat(), nominal);
    const j = judgeGeometry(ringType, { width: w }, input.limits);
    return {
      kind: c.kind,
      ringType,
      value: w.mean,
      nominal,
      meanDeviation: um(nm(w.mean) - nm(nominal)),
      deviationMin: w.deviationMin,
      deviationMax: w.deviationMax,
      variation: w.variation,
      meanVariation: null,
      planes: null,
      ...j,
    };
  }
  const r = racewayGeometry(readings, nominal);
  const lsl = input.spec?.lsl ?? null;
  const usl = input.spec?.usl ?? null;
  const has = lsl != null || usl != null;
  const label = input.characteristic === 'raceway-diameter' ? '沟道直径' : '沟道位置';
  const check: GeometryCheck = {
    code: input.characteristic,
    symbol: label,
    label: `${label}（读数均值）`,
    value: r.mean,
    upper: usl,
    lower: lsl,
    unit: 'mm',
    ok: has ? (lsl == null || r.mean >= lsl) && (usl == null || r.mean <= usl) : null,
    ...(has ? {} : { missing: '未设规格限' }),
  };
  return {
    kind: c.kind,
    ringType,
    value: r.mean,
    nominal,
    meanDeviation: r.deviation,
    deviationMin: null,
    deviationMax: null,
    variation: r.variation,
    meanVariation: null,
    planes: null,
    checks: [check],
    verdict: check.ok === false ? 'fail' : check.ok === null ? 'incomplete' : 'pass',
  };
}
