import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextDocNo } from '../src/platform/numbering.ts';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
});
afterAll(() => t.close());

describe('users', () => {
  it('adds, lists with filters, updates with version and deletes a user, writing the audit log', async () => {
    const dept = await t.call('POST', '/api/v1/dept/addDept', { token, body: { deptName: '磨加工车间' } });
    const roles = await t.call('GET', '/api/v1/role/listAll', { token });
    const add = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: {
        userName: 'grinder',
        firstName: '磨工甲',
        passWord: 'secret123',
        deptId: dept.body.result.id,
        roleIds: [roles.body.result[0].id],
        phone: '13912345678',
      },
    });
    expect(add.status).toBe(200);
    const u = add.body.result;
    expect(u).toMatchObject({
      userName: 'grinder',
      deptName: '磨加工车间',
      roleNames: '超级管理员',
      status: '1',
      version: 1,
    });
    expect(u).not.toHaveProperty('passwordHash');

    const byDept = await t.call('GET', '/api/v1/user/list', {
      token,
      query: { deptId: dept.body.result.id },
    });
    expect(byDept.body.result.list.map((x: any) => x.userName)).toEqual(['grinder']);
    const byName = await t.call('GET', '/api/v1/user/list', { token, query: { firstName: '磨工' } });
    expect(byName.body.result.total).toBe(1);
    // The total comes with the page (one statement); past the end it is counted apart.
    const users = Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM app_user`.execute(t.database.db)).rows[0].n,
    );
    const page2 = await t.call('GET', '/api/v1/user/list', { token, query: { pageNum: 2, pageSize: 1 } });
    expect(page2.body.result).toMatchObject({ total: users, pageNum: 2, pageSize: 1 });
    expect(page2.body.result.list).toHaveLength(1);
    expect(Object.keys(page2.body.result.list[0])).not.toContain('pageTotal');
    const beyond = await t.call('GET', '/api/v1/user/list', { token, query: { pageNum: 99, pageSize: 20 } });
    expect(beyond.body.result).toMatchObject({ list: [], total: users });

    const upd = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { userId: u.userId, firstName: '磨工乙', version: 1 },
    });
    expect(upd.body.result).toMatchObject({ firstName: '磨工乙', version: 2 });
    const stale = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { userId: u.userId, firstName: '磨工丙', version: 1 },
    });
    expect(stale).toMatchObject({
      status: 409,
      body: { code: '409', message: '数据已被他人修改，请刷新后重试' },
    });

    const del = await t.call('DELETE', '/api/v1/user/newDeleteUser', { token, body: { userId: u.userId } });
    expect(del.status).toBe(200);
    const audit = await t.database.db
      .selectFrom('auditLog')
      .select(['action'])
      .where('entity', '=', 'user')
      .where('entityId', '=', String(u.userId))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('refuses a duplicate user name (case-insensitive) with 409', async () => {
    const r = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: { userName: 'ADMIN', firstName: 'x', passWord: 'secret123' },
    });
    expect(r).toMatchObject({ status: 409, body: { code: '409' } });
    expect(r.body.message).toMatch(/已存在/);
    const check = await t.call('GET', '/api/v1/user/selectUserNameIsTrue', {
      token,
      query: { userName: 'Admin' },
    });
    expect(check.body.result).toBe(false);
    const free = await t.call('GET', '/api/v1/user/selectUserNameIsTrue', {
      token,
      query: { userName: 'freename' },
    });
    expect(free.body.result).toBe(true);
  });

  it('refuses references to missing departments and roles', async () => {
    const r = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: { userName: 'ghost', firstName: 'x', passWord: 'secret123', deptId: 99999 },
    });
    expect(r.body).toMatchObject({ code: '400', errors: [{ field: 'deptId', message: '所选部门不存在' }] });
    const r2 = await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: { userName: 'ghost', firstName: 'x', passWord: 'secret123', roleIds: [99999] },
    });
    expect(r2.body.errors).toEqual([{ field: 'roleIds', message: '所选角色不存在' }]);
    const none = await t.call('GET', '/api/v1/user/list', { token, query: { userName: 'ghost' } });
    expect(none.body.result.total).toBe(0);
  });

  it('refuses to delete yourself or the last admin, and to disable yourself', async () => {
    const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token });
    const self = await t.call('DELETE', '/api/v1/user/newDeleteUser', {
      token,
      body: { userId: me.body.result.userId },
    });
    expect(self).toMatchObject({ status: 409, body: { message: '不能删除当前登录的账号' } });
    const off = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token,
      body: { userId: me.body.result.userId, status: '0' },
    });
    expect(off.status).toBe(409);
    // Another super-admin (by '*:*:*', not the admin role) tries to remove the only admin.
    const other = await t.userWith(['*:*:*']);
    const last = await t.call('DELETE', '/api/v1/user/newDeleteUser', {
      token: other.token,
      body: { userId: me.body.result.userId },
    });
    expect(last).toMatchObject({ status: 409, body: { message: '至少需要保留一个启用的管理员账号' } });
    const strip = await t.call('PUT', '/api/v1/user/newUpdateUser', {
      token: other.token,
      body: { userId: me.body.result.userId, roleIds: [] },
    });
    expect(strip.status).toBe(409);
    const still = await t.call('GET', '/api/v1/sso/getUserByToken', { token });
    expect(still.body.result.roleDataList).toHaveLength(1);
  });

  it('answers option and all-user lists', async () => {
    const opt = await t.call('GET', '/api/v1/user/getOptionUser', { token });
    expect(opt.body.result[0]).toEqual({
      userId: expect.any(Number),
      userName: 'admin',
      firstName: '系统管理员',
    });
    const all = await t.call('GET', '/api/v1/user/getAllUser', { token, query: { pageNum: 0 } });
    expect(all.body.result.length).toBeGreaterThanOrEqual(1);
  });
});

describe('departments', () => {
  it('builds the tree with childDept and refuses deleting a department with children or users', async () => {
    const root = await t.call('POST', '/api/v1/dept/addDept', { token, body: { deptName: '生产部' } });
    const child = await t.call('POST', '/api/v1/dept/addDept', {
      token,
      body: { deptName: '装配车间', parentId: root.body.result.id },
    });
    const tree = await t.call('POST', '/api/v1/dept/listDeptTree', { token, body: { deptName: '装配' } });
    const found = tree.body.result.find((n: any) => n.deptName === '生产部');
    expect(tree.body.result.map((n: any) => n.deptName)).toEqual(['生产部']);
    expect(found.childDept.map((c: any) => c.deptName)).toEqual(['装配车间']);

    const withChild = await t.call('DELETE', '/api/v1/dept/deleteDeptById', {
      token,
      query: { id: root.body.result.id },
    });
    expect(withChild).toMatchObject({ status: 409, body: { message: '该部门下还有下级部门，无法删除' } });
    await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: {
        userName: 'assembler',
        firstName: '装配工',
        passWord: 'secret123',
        deptId: child.body.result.id,
      },
    });
    const withUser = await t.call('DELETE', '/api/v1/dept/deleteDeptById', {
      token,
      query: { id: child.body.result.id },
    });
    expect(withUser).toMatchObject({ status: 409, body: { message: '该部门下还有用户，无法删除' } });

    const loop = await t.call('PUT', '/api/v1/dept/updateDept', {
      token,
      body: { id: root.body.result.id, parentId: child.body.result.id },
    });
    expect(loop.body.errors?.[0]).toEqual({
      field: 'parentId',
      message: '上级部门不能是自己或自己的下级部门',
    });

    const empty = await t.call('POST', '/api/v1/dept/addDept', { token, body: { deptName: '临时部门' } });
    expect(
      (await t.call('DELETE', '/api/v1/dept/deleteDeptById', { token, query: { id: empty.body.result.id } }))
        .status,
    ).toBe(200);
    expect(
      (await t.call('DELETE', '/api/v1/dept/deleteDeptById', { token, query: { id: empty.body.result.id } }))
        .status,
    ).toBe(404);
  });
});

describe('roles and menus', () => {
  it('grants menus through roles, and refuses deleting a role in use or the admin role', async () => {
    const tree = await t.call('GET', '/api/v1/menu/tree', { token });
    const sys = tree.body.result.find((n: any) => n.menuPath === '/system');
    const userPage = sys.children.find((n: any) => n.menuPath === '/system/user/manage');
    const role = await t.call('POST', '/api/v1/role/add', {
      token,
      body: {
        roleName: '人事',
        roleKey: 'hr',
        menuIds: [userPage.id, ...userPage.children.map((b: any) => b.id)],
      },
    });
    expect(role.status).toBe(200);
    const info = await t.call('GET', `/api/v1/role/info/${role.body.result.id}`, { token });
    expect(info.body.result.menuIds).toHaveLength(1 + userPage.children.length);
    await t.call('POST', '/api/v1/user/newAddUser', {
      token,
      body: { userName: 'hr01', firstName: '人事甲', passWord: 'secret123', roleIds: [role.body.result.id] },
    });
    const hr = await t.login('hr01', 'secret123');
    expect((await t.call('GET', '/api/v1/user/list', { token: hr })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/role/page', { token: hr })).status).toBe(403);

    const inUse = await t.call('DELETE', `/api/v1/role/delete/${role.body.result.id}`, { token });
    expect(inUse.status).toBe(409);
    const admin = (await t.call('GET', '/api/v1/role/listAll', { token })).body.result.find(
      (r: any) => r.roleKey === 'admin',
    );
    expect((await t.call('DELETE', `/api/v1/role/delete/${admin.id}`, { token })).body.message).toBe(
      '超级管理员角色不能删除',
    );

    // Revoking the page takes effect at once.
    await t.call('PUT', `/api/v1/role/edit/${role.body.result.id}`, { token, body: { menuIds: [] } });
    expect((await t.call('GET', '/api/v1/user/list', { token: hr })).status).toBe(403);
    const dup = await t.call('POST', '/api/v1/role/add', {
      token,
      body: { roleName: '人事2', roleKey: 'hr' },
    });
    expect(dup).toMatchObject({ status: 409, body: { message: '角色标识已存在' } });
  });

  it('adds, edits and deletes menu nodes, refusing a node with children', async () => {
    const dir = await t.call('POST', '/api/v1/menu/add', {
      token,
      body: { menuName: '测试目录', menuPath: '/test-dir', nodeType: '1', menuIco: 'AppstoreOutlined' },
    });
    const page = await t.call('POST', '/api/v1/menu/add', {
      token,
      body: {
        parentId: dir.body.result.id,
        menuName: '测试页',
        menuPath: '/test-dir/page',
        nodeType: '2',
        menuPermissions: 'test:page:list',
      },
    });
    expect(page.status).toBe(200);
    const bad = await t.call('POST', '/api/v1/menu/add', {
      token,
      body: { menuName: 'x', nodeType: '3', menuPermissions: 'not a permission' },
    });
    expect(bad.body.errors?.[0].field).toBe('menuPermissions');
    expect((await t.call('DELETE', `/api/v1/menu/delete/${dir.body.result.id}`, { token })).status).toBe(409);
    const edit = await t.call('PUT', `/api/v1/menu/edit/${page.body.result.id}`, {
      token,
      body: { menuName: '改名', menuStatus: '0', version: 1 },
    });
    expect(edit.body.result).toMatchObject({ menuName: '改名', menuStatus: '0', version: 2 });
    expect((await t.call('DELETE', `/api/v1/menu/delete/${page.body.result.id}`, { token })).status).toBe(
      200,
    );
    expect((await t.call('DELETE', `/api/v1/menu/delete/${dir.body.result.id}`, { token })).status).toBe(200);
  });

  it('seeds every spec route once and does not re-seed deleted nodes', async () => {
    const { syncMenus } = await import('../src/seed/menus.ts');
    const db = t.database.db;
    const count = async () =>
      (await db.selectFrom('menu').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n;
    const before = await count();
    expect(await syncMenus(db)).toEqual([]);
    expect(await count()).toBe(before);
    const msg = await db
      .selectFrom('menu')
      .select('id')
      .where('menuPath', '=', '/system/message/index')
      .executeTakeFirstOrThrow();
    await t.call('DELETE', `/api/v1/menu/delete/${msg.id}`, { token });
    await syncMenus(db);
    expect(await count()).toBe(before - 1);
  });
});

describe('messages', () => {
  it('counts unread and marks read', async () => {
    const me = (await t.call('GET', '/api/v1/sso/getUserByToken', { token })).body.result;
    await t.database.db
      .insertInto('message')
      .values([
        { userId: me.userId, title: '库存低于下限' },
        { userId: me.userId, title: '派工通知' },
      ])
      .execute();
    expect((await t.call('GET', '/api/v1/message/unreadCount', { token })).body.result.count).toBe(2);
    const page = await t.call('GET', '/api/v1/message/page', { token, query: { read: '0' } });
    await t.call('POST', `/api/v1/message/read/${page.body.result.list[0].id}`, { token });
    expect((await t.call('GET', '/api/v1/message/unreadCount', { token })).body.result.count).toBe(1);
    await t.call('POST', '/api/v1/message/readAll', { token });
    expect((await t.call('GET', '/api/v1/message/unreadCount', { token })).body.result.count).toBe(0);
    const other = await t.userWith([]);
    expect(
      (await t.call('POST', `/api/v1/message/read/${page.body.result.list[0].id}`, { token: other.token }))
        .status,
    ).toBe(404);
  });
  it('filters by kind together with the read state, and refuses an unknown kind in Chinese', async () => {
    const me = await t.userWith([]);
    const [repair] = await t.database.db
      .insertInto('message')
      .values([
        { userId: me.userId, title: '维修派工 A', kind: 'repair' },
        { userId: me.userId, title: '维修派工 B', kind: 'repair' },
        { userId: me.userId, title: 'SPC 失控', kind: 'spc' },
        { userId: me.userId, title: '系统通知' },
      ])
      .returning('id')
      .execute();
    await t.call('POST', `/api/v1/message/read/${repair.id}`, { token: me.token });
    const page = (query: Record<string, unknown>) =>
      t.call('GET', '/api/v1/message/page', {
        token: me.token,
        query: { pageNum: 1, pageSize: 10, ...query },
      });
    const repairs = (await page({ kind: 'repair' })).body.result;
    expect(repairs.total).toBe(2);
    expect(repairs.list.map((m: any) => m.kind)).toEqual(['repair', 'repair']);
    const unread = (await page({ kind: 'repair', read: '0' })).body.result;
    expect(unread.list.map((m: any) => m.title)).toEqual(['维修派工 B']);
    expect((await page({ kind: 'system' })).body.result.list.map((m: any) => m.title)).toEqual(['系统通知']);
    expect((await page({ kind: 'export' })).body.result.total).toBe(0);
    const second = (await page({ kind: 'repair', pageSize: 1, pageNum: 2 })).body.result;
    expect(second).toMatchObject({ total: 2, list: [{ kind: 'repair' }] });
    expect((await page({})).body.result.total).toBe(4);

    const bad = await page({ kind: 'nonsense' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('参数校验失败：kind 消息类型不正确');
    expect(bad.body.errors).toEqual([{ field: 'kind', message: '消息类型不正确' }]);
  });
});

describe('document numbers', () => {
  it('never hands out the same number twice under concurrency', async () => {
    const db = t.database.db;
    const numbers = await Promise.all(
      Array.from({ length: 60 }, () =>
        db
          .transaction()
          .execute((trx) => nextDocNo(trx, 'XS', 'Asia/Shanghai', new Date('2026-11-22T04:00:00Z'))),
      ),
    );
    expect(new Set(numbers).size).toBe(60);
    expect(numbers.sort()[0]).toBe('XS20261122-0001');
    expect(numbers.sort()[59]).toBe('XS20261122-0060');
    expect(await nextDocNo(db, 'XS', 'Asia/Shanghai', new Date('2026-11-22T17:00:00Z'))).toBe(
      'XS20261123-0001',
    );
  });
});

describe('downloads', () => {
  it("serves files from the user's own export folder only", async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const me = (await t.call('GET', '/api/v1/sso/getUserByToken', { token, query: { token } })).body.result;
    const own = path.join(t.config.exportDir, String(me.userId));
    fs.mkdirSync(own, { recursive: true });
    fs.writeFileSync(path.join(own, 'report.xlsx'), 'data');
    const ok = await t.call('GET', '/common/download', { token, query: { fileName: 'report.xlsx' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-disposition']).toMatch(/report\.xlsx/);
    const cookie = await t.call('GET', '/common/download', {
      query: { fileName: 'report.xlsx' },
      headers: { cookie: `Admin-Token=${token}` },
    });
    expect(cookie.status).toBe(200);
    for (const fileName of ['../../etc/passwd', '/etc/passwd', '..%2f..%2fetc%2fpasswd', 'a/../../x']) {
      const r = await t.call('GET', '/common/download', { token, query: { fileName } });
      expect([403, 404]).toContain(r.status);
      expect(r.body.code).toMatch(/^40[34]$/);
    }
    expect(
      (await t.call('GET', '/common/download', { token, query: { fileName: '../../etc/passwd' } })).status,
    ).toBe(403);
    expect(
      (await t.call('GET', '/common/download', { token, query: { fileName: 'missing.xlsx' } })).status,
    ).toBe(404);
    expect((await t.call('GET', '/common/download', { query: { fileName: 'report.xlsx' } })).body.code).toBe(
      '407',
    );
    const zip = await t.call('GET', '/common/download/zip', { token, query: { files: 'report.xlsx' } });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(
      (await t.call('GET', '/common/download/resource', { token, query: { resource: '../secret' } })).status,
    ).toBe(403);
  });
});

describe('duplicates name their field', () => {
  it('answers a duplicate code with 409 and the field', async () => {
    await t.call('POST', '/api/v1/material-unit/add', { token, body: { code: 'DUPU', name: '件' } });
    const r = await t.call('POST', '/api/v1/material-unit/add', {
      token,
      body: { code: 'DUPU', name: '件2' },
    });
    expect(r).toMatchObject({
      status: 409,
      body: { code: '409', message: '编码已存在', errors: [{ field: 'code', message: '编码已存在' }] },
    });
    const info = await t.call('GET', '/api/v1/material-unit/page', { token, query: { code: 'DUPU' } });
    expect(info.body.result.list[0]).toMatchObject({
      createdByName: '系统管理员',
      updatedByName: '系统管理员',
    });
  });
});
