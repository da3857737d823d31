// The import rules of docs/architecture.md ("Import rules"), checked by `npm test -- imports`
// (scripts/import-rules.mjs runs dependency-cruiser with this file over the server and the domain
// package). Every exception below is named in docs/architecture.md with its reason; removing one
// from the code means removing it here too (a stale exception is reported as unused).

const SRV = 'apps/server/src';
const MOD = `${SRV}/modules`;

/** The server modules by floor, lowest first (docs/architecture.md, rule 4). */
const FLOORS = [
  ['system', 'common'],
  ['factory'],
  ['warehouse', 'technology'],
  ['orders'],
  ['purchase', 'sales'],
  ['production'],
  ['quality', 'equipment'],
  ['finance'],
  ['dashboard'],
];

/**
 * Upward or sideways imports that stay for now, file to file (paths under modules/). Each one
 * is listed in docs/architecture.md ("Exceptions that remain").
 */
const EXCEPTIONS = [
  {
    from: 'production/work-report.ts',
    to: 'finance/wages.ts',
    why: "the report's posting writes its piece-wage line as a CTE of its one fused statement and keeps the amount on the report",
  },
];

/** Import circles that remain, each inside one module (docs/architecture.md). */
const ALLOWED_CIRCLES = [
  // 从请购单生成 makes a purchase order through its hooks; the order's lines link back to requisition lines.
  ['purchase/purchase-order.ts', 'purchase/requisition.ts'],
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const floorOf = (m) => FLOORS.findIndex((f) => f.includes(m));

/** One rule per (module, module on its floor or above); exceptions split out file by file. */
function layerRules() {
  const rules = [];
  for (const from of FLOORS.flat()) {
    for (const to of FLOORS.flat()) {
      if (from === to || floorOf(to) < floorOf(from)) continue;
      const how = floorOf(to) === floorOf(from) ? 'on its own floor' : 'above it';
      const name = `${from}-not-to-${to}`;
      const comment = `modules/${from} may not import modules/${to} (${how}): an upward need goes through a hook the lower module owns (docs/architecture.md, import rules 4 and 5)`;
      const own = EXCEPTIONS.filter((e) => e.from.startsWith(`${from}/`) && e.to.startsWith(`${to}/`));
      const sources = [...new Set(own.map((e) => e.from))];
      rules.push({
        name,
        comment,
        severity: 'error',
        from: { path: `^${MOD}/${from}/`, pathNot: sources.map((f) => `^${esc(`${MOD}/${f}`)}$`) },
        to: { path: `^${MOD}/${to}/` },
      });
      for (const f of sources) {
        rules.push({
          name,
          comment,
          severity: 'error',
          from: { path: `^${esc(`${MOD}/${f}`)}$` },
          to: {
            path: `^${MOD}/${to}/`,
            pathNot: own.filter((e) => e.from === f).map((e) => `^${esc(`${MOD}/${e.to}`)}$`),
          },
        });
      }
    }
  }
  return rules;
}

const circleFiles = ALLOWED_CIRCLES.flat().map((f) => `^${esc(`${MOD}/${f}`)}$`);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-no-app',
      comment: 'packages/domain is shared by the server and the web: it imports nothing from apps/ (rule 1)',
      severity: 'error',
      from: { path: '^packages/domain/' },
      to: { path: '^apps/' },
    },
    {
      name: 'platform-imports-no-module',
      comment:
        'apps/server/src/platform is the bottom layer: it imports no module, no composition root, no seed (rule 2)',
      severity: 'error',
      from: { path: `^${SRV}/platform/` },
      to: { path: `^(${MOD}/|${SRV}/(app|main)\\.ts$|${SRV}/seed/)` },
    },
    {
      name: 'composition-roots-imported-by-none',
      comment:
        'app.ts, main.ts, modules/index.ts and seed/ import every module; a module or platform file importing them closes a circle through the whole server (rule 3)',
      severity: 'error',
      from: { path: `^${SRV}/(platform|modules/[^/]+)/` },
      to: { path: `^${SRV}/((app|main)\\.ts|modules/index\\.ts|seed/)` },
    },
    ...layerRules(),
    {
      name: 'no-circular',
      comment:
        'no import circle on the server beyond the ones docs/architecture.md names (ALLOWED_CIRCLES in .dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: `^${SRV}/`, pathNot: circleFiles },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
// For scripts/import-rules.mjs, which reports an exception no longer used (not a config key:
// dependency-cruiser refuses unknown ones).
Object.defineProperty(module.exports, 'ringmes', {
  value: { EXCEPTIONS, ALLOWED_CIRCLES },
  enumerable: false,
});
