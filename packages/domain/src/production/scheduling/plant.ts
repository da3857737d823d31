import { type Clock, createRng, type Rng, systemClock } from './random.ts';

// The working time of the factory model (班次日历 met with 生产日历), for the server's model.
export * from './calendar.ts';

/**
 * 自动排产 of the plant: lots (流转卡) with their remaining route steps on parallel machines of
 * the four workshops, outsourced steps (heat treatment) with a lead time, shift calendars and
 * planned maintenance, sequence-dependent changeovers between ring types, due dates and the
 * dispatches already started (frozen). Pure: the server gathers the figures, this computes.
 *
 * Time is in whole minutes from the start of the horizon (0 = now). A machine works only inside
 * its calendar windows (shifts) and outside its maintenance; an operation that does not fit in
 * what is left of a shift pauses and resumes in the machine's next working time (as a lot does
 * when the shift goes home). A step's duration on a machine is its setup (when the machine's
 * previous operation was of another changeover family, or the machine's family is unknown) plus
 * ⌈quantity × standard minutes per piece ÷ speed factor⌉.
 *
 * Solver:
 * 1. Constructive: list scheduling stage by stage (Giffler–Thompson's conflict set): among the
 *    operations that could start first on the machine that frees first, the one of highest
 *    ATCS index (Lee, Bhaskaran & Pinedo 1997, apparent tardiness cost with setups)
 *    w/p · exp(−max(d − p − t, 0)/(k₁ p̄)) · exp(−s/(k₂ s̄)) goes, with the lot's remaining work as
 *    its slack's p.
 * 2. Local search on the operation sequence (the order in which operations are given their
 *    machine; each lot's k-th appearance is its k-th remaining step, so every sequence is a
 *    valid route order): moves that pull a late lot's operation forward, group an operation
 *    behind one of the same family on its stage, or insert one elsewhere; a sequence is decoded
 *    by giving each operation the eligible machine on which it completes first. Late acceptance
 *    hill climbing (Burke & Bykov 2017) decides: a move is kept when the weighted objective is
 *    not worse than now or than L moves ago; the best is answered at the time limit or the
 *    iteration cap (deterministic for a seed and a cap).
 *
 * `checkPlantSchedule` verifies any answer independently from the problem's raw data.
 */

export interface PlantMachine {
  id: string;
  /** Machine group (the workshop): a step may run on the machines of its group… */
  group: string;
  /**
   * …that have its capability (the 工序 this machine can do); absent: every step of its group.
   */
  capabilities?: readonly string[];
  workshop?: string;
  /** Output rate against the standard (1 = standard; 1.25 = a quarter faster). */
  speed?: number;
  /** Shift windows `[start, end)` in minutes, sorted, not overlapping. */
  calendar: readonly (readonly [number, number])[];
  /** Changeover family of what the machine last ran (unknown: the first operation needs a setup). */
  initialFamily?: string;
}

export interface PlantMaintenance {
  machineId: string;
  start: number;
  end: number;
}

export interface PlantStep {
  /** The route step (任务 / 工序) this operation belongs to, for the answer. */
  stepId: string;
  name?: string;
  /** Machine group that can do it; absent for an outsourced step. */
  group?: string;
  /** The capability a machine of the group needs for it (see `PlantMachine.capabilities`). */
  capability?: string;
  minutesPerPiece?: number;
  setupMinutes?: number;
  /** Changeover family (ring type): consecutive operations of one family need no setup. */
  family?: string;
  /** Outsourced (heat treatment): no machine, takes this many minutes from its start. */
  outsourceLeadMinutes?: number;
}

export interface PlantLot {
  id: string;
  /** The production / sales order the lot belongs to (late orders are counted per lot). */
  orderId?: string;
  quantity: number;
  /** Due date in minutes from the horizon start. */
  due: number;
  /** Weight of a minute of tardiness (priority); default 1. */
  weight?: number;
  /** Material ready at (default 0). */
  release?: number;
  /** Remaining route steps in order. */
  steps: readonly PlantStep[];
}

/** A started dispatch: stays where it is. */
export interface PlantFrozen {
  lotId: string;
  stepIndex: number;
  machineId: string;
  start: number;
  end: number;
}

/**
 * A step the planner put on a machine (dragged there, or locked): it runs on that machine from
 * `start` on (the first working minute at or after it, after any pin placed before it there); the
 * solver plans everything else around it. When the lot's previous step cannot end by then, the
 * step runs on the same machine as early as it can after it, and the answer counts it in
 * `pinsMoved`.
 */
export interface PlantPin {
  lotId: string;
  stepIndex: number;
  machineId: string;
  start: number;
}

export interface PlantProblem {
  machines: readonly PlantMachine[];
  maintenance?: readonly PlantMaintenance[];
  lots: readonly PlantLot[];
  frozen?: readonly PlantFrozen[];
  pins?: readonly PlantPin[];
}

export interface PlantWeights {
  /** Per minute of weighted tardiness. */
  tardiness: number;
  /** Per late lot. */
  late: number;
  /** Per changeover. */
  changeovers: number;
  /** Per minute of makespan. */
  makespan: number;
}

export const DEFAULT_PLANT_WEIGHTS: PlantWeights = {
  tardiness: 1,
  late: 480,
  changeovers: 60,
  makespan: 0.1,
};

export interface PlantOptions {
  timeLimitMs?: number;
  maxIterations?: number;
  seed?: number;
  weights?: Partial<PlantWeights>;
  clock?: Clock;
  /** ATCS look-ahead parameters (defaults 2 and 0.5). */
  k1?: number;
  k2?: number;
}

export interface ScheduledOperation {
  lotId: string;
  stepIndex: number;
  stepId: string;
  /** Null for an outsourced step. */
  machineId: string | null;
  start: number;
  end: number;
  /** Minutes of setup included at the start. */
  setup: number;
  frozen: boolean;
  /** Where the planner pinned it. */
  pinned: boolean;
}

export interface PlantLotOutcome {
  lotId: string;
  orderId?: string;
  completion: number;
  due: number;
  tardiness: number;
  late: boolean;
  /** For a late lot: the step and machine where it waited longest, and how long. */
  heldBy?: {
    stepIndex: number;
    stepId: string;
    machineId: string | null;
    waited: number;
    /** Minutes from the step's start to its end there (work, setup and the hours off shift between). */
    took: number;
    blockedBy?: string;
  };
}

export interface PlantKpis {
  lateLots: number;
  lateOrders: number;
  weightedTardiness: number;
  changeovers: number;
  makespan: number;
  score: number;
}

export interface PlantSchedule {
  operations: ScheduledOperation[];
  lots: PlantLotOutcome[];
  kpis: PlantKpis;
  /** Busy minutes and working minutes of each machine up to the makespan. */
  machineLoads: { machineId: string; busy: number; available: number }[];
  constructiveScore: number;
  /** The ATCS construction's figures before the local search. */
  constructive: Pick<PlantKpis, 'lateLots' | 'weightedTardiness' | 'changeovers' | 'makespan' | 'score'>;
  iterations: number;
  /** Pinned steps that could not start where the planner put them (their lot was not ready). */
  pinsMoved: number;
}

/** Whether a machine can do a step: its group, and its capability when both declare one. */
export const canRun = (m: PlantMachine, step: PlantStep) =>
  m.group === step.group &&
  (step.capability === undefined || m.capabilities === undefined || m.capabilities.includes(step.capability));

// ————— compiled problem —————

interface Compiled {
  problem: PlantProblem;
  weights: PlantWeights;
  nLots: number;
  nMachines: number;
  /** Per lot: first op index, op count. */
  lotFirst: Int32Array;
  lotCount: Int32Array;
  lotDue: Float64Array;
  lotWeight: Float64Array;
  lotRelease: Float64Array;
  /** Per op. */
  opLot: Int32Array;
  opGroup: Int32Array; // −1: outsourced
  opRun: Float64Array; // quantity × minutes per piece (before speed)
  opSetup: Float64Array;
  opFamily: Int32Array;
  opLead: Float64Array;
  opFrozen: Int32Array; // machine index when frozen, else −1
  opFrozenStart: Float64Array;
  opFrozenEnd: Float64Array;
  groupMachines: number[][];
  /** Per op: pinned machine, else −1; the pinned block's start and end (setup included). */
  opPin: Int32Array;
  opPinStart: Float64Array;
  opPinEnd: Float64Array;
  /** Per machine: its pinned blocks [start, end, family, …] in time order. */
  pinBlocks: Float64Array[];
  machineSpeed: Float64Array;
  /** Working windows (shifts minus maintenance), flattened [s0, e0, s1, e1, …]. */
  windows: Float64Array[];
  machineReady: Float64Array; // after frozen work
  machineFamily: Int32Array; // −1 unknown
  familyNames: string[];
}

function subtract(windows: readonly (readonly [number, number])[], blocks: { start: number; end: number }[]) {
  let out = windows.map(([s, e]) => [s, e] as [number, number]);
  for (const b of blocks) {
    const next: [number, number][] = [];
    for (const [s, e] of out) {
      if (b.end <= s || b.start >= e) next.push([s, e]);
      else {
        if (b.start > s) next.push([s, b.start]);
        if (b.end < e) next.push([b.end, e]);
      }
    }
    out = next;
  }
  return out;
}

function compile(problem: PlantProblem, weights: PlantWeights): Compiled {
  const machineIndex = new Map(problem.machines.map((m, i) => [m.id, i]));
  // One eligibility list per (group, capability) a step asks for.
  const groups = new Map<string, number>();
  const groupMachines: number[][] = [];
  const eligible = (step: PlantStep) => {
    const key = `${step.group}\u0000${step.capability ?? ''}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = groupMachines.length;
      groups.set(key, g);
      groupMachines.push(problem.machines.flatMap((m, i) => (canRun(m, step) ? [i] : [])));
    }
    return groupMachines[g]!.length ? g : undefined;
  };
  const families = new Map<string, number>();
  const familyNames: string[] = [];
  const family = (f: string | undefined) => {
    if (f === undefined) return -2; // no family: every operation is its own
    let v = families.get(f);
    if (v === undefined) {
      v = familyNames.length;
      families.set(f, v);
      familyNames.push(f);
    }
    return v;
  };
  const nLots = problem.lots.length;
  let nOps = 0;
  for (const l of problem.lots) nOps += l.steps.length;
  const c: Compiled = {
    problem,
    weights,
    nLots,
    nMachines: problem.machines.length,
    lotFirst: new Int32Array(nLots),
    lotCount: new Int32Array(nLots),
    lotDue: new Float64Array(nLots),
    lotWeight: new Float64Array(nLots),
    lotRelease: new Float64Array(nLots),
    opLot: new Int32Array(nOps),
    opGroup: new Int32Array(nOps),
    opRun: new Float64Array(nOps),
    opSetup: new Float64Array(nOps),
    opFamily: new Int32Array(nOps),
    opLead: new Float64Array(nOps),
    opFrozen: new Int32Array(nOps).fill(-1),
    opFrozenStart: new Float64Array(nOps),
    opFrozenEnd: new Float64Array(nOps),
    groupMachines,
    opPin: new Int32Array(nOps).fill(-1),
    opPinStart: new Float64Array(nOps),
    opPinEnd: new Float64Array(nOps),
    pinBlocks: [],
    machineSpeed: new Float64Array(problem.machines.map((m) => m.speed ?? 1)),
    windows: [],
    machineReady: new Float64Array(problem.machines.length),
    machineFamily: new Int32Array(problem.machines.length).fill(-1),
    familyNames,
  };
  const lotIndex = new Map<string, number>();
  let o = 0;
  problem.lots.forEach((l, li) => {
    lotIndex.set(l.id, li);
    c.lotFirst[li] = o;
    c.lotCount[li] = l.steps.length;
    c.lotDue[li] = l.due;
    c.lotWeight[li] = l.weight ?? 1;
    c.lotRelease[li] = l.release ?? 0;
    for (const s of l.steps) {
      c.opLot[o] = li;
      if (s.outsourceLeadMinutes !== undefined || s.group === undefined) {
        c.opGroup[o] = -1;
        c.opLead[o] = s.outsourceLeadMinutes ?? 0;
      } else {
        const g = eligible(s);
        if (g === undefined)
          throw new Error(
            `工序 ${s.stepId} 的设备组 ${s.group}${s.capability ? `（${s.capability}）` : ''} 没有设备`,
          );
        c.opGroup[o] = g;
      }
      c.opRun[o] = l.quantity * (s.minutesPerPiece ?? 0);
      c.opSetup[o] = s.setupMinutes ?? 0;
      c.opFamily[o] = family(s.family);
      o++;
    }
  });
  problem.machines.forEach((m, i) => {
    c.machineFamily[i] = m.initialFamily === undefined ? -1 : family(m.initialFamily);
  });
  for (const f of problem.frozen ?? []) {
    const li = lotIndex.get(f.lotId);
    const mi = machineIndex.get(f.machineId);
    if (li === undefined || mi === undefined || f.stepIndex >= c.lotCount[li]!) continue;
    const op = c.lotFirst[li]! + f.stepIndex;
    c.opFrozen[op] = mi;
    c.opFrozenStart[op] = f.start;
    c.opFrozenEnd[op] = f.end;
    if (f.end >= c.machineReady[mi]!) {
      c.machineReady[mi] = f.end;
      c.machineFamily[mi] = c.opFamily[op]!;
    }
  }
  const maint = new Map<string, PlantMaintenance[]>();
  for (const mt of problem.maintenance ?? []) {
    const list = maint.get(mt.machineId) ?? [];
    list.push(mt);
    maint.set(mt.machineId, list);
  }
  const free = problem.machines.map((m) => subtract(m.calendar, maint.get(m.id) ?? []));
  // Pins: each takes its block on its machine (in start order, one after another), and the
  // machine's working time for everything else is what the blocks leave.
  const pinsOf = new Map<number, { op: number; start: number }[]>();
  for (const p of problem.pins ?? []) {
    const li = lotIndex.get(p.lotId);
    const mi = machineIndex.get(p.machineId);
    if (li === undefined || mi === undefined || p.stepIndex >= c.lotCount[li]!) continue;
    const op = c.lotFirst[li]! + p.stepIndex;
    if (c.opGroup[op]! < 0 || c.opFrozen[op]! >= 0) continue;
    if (!canRun(problem.machines[mi]!, problem.lots[li]!.steps[p.stepIndex]!))
      throw new Error(
        `锁定的工序 ${problem.lots[li]!.steps[p.stepIndex]!.stepId} 不能在设备 ${p.machineId} 上做`,
      );
    pinsOf.set(mi, [...(pinsOf.get(mi) ?? []), { op, start: p.start }]);
  }
  c.pinBlocks = problem.machines.map(() => new Float64Array(0));
  for (const [mi, list] of pinsOf) {
    list.sort((a, b) => a.start - b.start || a.op - b.op);
    const win = Float64Array.from(free[mi]!.flat());
    const blocks: number[] = [];
    let cursor = c.machineReady[mi]!;
    for (const { op, start } of list) {
      const r = place(win, Math.max(start, cursor), c.opSetup[op]! + runMinutes(c, op, mi));
      if (!Number.isFinite(r.end)) continue;
      c.opPin[op] = mi;
      c.opPinStart[op] = r.start;
      c.opPinEnd[op] = r.end;
      cursor = r.end;
      blocks.push(r.start, r.end, c.opFamily[op]!);
    }
    c.pinBlocks[mi] = Float64Array.from(blocks);
    const taken: { start: number; end: number }[] = [];
    for (let b = 0; b < blocks.length; b += 3) taken.push({ start: blocks[b]!, end: blocks[b + 1]! });
    free[mi] = subtract(free[mi]!, taken);
  }
  c.windows = free.map((w) => Float64Array.from(w.flat()));
  return c;
}

/**
 * An operation on a machine from `t` on, after the machine's last operation (ended at `after`, of
 * family `prevFamily`): its setup, start and end. A pinned block between sets the family before it
 * (setup as that block's family asks), and the operation never runs across a pinned block: it
 * starts after it instead.
 */
function placeOn(
  c: Compiled,
  op: number,
  mi: number,
  t: number,
  after: number,
  prevFamily: number,
): { start: number; end: number; setup: number } {
  const f = c.opFamily[op]!;
  const blocks = c.pinBlocks[mi]!;
  const run = runMinutes(c, op, mi);
  let from = t;
  let pf = prevFamily;
  for (let b = 0; b < blocks.length; b += 3)
    if (blocks[b + 1]! > after && blocks[b + 1]! <= from) pf = blocks[b + 2]!;
  for (;;) {
    const setup = f === -2 || pf !== f ? c.opSetup[op]! : 0;
    const r = place(c.windows[mi]!, from, setup + run);
    let again = false;
    for (let b = 0; b < blocks.length; b += 3) {
      if (blocks[b + 1]! <= from) continue;
      if (blocks[b]! >= r.end) break;
      from = blocks[b + 1]!;
      pf = blocks[b + 2]!;
      again = true;
      break;
    }
    if (!again) return { start: r.start, end: r.end, setup };
  }
}

/** Duration on a machine after setup decision. */
const runMinutes = (c: Compiled, op: number, machine: number) =>
  Math.ceil(c.opRun[op]! / c.machineSpeed[machine]!);

/**
 * Start and end of `dur` working minutes on `machine` from `t` on (pausing outside its windows);
 * Infinity when the calendar runs out.
 */
function place(win: Float64Array, t: number, dur: number): { start: number; end: number } {
  const nw = win.length >> 1;
  // First window ending after t (binary search).
  let lo = 0;
  let hi = nw;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (win[2 * mid + 1]! <= t) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= nw) return { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  const start = Math.max(t, win[2 * lo]!);
  if (dur <= 0) return { start, end: start };
  let left = dur;
  let cur = start;
  for (let w = lo; w < nw; w++) {
    const s = Math.max(cur, win[2 * w]!);
    const e = win[2 * w + 1]!;
    if (e - s >= left) return { start, end: s + left };
    left -= e - s;
    cur = e;
  }
  return { start, end: Number.POSITIVE_INFINITY };
}

interface Decoded {
  opMachine: Int32Array;
  opStart: Float64Array;
  opEnd: Float64Array;
  opSetupUsed: Float64Array;
  lotEnd: Float64Array;
  changeovers: number;
  pinsMoved: number;
  score: number;
  weightedTardiness: number;
  late: number;
  makespan: number;
}

function newDecoded(c: Compiled): Decoded {
  const n = c.opLot.length;
  return {
    opMachine: new Int32Array(n),
    opStart: new Float64Array(n),
    opEnd: new Float64Array(n),
    opSetupUsed: new Float64Array(n),
    lotEnd: new Float64Array(c.nLots),
    changeovers: 0,
    pinsMoved: 0,
    score: 0,
    weightedTardiness: 0,
    late: 0,
    makespan: 0,
  };
}

/** Gives each operation of `seq` (lot indices; k-th appearance = k-th step) its machine and times. */
function decode(
  c: Compiled,
  seq: Int32Array,
  out: Decoded,
  free: Float64Array,
  fam: Int32Array,
  next: Int32Array,
) {
  free.set(c.machineReady);
  fam.set(c.machineFamily);
  next.fill(0);
  for (let l = 0; l < c.nLots; l++) out.lotEnd[l] = c.lotRelease[l]!;
  let changeovers = 0;
  let pinsMoved = 0;
  for (let i = 0; i < seq.length; i++) {
    const l = seq[i]!;
    const op = c.lotFirst[l]! + next[l]!;
    next[l]!++;
    const ready = out.lotEnd[l]!;
    const fm = c.opFrozen[op]!;
    if (fm >= 0) {
      out.opMachine[op] = fm;
      out.opStart[op] = c.opFrozenStart[op]!;
      out.opEnd[op] = c.opFrozenEnd[op]!;
      out.opSetupUsed[op] = 0;
      out.lotEnd[l] = Math.max(ready, c.opFrozenEnd[op]!);
      continue;
    }
    const g = c.opGroup[op]!;
    if (g < 0) {
      out.opMachine[op] = -1;
      out.opStart[op] = ready;
      out.opEnd[op] = ready + c.opLead[op]!;
      out.opSetupUsed[op] = 0;
      out.lotEnd[l] = ready + c.opLead[op]!;
      continue;
    }
    const f = c.opFamily[op]!;
    const pm = c.opPin[op]!;
    if (pm >= 0 && ready <= c.opPinStart[op]!) {
      // Where the planner put it: its block (setup included), outside the machine's sequence.
      out.opMachine[op] = pm;
      out.opStart[op] = c.opPinStart[op]!;
      out.opEnd[op] = c.opPinEnd[op]!;
      out.opSetupUsed[op] = c.opSetup[op]!;
      if (c.opSetup[op]! > 0) changeovers++;
      out.lotEnd[l] = c.opPinEnd[op]!;
      continue;
    }
    let bestM = -1;
    let bestS = 0;
    let bestE = Number.POSITIVE_INFINITY;
    let bestSetup = 0;
    for (const mi of pm >= 0 ? [pm] : c.groupMachines[g]!) {
      const t = ready > free[mi]! ? ready : free[mi]!;
      const r = placeOn(c, op, mi, t, free[mi]!, fam[mi]!);
      if (r.end < bestE) {
        bestE = r.end;
        bestS = r.start;
        bestM = mi;
        bestSetup = r.setup;
      }
    }
    if (pm >= 0) pinsMoved++;
    if (bestM < 0) {
      // No working time left in the horizon: reported as an unplaceable operation.
      bestM = c.groupMachines[g]![0]!;
      bestS = Number.POSITIVE_INFINITY;
      bestE = Number.POSITIVE_INFINITY;
    }
    out.opMachine[op] = bestM;
    out.opStart[op] = bestS;
    out.opEnd[op] = bestE;
    out.opSetupUsed[op] = bestSetup;
    if (bestSetup > 0 || fam[bestM] !== f) changeovers++;
    free[bestM] = bestE;
    fam[bestM] = f;
    out.lotEnd[l] = bestE;
  }
  let wt = 0;
  let late = 0;
  let mk = 0;
  for (let l = 0; l < c.nLots; l++) {
    const e = out.lotEnd[l]!;
    if (e > mk) mk = e;
    const t = e - c.lotDue[l]!;
    if (t > 0) {
      wt += t * c.lotWeight[l]!;
      late++;
    }
  }
  const w = c.weights;
  out.changeovers = changeovers;
  out.pinsMoved = pinsMoved;
  out.weightedTardiness = wt;
  out.late = late;
  out.makespan = mk;
  // A pin that cannot stay where the planner put it costs as much as a late lot.
  out.score = w.tardiness * wt + w.late * (late + pinsMoved) + w.changeovers * changeovers + w.makespan * mk;
}

/**
 * ATCS list scheduling: answers the order in which operations were given their machine.
 */
function constructive(c: Compiled, k1: number, k2: number): Int32Array {
  const nOps = c.opLot.length;
  const seq = new Int32Array(nOps);
  let pos = 0;
  const free = Float64Array.from(c.machineReady);
  const fam = Int32Array.from(c.machineFamily);
  const next = new Int32Array(c.nLots);
  const lotReady = Float64Array.from(c.lotRelease);
  // Remaining standard work of each lot (for slack).
  const remaining = new Float64Array(c.nLots);
  let pSum = 0;
  let sSum = 0;
  let mOps = 0;
  for (let op = 0; op < nOps; op++) {
    const w = c.opGroup[op]! < 0 ? c.opLead[op]! : c.opRun[op]! + c.opSetup[op]!;
    remaining[c.opLot[op]!]! += w;
    if (c.opGroup[op]! >= 0) {
      pSum += c.opRun[op]!;
      sSum += c.opSetup[op]!;
      mOps++;
    }
  }
  const pBar = mOps ? pSum / mOps : 1;
  const sBar = mOps && sSum > 0 ? sSum / mOps : 1;
  // Ready list: lots whose next operation is not yet sequenced.
  const ready: number[] = [];
  for (let l = 0; l < c.nLots; l++) if (c.lotCount[l]! > 0) ready.push(l);
  const advance = (l: number, end: number, work: number) => {
    lotReady[l] = Math.max(lotReady[l]!, end);
    remaining[l]! -= work;
    next[l]!++;
    seq[pos++] = l;
  };
  while (ready.length) {
    // Operations without a machine choice (frozen, outsourced) go as soon as they are next.
    let moved = false;
    for (let r = ready.length - 1; r >= 0; r--) {
      const l = ready[r]!;
      const op = c.lotFirst[l]! + next[l]!;
      if (c.opFrozen[op]! >= 0) {
        advance(l, c.opFrozenEnd[op]!, c.opRun[op]! + c.opSetup[op]!);
        moved = true;
      } else if (c.opPin[op]! >= 0) {
        advance(l, Math.max(lotReady[l]!, c.opPinEnd[op]!), c.opRun[op]! + c.opSetup[op]!);
        moved = true;
      } else if (c.opGroup[op]! < 0) {
        advance(l, lotReady[l]! + c.opLead[op]!, c.opLead[op]!);
        moved = true;
      } else continue;
      if (next[l]! >= c.lotCount[l]!) ready.splice(r, 1);
    }
    if (moved) continue;
    // Giffler–Thompson: the machine/operation pair that can complete first fixes the time t*;
    // the conflict set is every operation that can start on that machine before t*.
    let bestEnd = Number.POSITIVE_INFINITY;
    let bestMachine = -1;
    for (const l of ready) {
      const op = c.lotFirst[l]! + next[l]!;
      for (const mi of c.groupMachines[c.opGroup[op]!]!) {
        const t = Math.max(lotReady[l]!, free[mi]!);
        const r = placeOn(c, op, mi, t, free[mi]!, -3);
        if (r.end < bestEnd) {
          bestEnd = r.end;
          bestMachine = mi;
        }
      }
    }
    if (bestMachine < 0) {
      // Calendars exhausted: sequence the rest in ready order; the decoder reports them.
      for (const l of ready) while (next[l]! < c.lotCount[l]!) advance(l, Number.POSITIVE_INFINITY, 0);
      break;
    }
    const now = free[bestMachine]!;
    let bestIdx = -1;
    let bestPri = Number.NEGATIVE_INFINITY;
    let bestEarliest = Number.POSITIVE_INFINITY;
    for (let r = 0; r < ready.length; r++) {
      const l = ready[r]!;
      const op = c.lotFirst[l]! + next[l]!;
      const g = c.opGroup[op]!;
      if (!c.groupMachines[g]!.includes(bestMachine)) continue;
      const start = Math.max(lotReady[l]!, now);
      if (start >= bestEnd) continue;
      const f = c.opFamily[op]!;
      const s = f === -2 || fam[bestMachine] !== f ? c.opSetup[op]! : 0;
      const p = Math.max(1, runMinutes(c, op, bestMachine));
      const slack = Math.max(c.lotDue[l]! - remaining[l]! - start, 0);
      const pri = (c.lotWeight[l]! / p) * Math.exp(-slack / (k1 * pBar)) * Math.exp(-s / (k2 * sBar));
      if (pri > bestPri || (pri === bestPri && start < bestEarliest)) {
        bestPri = pri;
        bestIdx = r;
        bestEarliest = start;
      }
    }
    if (bestIdx < 0) bestIdx = 0;
    const l = ready[bestIdx]!;
    const op = c.lotFirst[l]! + next[l]!;
    const f = c.opFamily[op]!;
    const r = placeOn(c, op, bestMachine, Math.max(lotReady[l]!, now), now, fam[bestMachine]!);
    free[bestMachine] = r.end;
    fam[bestMachine] = f;
    advance(l, r.end, c.opRun[op]! + c.opSetup[op]!);
    if (next[l]! >= c.lotCount[l]!) ready.splice(bestIdx, 1);
  }
  return seq;
}

function moveWithin(seq: Int32Array, from: number, to: number) {
  if (from === to) return;
  const v = seq[from]!;
  if (from < to) seq.copyWithin(from, from + 1, to + 1);
  else seq.copyWithin(to + 1, to, from);
  seq[to] = v;
}

/** Solves the plant problem within the time limit (default 10 s). */
export function solvePlant(problem: PlantProblem, options: PlantOptions = {}): PlantSchedule {
  const clock = options.clock ?? systemClock;
  const t0 = clock();
  const deadline = t0 + (options.timeLimitMs ?? 10_000);
  const maxIter = options.maxIterations ?? Number.POSITIVE_INFINITY;
  const weights = { ...DEFAULT_PLANT_WEIGHTS, ...options.weights };
  const c = compile(problem, weights);
  const rng: Rng = createRng(options.seed ?? 1);
  const nOps = c.opLot.length;
  const free = new Float64Array(c.nMachines);
  const fam = new Int32Array(c.nMachines);
  const next = new Int32Array(c.nLots);

  const cur = constructive(c, options.k1 ?? 2, options.k2 ?? 0.5);
  const curD = newDecoded(c);
  const tDecode = clock();
  decode(c, cur, curD, free, fam, next);
  // The answer is within the limit: the last decode and the answer's assembly are kept out of it.
  const stop = deadline - Math.min(Math.max(200, 5 * (clock() - tDecode)), 0.1 * (deadline - t0));
  const start = {
    lateLots: curD.late,
    weightedTardiness: curD.weightedTardiness,
    changeovers: curD.changeovers,
    makespan: curD.makespan,
    score: curD.score,
  };
  const best = cur.slice();
  let bestScore = curD.score;
  let curScore = curD.score;
  const trial = new Int32Array(nOps);
  const trialD = newDecoded(c);
  // Position of each lot's appearances, rebuilt when needed.
  let iterations = 0;
  const lateLots: number[] = [];
  const refreshLate = () => {
    lateLots.length = 0;
    for (let l = 0; l < c.nLots; l++) if (curD.lotEnd[l]! > c.lotDue[l]!) lateLots.push(l);
  };
  refreshLate();
  const history = new Float64Array(Math.max(10, Math.min(200, nOps >> 2))).fill(curScore);
  let lastBest = 0;
  const stagnation = Math.max(300, 2 * nOps);
  const opAt = (s: Int32Array, i: number) => {
    // The operation index of position i (counting the lot's earlier appearances).
    const l = s[i]!;
    let k = 0;
    for (let j = 0; j < i; j++) if (s[j] === l) k++;
    return c.lotFirst[l]! + k;
  };

  while (nOps > 1 && iterations < maxIter && clock() < stop) {
    iterations++;
    trial.set(cur);
    const kind = rng.next();
    if (kind < 0.45 && lateLots.length) {
      // Pull a late lot's appearance forward.
      const l = lateLots[rng.int(lateLots.length)]!;
      const k = rng.int(c.lotCount[l]!);
      let from = -1;
      for (let i = 0, seen = 0; i < nOps; i++)
        if (trial[i] === l && seen++ === k) {
          from = i;
          break;
        }
      if (from <= 0) continue;
      const to = Math.max(0, from - 1 - rng.int(Math.min(from, 1 + (nOps >> 3))));
      moveWithin(trial, from, to);
    } else if (kind < 0.75) {
      // Group: put an operation right behind an earlier one of the same family and group.
      const from = rng.int(nOps);
      const op = opAt(trial, from);
      const g = c.opGroup[op]!;
      const f = c.opFamily[op]!;
      if (g < 0 || f === -2) continue;
      let to = -1;
      const counts = new Map<number, number>();
      for (let i = 0; i < from; i++) {
        const li = trial[i]!;
        const kk = counts.get(li) ?? 0;
        counts.set(li, kk + 1);
        const o2 = c.lotFirst[li]! + kk;
        if (c.opGroup[o2] === g && c.opFamily[o2] === f && c.opLot[o2] !== c.opLot[op]) to = i + 1;
      }
      if (to < 0 || to === from) continue;
      moveWithin(trial, from, to);
    } else if (kind < 0.85) {
      // Swap two operations of different lots.
      const i = rng.int(nOps);
      const j = rng.int(nOps);
      if (trial[i] === trial[j]) continue;
      const t = trial[i]!;
      trial[i] = trial[j]!;
      trial[j] = t;
    } else {
      // Random insertion: nearby, or anywhere.
      const from = rng.int(nOps);
      const span = rng.next() < 0.5 ? 1 + (nOps >> 4) : nOps;
      const to = Math.min(nOps - 1, Math.max(0, from + rng.int(2 * span + 1) - span));
      if (to === from) continue;
      moveWithin(trial, from, to);
    }
    if (iterations - lastBest > stagnation) {
      // Stuck: start again from the best with a kick of a few random insertions.
      trial.set(best);
      for (let k = 0; k < 3; k++) moveWithin(trial, rng.int(nOps), rng.int(nOps));
      lastBest = iterations;
      history.fill(bestScore);
      curScore = Number.POSITIVE_INFINITY;
    }
    decode(c, trial, trialD, free, fam, next);
    // Late acceptance (Burke & Bykov 2017): not worse than now, or than the answer L moves ago.
    const slot = iterations % history.length;
    const accept = trialD.score <= curScore || trialD.score < history[slot]!;
    history[slot] = Number.isFinite(curScore) ? curScore : bestScore;
    if (accept) {
      cur.set(trial);
      curScore = trialD.score;
      // Keep curD in step with cur.
      curD.lotEnd.set(trialD.lotEnd);
      if (trialD.score < bestScore) {
        best.set(trial);
        bestScore = trialD.score;
        lastBest = iterations;
      }
      refreshLate();
    }
  }
  const fin = newDecoded(c);
  decode(c, best, fin, free, fam, next);
  return answer(c, fin, start, iterations);
}

/**
 * Decodes one given operation sequence (lot ids; the k-th appearance of a lot is its k-th remaining
 * step) without searching: what the planner's own order gives, and what the tests enumerate.
 */
export function schedulePlantSequence(
  problem: PlantProblem,
  sequence: readonly string[],
  weights: Partial<PlantWeights> = {},
): PlantSchedule {
  const c = compile(problem, { ...DEFAULT_PLANT_WEIGHTS, ...weights });
  const index = new Map(problem.lots.map((l, i) => [l.id, i]));
  const seq = Int32Array.from(sequence.map((id) => index.get(id) ?? -1));
  const counts = new Int32Array(c.nLots);
  for (const l of seq) if (l >= 0) counts[l]!++;
  if (seq.length !== c.opLot.length || seq.some((l) => l < 0) || counts.some((n, l) => n !== c.lotCount[l]))
    throw new Error('顺序必须恰好列出每个批次的每道剩余工序');
  const d = newDecoded(c);
  decode(c, seq, d, new Float64Array(c.nMachines), new Int32Array(c.nMachines), new Int32Array(c.nLots));
  const k = {
    lateLots: d.late,
    weightedTardiness: d.weightedTardiness,
    changeovers: d.changeovers,
    makespan: d.makespan,
    score: d.score,
  };
  return answer(c, d, k, 0);
}

function answer(
  c: Compiled,
  d: Decoded,
  constructive: PlantSchedule['constructive'],
  iterations: number,
): PlantSchedule {
  const { problem } = c;
  const operations: ScheduledOperation[] = [];
  const machineOps = new Map<number, number[]>();
  for (let l = 0; l < c.nLots; l++) {
    const lot = problem.lots[l]!;
    for (let k = 0; k < c.lotCount[l]!; k++) {
      const op = c.lotFirst[l]! + k;
      const mi = d.opMachine[op]!;
      operations.push({
        lotId: lot.id,
        stepIndex: k,
        stepId: lot.steps[k]!.stepId,
        machineId: mi >= 0 ? problem.machines[mi]!.id : null,
        start: d.opStart[op]!,
        end: d.opEnd[op]!,
        setup: d.opSetupUsed[op]!,
        frozen: c.opFrozen[op]! >= 0,
        pinned: c.opPin[op]! >= 0 && d.opStart[op] === c.opPinStart[op],
      });
      if (mi >= 0) {
        const list = machineOps.get(mi) ?? [];
        list.push(op);
        machineOps.set(mi, list);
      }
    }
  }
  // Who held a late lot: the step with the longest wait, and the operation before it on that machine.
  const before = new Map<number, number>();
  for (const list of machineOps.values()) {
    list.sort((a, b) => d.opStart[a]! - d.opStart[b]!);
    for (let i = 1; i < list.length; i++) before.set(list[i]!, list[i - 1]!);
  }
  const lots: PlantLotOutcome[] = problem.lots.map((lot, l) => {
    const completion = d.lotEnd[l]!;
    const tardiness = Math.max(0, completion - lot.due);
    const out: PlantLotOutcome = {
      lotId: lot.id,
      orderId: lot.orderId,
      completion,
      due: lot.due,
      tardiness,
      late: tardiness > 0,
    };
    if (tardiness > 0) {
      let prevEnd = c.lotRelease[l]!;
      let worst = -1;
      let worstWait = -1;
      for (let k = 0; k < c.lotCount[l]!; k++) {
        const op = c.lotFirst[l]! + k;
        const wait = d.opStart[op]! - prevEnd;
        if (c.opGroup[op]! >= 0 && wait > worstWait) {
          worstWait = wait;
          worst = k;
        }
        prevEnd = d.opEnd[op]!;
      }
      if (worst >= 0) {
        const op = c.lotFirst[l]! + worst;
        const b = before.get(op);
        out.heldBy = {
          stepIndex: worst,
          stepId: lot.steps[worst]!.stepId,
          machineId: problem.machines[d.opMachine[op]!]?.id ?? null,
          waited: Math.max(0, worstWait),
          took: d.opEnd[op]! - d.opStart[op]!,
          blockedBy: b === undefined ? undefined : problem.lots[c.opLot[b]!]!.id,
        };
      }
    }
    return out;
  });
  const lateOrders = new Set(lots.filter((x) => x.late).map((x) => x.orderId ?? x.lotId)).size;
  const machineLoads = problem.machines.map((m, mi) => {
    let busy = 0;
    for (const op of machineOps.get(mi) ?? []) busy += d.opEnd[op]! - d.opStart[op]!;
    const win = c.windows[mi]!;
    let available = 0;
    for (let w = 0; w < win.length; w += 2) {
      const s = Math.max(0, win[w]!);
      const e = Math.min(d.makespan, win[w + 1]!);
      if (e > s) available += e - s;
    }
    return { machineId: m.id, busy, available };
  });
  return {
    operations,
    lots,
    kpis: {
      lateLots: d.late,
      lateOrders,
      weightedTardiness: d.weightedTardiness,
      changeovers: d.changeovers,
      makespan: d.makespan,
      score: d.score,
    },
    machineLoads,
    constructiveScore: constructive.score,
    constructive,
    iterations,
    pinsMoved: d.pinsMoved,
  };
}

// ————— checker —————

export interface PlantViolation {
  kind:
    | 'missing'
    | 'duplicate'
    | 'machine'
    | 'overlap'
    | 'calendar'
    | 'precedence'
    | 'release'
    | 'outsource'
    | 'frozen'
    | 'pin';
  message: string;
}

/** Working minutes of a machine in [start, end): its shifts minus its maintenance. */
function workingMinutes(
  m: PlantMachine,
  maint: readonly PlantMaintenance[],
  start: number,
  end: number,
): number {
  let total = 0;
  for (const [s, e] of m.calendar) {
    const a = Math.max(s, start);
    const b = Math.min(e, end);
    if (b <= a) continue;
    total += b - a;
    for (const mt of maint) {
      const x = Math.max(a, mt.start);
      const y = Math.min(b, mt.end);
      if (y > x) total -= y - x;
    }
  }
  return total;
}

/**
 * Verifies a schedule against the raw problem: every remaining step once; each on a machine of
 * its group (or none when outsourced, for its lead time); no two operations at once on a machine;
 * each with enough working time (shifts minus maintenance) in [start, end) for its setup (when
 * the machine's previous operation is of another family) and its run at the machine's speed, and
 * starting inside working time; route order and material release; started dispatches where they
 * were. Overlapping maintenance windows are counted once per window (they are not expected).
 */
export function checkPlantSchedule(
  problem: PlantProblem,
  operations: readonly ScheduledOperation[],
): PlantViolation[] {
  const v: PlantViolation[] = [];
  const machines = new Map(problem.machines.map((m) => [m.id, m]));
  const maint = new Map<string, PlantMaintenance[]>();
  for (const mt of problem.maintenance ?? [])
    maint.set(mt.machineId, [...(maint.get(mt.machineId) ?? []), mt]);
  const byKey = new Map<string, ScheduledOperation>();
  for (const o of operations) {
    const key = `${o.lotId}#${o.stepIndex}`;
    if (byKey.has(key)) v.push({ kind: 'duplicate', message: `${key} 排了两次` });
    byKey.set(key, o);
  }
  const frozen = new Map((problem.frozen ?? []).map((f) => [`${f.lotId}#${f.stepIndex}`, f]));
  for (const p of problem.pins ?? []) {
    const o = byKey.get(`${p.lotId}#${p.stepIndex}`);
    if (o && (o.machineId !== p.machineId || o.start < p.start))
      v.push({
        kind: 'pin',
        message: `锁定的 ${p.lotId}#${p.stepIndex} 不在 ${p.machineId} 上或早于锁定时间`,
      });
  }
  for (const f of frozen.values()) {
    const o = byKey.get(`${f.lotId}#${f.stepIndex}`);
    if (!o || o.machineId !== f.machineId || o.start !== f.start || o.end !== f.end)
      v.push({ kind: 'frozen', message: `已开工的 ${f.lotId}#${f.stepIndex} 被移动` });
  }
  for (const lot of problem.lots) {
    let prevEnd = lot.release ?? 0;
    lot.steps.forEach((step, k) => {
      const key = `${lot.id}#${k}`;
      const o = byKey.get(key);
      if (!o) {
        v.push({ kind: 'missing', message: `${key} 没有排` });
        return;
      }
      if (!Number.isFinite(o.end) || !Number.isFinite(o.start) || o.end < o.start)
        v.push({ kind: 'calendar', message: `${key} 在日历内排不下` });
      const isFrozen = frozen.has(key);
      if (!isFrozen && o.start < prevEnd)
        v.push({
          kind: k === 0 ? 'release' : 'precedence',
          message: `${key} 早于前道/投料 (${o.start} < ${prevEnd})`,
        });
      if (step.outsourceLeadMinutes !== undefined || step.group === undefined) {
        if (o.machineId !== null) v.push({ kind: 'machine', message: `${key} 是委外工序却占了设备` });
        if (o.end - o.start < (step.outsourceLeadMinutes ?? 0))
          v.push({ kind: 'outsource', message: `${key} 委外周期不足` });
      } else {
        const m = o.machineId === null ? undefined : machines.get(o.machineId);
        if (!m || !canRun(m, step))
          v.push({
            kind: 'machine',
            message: `${key} 的设备 ${o.machineId} 不属于 ${step.group}${step.capability ? ` 或不能做 ${step.capability}` : ''}`,
          });
      }
      prevEnd = Math.max(prevEnd, o.end);
    });
  }
  const lotById = new Map(problem.lots.map((l) => [l.id, l]));
  const perMachine = new Map<string, ScheduledOperation[]>();
  for (const o of operations)
    if (o.machineId !== null) perMachine.set(o.machineId, [...(perMachine.get(o.machineId) ?? []), o]);
  for (const [mid, list] of perMachine) {
    const m = machines.get(mid);
    if (!m) continue;
    const mm = maint.get(mid) ?? [];
    list.sort((a, b) => a.start - b.start || a.end - b.end);
    let prevFamily: string | undefined = m.initialFamily;
    let hasPrev = m.initialFamily !== undefined;
    for (let i = 0; i < list.length; i++) {
      const o = list[i]!;
      const key = `${o.lotId}#${o.stepIndex}`;
      if (i > 0 && o.start < list[i - 1]!.end)
        v.push({
          kind: 'overlap',
          message: `${mid}: ${key} 与 ${list[i - 1]!.lotId}#${list[i - 1]!.stepIndex} 重叠`,
        });
      const lot = lotById.get(o.lotId);
      const step = lot?.steps[o.stepIndex];
      if (!lot || !step) continue;
      if (!frozen.has(key)) {
        const needsSetup = step.family === undefined || !hasPrev || prevFamily !== step.family;
        const need =
          (needsSetup ? (step.setupMinutes ?? 0) : 0) +
          Math.ceil((lot.quantity * (step.minutesPerPiece ?? 0)) / (m.speed ?? 1));
        const have = workingMinutes(m, mm, o.start, o.end);
        if (have + 1e-9 < need)
          v.push({ kind: 'calendar', message: `${mid}: ${key} 需 ${need} 分钟，班内只有 ${have}` });
        if (need > 0 && workingMinutes(m, mm, o.start, o.start + 1) < 1)
          v.push({ kind: 'calendar', message: `${mid}: ${key} 在非工作时间开工 (${o.start})` });
      }
      prevFamily = step.family;
      hasPrev = true;
    }
  }
  return v;
}
