// `npm start`: build what is missing or older than its sources, then run the server
// (which migrates, seeds an empty database and serves the web app and /api on PORT). In
// production `npm run serve` (scripts/serve.mjs) runs what `npm run build` made, without building.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  const st = fs.statSync(dir);
  if (!st.isDirectory()) return st.mtimeMs;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

function stale(output, sources) {
  if (!fs.existsSync(output)) return true;
  const built = fs.statSync(output).mtimeMs;
  return sources.some((s) => newest(path.join(root, s)) > built);
}

const domain = 'packages/domain/src';
const steps = [
  {
    name: 'web',
    output: 'apps/web/dist/index.html',
    sources: ['apps/web/src', 'apps/web/index.html', domain],
    cmd: 'npm run build -w apps/web',
  },
  {
    name: 'server',
    output: 'apps/server/dist/main.js',
    sources: ['apps/server/src', domain],
    cmd: 'npm run build -w apps/server',
  },
];
for (const s of steps) {
  if (stale(path.join(root, s.output), s.sources)) {
    console.log(`[ringmes] 正在构建 ${s.name}…`);
    execSync(s.cmd, { cwd: root, stdio: 'inherit' });
  }
}
await import('./run-server.mjs');
