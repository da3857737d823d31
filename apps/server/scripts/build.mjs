// Bundles the server (and the workspace packages it imports as TypeScript) into dist/main.js;
// npm dependencies stay external and load from node_modules.
import fs from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
  outfile: new URL('../dist/main.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@ringmes/')),
  logLevel: 'warning',
});
console.log('server bundle: apps/server/dist/main.js');
