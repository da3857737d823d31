/**
 * Statistical process control (SPC) for measured characteristics: X̄–R charts (subgroups of 2–10),
 * X̄–S charts (subgroups of 11–25) or I-MR charts (individuals), control limits from the data,
 * capability indices, histogram bins with a fitted normal curve and the eight Nelson rules. Pure functions over plain
 * numbers: the server aggregates subgroups in SQL and hands the figures here, the tests feed
 * published examples. Statistics are binary floating point on purpose (they are estimates, not
 * money); measured values themselves are stored as exact decimals.
 */

/** Control-chart constants by subgroup size n (ASTM E2587 / Montgomery, Appendix VI). */
export const SPC_CONSTANTS: Record<number, { A2: number; D3: number; D4: number; d2: number }> = {
  2: { A2: 1.88, D3: 0, D4: 3.267, d2: 1.128 },
  3: { A2: 1.023, D3: 0, D4: 2.574, d2: 1.693 },
  4: { A2: 0.729, D3: 0, D4: 2.282, d2: 2.059 },
  5: { A2: 0.577, D3: 0, D4: 2.114, d2: 2.326 },
  6: { A2: 0.483, D3: 0, D4: 2.004, d2: 2.534 },
  7: { A2: 0.419, D3: 0.076, D4: 1.924, d2: 2.704 },
  8: { A2: 0.373, D3: 0.136, D4: 1.864, d2: 2.847 },
  9: { A2: 0.337, D3: 0.184, D4: 1.816, d2: 2.97 },
  10: { A2: 0.308, D3: 0.223, D4: 1.777, d2: 3.078 },
};

/** I-MR: moving ranges of two points (n = 2 constants). */
const MR = SPC_CONSTANTS[2];

/** Largest subgroup size with X̄–R constants; larger subgroups are charted X̄–S. */
export const MAX_XBAR_R_SIZE = 10;
/** Largest subgroup size a measurement takes (X̄–S up to this size). */
export const MAX_SUBGROUP_SIZE = 25;

/**
 * X̄–S constants for subgroup size n ≥ 2, from c4 = √(2/(n−1)) · Γ(n/2) / Γ((n−1)/2) (the
 * Γ ratio by its half-integer recurrence, exact): A3 = 3/(c4√n), B3 = max(0, 1 − 3√(1−c4²)/c4),
 * B4 = 1 + 3√(1−c4²)/c4 (Montgomery, Appendix VI; the unit tests hold the printed table).
 */
export function xbarSConstants(n: number): { c4: number; A3: number; B3: number; B4: number } {
  if (!Number.isInteger(n) || n < 2) throw new Error(`subgroup size ${n} has no X̄–S constants`);
  // r(k) = Γ(k/2) / Γ((k−1)/2): r(2) = 1/√π, r(k+1) = ((k−1)/2) / r(k).
  let r = 1 / Math.sqrt(Math.PI);
  for (let k = 2; k < n; k++) r = (k - 1) / 2 / r;
  const c4 = Math.sqrt(2 / (n - 1)) * r;
  const w = (3 * Math.sqrt(1 - c4 * c4)) / c4;
  return { c4, A3: 3 / (c4 * Math.sqrt(n)), B3: Math.max(0, 1 - w), B4: 1 + w };
}

/** One subgroup as SQL aggregates it: size, mean, range and (for X̄–S) Σ(x − x̄)². */
export interface SubgroupStat {
  n: number;
  mean: number;
  range: number;
  ssDev?: number;
}

/** A subgroup's sample standard deviation √(Σ(x − x̄)² / (n − 1)) (0 for one value). */
export const subgroupSd = (g: SubgroupStat) =>
  g.n > 1 ? Math.sqrt(Math.max(0, g.ssDev ?? 0) / (g.n - 1)) : 0;

export type ChartKind = 'xbar-r' | 'xbar-s' | 'i-mr';

/** The chart a subgroup size is drawn on: I-MR for 1, X̄–R for 2–10, X̄–S above. */
export const chartKindFor = (n: number): ChartKind =>
  n <= 1 ? 'i-mr' : n <= MAX_XBAR_R_SIZE ? 'xbar-r' : 'xbar-s';

export interface ControlLimits {
  kind: ChartKind;
  /** Subgroup size the limits are for (1 for I-MR). */
  n: number;
  /** X̄ (or I) chart. */
  center: number;
  ucl: number;
  lcl: number;
  /** R (or S, or MR) chart. */
  rCenter: number;
  rUcl: number;
  rLcl: number;
  /** Within-subgroup (short-term) sigma: R̄/d2, s̄/c4 or MR̄/d2. */
  sigmaWithin: number;
}

/** X̄–R limits: CL = X̿, UCL/LCL = X̿ ± A2·R̄; R chart D3·R̄ … D4·R̄; σ̂ = R̄/d2. */
export function xbarRLimits(subgroups: readonly SubgroupStat[], n: number): ControlLimits {
  const c = SPC_CONSTANTS[n];
  if (!c) throw new Error(`subgroup size ${n} has no control-chart constants`);
  if (!subgroups.length) throw new Error('no subgroups');
  const center = subgroups.reduce((s, g) => s + g.mean, 0) / subgroups.length;
  const rBar = subgroups.reduce((s, g) => s + g.range, 0) / subgroups.length;
  return {
    kind: 'xbar-r',
    n,
    center,
    ucl: center + c.A2 * rBar,
    lcl: center - c.A2 * rBar,
    rCenter: rBar,
    rUcl: c.D4 * rBar,
    rLcl: c.D3 * rBar,
    sigmaWithin: rBar / c.d2,
  };
}

/** X̄–S limits: CL = X̿, UCL/LCL = X̿ ± A3·s̄; S chart B3·s̄ … B4·s̄; σ̂ = s̄/c4. */
export function xbarSLimits(subgroups: readonly SubgroupStat[], n: number): ControlLimits {
  const c = xbarSConstants(n);
  if (!subgroups.length) throw new Error('no subgroups');
  const center = subgroups.reduce((s, g) => s + g.mean, 0) / subgroups.length;
  const sBar = subgroups.reduce((s, g) => s + subgroupSd(g), 0) / subgroups.length;
  return {
    kind: 'xbar-s',
    n,
    center,
    ucl: center + c.A3 * sBar,
    lcl: center - c.A3 * sBar,
    rCenter: sBar,
    rUcl: c.B4 * sBar,
    rLcl: c.B3 * sBar,
    sigmaWithin: sBar / c.c4,
  };
}

/** Moving ranges |xᵢ − xᵢ₋₁| (the first point has none). */
export function movingRanges(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < values.length; i++) out.push(Math.abs(values[i] - values[i - 1]));
  return out;
}

/** I-MR limits: CL = x̄, UCL/LCL = x̄ ± 3·MR̄/d2; MR chart 0 … D4·MR̄. */
export function imrLimits(values: readonly number[]): ControlLimits {
  if (values.length < 2) throw new Error('I-MR needs at least two values');
  const center = values.reduce((s, v) => s + v, 0) / values.length;
  const mr = movingRanges(values);
  const mrBar = mr.reduce((s, v) => s + v, 0) / mr.length;
  const sigma = mrBar / MR.d2;
  return {
    kind: 'i-mr',
    n: 1,
    center,
    ucl: center + 3 * sigma,
    lcl: center - 3 * sigma,
    rCenter: mrBar,
    rUcl: MR.D4 * mrBar,
    rLcl: 0,
    sigmaWithin: sigma,
  };
}

export interface Capability {
  cp: number | null;
  cpk: number | null;
  pp: number | null;
  ppk: number | null;
}

/**
 * Cp = (USL − LSL)/6σ_within, Cpk = min(USL − μ, μ − LSL)/3σ_within; Pp and Ppk the same with the
 * overall (long-term) sample standard deviation. One-sided specifications give Cpk/Ppk only.
 */
export function capability(args: {
  mean: number;
  sigmaWithin: number;
  sigmaOverall: number;
  lsl?: number | null;
  usl?: number | null;
}): Capability {
  const { mean, sigmaWithin: sw, sigmaOverall: so } = args;
  const lsl = args.lsl ?? null;
  const usl = args.usl ?? null;
  const two = lsl !== null && usl !== null;
  const k = (s: number) => {
    if (!(s > 0)) return null;
    const sides = [
      usl !== null ? (usl - mean) / (3 * s) : null,
      lsl !== null ? (mean - lsl) / (3 * s) : null,
    ];
    const v = sides.filter((x): x is number => x !== null);
    return v.length ? Math.min(...v) : null;
  };
  const p = (s: number) => (two && s > 0 ? ((usl as number) - (lsl as number)) / (6 * s) : null);
  return { cp: p(sw), cpk: k(sw), pp: p(so), ppk: k(so) };
}

/** Colour band of a capability index: ≥ 1.33 green, 1.00–1.33 yellow, < 1.00 red. */
export function capabilityBand(v: number | null): 'good' | 'marginal' | 'poor' | 'none' {
  if (v === null || !Number.isFinite(v)) return 'none';
  if (v >= 1.33) return 'good';
  if (v >= 1) return 'marginal';
  return 'poor';
}

/** Overall sample standard deviation of the pooled values from per-subgroup sums: Σ(x − x̄)² = Σ SSᵢ + Σ nᵢ(x̄ᵢ − x̄)². */
export function pooledSigma(groups: readonly { n: number; mean: number; ssDev: number }[]): {
  count: number;
  mean: number;
  sigma: number;
} {
  const count = groups.reduce((s, g) => s + g.n, 0);
  const mean = groups.reduce((s, g) => s + g.n * g.mean, 0) / count;
  const ss = groups.reduce((s, g) => s + g.ssDev + g.n * (g.mean - mean) ** 2, 0);
  return { count, mean, sigma: count > 1 ? Math.sqrt(ss / (count - 1)) : 0 };
}

/** Standard normal density. */
function phi(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/** Standard normal CDF (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + y) / 2 : (1 - y) / 2;
}

export interface HistogramBin {
  from: number;
  to: number;
  count: number;
  /** Expected count under the fitted normal N(mean, σ_overall). */
  expected: number;
}

/**
 * Bin edges covering the data and the specification limits: `bins` equal widths from `lo` to `hi`.
 * SQL counts values with `width_bucket(value, lo, hi, bins)`; this returns the matching edges.
 */
export function histogramRange(args: {
  min: number;
  max: number;
  lsl?: number | null;
  usl?: number | null;
  bins?: number;
}): { lo: number; hi: number; bins: number } {
  const bins = args.bins ?? 20;
  let lo = Math.min(args.min, args.lsl ?? args.min);
  let hi = Math.max(args.max, args.usl ?? args.max);
  if (hi <= lo) {
    lo -= 0.5;
    hi += 0.5;
  }
  const pad = (hi - lo) * 0.02;
  return { lo: lo - pad, hi: hi + pad, bins };
}

/** Bins with their counts (`counts[i]` for bin i) and the normal curve's expected count in each. */
export function histogramBins(
  range: { lo: number; hi: number; bins: number },
  counts: readonly number[],
  fit: { mean: number; sigma: number },
): HistogramBin[] {
  const total = counts.reduce((s, c) => s + c, 0);
  const w = (range.hi - range.lo) / range.bins;
  return Array.from({ length: range.bins }, (_, i) => {
    const from = range.lo + i * w;
    const to = from + w;
    const expected =
      fit.sigma > 0
        ? total * (normalCdf((to - fit.mean) / fit.sigma) - normalCdf((from - fit.mean) / fit.sigma))
        : 0;
    return { from, to, count: counts[i] ?? 0, expected };
  });
}

/** Counts values into `range`'s bins (what SQL's width_bucket does; for tests and small sets). */
export function countBins(
  values: readonly number[],
  range: { lo: number; hi: number; bins: number },
): number[] {
  const counts = new Array<number>(range.bins).fill(0);
  const w = (range.hi - range.lo) / range.bins;
  for (const v of values) {
    const i = Math.min(range.bins - 1, Math.max(0, Math.floor((v - range.lo) / w)));
    counts[i]++;
  }
  return counts;
}

/** The normal density scaled to counts at x: for drawing the curve over the histogram. */
export function normalCurve(
  fit: { mean: number; sigma: number },
  range: { lo: number; hi: number; bins: number },
  total: number,
  points = 60,
): [number, number][] {
  if (!(fit.sigma > 0)) return [];
  const w = (range.hi - range.lo) / range.bins;
  return Array.from({ length: points + 1 }, (_, i) => {
    const x = range.lo + ((range.hi - range.lo) * i) / points;
    return [x, (total * w * phi((x - fit.mean) / fit.sigma)) / fit.sigma];
  });
}

export type NelsonRule = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** Nelson's eight tests (J. Qual. Technol. 16, 1984), numbered as Minitab numbers them. */
export const NELSON_RULES: Record<NelsonRule, string> = {
  1: '规则1：1点超出3σ控制限',
  2: '规则2：连续9点位于中心线同侧',
  3: '规则3：连续6点持续上升或下降',
  4: '规则4：连续14点上下交替',
  5: '规则5：连续3点中有2点超出2σ（同侧）',
  6: '规则6：连续5点中有4点超出1σ（同侧）',
  7: '规则7：连续15点位于1σ以内（两侧）',
  8: '规则8：连续8点位于1σ以外（两侧）',
};

export const ALL_NELSON_RULES: readonly NelsonRule[] = [1, 2, 3, 4, 5, 6, 7, 8];
/** Rules on when a characteristic has chosen none: the four Western Electric tests (Nelson 1, 2, 5, 6). */
export const DEFAULT_NELSON_RULES: readonly NelsonRule[] = [1, 2, 5, 6];

export const isNelsonRule = (r: unknown): r is NelsonRule =>
  typeof r === 'number' && Number.isInteger(r) && r >= 1 && r <= 8;

export interface Violation {
  /** Index of the flagged point in the series. */
  index: number;
  rule: NelsonRule;
  /** Which chart: the X̄ (or I) chart or the R (or S, or MR) chart. */
  chart: 'x' | 'r';
  label: string;
}

/**
 * The enabled Nelson rules on a chart's points, with zones from its centre line and 3σ limits
 * (σ = (UCL − CL)/3 above, (CL − LCL)/3 below). A point is flagged with every rule it completes.
 * The zone rules (1, 5, 6) flag a point only when it lies in the offending zone itself; their
 * windows count from the first point of the series, so two points beyond 2σ at the start already
 * make rule 5. A point on the centre line breaks a same-side run, an equal neighbour a trend or
 * an alternation; a missing point (NaN) breaks every run.
 */
export function nelsonRules(
  points: readonly number[],
  limits: { center: number; ucl: number; lcl: number },
  rules: readonly NelsonRule[] = DEFAULT_NELSON_RULES,
): Violation[] {
  const on = new Set(rules);
  const out: Violation[] = [];
  const upper = (limits.ucl - limits.center) / 3;
  const lower = (limits.center - limits.lcl) / 3;
  // z in σ units on each side: positive above the centre line.
  const z = points.map((p) =>
    p >= limits.center ? (p - limits.center) / upper : (p - limits.center) / lower,
  );
  const flag = (index: number, rule: NelsonRule) => {
    if (on.has(rule)) out.push({ index, rule, chart: 'x', label: NELSON_RULES[rule] });
  };
  const beyond = (i: number, back: number, side: number, k: number) => {
    let c = 0;
    for (let j = Math.max(0, i - back); j <= i; j++) if (Math.sign(z[j]) === side && Math.abs(z[j]) > k) c++;
    return c;
  };
  // Lengths of the runs ending at the current point.
  let sameSide = 0;
  let trend = 0;
  let trendDir = 0;
  let alternating = 0;
  let lastStep = 0;
  let inside = 0;
  let outside = 0;
  for (let i = 0; i < z.length; i++) {
    const zi = z[i];
    if (!Number.isFinite(zi)) {
      sameSide = trend = alternating = inside = outside = 0;
      trendDir = lastStep = 0;
      continue;
    }
    const side = Math.sign(zi);
    const prev = i > 0 && Number.isFinite(z[i - 1]) ? points[i - 1] : undefined;
    const step = prev === undefined ? 0 : Math.sign(points[i] - prev);
    sameSide =
      side !== 0 && i > 0 && Number.isFinite(z[i - 1]) && Math.sign(z[i - 1]) === side
        ? sameSide + 1
        : side
          ? 1
          : 0;
    if (step !== 0 && step === trendDir) trend++;
    else {
      trend = step !== 0 ? 2 : 1;
      trendDir = step;
    }
    alternating = step === 0 ? 1 : lastStep !== 0 && step === -lastStep ? alternating + 1 : 2;
    lastStep = step;
    inside = Math.abs(zi) < 1 ? inside + 1 : 0;
    outside = Math.abs(zi) > 1 ? outside + 1 : 0;

    if (Math.abs(zi) > 3) flag(i, 1);
    if (sameSide >= 9) flag(i, 2);
    if (trend >= 6) flag(i, 3);
    if (alternating >= 14) flag(i, 4);
    if (side !== 0 && Math.abs(zi) > 2 && beyond(i, 2, side, 2) >= 2) flag(i, 5);
    if (side !== 0 && Math.abs(zi) > 1 && beyond(i, 4, side, 1) >= 4) flag(i, 6);
    if (inside >= 15) flag(i, 7);
    if (outside >= 8) flag(i, 8);
  }
  return out;
}

/** R, S or MR chart: points outside its control limits (rule 1). */
export function rangeViolations(
  ranges: readonly (number | null)[],
  limits: { rUcl: number; rLcl: number; kind?: ChartKind },
): Violation[] {
  const what = limits.kind === 'xbar-s' ? '标准差' : limits.kind === 'i-mr' ? '移动极差' : '极差';
  const out: Violation[] = [];
  ranges.forEach((r, index) => {
    if (r !== null && (r > limits.rUcl || r < limits.rLcl))
      out.push({ index, rule: 1, chart: 'r', label: `规则1：${what}超出控制限` });
  });
  return out;
}

/** Limits for a series of one subgroup size: I-MR for individuals, X̄–R for 2–10, X̄–S above. */
export function controlLimits(subgroups: readonly SubgroupStat[], n: number): ControlLimits {
  const kind = chartKindFor(n);
  if (kind === 'i-mr') return imrLimits(subgroups.map((g) => g.mean));
  return kind === 'xbar-r' ? xbarRLimits(subgroups, n) : xbarSLimits(subgroups, n);
}

/** The dispersion chart's points: ranges (X̄–R), standard deviations (X̄–S) or moving ranges (I-MR). */
export function dispersionPoints(subgroups: readonly SubgroupStat[], kind: ChartKind): (number | null)[] {
  if (kind === 'i-mr') return subgroups.map((g, i) => (i ? Math.abs(g.mean - subgroups[i - 1].mean) : null));
  return kind === 'xbar-s' ? subgroups.map(subgroupSd) : subgroups.map((g) => g.range);
}

/**
 * Every flagged point of a series under `limits`: the enabled Nelson rules on the X̄/I chart, rule 1
 * on the R/S/MR chart.
 */
export function seriesViolations(
  subgroups: readonly SubgroupStat[],
  limits: ControlLimits,
  rules: readonly NelsonRule[] = DEFAULT_NELSON_RULES,
): Violation[] {
  const means = subgroups.map((g) => g.mean);
  const dispersion = rules.includes(1)
    ? rangeViolations(dispersionPoints(subgroups, limits.kind), limits)
    : [];
  return [...nelsonRules(means, limits, rules), ...dispersion].sort(
    (a, b) => a.index - b.index || a.rule - b.rule,
  );
}

/** Subgroups a chart draws one by one; a longer series is drawn in buckets (chartDisplayIndices). */
export const SPC_CHART_MAX_POINTS = 50_000;
/** Buckets a long series is drawn in: ≤ 3 points each plus its flagged points, well under the cap. */
export const SPC_CHART_BUCKETS = 10_000;

/**
 * The points of a long series a chart draws: the series cut into `buckets` runs of consecutive
 * subgroups, and from each run the subgroup with the lowest and the highest X̄ (or I) and the one
 * with the highest R (or S, MR), plus every flagged subgroup — so the envelope of both charts and
 * every out-of-control point stay on screen. Indices into the series, ascending.
 */
export function chartDisplayIndices(
  x: readonly number[],
  r: readonly (number | null)[],
  flagged: ReadonlySet<number>,
  buckets = SPC_CHART_BUCKETS,
): number[] {
  const size = Math.max(1, Math.ceil(x.length / buckets));
  const keep = new Set<number>(flagged);
  for (let start = 0; start < x.length; start += size) {
    const end = Math.min(x.length, start + size);
    let lo = start;
    let hi = start;
    let rHi = -1;
    for (let i = start; i < end; i++) {
      if (x[i] < x[lo]) lo = i;
      if (x[i] > x[hi]) hi = i;
      const ri = r[i];
      if (ri != null && (rHi < 0 || ri > (r[rHi] as number))) rHi = i;
    }
    keep.add(lo).add(hi);
    if (rHi >= 0) keep.add(rHi);
  }
  return [...keep].filter((i) => i >= 0 && i < x.length).sort((a, b) => a - b);
}
