import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.ts';

// Issue 9 §2: who may change whose roles, password and status; the last-admin rule under
// concurrency; the password policy.
let t: TestApp;
let admin: string;
let adminId: number;
let adminRoleId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login();
  const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token: admin });
  adminId = me.body.result.userId;
  adminRoleId = me.body.result.roleDataList[0].roleId;
});
afterAll(() => t.close());

const updateUser = (token: string, body: Record<string, unknown>) =>
  t.call('PUT', '/api/v1/user/newUpdateUser', { token, body });
const rolesOf = async (userId: number) =>
  (
    await t.call('GET', '/api/v1/user/list', { token: admin, query: { pageSize: 500 } })
  ).body.result.list.find((u: any) => u.userId === userId).roleIds as number[];
/** A role granting exactly these permissions, made by the admin. */
const roleWith = async (permissions: string[]) => (await t.userWith(permissions)).roleId;

describe('a user manager cannot make himself (or anyone) super-admin', () => {
  it('refuses role changes without system:user:assignRole, and accepts the unchanged roles sent back', async () => {
    const mgr = await t.userWith(['system:user:list', 'system:user:edit']);
    const up = await updateUser(mgr.token, { userId: mgr.userId, roleIds: [adminRoleId] });
    expect(up).toMatchObject({ status: 403, body: { code: '403', message: '没有分配角色的权限' } });
    expect(await rolesOf(mgr.userId)).toEqual([mgr.roleId]);
    const me = await t.call('GET', '/api/v1/sso/getUserByToken', { token: mgr.token });
    expect(me.body.result.permissions).not.toContain('*:*:*');
    // A round trip that leaves the roles as they are needs no assignment right.
    const same = await updateUser(mgr.token, {
      userId: mgr.userId,
      roleIds: [mgr.roleId],
      firstName: '改名',
    });
    expect(same.status).toBe(200);
  });

  it('grants only roles whose permissions the granter holds; the admin role only a super-admin', async () => {
    const mgr = await t.userWith([
      'system:user:list',
      'system:user:add',
      'system:user:edit',
      'system:user:assignRole',
      'sale:order:list',
    ]);
    const target = await t.userWith([]);
    const toAdmin = await updateUser(mgr.token, { userId: target.userId, roleIds: [adminRoleId] });
    expect(toAdmin).toMatchObject({
      status: 403,
      body: { message: '只有超级管理员可以授予角色「超级管理员」' },
    });
    const self = await updateUser(mgr.token, { userId: mgr.userId, roleIds: [mgr.roleId, adminRoleId] });
    expect(self.status).toBe(403);
    const wildcard = await roleWith(['*:*:*']);
    expect((await updateUser(mgr.token, { userId: target.userId, roleIds: [wildcard] })).status).toBe(403);

    const approver = await roleWith(['sale:order:list', 'sale:order:approve']);
    const beyond = await updateUser(mgr.token, { userId: target.userId, roleIds: [approver] });
    expect(beyond).toMatchObject({
      status: 403,
      body: { message: '不能授予自己没有的权限：sale:order:approve' },
    });
    const add = await t.call('POST', '/api/v1/user/newAddUser', {
      token: mgr.token,
      body: { userName: 'sneaky', firstName: '新管理员', passWord: 'Qp7-vault', roleIds: [adminRoleId] },
    });
    expect(add.status).toBe(403);
    expect(
      (
        await t.call('GET', '/api/v1/user/selectUserNameIsTrue', {
          token: admin,
          query: { userName: 'sneaky' },
        })
      ).body.result,
    ).toBe(true);

    const reader = await roleWith(['sale:order:list']);
    const ok = await updateUser(mgr.token, { userId: target.userId, roleIds: [reader] });
    expect(ok.status).toBe(200);
    expect(ok.body.result.roleIds).toEqual([reader]);
    // The super-admin grants anything.
    expect((await updateUser(admin, { userId: target.userId, roleIds: [approver] })).status).toBe(200);
  });

  it("only a super-admin changes a super-admin's password, roles or status, or deletes one", async () => {
    const mgr = await t.userWith([
      'system:user:list',
      'system:user:edit',
      'system:user:delete',
      'system:user:assignRole',
    ]);
    const pwd = await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
      token: mgr.token,
      body: { userId: adminId, passWord: 'Taken-over-1' },
    });
    expect(pwd).toMatchObject({
      status: 403,
      body: { message: '只有超级管理员可以修改超级管理员的账号' },
    });
    expect((await updateUser(mgr.token, { userId: adminId, status: '0' })).status).toBe(403);
    expect((await updateUser(mgr.token, { userId: adminId, roleIds: [] })).status).toBe(403);
    const del = await t.call('DELETE', '/api/v1/user/newDeleteUser', {
      token: mgr.token,
      body: { userId: adminId },
    });
    expect(del.status).toBe(403);
    await t.login('admin', ADMIN_PASSWORD);
    // Nor any other field of a super-admin (issue 34); users without permissions stay manageable.
    expect((await updateUser(mgr.token, { userId: adminId, phone: '13800000000' })).status).toBe(403);
    const plain = await t.userWith([]);
    const reset = await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
      token: mgr.token,
      body: { userId: plain.userId, passWord: 'Fresh-start-9' },
    });
    expect(reset.status).toBe(200);
  });

  it('a role editor adds to a role only the permissions he holds, and never touches the admin role', async () => {
    const editor = await t.userWith(['system:role:list', 'system:role:edit', 'system:role:add']);
    const deleteBtn = await t.database.db
      .selectFrom('menu')
      .select('id')
      .where('menuPermissions', '=', 'system:user:delete')
      .executeTakeFirstOrThrow();
    const info = await t.call('GET', `/api/v1/role/info/${editor.roleId}`, { token: admin });
    const grow = await t.call('PUT', `/api/v1/role/edit/${editor.roleId}`, {
      token: editor.token,
      body: { menuIds: [...info.body.result.menuIds, deleteBtn.id] },
    });
    expect(grow).toMatchObject({
      status: 403,
      body: { message: '不能授予自己没有的权限：system:user:delete' },
    });
    const fresh = await t.call('POST', '/api/v1/role/add', {
      token: editor.token,
      body: { roleName: '越权角色', roleKey: 'escalate', menuIds: [deleteBtn.id] },
    });
    expect(fresh.status).toBe(403);
    const same = await t.call('PUT', `/api/v1/role/edit/${editor.roleId}`, {
      token: editor.token,
      body: { menuIds: info.body.result.menuIds, remark: '说明' },
    });
    expect(same.status).toBe(200);
    const adminRole = await t.call('PUT', `/api/v1/role/edit/${adminRoleId}`, {
      token: editor.token,
      body: { remark: 'mine' },
    });
    expect(adminRole.status).toBe(403);
  });
});

describe('password policy', () => {
  const add = (userName: string, passWord: string) =>
    t.call('POST', '/api/v1/user/newAddUser', {
      token: admin,
      body: { userName, firstName: '策略', passWord },
    });

  it('refuses the most common passwords and the user name itself; six characters is the default minimum', async () => {
    for (const p of ['123456', 'password', 'qwerty123', 'Dragon', 'iloveyou']) {
      const r = await add('policy1', p);
      expect(r.status, p).toBe(400);
      expect(r.body.errors).toEqual([{ field: 'passWord', message: '密码过于常见，容易被猜中，请换一个' }]);
    }
    const same = await add('Policy.User', 'policy.user');
    expect(same.body.errors).toEqual([{ field: 'passWord', message: '密码不能与用户名相同' }]);
    expect((await add('policy1', 'Zq7#kp')).status).toBe(200);
    const reset = await t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
      token: admin,
      body: { userId: (await add('policy2', 'Zq7#kp')).body.result.userId, passWord: 'abc123' },
    });
    expect(reset.body.errors).toEqual([{ field: 'passWord', message: '密码过于常见，容易被猜中，请换一个' }]);
  });

  it('takes a higher minimum from the password policy setting', async () => {
    expect((await t.call('GET', '/api/v1/sysSetting/passwordPolicy', { token: admin })).body.result).toEqual({
      minLength: 6,
    });
    const low = await t.call('PUT', '/api/v1/sysSetting/passwordPolicy', {
      token: admin,
      body: { minLength: 5 },
    });
    expect(low.body.errors).toEqual([{ field: 'minLength', message: '密码最小长度不能小于 6' }]);
    const plain = await t.userWith([]);
    const denied = await t.call('PUT', '/api/v1/sysSetting/passwordPolicy', {
      token: plain.token,
      body: { minLength: 8 },
    });
    expect(denied.status).toBe(403);
    const set = await t.call('PUT', '/api/v1/sysSetting/passwordPolicy', {
      token: admin,
      body: { minLength: 10 },
    });
    expect(set.body.result).toEqual({ minLength: 10 });
    const r = await add('policy3', 'Zq7#kpx9');
    expect(r.body.errors).toEqual([{ field: 'passWord', message: '密码不能少于10位数' }]);
    expect((await add('policy3', 'Zq7#kpx9-long')).status).toBe(200);
    const info = await t.call('GET', '/api/v1/sysSetting/passwordPolicy', { token: plain.token });
    expect(info.body.result).toEqual({ minLength: 10 });
    await t.call('PUT', '/api/v1/sysSetting/passwordPolicy', { token: admin, body: { minLength: 6 } });
  });

  it('asks for the current password when users change their own', async () => {
    const me = await t.userWith([], 'selfchange');
    const change = (body: Record<string, unknown>) =>
      t.call('PUT', '/api/v1/user/newUpdateUserPwd', {
        token: me.token,
        body: { userId: me.userId, ...body },
      });
    expect((await change({ passWord: 'Better-pass-3' })).body.errors).toEqual([
      { field: 'oldPassWord', message: '请输入当前密码' },
    ]);
    expect((await change({ passWord: 'Better-pass-3', oldPassWord: 'guess-1' })).body.errors).toEqual([
      { field: 'oldPassWord', message: '当前密码不正确' },
    ]);
    expect((await change({ passWord: 'Better-pass-3', oldPassWord: 'secret123' })).status).toBe(200);
    expect((await t.login('selfchange', 'Better-pass-3')).length).toBeGreaterThan(20);
  });
});

// Last: it disables the seeded admin (and with it the helper's admin session).
describe('at least one enabled administrator, under concurrency', () => {
  it('two administrators disabling each other at once leave one enabled (20 tries)', async () => {
    const enabledAdmins = async () =>
      (
        await sql<{ id: number }>`
          SELECT u.id::int AS id FROM app_user u
           WHERE u.status = '1'
             AND EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_id = ${adminRoleId})`.execute(
          t.database.db,
        )
      ).rows.map((r) => r.id);
    expect(await enabledAdmins()).toEqual([adminId]);
    let current = { userId: adminId, token: admin };
    for (let trial = 0; trial < 20; trial++) {
      const name = `pair${trial}`;
      const u = await t.call('POST', '/api/v1/user/newAddUser', {
        token: current.token,
        body: {
          userName: name,
          firstName: `管理员${trial}`,
          passWord: 'Ring-admin-7',
          roleIds: [adminRoleId],
        },
      });
      expect(u.status).toBe(200);
      const other = { userId: u.body.result.userId as number, token: await t.login(name, 'Ring-admin-7') };
      // Both sessions resolved (and cached) first, so the two changes really run side by side.
      for (const tk of [current.token, other.token])
        await t.call('GET', '/api/v1/sso/getUserByToken', { token: tk });
      const answers = await Promise.all([
        updateUser(current.token, { userId: other.userId, status: '0' }),
        updateUser(other.token, { userId: current.userId, status: '0' }),
      ]);
      const left = await enabledAdmins();
      expect(left, `try ${trial}: ${answers.map((r) => r.status)}`).toHaveLength(1);
      const refused = answers.find((r) => r.status === 409);
      if (refused) expect(refused.body.message).toBe('至少需要保留一个启用的管理员账号');
      current = left[0] === other.userId ? other : current;
    }
  });
});
