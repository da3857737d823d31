// `npm test`: lint, type check, import rules, unit + API integration tests (Vitest), browser flows
// (Playwright in the system Chromium). With TEST_DATABASE_URL set (a PostgreSQL server URL),
// the API suite and the browser flows run against fresh databases on that server instead of
// the embedded PGlite. Ends with one summary line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-test-'));
const only = process.argv.slice(2);
// Steps: lint, typecheck, imports, unit, e2e (`npm test -- lint imports` runs only those).
const want = (step) => only.length === 0 || only.includes(step);
let passed = 0;
let failed = 0;
let broken = false;

function run(name, cmd, args, env = {}) {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`✗ ${name} failed (exit ${r.status})`);
    broken = true;
  }
  return r.status === 0;
}

const db = process.env.TEST_DATABASE_URL
  ? `PostgreSQL (${new URL(process.env.TEST_DATABASE_URL).host})`
  : 'embedded PGlite';
console.log(`RingMES tests on ${db}`);

if (want('lint')) run('lint', 'npx', ['biome', 'check', '.']);
if (want('typecheck')) run('typecheck', 'npm', ['run', 'typecheck', '--workspaces', '--if-present']);
// The import rules of docs/architecture.md (dependency-cruiser, .dependency-cruiser.cjs).
if (want('imports')) run('import rules', 'node', ['scripts/import-rules.mjs']);

if (want('unit')) {
  const file = path.join(out, 'vitest.json');
  run('unit and API tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ]);
  if (fs.existsSync(file)) {
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += j.numPassedTests;
    failed += j.numFailedTests;
  } else broken = true;
}

if (want('e2e') && fs.existsSync(path.join(root, 'e2e/playwright.config.ts'))) {
  const file = path.join(out, 'playwright.json');
  run(
    'browser flows',
    'npx',
    ['playwright', 'test', '--config', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    },
  );
  if (fs.existsSync(file)) {
    const s = JSON.parse(fs.readFileSync(file, 'utf8')).stats ?? {};
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
  } else broken = true;
}

fs.rmSync(out, { recursive: true, force: true });
if (broken && failed === 0) failed = 1; // a step failed outside the counted tests (lint, types, a crash)
console.log(`\nresult: ${passed} passed, ${failed} failed`);
process.exit(failed || broken ? 1 : 0);
