// The import rules of docs/architecture.md ("Import rules"), checked by `npm test -- imports`
// (scripts/import-rules.mjs runs dependency-cruiser with this file over the server, the web app
// and the domain package). Every exception below is named in docs/architecture.md with its reason; removing one
// from the code means removing it here too (a stale exception is reported as unused).

const SRV = 'apps/server/src';
const MOD = `${SRV}/modules`;
const WEB = 'apps/web/src';
const WMOD = `${WEB}/modules`;

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

/**
 * The web's upward imports that stay for now, file to file (paths under apps/web/src/modules/),
 * each listed in docs/architecture.md. The web modules stand on the server's floors (FLOORS).
 */
const WEB_EXCEPTIONS = [
  {
    from: 'production/flow-card/flow-card-detail.tsx',
    to: 'quality/flow-card-measurements.tsx',
    why: "the flow-card drawer shows the card's measurements (测量记录) as one of its sections",
  },
  {
    from: 'production/flow-card/flow-card-detail.tsx',
    to: 'quality/trace/trace-view.tsx',
    why: "the flow-card drawer's 质量追溯 section and heat tags are the trace view (the server's production/trace.ts)",
  },
  {
    from: 'warehouse/outbound.pages.tsx',
    to: 'quality/trace/trace.api.ts',
    why: "追溯 on a posted 销售出库 line opens the trace drawer on that line (its target's type)",
  },
  {
    from: 'warehouse/outbound.pages.tsx',
    to: 'quality/trace/trace.page.tsx',
    why: '追溯 on a posted 销售出库 line opens the trace drawer on that line (a lazy chunk)',
  },
];

/**
 * Web import circles that remain (paths under apps/web/src/), each inside one folder and each
 * closed by a lazy chunk or a type (docs/architecture.md).
 */
const WEB_ALLOWED_CIRCLES = [
  // The kit's route table loads its list, form and detail pages lazily; they read its routes.
  [
    'platform/resource/routes.ts',
    'platform/resource/resource-list.tsx',
    'platform/resource/resource-list.page.tsx',
    'platform/resource/resource-form.page.tsx',
    'platform/resource/resource-detail.page.tsx',
  ],
  // The record dialogs load the detail drawer lazily; the drawer shows the lifecycle actions.
  [
    'platform/resource/dialogs.tsx',
    'platform/resource/lifecycle-actions.tsx',
    'platform/resource/resource-detail.tsx',
  ],
  // The generated reference targets are typed by the module that reads them (a type import).
  ['platform/resource/ref-targets.ts', 'platform/resource/ref-targets.generated.ts'],
  // 测量录入's import dialog takes the entry page's header type (a type import).
  ['modules/quality/measure-entry.page.tsx', 'modules/quality/measure-import.tsx'],
];

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const floorOf = (m) => FLOORS.findIndex((f) => f.includes(m));

/**
 * One rule per (module, module on its floor or above) under the modules folder `MOD`;
 * exceptions split out file by file.
 */
function layerRules(MOD, EXCEPTIONS, side) {
  const rules = [];
  for (const from of FLOORS.flat()) {
    for (const to of FLOORS.flat()) {
      if (from === to || floorOf(to) < floorOf(from)) continue;
      const how = floorOf(to) === floorOf(from) ? 'on its own floor' : 'above it';
      const name = `${side}${from}-not-to-${to}`;
      const comment = `${MOD}/${from} may not import ${MOD}/${to} (${how}): an upward need goes through a hook the lower module owns (docs/architecture.md, import rules 4 and 5)`;
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
const webCircleFiles = WEB_ALLOWED_CIRCLES.flat().map((f) => `^${esc(`${WEB}/${f}`)}$`);

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
    ...layerRules(MOD, EXCEPTIONS, ''),
    {
      name: 'no-circular',
      comment:
        'no import circle on the server beyond the ones docs/architecture.md names (ALLOWED_CIRCLES in .dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: `^${SRV}/`, pathNot: circleFiles },
      to: { circular: true },
    },
    {
      name: 'web-platform-imports-no-module',
      comment:
        'apps/web/src/platform is the bottom layer of the web: it imports no module, no shell page (pages/), nothing of the composition root (app/, main.tsx) (rule 2)',
      severity: 'error',
      from: { path: `^${WEB}/platform/` },
      to: { path: `^${WEB}/(modules|pages|app)/|^${WEB}/main\\.tsx$` },
    },
    {
      name: 'web-app-imported-by-main-only',
      comment:
        'apps/web/src/app is the composition root (router, page registry, shell): only main.tsx imports it; session, navigation, tabs and page props are in platform/ (rule 3)',
      severity: 'error',
      from: { path: `^${WEB}/`, pathNot: `^${WEB}/(app/|main\\.tsx$)` },
      to: { path: `^${WEB}/app/` },
    },
    {
      name: 'web-pages-imported-by-app-only',
      comment:
        "apps/web/src/pages (login, 首页, errors, the 建设中 placeholder) are the shell's own pages: only app/ opens them (rule 3)",
      severity: 'error',
      from: { path: `^${WEB}/`, pathNot: `^${WEB}/(app|pages)/` },
      to: { path: `^${WEB}/pages/` },
    },
    ...layerRules(WMOD, WEB_EXCEPTIONS, 'web-'),
    {
      name: 'web-no-circular',
      comment:
        'no import circle in the web app beyond the ones docs/architecture.md names (WEB_ALLOWED_CIRCLES in .dependency-cruiser.cjs)',
      severity: 'error',
      from: { path: `^${WEB}/`, pathNot: webCircleFiles },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'default'] },
  },
};
// For scripts/import-rules.mjs, which reports an exception no longer used (not a config key:
// dependency-cruiser refuses unknown ones).
Object.defineProperty(module.exports, 'ringmes', {
  value: { EXCEPTIONS, ALLOWED_CIRCLES, WEB_EXCEPTIONS, WEB_ALLOWED_CIRCLES },
  enumerable: false,
});
