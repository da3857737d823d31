import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Saved views of the kit's lists (issue 41 §5): personal views only their owner sees and edits,
 * views shared with a role seen by its users and edited with system:setting:shareView, a
 * default view per user and list, bad input refused in Chinese.
 */
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const views = (token: string, listKey = 'sale-order') =>
  t.call('GET', '/api/v1/list-view/list', { token, query: { listKey } });
const add = (token: string, body: unknown) => t.call('POST', '/api/v1/list-view/add', { token, body });
const edit = (token: string, id: number, body: unknown) =>
  t.call('PUT', `/api/v1/list-view/edit/${id}`, { token, body });
const remove = (token: string, id: number) => t.call('DELETE', `/api/v1/list-view/delete/${id}`, { token });

const DRAFTS = {
  filters: { status: 'draft', orderDateFrom: '2026-11-01' },
  sortField: 'deliveryDate',
  sortOrder: 'asc',
  hidden: ['salespersonId'],
  pageSize: 50,
};

describe('保存的列表视图', () => {
  it('keeps a personal view for its owner alone, who edits, defaults and deletes it', async () => {
    const sales = await t.userWith(['sale:order:list']);
    const other = await t.userWith(['sale:order:list']);
    const v = ok(await add(sales.token, { listKey: 'sale-order', name: '待审核草稿', state: DRAFTS }));
    expect(v).toMatchObject({ name: '待审核草稿', roleId: null, editable: true, state: DRAFTS, version: 1 });

    expect(ok(await views(sales.token)).views.map((x: any) => x.name)).toEqual(['待审核草稿']);
    expect(ok(await views(other.token)).views).toEqual([]);
    // Someone else's personal view: neither changed nor deleted, nor made his default.
    expect((await edit(other.token, v.id, { name: '我的' })).status).toBe(403);
    expect((await edit(other.token, v.id, { name: '我的' })).body.message).toBe('只能修改本人的个人视图');
    expect((await remove(other.token, v.id)).status).toBe(403);
    const steal = await t.call('PUT', '/api/v1/list-view/default', {
      token: other.token,
      body: { listKey: 'sale-order', viewId: v.id },
    });
    expect(steal.status).toBe(404);

    // Same name twice in one list: refused; in another list: fine.
    const twice = await add(sales.token, { listKey: 'sale-order', name: '待审核草稿', state: {} });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('已有同名个人视图「待审核草稿」');

    const changed = ok(
      await edit(sales.token, v.id, { state: { ...DRAFTS, pageSize: 100 }, version: v.version }),
    );
    expect(changed).toMatchObject({ version: 2, state: { pageSize: 100 } });
    expect((await edit(sales.token, v.id, { name: '旧版本', version: 1 })).status).toBe(409);

    ok(
      await t.call('PUT', '/api/v1/list-view/default', {
        token: sales.token,
        body: { listKey: 'sale-order', viewId: v.id },
      }),
    );
    expect(ok(await views(sales.token)).defaultId).toBe(v.id);
    ok(await remove(sales.token, v.id));
    expect(ok(await views(sales.token))).toMatchObject({ views: [], defaultId: null });
  });

  it('shares a view with a role: its users see it and may default to it, only a sharer changes it', async () => {
    const reader = await t.userWith(['sale:order:list']);
    const outsider = await t.userWith(['sale:order:list']);
    const sharer = await t.userWith(['sale:order:list', 'system:setting:shareView']);

    // Without the permission a view cannot be shared.
    const refused = await add(reader.token, {
      listKey: 'sale-order',
      name: '本组草稿',
      roleId: reader.roleId,
      state: DRAFTS,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('没有共享视图的权限');

    const lists = ok(await views(sharer.token));
    expect(lists.mayShare).toBe(true);
    expect(lists.roles.some((r: any) => r.id === reader.roleId)).toBe(true);
    const shared = ok(
      await add(sharer.token, {
        listKey: 'sale-order',
        name: '本组草稿',
        roleId: reader.roleId,
        state: DRAFTS,
      }),
    );
    expect(shared).toMatchObject({ roleId: reader.roleId, editable: true });

    const seen = ok(await views(reader.token));
    expect(seen.mayShare).toBe(false);
    expect(seen.views).toEqual([expect.objectContaining({ id: shared.id, editable: false, state: DRAFTS })]);
    expect(ok(await views(outsider.token)).views).toEqual([]);
    expect((await edit(reader.token, shared.id, { name: '改名' })).status).toBe(403);
    expect((await remove(reader.token, shared.id)).status).toBe(403);

    // The role's user makes it his default; another user of no such role cannot.
    ok(
      await t.call('PUT', '/api/v1/list-view/default', {
        token: reader.token,
        body: { listKey: 'sale-order', viewId: shared.id },
      }),
    );
    expect(ok(await views(reader.token)).defaultId).toBe(shared.id);

    // An administrator (who holds every permission) renames it; the sharer removes it.
    expect(ok(await edit(admin, shared.id, { name: '销售组草稿' })).name).toBe('销售组草稿');
    ok(await remove(sharer.token, shared.id));
    expect(ok(await views(reader.token))).toMatchObject({ views: [], defaultId: null });
  });

  it('refuses bad input in Chinese: unknown list, filters, columns, page size, names', async () => {
    const cases: [unknown, number, string][] = [
      [{ listKey: 'no-such-list', name: 'x', state: {} }, 400, '没有这个列表'],
      [{ listKey: 'Sale Order', name: 'x', state: {} }, 400, '列表名格式不正确'],
      [{ listKey: 'sale-order', name: '  ', state: {} }, 400, '请填写视图名称'],
      [{ listKey: 'sale-order', name: 'x'.repeat(41), state: {} }, 400, '视图名称不能超过 40 个字符'],
      [
        { listKey: 'sale-order', name: 'x', state: { filters: { price: '1' } } },
        400,
        '销售订单没有筛选条件「price」',
      ],
      [{ listKey: 'sale-order', name: 'x', state: { sortField: 'nope' } }, 400, '销售订单没有字段「nope」'],
      [{ listKey: 'sale-order', name: 'x', state: { hidden: ['nope'] } }, 400, '销售订单没有列「nope」'],
      [
        { listKey: 'sale-order', name: 'x', state: { pageSize: 30 } },
        400,
        '每页条数只能是 10、20、50 或 100',
      ],
      [{ listKey: 'sale-order', name: 'x', state: { sortOrder: 'up' } }, 400, '排序只能是 asc 或 desc'],
      [{ listKey: 'sale-order', name: 'x', state: { colour: 'red' } }, 400, ''],
      [{ listKey: 'sale-order', name: 'x', state: {}, roleId: 999999 }, 400, '角色不存在'],
    ];
    for (const [body, status, message] of cases) {
      const r = await add(admin, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.message, JSON.stringify(body)).toContain(message);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    // A list the user may not read.
    const buyer = await t.userWith(['purchase:order:list']);
    expect((await views(buyer.token)).status).toBe(403);
    expect((await edit(admin, 999999, { name: 'x' })).status).toBe(404);
  });
});
