import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.ts';
import { openDatabase } from './platform/db/db.ts';
import { migrate } from './platform/db/migrate.ts';
import { checkSetup, createAdmin, resetPassword } from './platform/ops/accounts.ts';
import { restoreBackup, writeBackup } from './platform/ops/backup.ts';
import { copyDatabase } from './platform/ops/move.ts';

/**
 * `npm run ringmes -- <command>`: the operator's jobs (docs/operations.md). Reads the same
 * environment as the server (DATABASE_URL, DATA_DIR, ATTACHMENT_DIR, EXPORT_DIR, …).
 *
 *   backup [file]                 one archive of the database, attachments, exports and secret key
 *   restore <file> [--force]      into an empty database / data directory (--force replaces)
 *   migrate-to-postgres <url>     copy the embedded database (DATA_DIR, server stopped) into an empty PostgreSQL database
 *   migrate                       apply pending migrations and print the schema version
 *   admin:create <用户名>          a new 超级管理员 (password from RINGMES_PASSWORD, else generated and printed once)
 *   user:reset-password <用户名>   a new password (RINGMES_PASSWORD or generated), sessions and lockout ended
 *   check                         configuration, database, migrations, file stores (exit 1 when any fails)
 */
const [command, ...args] = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const [arg] = args.filter((a) => !a.startsWith('--'));
const config = loadConfig();
const say = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(o)}\n`);
const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** The pid holding DATA_DIR (a running embedded server), or undefined. */
function runningServer(): number | undefined {
  const lock = path.join(config.dataDir, 'ringmes.lock');
  if (!fs.existsSync(lock)) return undefined;
  const pid = Number(fs.readFileSync(lock, 'utf8'));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** A running embedded server makes the backup itself (SIGUSR2 with a request file; main.ts). */
async function backupThroughServer(pid: number, out: string) {
  const request = path.join(config.dataDir, 'backup-request.json');
  const result = path.join(config.dataDir, 'backup-result.json');
  fs.rmSync(result, { force: true });
  fs.writeFileSync(request, JSON.stringify({ out: path.resolve(out) }), { mode: 0o600 });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 6 * 3_600_000;
  while (Date.now() < deadline) {
    if (fs.existsSync(result)) {
      const r = JSON.parse(fs.readFileSync(result, 'utf8'));
      fs.rmSync(result, { force: true });
      if (r.error) throw new Error(r.error);
      return r;
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('运行中的服务器未完成备份');
}

async function main() {
  switch (command) {
    case 'backup': {
      const out = arg ?? `ringmes-backup-${stamp()}.tar.gz`;
      const pid = config.databaseUrl ? undefined : runningServer();
      if (pid) {
        say({ msg: `备份由运行中的服务器（PID ${pid}）完成`, ...(await backupThroughServer(pid, out)) });
        return;
      }
      const database = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolMax: 2,
      });
      try {
        const r = await writeBackup(database, config, out);
        say({
          msg: '备份完成',
          file: r.file,
          bytes: r.bytes,
          ms: r.ms,
          tables: Object.keys(r.manifest.tables).length,
          note: r.note,
        });
      } finally {
        await database.close();
      }
      return;
    }
    case 'restore': {
      if (!arg) throw new Error('用法：restore <备份文件> [--force]');
      const r = await restoreBackup(arg, config, { force: flags.has('--force') });
      say({ msg: '恢复完成，行数与文件校验一致', tables: r.tables, rows: r.rows, files: r.files, ms: r.ms });
      return;
    }
    case 'migrate-to-postgres': {
      if (!arg) throw new Error('用法：migrate-to-postgres postgres://用户@主机:端口/数据库');
      if (runningServer()) throw new Error('请先停止使用该数据目录的服务器');
      const source = await openDatabase({ dataDir: config.dataDir });
      const target = await openDatabase({ databaseUrl: arg, poolMax: 2 });
      try {
        const r = await copyDatabase(source.db, target.db);
        say({ msg: r.differences.length ? '迁移后数据不一致' : '迁移完成，逐表行数与校验和一致', ...r });
        if (r.differences.length) process.exitCode = 1;
      } finally {
        await Promise.all([source.close(), target.close()]);
      }
      return;
    }
    case 'migrate': {
      const database = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolMax: 1,
      });
      try {
        const applied = await migrate(database.db);
        say({ msg: '迁移完成', applied });
      } finally {
        await database.close();
      }
      return;
    }
    case 'admin:create':
    case 'user:reset-password': {
      if (!arg) throw new Error(`用法：${command} <用户名>（密码取环境变量 RINGMES_PASSWORD，未设置则生成）`);
      const database = await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        poolMax: 1,
      });
      try {
        const password = process.env.RINGMES_PASSWORD || undefined;
        const r =
          command === 'admin:create'
            ? await createAdmin(database.db, arg, password)
            : await resetPassword(database.db, arg, password);
        say({
          msg: command === 'admin:create' ? '管理员已创建' : '密码已重置，该用户的会话已全部结束',
          userId: r.userId,
          userName: r.userName,
          ...(r.generatedPassword
            ? { password: r.generatedPassword, note: '密码只显示这一次，请登录后修改' }
            : {}),
        });
      } finally {
        await database.close();
      }
      return;
    }
    case 'check': {
      let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
      let openError: string | undefined;
      if (!config.databaseUrl && runningServer()) {
        openError = `嵌入式数据库正由运行中的服务器（PID ${runningServer()}）使用：请查看 /api/ready`;
      } else {
        try {
          database = await openDatabase({
            databaseUrl: config.databaseUrl,
            dataDir: config.dataDir,
            poolMax: 1,
          });
        } catch (e) {
          openError = e instanceof Error ? e.message : String(e);
        }
      }
      try {
        const r = await checkSetup(config, database, openError);
        for (const i of r.items) say({ check: i.name, ok: i.ok, detail: i.detail });
        if (!r.ok) process.exitCode = 1;
      } finally {
        await database?.close();
      }
      return;
    }
    default:
      process.stderr.write(
        '用法：npm run ringmes -- backup [文件] | restore <文件> [--force] | migrate-to-postgres <postgres-url> | migrate | admin:create <用户名> | user:reset-password <用户名> | check\n',
      );
      process.exitCode = 2;
  }
}

main().catch((err) => {
  process.stderr.write(
    `${JSON.stringify({ level: 50, msg: err instanceof Error ? err.message : String(err) })}\n`,
  );
  process.exit(1);
});
