import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

/** Rows copied per INSERT. */
const BATCH = 2_000;

/** A table's fingerprint: its row count and an order-free sum of the MD5s of its rows as JSON (in UTC). */
async function fingerprint(db: Db, table: string): Promise<string> {
  const r = await sql<{ f: string }>`SELECT count(*) || ':' ||
      COALESCE(sum(('x' || substr(md5(row_to_json(x)::text), 1, 15))::bit(60)::bigint), 0) AS f
      FROM ${sql.table(table)} x`.execute(db);
  return r.rows[0].f;
}

async function tables(db: Db): Promise<string[]> {
  const r = await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables
      WHERE schemaname = 'public' AND tablename <> 'schema_migration' ORDER BY 1`.execute(db);
  return r.rows.map((x) => x.name);
}

/** The columns a row is inserted with (generated ones are computed by the target). */
async function insertable(db: Db, table: string): Promise<string[]> {
  const r = await sql<{ name: string }>`SELECT a.attname AS name FROM pg_attribute a
      WHERE a.attrelid = ${`public.${table}`}::regclass AND a.attnum > 0 AND NOT a.attisdropped
        AND a.attgenerated = '' ORDER BY a.attnum`.execute(db);
  return r.rows.map((x) => x.name);
}

export interface MoveResult {
  tables: number;
  rows: number;
  ms: number;
  /** Tables whose fingerprint (count and row checksum) differs between source and target: empty when all is well. */
  differences: string[];
}

/**
 * Copies a RingMES database into an empty PostgreSQL database (`ringmes migrate-to-postgres`):
 * migrates both to this release's schema, copies every table's rows as PostgreSQL's own JSON of
 * them (`row_to_json` → `json_populate_recordset`: every type round-trips exactly) in batches,
 * inside one transaction with triggers and foreign keys deferred (`session_replication_role =
 * replica`, which needs a superuser or the table owner on PostgreSQL ≥ 15 with that right), moves
 * every sequence past its table's highest key, then compares each table's row count and row checksum on
 * both sides. The target must hold no RingMES data.
 */
export async function copyDatabase(source: Db, target: Db): Promise<MoveResult> {
  const t0 = Date.now();
  const existing = await sql<{ t: string | null }>`SELECT to_regclass('public.app_user')::text AS t`.execute(
    target,
  );
  if (existing.rows[0]?.t) {
    const users = await sql<{ n: number }>`SELECT count(*)::int AS n FROM app_user`.execute(target);
    if (users.rows[0].n > 0) throw new Error('目标 PostgreSQL 数据库已有 RingMES 数据，请使用一个空数据库');
  }
  await migrate(source);
  await migrate(target);
  const names = await tables(source);
  let rows = 0;
  await target.connection().execute(async (conn) => {
    await sql`BEGIN`.execute(conn);
    try {
      await sql`SET LOCAL session_replication_role = replica`.execute(conn);
      for (const table of names) {
        // The target's own rows of a fresh migration (seeded dictionaries, if any) give way to the source's.
        await sql`DELETE FROM ${sql.table(table)}`.execute(conn);
        const cols = sql.join((await insertable(source, table)).map((c) => sql.ref(c)));
        let batch: string[] = [];
        const flush = async () => {
          if (!batch.length) return;
          await sql`INSERT INTO ${sql.table(table)} (${cols})
              SELECT ${cols} FROM json_populate_recordset(NULL::${sql.table(table)}, ${`[${batch.join(',')}]`}::json)`.execute(
            conn,
          );
          rows += batch.length;
          batch = [];
        };
        const stream = source
          .withoutPlugins()
          .selectFrom(sql`(SELECT row_to_json(x)::text AS j FROM ${sql.table(table)} x)`.as('s'))
          .select(sql<string>`j`.as('j'))
          .stream(BATCH);
        for await (const row of stream) {
          batch.push((row as { j: string }).j);
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      }
      // Identity and serial columns continue after the highest copied key.
      const seqs = await sql<{ tbl: string; col: string; seq: string }>`
          SELECT c.relname AS tbl, a.attname AS col, pg_get_serial_sequence(c.relname::text, a.attname) AS seq
            FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
           WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
             AND pg_get_serial_sequence(c.relname::text, a.attname) IS NOT NULL`.execute(conn);
      for (const s of seqs.rows) {
        await sql`SELECT setval(${s.seq}, COALESCE((SELECT max(${sql.ref(s.col)}) FROM ${sql.table(s.tbl)}), 1),
            (SELECT max(${sql.ref(s.col)}) IS NOT NULL FROM ${sql.table(s.tbl)}))`.execute(conn);
      }
      await sql`COMMIT`.execute(conn);
    } catch (err) {
      await sql`ROLLBACK`.execute(conn);
      throw err;
    }
  });
  await sql`SET TimeZone = 'UTC'`.execute(source);
  const differences: string[] = [];
  await target.connection().execute(async (conn) => {
    await sql`SET TimeZone = 'UTC'`.execute(conn);
    for (const table of names) {
      const [a, b] = [await fingerprint(source, table), await fingerprint(conn, table)];
      if (a !== b) differences.push(`${table}: ${a} → ${b}`);
    }
  });
  return { tables: names.length, rows, ms: Date.now() - t0, differences };
}
