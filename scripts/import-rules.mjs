// `npm test -- imports`: the import rules of docs/architecture.md, checked by dependency-cruiser
// with .dependency-cruiser.cjs over the server and the domain package. Prints each broken rule,
// each exception that is no longer needed (so the list only shrinks) and the largest import
// circle on the server. Exits 1 on any of the first two.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(root, '.dependency-cruiser.cjs');
const { EXCEPTIONS, ALLOWED_CIRCLES } = createRequire(import.meta.url)(config).ringmes;
const MOD = 'apps/server/src/modules/';

const r = spawnSync(
  path.join(root, 'node_modules/.bin/depcruise'),
  ['apps/server/src', 'packages/domain/src', '--config', config, '--output-type', 'json'],
  { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
if (!r.stdout) {
  console.error(r.stderr || `dependency-cruiser exited ${r.status}`);
  process.exit(1);
}
const result = JSON.parse(r.stdout);
const comments = new Map(result.summary.ruleSetUsed.forbidden.map((rule) => [rule.name, rule.comment]));
const problems = [];

for (const v of result.summary.violations) {
  const via = v.cycle?.length
    ? `\n      circle: ${[v.from, ...v.cycle.map((c) => c.name ?? c)].join(' → ')}`
    : '';
  problems.push(`${v.rule.name}: ${v.from} → ${v.to}${via}\n      ${comments.get(v.rule.name) ?? ''}`);
}

// The graph of the server, for the stale exceptions and the circles.
const graph = new Map();
for (const m of result.modules) {
  if (!m.source.startsWith('apps/server/src/')) continue;
  graph.set(
    m.source,
    m.dependencies.filter((d) => d.resolved.startsWith('apps/server/src/')).map((d) => d.resolved),
  );
}

for (const e of EXCEPTIONS) {
  if (!(graph.get(MOD + e.from) ?? []).includes(MOD + e.to))
    problems.push(
      `stale exception: modules/${e.from} no longer imports modules/${e.to}; remove it from .dependency-cruiser.cjs and docs/architecture.md`,
    );
}

// Circles: the strongly connected components of more than one file (Tarjan).
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
let next = 0;
function visit(v) {
  index.set(v, next);
  low.set(v, next++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const c = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    c.push(w);
  } while (w !== v);
  if (c.length > 1) circles.push(c.sort());
}
for (const v of graph.keys()) if (!index.has(v)) visit(v);
circles.sort((a, b) => b.length - a.length);

for (const allowed of ALLOWED_CIRCLES) {
  const files = allowed.map((f) => MOD + f);
  if (!circles.some((c) => files.every((f) => c.includes(f))))
    problems.push(
      `stale exception: ${allowed.join(' ↔ ')} is no longer a circle; remove it from ALLOWED_CIRCLES and docs/architecture.md`,
    );
}

const short = (f) => f.replace('apps/server/src/', '');
console.log(
  `${result.summary.totalCruised} files, ${result.summary.totalDependenciesCruised} imports; ` +
    `${EXCEPTIONS.length} known exceptions, ${ALLOWED_CIRCLES.length} allowed circles`,
);
console.log(
  circles.length
    ? `server import circles: ${circles.map((c) => `${c.length} (${c.map(short).join(', ')})`).join('; ')}`
    : 'server import circles: none',
);
if (problems.length) {
  console.error(
    `\n${problems.length} import rule problem(s):\n${problems.map((p) => `  ✗ ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('import rules hold');
