import { allowedScope, RESOURCES, type ResourceDef } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUser } from '../src/platform/auth/sessions.ts';
import { makeSerializer } from '../src/platform/http/serialize.ts';
import { paginate } from '../src/platform/paging.ts';
import { allRowsAsJson } from '../src/platform/resource/all-rows-json.ts';
import { baseQuery, sortableColumns } from '../src/platform/resource/query.ts';
import { hideFields, inScope } from '../src/platform/resource/scope.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Issue 34 §3: every row of a list (listAll, pageNum=0) is written as JSON by the database. The
 * answer must be the one the rows read through the driver give, for every resource and for users
 * who see some fields and not others: compared here on the demo factory, resource by resource.
 * The demo seed runs on PGlite only (demo-seed.test); on PostgreSQL the customers and work reports
 * of a small factory are compared.
 */
const ON_POSTGRES = !!process.env.TEST_DATABASE_URL;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, ON_POSTGRES ? 'minimal' : 'demo');
  if (ON_POSTGRES)
    await sql`INSERT INTO customer (code, name, state, credit_limit, created_at)
              SELECT 'JS' || lpad(i::text, 4, '0'), '客户' || i, '1', (i * 1000.5)::numeric(14,2),
                     timestamptz '2026-03-01 23:59:59.9+00' + i * interval '1 hour'
                FROM generate_series(1, 700) i`.execute(t.database.db);
}, 300_000);
afterAll(() => t?.close());

async function userNamed(userName: string): Promise<AuthUser> {
  const row = await sql<{ id: number; firstName: string }>`
    SELECT id, first_name FROM app_user WHERE user_name = ${userName}`.execute(t.database.db);
  const { id, firstName } = row.rows[0];
  const { roleKeys, permissions } = await t.app.ringmes.sessions.grants(Number(id));
  return {
    id: Number(id),
    userName,
    firstName,
    deptId: null,
    sessionId: 0,
    roleKeys,
    permissions,
    isAdmin: roleKeys.includes('admin'),
  };
}

/** The rows as read through the driver, as the answer writes them (the path before). */
async function throughDriver(def: ResourceDef, user: AuthUser) {
  const { db, config } = t.app.ringmes;
  const q = inScope(baseQuery(db, def), user, def, 'list');
  const page = await paginate(
    q,
    { pageNum: 0, pageSize: 1 },
    sortableColumns(def),
    defaultSortOf(def),
    't.id',
  );
  return JSON.parse(
    makeSerializer(config.timeZone)(hideFields(user, def, page.list as Record<string, any>[])),
  );
}

async function asJson(def: ResourceDef, user: AuthUser) {
  const { db, config } = t.app.ringmes;
  const q = inScope(baseQuery(db, def), user, def, 'list');
  const order = {
    args: {},
    sortable: sortableColumns(def),
    defaultSort: defaultSortOf(def),
    idColumn: 't.id',
  };
  const rows = await allRowsAsJson(db, q, def, user, order, config.timeZone);
  return rows && JSON.parse(`[${rows.texts.join(',')}]`);
}

function defaultSortOf(def: ResourceDef) {
  const sortable = sortableColumns(def);
  return def.defaultSort
    ? { column: sortable[def.defaultSort.field] ?? 't.id', desc: def.defaultSort.order === 'desc' }
    : { column: 't.id', desc: true };
}

describe.skipIf(ON_POSTGRES)('all rows as JSON on the demo factory', () => {
  it('answers every resource as the driver-read rows do, for the admin, an operator and a head', async () => {
    const users = await Promise.all(['admin', 'op01', 'head01'].map(userNamed));
    let compared = 0;
    let rows = 0;
    const readAsBefore: string[] = [];
    for (const def of RESOURCES) {
      for (const user of users) {
        // A scoped list the user may not read at all is refused by its route.
        const has = (p: string) => user.isAdmin || user.permissions.has(p);
        if (def.scopedPermissions && allowedScope(has, def, 'list')?.length === 0) continue;
        const json = await asJson(def, user);
        if (!json) {
          readAsBefore.push(def.name);
          break;
        }
        const before = await throughDriver(def, user);
        expect({ resource: def.name, user: user.userName, rows: json }).toEqual({
          resource: def.name,
          user: user.userName,
          rows: before,
        });
        compared++;
        rows += json.length;
      }
    }
    // Most resources, and thousands of rows of the demo, go through the database's JSON.
    expect(compared).toBeGreaterThan(RESOURCES.length * 2);
    expect(rows).toBeGreaterThan(5000);
    expect(readAsBefore.length).toBeLessThan(RESOURCES.length / 4);
  }, 300_000);

  it("hides a colleague's wage from an operator and shows him his own, as the driver-read rows do", async () => {
    const def = RESOURCES.find((d) => d.name === 'work-report') as ResourceDef;
    const wageFields = def.fields.filter((f) => f.visibleTo).map((f) => f.name);
    expect(wageFields.length).toBeGreaterThan(0);
    const op01 = await userNamed('op01');
    const all = await asJson(def, await userNamed('admin'));
    const mine = await asJson(def, op01);
    expect(mine).toEqual(await throughDriver(def, op01));
    const others = all.filter((r: any) => Number(r[def.owner?.field as string]) !== op01.id);
    const seen = new Map(mine.map((r: any) => [r.id, r]));
    for (const r of others)
      if (seen.has(r.id)) for (const f of wageFields) expect((seen.get(r.id) as any)[f]).toBeNull();
  });
});

describe.runIf(ON_POSTGRES)('all rows as JSON on PostgreSQL', () => {
  it('answers the customers as the driver-read rows do: exact amounts, times in the factory zone', async () => {
    const admin = await userNamed('admin');
    const def = RESOURCES.find((d) => d.name === 'customer') as ResourceDef;
    const json = await asJson(def, admin);
    expect(json).toHaveLength(700);
    expect(json).toEqual(await throughDriver(def, admin));
    const first = json.find((r: any) => r.code === 'JS0001');
    expect(first).toMatchObject({ creditLimit: '1000.50', createdAt: '2026-03-02 08:59:59' });
  });
});

describe('listAll over HTTP', () => {
  it('answers the envelope with every row, each row once, in the list order', async () => {
    const token = await t.login();
    const r = await t.app.inject({
      method: 'GET',
      url: '/api/v1/customer/listAll',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.code).toBe('200');
    // The customers' list order: by code.
    const inOrder = await sql<{ id: number }>`
      SELECT id FROM customer WHERE state = '1' ORDER BY code, id`.execute(t.database.db);
    expect(inOrder.rows.length).toBeGreaterThan(5);
    expect(body.result.map((c: { id: number }) => c.id)).toEqual(inOrder.rows.map((r) => Number(r.id)));
  });
});
