import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './db.ts';

/** apps/server/migrations, found from the source tree (src/platform/db) or the bundle (dist). */
const here = path.dirname(fileURLToPath(import.meta.url));
export const MIGRATIONS_DIR =
  [path.resolve(here, '../../../migrations'), path.resolve(here, '../migrations')].find((d) =>
    fs.existsSync(d),
  ) ?? path.resolve(here, '../migrations');

/**
 * Applies the committed SQL migrations in file-name order, each once and inside its own
 * transaction. An advisory lock serialises several instances starting at the same time. A file
 * changed after it was applied is refused (its checksum no longer matches).
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  await sql`CREATE TABLE IF NOT EXISTS schema_migration (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(
    db,
  );
  // What is applied already, in one read: a start with nothing to apply checks the checksums and
  // is done (one transaction per file was a noticeable part of every embedded start). A file not in it is
  // applied under the lock and looked up again there, since another instance may have just done it.
  const known = new Map(
    (
      await sql<{ name: string; checksum: string }>`SELECT name, checksum FROM schema_migration`.execute(db)
    ).rows.map((r) => [r.name, r.checksum]),
  );
  const applied: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const checksum = crypto.createHash('sha256').update(text).digest('hex');
    if (known.has(file)) {
      if (known.get(file) !== checksum) throw changed(file);
      continue;
    }
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(724100)`.execute(trx);
      const done = await sql<{
        checksum: string;
      }>`SELECT checksum FROM schema_migration WHERE name = ${file}`.execute(trx);
      if (done.rows.length) {
        if (done.rows[0].checksum !== checksum) throw changed(file);
        return;
      }
      await sql.raw(text).execute(trx);
      await sql`INSERT INTO schema_migration (name, checksum) VALUES (${file}, ${checksum})`.execute(trx);
      applied.push(file);
    });
  }
  return applied;
}

const changed = (file: string) =>
  new Error(`迁移文件 ${file} 在应用后被修改过；请新增迁移文件，而不是修改已应用的文件。`);
