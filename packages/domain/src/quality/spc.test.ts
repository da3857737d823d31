import { describe, expect, it } from 'vitest';
import {
  capability,
  capabilityBand,
  controlLimits,
  countBins,
  histogramBins,
  histogramRange,
  imrLimits,
  pooledSigma,
  seriesViolations,
  westernElectric,
  xbarRLimits,
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

describe('Western Electric rules', () => {
  const limits = { center: 0, ucl: 3, lcl: -3 };
  const rulesAt = (points: number[]) => westernElectric(points, limits).map((v) => [v.index, v.rule]);

  it('rule 1: a point beyond 3σ', () => {
    expect(rulesAt([0, 0.5, 3.5, 0])).toEqual([[2, 1]]);
  });
  it('rule 2: two of three beyond 2σ on one side', () => {
    expect(rulesAt([0, 2.5, 0.1, 2.2])).toEqual([[3, 2]]);
    expect(rulesAt([0, 2.5, -2.2, 0])).toEqual([]);
  });
  it('rule 3: four of five beyond 1σ on one side', () => {
    expect(rulesAt([-1.5, -1.2, 0, -1.1, -1.4])).toEqual([[4, 3]]);
  });
  it('rule 4: eight in a row on one side', () => {
    expect(rulesAt([0.2, 0.3, 0.1, 0.5, 0.4, 0.2, 0.3, 0.6])).toEqual([[7, 4]]);
  });
  it('names the rule of each flagged point', () => {
    const v = westernElectric([0, 3.5], limits);
    expect(v[0].label).toContain('规则1');
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
