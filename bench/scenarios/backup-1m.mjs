// Issue 40: how long `npm run ringmes -- backup` and `restore` take on a PostgreSQL database of
// 1,000,000 work reports (the production-reports bench's data: 10,000 orders, 20,000 flow cards,
// 640,000 card steps), and that the restored database holds every row (the restore checks each
// table's count against the manifest; here the work reports are counted again).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freshPgDatabase, pg, pgExec, ROOT, startServer } from '../lib.mjs';
import { LOAD_SQL } from './production-reports.mjs';

const REPORTS = Number(process.env.BENCH_WORK_REPORTS) || 1_000_000;
const CLI = path.join(ROOT, 'apps/server/dist/cli.js');

const count = async (url) => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*) FROM work_report')).rows[0].count);
  } finally {
    await c.end();
  }
};

export default {
  name: 'backup-1m',
  description: `ringmes backup and restore of a PostgreSQL database with ${REPORTS.toLocaleString('en')} work reports`,
  async run(ctx) {
    const source = await freshPgDatabase(ctx);
    const target = await freshPgDatabase(ctx);
    // Migrated and seeded by a first start, then loaded in SQL.
    const server = await startServer(ctx, {
      DATABASE_URL: source.url,
      SEED: 'minimal',
      ADMIN_PASSWORD: 'Bench#2024pw',
    });
    await server.stop();
    let t0 = performance.now();
    for (const s of LOAD_SQL) await pgExec(source.url, s);
    ctx.log(`loaded ${REPORTS} work reports in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-bench-backup-'));
    ctx.onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'backup.tar.gz');
    const env = (url, data) => ({
      ...process.env,
      DATABASE_URL: url,
      DATA_DIR: path.join(dir, data),
      LOG_LEVEL: 'warn',
    });
    t0 = performance.now();
    execFileSync(process.execPath, [CLI, 'backup', file], { env: env(source.url, 'a'), stdio: 'pipe' });
    const backupMs = performance.now() - t0;
    const bytes = fs.statSync(file).size;
    t0 = performance.now();
    execFileSync(process.execPath, [CLI, 'restore', file], { env: env(target.url, 'b'), stdio: 'pipe' });
    const restoreMs = performance.now() - t0;
    const [a, b] = [await count(source.url), await count(target.url)];
    ctx.log(
      `backup ${(backupMs / 1000).toFixed(1)} s (${(bytes / 1048576).toFixed(1)} MB), restore ${(restoreMs / 1000).toFixed(1)} s; work reports ${a} → ${b}`,
    );
    return [
      {
        metric: `backup of ${REPORTS.toLocaleString('en')} work reports (pg_dump in a snapshot + manifest)`,
        value: Math.round(backupMs / 100) / 10,
        unit: 's',
      },
      { metric: 'archive size', value: Math.round(bytes / 104857.6) / 10, unit: 'MB' },
      {
        metric: 'restore into an empty database, counts checked',
        value: Math.round(restoreMs / 100) / 10,
        unit: 's',
      },
      {
        metric: 'work reports missing after restore',
        value: a - b,
        unit: '',
        target: '0',
        pass: a === b && b === REPORTS,
      },
    ];
  },
};
