import { describe, expect, it } from 'vitest';
import {
  capability,
  capabilityBand,
  chartDisplayIndices,
  controlLimits,
  countBins,
  histogramBins,
  histogramRange,
  imrLimits,
  type NelsonRule,
  nelsonRules,
  pooledSigma,
  seriesViolations,
  xbarRLimits,
  xbarSConstants,
  xbarSLimits,
} from './spc.ts';

/** Rounds to `digits` significant digits, as published figures are compared. */
const sig = (v: number | null, digits = 3) => (v === null ? null : Number(v.toPrecision(digits)));

/**
 * Montgomery, Introduction to Statistical Quality Control, Example 6.1 / Table 6.3: inside
 * diameter of forged piston rings, 25 preliminary subgroups of 5 (the `pistonrings` data set of
 * the R package qcc, which reproduces the book's Phase I figures). Published (qcc 2.7 output for
 * `qcc(diameter[1:25,], type = "xbar")` and `"R"`): centre 74.00118, σ̂ = 0.009785039,
 * LCL 73.98805, UCL 74.0143; R chart CL 0.02276, UCL 0.04812; with specifications 74.000 ± 0.05
 * the capability is Cp = 1.70, Cpk = 1.66 (Montgomery §8 on the same data; qcc process.capability).
 */
const PISTON_RINGS = [
  [74.03, 74.002, 74.019, 73.992, 74.008],
  [73.995, 73.992, 74.001, 74.011, 74.004],
  [73.988, 74.024, 74.021, 74.005, 74.002],
  [74.002, 73.996, 73.993, 74.015, 74.009],
  [73.992, 74.007, 74.015, 73.989, 74.014],
  [74.009, 73.994, 73.997, 73.985, 73.993],
  [73.995, 74.006, 73.994, 74.0, 74.005],
  [73.985, 74.003, 73.993, 74.015, 73.988],
  [74.008, 73.995, 74.009, 74.005, 74.004],
  [73.998, 74.0, 73.99, 74.007, 73.995],
  [73.994, 73.998, 73.994, 73.995, 73.99],
  [74.004, 74.0, 74.007, 74.0, 73.996],
  [73.983, 74.002, 73.998, 73.997, 74.012],
  [74.006, 73.967, 73.994, 74.0, 73.984],
  [74.012, 74.014, 73.998, 73.999, 74.007],
  [74.0, 73.984, 74.005, 73.998, 73.996],
  [73.994, 74.012, 73.986, 74.005, 74.007],
  [74.006, 74.01, 74.018, 74.003, 74.0],
  [73.984, 74.002, 74.003, 74.005, 73.997],
  [74.0, 74.01, 74.013, 74.02, 74.003],
  [73.988, 74.001, 74.009, 74.005, 73.996],
  [74.004, 73.999, 73.99, 74.006, 74.009],
  [74.01, 73.989, 73.99, 74.009, 74.014],
  [74.015, 74.008, 73.993, 74.0, 74.01],
  [73.982, 73.984, 73.995, 74.017, 74.013],
];

const stats = (g: number[]) => ({
  n: g.length,
  mean: g.reduce((s, v) => s + v, 0) / g.length,
  range: Math.max(...g) - Math.min(...g),
  ssDev: g.reduce((s, v) => s + (v - g.reduce((a, b) => a + b, 0) / g.length) ** 2, 0),
});

describe('X̄–R limits against Montgomery Example 6.1 (piston rings, qcc pistonrings)', () => {
  const limits = xbarRLimits(PISTON_RINGS.map(stats), 5);

  it('has the published centre line and control limits', () => {
    expect(limits.center.toFixed(5)).toBe('74.00118');
    expect(limits.ucl.toFixed(4)).toBe('74.0143');
    expect(limits.lcl.toFixed(4)).toBe('73.9880');
    expect(limits.rCenter.toFixed(5)).toBe('0.02276');
    expect(sig(limits.rUcl)).toBe(sig(0.04812533));
    expect(limits.rLcl).toBe(0);
    expect(sig(limits.sigmaWithin, 6)).toBe(sig(0.009785039, 6));
  });

  it('has the published capability with specifications 74.000 ± 0.05', () => {
    const pooled = pooledSigma(PISTON_RINGS.map(stats));
    expect(pooled.count).toBe(125);
    const c = capability({
      mean: pooled.mean,
      sigmaWithin: limits.sigmaWithin,
      sigmaOverall: pooled.sigma,
      lsl: 73.95,
      usl: 74.05,
    });
    expect(sig(c.cp)).toBe(1.7);
    expect(sig(c.cpk)).toBe(1.66);
    // Pp/Ppk use the overall sample standard deviation of the 125 values (0.01007).
    expect(sig(pooled.sigma)).toBe(0.0101);
    expect(sig(c.pp)).toBe(1.66);
    expect(sig(c.ppk)).toBe(1.62);
  });

  it('finds the Phase I data in control (no Western Electric rule 1 point)', () => {
    expect(seriesViolations(PISTON_RINGS.map(stats), limits).filter((v) => v.rule === 1)).toEqual([]);
  });
});

/**
 * Montgomery, Example 6.5 (p. 242): viscosity of an aircraft primer paint, 15 individual
 * batches. Published (qcc `type = "xbar.one"`): centre 33.52333, σ̂ = MR̄/d2 = 0.4261651,
 * limits 32.24484 and 34.80183.
 */
describe('I-MR limits against Montgomery Example 6.5 (viscosity)', () => {
  const x = [
    33.75, 33.05, 34, 33.81, 33.46, 34.02, 33.68, 33.27, 33.49, 33.2, 33.62, 33.0, 33.54, 33.12, 33.84,
  ];
  it('has the published limits', () => {
    const l = imrLimits(x);
    expect(l.center.toFixed(5)).toBe('33.52333');
    expect(sig(l.sigmaWithin, 6)).toBe(sig(0.4261651, 6));
    expect(l.ucl.toFixed(4)).toBe('34.8018');
    expect(l.lcl.toFixed(4)).toBe('32.2448');
    expect(
      controlLimits(
        x.map((v) => ({ n: 1, mean: v, range: 0 })),
        1,
      ).kind,
    ).toBe('i-mr');
  });
});

describe('Nelson rules on hand-built series (centre 0, σ = 1)', () => {
  const limits = { center: 0, ucl: 3, lcl: -3 };
  const at = (points: number[], rules: NelsonRule[]) =>
    nelsonRules(points, limits, rules).map((v) => [v.index, v.rule]);
  const repeat = (k: number, f: (i: number) => number) => Array.from({ length: k }, (_, i) => f(i));

  it('rule 1: a point beyond 3σ', () => {
    expect(at([0, 0.5, 3.5, 0, -3.2], [1])).toEqual([
      [2, 1],
      [4, 1],
    ]);
    expect(at([0, 3, -3], [1])).toEqual([]);
  });
  it('rule 2: nine in a row on one side of the centre line', () => {
    expect(at([-0.5, ...repeat(9, (i) => 0.1 + i / 100)], [2])).toEqual([[9, 2]]);
    expect(
      at(
        repeat(8, () => 0.4),
        [2],
      ),
    ).toEqual([]);
    // A point on the centre line breaks the run.
    expect(at([...repeat(5, () => -0.4), 0, ...repeat(5, () => -0.4)], [2])).toEqual([]);
  });
  it('rule 3: six in a row steadily rising or falling', () => {
    expect(at([0, 1, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [3])).toEqual([[7, 3]]);
    expect(at([0.5, 0.4, 0.3, 0.2, 0.1, 0, -0.1], [3])).toEqual([
      [5, 3],
      [6, 3],
    ]);
    // Equal neighbours are no trend.
    expect(at([0.1, 0.2, 0.2, 0.3, 0.4, 0.5, 0.6], [3])).toEqual([]);
  });
  it('rule 4: fourteen in a row alternating up and down', () => {
    expect(
      at(
        repeat(14, (i) => (i % 2 ? 0.5 : -0.5)),
        [4],
      ),
    ).toEqual([[13, 4]]);
    expect(
      at(
        repeat(13, (i) => (i % 2 ? 0.5 : -0.5)),
        [4],
      ),
    ).toEqual([]);
  });
  it('rule 5: two of three beyond 2σ on one side', () => {
    expect(at([0, 2.5, 0.1, 2.2], [5])).toEqual([[3, 5]]);
    expect(at([0, 2.5, -2.2, 0], [5])).toEqual([]);
  });
  it('rule 5 fires on the first points of a series (two of the first two)', () => {
    expect(at([2.5, 2.2, 0], [5])).toEqual([[1, 5]]);
    expect(at([-2.5, 0, -2.1], [5])).toEqual([[2, 5]]);
  });
  it('rule 6: four of five beyond 1σ on one side, from the first points on', () => {
    expect(at([-1.5, -1.2, 0, -1.1, -1.4], [6])).toEqual([[4, 6]]);
    expect(at([1.5, 1.2, 1.1, 1.4], [6])).toEqual([[3, 6]]);
    expect(at([1.5, 1.2, -1.1, 1.4], [6])).toEqual([]);
  });
  it('rule 7: fifteen in a row within 1σ on either side', () => {
    expect(
      at(
        repeat(15, (i) => (i % 3 ? 0.3 : -0.6)),
        [7],
      ),
    ).toEqual([[14, 7]]);
    expect(at([...repeat(7, () => 0.2), 1.5, ...repeat(7, () => -0.2)], [7])).toEqual([]);
  });
  it('rule 8: eight in a row beyond 1σ on either side', () => {
    expect(
      at(
        repeat(8, (i) => (i % 2 ? 1.5 : -1.8)),
        [8],
      ),
    ).toEqual([[7, 8]]);
    expect(at([...repeat(4, () => 1.5), 0.5, ...repeat(4, () => -1.5)], [8])).toEqual([]);
  });
  it('checks only the rules switched on', () => {
    const series = [2.5, 2.2, 3.5];
    expect(at(series, [])).toEqual([]);
    expect(at(series, [1])).toEqual([[2, 1]]);
    expect(at(series, [1, 5])).toEqual([
      [1, 5],
      [2, 1],
      [2, 5],
    ]);
  });
  it('defaults to the Western Electric tests (Nelson 1, 2, 5, 6) and names each rule', () => {
    const v = nelsonRules([0, 0.1, 0.2, 0.3, 0.4, 0.5, 3.5], limits);
    expect(v.map((x) => x.rule)).toEqual([1]);
    expect(v[0].label).toContain('规则1');
  });
});

/**
 * Montgomery, Introduction to Statistical Quality Control (6th ed.), Appendix VI: factors for
 * constructing variables control charts, n = 2 … 25 (c4, A3, B3, B4 as printed).
 */
const APPENDIX_VI: [number, number, number, number, number][] = [
  // n, c4, A3, B3, B4
  [2, 0.7979, 2.659, 0, 3.267],
  [3, 0.8862, 1.954, 0, 2.568],
  [4, 0.9213, 1.628, 0, 2.266],
  [5, 0.94, 1.427, 0, 2.089],
  [6, 0.9515, 1.287, 0.03, 1.97],
  [7, 0.9594, 1.182, 0.118, 1.882],
  [8, 0.965, 1.099, 0.185, 1.815],
  [9, 0.9693, 1.032, 0.239, 1.761],
  [10, 0.9727, 0.975, 0.284, 1.716],
  [11, 0.9754, 0.927, 0.321, 1.679],
  [12, 0.9776, 0.886, 0.354, 1.646],
  [13, 0.9794, 0.85, 0.382, 1.618],
  [14, 0.981, 0.817, 0.406, 1.594],
  [15, 0.9823, 0.789, 0.428, 1.572],
  [16, 0.9835, 0.763, 0.448, 1.552],
  [17, 0.9845, 0.739, 0.466, 1.534],
  [18, 0.9854, 0.718, 0.482, 1.518],
  [19, 0.9862, 0.698, 0.497, 1.503],
  [20, 0.9869, 0.68, 0.51, 1.49],
  [21, 0.9876, 0.663, 0.523, 1.477],
  [22, 0.9882, 0.647, 0.534, 1.466],
  [23, 0.9887, 0.633, 0.545, 1.455],
  [24, 0.9892, 0.619, 0.555, 1.445],
  [25, 0.9896, 0.606, 0.565, 1.435],
];

describe('X̄–S constants against Montgomery Appendix VI', () => {
  it.each(APPENDIX_VI)('n = %i: c4 %f, A3 %f, B3 %f, B4 %f', (n, c4, A3, B3, B4) => {
    const k = xbarSConstants(n);
    expect(k.c4.toFixed(4)).toBe(c4.toFixed(4));
    expect(k.A3.toFixed(3)).toBe(A3.toFixed(3));
    expect(k.B3.toFixed(3)).toBe(B3.toFixed(3));
    expect(k.B4.toFixed(3)).toBe(B4.toFixed(3));
  });
  it('refuses a size without constants', () => {
    expect(() => xbarSConstants(1)).toThrow();
  });
});

describe('X̄–S limits against Montgomery Example 6.3 (piston rings)', () => {
  // Published (qcc `type = "S"` on pistonrings[1:25]): s̄ = 0.009240037, UCL 0.01930242, LCL 0,
  // σ̂ = s̄/c4 = 0.009829977; X̄ chart X̿ ± A3·s̄ = 73.988 … 74.014 as Montgomery prints it (his
  // s̄ = 0.0094 sums the subgroup deviations as rounded in his Table 6.4).
  const l = xbarSLimits(PISTON_RINGS.map(stats), 5);
  it('has the published limits', () => {
    expect(l.kind).toBe('xbar-s');
    expect(l.center.toFixed(3)).toBe('74.001');
    expect(sig(l.rCenter, 6)).toBe(sig(0.009240037, 6));
    expect(sig(l.rUcl, 5)).toBe(sig(0.01930242, 5));
    expect(sig(l.sigmaWithin, 5)).toBe(sig(0.009829977, 5));
    expect(l.ucl.toFixed(3)).toBe('74.014');
    expect(l.lcl.toFixed(3)).toBe('73.988');
    expect(l.rLcl).toBe(0);
  });
  it('is the chart for subgroups larger than 10; the S chart flags a spread subgroup', () => {
    const groups = [
      ...Array.from({ length: 20 }, (_, i) =>
        stats(Array.from({ length: 12 }, (_, j) => 10 + ((i + j) % 5) / 100)),
      ),
      stats([...Array.from({ length: 11 }, () => 10.02), 10.4]),
    ];
    const limits = controlLimits(groups.slice(0, 20), 12);
    expect(limits.kind).toBe('xbar-s');
    const v = seriesViolations(groups, limits, [1]);
    expect(v.filter((x) => x.chart === 'r').map((x) => [x.index, x.label])).toEqual([
      [20, '规则1：标准差超出控制限'],
    ]);
  });
});

describe('capability bands and histogram', () => {
  it('colours ≥ 1.33 green, 1.00–1.33 yellow, < 1.00 red', () => {
    expect(capabilityBand(1.6)).toBe('good');
    expect(capabilityBand(1.33)).toBe('good');
    expect(capabilityBand(1.2)).toBe('marginal');
    expect(capabilityBand(0.8)).toBe('poor');
    expect(capabilityBand(null)).toBe('none');
  });
  it('bins cover the specification limits and the normal curve sums to the count', () => {
    const values = PISTON_RINGS.flat();
    const pooled = pooledSigma(PISTON_RINGS.map(stats));
    const range = histogramRange({
      min: Math.min(...values),
      max: Math.max(...values),
      lsl: 73.95,
      usl: 74.05,
    });
    expect(range.lo).toBeLessThan(73.95);
    expect(range.hi).toBeGreaterThan(74.05);
    const bins = histogramBins(range, countBins(values, range), pooled);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(125);
    expect(bins.reduce((s, b) => s + b.expected, 0)).toBeCloseTo(125, 0);
  });
  it('one-sided specifications give Cpk only', () => {
    const c = capability({ mean: 10, sigmaWithin: 1, sigmaOverall: 1, usl: 14 });
    expect(c.cp).toBeNull();
    expect(sig(c.cpk)).toBe(1.33);
  });
});

describe('a long series drawn in buckets', () => {
  it("keeps each bucket's lowest and highest X̄, its highest R and every flagged point", () => {
    // 10 subgroups in 3 buckets of ⌈10/3⌉ = 4, 4, 2, worked by hand:
    //   [0–3] x 5 1 9 4 → lowest 1 (x=1), highest 2 (x=9); r 1 2 1 7 → highest 3;
    //   [4–7] x 6 6 2 8 → lowest 6, highest 7; r 3 3 3 3 → first highest 4;
    //   [8–9] x 5 5 → 8, 8; r null 2 → 9. Flagged: 5.
    const x = [5, 1, 9, 4, 6, 6, 2, 8, 5, 5];
    const r = [1, 2, 1, 7, 3, 3, 3, 3, null, 2];
    expect(chartDisplayIndices(x, r, new Set([5]), 3)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Without the flag, subgroup 5 is not drawn; 0 never is.
    expect(chartDisplayIndices(x, r, new Set(), 3)).toEqual([1, 2, 3, 4, 6, 7, 8, 9]);
  });
  it('draws 100,000 subgroups in at most 3 points a bucket', () => {
    const x = Array.from({ length: 100_000 }, (_, i) => Math.sin(i));
    const r = x.map((v) => Math.abs(v));
    const shown = chartDisplayIndices(x, r, new Set([12_345]));
    expect(shown.length).toBeLessThanOrEqual(30_001);
    expect(shown).toContain(12_345);
    expect(shown.every((v, i) => i === 0 || v > shown[i - 1])).toBe(true);
  });
});
