import type { RingStandardSource } from '@ringmes/domain';

/** One row of the standard's tables as `GET /api/v1/bearing-ring-standard/rows` answers it. */
export interface StandardRow {
  key: string;
  ringType: 'inner' | 'outer';
  ringTypeName: string;
  toleranceClass: string;
  over: number;
  incl: number;
  range: string;
  meanDeviation: { upper: number; lower: number } | null;
  diameterVariation: { series: string; max: number }[];
  diameterVariationCapped: { series: string; max: number }[];
  meanDiameterVariation: number | null;
  widthDeviation: { upper: number; lower: number } | null;
  widthVariation: number | null;
  radialRunout: number | null;
  source: RingStandardSource;
}

export interface ProductLimit {
  code: string;
  symbol: string;
  label: string;
  ringType: 'inner' | 'outer';
  kind: 'deviation' | 'max';
  nominal: number | null;
  upper: number | null;
  lower: number | null;
  available: boolean;
  missing?: string;
  range: string | null;
  source: RingStandardSource | null;
  sourceText: string;
  standardUpper: number | null;
  standardLower: number | null;
  override: {
    id: number;
    customerName: string;
    upper: number | null;
    lower: number | null;
    reason: string;
    applied: boolean;
    problem?: string;
  } | null;
}

export interface LimitsAnswer {
  product: {
    id: number;
    code: string;
    name: string;
    spec: string | null;
    toleranceClass: string;
    d: number;
    D: number;
    B: number;
    diameterSeries: string | null;
    capped: boolean;
  };
  customer: { id: number; name: string } | null;
  limits: ProductLimit[];
}

export const DETAIL_PATH = '/quality-testing/bearing-ring-standard-detail';
export const LIST_PATH = '/quality-testing/bearing-ring-standard';

/** μm with its sign: +0, −8, 2.5. */
export const um = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : v > 0 ? `+${v}` : v === 0 ? '0' : `−${Math.abs(v)}`;

/** The limits in mm of a deviation (nominal 20, −8/0 μm → 19.992 ~ 20.000). */
export function mmLimits(l: Pick<ProductLimit, 'nominal' | 'upper' | 'lower' | 'kind'>): string {
  if (l.kind !== 'deviation' || l.nominal === null || l.upper === null || l.lower === null) return '';
  const f = (x: number) => (l.nominal! + x / 1000).toFixed(4).replace(/0$/, '');
  return `${f(l.lower)} ~ ${f(l.upper)} mm`;
}
