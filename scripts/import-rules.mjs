// `npm test -- imports`: the import rules of docs/architecture.md, checked by dependency-cruiser
// with .dependency-cruiser.cjs over the server, the web app and the domain package. Prints each
// broken rule, each exception that is no longer needed (so the list only shrinks) and the import
// circles of the server and of the web. Exits 1 on any of the first two.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(root, '.dependency-cruiser.cjs');
const { EXCEPTIONS, ALLOWED_CIRCLES, WEB_EXCEPTIONS, WEB_ALLOWED_CIRCLES } = createRequire(import.meta.url)(
  config,
).ringmes;
const SRV = 'apps/server/src/';
const WEB = 'apps/web/src/';

const r = spawnSync(
  path.join(root, 'node_modules/.bin/depcruise'),
  ['apps/server/src', 'apps/web/src', 'packages/domain/src', '--config', config, '--output-type', 'json'],
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

/** The graph of the files under `root`, for the stale exceptions and the circles. */
function graphOf(base) {
  const graph = new Map();
  for (const m of result.modules) {
    if (!m.source.startsWith(base)) continue;
    graph.set(
      m.source,
      m.dependencies.filter((d) => d.resolved.startsWith(base)).map((d) => d.resolved),
    );
  }
  return graph;
}

/** Circles: the strongly connected components of more than one file (Tarjan), largest first. */
function circlesOf(graph) {
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
  return circles.sort((a, b) => b.length - a.length);
}

/**
 * Checks one side's exceptions (paths under `root + mod`) and allowed circles (paths under
 * `root + circleBase`) for staleness; prints its circles.
 */
function side(name, root, mod, exceptions, allowedCircles, circleBase) {
  const graph = graphOf(root);
  for (const e of exceptions) {
    if (!(graph.get(root + mod + e.from) ?? []).includes(root + mod + e.to))
      problems.push(
        `stale exception: ${root}${mod}${e.from} no longer imports ${root}${mod}${e.to}; remove it from .dependency-cruiser.cjs and docs/architecture.md`,
      );
  }
  const circles = circlesOf(graph);
  for (const allowed of allowedCircles) {
    const files = allowed.map((f) => root + circleBase + f);
    if (!circles.some((c) => files.every((f) => c.includes(f))))
      problems.push(
        `stale exception: ${allowed.join(' ↔ ')} is no longer a circle; remove it from the allowed circles and docs/architecture.md`,
      );
  }
  const short = (f) => f.replace(root, '');
  console.log(
    circles.length
      ? `${name} import circles: ${circles.map((c) => `${c.length} (${c.map(short).join(', ')})`).join('; ')}`
      : `${name} import circles: none`,
  );
}

console.log(
  `${result.summary.totalCruised} files, ${result.summary.totalDependenciesCruised} imports; ` +
    `${EXCEPTIONS.length + WEB_EXCEPTIONS.length} known exceptions, ` +
    `${ALLOWED_CIRCLES.length + WEB_ALLOWED_CIRCLES.length} allowed circles`,
);
side('server', SRV, 'modules/', EXCEPTIONS, ALLOWED_CIRCLES, 'modules/');
side('web', WEB, 'modules/', WEB_EXCEPTIONS, WEB_ALLOWED_CIRCLES, '');
if (problems.length) {
  console.error(
    `\n${problems.length} import rule problem(s):\n${problems.map((p) => `  ✗ ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('import rules hold');
