// Issue 43 §4: 自动排产 measured on the field's benchmark. Taillard's permutation flow shop
// instances (bench/fixtures/taillard, with their best-known upper bounds and source) solved by the
// domain's NEH + iterated greedy at a fixed limit per instance (BENCH_APS_MS, default 1000 ms);
// the average relative percentage deviation from the bounds per group and over the four groups
// the issue names (20×5, 20×10, 20×20, 50×10; 50×5 printed beside them). Then the plant-size
// instance (500 lots × 4 workshops × 60 machines, generated) solved within the planner's 10 s
// (BENCH_APS_PLANT_MS) and checked by the constraint checker. No server, no database: the
// solver is pure; its TypeScript is bundled with esbuild for this process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const LIMIT_MS = Number(process.env.BENCH_APS_MS) || 1000;
const PLANT_MS = Number(process.env.BENCH_APS_PLANT_MS) || 10_000;
const GROUPS = [
  { label: '20×5', file: 'tai20_5.txt', first: 1, target: true },
  { label: '20×10', file: 'tai20_10.txt', first: 11, target: true },
  { label: '20×20', file: 'tai20_20.txt', first: 21, target: true },
  { label: '50×5', file: 'tai50_5.txt', first: 31, target: false },
  { label: '50×10', file: 'tai50_10.txt', first: 41, target: true },
];

async function loadSolver(ctx) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-aps-'));
  ctx.onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const src = path.join(ctx.root, 'packages/domain/src/production/scheduling');
  const outfile = path.join(dir, 'scheduling.mjs');
  await build({
    stdin: {
      contents: ['taillard', 'flow-shop', 'plant', 'plant-instance']
        .map((f) => `export * from ${JSON.stringify(path.join(src, `${f}.ts`))};`)
        .join('\n'),
      resolveDir: src,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return import(pathToFileURL(outfile).href);
}

const pct = (v) => Math.round(v * 1000) / 1000;

export default {
  name: 'aps',
  description: `Taillard ta001–ta050 at ${LIMIT_MS} ms each (ARPD from the best-known bounds); the 500-lot plant in ${PLANT_MS / 1000} s, checked`,
  async run(ctx) {
    const s = await loadSolver(ctx);
    const rows = [];
    let sumTarget = 0;
    let nTarget = 0;
    let sumNeh = 0;
    let invalid = 0;
    for (const g of GROUPS) {
      const instances = s.parseTaillard(
        fs.readFileSync(path.join(ctx.benchDir, 'fixtures/taillard', g.file), 'utf8'),
        g.first,
      );
      let sum = 0;
      for (const t of instances) {
        const r = s.iteratedGreedy(t, { timeLimitMs: LIMIT_MS, seed: t.seed });
        const perm =
          [...r.sequence].sort((a, b) => a - b).every((v, i) => v === i) && r.sequence.length === t.jobs;
        if (!perm || s.flowShopMakespan(t, r.sequence) !== r.makespan || r.makespan < t.upperBound) invalid++;
        const dev = ((r.makespan - t.upperBound) / t.upperBound) * 100;
        ctx.log(
          `${t.name} ${g.label}: ${r.makespan} vs ${t.upperBound} (${dev.toFixed(2)} %; NEH ${r.nehMakespan}; ${r.iterations} iterations)`,
        );
        sum += dev;
        if (g.target) {
          sumTarget += dev;
          nTarget++;
          sumNeh += ((r.nehMakespan - t.upperBound) / t.upperBound) * 100;
        }
      }
      rows.push({
        metric: `Taillard ${g.label} (ta${String(g.first).padStart(3, '0')}–) ARPD${g.target ? '' : ' (not in the target)'}`,
        value: pct(sum / instances.length),
        unit: '%',
      });
    }
    rows.push({
      metric: 'Taillard NEH alone, ARPD over 20×5, 20×10, 20×20, 50×10',
      value: pct(sumNeh / nTarget),
      unit: '%',
    });
    const overall = sumTarget / nTarget;
    rows.push({
      metric: `Taillard IG at ${LIMIT_MS} ms, ARPD over 20×5, 20×10, 20×20, 50×10 (${nTarget} instances)`,
      value: pct(overall),
      unit: '%',
      target: '≤ 1.0',
      pass: overall <= 1.0,
    });
    rows.push({
      metric: 'Taillard answers that are not valid permutations / wrong makespans',
      value: invalid,
      unit: '',
      target: '0',
      pass: invalid === 0,
    });

    const problem = s.generatePlantInstance();
    const t0 = performance.now();
    const plan = s.solvePlant(problem, { timeLimitMs: PLANT_MS, seed: 43 });
    const seconds = (performance.now() - t0) / 1000;
    const violations = s.checkPlantSchedule(problem, plan.operations);
    for (const v of violations.slice(0, 5)) ctx.log(`violation: ${v.message}`);
    const machineOps = plan.operations.filter((o) => o.machineId !== null).length;
    ctx.log(
      `plant: ${problem.lots.length} lots, ${problem.machines.length} machines, ${plan.operations.length} operations (${machineOps} on machines); ` +
        `score ${plan.constructiveScore} (ATCS) → ${plan.kpis.score} after ${plan.iterations} moves; ` +
        `late ${plan.kpis.lateLots}, tardiness ${plan.kpis.weightedTardiness} min, changeovers ${plan.kpis.changeovers}, makespan ${plan.kpis.makespan} min`,
    );
    rows.push({
      metric: `plant 500 lots × 4 workshops × 60 machines: solve time (limit ${PLANT_MS / 1000} s)`,
      value: Math.round(seconds * 100) / 100,
      unit: 's',
      target: '≤ 10',
      pass: seconds <= 10,
    });
    rows.push({
      metric: 'plant: constraint violations (checker)',
      value: violations.length,
      unit: '',
      target: '0',
      pass: violations.length === 0,
    });
    rows.push({
      metric: 'plant: late lots (ATCS start → answer)',
      value: `${plan.constructive.lateLots} → ${plan.kpis.lateLots}`,
      unit: '',
    });
    rows.push({
      metric: 'plant: changeovers (ATCS start → answer)',
      value: `${plan.constructive.changeovers} → ${plan.kpis.changeovers}`,
      unit: '',
    });
    rows.push({
      metric: 'plant: weighted objective, ATCS start → local search',
      value: `${Math.round(plan.constructiveScore)} → ${Math.round(plan.kpis.score)}`,
      unit: '',
    });
    return rows;
  },
};
