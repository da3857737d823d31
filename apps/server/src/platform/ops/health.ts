import fs from 'node:fs';
import { sql } from 'kysely';
import type { Database } from '../db/db.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { RELEASE } from './version.ts';

export interface Health {
  status: 'ok' | 'down';
  db: Database['kind'];
  version: string;
  commit: string;
  /** The last migration applied to the database (its file name), `null` before any. */
  schema: string | null;
  /** Migration files of this release not yet applied (0 once the server has started). */
  migrationsPending: number;
  /** How long the database took to answer, in ms. */
  dbMs: number;
}

let migrationFiles: string[] | undefined;
/** This release's migration files (read once: they do not change while the process runs). */
const files = () =>
  (migrationFiles ??= fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort());

/**
 * One look at the database for `/api/health` and `/api/ready`: it answers, and which migrations it
 * holds against the files of this release. A database that does not answer within `timeoutMs`
 * counts as down (a stalled pool must not stall the probe).
 */
export async function checkHealth(database: Database, timeoutMs = 3_000): Promise<Health> {
  const known = files();
  const t0 = performance.now();
  const base = { db: database.kind, ...RELEASE };
  let timer: NodeJS.Timeout | undefined;
  try {
    const rows = await Promise.race([
      sql<{ name: string }>`SELECT name FROM schema_migration`.execute(database.db).then((r) => r.rows),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    const applied = new Set(rows.map((r) => r.name));
    const last = [...applied].sort().at(-1) ?? null;
    return {
      status: 'ok',
      ...base,
      schema: last,
      migrationsPending: known.filter((f) => !applied.has(f)).length,
      dbMs: Math.round((performance.now() - t0) * 10) / 10,
    };
  } catch {
    return { status: 'down', ...base, schema: null, migrationsPending: known.length, dbMs: -1 };
  } finally {
    clearTimeout(timer);
  }
}
