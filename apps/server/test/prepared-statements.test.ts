// Marked hot statements (stock posting) run as named prepared statements on PostgreSQL: parsed
// once per connection, then executed by name; unmarked statements stay unnamed; each connection
// keeps a bounded set, the least recently used deallocated. PostgreSQL only.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { namePreparedStatements, prepared } from '../src/platform/db/prepared.ts';

const PG_URL = process.env.TEST_DATABASE_URL;

/** A database on one connection (so every statement runs in the session listed), naming `max` texts. */
function oneConnection(max?: number) {
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  pool.on('connect', (c) => namePreparedStatements(c, max));
  return new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
}

const session = async (db: Kysely<any>) =>
  (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(db)).rows.map(
    (r) => r.statement,
  );

describe.skipIf(!PG_URL)('named prepared statements', () => {
  const db = oneConnection();
  const small = oneConnection(2);
  afterAll(async () => {
    await db.destroy();
    await small.destroy();
  });

  it('prepares a marked statement once and reuses it; leaves the rest unnamed', async () => {
    const before = await session(db);
    for (const x of [1, 2, 3]) {
      const r = await prepared(sql<{ answer: number }>`SELECT ${x}::int + 41 AS answer`).execute(db);
      expect(r.rows[0].answer).toBe(41 + x);
    }
    await sql`SELECT ${5}::int AS plain`.execute(db);
    const added = (await session(db)).filter((s) => !before.includes(s));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\/\*prepared\*\/ SELECT \$1::int \+ 41/);
  });

  it('keeps the most recently used texts: the oldest is deallocated, and named again when it returns', async () => {
    const run = async (k: number) =>
      (await prepared(sql<{ v: number }>`SELECT ${k}::int * ${sql.raw(String(k))} AS v`).execute(small))
        .rows[0].v;
    expect(await run(2)).toBe(4);
    expect(await run(3)).toBe(9);
    expect(await run(2)).toBe(4); // 2 is now the most recent: 3 is the oldest
    expect(await run(5)).toBe(25);
    const kept = (await session(small)).map((s) => s.match(/\* (\d) AS v$/)?.[1]).sort();
    expect(kept).toEqual(['2', '5']);
    // The evicted text runs again, parsed under a new name, in place of the oldest (2).
    expect(await run(3)).toBe(9);
    expect((await session(small)).map((s) => s.match(/\* (\d) AS v$/)?.[1]).sort()).toEqual(['3', '5']);
  });

  it('a failed transaction keeps the connection usable: names evicted there are not reused', async () => {
    const run = (k: number, d: Kysely<any>) =>
      prepared(sql<{ v: number }>`SELECT ${k}::int + ${sql.raw(String(k))} AS v`).execute(d);
    await expect(
      small.transaction().execute(async (trx) => {
        await sql`SELECT 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow();
    await small.transaction().execute(async (trx) => {
      await run(6, trx);
      await expect(sql`SELECT 1 / 0`.execute(trx)).rejects.toThrow();
      // Aborted: this one evicts (its DEALLOCATE fails too) and fails; nothing is left half-named.
      await expect(run(7, trx)).rejects.toThrow();
    });
    expect((await run(7, small)).rows[0].v).toBe(14);
    expect((await run(8, small)).rows[0].v).toBe(16);
    expect((await run(6, small)).rows[0].v).toBe(12);
  });
});
