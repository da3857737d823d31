/**
 * Taillard's permutation flow shop instances (E. Taillard, "Benchmarks for basic scheduling
 * problems", European Journal of Operational Research 64 (1993) 278–285), rebuilt from his
 * generator and time seeds as the paper defines them: a Lehmer generator (a = 16807,
 * m = 2³¹ − 1, Schrage's factorisation b = 127773, c = 2836), one draw U[1, 99] per operation,
 * machine by machine and, within a machine, job by job. The seeds and the generator are those of
 * the paper as ported to C by D. C. Mattfeld and R. J. M. Vaessens (1996), the copy everyone
 * uses; ta001's first row (54 83 15 71 …) is checked against a published copy of tai20_5.txt.
 *
 * Best-known upper bounds (makespans) of ta001–ta050: Taillard's table "best_lb_up.txt"
 * (mistic.heig-vd.ch/taillard/problemes.dir/ordonnancement.dir/flowshop.dir/), the figures that
 * Ruiz & Stützle (2007) and later papers measure their relative deviations against; for these
 * 50 instances they have not changed since the early 2000s.
 */

export interface TaillardInstance {
  /** `ta001` … */
  name: string;
  jobs: number;
  machines: number;
  seed: number;
  /** Best-known makespan. */
  upperBound: number;
  /** Processing times, `p[machine][job]`. */
  p: number[][];
}

/** The time seeds of ta001–ta050, in order (20×5, 20×10, 20×20, 50×5, 50×10). */
export const TAILLARD_SEEDS: readonly number[] = [
  873654221, 379008056, 1866992158, 216771124, 495070989, 402959317, 1369363414, 2021925980, 573109518,
  88325120, 587595453, 1401007982, 873136276, 268827376, 1634173168, 691823909, 73807235, 1273398721,
  2065119309, 1672900551, 479340445, 268827376, 1958948863, 918272953, 555010963, 2010851491, 1519833303,
  1748670931, 1923497586, 1829909967, 1328042058, 200382020, 496319842, 1203030903, 1730708564, 450926852,
  1303135678, 1273398721, 587288402, 248421594, 1958948863, 575633267, 655816003, 1977864101, 93805469,
  1803345551, 49612559, 1899802599, 2013025619, 578962478,
];

/** Best-known upper bounds of ta001–ta050, in the same order. */
export const TAILLARD_UPPER_BOUNDS: readonly number[] = [
  1278, 1359, 1081, 1293, 1235, 1195, 1234, 1206, 1230, 1108, 1582, 1659, 1496, 1377, 1419, 1397, 1484, 1538,
  1593, 1591, 2297, 2099, 2326, 2223, 2291, 2226, 2273, 2200, 2237, 2178, 2724, 2834, 2621, 2751, 2863, 2829,
  2725, 2683, 2552, 2782, 2991, 2867, 2839, 3063, 2976, 3006, 3093, 3037, 2897, 3065,
];

const SIZES: readonly [number, number][] = [
  [20, 5],
  [20, 10],
  [20, 20],
  [50, 5],
  [50, 10],
];

/** Taillard's `unif`: advances the seed and answers an integer in [low, high]. */
export function taillardUnif(state: { seed: number }, low: number, high: number): number {
  const m = 2147483647;
  const a = 16807;
  const b = 127773;
  const c = 2836;
  const k = Math.floor(state.seed / b);
  let s = a * (state.seed % b) - k * c;
  if (s < 0) s += m;
  state.seed = s;
  return low + Math.floor((s / m) * (high - low + 1));
}

/** Builds `p[machine][job]` from a time seed. */
export function generateTaillard(jobs: number, machines: number, seed: number): number[][] {
  const state = { seed };
  const p: number[][] = [];
  for (let i = 0; i < machines; i++) {
    const row: number[] = [];
    for (let j = 0; j < jobs; j++) row.push(taillardUnif(state, 1, 99));
    p.push(row);
  }
  return p;
}

/** Instance `index` (1-based: 1 = ta001) of ta001–ta050. */
export function taillardInstance(index: number): TaillardInstance {
  if (!Number.isInteger(index) || index < 1 || index > TAILLARD_SEEDS.length)
    throw new RangeError(`ta${index}: only ta001–ta050 are defined here`);
  const [jobs, machines] = SIZES[Math.floor((index - 1) / 10)]!;
  const seed = TAILLARD_SEEDS[index - 1]!;
  return {
    name: `ta${String(index).padStart(3, '0')}`,
    jobs,
    machines,
    seed,
    upperBound: TAILLARD_UPPER_BOUNDS[index - 1]!,
    p: generateTaillard(jobs, machines, seed),
  };
}

/** An instance in Taillard's own text layout (the one of his files tai20_5.txt …). */
export function formatTaillard(t: TaillardInstance): string {
  const pad = (v: number, w: number) => String(v).padStart(w);
  return [
    'number of jobs, number of machines, initial seed, upper bound :',
    `${pad(t.jobs, 12)}${pad(t.machines, 12)}${pad(t.seed, 12)}${pad(t.upperBound, 12)}`,
    'processing times :',
    ...t.p.map((row) => row.map((v) => pad(v, 3)).join('')),
  ].join('\n');
}

/** Reads instances written by `formatTaillard` (one after another in one file). */
export function parseTaillard(text: string, firstIndex = 1): TaillardInstance[] {
  const lines = text.split('\n').map((l) => l.trim());
  const out: TaillardInstance[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('number of jobs')) continue;
    const [jobs, machines, seed, upperBound] = lines[i + 1]!.split(/\s+/).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    const p: number[][] = [];
    for (let k = 0; k < machines; k++) p.push(lines[i + 3 + k]!.split(/\s+/).map(Number));
    out.push({
      name: `ta${String(firstIndex + out.length).padStart(3, '0')}`,
      jobs,
      machines,
      seed,
      upperBound,
      p,
    });
  }
  return out;
}
