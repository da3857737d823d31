import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../db/db.ts';
import { writeBackup } from './backup.ts';

/**
 * The daily backup for sites without their own (BACKUP_AT=HH:MM in the factory's time zone,
 * BACKUP_DIR, BACKUP_KEEP): once a day after that time, one archive as `npm run ringmes -- backup`
 * writes, the oldest beyond BACKUP_KEEP removed. With several processes on one database one of
 * them makes it: an advisory lock, and the day of the last backup kept in `sys_setting`.
 */

export interface BackupSchedule {
  /** `HH:MM`, the factory's time. */
  at: string;
  dir: string;
  keep: number;
}

const LOCK_KEY = 7_410_024;
const LAST_DAY = 'backup.lastDay';
const FILE = /^ringmes-backup-\d{8}-\d{4}\.tar\.gz$/;

/** The factory's day and `HH:MM` now. */
function factoryNow(timeZone: string, now: Date) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** Archives in `dir` beyond the newest `keep` removed; answers the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort();
  const gone = files.slice(0, Math.max(0, files.length - keep));
  for (const f of gone) fs.rmSync(path.join(dir, f), { force: true });
  return gone;
}

/**
 * One look: when the factory's time has passed `at` and today's backup is not made, this process
 * makes it (if no other holds the lock). Answers the archive written, or null.
 */
export async function backupIfDue(
  database: Database,
  config: Config,
  schedule: BackupSchedule,
  now = new Date(),
): Promise<{ file: string; bytes: number; ms: number; pruned: string[] } | null> {
  const { day, time } = factoryNow(config.timeZone, now);
  if (time < schedule.at) return null;
  const db = database.db;
  const make = async () => {
    const last = await sql<{ value: unknown }>`SELECT value FROM sys_setting WHERE key = ${LAST_DAY}`.execute(
      db,
    );
    if (last.rows[0]?.value === day) return null;
    fs.mkdirSync(schedule.dir, { recursive: true });
    const out = path.join(
      schedule.dir,
      `ringmes-backup-${day.replaceAll('-', '')}-${time.replace(':', '')}.tar.gz`,
    );
    const r = await writeBackup(database, config, out);
    await sql`
      INSERT INTO sys_setting (key, value) VALUES (${LAST_DAY}, ${JSON.stringify(day)}::jsonb)
      ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), version = sys_setting.version + 1`.execute(
      db,
    );
    return { file: r.file, bytes: r.bytes, ms: r.ms, pruned: pruneBackups(schedule.dir, schedule.keep) };
  };
  // The embedded database has one process (and one connection: a lock held on it would stall the backup's reads).
  if (database.kind === 'pglite') return make();
  // Held on a connection of its own while the backup reads through the pool.
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`.execute(conn);
    if (!got.rows[0]?.ok) return null;
    try {
      return await make();
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** Looks every minute (the first a minute after the start); answers the stop function. */
export function scheduleBackups(
  database: Database,
  config: Config,
  schedule: BackupSchedule,
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void },
  onRun: (outcome: 'ok' | 'failed') => void = () => {},
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const r = await backupIfDue(database, config, schedule);
      if (r) {
        onRun('ok');
        log.info({ job: 'scheduled-backup', ...r }, '定时备份完成');
      }
    } catch (err) {
      onRun('failed');
      log.error({ job: 'scheduled-backup', err }, '定时备份失败');
    } finally {
      running = false;
    }
  };
  const every = setInterval(tick, 60_000);
  every.unref();
  return () => clearInterval(every);
}
