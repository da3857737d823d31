import crypto from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase } from '../src/platform/db/db.ts';

/**
 * Every test database of this run is named `ringmes_test_<run>_…`; after the suite, any such
 * database a crashed test file left behind is dropped. Other runs' databases are not touched.
 */
export function setup() {
  process.env.RINGMES_TEST_RUN ??= crypto.randomBytes(3).toString('hex');
}

export async function teardown() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = await openDatabase({ databaseUrl: url, poolMax: 1 });
  try {
    const prefix = `ringmes_test_${process.env.RINGMES_TEST_RUN}_%`;
    const left = await sql<{
      datname: string;
    }>`SELECT datname FROM pg_database WHERE datname LIKE ${prefix}`.execute(admin.db);
    for (const r of left.rows)
      await sql.raw(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).execute(admin.db);
  } finally {
    await admin.close();
  }
}
