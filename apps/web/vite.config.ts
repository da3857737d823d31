import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const require = createRequire(import.meta.url);
// react-router's package exports resolve to its development bundle; production builds use the
// production bundle it ships next to it (no dev warnings, about a third smaller).
const reactRouterDir = dirname(require.resolve('react-router/package.json'));

/** The modules of the first visit: the login page, then the shell with its first page, 首页. */
const FIRST_VISIT = ['src/pages/login.page.tsx', 'src/app/shell/shell.tsx', 'src/pages/home.page.tsx'];
const FRAMEWORK = /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|dayjs|js-cookie)[\\/]/;

const backend = process.env.RINGMES_API ?? 'http://localhost:8080';
const proxied = ['/api', '/common', '/vue-element-admin'];

/**
 * The web app is served by the API server from `apps/web/dist` (history mode: the server
 * answers index.html for unknown non-API paths). In development Vite proxies the API paths.
 */
/**
 * The shared domain package is plain data and pure functions: mark its modules free of side
 * effects so the bundle keeps only what the web app imports (the menu tree, not every resource
 * definition reachable through the package's barrel file).
 */
const domainIsPure = {
  name: 'ringmes-domain-is-pure',
  transform(code: string, id: string) {
    if (id.includes('/packages/domain/src/')) return { code, map: null, moduleSideEffects: false };
    return null;
  },
};

/** The module of the list kit whose static imports make up the `kit` chunk. */
const KIT = join(dirname(fileURLToPath(import.meta.url)), 'src/platform/resource/resource-list.tsx');

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The app modules `root` imports statically, directly or through other app modules. */
function appClosure(graph: ModuleGraph, root: string): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id) || !id.includes('/apps/web/src/')) return;
    seen.add(id);
    for (const dep of graph.getModuleInfo(id)?.importedIds ?? []) visit(dep);
  };
  visit(root);
  return seen;
}

export default defineConfig(({ mode }) => {
  let kit: Set<string> | undefined;
  return {
    plugins: [react(), domainIsPure],
    resolve: {
      alias:
        mode === 'production'
          ? [{ find: /^react-router$/, replacement: join(reactRouterDir, 'dist/production/index.mjs') }]
          : [],
    },
    server: {
      port: 5173,
      proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
    },
    preview: {
      proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 700,
      // The manifest lets scripts/report-size.mjs compute first-load JS from the real graph.
      manifest: true,
      rolldownOptions: {
        // The pages of the first visit (login, shell, 首页) are entries as well as lazy chunks, so
        // that Rolldown tags what they import statically as `$initial` (after tree-shaking, so an
        // `import { Button } from 'antd'` counts the button and not the barrel's other exports).
        input: {
          index: 'index.html',
          ...Object.fromEntries(FIRST_VISIT.map((p) => [p.split('/').pop()?.replace(/\..*$/, ''), p])),
        },
        preserveEntrySignatures: 'allow-extension',
        output: {
          // The first visit (login page → shell → 首页) runs three shared chunks holding exactly
          // what it imports: React and the router; the Ant Design components and icons it renders;
          // the app's own modules. A list page adds the kit, the definitions and its own chunks.
          // A few files instead of some sixty tiny ones, each costing a request and ~1 KB of
          // response headers; nothing only a later page uses is forced into the first visit.
          codeSplitting: {
            groups: [
              { name: 'framework', test: FRAMEWORK, tags: ['$initial'], priority: 20 },
              { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 10 },
              {
                name: 'app',
                test: /(apps[\\/]web|packages[\\/]domain)[\\/]src[\\/]/,
                tags: ['$initial'],
                priority: 5,
              },
              // The master-data declarations (packages/domain/src/master-data: materials, units,
              // customers, suppliers, warehouses, workshops…) with the small modules they import,
              // one file: every area's pages reference them. The other areas' declarations are
              // split by Rolldown by the pages that import them, so a page loads its own area's
              // and none of the rest (not the registry of every definition either).
              {
                name: 'definitions',
                test: /packages[\\/]domain[\\/]src[\\/]master-data[\\/][^\\/]+\.ts$/,
                priority: 2,
              },
              // Everything a resource list paints with beyond the first visit's chunks (the list
              // kit's own modules with the Ant Design table, select and icons they use), in one
              // file rather than some thirty.
              {
                name: (id: string, graph: ModuleGraph) => {
                  kit ??= appClosure(graph, KIT);
                  return kit.has(id) ? 'kit' : null;
                },
                priority: 1,
              },
            ],
          },
        },
      },
    },
  };
});
