// Marked hot statements (stock posting) run as named prepared statements on PostgreSQL: parsed
// once per connection, then executed by name; unmarked statements stay unnamed. PostgreSQL only.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

// A module instance of its own: test files share their worker's modules (vitest.config.ts), and
// the names are a bounded set per process that the files before this one may have used up.
const OWN_INSTANCE = '../src/platform/db/prepared.ts?own-names';
const { namePreparedStatements, prepared }: typeof import('../src/platform/db/prepared.ts') = await import(
  OWN_INSTANCE
);

const PG_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!PG_URL)('named prepared statements', () => {
  // One connection, so every statement below runs in the session whose statements we list.
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  pool.on('connect', (c) => namePreparedStatements(c));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  afterAll(() => db.destroy());

  const session = async () =>
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db)).rows.map(
      (r) => r.statement,
    );

  it('prepares a marked statement once and reuses it; leaves the rest unnamed', async () => {
    const before = await session();
    for (const x of [1, 2, 3]) {
      const r = await prepared(sql<{ answer: number }>`SELECT ${x}::int + 41 AS answer`).execute(db);
      expect(r.rows[0].answer).toBe(41 + x);
    }
    await sql`SELECT ${5}::int AS plain`.execute(db);
    const added = (await session()).filter((s) => !before.includes(s));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\/\*prepared\*\/ SELECT \$1::int \+ 41/);
  });
});
