import { describe, expect, it } from 'vitest';
import { flowShopMakespan, iteratedGreedy, neh } from './flow-shop.ts';
import { createRng } from './random.ts';
import { taillardInstance } from './taillard.ts';

function randomProblem(seed: number, n: number, m: number) {
  const rng = createRng(seed);
  return { p: Array.from({ length: m }, () => Array.from({ length: n }, () => 1 + rng.int(99))) };
}

function bruteForce(p: { p: number[][] }): number {
  const n = p.p[0]!.length;
  let best = Number.POSITIVE_INFINITY;
  const perm: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const rec = () => {
    if (perm.length === n) {
      best = Math.min(best, flowShopMakespan(p, perm));
      return;
    }
    for (let j = 0; j < n; j++) {
      if (used[j]) continue;
      used[j] = true;
      perm.push(j);
      rec();
      perm.pop();
      used[j] = false;
    }
  };
  rec();
  return best;
}

const isPermutation = (seq: number[], n: number) =>
  seq.length === n && [...seq].sort((a, b) => a - b).every((v, i) => v === i);

describe('permutation flow shop', () => {
  it('computes the makespan of a worked example', () => {
    // Two machines, jobs (3,2) (1,4) (5,1): Johnson's order 1,0,2 ends at 10 (Σ first machine + 1);
    // the order 2,0,1 at 14.
    const p = {
      p: [
        [3, 1, 5],
        [2, 4, 1],
      ],
    };
    expect(flowShopMakespan(p, [1, 0, 2])).toBe(10);
    expect(flowShopMakespan(p, [2, 0, 1])).toBe(14);
    expect(bruteForce(p)).toBe(10);
    expect(iteratedGreedy(p, { maxIterations: 50, timeLimitMs: 10_000 }).makespan).toBe(10);
  });

  it("NEH's accelerated makespan equals the sequence's and stays within 10 % of the optimum", () => {
    for (let s = 1; s <= 20; s++) {
      const n = 4 + (s % 4);
      const p = randomProblem(s, n, 2 + (s % 5));
      const r = neh(p);
      expect(isPermutation(r.sequence, n)).toBe(true);
      expect(r.makespan).toBe(flowShopMakespan(p, r.sequence));
      expect(r.makespan).toBeLessThanOrEqual(bruteForce(p) * 1.1);
    }
  });

  it('iterated greedy finds the brute-force optimum of small instances (n ≤ 7)', () => {
    for (let s = 1; s <= 25; s++) {
      const n = 5 + (s % 3);
      const p = randomProblem(100 + s, n, 3 + (s % 4));
      const r = iteratedGreedy(p, { seed: s, maxIterations: 300, timeLimitMs: 60_000 });
      expect(isPermutation(r.sequence, n)).toBe(true);
      expect(r.makespan).toBe(flowShopMakespan(p, r.sequence));
      expect(r.makespan).toBe(bruteForce(p));
    }
  });

  it('is deterministic for a seed and an iteration cap', () => {
    const t = taillardInstance(11);
    const a = iteratedGreedy(t, { seed: 7, maxIterations: 200, timeLimitMs: 60_000 });
    const b = iteratedGreedy(t, { seed: 7, maxIterations: 200, timeLimitMs: 60_000 });
    expect(a).toEqual(b);
    expect(a.makespan).toBe(flowShopMakespan(t, a.sequence));
    expect(a.makespan).toBeGreaterThanOrEqual(t.upperBound);
    expect(a.makespan).toBeLessThan(a.nehMakespan);
  });

  it('keeps to its time limit', () => {
    let now = 0;
    const clock = () => now++;
    const r = iteratedGreedy(taillardInstance(21), { timeLimitMs: 50, clock });
    expect(r.iterations).toBeLessThan(50);
  });
});
