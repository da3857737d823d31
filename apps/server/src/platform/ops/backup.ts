import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { type Database, type Db, openDatabase } from '../db/db.ts';
import { RELEASE } from './version.ts';

const run = promisify(execFile);

/**
 * What a backup archive holds (`manifest.json` at its root): the release and schema it was taken
 * from, every table's row count in the dumped database and every file's size and SHA-256, so that
 * a restore is checked against it.
 */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  version: string;
  commit: string;
  db: Database['kind'];
  schema: string | null;
  tables: Record<string, number>;
  /** Paths inside the archive (`attachments/…`, `exports/…`, `api-secret.key`). */
  files: Record<string, { bytes: number; sha256: string }>;
  /** Attachments in an S3 bucket are not in the archive: the bucket keeps its own versions. */
  attachments: 'files' | 's3';
  /** Finished exports in the bucket (`<prefix>exports/`) are not in the archive either (absent: files). */
  exports?: 'files' | 's3';
  /** Where the key of the third-party app secrets lives: the archive, or API_SECRET_KEY (not stored). */
  secretKey: 'file' | 'env' | 'none';
}

/** Exact row counts of every table of the public schema. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = (
    await sql<{
      name: string;
    }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`.execute(db)
  ).rows.map((r) => r.name);
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const r = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(t)}`.execute(db);
    counts[t] = Number(r.rows[0].n);
  }
  return counts;
}

async function lastMigration(db: Db): Promise<string | null> {
  const r = await sql<{ name: string | null }>`SELECT max(name) AS name FROM schema_migration`.execute(db);
  return r.rows[0]?.name ?? null;
}

function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash('sha256');
    fs.createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

/** Every file under `root`, as paths relative to it. */
function walk(root: string, rel = ''): string[] {
  const dir = path.join(root, rel);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(rel, e.name);
    if (e.isDirectory()) return walk(root, p);
    return e.isFile() ? [p] : [];
  });
}

async function copyTree(from: string, to: string, prefix: string, files: BackupManifest['files']) {
  for (const rel of walk(from)) {
    const dest = path.join(to, rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    // A file still being written (a running export) may vanish or change: what was there is taken.
    try {
      fs.copyFileSync(path.join(from, rel), dest);
    } catch {
      continue;
    }
    files[path.posix.join(prefix, rel.split(path.sep).join('/'))] = {
      bytes: fs.statSync(dest).size,
      sha256: await sha256(dest),
    };
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  manifest: BackupManifest;
  /** What the archive leaves out: with S3 configured, the attachments and exports in the bucket. */
  note?: string;
}

type BackupConfig = Pick<
  Config,
  'dataDir' | 'exportDir' | 'attachmentDir' | 's3' | 'apiSecretKey' | 'databaseUrl'
>;

/**
 * Writes one `.tar.gz` archive of the database, the attachments, the export files and the secret
 * key, consistent while the server runs:
 * - PostgreSQL: `pg_dump -Fc` (one snapshot), with the counts of the manifest read in that same
 *   snapshot (`--snapshot` of a transaction that exported it);
 * - PGlite: the data directory as PGlite dumps it between two statements after a CHECKPOINT
 *   (an image PostgreSQL opens as after a crash: committed work kept, the rest rolled back); the
 *   counts are read from that image opened in memory, which also proves it opens.
 * Needs `pg_dump` (PostgreSQL) and `tar` on the PATH.
 */
export async function writeBackup(
  database: Database,
  config: BackupConfig,
  out: string,
): Promise<BackupResult> {
  const t0 = Date.now();
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-backup-'));
  try {
    let tables: Record<string, number>;
    let schema: string | null;
    if (database.kind === 'postgres') {
      if (!config.databaseUrl) throw new Error('DATABASE_URL 未设置');
      ({ tables, schema } = await database.db.connection().execute(async (conn) => {
        await sql`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`.execute(conn);
        try {
          const snap = await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(conn);
          const counts = await tableCounts(conn);
          const last = await lastMigration(conn);
          await run(
            'pg_dump',
            [
              '--format=custom',
              '--no-owner',
              '--no-acl',
              `--snapshot=${snap.rows[0].id}`,
              `--file=${path.join(staging, 'database.pgdump')}`,
              `--dbname=${config.databaseUrl}`,
            ],
            { maxBuffer: 16 * 1_048_576 },
          );
          return { tables: counts, schema: last };
        } finally {
          await sql`COMMIT`.execute(conn);
        }
      }));
    } else {
      if (!database.dumpDataDir) throw new Error('此数据库不支持导出数据目录');
      await sql`CHECKPOINT`.execute(database.db);
      const image = await database.dumpDataDir();
      fs.writeFileSync(path.join(staging, 'pgdata.tar'), Buffer.from(await image.arrayBuffer()));
      const copy = await openDatabase({ dataDir: 'memory://', loadDataDir: image });
      try {
        tables = await tableCounts(copy.db);
        schema = await lastMigration(copy.db);
      } finally {
        await copy.close();
      }
    }

    const files: BackupManifest['files'] = {};
    if (!config.s3)
      await copyTree(config.attachmentDir, path.join(staging, 'attachments'), 'attachments', files);
    if (!config.s3) await copyTree(config.exportDir, path.join(staging, 'exports'), 'exports', files);
    const keyFile = path.join(config.dataDir, 'api-secret.key');
    let secretKey: BackupManifest['secretKey'] = config.apiSecretKey ? 'env' : 'none';
    if (!config.apiSecretKey && fs.existsSync(keyFile)) {
      fs.copyFileSync(keyFile, path.join(staging, 'api-secret.key'));
      files['api-secret.key'] = { bytes: fs.statSync(keyFile).size, sha256: await sha256(keyFile) };
      secretKey = 'file';
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: new Date().toISOString(),
      version: RELEASE.version,
      commit: RELEASE.commit,
      db: database.kind,
      schema,
      tables,
      files,
      attachments: config.s3 ? 's3' : 'files',
      exports: config.s3 ? 's3' : 'files',
      secretKey,
    };
    fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    // Written beside the target and renamed: a half-written archive never carries the final name.
    const partial = `${out}.partial`;
    await run('tar', ['-czf', partial, '-C', staging, '.']);
    fs.renameSync(partial, out);
    const note = config.s3
      ? `附件和导出文件在 S3 存储桶 ${config.s3.bucket}（前缀 ${config.s3.prefix || '无'}）中，不在备份文件里，请另行备份存储桶（版本控制或复制）`
      : undefined;
    return { file: out, bytes: fs.statSync(out).size, ms: Date.now() - t0, manifest, note };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Unpacks an archive into a new temporary directory and reads its manifest. */
export async function openArchive(archive: string): Promise<{ dir: string; manifest: BackupManifest }> {
  if (!fs.existsSync(archive)) throw new Error(`备份文件不存在：${archive}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-restore-'));
  await run('tar', ['-xzf', archive, '-C', dir]);
  const file = path.join(dir, 'manifest.json');
  if (!fs.existsSync(file)) throw new Error('不是 RingMES 备份文件（缺少 manifest.json）');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`不支持的备份格式：${manifest.format}`);
  return { dir, manifest };
}

/** Tables whose counts differ from the manifest's (`table: expected → found`). */
export function countDifferences(expected: Record<string, number>, found: Record<string, number>): string[] {
  const names = new Set([...Object.keys(expected), ...Object.keys(found)]);
  return [...names]
    .filter((t) => expected[t] !== found[t])
    .map((t) => `${t}: ${expected[t] ?? '无'} → ${found[t] ?? '无'}`);
}

export interface RestoreResult {
  manifest: BackupManifest;
  tables: number;
  rows: number;
  files: number;
  ms: number;
}

/** Whether a database holds RingMES data already (any migration applied). */
async function holdsData(db: Db): Promise<boolean> {
  const r = await sql<{ t: string | null }>`SELECT to_regclass('public.schema_migration')::text AS t`.execute(
    db,
  );
  return r.rows[0]?.t != null;
}

/**
 * Restores an archive of `writeBackup` into an empty database and data directory: a PostgreSQL
 * archive into DATABASE_URL (`pg_restore`), a PGlite archive into DATA_DIR/pgdata. Refuses a
 * database or data directory that holds data unless `force` (which replaces it). Then puts back
 * the attachments, export files and secret key, and checks every table's count and every file's
 * checksum against the manifest (a difference throws).
 */
export async function restoreBackup(
  archive: string,
  config: BackupConfig,
  opts: { force?: boolean } = {},
): Promise<RestoreResult> {
  const t0 = Date.now();
  const { dir, manifest } = await openArchive(archive);
  try {
    let counts: Record<string, number>;
    if (manifest.db === 'postgres') {
      if (!config.databaseUrl)
        throw new Error('这是 PostgreSQL 的备份：请设置 DATABASE_URL 指向一个空数据库后再恢复');
      const target = await openDatabase({ databaseUrl: config.databaseUrl, poolMax: 1 });
      try {
        if (await holdsData(target.db)) {
          if (!opts.force) throw new Error('目标数据库已有 RingMES 数据；确认覆盖请加 --force');
          await sql`DROP SCHEMA public CASCADE`.execute(target.db);
          await sql`CREATE SCHEMA public`.execute(target.db);
        }
        await run(
          'pg_restore',
          [
            '--no-owner',
            '--no-acl',
            '--exit-on-error',
            `--dbname=${config.databaseUrl}`,
            path.join(dir, 'database.pgdump'),
          ],
          { maxBuffer: 16 * 1_048_576 },
        );
        counts = await tableCounts(target.db);
      } finally {
        await target.close();
      }
    } else {
      if (config.databaseUrl)
        throw new Error(
          '这是内嵌数据库（PGlite）的备份：请去掉 DATABASE_URL 恢复到 DATA_DIR，或用 migrate-to-postgres 迁移',
        );
      const pgdata = path.join(config.dataDir, 'pgdata');
      if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length) {
        if (!opts.force) throw new Error(`数据目录 ${config.dataDir} 已有数据库；确认覆盖请加 --force`);
        fs.rmSync(pgdata, { recursive: true, force: true });
      }
      fs.mkdirSync(config.dataDir, { recursive: true });
      const image = new Blob([fs.readFileSync(path.join(dir, 'pgdata.tar'))]);
      const target = await openDatabase({ dataDir: config.dataDir, loadDataDir: image });
      try {
        counts = await tableCounts(target.db);
      } finally {
        await target.close();
      }
    }
    const wrong = countDifferences(manifest.tables, counts);
    if (wrong.length) throw new Error(`恢复后的行数与备份不符：${wrong.join('；')}`);

    let files = 0;
    for (const [rel, want] of Object.entries(manifest.files)) {
      const src = path.join(dir, ...rel.split('/'));
      const dest =
        rel === 'api-secret.key'
          ? path.join(config.dataDir, 'api-secret.key')
          : rel.startsWith('attachments/')
            ? path.join(config.attachmentDir, ...rel.split('/').slice(1))
            : path.join(config.exportDir, ...rel.split('/').slice(1));
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.copyFileSync(src, dest);
      if (rel === 'api-secret.key') fs.chmodSync(dest, 0o600);
      if ((await sha256(dest)) !== want.sha256) throw new Error(`文件校验不符：${rel}`);
      files++;
    }
    return {
      manifest,
      tables: Object.keys(counts).length,
      rows: Object.values(counts).reduce((a, b) => a + b, 0),
      files,
      ms: Date.now() - t0,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A backup asked for by `ringmes backup` while this server holds the embedded database (which no
 * other process may open): the command writes DATA_DIR/backup-request.json and sends SIGUSR2; the
 * answer goes to DATA_DIR/backup-result.json.
 */
export async function backupOnRequest(
  database: Database,
  config: BackupConfig,
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void },
): Promise<'ok' | 'failed' | 'none'> {
  const request = path.join(config.dataDir, 'backup-request.json');
  const result = path.join(config.dataDir, 'backup-result.json');
  if (!fs.existsSync(request)) return 'none';
  let answer: Record<string, unknown>;
  try {
    const { out } = JSON.parse(fs.readFileSync(request, 'utf8')) as { out: string };
    fs.rmSync(request, { force: true });
    const r = await writeBackup(database, config, out);
    answer = { file: r.file, bytes: r.bytes, ms: r.ms, note: r.note };
    log.info({ job: 'backup', ...answer }, '备份完成');
  } catch (err) {
    answer = { error: err instanceof Error ? err.message : String(err) };
    log.error({ job: 'backup', err }, '备份失败');
  }
  fs.writeFileSync(`${result}.partial`, JSON.stringify(answer), { mode: 0o600 });
  fs.renameSync(`${result}.partial`, result);
  return answer.error ? 'failed' : 'ok';
}
