import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, pgliteVersion, type TemplateMarker } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';

/**
 * `npm run build` makes dist/pgdata-template (src/platform/db/make-template.ts): a new embedded
 * data directory starts as a copy of it instead of running initdb and every migration.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ringmes-template-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const tables = async (dataDir: string, template: string) => {
  const d = await openDatabase({ dataDir, template });
  try {
    const r = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'schema_migration'`.execute(
      d.db,
    );
    if (!r.rows[0].n) return { migrated: 0 };
    const m = await sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migration`.execute(d.db);
    return { migrated: m.rows[0].n };
  } finally {
    await d.close();
  }
};

describe.skipIf(!!process.env.TEST_DATABASE_URL)('embedded database template', () => {
  const template = path.join(root, 'template');
  it('starts a new data directory from the migrated template, and only a new one', async () => {
    const made = await openDatabase({ dataDir: template });
    const applied = await migrate(made.db);
    await made.close();
    const marker: TemplateMarker = { pglite: pgliteVersion(), migrations: applied };
    fs.writeFileSync(path.join(template, 'template.json'), JSON.stringify(marker));
    expect(applied.length).toBeGreaterThan(30);

    const fresh = path.join(root, 'fresh');
    expect(await tables(fresh, template)).toEqual({ migrated: applied.length });
    expect(fs.existsSync(path.join(fresh, 'pgdata.copying'))).toBe(false);
    // A data directory that has its database keeps it (no copy over it).
    const d = await openDatabase({ dataDir: fresh, template });
    await sql`DELETE FROM schema_migration WHERE name = ${applied[applied.length - 1]}`.execute(d.db);
    await d.close();
    expect(await tables(fresh, template)).toEqual({ migrated: applied.length - 1 });
  }, 120_000);

  it('ignores a template made by another PGlite version', async () => {
    const marker = JSON.parse(fs.readFileSync(path.join(template, 'template.json'), 'utf8'));
    fs.writeFileSync(path.join(template, 'template.json'), JSON.stringify({ ...marker, pglite: '0.0.1' }));
    expect(await tables(path.join(root, 'other'), template)).toEqual({ migrated: 0 });
  }, 120_000);
});
