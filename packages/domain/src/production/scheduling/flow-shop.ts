import { type Clock, createRng, systemClock } from './random.ts';

/**
 * Permutation flow shop (F|prmu|Cmax): every job visits machines 0…m−1 in order, every machine
 * takes the jobs in one and the same order. The core of a ring route (turning → heat treatment →
 * grinding → …) and the problem on which the field compares schedulers (Taillard's instances).
 *
 * - NEH (Nawaz, Enscore & Ham 1983): jobs by decreasing total time, each inserted where the
 *   partial makespan is least, with Taillard's (1990) acceleration: every insertion position of
 *   one job is evaluated in O(n·m) from the heads e, tails q and the inserted job's completions f.
 * - Iterated greedy (Ruiz & Stützle 2007, "A simple and effective iterated greedy algorithm for
 *   the permutation flowshop scheduling problem", EJOR 177): destruction of d random jobs,
 *   reconstruction by NEH insertion, local search by iterative best insertion, acceptance with a
 *   constant temperature T·Σp/(10·n·m) (d = 4, T = 0.4 as tuned there), until a time limit or an
 *   iteration cap.
 */

export interface FlowShopProblem {
  /** Processing times, `p[machine][job]`. */
  p: readonly (readonly number[])[];
}

export interface FlowShopOptions {
  /** Wall time for the search, in milliseconds (default 1000). */
  timeLimitMs?: number;
  /** Stop after this many iterated-greedy iterations (with a time limit: whichever comes first). */
  maxIterations?: number;
  seed?: number;
  /** Jobs removed per destruction (default 4). */
  destruction?: number;
  /** Temperature factor (default 0.4). */
  temperature?: number;
  clock?: Clock;
}

export interface FlowShopResult {
  sequence: number[];
  makespan: number;
  /** NEH's makespan, the starting point. */
  nehMakespan: number;
  iterations: number;
}

/** Processing times flattened job-major: `pt[job * m + machine]`. */
interface Flat {
  n: number;
  m: number;
  pt: Int32Array;
}

function flatten(problem: FlowShopProblem): Flat {
  const m = problem.p.length;
  const n = m ? problem.p[0]!.length : 0;
  const pt = new Int32Array(n * m);
  for (let k = 0; k < m; k++) for (let j = 0; j < n; j++) pt[j * m + k] = problem.p[k]![j]!;
  return { n, m, pt };
}

/** Makespan of a (partial) sequence. */
export function flowShopMakespan(problem: FlowShopProblem, sequence: readonly number[]): number {
  const m = problem.p.length;
  const c = new Array<number>(m).fill(0);
  for (const j of sequence) {
    c[0] += problem.p[0]![j]!;
    for (let k = 1; k < m; k++) c[k] = Math.max(c[k]!, c[k - 1]!) + problem.p[k]![j]!;
  }
  return m ? c[m - 1]! : 0;
}

/** Reusable buffers for Taillard's acceleration on sequences of up to n jobs. */
class Inserter {
  private readonly e: Int32Array;
  private readonly q: Int32Array;
  private readonly f: Int32Array;
  constructor(private readonly fs: Flat) {
    const size = (fs.n + 2) * fs.m;
    this.e = new Int32Array(size);
    this.q = new Int32Array(size);
    this.f = new Int32Array(size);
  }

  /**
   * Best position (0…len) to insert `job` into `seq[0..len)` and the makespan there; the first
   * of equal positions wins.
   */
  best(seq: Int32Array, len: number, job: number): { pos: number; makespan: number } {
    const { m, pt } = this.fs;
    const { e, q, f } = this;
    // Heads: e[i][k] completion of the i-th job of seq on machine k (row i+1; row 0 is zeros).
    for (let k = 0; k < m; k++) e[k] = 0;
    for (let i = 0; i < len; i++) {
      const base = (i + 1) * m;
      const prev = i * m;
      const j = seq[i]! * m;
      let left = 0;
      for (let k = 0; k < m; k++) {
        const up = e[prev + k]!;
        left = (left > up ? left : up) + pt[j + k]!;
        e[base + k] = left;
      }
    }
    // Tails: q[i][k] time from the start of the i-th job on machine k to the end (row len is zeros).
    for (let k = 0; k < m; k++) q[len * m + k] = 0;
    for (let i = len - 1; i >= 0; i--) {
      const base = i * m;
      const next = (i + 1) * m;
      const j = seq[i]! * m;
      let right = 0;
      for (let k = m - 1; k >= 0; k--) {
        const down = q[next + k]!;
        right = (right > down ? right : down) + pt[j + k]!;
        q[base + k] = right;
      }
    }
    const jb = job * m;
    let bestPos = 0;
    let bestMk = 0x7fffffff;
    for (let i = 0; i <= len; i++) {
      // f: completion of `job` inserted before the i-th job, after e's row i.
      const head = i * m;
      let left = 0;
      let mk = 0;
      for (let k = 0; k < m; k++) {
        const up = e[head + k]!;
        left = (left > up ? left : up) + pt[jb + k]!;
        f[k] = left;
        const v = left + q[head + k]!;
        if (v > mk) mk = v;
      }
      if (mk < bestMk) {
        bestMk = mk;
        bestPos = i;
      }
    }
    return { pos: bestPos, makespan: bestMk };
  }
}

function insertAt(seq: Int32Array, len: number, pos: number, job: number): void {
  seq.copyWithin(pos + 1, pos, len);
  seq[pos] = job;
}

function removeAt(seq: Int32Array, len: number, pos: number): number {
  const job = seq[pos]!;
  seq.copyWithin(pos, pos + 1, len);
  return job;
}

function nehInto(fs: Flat, ins: Inserter, seq: Int32Array): number {
  const { n, m, pt } = fs;
  const total = (j: number) => {
    let s = 0;
    for (let k = 0; k < m; k++) s += pt[j * m + k]!;
    return s;
  };
  // Decreasing total time; equal totals keep the lower job index first (deterministic).
  const order = Array.from({ length: n }, (_, j) => j).sort((a, b) => total(b) - total(a) || a - b);
  let mk = 0;
  for (let len = 0; len < n; len++) {
    const r = ins.best(seq, len, order[len]!);
    insertAt(seq, len, r.pos, order[len]!);
    mk = r.makespan;
  }
  return mk;
}

/** NEH with Taillard's acceleration. */
export function neh(problem: FlowShopProblem): { sequence: number[]; makespan: number } {
  const fs = flatten(problem);
  const seq = new Int32Array(fs.n + 1);
  const makespan = fs.n ? nehInto(fs, new Inserter(fs), seq) : 0;
  return { sequence: Array.from(seq.subarray(0, fs.n)), makespan };
}

/** NEH, then iterated greedy until the time limit or the iteration cap. */
export function iteratedGreedy(problem: FlowShopProblem, options: FlowShopOptions = {}): FlowShopResult {
  const fs = flatten(problem);
  const { n, m, pt } = fs;
  if (n === 0) return { sequence: [], makespan: 0, nehMakespan: 0, iterations: 0 };
  const clock = options.clock ?? systemClock;
  const t0 = clock();
  const deadline = t0 + (options.timeLimitMs ?? 1000);
  const maxIter = options.maxIterations ?? Number.POSITIVE_INFINITY;
  const rng = createRng(options.seed ?? 1);
  const d = Math.min(options.destruction ?? 4, n - 1);
  let sumP = 0;
  for (let i = 0; i < pt.length; i++) sumP += pt[i]!;
  const temp = ((options.temperature ?? 0.4) * sumP) / (n * m * 10);

  const ins = new Inserter(fs);
  const cur = new Int32Array(n + 1);
  const nehMakespan = nehInto(fs, ins, cur);
  let curMk = localSearch(fs, ins, cur, nehMakespan, rng);
  const best = cur.slice();
  let bestMk = curMk;
  const trial = new Int32Array(n + 1);
  const removed = new Int32Array(d);
  const order = new Int32Array(n);
  let iterations = 0;

  while (iterations < maxIter && clock() < deadline && bestMk > 0) {
    iterations++;
    trial.set(cur);
    let len = n;
    for (let r = 0; r < d; r++) removed[r] = removeAt(trial, len--, rng.int(len + 1));
    let mk = 0;
    for (let r = 0; r < d; r++) {
      const res = ins.best(trial, len, removed[r]!);
      insertAt(trial, len++, res.pos, removed[r]!);
      mk = res.makespan;
    }
    mk = localSearch(fs, ins, trial, mk, rng, order);
    if (mk < curMk) {
      cur.set(trial);
      curMk = mk;
      if (mk < bestMk) {
        best.set(trial);
        bestMk = mk;
      }
    } else if (rng.next() <= Math.exp(-(mk - curMk) / temp)) {
      cur.set(trial);
      curMk = mk;
    }
  }
  return { sequence: Array.from(best.subarray(0, n)), makespan: bestMk, nehMakespan, iterations };
}

/**
 * Iterative improvement by insertion: each job in a random order is taken out and put back at
 * its best place, as long as a pass improves the makespan.
 */
function localSearch(
  fs: Flat,
  ins: Inserter,
  seq: Int32Array,
  makespan: number,
  rng: ReturnType<typeof createRng>,
  orderBuf?: Int32Array,
): number {
  const n = fs.n;
  const order = orderBuf ?? new Int32Array(n);
  let mk = makespan;
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const r = rng.int(i + 1);
      const t = order[i]!;
      order[i] = order[r]!;
      order[r] = t;
    }
    for (let s = 0; s < n; s++) {
      const job = order[s]!;
      const pos = seq.indexOf(job);
      if (pos < 0 || pos >= n) continue;
      removeAt(seq, n, pos);
      const res = ins.best(seq, n - 1, job);
      if (res.makespan < mk) {
        insertAt(seq, n - 1, res.pos, job);
        mk = res.makespan;
        improved = true;
      } else {
        insertAt(seq, n - 1, pos, job);
      }
    }
  }
  return mk;
}
