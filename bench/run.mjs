// `npm run bench [-- <scenario> …]`: runs every scenario in bench/scenarios (or those named), prints
// one table and writes bench/results/latest.json. A scenario is a module whose default export is
// `{ name, description?, run(ctx) }`; `run` answers rows `{ metric, value, unit, target?, pass? }`.
// Tuning (environment): BENCH_CONNECTIONS (10), BENCH_DURATION s (5), BENCH_WARMUP s (1),
// BENCH_ROUNDS (5), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_VERBOSE.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR, ROOT } from './lib.mjs';

const num = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const options = {
  connections: num('BENCH_CONNECTIONS', 10),
  duration: num('BENCH_DURATION', 5),
  warmup: num('BENCH_WARMUP', 1),
  rounds: num('BENCH_ROUNDS', 5),
};

const scenarioDir = path.join(BENCH_DIR, 'scenarios');
const all = [];
for (const f of fs
  .readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.mjs'))
  .sort()) {
  const mod = await import(pathToFileURL(path.join(scenarioDir, f)).href);
  const s = mod.default ?? mod;
  if (!s?.name || typeof s.run !== 'function') throw new Error(`${f}: export default { name, run(ctx) }`);
  all.push(s);
}
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !all.some((s) => s.name === w));
if (unknown.length) {
  console.error(`unknown scenario: ${unknown.join(', ')}; available: ${all.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const selected = wanted.length ? all.filter((s) => wanted.includes(s.name)) : all;

let cleanups = [];
async function cleanup() {
  const fns = cleanups.reverse();
  cleanups = [];
  for (const fn of fns) {
    try {
      await fn();
    } catch (err) {
      console.error(`  cleanup: ${err?.message ?? err}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, async () => {
    console.error(`\n${sig}: stopping…`);
    await cleanup();
    process.exit(130);
  });
}

const t0 = Date.now();
const load = os.loadavg().map((l) => l.toFixed(1));
console.log(
  `RingMES bench — ${os.cpus().length} CPU(s), load average ${load.join(' ')}, Node ${process.version}; scenarios: ${selected.map((s) => s.name).join(', ')}`,
);
if (os.loadavg()[0] > os.cpus().length)
  console.log(
    '  note: the machine is busy with other work: measured throughput swings from round to round; ' +
      'CPU time per request (and what it projects) is steadier',
  );
/** A scenario started above this 1-minute load average is flagged in the report. */
const BUSY_LOAD = 1.5;
const results = [];
for (const s of selected) {
  const load1 = Math.round(os.loadavg()[0] * 100) / 100;
  console.log(
    `\n▶ ${s.name}${s.description ? ` — ${s.description}` : ''} (load average ${load1}${load1 > BUSY_LOAD ? ': busy, results may be distorted' : ''})`,
  );
  const started = Date.now();
  const ctx = {
    root: ROOT,
    benchDir: BENCH_DIR,
    options,
    log: (msg) => console.log(`  ${msg}`),
    onCleanup: (fn) => cleanups.push(fn),
  };
  let rows = [];
  let error;
  try {
    rows = await s.run(ctx);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    console.error(`  ✗ ${s.name} failed: ${error}`);
  }
  await cleanup();
  results.push({
    name: s.name,
    loadAverage: load1,
    busy: load1 > BUSY_LOAD,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    error,
    rows,
  });
}

// The table.
const table = [['scenario', 'metric', 'value', 'unit', 'target', 'result']];
for (const r of results) {
  // A scenario started on a busy machine is flagged: its timings may be load, not the code.
  const name = r.busy ? `${r.name} (load ${r.loadAverage}!)` : r.name;
  if (r.error) table.push([name, 'ERROR', r.error.split('\n')[0].slice(0, 70), '', '', 'FAIL']);
  for (const row of r.rows) {
    table.push([
      name,
      row.metric,
      String(row.value),
      row.unit ?? '',
      row.target ?? '',
      row.pass === undefined ? '' : row.pass ? 'PASS' : 'FAIL',
    ]);
  }
}
const width = (s) => [...s].reduce((w, c) => w + (/[\u1100-\uffff]/.test(c) ? 2 : 1), 0);
const widths = table[0].map((_, i) => Math.max(...table.map((row) => width(row[i]))));
const line = (row) => row.map((c, i) => c + ' '.repeat(widths[i] - width(c))).join('  ');
console.log(`\n${line(table[0])}\n${widths.map((w) => '─'.repeat(w)).join('  ')}`);
for (const row of table.slice(1)) console.log(line(row));

const busy = results.filter((r) => r.busy);
if (busy.length)
  console.log(
    `\nnote: ${busy.map((r) => `${r.name} (load ${r.loadAverage})`).join(', ')} started above a load average of ${BUSY_LOAD}: other work shared the CPUs, so timings there may be pessimistic`,
  );
const failed = results.filter((r) => r.error || r.rows.some((row) => row.pass === false));
let commit;
try {
  commit = execSync('git rev-parse --short HEAD', { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();
} catch {
  commit = undefined;
}
const out = path.join(BENCH_DIR, 'results', 'latest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  `${JSON.stringify(
    {
      startedAt: new Date(t0).toISOString(),
      seconds: Math.round((Date.now() - t0) / 100) / 10,
      commit,
      machine: {
        cpus: os.cpus().length,
        model: os.cpus()[0]?.model,
        memGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
      },
      options,
      scenarios: results,
      pass: failed.length === 0,
    },
    null,
    2,
  )}\n`,
);
console.log(
  `\n${failed.length ? `FAIL: ${failed.map((r) => r.name).join(', ')}` : 'all targets met'} — ${Math.round((Date.now() - t0) / 1000)} s; results in ${path.relative(ROOT, out)}`,
);
process.exit(failed.length ? 1 : 0);
