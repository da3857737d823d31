// `npm run serve`: the production start. Runs what `npm run build` made and never builds, so it
// needs the production dependencies only (`npm ci --omit=dev`, docs/operations.md "Production").
// NODE_ENV defaults to production: an empty database is then seeded `minimal` (admin with a
// generated password), never the demo factory, unless SEED says otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const missing = ['apps/server/dist/main.js', 'apps/web/dist/index.html'].filter(
  (f) => !fs.existsSync(path.join(root, f)),
);
if (missing.length) {
  process.stderr.write(
    `${JSON.stringify({ level: 60, time: Date.now(), msg: `未找到构建产物 ${missing.join('、')}：请先在装有开发依赖的环境运行 npm run build（见 docs/operations.md）` })}\n`,
  );
  process.exit(1);
}
process.env.NODE_ENV ??= 'production';
await import('./run-server.mjs');
