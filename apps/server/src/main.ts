import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { pino } from 'pino';
import { buildApp } from './app.ts';
import { defaultSeed, loadConfig } from './config.ts';
import { startMaintenanceScan } from './modules/equipment/equipment-alerts.ts';
import { openDatabase } from './platform/db/db.ts';
import { migrate } from './platform/db/migrate.ts';
import { startPgliteMaintenance } from './platform/db/pglite-maintenance.ts';
import { logRedaction } from './platform/http/edge.ts';
import { backupOnRequest } from './platform/ops/backup.ts';
import { scheduleBackups } from './platform/ops/backup-schedule.ts';
import { scheduleHousekeeping } from './platform/ops/housekeeping.ts';
import { RELEASE } from './platform/ops/version.ts';
import { DEMO_PASSWORD, seed } from './seed/index.ts';

/** A generated admin password goes to a file only its owner reads, never to the log. */
function keepInitialPassword(dataDir: string, password: string): string {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'initial-admin-password.txt');
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return file;
}

/** `npm start`: open the database, migrate, seed, serve. */
export async function main() {
  const started = Date.now();
  // V8 allocates straight into the old generation from a site whose objects it saw survive a
  // scavenge. Under list load the rows read from the database (pg's row objects, parsed arrays and
  // timestamps) were caught in flight and their sites pretenured: every later row went to the old
  // generation, which then ran a Mark-Compact several times a second with long scavenges. Without
  // pretenuring full collections are rare and scavenges short, and the list throughput and tail
  // latency reach the bare handler's (bench auth-overhead).
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
  const config = loadConfig();
  // One JSON log for the whole process: these lines, Fastify's and the access log.
  const log = pino({ level: config.logLevel, ...logRedaction });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    // Beside the bundle (dist/main.js); the source tree has none and runs initdb.
    template: fileURLToPath(new URL('./pgdata-template', import.meta.url)),
    poolMax: config.pgPoolMax,
    replicaUrl: config.databaseReplicaUrl,
    replicaMaxLagMs: config.replicaMaxLagMs,
    log: (msg, err) => log.error({ err }, msg),
  });
  let closing = false;
  let stopMaintenance = () => {};
  let stopHousekeeping = () => {};
  let stopBackups = () => {};
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // At warn: an operator running with LOG_LEVEL=warn still sees why the server stopped.
    log.warn({ signal }, `收到 ${signal}，正在关闭…`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      stopMaintenance();
      stopHousekeeping();
      stopBackups();
      await app?.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    const applied = await migrate(database.db);
    if (applied.length) log.info({ migrations: applied }, `已应用迁移：${applied.join(', ')}`);
    seeded = await seed(database.db, { ...config, seed: defaultSeed(config) }, (msg) => log.info(msg));
    app = await buildApp(database, config, { loggerInstance: log });
    // 保养逾期 messages: at start and every 15 minutes (idempotent per plan and due date). Its
    // close hook has to be added before listening.
    startMaintenanceScan(app);
    await app.listen({ port: config.port, host: config.host });
    // Embedded mode: statistics for a database that has none, VACUUM (ANALYZE) every six hours.
    stopMaintenance = startPgliteMaintenance(database, app.log);
    const jobRuns = app.ringmesMetrics.jobRuns;
    // `npm run ringmes -- backup` on the embedded database, which only this process may open.
    process.on('SIGUSR2', () => {
      void backupOnRequest(database, config, log).then((outcome) => {
        if (outcome !== 'none') jobRuns.inc({ job: 'backup', outcome });
      });
    });
    if (config.backup)
      stopBackups = scheduleBackups(database, config, config.backup, app.log, (outcome) =>
        jobRuns.inc({ job: 'scheduled-backup', outcome }),
      );
    stopHousekeeping = scheduleHousekeeping(database.db, config.retention, config, app.log, (outcome) =>
      jobRuns.inc({ job: 'housekeeping', outcome }),
    );
    // From here the old generation grows to 1.3 × what lives after a full collection before the
    // next one (V8's own factor lets it grow several times over). A big export or report makes
    // hundreds of MB of short-lived rows that outlive a scavenge; with V8's factor they piled up in
    // RSS over a 1,000,000-row export, with this one they are collected (bench export-1m). The flag
    // is read at every full collection; set only now, it does not slow the start's own growth of
    // the heap.
    v8.setFlagsFromString('--heap-growing-percent=30');
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shown}:${config.port}`;
  log.info(
    {
      url,
      db: database.kind,
      dataDir: database.kind === 'pglite' ? config.dataDir : undefined,
      seed: seeded.mode,
      ...RELEASE,
      startMs: Date.now() - started,
    },
    `RingMES ${RELEASE.version} 已启动：${url}（数据库：${database.kind === 'pglite' ? `内嵌 PGlite，${config.dataDir}` : 'PostgreSQL'}，用时 ${((Date.now() - started) / 1000).toFixed(1)} 秒）`,
  );
  if (seeded.generatedAdminPassword) {
    const file = keepInitialPassword(config.dataDir, seeded.generatedAdminPassword);
    log.warn(
      { file },
      `管理员账号 admin 的初始密码已写入 ${file}（仅本用户可读）；登录后请修改密码并删除该文件`,
    );
  } else if (seeded.mode === 'demo') {
    log.info(`演示登录：admin / ${config.adminPassword || 'admin123'}`);
    log.info(`各角色演示账号 sales01、plan01、head01、op01、wh01、qc01、fin01、buy01，密码 ${DEMO_PASSWORD}`);
  }
}

main().catch((err) => {
  // The logger may not exist yet (a bad configuration): one JSON line by hand.
  const msg = `启动失败：${err instanceof Error ? err.message : err}`;
  process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), msg })}\n`);
  process.exit(1);
});
