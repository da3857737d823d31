import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/platform/db/migrate.ts';
import { pglitePool } from '../src/platform/db/pglite-pool.ts';

/**
 * Migrations: each file once, in name order; a file changed after it was applied is refused; a
 * start with nothing to apply reads what is applied once and runs no transaction per file (every
 * embedded start pays for each statement).
 */
let dir: string;
let lite: PGlite;
let db: Kysely<any>;
let statements = 0;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-migrate-'));
  lite = new PGlite();
  await lite.waitReady;
  db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: pglitePool(lite) }),
    log: () => {
      statements++;
    },
  });
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);

describe('migrate', () => {
  it('applies each file once, checks the applied ones in one read, refuses a changed file', async () => {
    write('0001_a.sql', 'CREATE TABLE a (id int);');
    write('0002_b.sql', 'CREATE TABLE b (id int); INSERT INTO a VALUES (1);');
    write('notes.txt', 'not a migration');
    expect(await migrate(db, dir)).toEqual(['0001_a.sql', '0002_b.sql']);

    statements = 0;
    expect(await migrate(db, dir)).toEqual([]);
    // CREATE TABLE IF NOT EXISTS schema_migration, and the one read of what is applied.
    expect(statements).toBe(2);

    write('0003_c.sql', 'INSERT INTO a VALUES (3);');
    expect(await migrate(db, dir)).toEqual(['0003_c.sql']);
    expect((await sql<{ id: number }>`SELECT id FROM a ORDER BY id`.execute(db)).rows).toEqual([
      { id: 1 },
      { id: 3 },
    ]);

    write('0002_b.sql', 'CREATE TABLE b (id bigint);');
    await expect(migrate(db, dir)).rejects.toThrow('迁移文件 0002_b.sql 在应用后被修改过');
  });
});
