import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { PG_URL } from './helpers.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');

async function admin(text: string) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * A new database with the migrations before `migration` ('0063') applied and not that one: for
 * a test that writes rows as the old code did, then runs `migrate` and checks what the migration
 * made of them. A database of its own on PostgreSQL when TEST_DATABASE_URL is set (its name
 * carries the run's prefix, so the global teardown drops it if the file dies first), else an
 * in-memory PGlite. `close` drops what it made.
 */
export async function databaseBefore(
  migration: string,
): Promise<{ database: Database; close: () => Promise<void> }> {
  let name: string | undefined;
  let database: Database;
  if (PG_URL) {
    name = `ringmes_test_${process.env.RINGMES_TEST_RUN ?? 'x'}_${crypto.randomBytes(5).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: url.toString(), poolMax: 1 });
  } else {
    database = await openDatabase({ dataDir: 'memory://' });
  }
  const before = fs.mkdtempSync(path.join(os.tmpdir(), `ringmes-${migration}-`));
  for (const f of fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < migration))
    fs.copyFileSync(path.join(MIGRATIONS, f), path.join(before, f));
  await migrate(database.db, before);
  return {
    database,
    async close() {
      await database.close();
      fs.rmSync(before, { recursive: true, force: true });
      if (name) await admin(`DROP DATABASE IF EXISTS ${name}`);
    },
  };
}
