import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { RetentionConfig } from '../../config.ts';
import type { Db } from '../db/db.ts';
import { type ExportPlace, purgeBucketExports } from '../export-files.ts';

/** Advisory lock key of a housekeeping run: one process at a time does it, the others skip. */
const LOCK_KEY = 724101;

/** Rows deleted by one run, per kind. */
export type PurgeCounts = Record<string, number>;

interface Purge {
  kind: string;
  /** Days kept (0: for ever). */
  days: (r: RetentionConfig) => number;
  /** Deletes at most `batch` rows older than `cutoff` and answers how many it deleted. */
  run: (db: Db, cutoff: Date, batch: number) => Promise<number>;
}

const PURGES: Purge[] = [
  {
    kind: 'sessions',
    days: (r) => r.sessionDays,
    run: (db, cutoff, batch) =>
      deleteWhere(
        db,
        'user_session',
        sql`LEAST(expires_at, COALESCE(revoked_at, expires_at)) < ${cutoff}`,
        batch,
      ),
  },
  {
    kind: 'loginAttempts',
    days: (r) => r.loginAttemptDays,
    run: async (db, cutoff, batch) =>
      (await deleteWhere(db, 'login_attempt', sql`at < ${cutoff}`, batch)) +
      (await deleteByKey(
        db,
        'login_throttle',
        'key',
        sql`COALESCE(next_at, window_start) < ${cutoff}`,
        batch,
      )),
  },
  {
    kind: 'idempotencyKeys',
    days: (r) => r.idempotencyDays,
    run: async (db, cutoff, batch) => {
      const r = await sql`DELETE FROM idempotency_key WHERE ctid IN (
          SELECT ctid FROM idempotency_key WHERE created_at < ${cutoff} ORDER BY created_at LIMIT ${batch})`.execute(
        db,
      );
      return Number(r.numAffectedRows ?? 0);
    },
  },
  {
    kind: 'readMessages',
    days: (r) => r.readMessageDays,
    run: (db, cutoff, batch) =>
      deleteWhere(db, 'message', sql`read_at IS NOT NULL AND read_at < ${cutoff}`, batch),
  },
  {
    kind: 'auditLog',
    days: (r) => r.auditDays,
    run: (db, cutoff, batch) => deleteWhere(db, 'audit_log', sql`at < ${cutoff}`, batch),
  },
  {
    kind: 'exportJobs',
    days: (r) => r.exportDays,
    run: async (db, cutoff, batch) => {
      const r = await sql`DELETE FROM export_job WHERE id IN (
          SELECT id FROM export_job WHERE created_at < ${cutoff} AND status <> 'running' LIMIT ${batch})`.execute(
        db,
      );
      return Number(r.numAffectedRows ?? 0);
    },
  },
];
/** One bounded delete over a table with an identity key, oldest rows (lowest ids) first. */
async function deleteWhere(
  db: Db,
  table: string,
  where: ReturnType<typeof sql>,
  batch: number,
): Promise<number> {
  const r = await sql`DELETE FROM ${sql.table(table)} WHERE id IN (
      SELECT id FROM ${sql.table(table)} WHERE ${where} ORDER BY id LIMIT ${batch})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

async function deleteByKey(
  db: Db,
  table: string,
  key: string,
  where: ReturnType<typeof sql>,
  batch: number,
): Promise<number> {
  const r = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(key)} IN (
      SELECT ${sql.ref(key)} FROM ${sql.table(table)} WHERE ${where} LIMIT ${batch})`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}

/** Export files older than `days` in every user's folder of the export folder. */
export function purgeExportFiles(exportDir: string, days: number, now = Date.now()): number {
  if (!fs.existsSync(exportDir)) return 0;
  const old = now - days * 86_400_000;
  let n = 0;
  for (const user of fs.readdirSync(exportDir, { withFileTypes: true })) {
    if (!user.isDirectory()) continue;
    const dir = path.join(exportDir, user.name);
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isFile() && fs.statSync(f).mtimeMs < old) {
        fs.rmSync(f, { force: true });
        n++;
      }
    }
  }
  return n;
}

/**
 * Deletes what has outlived its retention: ended sessions, sign-in attempts, idempotency keys,
 * read messages, the audit log and old exports (folder or bucket), each in statements of at most `batch` rows (every
 * statement its own transaction, so no long lock and no long transaction on a big backlog), until
 * a statement finds fewer than `batch`. Runs in one process at a time across every process on the
 * database (an advisory lock held on one connection); answers `null` when another process holds it.
 */
export async function housekeep(
  db: Db,
  retention: RetentionConfig,
  exports: string | ExportPlace,
  now = new Date(),
): Promise<PurgeCounts | null> {
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(${LOCK_KEY}) AS ok`.execute(conn);
    if (!got.rows[0]?.ok) return null;
    try {
      const counts: PurgeCounts = {};
      for (const p of PURGES) {
        const days = p.days(retention);
        if (days <= 0) continue;
        const cutoff = new Date(now.getTime() - days * 86_400_000);
        let total = 0;
        for (;;) {
          const n = await p.run(conn, cutoff, retention.batch);
          total += n;
          if (n < retention.batch) break;
        }
        counts[p.kind] = total;
      }
      const place = typeof exports === 'string' ? { exportDir: exports } : exports;
      // With S3 the folder holds only files being written; finished exports are in the bucket.
      counts.exportFiles = place.s3
        ? await purgeBucketExports(place.s3, retention.exportDays, now.getTime())
        : purgeExportFiles(place.exportDir, retention.exportDays, now.getTime());
      return counts;
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/**
 * Runs `housekeep` every `retention.everyMinutes` (the first run a minute after the start, not
 * during it); each run is logged with its counts and reported to `onRun`. Answers the stop function.
 */
export function scheduleHousekeeping(
  db: Db,
  retention: RetentionConfig,
  exports: string | ExportPlace,
  log: { info(o: object, msg: string): void; error(o: object, msg: string): void },
  onRun: (outcome: 'ok' | 'failed' | 'skipped') => void = () => {},
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    const t0 = Date.now();
    try {
      const counts = await housekeep(db, retention, exports);
      onRun(counts ? 'ok' : 'skipped');
      if (counts) log.info({ job: 'housekeeping', deleted: counts, ms: Date.now() - t0 }, '数据清理完成');
    } catch (err) {
      onRun('failed');
      log.error({ job: 'housekeeping', err }, '数据清理失败');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(tick, 60_000);
  const every = setInterval(tick, retention.everyMinutes * 60_000);
  first.unref();
  every.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
