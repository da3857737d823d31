// Bundles the server (and the workspace packages it imports as TypeScript) into dist/main.js;
// npm dependencies stay external and load from node_modules. Then makes dist/pgdata-template, the
// migrated empty embedded database a new data directory starts from.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const path = (p) => new URL(p, import.meta.url).pathname;
// The release in the bundle (platform/ops/version.ts): /api/health, /metrics and the log show it.
const rootPkg = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
let commit = process.env.GIT_COMMIT ?? '';
try {
  commit ||= execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
} catch {
  // not a git checkout (a release tarball): GIT_COMMIT at run time, else "unknown"
}
const options = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@ringmes/')),
  logLevel: 'warning',
  define: {
    __RINGMES_VERSION__: JSON.stringify(rootPkg.version),
    __RINGMES_COMMIT__: JSON.stringify(commit),
  },
};
await build({ ...options, entryPoints: [path('../src/main.ts')], outfile: path('../dist/main.js') });
// `npm run ringmes -- …`: backup, restore, migrate-to-postgres, migrate (docs/operations.md).
await build({ ...options, entryPoints: [path('../src/cli.ts')], outfile: path('../dist/cli.js') });
await build({
  ...options,
  entryPoints: [path('../src/platform/db/make-template.ts')],
  outfile: path('../dist/make-template.js'),
});
console.log('server bundle: apps/server/dist/main.js');
execFileSync(process.execPath, [path('../dist/make-template.js'), path('../dist/pgdata-template')], {
  stdio: 'inherit',
});
