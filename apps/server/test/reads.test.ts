import {
  allowedScope,
  allPermissions,
  allScopePrefixes,
  type FieldDef,
  isConfidential,
  MENU_TREE,
  optionFieldNames,
  optionsNeedRead,
  RESOURCES,
  type ResourceDef,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRolePermissions } from '../src/seed/index.ts';
import { factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Every read path of every resource (page, options, tree, listAll, info, export and the custom
 * reads): who may call it, what it shows of confidential data, and the all-rows cap.
 */
let t: TestApp;
let admin: string;
const ids = new Map<string, number>();

const fieldsOf = (def: ResourceDef): FieldDef[] => [
  ...def.fields,
  ...(def.lines ?? []).flatMap((l) => l.fields),
];
/** Names that carry money, prices or confidential data: declared fields, and the valued stock reports'. */
const CONFIDENTIAL = new Set([
  ...RESOURCES.flatMap((d) =>
    fieldsOf(d)
      .filter(isConfidential)
      .map((f) => f.name),
  ),
  'unitCost',
  'avgCost',
  'totalAmount',
]);

/** The report keys of the valued stock reports and 财务部's reports: seen by whoever opens them. */
const REPORT_KEYS = new Set(['unitCost', 'avgCost', 'totalAmount']);
const REPORT_PREFIXES = ['warehouse:stock', 'warehouse:stocktake', 'finance:'];

/** Can the role read records of `def` (resource-wide or in some scope)? */
const reads = (has: (p: string) => boolean, def: ResourceDef) =>
  [def.permission, ...allScopePrefixes(def)].some((p) => has(`${p}:list`));

/**
 * The declared rule: a confidential field is seen by who reads its resource, narrowed by its
 * `visibleTo` (permissions, or actions in some scope of the resource; the records here are the
 * admin's own, so no role is their owner). A key of the route's own resource is judged by that
 * resource's field; a key carried in from another (a line's material price) by any readable
 * resource declaring it; the valued reports' keys by the report permissions.
 */
function mayShow(has: (p: string) => boolean, resource: string, key: string): boolean {
  const visible = (def: ResourceDef, f: FieldDef) =>
    reads(has, def) &&
    (!f.visibleTo ||
      (f.visibleTo.permissions ?? []).some(has) ||
      (f.visibleTo.actions ?? []).some((a) => allowedScope(has, def, a)?.length !== 0));
  const own = RESOURCES.find((d) => d.name === resource);
  const field = own && fieldsOf(own).find((f) => f.name === key && isConfidential(f));
  if (own && field) return visible(own, field);
  if (
    REPORT_KEYS.has(key) &&
    REPORT_PREFIXES.some((p) => [...allPermissionsSet].some((x) => x.startsWith(p) && has(x)))
  )
    return true;
  return RESOURCES.some((d) => fieldsOf(d).some((f) => f.name === key && isConfidential(f) && visible(d, f)));
}
const allPermissionsSet = new Set(allPermissions(MENU_TREE));
let walked = { routes: 0, roles: 0, answered: 0 };

/** Every confidential key anywhere in an answer, with its path. */
function leaks(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaks(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(CONFIDENTIAL.has(k) && v !== null && v !== undefined ? [`${path}.${k}`] : []),
    ...leaks(v, `${path}.${k}`),
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const f = factory(t, async () => admin);
  // One record of every resource, with every confidential header field filled.
  const values: Record<string, Record<string, unknown>> = {
    supplier: { bankAccount: '中国工商银行 1103 0201', taxNo: '91320200MA1X2Y3Z4Q' },
  };
  for (const def of RESOURCES.filter((d) => !d.readonlyApi)) {
    const extra = { ...values[def.name] };
    for (const fd of def.fields.filter((x) => isConfidential(x) && !x.readonly && !(x.name in extra)))
      extra[fd.name] = '12.5';
    const rec = await f.create(def.name, extra);
    ids.set(def.name, rec.id);
  }
}, 120_000);
afterAll(async () => {
  if (walked.routes)
    console.log(
      `read walk: ${walked.routes} GET routes × ${walked.roles} roles, ${walked.answered} answers read`,
    );
  await t.close();
});

/** The GET routes, with path parameters set to the records created above. */
function readRoutes() {
  return t.app.ringmesRoutes
    .filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/'))
    .map((r) => {
      const resource = r.url.split('/')[3];
      return { ...r, path: r.url.replace(/:(\w+)/g, String(ids.get(resource) ?? 1)) };
    });
}

describe('reads', { timeout: 240_000 }, () => {
  it('needs the read permission for listAll, and applies the document scope to every read', async () => {
    const nobody = (await t.userWith([])).token;
    const r = await t.call('GET', '/api/v1/supplier/listAll', { token: nobody });
    expect(r.status).toBe(403);
    const reader = (await t.userWith(['factory:supplier:list'])).token;
    const ok = await t.call('GET', '/api/v1/supplier/listAll', { token: reader });
    expect(ok.status).toBe(200);
    expect(ok.body.result.map((x: any) => x.id)).toContain(ids.get('supplier'));

    // A purchase-inbound keeper sees purchase inbound documents only, on every read path.
    const other = await factory(t, async () => admin).create('stock-inbound', { type: 'other' });
    const keeper = (await t.userWith(['warehouse:purchaseInbound:list'])).token;
    const purchase = await factory(t, async () => admin).create('stock-inbound', { type: 'purchase' });
    for (const path of ['/api/v1/stock-inbound/listAll', '/api/v1/stock-inbound/options']) {
      const a = await t.call('GET', path, { token: keeper });
      expect(a.status, `${path} ${JSON.stringify(a.body)}`).toBe(200);
      const seen = a.body.result.map((x: any) => x.id);
      expect(seen, path).toContain(purchase.id);
      expect(seen, path).not.toContain(other.id);
    }
    const page = await t.call('GET', '/api/v1/stock-inbound/page', { token: keeper, query: { pageNum: 0 } });
    expect(page.body.result.list.map((x: any) => x.type)).toEqual(
      page.body.result.list.map(() => 'purchase'),
    );
    expect((await t.call('GET', `/api/v1/stock-inbound/info/${other.id}`, { token: keeper })).status).toBe(
      403,
    );
    // Without any read of the documents, their options are closed.
    expect((await t.call('GET', '/api/v1/stock-inbound/options', { token: nobody })).status).toBe(403);
  });

  it('gives every signed-in user the dropdowns of master data, with the option fields only', async () => {
    const nobody = (await t.userWith([])).token;
    for (const def of RESOURCES.filter((d) => !optionsNeedRead(d))) {
      const a = await t.call('GET', `/api/v1/${def.name}/options`, { token: nobody, query: { all: 'true' } });
      expect(a.status, def.name).toBe(200);
      const row = a.body.result.find((x: any) => x.id === ids.get(def.name));
      if (def.readonlyApi) continue;
      expect(row, def.name).toBeDefined();
      const allowed = new Set([
        'id',
        'label',
        'value',
        ...optionFieldNames(def),
        ...optionFieldNames(def).map((n) => n.replace(/Id$/, 'Name')),
      ]);
      expect(
        Object.keys(row).filter((k) => !allowed.has(k)),
        def.name,
      ).toEqual([]);
    }
  });

  it('searches options by keyword, picks them by id and filters them by their reference fields', async () => {
    const token = (await t.userWith([])).token;
    const material = await t.call('GET', `/api/v1/material-info/info/${ids.get('material-info')}`, {
      token: admin,
    });
    const m = material.body.result;
    const found = await t.call('GET', '/api/v1/material-info/options', {
      token,
      query: { keyword: m.code.slice(-5) },
    });
    expect(found.body.result.map((x: any) => x.id)).toContain(m.id);
    expect(Object.keys(found.body.result[0])).toContain('spec');
    const byId = await t.call('GET', '/api/v1/material-info/options', {
      token,
      query: { ids: String(m.id) },
    });
    expect(byId.body.result).toHaveLength(1);
    expect(byId.body.result[0]).toMatchObject({
      id: m.id,
      label: `${m.name}（${m.code}）`,
      unitName: m.unitName,
    });
    const location = ids.get('shelf-location') as number;
    const loc = (await t.call('GET', `/api/v1/shelf-location/info/${location}`, { token: admin })).body
      .result;
    const inWarehouse = await t.call('GET', '/api/v1/shelf-location/options', {
      token,
      query: { warehouseId: loc.warehouseId },
    });
    expect(inWarehouse.body.result.map((x: any) => x.id)).toEqual([location]);
    const users = await t.call('GET', '/api/v1/user/getOptionUser', { token, query: { keyword: 'adm' } });
    expect(users.body.result.map((u: any) => u.userName)).toEqual(['admin']);
    const bad = await t.call('GET', '/api/v1/material-info/options', { token, query: { ids: '1;2' } });
    expect(bad.status).toBe(400);
  });

  it('shows each demo role only the money, price and confidential fields the declarations give it, on every read route', async () => {
    // The records were made by the admin: a worker's wage on the report is nobody's own here.
    await sql`UPDATE work_report SET piece_rate = 0.5, wage_amount = 6.25`.execute(t.database.db);
    const roles = new Map<string, { token: string; has: (p: string) => boolean }>();
    const nobody = (await t.userWith([])).token;
    roles.set('无角色', { token: nobody, has: () => false });
    for (const { roleName, permissions } of demoRolePermissions().values()) {
      const held = new Set(permissions);
      roles.set(roleName, { token: (await t.userWith(permissions)).token, has: (p) => held.has(p) });
    }
    const found: string[] = [];
    let answered = 0;
    const routes = readRoutes();
    for (const [role, { token, has }] of roles) {
      for (const r of routes) {
        const resource = r.url.split('/')[3];
        const queries =
          r.url.endsWith('/page') || r.url.endsWith('/options')
            ? [{}, { pageNum: 0 }, { all: 'true' }]
            : [{}];
        for (const query of queries) {
          const a = await t.call('GET', r.path, { token, query });
          expect(a.status, `${role} ${r.path} ${JSON.stringify(a.body)}`).toBeLessThan(500);
          if (a.status !== 200) continue;
          answered++;
          for (const leak of leaks(a.body.result))
            if (!mayShow(has, resource, leak.split('.').pop() as string))
              found.push(`${role} GET ${r.path}: ${leak}`);
        }
      }
      const depts = await t.call('POST', '/api/v1/dept/listDeptTree', { token, body: {} });
      found.push(...leaks(depts.body.result).map((l) => `${role} dept: ${l}`));
    }
    expect([...new Set(found)]).toEqual([]);
    expect(roles.size).toBe(12); // the eleven demo roles (three operators, one per workshop) and none
    expect(answered).toBeGreaterThan(600);
    walked = { routes: routes.length, roles: roles.size, answered };
    // The walk would have found them: the admin sees the bank account and a worker's wage.
    const all = await t.call('GET', `/api/v1/supplier/info/${ids.get('supplier')}`, { token: admin });
    expect(leaks(all.body.result)).toEqual(expect.arrayContaining(['.bankAccount', '.taxNo']));
    const wage = await t.call('GET', `/api/v1/work-report/info/${ids.get('work-report')}`, { token: admin });
    expect(leaks(wage.body.result)).toEqual(expect.arrayContaining(['.pieceRate', '.wageAmount']));
  });
});

describe('all rows (pageNum=0)', { timeout: 120_000 }, () => {
  it('answers up to 5,000 rows and refuses more with the count', async () => {
    const token = (await t.userWith(['factory:unit:list'])).token;
    const before = (await t.call('GET', '/api/v1/material-unit/page', { token, query: { pageNum: 0 } })).body
      .result.total;
    await sql`INSERT INTO material_unit (code, name)
              SELECT 'CAP' || g, '单位' || g FROM generate_series(1, ${5000 - before}) g`.execute(
      t.database.db,
    );
    const full = await t.call('GET', '/api/v1/material-unit/page', { token, query: { pageNum: 0 } });
    expect(full.status).toBe(200);
    expect(full.body.result.list).toHaveLength(5000);
    await sql`INSERT INTO material_unit (code, name) VALUES ('CAP-X', '多一个')`.execute(t.database.db);
    for (const path of ['/api/v1/material-unit/page?pageNum=0', '/api/v1/material-unit/listAll']) {
      const over = await t.call('GET', path, { token });
      expect(over.status, path).toBe(400);
      expect(over.body).toMatchObject({ code: '400', message: '记录过多（共 5001 条），请输入条件缩小范围' });
    }
    const narrowed = await t.call('GET', '/api/v1/material-unit/page', {
      token,
      query: { pageNum: 0, name: '多一个' },
    });
    expect(narrowed.body.result.list).toHaveLength(1);
    const paged = await t.call('GET', '/api/v1/material-unit/page', { token, query: { pageNum: 3 } });
    expect(paged.body.result.total).toBe(5001);
    await sql`INSERT INTO app_user (user_name, first_name, password_hash)
              SELECT 'cap' || g, '用户' || g, 'x' FROM generate_series(1, 5000) g`.execute(t.database.db);
    const users = await t.call('GET', '/api/v1/user/getAllUser', { token });
    expect(users.status).toBe(400);
    expect(users.body.message).toMatch(/^记录过多（共 \d+ 条）/);
  });
});
