import { describe, expect, it } from 'vitest';
import {
  checkPlantSchedule,
  type PlantProblem,
  type PlantSchedule,
  type ScheduledOperation,
  schedulePlantSequence,
  solvePlant,
} from './plant.ts';
import { generatePlantInstance } from './plant-instance.ts';
import { createRng } from './random.ts';

const DAY = 1440;
const shifts = (days: number, minutes = 480): [number, number][] =>
  Array.from({ length: days }, (_, d) => [d * DAY, d * DAY + minutes] as [number, number]);

/** Every solver answer in this file goes through the checker. */
function checked(problem: PlantProblem, s: PlantSchedule): PlantSchedule {
  expect(checkPlantSchedule(problem, s.operations)).toEqual([]);
  return s;
}

const op = (s: PlantSchedule, lotId: string, stepIndex: number) =>
  s.operations.find((o) => o.lotId === lotId && o.stepIndex === stepIndex)!;

/** All distinct orders of a multiset (each lot as often as it has steps). */
function* multisetPermutations(counts: Map<string, number>, prefix: string[] = []): Generator<string[]> {
  let any = false;
  for (const [id, n] of counts) {
    if (n === 0) continue;
    any = true;
    counts.set(id, n - 1);
    prefix.push(id);
    yield* multisetPermutations(counts, prefix);
    prefix.pop();
    counts.set(id, n);
  }
  if (!any) yield [...prefix];
}

describe('plant scheduling model', () => {
  it('pauses an operation at the end of the shift and resumes it the next day', () => {
    const problem: PlantProblem = {
      machines: [{ id: 'L1', group: 'lathe', calendar: shifts(3) }],
      lots: [
        {
          id: 'A',
          quantity: 10,
          due: 3 * DAY,
          steps: [{ stepId: 'a1', group: 'lathe', minutesPerPiece: 60 }],
        },
      ],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 10 }));
    // 600 minutes: 480 on day 0, 120 on day 1.
    expect(op(s, 'A', 0)).toMatchObject({ machineId: 'L1', start: 0, end: DAY + 120 });
    expect(s.kpis).toMatchObject({ lateLots: 0, makespan: DAY + 120 });
  });

  it('waits for the outsourced lead time and the material, and pauses over maintenance', () => {
    const problem: PlantProblem = {
      machines: [
        { id: 'L1', group: 'lathe', calendar: shifts(10), speed: 2 },
        { id: 'G1', group: 'grind', calendar: shifts(10) },
      ],
      maintenance: [{ machineId: 'G1', start: 2 * DAY + 100, end: 2 * DAY + 200 }],
      lots: [
        {
          id: 'A',
          quantity: 100,
          due: 10 * DAY,
          release: 60,
          steps: [
            { stepId: 'turn', group: 'lathe', minutesPerPiece: 2, setupMinutes: 30, family: 'x' },
            { stepId: 'ht', outsourceLeadMinutes: 2 * DAY },
            { stepId: 'grind', group: 'grind', minutesPerPiece: 3, setupMinutes: 20, family: 'x' },
          ],
        },
      ],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 10 }));
    // Turning: 30 setup + 200/2 = 130 minutes from 60.
    expect(op(s, 'A', 0)).toMatchObject({ start: 60, end: 190, setup: 30 });
    expect(op(s, 'A', 1)).toMatchObject({ machineId: null, start: 190, end: 190 + 2 * DAY });
    // Grinding: 20 + 300 = 320 minutes from day 2 + 190, of which 10 fall before the stop at
    // +200... the stop (100–200) is before the start, so 190 + 320 = 510 > 480: 290 today, 30 tomorrow.
    expect(op(s, 'A', 2)).toMatchObject({ machineId: 'G1', start: 2 * DAY + 200, end: 3 * DAY + 40 });
  });

  it('keeps a started dispatch and queues behind it', () => {
    const problem: PlantProblem = {
      machines: [{ id: 'L1', group: 'lathe', calendar: shifts(5), initialFamily: 'x' }],
      lots: [
        { id: 'A', quantity: 1, due: DAY, steps: [{ stepId: 'a', group: 'lathe', minutesPerPiece: 100 }] },
        { id: 'B', quantity: 1, due: DAY, steps: [{ stepId: 'b', group: 'lathe', minutesPerPiece: 50 }] },
      ],
      frozen: [{ lotId: 'A', stepIndex: 0, machineId: 'L1', start: -30, end: 70 }],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 20 }));
    expect(op(s, 'A', 0)).toMatchObject({ start: -30, end: 70, frozen: true });
    expect(op(s, 'B', 0)).toMatchObject({ start: 70, end: 120 });
  });

  it("runs a step only on machines with its capability, at each machine's speed factor", () => {
    const problem: PlantProblem = {
      machines: [
        // The fast lathe cannot bore; the slow one can do everything of its group.
        { id: 'L1', group: 'turn', calendar: shifts(5), speed: 2, capabilities: ['face'] },
        { id: 'L2', group: 'turn', calendar: shifts(5), speed: 0.5 },
      ],
      lots: [
        {
          id: 'A',
          quantity: 10,
          due: 5 * DAY,
          steps: [
            { stepId: 'bore', group: 'turn', capability: 'bore', minutesPerPiece: 6 },
            { stepId: 'face', group: 'turn', capability: 'face', minutesPerPiece: 6 },
          ],
        },
      ],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 50 }));
    // 60 standard minutes: 120 on the slow lathe (the only one that bores), 30 on the fast one.
    expect(op(s, 'A', 0)).toMatchObject({ machineId: 'L2', start: 0, end: 120 });
    expect(op(s, 'A', 1)).toMatchObject({ machineId: 'L1', start: 120, end: 150 });
    // The checker knows the capability too.
    const wrong = s.operations.map((o) => (o.stepIndex === 0 ? { ...o, machineId: 'L1', end: 30 } : o));
    expect(checkPlantSchedule(problem, wrong).map((v) => v.kind)).toContain('machine');
  });

  it('keeps a pinned step where the planner put it and plans the rest around it', () => {
    const problem: PlantProblem = {
      machines: [
        { id: 'L1', group: 'turn', calendar: shifts(5) },
        { id: 'L2', group: 'turn', calendar: shifts(5) },
      ],
      lots: ['A', 'B', 'C'].map((id) => ({
        id,
        quantity: 1,
        due: 5 * DAY,
        steps: [{ stepId: `${id}1`, group: 'turn', minutesPerPiece: 300, setupMinutes: 20, family: id }],
      })),
      // B on L1 on the second day: the solver would have put it on day one.
      pins: [{ lotId: 'B', stepIndex: 0, machineId: 'L1', start: DAY }],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 200 }));
    expect(op(s, 'B', 0)).toMatchObject({ machineId: 'L1', start: DAY, end: DAY + 320, pinned: true });
    expect(s.pinsMoved).toBe(0);
    // Nothing runs across the pinned block on L1.
    for (const o of s.operations)
      if (o.lotId !== 'B' && o.machineId === 'L1') expect(o.end <= DAY || o.start >= DAY + 320).toBe(true);
    // A schedule that moves the pin is caught.
    const moved = s.operations.map((o) => (o.lotId === 'B' ? { ...o, machineId: 'L2' } : o));
    expect(checkPlantSchedule(problem, moved).map((v) => v.kind)).toContain('pin');
  });

  it('counts a pin whose lot is not ready by then as moved, and runs it on its machine after', () => {
    const problem: PlantProblem = {
      machines: [
        { id: 'T', group: 'turn', calendar: shifts(5) },
        { id: 'G', group: 'grind', calendar: shifts(5) },
      ],
      lots: [
        {
          id: 'A',
          quantity: 1,
          due: 5 * DAY,
          steps: [
            { stepId: 'turn', group: 'turn', minutesPerPiece: 200 },
            { stepId: 'grind', group: 'grind', minutesPerPiece: 100 },
          ],
        },
      ],
      pins: [{ lotId: 'A', stepIndex: 1, machineId: 'G', start: 60 }],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 20 }));
    expect(op(s, 'A', 1)).toMatchObject({ machineId: 'G', start: 200, end: 300, pinned: false });
    expect(s.pinsMoved).toBe(1);
  });

  it('groups a changeover family when changeovers cost (brute-force optimum of one machine)', () => {
    const problem: PlantProblem = {
      machines: [{ id: 'L1', group: 'lathe', calendar: shifts(5) }],
      lots: ['x', 'y', 'x', 'y'].map((family, i) => ({
        id: `L${i}`,
        quantity: 1,
        due: 4 * DAY,
        steps: [{ stepId: `s${i}`, group: 'lathe', minutesPerPiece: 30, setupMinutes: 45, family }],
      })),
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 300, seed: 3 }));
    expect(s.kpis.changeovers).toBe(2);
  });

  it('reaches the optimum over all operation orders of small instances', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const rng = createRng(seed);
      const problem: PlantProblem = {
        machines: [
          { id: 'T1', group: 'turn', calendar: shifts(20), speed: 1 },
          { id: 'T2', group: 'turn', calendar: shifts(20), speed: 1.25 },
          { id: 'G1', group: 'grind', calendar: shifts(20, 960) },
        ],
        maintenance: [{ machineId: 'T1', start: 100, end: 300 }],
        lots: Array.from({ length: 3 }, (_, i) => ({
          id: `L${i}`,
          quantity: 10 + rng.int(20),
          due: 200 + rng.int(900),
          weight: 1 + rng.int(3),
          steps: [
            {
              stepId: 't',
              group: 'turn',
              minutesPerPiece: 5 + rng.int(10),
              setupMinutes: 30,
              family: `f${rng.int(2)}`,
            },
            { stepId: 'h', outsourceLeadMinutes: rng.int(2) * 120 },
            {
              stepId: 'g',
              group: 'grind',
              minutesPerPiece: 5 + rng.int(10),
              setupMinutes: 40,
              family: `f${rng.int(2)}`,
            },
          ],
        })),
      };
      let best = Number.POSITIVE_INFINITY;
      for (const seq of multisetPermutations(new Map(problem.lots.map((l) => [l.id, l.steps.length])))) {
        const s = schedulePlantSequence(problem, seq);
        expect(checkPlantSchedule(problem, s.operations)).toEqual([]);
        best = Math.min(best, s.kpis.score);
      }
      const solved = checked(problem, solvePlant(problem, { maxIterations: 3000, seed }));
      expect(solved.kpis.score).toBeCloseTo(best, 6);
    }
  });

  it('explains a late lot by the machine and step that held it', () => {
    const problem: PlantProblem = {
      machines: [{ id: 'G1', group: 'grind', calendar: shifts(5) }],
      lots: [
        {
          id: 'BIG',
          quantity: 1,
          due: 400,
          weight: 5,
          steps: [{ stepId: 'g', group: 'grind', minutesPerPiece: 400 }],
        },
        { id: 'LATE', quantity: 1, due: 420, steps: [{ stepId: 'g2', group: 'grind', minutesPerPiece: 60 }] },
      ],
    };
    const s = checked(problem, solvePlant(problem, { maxIterations: 50 }));
    const late = s.lots.find((l) => l.late)!;
    expect(late.lotId).toBe('LATE');
    expect(late.heldBy).toMatchObject({ stepId: 'g2', machineId: 'G1', waited: 400, blockedBy: 'BIG' });
  });

  it('the checker finds what is wrong in a broken schedule', () => {
    const problem = generatePlantInstance({ lots: 40, seed: 5 });
    const good = checked(problem, solvePlant(problem, { maxIterations: 50 }));
    const ops = () => good.operations.map((o) => ({ ...o }));
    const kinds = (o: ScheduledOperation[]) => new Set(checkPlantSchedule(problem, o).map((v) => v.kind));
    const machineOps = (o: ScheduledOperation[]) => o.filter((x) => x.machineId && !x.frozen);

    let o = ops(); // two operations on one machine at once
    const [a, b] = machineOps(o).filter((x) => x.machineId === machineOps(o)[0]!.machineId);
    b!.start = a!.start;
    b!.end = a!.end;
    expect(kinds(o)).toContain('overlap');

    o = ops(); // ends before its work is done
    const c = machineOps(o).find((x) => x.end - x.start > 100)!;
    c.end = c.start + 10;
    expect(kinds(o)).toContain('calendar');

    o = ops(); // grinding before heat treatment came back
    const g = o.find((x) => x.stepIndex === 2 && !x.frozen)!;
    const ht = o.find((x) => x.lotId === g.lotId && x.stepIndex === 1)!;
    g.start = ht.end - 60;
    expect(kinds(o)).toContain('precedence');

    o = ops(); // a started dispatch moved
    const f = o.find((x) => x.frozen)!;
    f.start += 10;
    expect(kinds(o)).toContain('frozen');

    o = ops(); // a machine of the wrong group
    const t = o.find((x) => x.stepIndex === 3)!;
    t.machineId = 'assembly-01';
    expect(kinds(o)).toContain('machine');

    o = ops().slice(1);
    expect(kinds(o)).toContain('missing');
  });

  it('is deterministic for a seed and an iteration cap', () => {
    const problem = generatePlantInstance({ lots: 60, seed: 9 });
    const a = checked(problem, solvePlant(problem, { maxIterations: 300, seed: 4 }));
    const b = solvePlant(problem, { maxIterations: 300, seed: 4 });
    expect(b.operations).toEqual(a.operations);
    expect(a.kpis.score).toBeLessThanOrEqual(a.constructiveScore);
  });

  it('schedules the plant (500 lots, 4 workshops, 60 machines) within the time limit, violating nothing', () => {
    const problem = generatePlantInstance();
    expect(problem.lots).toHaveLength(500);
    expect(problem.machines).toHaveLength(60);
    const t0 = performance.now();
    const s = checked(problem, solvePlant(problem, { timeLimitMs: 2000 }));
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(s.operations).toHaveLength(2500);
    expect(s.kpis.score).toBeLessThanOrEqual(s.constructiveScore);
  });
});
