import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 全局搜索 (Ctrl+K, issue 41 §2): documents by number, master records by code or name, across
 * every resource the user may read, kept to his permissions on the server; exact matches first.
 */
let t: TestApp;
let token: string;
let f: Factory;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
});
afterAll(() => t?.close());

const search = (q: string, as = token) => t.call('GET', '/api/v1/search', { token: as, query: { q } });
const hits = async (q: string, as = token) => {
  const r = await search(q, as);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result.hits as any[];
};

describe('全局搜索', () => {
  it('finds a document by any fragment of its number and a master record by code or name', async () => {
    const c = await f.create('customer', { code: 'KH-ZY-0917', name: '洛阳轴研科技' });
    const m = await f.create('material-info', { salePrice: '12' });
    const o = (
      await t.call('POST', '/api/v1/sale-order/add', {
        token,
        body: {
          customerId: c.id,
          orderDate: '2026-10-08',
          deliveryDate: '2026-11-20',
          lines: [{ materialId: m.id, quantity: 10 }],
        },
      })
    ).body.result;

    // The whole number: the order first, with its customer, state and the page that opens it.
    const whole = await hits(o.docNo);
    expect(whole[0]).toEqual({
      resource: 'sale-order',
      resourceLabel: '销售订单',
      id: o.id,
      code: o.docNo,
      name: '洛阳轴研科技',
      state: '草稿',
      link: `/sale-manage/sale-order-detail?id=${o.id}`,
    });
    // Its serial's tail.
    const tail = await hits(o.docNo.slice(-6));
    expect(tail.some((h) => h.resource === 'sale-order' && h.id === o.id)).toBe(true);
    // A customer by code fragment (any case) and by a two-character name fragment.
    expect((await hits('kh-zy')).find((h) => h.resource === 'customer')).toMatchObject({
      id: c.id,
      code: 'KH-ZY-0917',
      name: '洛阳轴研科技',
      link: '/factory-info/custom/custom-manage?keyword=KH-ZY-0917',
    });
    expect((await hits('轴研')).some((h) => h.resource === 'customer' && h.id === c.id)).toBe(true);
    // Two letters: a code by its start (the trigram index serves a prefix), not anywhere in it.
    expect((await hits('kh')).some((h) => h.resource === 'customer' && h.id === c.id)).toBe(true);
    expect((await hits('zy')).some((h) => h.resource === 'customer' && h.id === c.id)).toBe(false);
    // One character finds nothing; two never search document numbers (they would scan every document).
    expect(await hits('洛')).toEqual([]);
    expect((await hits(o.docNo.slice(0, 2))).some((h) => h.resource === 'sale-order')).toBe(false);
    // An exact code ranks before fragments that merely contain it.
    await f.create('customer', { code: 'XKH-ZY-09170', name: '另一家' });
    expect((await hits('KH-ZY-0917'))[0]).toMatchObject({ resource: 'customer', id: c.id });
  });

  it('a number typed from its start lists the highest numbers first; a tail still finds by contains', async () => {
    const c = await f.create('customer');
    const m = await f.create('material-info', { salePrice: '5' });
    const made: { id: number; docNo: string }[] = [];
    for (let i = 0; i < 7; i++)
      made.push(
        (
          await t.call('POST', '/api/v1/sale-order/add', {
            token,
            body: {
              customerId: c.id,
              orderDate: '2026-09-01',
              deliveryDate: '2026-09-30',
              lines: [{ materialId: m.id, quantity: 1 }],
            },
          })
        ).body.result,
      );
    // Every order of that day starts like this (prefix + date): five, highest numbers first — typed
    // in lower case too.
    const start = made[0].docNo.slice(0, -2);
    const expected = made
      .map((o) => o.docNo)
      .filter((n) => n.startsWith(start))
      .sort()
      .reverse()
      .slice(0, 5);
    for (const typed of [start, start.toLowerCase()]) {
      const found = (await hits(typed)).filter((h) => h.resource === 'sale-order').map((h) => h.code);
      expect(found).toEqual(expected);
    }
    // Fewer than five start with it: contains-matches fill in (a serial's tail).
    const tail = made[6].docNo.slice(-5);
    expect((await hits(tail)).some((h) => h.resource === 'sale-order' && h.id === made[6].id)).toBe(true);
  });

  it('keeps to the user’s permissions on the server', async () => {
    const c = await f.create('customer', { code: 'PERM-KH-01', name: '权限测试客户' });
    const m = await f.create('material-info', { code: 'PERM-WL-01', salePrice: '3' });
    const customers = await t.userWith(['factory:customer:list']);
    const found = await hits('PERM-', customers.token);
    expect(found.map((h) => h.resource)).toEqual(['customer']);
    expect(found[0].id).toBe(c.id);
    const nobody = await t.userWith([]);
    expect(await hits('PERM-', nobody.token)).toEqual([]);
    const admin = await hits('PERM-');
    expect(admin.map((h) => `${h.resource}:${h.id}`).sort()).toEqual(
      [`customer:${c.id}`, `material-info:${m.id}`].sort(),
    );
  });

  it('keeps scoped documents to the user’s kinds', async () => {
    // A user granted one kind's list (采购入库) reads no other kind of inbound document.
    const def = (await import('@ringmes/domain')).stockInboundResource as any;
    const kinds = Object.keys(def.scopedPermissions.prefixes);
    expect(kinds.length).toBeGreaterThan(1);
    const [mine, other] = kinds;
    const prefix = ([] as string[]).concat(def.scopedPermissions.prefixes[mine])[0];
    const user = await t.userWith([`${prefix}:list`]);
    const db = t.database.db;
    const w = await f.create('warehouse-management');
    const rows = await db
      .insertInto('stockInbound')
      .values([
        { docNo: 'SCOPE-RK-0001', type: mine, warehouseId: w.id },
        { docNo: 'SCOPE-RK-0002', type: other, warehouseId: w.id },
      ] as any)
      .returning('id')
      .execute();
    const seen = await hits('SCOPE-RK', user.token);
    expect(seen.map((h) => h.id)).toEqual([rows[0].id]);
    expect((await hits('SCOPE-RK')).length).toBe(2);
  });

  it('refuses: 401 without a session, 400 in Chinese for an empty or long query', async () => {
    expect((await t.call('GET', '/api/v1/search', { query: { q: 'XS' } })).status).toBe(401);
    const empty = await search('  ');
    expect(empty.status).toBe(400);
    expect(empty.body.errors?.[0]).toEqual({ field: 'q', message: '请输入要搜索的内容' });
    const missing = await t.call('GET', '/api/v1/search', { token });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.[0]).toEqual({ field: 'q', message: '不能为空' });
    const long = await search('长'.repeat(51));
    expect(long.status).toBe(400);
    expect(long.body.errors?.[0].message).toBe('搜索内容不能超过 50 个字符');
  });
});
