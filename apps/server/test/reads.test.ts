import {
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
const confidentialDefs = RESOURCES.filter((d) => fieldsOf(d).some(isConfidential));
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
afterAll(() => t.close());

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

  it('shows no money, price or confidential field to roles without finance or purchase rights, on any read route', async () => {
    // A role holding every permission but the reads of records with such fields, the valued stock
    // reports and 财务部 (whose reports are money by design).
    const excluded = [
      ...confidentialDefs.flatMap((d) => [d.permission, ...allScopePrefixes(d)]),
      'warehouse:stock',
      'warehouse:stocktake',
      'finance',
    ].map((p) => `${p}:`);
    const granted = allPermissions(MENU_TREE).filter((p) => !excluded.some((x) => p.startsWith(x)));
    const roles = {
      nobody: (await t.userWith([])).token,
      'everything else': (await t.userWith(granted)).token,
    };
    const found: string[] = [];
    let answered = 0;
    const routes = readRoutes();
    for (const [role, token] of Object.entries(roles)) {
      for (const r of routes) {
        for (const query of [{}, { pageNum: 0 }, { all: 'true' }]) {
          const a = await t.call('GET', r.path, { token, query });
          expect(a.status, `${role} ${r.path} ${JSON.stringify(a.body)}`).toBeLessThan(500);
          if (a.status !== 200) continue;
          answered++;
          for (const leak of leaks(a.body.result)) found.push(`${role} GET ${r.path}: ${leak}`);
        }
      }
      const depts = await t.call('POST', '/api/v1/dept/listDeptTree', { token, body: {} });
      found.push(...leaks(depts.body.result));
    }
    expect([...new Set(found)]).toEqual([]);
    expect(answered).toBeGreaterThan(60);
    // The admin sees them, so the walk would have found them.
    const all = await t.call('GET', `/api/v1/supplier/info/${ids.get('supplier')}`, { token: admin });
    expect(leaks(all.body.result)).toEqual(expect.arrayContaining(['.bankAccount', '.taxNo']));
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
