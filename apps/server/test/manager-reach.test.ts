import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// Issue 34 §1 (insider attack): a user manager reset the passwords of users holding what he did
// not, signed in as them and used their permissions; he could also strip their roles. A manager
// acts on a user only when that user's effective permissions are all his own; a role or a menu
// node carrying permissions he lacks is beyond him too.
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
});
afterAll(() => t.close());

const USER_MANAGER = [
  'system:user:list',
  'system:user:add',
  'system:user:edit',
  'system:user:delete',
  'system:user:assignRole',
];
const BEYOND = '该用户拥有您不具备的权限，不能修改';

const updateUser = (token: string, body: Record<string, unknown>) =>
  t.call('PUT', '/api/v1/user/newUpdateUser', { token, body });
const resetPassword = (token: string, userId: number, passWord = 'Taken-over-7') =>
  t.call('PUT', '/api/v1/user/newUpdateUserPwd', { token, body: { userId, passWord } });

describe('a user manager acts only on users whose permissions he holds himself', () => {
  it('cannot reset the password of a user holding more, so he cannot sign in as him', async () => {
    const mgr = await t.userWith(USER_MANAGER);
    const qc = await t.userWith(['quality:inspection:list', 'quality:inspection:approve']);
    const r = await resetPassword(mgr.token, qc.userId);
    expect(r).toMatchObject({ status: 403, body: { code: '403' } });
    expect(r.body.message).toContain(BEYOND);
    // The old password still works, the new one does not.
    const qcName = (
      await t.call('GET', '/api/v1/user/list', { token: admin, query: { pageSize: 500 } })
    ).body.result.list.find((u: any) => u.userId === qc.userId).userName;
    await expect(t.login(qcName, 'Taken-over-7')).rejects.toThrow();
    expect(await t.login(qcName, 'secret123')).toBeTruthy();
  });

  it('cannot disable, edit, strip the roles of, or delete a user holding more', async () => {
    const mgr = await t.userWith(USER_MANAGER);
    const fin = await t.userWith(['finance:receipt:list', 'finance:receipt:approve']);
    for (const change of [{ status: '0' }, { roleIds: [] }, { phone: '13900000000' }]) {
      const r = await updateUser(mgr.token, { userId: fin.userId, ...change });
      expect(r.status, JSON.stringify(change)).toBe(403);
      expect(r.body.message).toContain(BEYOND);
    }
    const del = await t.call('DELETE', '/api/v1/user/newDeleteUser', {
      token: mgr.token,
      body: { userIds: [fin.userId] },
    });
    expect(del.status).toBe(403);
    // Untouched: still enabled, still holding its role.
    const row = (
      await t.call('GET', '/api/v1/user/list', { token: admin, query: { pageSize: 500 } })
    ).body.result.list.find((u: any) => u.userId === fin.userId);
    expect(row).toMatchObject({ status: '1', roleIds: [fin.roleId] });
  });

  it('still manages users whose permissions he holds, and the super-admin manages anyone', async () => {
    const mgr = await t.userWith([...USER_MANAGER, 'sale:order:list']);
    const reader = await t.userWith(['sale:order:list']);
    expect((await resetPassword(mgr.token, reader.userId)).status).toBe(200);
    expect((await updateUser(mgr.token, { userId: reader.userId, phone: '13900000001' })).status).toBe(200);
    expect((await updateUser(mgr.token, { userId: reader.userId, status: '0' })).status).toBe(200);
    expect((await updateUser(mgr.token, { userId: reader.userId, roleIds: [] })).status).toBe(200);
    const none = await t.userWith([]);
    expect(
      (
        await t.call('DELETE', '/api/v1/user/newDeleteUser', {
          token: mgr.token,
          body: { userId: none.userId },
        })
      ).status,
    ).toBe(200);
    const fin = await t.userWith(['finance:receipt:approve']);
    expect((await resetPassword(admin, fin.userId)).status).toBe(200);
  });

  it('cannot give a user he reaches a role carrying permissions he lacks', async () => {
    const mgr = await t.userWith([...USER_MANAGER, 'sale:order:list']);
    const reader = await t.userWith(['sale:order:list']);
    const approver = await t.userWith(['sale:order:list', 'sale:order:approve']);
    const r = await updateUser(mgr.token, {
      userId: reader.userId,
      roleIds: [reader.roleId, approver.roleId],
    });
    expect(r).toMatchObject({ status: 403, body: { message: '不能授予自己没有的权限：sale:order:approve' } });
  });
});

describe('roles and menu nodes carrying permissions one lacks are beyond one', () => {
  it('a role editor cannot change, strip or delete a role holding permissions he lacks', async () => {
    const editor = await t.userWith(['system:role:list', 'system:role:edit', 'system:role:delete']);
    const fin = await t.userWith(['finance:receipt:list', 'finance:receipt:approve']);
    const strip = await t.call('PUT', `/api/v1/role/edit/${fin.roleId}`, {
      token: editor.token,
      body: { menuIds: [] },
    });
    expect(strip.status).toBe(403);
    expect(strip.body.message).toContain('该角色拥有您不具备的权限，不能修改');
    const off = await t.call('PUT', `/api/v1/role/edit/${fin.roleId}`, {
      token: editor.token,
      body: { status: '0' },
    });
    expect(off.status).toBe(403);
    const info = await t.call('GET', `/api/v1/role/info/${fin.roleId}`, { token: admin });
    expect(info.body.result).toMatchObject({ status: '1' });
    expect(info.body.result.menuIds.length).toBe(2);
    // A role within his reach stays editable.
    const mine = await t.userWith(['system:role:list']);
    const ok = await t.call('PUT', `/api/v1/role/edit/${mine.roleId}`, {
      token: editor.token,
      body: { remark: '只读' },
    });
    expect(ok.status).toBe(200);
  });

  it('a menu editor cannot rewrite a node to carry a permission he lacks, nor rewrite or delete one he lacks', async () => {
    const editor = await t.userWith(['system:menu:list', 'system:menu:edit', 'system:menu:delete']);
    const db = t.database.db;
    const own = await db
      .selectFrom('menu')
      .select(['id', 'version'])
      .where('menuPermissions', '=', 'system:menu:list')
      .executeTakeFirstOrThrow();
    // His own 查询 button turned into 超级管理员 or into someone else's approval.
    for (const p of ['*:*:*', 'finance:receipt:approve']) {
      const r = await t.call('PUT', `/api/v1/menu/edit/${own.id}`, {
        token: editor.token,
        body: { menuPermissions: p },
      });
      expect(r.status, p).toBe(403);
    }
    const approve = await db
      .selectFrom('menu')
      .select('id')
      .where('menuPermissions', '=', 'finance:receipt:approve')
      .executeTakeFirstOrThrow();
    const rewrite = await t.call('PUT', `/api/v1/menu/edit/${approve.id}`, {
      token: editor.token,
      body: { menuPermissions: 'system:menu:list' },
    });
    expect(rewrite.status).toBe(403);
    const del = await t.call('DELETE', `/api/v1/menu/delete/${approve.id}`, { token: editor.token });
    expect(del.status).toBe(403);
    const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token: editor.token });
    expect(me.body.result.permissions).not.toContain('*:*:*');
    // Renaming a node he holds is fine.
    const rename = await t.call('PUT', `/api/v1/menu/edit/${own.id}`, {
      token: editor.token,
      body: { menuName: '菜单查询' },
    });
    expect(rename.status).toBe(200);
  });
});
