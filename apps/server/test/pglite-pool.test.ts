import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/platform/db/db.ts';
import { prepared } from '../src/platform/db/prepared.ts';

/**
 * The embedded pool sends each statement with parameters as one pipelined message with
 * node-postgres's text forms, and parses marked statements once per backend (pglite-pool.ts).
 * What goes in must come back as PGlite's own `query` gave it, and a failed first run must not
 * leave a name behind that later runs trip over.
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
});
