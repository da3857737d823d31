import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { pglitePool } from '../src/platform/db/pglite-pool.ts';
import { prepared } from '../src/platform/db/prepared.ts';

/**
 * The embedded pool sends each statement with parameters as one pipelined message with
 * node-postgres's text forms, and parses each statement text once per backend, keeping the names
 * of the most recently used texts (pglite-pool.ts). What goes in must come back as PGlite's own
 * `query` gave it, a failed first run must not leave a name behind that later runs trip over, and
 * the names stay within their bound.
 */
let d: Database;
beforeAll(async () => {
  d = await openDatabase({ dataDir: 'memory://' });
  await sql`CREATE TABLE t (id bigint PRIMARY KEY, name text, at timestamptz, day date, n numeric(18,4),
                            tags text[], ids bigint[], doc jsonb, ok boolean, raw bytea)`.execute(d.db);
});
afterAll(() => d?.close());

describe('PGlite pool', () => {
  it('binds and reads every kind of value as before', async () => {
    const at = new Date('2026-11-26T03:04:05.678Z');
    await sql`INSERT INTO t VALUES (${1}, ${'名称 "引号" \\ 反斜杠'}, ${at}, ${'2026-11-26'}, ${'12.3456'},
                                   ${['a', 'b,c', 'd"e']}, ${[1, 2]}, ${JSON.stringify({ k: [1, '二'] })}, ${true},
                                   ${Buffer.from([0, 255, 7])})`.execute(d.db);
    const r = await sql<any>`SELECT * FROM t WHERE id = ${1} AND tags @> ${['b,c']} AND ok = ${true}`.execute(
      d.db,
    );
    expect(r.rows).toEqual([
      {
        id: 1,
        name: '名称 "引号" \\ 反斜杠',
        at,
        day: '2026-11-26',
        n: '12.3456',
        tags: ['a', 'b,c', 'd"e'],
        ids: [1, 2],
        doc: { k: [1, '二'] },
        ok: true,
        raw: new Uint8Array([0, 255, 7]),
      },
    ]);
    const u = await sql`UPDATE t SET n = n + ${'1'} WHERE id = ANY(${[1, 9]}::bigint[])`.execute(d.db);
    expect(Number(u.numAffectedRows)).toBe(1);
  });

  it('runs a marked statement again and again with new parameters', async () => {
    await sql`INSERT INTO t (id, name) SELECT i, 'n' || i FROM generate_series(2, 20) i`.execute(d.db);
    for (let i = 2; i <= 20; i++) {
      const r = await prepared(sql<{ name: string }>`SELECT name FROM t WHERE id = ${i}`).execute(d.db);
      expect(r.rows).toEqual([{ name: `n${i}` }]);
    }
  });

  it('a marked statement that failed on its first run works on the next, and a bad one keeps its own error', async () => {
    const divide = (by: number) =>
      prepared(sql<{ q: string }>`SELECT (10 / ${by}::int)::text AS q`).execute(d.db);
    await expect(divide(0)).rejects.toMatchObject({ code: '22012' });
    expect((await divide(2)).rows).toEqual([{ q: '5' }]);
    expect((await divide(5)).rows).toEqual([{ q: '2' }]);
    const bad = () => prepared(sql`SELEC ${1}`).execute(d.db);
    await expect(bad()).rejects.toMatchObject({ code: '42601' });
    await expect(bad()).rejects.toMatchObject({ code: '42601' });
    // A transaction that failed on a marked statement rolls back; the statement still serves.
    await expect(
      d.db.transaction().execute(async (trx) => {
        await sql`UPDATE t SET name = 'x' WHERE id = 2`.execute(trx);
        await prepared(sql`SELECT (1 / ${0}::int)`).execute(trx);
      }),
    ).rejects.toMatchObject({ code: '22012' });
    const r = await prepared(sql<{ name: string }>`SELECT name FROM t WHERE id = ${2}`).execute(d.db);
    expect(r.rows).toEqual([{ name: 'n2' }]);
  });

  it('names every statement with parameters once, unmarked ones too, never a custom-plan one', async () => {
    const names = async (text: string) =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = ${text}`.execute(d.db)
      ).rows[0].n;
    for (let i = 2; i <= 4; i++) {
      const r = await sql<{ name: string }>`SELECT name FROM t WHERE id = ${i} AND name IS NOT NULL`.execute(
        d.db,
      );
      expect(r.rows).toHaveLength(1);
    }
    expect(await names('SELECT name FROM t WHERE id = $1 AND name IS NOT NULL')).toBe(1);
  });

  it('keeps the names of the most recently used texts and closes the oldest, in a failed transaction too', async () => {
    const lite = new PGlite();
    await lite.waitReady;
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: pglitePool(lite, 3) }) });
    const held = async () =>
      (
        await sql<{
          statement: string;
        }>`SELECT statement FROM pg_prepared_statements ORDER BY statement`.execute(db)
      ).rows.map((r) => r.statement);
    const add = async (k: number, trx = db) =>
      (await sql<{ v: number }>`SELECT ${sql.raw(String(k))} + ${k}::int AS v`.execute(trx)).rows[0].v;
    const text = (k: number) => `SELECT ${k} + $1::int AS v`;
    try {
      for (const k of [1, 2, 3]) expect(await add(k)).toBe(2 * k);
      // The first is used again, so the second is the oldest when a fourth text comes.
      expect(await add(1)).toBe(2);
      expect(await add(4)).toBe(8);
      expect(await held()).toEqual([text(1), text(3), text(4)]);
      // In an aborted transaction a new text fails as every statement there does; the name it
      // pushed out is closed all the same, and none is left behind.
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`SELECT 1 / ${0}::int`.execute(trx).catch(() => undefined);
          await add(5, trx);
        }),
      ).rejects.toMatchObject({ code: '25P02' });
      expect((await held()).length).toBeLessThanOrEqual(3);
      for (const k of [5, 2, 3, 1, 6]) expect(await add(k)).toBe(2 * k);
      expect(await held()).toEqual([text(1), text(3), text(6)]);
    } finally {
      await db.destroy();
    }
  });
});
