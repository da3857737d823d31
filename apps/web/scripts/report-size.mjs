#!/usr/bin/env node
/**
 * JavaScript budget (issue 10), printed after `vite build` and `scripts/compress.mjs`: the union
 * of the JS files the browser needs from the login page to the rendered shell (entry, login page,
 * shell, the 首页 page, each with its static imports), and a list page's own files on top of
 * that, in brotli bytes (what the server sends; `.br` beside each file) and raw.
 * These are the static-import closures from the build manifest; `npm run bench -- sign-in`
 * measures the same in the browser, response headers included, and is the gate (PASS/FAIL).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET = { shell: 250, list: 120 };
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

// index.html's script; the login page, the shell and 首页 are build entries too (vite.config.ts).
const entryKey = manifest['index.html']?.isEntry
  ? 'index.html'
  : Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry chunk in the manifest');

function keyFor(suffix) {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix} in the manifest`);
  return key;
}

/** Every JS file the chunks need before they can run: themselves and their static imports. */
function closure(keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`chunk ${key} missing from the manifest`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  keys.forEach(visit);
  return files;
}

function size(files) {
  let raw = 0;
  let br = 0;
  for (const f of files) {
    const p = join(dist, f);
    const r = statSync(p).size;
    raw += r;
    br += existsSync(`${p}.br`) ? statSync(`${p}.br`).size : r;
  }
  return { files: files.size, rawKb: raw / 1024, brKb: br / 1024 };
}

const shell = closure([
  entryKey,
  keyFor('src/pages/login.page.tsx'),
  keyFor('src/app/shell/shell.tsx'),
  keyFor('src/pages/home.page.tsx'),
]);
const listAll = closure([
  keyFor('src/modules/factory/factory-pages.ts'),
  keyFor('src/modules/factory/material/material-list.page.tsx'),
]);
const listOwn = new Set([...listAll].filter((f) => !shell.has(f)));

const rows = [
  { label: 'login page → shell (union)', ...size(shell), budget: BUDGET.shell },
  { label: '物料列表 on top of the shell', ...size(listOwn), budget: BUDGET.list },
];
const jsChunks = Object.values(manifest).filter((c) => c.file.endsWith('.js')).length;
console.log(`\nJavaScript sent (brotli, as served) — ${jsChunks} JS chunks in the build`);
for (const r of rows) {
  const over = r.brKb > r.budget;
  console.log(
    `  ${r.label.padEnd(30)} ${r.brKb.toFixed(1).padStart(7)} KB brotli  (${r.rawKb.toFixed(1)} KB raw, ${r.files} files)  budget ≤ ${r.budget} KB: ${over ? 'OVER' : 'within'}`,
  );
}
console.log('  (static imports only; `npm run bench -- sign-in` measures what the browser fetches)\n');
