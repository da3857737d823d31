import { describe, expect, it } from 'vitest';
import { deriveRingLimits, findRow, inRange, overrideLooseness, queryRows } from './ring-standard.ts';
import { RING_STANDARD_ROWS, TOLERANCE_CLASSES } from './ring-standard-tables.ts';

/**
 * The tables against values copied by hand from the published reproductions of ISO 492 /
 * GB/T 307.1 (each expectation names its page), and the derivation of a product's limits.
 */
const lim = (size: Parameters<typeof deriveRingLimits>[0], code: string) => {
  const l = deriveRingLimits(size).find((x) => x.code === code);
  if (!l) throw new Error(code);
  return l;
};
const pair = (size: Parameters<typeof deriveRingLimits>[0], code: string) => {
  const l = lim(size, code);
  return [l.upper, l.lower];
};

// 6204-2RS: d = 20, D = 47, B = 14, diameter series 2, sealed.
const b6204 = { d: 20, D: 47, B: 14, diameterSeries: '2' as const, capped: true };
// 6205: 25 × 52 × 15; 6306: 30 × 72 × 19 (catalogue sizes).
const b6205 = { d: 25, D: 52, B: 15, diameterSeries: '2' as const };
const b6306 = { d: 30, D: 72, B: 19, diameterSeries: '3' as const };

describe('hand-copied values: inner rings', () => {
  // xmvbbearing.com/html/Rolling.htm, "Precision of radial bearings", 1) inner rings, row 18–30.
  it('P6, 6204 (d = 20): Δdmp 0/−8, Vdsp (series 2) 6, Vdmp 6, Kia 8, ΔBs 0/−120, VBs 20', () => {
    const s = { toleranceClass: 'P6' as const, ...b6204 };
    expect(pair(s, 'dmp')).toEqual([0, -8]);
    expect(lim(s, 'Vdsp').upper).toBe(6);
    expect(lim(s, 'Vdmp').upper).toBe(6);
    expect(lim(s, 'Kia').upper).toBe(8);
    expect(pair(s, 'Bs')).toEqual([0, -120]);
    expect(lim(s, 'VBs').upper).toBe(20);
  });
  // manv.in ABEC-1 inner ring, row 18–30: 0 −10 | 13 10 8 | 8 | 13 | 0 −120 | 20.
  it('P0, 6205 (d = 25): Δdmp 0/−10, Vdsp series 9/0/2 = 13/10/8, Kia 13', () => {
    const s = { toleranceClass: 'P0' as const, ...b6205 };
    expect(pair(s, 'dmp')).toEqual([0, -10]);
    expect(lim({ ...s, diameterSeries: '9' }, 'Vdsp').upper).toBe(13);
    expect(lim({ ...s, diameterSeries: '0' }, 'Vdsp').upper).toBe(10);
    expect(lim(s, 'Vdsp').upper).toBe(8);
    expect(lim(s, 'Kia').upper).toBe(13);
  });
  // xmvbbearing.com P5 column, row 30–50: Δdmp 0/−8, Vdsp 8/6/6, Vdmp 4, Kia 5.
  it('P5, d = 45: Δdmp 0/−8, Vdsp (series 0) 6, Vdmp 4, Kia 5', () => {
    const s = { toleranceClass: 'P5' as const, d: 45, D: 75, B: 16, diameterSeries: '0' as const };
    expect(pair(s, 'dmp')).toEqual([0, -8]);
    expect(lim(s, 'Vdsp').upper).toBe(6);
    expect(lim(s, 'Vdmp').upper).toBe(4);
    expect(lim(s, 'Kia').upper).toBe(5);
  });
  // lily-bearing.com, P4 inner, row 50–80: Δdmp 0/−7, Vdsp 7 (7,8,9) / 5 (0,1,2,3), Vdmp 3.5.
  it('P4, d = 60: Δdmp 0/−7, Vdsp 5, Vdmp 3.5; ΔBs missing (not found)', () => {
    const s = { toleranceClass: 'P4' as const, d: 60, D: 110, B: 22, diameterSeries: '2' as const };
    expect(pair(s, 'dmp')).toEqual([0, -7]);
    expect(lim(s, 'Vdsp').upper).toBe(5);
    expect(lim(s, 'Vdmp').upper).toBe(3.5);
    expect(lim(s, 'Bs')).toMatchObject({ available: false, upper: null });
  });
  // loyal.sg Class P2 (ABEC 9), inner ring row 50–80: 0 −4 | 4 | 2 | 0 −150 | 1,5 | 2,5.
  it('P2, d = 55: Δdmp 0/−4, Vdsp 4, Vdmp 2, ΔBs 0/−150, VBs 1.5, Kia 2.5', () => {
    const s = { toleranceClass: 'P2' as const, d: 55, D: 100, B: 21, diameterSeries: '2' as const };
    expect(pair(s, 'dmp')).toEqual([0, -4]);
    expect(lim(s, 'Vdsp').upper).toBe(4);
    expect(lim(s, 'Vdmp').upper).toBe(2);
    expect(pair(s, 'Bs')).toEqual([0, -150]);
    expect(lim(s, 'VBs').upper).toBe(1.5);
    expect(lim(s, 'Kia').upper).toBe(2.5);
  });
  // gbbco.cn Table 1 (P0 inner), row 315–400: 0 −40 | 50 50 30 | 30 | 60 | 0 −400 | 40.
  it('P0, d = 340: Δdmp 0/−40, Kia 60, VBs 40', () => {
    const s = { toleranceClass: 'P0' as const, d: 340, D: 520, B: 82, diameterSeries: '0' as const };
    expect(pair(s, 'dmp')).toEqual([0, -40]);
    expect(lim(s, 'Kia').upper).toBe(60);
    expect(lim(s, 'VBs').upper).toBe(40);
  });
});

describe('hand-copied values: outer rings', () => {
  // manv.in ABEC-1 outer ring, row 30–50: 0 −11 | 14 11 8 | capped 16 | 8 | 20.
  it('P0, 6204-2RS (D = 47): ΔDmp 0/−11, VDsp capped 16, open series 2 = 8, VDmp 8, Kea 20', () => {
    const s = { toleranceClass: 'P0' as const, ...b6204 };
    expect(pair(s, 'Dmp')).toEqual([0, -11]);
    expect(lim(s, 'VDsp').upper).toBe(16);
    expect(lim({ ...s, capped: false }, 'VDsp').upper).toBe(8);
    expect(lim(s, 'VDmp').upper).toBe(8);
    expect(lim(s, 'Kea').upper).toBe(20);
    // ΔCs and VCs: identical to the inner ring's ΔBs and VBs (manv.in ABEC-1 inner row 18–30).
    expect(pair(s, 'Cs')).toEqual([0, -120]);
    expect(lim(s, 'VCs').upper).toBe(20);
  });
  // manv.in ABEC-1 outer ring, row 50–80: 0 −13 | 16 13 10 | 20 | 10 | 25.
  it('P0, 6306 (D = 72): ΔDmp 0/−13, VDsp series 3 = 10, Kea 25', () => {
    const s = { toleranceClass: 'P0' as const, ...b6306 };
    expect(pair(s, 'Dmp')).toEqual([0, -13]);
    expect(lim(s, 'VDsp').upper).toBe(10);
    expect(lim(s, 'Kea').upper).toBe(25);
  });
  // manv.in ABEC-5 outer ring, row 50–80: 0 −9 | 9 7 | 5 | Kea 8 | VCs 6.
  it('P5, 6205 (D = 52): ΔDmp 0/−9, VDsp 7, VDmp 5, Kea 8, VCs 6; capped VDsp has no value', () => {
    const s = { toleranceClass: 'P5' as const, ...b6205 };
    expect(pair(s, 'Dmp')).toEqual([0, -9]);
    expect(lim(s, 'VDsp').upper).toBe(7);
    expect(lim(s, 'VDmp').upper).toBe(5);
    expect(lim(s, 'Kea').upper).toBe(8);
    expect(lim(s, 'VCs').upper).toBe(6);
    expect(lim({ ...s, capped: true }, 'VDsp').available).toBe(false);
  });
  // manv.in ABEC-7 outer ring, row 80–120: 0 −8 | 8 6 | 4 | 6.
  it('P4, D = 100: ΔDmp 0/−8, VDsp 6, VDmp 4, Kea 6', () => {
    const s = { toleranceClass: 'P4' as const, d: 50, D: 100, B: 20, diameterSeries: '2' as const };
    expect(pair(s, 'Dmp')).toEqual([0, -8]);
    expect(lim(s, 'VDsp').upper).toBe(6);
    expect(lim(s, 'VDmp').upper).toBe(4);
    expect(lim(s, 'Kea').upper).toBe(6);
  });
  // loyal.sg Class P2, outer ring row 180–250: 0 −8 | 8 | 4 | VCs 4 | Kea 7.
  it('P2, D = 200: ΔDmp 0/−8, VDsp 8, VDmp 4, VCs 4, Kea 7', () => {
    const s = { toleranceClass: 'P2' as const, d: 100, D: 200, B: 38, diameterSeries: '2' as const };
    expect(pair(s, 'Dmp')).toEqual([0, -8]);
    expect(lim(s, 'VDsp').upper).toBe(8);
    expect(lim(s, 'VDmp').upper).toBe(4);
    expect(lim(s, 'VCs').upper).toBe(4);
    expect(lim(s, 'Kea').upper).toBe(7);
  });
  // TPI CAT. NO. 2202/TE, Appendix I (2) outer rings, class 6, row 30–50: 0 −9 | 11 9 7 | capped 13 | 7 | Kea 10.
  it('P6, 6204-2RS (D = 47): ΔDmp 0/−9, VDsp capped 13, open series 2 = 7, series 0 = 9, VDmp 7, Kea 10', () => {
    const s = { toleranceClass: 'P6' as const, ...b6204 };
    expect(pair(s, 'Dmp')).toEqual([0, -9]);
    expect(lim(s, 'VDsp').upper).toBe(13);
    expect(lim({ ...s, capped: false }, 'VDsp').upper).toBe(7);
    expect(lim({ ...s, capped: false, diameterSeries: '0' }, 'VDsp').upper).toBe(9);
    expect(lim({ ...s, capped: false, diameterSeries: '9' }, 'VDsp').upper).toBe(11);
    expect(lim(s, 'VDmp').upper).toBe(7);
    expect(lim(s, 'Kea').upper).toBe(10);
  });
  // The same page, row 80–120: 0 −13 | 16 16 10 | capped 20 | 10 | Kea 18.
  it('P6, D = 100: ΔDmp 0/−13, VDsp series 3 = 10, capped 20, VDmp 10, Kea 18', () => {
    const s = { toleranceClass: 'P6' as const, d: 50, D: 100, B: 20, diameterSeries: '3' as const };
    expect(pair(s, 'Dmp')).toEqual([0, -13]);
    expect(lim(s, 'VDsp').upper).toBe(10);
    expect(lim({ ...s, capped: true }, 'VDsp').upper).toBe(20);
    expect(lim(s, 'VDmp').upper).toBe(10);
    expect(lim(s, 'Kea').upper).toBe(18);
  });
  it('P6 outer rings above 150 mm are absent (the reproduction ends there), never guessed', () => {
    const l = lim({ toleranceClass: 'P6', d: 100, D: 180, B: 34, diameterSeries: '2' }, 'Dmp');
    expect(l).toMatchObject({ available: false, upper: null, lower: null });
    expect(l.missing).toContain('P6');
  });
});

describe('cells filled for issue 38 §3 (sources beside the tables)', () => {
  // xmvbbearing.com 「Dimension series 7,8,9」 P0 column, row 18–30: 13 (as row 80–120 gives 25 at d = 90).
  it('P0, 61806 (d = 30, diameter series 8): Vdsp 13, like series 9; d = 90 series 8 still 25', () => {
    const s = { toleranceClass: 'P0' as const, d: 30, D: 42, B: 7, diameterSeries: '8' as const };
    expect(lim(s, 'Vdsp')).toMatchObject({ available: true, upper: 13 });
    expect(lim({ ...s, d: 90, D: 110, B: 13 }, 'Vdsp').upper).toBe(25);
    expect(lim({ ...s, d: 2, D: 5, B: 2 }, 'Vdsp').available).toBe(false); // 0.6–2.5: series 9 only
  });
  // TPI CAT. NO. 2202/TE Appendix I (2), class 6 capped, row 18–30: 10; xmvbbearing.com heads P6 「0,1,2,3,4」.
  it('P6, 6000-2RS (d = 10, D = 26, series 0, sealed): VDsp 10; series 1 too; P0 capped series 0 still none', () => {
    const s = {
      toleranceClass: 'P6' as const,
      d: 10,
      D: 26,
      B: 8,
      diameterSeries: '0' as const,
      capped: true,
    };
    expect(lim(s, 'VDsp')).toMatchObject({ available: true, upper: 10 });
    expect(lim({ ...s, diameterSeries: '1' }, 'VDsp').upper).toBe(10);
    expect(lim({ ...s, toleranceClass: 'P0' }, 'VDsp').available).toBe(false);
  });
  // TPI Appendix I (1), class 4 under 「diameter series 2,3,4」: 18–30 → 4, 50–80 → 5.
  it('P4, 6404 (d = 20, series 4): Vdsp 4; d = 60 series 4: 5; d = 100 series 4: not found, missing', () => {
    const s = { toleranceClass: 'P4' as const, d: 20, D: 72, B: 19, diameterSeries: '4' as const };
    expect(lim(s, 'Vdsp').upper).toBe(4);
    expect(lim({ ...s, d: 60, D: 150 }, 'Vdsp').upper).toBe(5);
    expect(lim({ ...s, d: 100, D: 250 }, 'Vdsp').available).toBe(false);
  });
  // TPI Appendix I (1) row 0.6–2.5: class 6 Δdmp 0/−7, Vdsp 9/7/5, Vdmp 5, Kia 5, ΔBs 0/−40, VBs 12
  // (hchbearing.com ABEC-3 the same); class 5 0/−5, 5/4/4, 3, 4, 0/−40, 5 (manv.in ABEC-5 the same).
  it('P6 and P5 inner rings 0.6–2.5 mm (d = 1.5 included; 0.6 included)', () => {
    const p6 = { toleranceClass: 'P6' as const, d: 1.5, D: 4, B: 1.2, diameterSeries: '9' as const };
    expect(pair(p6, 'dmp')).toEqual([0, -7]);
    expect(lim(p6, 'Vdsp').upper).toBe(9);
    expect(lim({ ...p6, diameterSeries: '2' }, 'Vdsp').upper).toBe(5);
    expect([lim(p6, 'Vdmp').upper, lim(p6, 'Kia').upper, lim(p6, 'VBs').upper]).toEqual([5, 5, 12]);
    expect(pair(p6, 'Bs')).toEqual([0, -40]);
    const p5 = { ...p6, toleranceClass: 'P5' as const, d: 0.6 };
    expect(pair(p5, 'dmp')).toEqual([0, -5]);
    expect([lim(p5, 'Vdsp').upper, lim(p5, 'Vdmp').upper, lim(p5, 'Kia').upper]).toEqual([5, 3, 4]);
  });
  it('what could not be sourced stays missing: P2 inner 0.6–2.5, P5/P4 outer over 150, P4 outer VCs', () => {
    expect(lim({ toleranceClass: 'P2', d: 2, D: 6, B: 2.3 }, 'dmp').available).toBe(false);
    expect(lim({ toleranceClass: 'P5', d: 100, D: 180, B: 34 }, 'Dmp').available).toBe(false);
    expect(lim({ toleranceClass: 'P4', d: 100, D: 180, B: 34 }, 'Dmp').available).toBe(false);
    expect(lim({ toleranceClass: 'P4', d: 20, D: 47, B: 14 }, 'VCs').available).toBe(false);
  });
});

describe('range edges', () => {
  it('d exactly 18 is in 10–18; 18.001 falls in 18–30 (P0 Δdmp −8 / −10)', () => {
    expect(pair({ toleranceClass: 'P0', d: 18, D: 35, B: 10, diameterSeries: '0' }, 'dmp')).toEqual([0, -8]);
    expect(pair({ toleranceClass: 'P0', d: 18.001, D: 35, B: 10, diameterSeries: '0' }, 'dmp')).toEqual([
      0, -10,
    ]);
  });
  it('D exactly 50 is in 30–50; 50.5 in 50–80 (P0 ΔDmp −11 / −13)', () => {
    expect(pair({ toleranceClass: 'P0', d: 20, D: 50, B: 12 }, 'Dmp')).toEqual([0, -11]);
    expect(pair({ toleranceClass: 'P0', d: 20, D: 50.5, B: 12 }, 'Dmp')).toEqual([0, -13]);
  });
  it('the first range includes its lower bound (0.6 included), nothing below it', () => {
    expect(findRow('inner', 'P0', 0.6)?.incl).toBe(2.5);
    expect(findRow('inner', 'P0', 0.5)).toBeUndefined();
    expect(inRange({ over: 2.5, incl: 10 }, 2.5)).toBe(false);
  });
  it('a diameter beyond the tables answers missing, with the reason', () => {
    const l = lim({ toleranceClass: 'P2', d: 300, D: 420, B: 56 }, 'dmp');
    expect(l.available).toBe(false);
    expect(l.missing).toMatch(/没有 P2 级内圈/);
  });
  it('Vdsp needs the diameter series', () => {
    expect(lim({ toleranceClass: 'P6', d: 20, D: 47, B: 14 }, 'Vdsp').missing).toMatch(/直径系列/);
  });
});

describe('the tables', () => {
  it('every row names its standard, clause, table and published source', () => {
    for (const r of RING_STANDARD_ROWS) {
      expect(r.source.standard).toMatch(/ISO 492.*GB\/T 307\.1/);
      expect(r.source.clause).toBeTruthy();
      expect(r.source.table).toMatch(/^表\d+/);
      expect(r.source.url).toMatch(/^https?:\/\//);
      expect(r.incl).toBeGreaterThan(r.over);
    }
  });
  it('has inner-ring rows for every class, and ranges of one table never overlap', () => {
    for (const c of TOLERANCE_CLASSES)
      expect(queryRows({ ringType: 'inner', toleranceClass: c.value }).length).toBeGreaterThan(0);
    for (const ring of ['inner', 'outer'] as const)
      for (const c of TOLERANCE_CLASSES) {
        const rows = queryRows({ ringType: ring, toleranceClass: c.value });
        for (let i = 1; i < rows.length; i++) expect(rows[i].over).toBeGreaterThanOrEqual(rows[i - 1].incl);
      }
  });
  it('queries by diameter', () => {
    const rows = queryRows({ ringType: 'inner', diameter: 20 });
    expect(rows.map((r) => r.toleranceClass).sort()).toEqual(['P0', 'P2', 'P4', 'P5', 'P6']);
  });
});

describe('customer tightening', () => {
  const std = lim({ toleranceClass: 'P6', ...b6204 }, 'dmp'); // 0 / −8
  const kia = lim({ toleranceClass: 'P6', ...b6204 }, 'Kia'); // 8
  it('accepts limits inside the standard', () => {
    expect(overrideLooseness(std, 0, -5)).toBeNull();
    expect(overrideLooseness(kia, 5, null)).toBeNull();
  });
  it('refuses looser limits, in Chinese', () => {
    expect(overrideLooseness(std, 2, -5)).toMatch(/上偏差 2 μm 比标准 0 μm 宽松/);
    expect(overrideLooseness(std, 0, -9)).toMatch(/下偏差 -9 μm 比标准 -8 μm 宽松/);
    expect(overrideLooseness(kia, 9, null)).toMatch(/宽松/);
    expect(overrideLooseness(kia, 5, -1)).toMatch(/下限请留空/);
    expect(overrideLooseness(std, -6, -4)).toMatch(/下偏差不能大于上偏差/);
  });
  it('refuses a tightening where the standard holds no value', () => {
    const missing = lim({ toleranceClass: 'P6', d: 100, D: 180, B: 34, diameterSeries: '2' }, 'Dmp');
    expect(overrideLooseness(missing, 0, -5)).toMatch(/没有/);
  });
});
