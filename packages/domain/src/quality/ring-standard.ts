import {
  type Deviation,
  DIAMETER_SERIES,
  type DiameterSeries,
  RING_STANDARD_ROWS,
  type RingStandardRow,
  type RingStandardSource,
  type RingType,
  type ToleranceClass,
} from './ring-standard-tables.ts';

/**
 * The characteristics of a ring the standard limits, by code. `deviation`: a nominal size with an
 * upper and a lower deviation (μm); `max`: a variation or runout with a maximum (μm).
 */
export const RING_CHARACTERISTICS = [
  {
    code: 'dmp',
    ringType: 'inner',
    symbol: 'Δdmp',
    kind: 'deviation',
    dimension: 'd',
    label: '单一平面平均内径偏差',
  },
  {
    code: 'Vdsp',
    ringType: 'inner',
    symbol: 'Vdsp',
    kind: 'max',
    dimension: 'd',
    label: '单一径向平面内径变动量',
  },
  { code: 'Vdmp', ringType: 'inner', symbol: 'Vdmp', kind: 'max', dimension: 'd', label: '平均内径变动量' },
  {
    code: 'Bs',
    ringType: 'inner',
    symbol: 'ΔBs',
    kind: 'deviation',
    dimension: 'B',
    label: '内圈单一宽度偏差',
  },
  { code: 'VBs', ringType: 'inner', symbol: 'VBs', kind: 'max', dimension: 'B', label: '内圈宽度变动量' },
  {
    code: 'Kia',
    ringType: 'inner',
    symbol: 'Kia',
    kind: 'max',
    dimension: 'd',
    label: '成套轴承内圈径向跳动',
  },
  {
    code: 'Dmp',
    ringType: 'outer',
    symbol: 'ΔDmp',
    kind: 'deviation',
    dimension: 'D',
    label: '单一平面平均外径偏差',
  },
  {
    code: 'VDsp',
    ringType: 'outer',
    symbol: 'VDsp',
    kind: 'max',
    dimension: 'D',
    label: '单一径向平面外径变动量',
  },
  { code: 'VDmp', ringType: 'outer', symbol: 'VDmp', kind: 'max', dimension: 'D', label: '平均外径变动量' },
  {
    code: 'Cs',
    ringType: 'outer',
    symbol: 'ΔCs',
    kind: 'deviation',
    dimension: 'C',
    label: '外圈单一宽度偏差',
  },
  { code: 'VCs', ringType: 'outer', symbol: 'VCs', kind: 'max', dimension: 'C', label: '外圈宽度变动量' },
  {
    code: 'Kea',
    ringType: 'outer',
    symbol: 'Kea',
    kind: 'max',
    dimension: 'D',
    label: '成套轴承外圈径向跳动',
  },
] as const satisfies readonly {
  code: string;
  ringType: RingType;
  symbol: string;
  kind: 'deviation' | 'max';
  dimension: 'd' | 'D' | 'B' | 'C';
  label: string;
}[];

export type RingCharacteristic = (typeof RING_CHARACTERISTICS)[number]['code'];
export const RING_CHARACTERISTIC_CODES = RING_CHARACTERISTICS.map((c) => c.code) as RingCharacteristic[];
export const characteristicOf = (code: string) => RING_CHARACTERISTICS.find((c) => c.code === code);

/** What a product gives the derivation: its class and nominal sizes (mm). */
export interface BearingSize {
  toleranceClass: ToleranceClass;
  /** Bore d. */
  d: number;
  /** Outside diameter D. */
  D: number;
  /** Width B (the outer ring's C is the same for the bearings these tables cover). */
  B: number;
  /** Diameter series digit (Vdsp/VDsp depend on it). */
  diameterSeries?: DiameterSeries | null;
  /** Sealed or shielded (2RS, 2Z…): outer ring VDsp has its own column. */
  capped?: boolean;
}

export interface DerivedLimit {
  code: RingCharacteristic;
  symbol: string;
  label: string;
  ringType: RingType;
  kind: 'deviation' | 'max';
  /** Nominal size (mm) of a deviation; null for a maximum. */
  nominal: number | null;
  /** μm: a deviation's upper deviation, or a variation's maximum. */
  upper: number | null;
  /** μm: a deviation's lower deviation; null for a maximum. */
  lower: number | null;
  /** False when the standard data is missing for this product (see `missing`). */
  available: boolean;
  missing?: string;
  /** The table row the value came from. */
  source: RingStandardSource | null;
  /** The diameter range of that row, e.g. 「18 < d ≤ 30」. */
  range: string | null;
}

const fmt = (n: number) => String(n);

/** Does `x` fall in the row's range (over, incl] (its first row includes `over`)? */
export function inRange(row: Pick<RingStandardRow, 'over' | 'incl' | 'overIncluded'>, x: number): boolean {
  return (x > row.over || (row.overIncluded === true && x === row.over)) && x <= row.incl;
}

/** The table row for a ring type, class and nominal diameter (d for inner, D for outer rings). */
export function findRow(
  ringType: RingType,
  cls: ToleranceClass,
  diameter: number,
): RingStandardRow | undefined {
  return RING_STANDARD_ROWS.find(
    (r) => r.ringType === ringType && r.toleranceClass === cls && inRange(r, diameter),
  );
}

export function rangeText(row: Pick<RingStandardRow, 'over' | 'incl' | 'overIncluded' | 'ringType'>): string {
  const v = row.ringType === 'inner' ? 'd' : 'D';
  return `${fmt(row.over)} ${row.overIncluded ? '≤' : '<'} ${v} ≤ ${fmt(row.incl)}`;
}

/** The table rows matching optional filters: ring type, class, and a diameter inside the range. */
export function queryRows(filter: {
  ringType?: RingType;
  toleranceClass?: ToleranceClass;
  diameter?: number;
}): RingStandardRow[] {
  return RING_STANDARD_ROWS.filter(
    (r) =>
      (!filter.ringType || r.ringType === filter.ringType) &&
      (!filter.toleranceClass || r.toleranceClass === filter.toleranceClass) &&
      (filter.diameter === undefined || inRange(r, filter.diameter)),
  );
}

const seriesMax = (groups: RingStandardRow['diameterVariation'], series: DiameterSeries) =>
  groups?.find((g) => g.series.includes(series))?.max;

/**
 * The limits of every characteristic of a bearing's two rings, derived from its tolerance class
 * and sizes by the tables. A value the tables do not hold is answered with `available: false`
 * and the reason — never guessed.
 */
export function deriveRingLimits(size: BearingSize): DerivedLimit[] {
  const inner = findRow('inner', size.toleranceClass, size.d);
  const outer = findRow('outer', size.toleranceClass, size.D);
  const noRow = (ring: RingType) =>
    `标准表中没有 ${size.toleranceClass} 级${ring === 'inner' ? `内圈 d = ${fmt(size.d)} mm` : `外圈 D = ${fmt(size.D)} mm`} 的数据`;

  return RING_CHARACTERISTICS.map((c): DerivedLimit => {
    const row = c.ringType === 'inner' ? inner : outer;
    const base = {
      code: c.code,
      symbol: c.symbol,
      label: c.label,
      ringType: c.ringType,
      kind: c.kind,
      nominal:
        c.kind === 'deviation'
          ? c.dimension === 'd'
            ? size.d
            : c.dimension === 'D'
              ? size.D
              : size.B
          : null,
    };
    const missing = (why: string, from: RingStandardRow | undefined = row): DerivedLimit => ({
      ...base,
      upper: null,
      lower: null,
      available: false,
      missing: why,
      source: from?.source ?? null,
      range: from ? rangeText(from) : null,
    });
    const ok = (v: Deviation | number, from: RingStandardRow, note?: string): DerivedLimit => ({
      ...base,
      upper: typeof v === 'number' ? v : v.upper,
      lower: typeof v === 'number' ? null : v.lower,
      available: true,
      source: note
        ? { ...from.source, note: from.source.note ? `${note}；${from.source.note}` : note }
        : from.source,
      range: rangeText(from),
    });

    // ΔCs is the inner ring's ΔBs; VCs of classes 0 and 6 the inner ring's VBs (same bearing).
    if (
      c.code === 'Cs' ||
      (c.code === 'VCs' && (size.toleranceClass === 'P0' || size.toleranceClass === 'P6'))
    ) {
      const from = inner;
      if (!from) return missing(noRow('inner'), undefined);
      const v = c.code === 'Cs' ? from.widthDeviation : from.widthVariation;
      const same = c.code === 'Cs' ? '与同一轴承内圈的 ΔBs 相同' : '与同一轴承内圈的 VBs 相同';
      return v === undefined ? missing(`标准数据缺失（${same}，内圈该值未收录）`, from) : ok(v, from, same);
    }
    if (!row) return missing(noRow(c.ringType), undefined);

    switch (c.code) {
      case 'dmp':
      case 'Dmp':
        return row.meanDeviation ? ok(row.meanDeviation, row) : missing('标准数据缺失', row);
      case 'Vdsp':
      case 'VDsp': {
        if (!size.diameterSeries) return missing('需要产品的直径系列（如 6204 的直径系列为 2）', row);
        if (c.code === 'VDsp' && size.capped) {
          const capped = seriesMax(row.diameterVariationCapped, size.diameterSeries);
          return capped === undefined
            ? missing(`带密封/防尘盖轴承（直径系列 ${size.diameterSeries}）的 VDsp 标准无值或未收录`, row)
            : ok(capped, row, '带密封/防尘盖轴承');
        }
        const max = seriesMax(row.diameterVariation, size.diameterSeries);
        return max === undefined
          ? missing(`直径系列 ${size.diameterSeries} 标准无值或未收录`, row)
          : ok(max, row);
      }
      case 'Vdmp':
      case 'VDmp':
        return row.meanDiameterVariation === undefined
          ? missing('标准数据缺失', row)
          : ok(row.meanDiameterVariation, row);
      case 'Bs':
        return row.widthDeviation ? ok(row.widthDeviation, row) : missing('标准数据缺失', row);
      case 'VBs':
      case 'VCs':
        return row.widthVariation === undefined ? missing('标准数据缺失', row) : ok(row.widthVariation, row);
      case 'Kia':
      case 'Kea':
        return row.radialRunout === undefined ? missing('标准数据缺失', row) : ok(row.radialRunout, row);
    }
    return missing('标准数据缺失', row);
  });
}

/**
 * Why a customer's limits for one characteristic are not a tightening of the standard's, or null
 * when they are. Deviations need both bounds inside the standard's; maxima a maximum not above it.
 */
export function overrideLooseness(
  limit: Pick<DerivedLimit, 'kind' | 'upper' | 'lower' | 'available' | 'symbol'>,
  upper: number | null | undefined,
  lower: number | null | undefined,
): string | null {
  if (!limit.available || limit.upper === null)
    return `标准中没有 ${limit.symbol} 的数值，不能设置客户收严值`;
  if (limit.kind === 'max') {
    if (upper == null) return `请填写 ${limit.symbol} 的最大值`;
    if (lower != null) return `${limit.symbol} 是变动量/跳动，只有最大值，下限请留空`;
    if (upper < 0) return `${limit.symbol} 的最大值不能为负`;
    if (upper > limit.upper)
      return `${limit.symbol} 最大值 ${fmt(upper)} μm 比标准 ${fmt(limit.upper)} μm 宽松，客户要求只能收严`;
    return null;
  }
  if (upper == null || lower == null) return `请填写 ${limit.symbol} 的上偏差和下偏差`;
  if (lower > upper) return `${limit.symbol} 的下偏差不能大于上偏差`;
  if (upper > limit.upper)
    return `${limit.symbol} 上偏差 ${fmt(upper)} μm 比标准 ${fmt(limit.upper)} μm 宽松，客户要求只能收严`;
  if (limit.lower !== null && lower < limit.lower)
    return `${limit.symbol} 下偏差 ${fmt(lower)} μm 比标准 ${fmt(limit.lower)} μm 宽松，客户要求只能收严`;
  return null;
}

export const isDiameterSeries = (s: unknown): s is DiameterSeries =>
  typeof s === 'string' && (DIAMETER_SERIES as readonly string[]).includes(s);
