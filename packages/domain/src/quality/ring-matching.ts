/**
 * 尺寸分组与选配 (issue 38 §4): deep-groove ball bearings are assembled by choosing an inner ring,
 * an outer ring and a ball grade (钢球规值) so that the radial internal clearance
 *
 *     Gr = outer-ring groove diameter − inner-ring groove diameter − 2 × ball diameter
 *
 * lands inside the limits of the ordered clearance group (C2, CN, C3, C4, C5; ISO 5753-1 /
 * GB/T 4604.1). Measured rings are sorted into size groups of a chosen width (2 µm by default) on
 * an absolute grid: a ring whose groove measures 25.9913 mm lies in the 2 µm group
 * [25.990, 25.992) mm. All arithmetic is on integers of 0.1 µm (gauges read to 0.1 µm), so a value
 * on a group's edge always falls in the same group.
 *
 * Matching is decided per group pair, never per ring: a pair (inner group, outer group) with a ball
 * grade is accepted only when every ring of those groups gives a clearance inside the limits, so any
 * ring of a group can stand in for any other. The number of bearings is then a maximum flow through
 * the bipartite graph of groups (source → inner group, capacity its rings; inner → outer group when a
 * grade fits; outer group → sink, capacity its rings), which is optimal under this rule; a ring-level
 * optimum that uses the exact readings can only be larger, at the price of sets that sit on a
 * group's limit. Each accepted pair takes the grade that centres the clearance — unless the balls
 * in stock by grade are given (`ballStockSets`): then no grade fills more bearings than its balls
 * can, and a pair that fits several grades takes the next one when the best is used up
 * (`matchRings`: flow, then grades handed out to the pairs with the fewest choices first, repeated
 * on what is left while a grade still has balls).
 */

/** The 装配车间's 选配 page and its 选配合格率 report (menu tree: matchingPages). */
export const RING_MATCHING_PATH = '/production-department/production-manage/assembly-workshop/ring-matching';
export const RING_MATCHING_YIELD_PATH = `${RING_MATCHING_PATH}-yield`;

/** Radial internal clearance groups of ISO 5753-1 / GB/T 4604.1, smallest first. */
export const CLEARANCE_GROUPS = ['C2', 'CN', 'C3', 'C4', 'C5'] as const;
export type ClearanceGroup = (typeof CLEARANCE_GROUPS)[number];

/** Chinese labels as the 选配 page shows them. */
export const CLEARANCE_GROUP_LABELS: Record<ClearanceGroup, string> = {
  C2: 'C2（小于基本组）',
  CN: 'CN（基本组）',
  C3: 'C3（大于基本组）',
  C4: 'C4',
  C5: 'C5',
};

/**
 * Radial internal clearance of deep-groove ball bearings (cylindrical bore) in µm, per nominal bore d
 * (over, incl. in mm): [min, max] for C2, CN, C3, C4, C5. ISO 5753-1:2009 Table 1 / GB/T 4604.1-2012
 * 表 1, as the makers' catalogues reproduce it:
 *  - PTI, "Bearing inserts – internal clearance" (pti.eu, table 6 … 140 mm);
 *  - KTAI Ball Bearing, "Internal clearance" (ktaiballbearing.com, table ≤ 10 … 100 mm);
 *  - SHJF Bearing, "Deep-groove ball bearing radial clearance" (en.shjfbearing.com, ≤ 10 … 100 mm).
 * The three agree cell for cell except C5 over 50 incl. 65, which the last two print as 55–60 (a
 * misprint: C5 is wider than C4's 38–61); PTI's 55–90 is taken. The first row covers d ≤ 10 (the
 * catalogues' 「10 以下」), the last d ≤ 140; larger or smaller bores are refused, not guessed.
 */
export const RADIAL_CLEARANCE_TABLE: readonly {
  over: number;
  incl: number;
  limits: Record<ClearanceGroup, readonly [number, number]>;
}[] = (
  [
    [0, 10, [0, 7], [2, 13], [8, 23], [14, 29], [20, 37]],
    [10, 18, [0, 9], [3, 18], [11, 25], [18, 33], [25, 45]],
    [18, 24, [0, 10], [5, 20], [13, 28], [20, 36], [28, 48]],
    [24, 30, [1, 11], [5, 20], [13, 28], [23, 41], [30, 53]],
    [30, 40, [1, 11], [6, 20], [15, 33], [28, 46], [40, 64]],
    [40, 50, [1, 11], [6, 23], [18, 36], [30, 51], [45, 73]],
    [50, 65, [1, 15], [8, 28], [23, 43], [38, 61], [55, 90]],
    [65, 80, [1, 15], [10, 30], [25, 51], [46, 71], [65, 105]],
    [80, 100, [1, 18], [12, 36], [30, 58], [53, 84], [75, 120]],
    [100, 120, [2, 20], [15, 41], [36, 66], [61, 97], [90, 140]],
    [120, 140, [2, 23], [18, 48], [41, 81], [71, 114], [105, 160]],
  ] as const
).map(([over, incl, C2, CN, C3, C4, C5]) => ({ over, incl, limits: { C2, CN, C3, C4, C5 } }));

export class RingMatchingError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The clearance limits [min, max] in µm of `group` for a bearing of nominal bore `boreMm`. */
export function radialClearanceLimits(boreMm: number, group: ClearanceGroup): { min: number; max: number } {
  const row = RADIAL_CLEARANCE_TABLE.find((r) => boreMm > r.over && boreMm <= r.incl);
  if (!row || !(boreMm > 0))
    throw new RingMatchingError('boreMm', `内径 ${boreMm} mm 超出径向游隙表范围（0 < d ≤ 140 mm）`);
  const [min, max] = row.limits[group];
  return { min, max };
}

// ------------------------------------------------------------------ size groups

/** Readings are compared as integers of 0.1 µm. */
export const TENTHS_PER_MM = 10_000;
export const toTenths = (mm: number) => Math.round(mm * TENTHS_PER_MM);

/** The group index of a reading on the absolute grid of `widthUm` (groups [k·w, (k+1)·w)). */
export function sizeGroupIndex(valueMm: number, widthUm: number): number {
  const w = Math.round(widthUm * 10);
  if (!(w > 0)) throw new RingMatchingError('groupWidthUm', '分组宽度必须大于 0');
  return Math.floor(toTenths(valueMm) / w);
}

/** A group's bounds in mm: [low, high). */
export function sizeGroupBounds(index: number, widthUm: number): { low: number; high: number } {
  const w = Math.round(widthUm * 10);
  return { low: (index * w) / TENTHS_PER_MM, high: ((index + 1) * w) / TENTHS_PER_MM };
}

/** 「25.990～25.992」: a group named by its bounds in mm (3 decimals, 4 when the width needs them). */
export function sizeGroupLabel(index: number, widthUm: number): string {
  const { low, high } = sizeGroupBounds(index, widthUm);
  const places = Math.round(widthUm * 10) % 10 === 0 ? 3 : 4;
  return `${low.toFixed(places)}～${high.toFixed(places)}`;
}

export interface SizeGroupCount<K = number> {
  index: number;
  label: string;
  count: number;
  ids: K[];
}

/** Rings grouped by a reading (groove diameter, d_mp or D_mp), groups ascending. */
export function sizeGroups<T, K>(
  items: readonly T[],
  readingOf: (t: T) => number,
  idOf: (t: T) => K,
  widthUm: number,
): SizeGroupCount<K>[] {
  const byIndex = new Map<number, SizeGroupCount<K>>();
  for (const it of items) {
    const index = sizeGroupIndex(readingOf(it), widthUm);
    let g = byIndex.get(index);
    if (!g) {
      g = { index, label: sizeGroupLabel(index, widthUm), count: 0, ids: [] };
      byIndex.set(index, g);
    }
    g.count++;
    g.ids.push(idOf(it));
  }
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

/** Radial internal clearance in µm of one set: Gr = De − Di − 2·Dw (groove diameters and ball in mm). */
export function radialClearanceUm(outerGrooveMm: number, innerGrooveMm: number, ballMm: number): number {
  return (toTenths(outerGrooveMm) - toTenths(innerGrooveMm) - 2 * toTenths(ballMm)) / 10;
}

// ------------------------------------------------------------------ matching

export interface MatchRing<K = number> {
  id: K;
  /** Groove (raceway) diameter in mm: the inner ring's outer raceway, the outer ring's inner raceway. */
  grooveMm: number;
}

export interface MatchInput<K = number> {
  inner: readonly MatchRing<K>[];
  outer: readonly MatchRing<K>[];
  /** Nominal ball diameter in mm (6204: 7.938). */
  ballMm: number;
  /** Ball grades (规值) available, deviation from the nominal in µm (ISO 3290 gauges: −2 … +2). */
  ballGradesUm: readonly number[];
  /** Clearance limits in µm (from `radialClearanceLimits`). */
  clearance: { min: number; max: number };
  /** Size-group width in µm (2 by default). */
  groupWidthUm?: number;
  /**
   * Bearings the balls in stock can fill, by grade (µm → sets: balls of that grade ÷ balls per
   * bearing). Absent: balls are not the constraint. A grade missing here has none.
   */
  ballStockSets?: Readonly<Record<string, number>>;
}

export interface MatchSet<K = number> {
  innerGroup: number;
  innerLabel: string;
  outerGroup: number;
  outerLabel: string;
  ballGradeUm: number;
  /** Clearance every set of this line lies in, from the group bounds (µm; max exclusive). */
  clearanceLowUm: number;
  clearanceHighUm: number;
  count: number;
  /** The rings of each set, [inner id, outer id], in group order. */
  pairs: [K, K][];
}

export interface MatchResult<K = number> {
  groupWidthUm: number;
  sets: MatchSet<K>[];
  assembled: number;
  innerGroups: SizeGroupCount<K>[];
  outerGroups: SizeGroupCount<K>[];
  leftover: { inner: SizeGroupCount<K>[]; outer: SizeGroupCount<K>[] };
}

/**
 * The ball grade for a pair of groups, or null when none keeps every set inside the limits. Ring
 * groups span [k·w, (k+1)·w), so a pair's clearance spans (base − w, base + w) around
 * base = (ko − ki)·w − 2·(Dw + grade); the grade is kept when the whole span is inside [min, max],
 * and of those kept the one nearest the middle of the limits is taken (then the smaller ball).
 */
export function gradeForPair(
  innerGroup: number,
  outerGroup: number,
  widthUm: number,
  ballMm: number,
  gradesUm: readonly number[],
  clearance: { min: number; max: number },
): { gradeUm: number; lowUm: number; highUm: number } | null {
  return gradesForPair(innerGroup, outerGroup, widthUm, ballMm, gradesUm, clearance)[0] ?? null;
}

/** Every grade that keeps a pair of groups inside the limits, best (most centred, then smaller) first. */
export function gradesForPair(
  innerGroup: number,
  outerGroup: number,
  widthUm: number,
  ballMm: number,
  gradesUm: readonly number[],
  clearance: { min: number; max: number },
): { gradeUm: number; lowUm: number; highUm: number }[] {
  const w = Math.round(widthUm * 10);
  const lo = clearance.min * 10;
  const hi = clearance.max * 10;
  const mid = lo + hi;
  const fits: { gradeUm: number; lowUm: number; highUm: number; off: number }[] = [];
  for (const g of gradesUm) {
    const base = (outerGroup - innerGroup) * w - 2 * (toTenths(ballMm) + Math.round(g * 10));
    const low = base - w;
    const high = base + w;
    if (low < lo || high > hi) continue;
    fits.push({ gradeUm: g, lowUm: low / 10, highUm: high / 10, off: Math.abs(2 * base - mid) });
  }
  return fits
    .sort((a, b) => a.off - b.off || a.gradeUm - b.gradeUm)
    .map(({ gradeUm, lowUm, highUm }) => ({ gradeUm, lowUm, highUm }));
}

/**
 * Maximum flow on the group graph (Dinic). `cap[i][o]` is true when inner group i and outer group o
 * match; answers the flow per edge. Group counts are small (a few dozen a side), so this is
 * microseconds whatever the number of rings.
 */
export function maxGroupFlow(
  innerCounts: number[],
  outerCounts: number[],
  compatible: boolean[][],
): number[][] {
  const ni = innerCounts.length;
  const no = outerCounts.length;
  const n = ni + no + 2;
  const s = ni + no;
  const t = s + 1;
  const to: number[] = [];
  const capArr: number[] = [];
  const head: number[] = new Array(n).fill(-1);
  const next: number[] = [];
  const addEdge = (u: number, v: number, c: number) => {
    to.push(v);
    capArr.push(c);
    next.push(head[u]);
    head[u] = to.length - 1;
    to.push(u);
    capArr.push(0);
    next.push(head[v]);
    head[v] = to.length - 1;
  };
  const pairEdge: number[][] = innerCounts.map(() => new Array(no).fill(-1));
  // Outer groups in ascending order per inner group, inner groups ascending: with the greedy first
  // augmentations the flow prefers the smallest groups first, which the tests can predict.
  for (let i = 0; i < ni; i++) addEdge(s, i, innerCounts[i]);
  for (let o = 0; o < no; o++) addEdge(ni + o, t, outerCounts[o]);
  const big = innerCounts.reduce((a, b) => a + b, 0);
  for (let i = 0; i < ni; i++)
    for (let o = no - 1; o >= 0; o--)
      if (compatible[i][o]) {
        addEdge(i, ni + o, big);
        pairEdge[i][o] = to.length - 2;
      }
  const level = new Array(n);
  const it = new Array(n);
  const bfs = () => {
    level.fill(-1);
    level[s] = 0;
    const q = [s];
    for (let k = 0; k < q.length; k++) {
      const u = q[k];
      for (let e = head[u]; e !== -1; e = next[e])
        if (capArr[e] > 0 && level[to[e]] < 0) {
          level[to[e]] = level[u] + 1;
          q.push(to[e]);
        }
    }
    return level[t] >= 0;
  };
  const dfs = (u: number, f: number): number => {
    if (u === t) return f;
    for (; it[u] !== -1; it[u] = next[it[u]]) {
      const e = it[u];
      const v = to[e];
      if (capArr[e] > 0 && level[v] === level[u] + 1) {
        const d = dfs(v, Math.min(f, capArr[e]));
        if (d > 0) {
          capArr[e] -= d;
          capArr[e ^ 1] += d;
          return d;
        }
      }
    }
    return 0;
  };
  while (bfs()) {
    for (let u = 0; u < n; u++) it[u] = head[u];
    while (dfs(s, Number.POSITIVE_INFINITY) > 0) {}
  }
  return pairEdge.map((row) => row.map((e) => (e < 0 ? 0 : capArr[e ^ 1])));
}

/**
 * Proposes the sets: groups the rings by groove diameter, finds the pairs of groups that match with
 * some ball grade, takes the maximum number of bearings by flow over those pairs, and hands out the
 * rings of each group in reading order. Leftovers are the rings of each group not taken.
 */
export function matchRings<K>(input: MatchInput<K>): MatchResult<K> {
  const width = input.groupWidthUm ?? 2;
  if (!(width > 0) || width > 50) throw new RingMatchingError('groupWidthUm', '分组宽度应在 0.1～50 µm 之间');
  if (!input.ballGradesUm.length) throw new RingMatchingError('ballGradesUm', '请至少给出一个钢球规值');
  if (!(input.ballMm > 0)) throw new RingMatchingError('ballMm', '钢球直径必须大于 0');
  if (!(input.clearance.max > input.clearance.min))
    throw new RingMatchingError('clearance', '游隙上限必须大于下限');
  const byGroove = (a: MatchRing<K>, b: MatchRing<K>) => a.grooveMm - b.grooveMm;
  const inner = [...input.inner].sort(byGroove);
  const outer = [...input.outer].sort(byGroove);
  const innerGroups = sizeGroups(
    inner,
    (r) => r.grooveMm,
    (r) => r.id,
    width,
  );
  const outerGroups = sizeGroups(
    outer,
    (r) => r.grooveMm,
    (r) => r.id,
    width,
  );
  const takenInner = innerGroups.map(() => 0);
  const takenOuter = outerGroups.map(() => 0);
  const lines = new Map<string, MatchSet<K>>();
  const take = (
    i: number,
    o: number,
    g: { gradeUm: number; lowUm: number; highUm: number },
    count: number,
  ) => {
    const key = `${i}:${o}:${g.gradeUm}`;
    let line = lines.get(key);
    if (!line) {
      line = {
        innerGroup: innerGroups[i].index,
        innerLabel: innerGroups[i].label,
        outerGroup: outerGroups[o].index,
        outerLabel: outerGroups[o].label,
        ballGradeUm: g.gradeUm,
        clearanceLowUm: g.lowUm,
        clearanceHighUm: g.highUm,
        count: 0,
        pairs: [],
      };
      lines.set(key, line);
    }
    for (let k = 0; k < count; k++)
      line.pairs.push([innerGroups[i].ids[takenInner[i] + k], outerGroups[o].ids[takenOuter[o] + k]]);
    line.count += count;
    takenInner[i] += count;
    takenOuter[o] += count;
  };
  const stock = input.ballStockSets;
  const left = new Map<number, number>(
    input.ballGradesUm.map((g) => [
      g,
      stock ? Math.max(0, Math.floor(Number(stock[String(g)] ?? 0))) : Infinity,
    ]),
  );
  // Without stock one round: the flow, each pair with its best grade. With stock, each round
  // matches what is left over the grades that still have balls and hands the grades out to the
  // pairs with the fewest choices first; a round that places nothing ends it.
  for (let round = 0; round <= input.ballGradesUm.length; round++) {
    const usable = input.ballGradesUm.filter((g) => (left.get(g) ?? 0) > 0);
    if (!usable.length) break;
    const fits = innerGroups.map((gi) =>
      outerGroups.map((go) =>
        gradesForPair(gi.index, go.index, width, input.ballMm, usable, input.clearance),
      ),
    );
    const flow = maxGroupFlow(
      innerGroups.map((g, i) => g.count - takenInner[i]),
      outerGroups.map((g, o) => g.count - takenOuter[o]),
      fits.map((row) => row.map((x) => x.length > 0)),
    );
    const wanted: { i: number; o: number; count: number; grades: (typeof fits)[0][0] }[] = [];
    for (let i = 0; i < innerGroups.length; i++)
      for (let o = 0; o < outerGroups.length; o++)
        if (flow[i][o] > 0) wanted.push({ i, o, count: flow[i][o], grades: fits[i][o] });
    if (stock) wanted.sort((a, b) => a.grades.length - b.grades.length || a.i - b.i || a.o - b.o);
    let placed = 0;
    for (const w of wanted) {
      let rest = w.count;
      for (const g of w.grades) {
        const n = Math.min(rest, left.get(g.gradeUm) ?? 0);
        if (n <= 0) continue;
        take(w.i, w.o, g, n);
        left.set(g.gradeUm, (left.get(g.gradeUm) ?? 0) - n);
        rest -= n;
        placed += n;
        if (!rest) break;
      }
    }
    if (!stock || !placed) break;
  }
  const sets = [...lines.values()].sort(
    (a, b) => a.innerGroup - b.innerGroup || a.outerGroup - b.outerGroup || a.ballGradeUm - b.ballGradeUm,
  );
  const rest = (groups: SizeGroupCount<K>[], taken: number[]) =>
    groups
      .map((g, k) => ({ ...g, count: g.count - taken[k], ids: g.ids.slice(taken[k]) }))
      .filter((g) => g.count > 0);
  return {
    groupWidthUm: width,
    sets,
    assembled: sets.reduce((a, x) => a + x.count, 0),
    innerGroups,
    outerGroups,
    leftover: { inner: rest(innerGroups, takenInner), outer: rest(outerGroups, takenOuter) },
  };
}

/** Matching yield: bearings assembled per ring offered (the smaller side), as a percentage to 0.1. */
export function matchingYield(assembled: number, inner: number, outer: number): number | null {
  const offered = Math.min(inner, outer);
  return offered > 0 ? Math.round((assembled / offered) * 1000) / 10 : null;
}
