import { describe, expect, it } from 'vitest';
import {
  diameterGeometry,
  GeometryInputError,
  judgeGeometry,
  racewayGeometry,
  ringGeometry,
  widthGeometry,
} from './ring-geometry.ts';
import { deriveRingLimits } from './ring-standard.ts';

/**
 * Worked examples computed by hand with the ISO 1132-1 definitions (d_mp = (largest + smallest
 * single diameter of a plane) / 2, V_dsp = largest − smallest in a plane, V_dmp = largest −
 * smallest d_mp) and judged by the ISO 492 limits of a 6206 of normal class (P0):
 * d = 30, D = 62, B = 16, diameter series 2.
 *  - inner ring, row 18 < d ≤ 30 (manv.in ABEC-1): Δdmp 0/−10, Vdsp (series 2) 8, Vdmp 8, ΔBs 0/−120, VBs 20;
 *  - outer ring, row 50 < D ≤ 80: ΔDmp 0/−13, VDsp (series 2) 10, VDmp 10; ΔCs/VCs = the inner ring's ΔBs/VBs.
 */
const b6206 = { toleranceClass: 'P0' as const, d: 30, D: 62, B: 16, diameterSeries: '2' as const };
const limits = deriveRingLimits(b6206);

describe('bore of a 6206 inner ring, 4 points × 2 planes', () => {
  // Plane I: 29.9950 29.9930 29.9960 29.9940 → largest 29.9960, smallest 29.9930,
  //   d_mp = 29.9945, Δd_mp = −5.5 μm, V_dsp = 3 μm.
  // Plane II: 29.9910 29.9880 29.9900 29.9920 → 29.9920 / 29.9880, d_mp = 29.9900, Δd_mp = −10 μm, V_dsp = 4 μm.
  // V_dmp = 29.9945 − 29.9900 = 4.5 μm; mean of the plane means 29.99225 (−7.75 μm).
  const planes = [
    [29.995, 29.993, 29.996, 29.994],
    [29.991, 29.988, 29.99, 29.992],
  ];
  const g = diameterGeometry(planes, 30);
  it('computes d_mp, Δd_mp and V_dsp per plane', () => {
    expect(g.planes.map((p) => [p.max, p.min, p.mp, p.deviation, p.variation])).toEqual([
      [29.996, 29.993, 29.9945, -5.5, 3],
      [29.992, 29.988, 29.99, -10, 4],
    ]);
  });
  it('computes V_dmp, the ring mean and the single-diameter extremes', () => {
    expect(g.meanVariation).toBe(4.5);
    expect(g.planeVariation).toBe(4);
    expect(g.mean).toBe(29.99225);
    expect(g.meanDeviation).toBe(-7.75);
    expect([g.deviationMin, g.deviationMax]).toEqual([-10, -5.5]);
    // A single diameter 12 μm under d: P0 limits d_mp, not d_s — still a good ring.
    expect([g.singleMin, g.singleMax]).toEqual([-12, -4]);
  });
  it('passes: Δd_mp −10 is on the lower deviation, V_dsp 4 ≤ 8, V_dmp 4.5 ≤ 8', () => {
    const j = judgeGeometry('inner', { diameter: g }, limits);
    expect(j.verdict).toBe('pass');
    expect(j.checks.map((c) => [c.code, c.valueMin ?? null, c.value, c.lower, c.upper, c.ok])).toEqual([
      ['dmp', -10, -5.5, -10, 0, true],
      ['Vdsp', null, 4, null, 8, true],
      ['Vdmp', null, 4.5, null, 8, true],
    ]);
  });
  it('fails on roundness alone: a plane 29.9990 … 29.9890 has V_dsp 10 > 8 though its d_mp (29.9940) is good', () => {
    const bad = diameterGeometry(
      [
        [29.999, 29.989, 29.995, 29.993],
        [29.996, 29.992, 29.994, 29.995],
      ],
      30,
    );
    expect(bad.planes.map((p) => p.deviation)).toEqual([-6, -6]);
    expect(bad.meanVariation).toBe(0);
    const j = judgeGeometry('inner', { diameter: bad }, limits);
    expect(j.verdict).toBe('fail');
    expect(j.checks.find((c) => c.code === 'Vdsp')).toMatchObject({ value: 10, upper: 8, ok: false });
    expect(j.checks.find((c) => c.code === 'dmp')?.ok).toBe(true);
  });
});

describe('outside diameter of a 6206 outer ring', () => {
  // Plane I: 61.9930 61.9890 61.9910 61.9920 → D_mp 61.9910 (−9 μm), V_Dsp 4.
  // Plane II: 61.9860 61.9850 61.9880 61.9870 → D_mp 61.9865 (−13.5 μm: under −13), V_Dsp 3. V_Dmp 4.5.
  const g = diameterGeometry(
    [
      [61.993, 61.989, 61.991, 61.992],
      [61.986, 61.985, 61.988, 61.987],
    ],
    62,
  );
  it('computes and fails on ΔD_mp of plane II', () => {
    expect(g.planes.map((p) => [p.mp, p.deviation, p.variation])).toEqual([
      [61.991, -9, 4],
      [61.9865, -13.5, 3],
    ]);
    expect(g.meanVariation).toBe(4.5);
    const j = judgeGeometry('outer', { diameter: g }, limits);
    expect(j.checks.map((c) => [c.code, c.ok])).toEqual([
      ['Dmp', false],
      ['VDsp', true],
      ['VDmp', true],
    ]);
    expect(j.checks[0]).toMatchObject({ valueMin: -13.5, value: -9, lower: -13, upper: 0 });
    expect(j.verdict).toBe('fail');
  });
});

describe('width', () => {
  // 15.990 15.985 15.992 15.988 against B = 16: ΔB_s −15 … −8 μm, V_Bs 7 μm, mean 15.98875.
  const w = widthGeometry([15.99, 15.985, 15.992, 15.988], 16);
  it('computes ΔB_s and V_Bs', () => {
    expect([w.deviationMin, w.deviationMax, w.variation, w.mean]).toEqual([-15, -8, 7, 15.98875]);
  });
  it('judges the inner ring (ΔBs 0/−120, VBs 20) and the outer ring (ΔCs, VCs: the same values)', () => {
    expect(judgeGeometry('inner', { width: w }, limits).checks.map((c) => [c.code, c.ok])).toEqual([
      ['Bs', true],
      ['VBs', true],
    ]);
    const outer = judgeGeometry('outer', { width: w }, limits);
    expect(outer.checks.map((c) => [c.code, c.lower, c.upper, c.ok])).toEqual([
      ['Cs', -120, 0, true],
      ['VCs', null, 20, true],
    ]);
    expect(outer.verdict).toBe('pass');
  });
  it('a width 0.121 mm under B fails ΔBs', () => {
    const j = judgeGeometry('inner', { width: widthGeometry([15.879, 15.88], 16) }, limits);
    expect(j.checks[0]).toMatchObject({ code: 'Bs', valueMin: -121, ok: false });
  });
});

describe('limits the tables lack, and bad input', () => {
  it('without a diameter series V_dsp has no limit: incomplete, never guessed', () => {
    const noSeries = deriveRingLimits({ ...b6206, diameterSeries: null });
    const g = diameterGeometry([[29.995, 29.993]], 30);
    const j = judgeGeometry('inner', { diameter: g }, noSeries);
    expect(j.checks.map((c) => c.code)).toEqual(['dmp', 'Vdsp']);
    expect(j.checks[1]).toMatchObject({ ok: null, upper: null });
    expect(j.checks[1].missing).toMatch(/直径系列/);
    expect(j.verdict).toBe('incomplete');
  });
  it('one plane gives no V_dmp; planes of different point counts are refused in Chinese', () => {
    expect(
      judgeGeometry('inner', { diameter: diameterGeometry([[29.995, 29.993]], 30) }, limits).checks,
    ).toHaveLength(2);
    expect(() => diameterGeometry([[30], [30, 29.99]], 30)).toThrow(GeometryInputError);
    expect(() => diameterGeometry([[30], [30, 29.99]], 30)).toThrow(/测点数应相同/);
    expect(() => diameterGeometry([], 30)).toThrow(/至少/);
    expect(() => widthGeometry([16, -1], 16)).toThrow(/不是正数/);
  });
  it('raceway: mean and spread against its nominal (6206 inner groove Ø 35.8 as an example nominal)', () => {
    expect(racewayGeometry([[35.806, 35.802, 35.804]], 35.8)).toEqual({
      nominal: 35.8,
      mean: 35.804,
      deviation: 4,
      variation: 4,
    });
  });
});

describe('ringGeometry: one reading set, what its subgroup plots and its verdict', () => {
  it("bore: the value is the mean of the planes' d_mp (29.99225), judged as above", () => {
    const g = ringGeometry({
      characteristic: 'bore-diameter',
      ringType: 'inner',
      readings: [
        [29.995, 29.993, 29.996, 29.994],
        [29.991, 29.988, 29.99, 29.992],
      ],
      nominal: 30,
      limits,
    });
    expect([g.value, g.meanDeviation, g.variation, g.meanVariation, g.verdict]).toEqual([
      29.99225,
      -7.75,
      4,
      4.5,
      'pass',
    ]);
  });
  it('width of an outer ring: C judged by ΔCs/VCs', () => {
    const g = ringGeometry({
      characteristic: 'ring-height',
      ringType: 'outer',
      readings: [[15.99, 15.985, 15.992, 15.988]],
      nominal: 16,
      limits,
    });
    expect([g.value, g.meanDeviation, g.variation, g.checks.map((c) => c.code)]).toEqual([
      15.98875,
      -11.25,
      7,
      ['Cs', 'VCs'],
    ]);
  });
  it('raceway: judged by the typed limits in mm when there are some, else incomplete', () => {
    const readings = [[35.806, 35.802, 35.804, 35.808]];
    const base = {
      characteristic: 'raceway-diameter',
      ringType: 'inner' as const,
      readings,
      nominal: null,
      limits,
    };
    expect(ringGeometry(base)).toMatchObject({ value: 35.805, variation: 6, verdict: 'incomplete' });
    expect(ringGeometry({ ...base, spec: { lsl: 35.79, usl: 35.804 } }).checks[0]).toMatchObject({
      value: 35.805,
      ok: false,
      unit: 'mm',
    });
  });
  it('refuses an angle and a diameter without nominal size', () => {
    expect(() =>
      ringGeometry({ characteristic: 'rib-angle', ringType: 'inner', readings: [[1]], nominal: 1, limits }),
    ).toThrow(/不按套圈读数组/);
    expect(() =>
      ringGeometry({
        characteristic: 'bore-diameter',
        ringType: 'inner',
        readings: [[30]],
        nominal: null,
        limits,
      }),
    ).toThrow(/公称尺寸/);
  });
});
