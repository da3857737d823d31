import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const require = createRequire(import.meta.url);
// react-router's package exports resolve to its development bundle; production builds use the
// production bundle it ships next to it (no dev warnings, about a third smaller).
const reactRouterDir = dirname(require.resolve('react-router/package.json'));

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

export default defineConfig(({ mode }) => ({
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
    // Two shared chunks for what the login page and the shell need anyway (React and the router;
    // Ant Design's core with the few components the login page and the shell use), instead of
    // some sixty tiny chunks, each costing a request and ~1 KB of response headers.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|dayjs|js-cookie)[\\/]/,
              priority: 20,
            },
            {
              name: 'antd-core',
              test: /node_modules[\\/](antd[\\/]es[\\/](config-provider|theme|style|_util|locale|version|button|grid|form|input|space|tooltip|alert|layout|menu|popover|tag|message|dropdown|avatar|badge|drawer)[\\/]|@ant-design[\\/](cssinjs|cssinjs-utils|colors|fast-color)[\\/]|@rc-component[\\/](util|motion|trigger|portal|resize-observer|overflow|menu|form|async-validator|input|tooltip|dropdown|drawer)[\\/]|stylis|@babel[\\/]runtime|clsx|compute-scroll|scroll-into-view)/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
}));
