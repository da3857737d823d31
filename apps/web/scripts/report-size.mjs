#!/usr/bin/env node
/**
 * First-load JavaScript budget (issue 3): after `vite build`, walks the build manifest and
 * prints the gzip size of what the browser must download before the login page and the shell
 * can render: the entry chunk and its static imports, plus the route chunk and its static
 * imports. Fails when either exceeds the budget.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 250;
const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry chunk in the manifest');

/** Every JS file a chunk needs before it can run: itself and its static imports, transitively. */
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

function keyFor(suffix) {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix} in the manifest`);
  return key;
}

const cache = new Map();
function gzipSize(file) {
  if (!cache.has(file)) cache.set(file, gzipSync(readFileSync(join(dist, file))).length);
  return cache.get(file);
}

function measure(label, keys) {
  const files = closure(keys);
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    raw += readFileSync(join(dist, f)).length;
    gz += gzipSize(f);
  }
  return { label, files: files.size, rawKb: raw / 1024, gzipKb: gz / 1024 };
}

const rows = [
  measure('entry only', [entryKey]),
  measure('login page (entry + login chunk)', [entryKey, keyFor('src/pages/login.page.tsx')]),
  measure('shell (entry + shell chunk)', [entryKey, keyFor('src/app/shell/shell.tsx')]),
  measure('shell + 用户管理 page', [
    entryKey,
    keyFor('src/app/shell/shell.tsx'),
    keyFor('src/modules/system/user/user-manage.page.tsx'),
  ]),
];

const jsChunks = Object.values(manifest).filter((c) => c.file.endsWith('.js')).length;
console.log(`\nFirst-load JavaScript (gzip, budget ${BUDGET_KB} KB) — ${jsChunks} JS chunks in the build`);
for (const r of rows) {
  console.log(
    `  ${r.label.padEnd(36)} ${r.gzipKb.toFixed(1).padStart(7)} KB gzip  (${r.rawKb.toFixed(1)} KB raw, ${r.files} files)`,
  );
}

const checked = rows.filter((r) => r.label.startsWith('login') || r.label.startsWith('shell ('));
const over = checked.filter((r) => r.gzipKb > BUDGET_KB);
if (over.length) {
  console.error(
    `\nFirst-load budget exceeded: ${over.map((r) => `${r.label} ${r.gzipKb.toFixed(1)} KB`).join(', ')}`,
  );
  process.exit(1);
}
console.log(`  within budget (≤ ${BUDGET_KB} KB gzip)\n`);
