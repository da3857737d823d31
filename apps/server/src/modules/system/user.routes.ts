import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/password.ts';
import {
  checkPasswordPolicy,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
} from '../../platform/auth/password-policy.ts';
import { can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsAny } from '../../platform/db/like.ts';
import { conflict, fieldError, forbidden, notFound, STALE_VERSION } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { AUDIT_KEYS, editBody, type RoundTrip, refuseChanged, zx } from '../../platform/http/validation.ts';
import { ALL_ROWS_MAX, paginate, pagingFields } from '../../platform/paging.ts';
import { optionQueryFields } from '../../platform/resource/options.ts';
import {
  assertAdminRemains,
  assertMayGrantRoles,
  assertMayManage,
  getUser,
  roleIdsOf,
  userPage,
} from './user.service.ts';

const password = z
  .string({ error: '请输入密码' })
  .min(MIN_PASSWORD_LENGTH, `密码不能少于${MIN_PASSWORD_LENGTH}位数`)
  .max(MAX_PASSWORD_LENGTH, `密码不能超过 ${MAX_PASSWORD_LENGTH} 个字符`);
const userName = z
  .string({ error: '请输入用户名' })
  .trim()
  .regex(/^[A-Za-z0-9_.@-]{2,40}$/, '用户名为 2–40 位字母、数字或 _ . @ -');
const profile = {
  firstName: zx.required(40),
  phone: zx
    .text(30)
    .regex(/^[\d+\- ]*$/, '手机号格式不正确')
    .optional()
    .nullable(),
  email: z
    .union([z.literal(''), z.email('邮箱格式不正确').max(120)])
    .optional()
    .nullable(),
  avatar: zx.text(500).optional().nullable(),
  introduction: zx.text(500).optional().nullable(),
  deptId: zx.id.optional().nullable(),
  roleIds: z.array(zx.id).max(50).optional(),
  status: zx.flag.optional(),
};

const addBody = z.strictObject({ userName, passWord: password, ...profile });
/** A user row as `list` answers it goes back: its labels and audit columns are dropped, its name must not change. */
const USER_ROUND_TRIP: RoundTrip = {
  answerOnly: [...AUDIT_KEYS, 'deptName', 'roleNames'],
  fixed: { userName: '用户名' },
};
const updateBody = editBody(
  { userId: zx.id, ...profile, firstName: profile.firstName.optional(), version: zx.version },
  USER_ROUND_TRIP,
);

async function checkRefs(db: Db, deptId: number | null | undefined, roleIds: number[] | undefined) {
  if (deptId) {
    const d = await db.selectFrom('dept').select('id').where('id', '=', deptId).executeTakeFirst();
    if (!d) throw fieldError('deptId', '所选部门不存在');
  }
  if (roleIds?.length) {
    const found = await db.selectFrom('role').select('id').where('id', 'in', roleIds).execute();
    if (found.length !== new Set(roleIds).size) throw fieldError('roleIds', '所选角色不存在');
  }
}

async function setRoles(db: Db, userId: number, roleIds: number[]) {
  await db.deleteFrom('userRole').where('userId', '=', userId).execute();
  const unique = [...new Set(roleIds)];
  if (unique.length)
    await db
      .insertInto('userRole')
      .values(unique.map((roleId) => ({ userId, roleId })))
      .execute();
}

export function userRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/list',
    permission: 'system:user:list',
    query: z.strictObject({
      ...pagingFields,
      userName: zx.text(40).optional(),
      firstName: zx.text(40).optional(),
      phone: zx.text(30).optional(),
      deptId: zx.id.optional(),
      status: zx.flag.optional(),
    }),
    async handler({ query, app: { db } }) {
      return userPage(db, query);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/getOptionUser',
    permission: 'authenticated',
    // The user dropdown: searched as one types (`keyword`), never the whole table at once.
    query: z.strictObject(optionQueryFields),
    async handler({ query, app: { db } }) {
      let q = db.selectFrom('appUser').select(['id as userId', 'userName', 'firstName']);
      if (query.ids) q = q.where('id', 'in', query.ids);
      else if (query.all !== 'true') q = q.where('status', '=', '1');
      if (query.keyword) {
        q = q.where(containsAny(['first_name', 'user_name'], query.keyword));
      }
      return q
        .orderBy('id')
        .limit(query.limit ?? ALL_ROWS_MAX)
        .execute();
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/getAllUser',
    permission: 'authenticated',
    query: z.object({ pageNum: z.string().optional() }),
    async handler({ app: { db } }) {
      const q = db
        .selectFrom('appUser')
        .select(['id as userId', 'userName', 'firstName', 'deptId', 'status']);
      return (await paginate(q, { pageNum: 0, pageSize: 1 }, {}, { column: 'id', desc: false }, 'id')).list;
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/selectUserNameIsTrue',
    permission: 'authenticated',
    query: z.strictObject({ userName: zx.required(40), userId: zx.id.optional() }),
    async handler({ query, app: { db } }) {
      let q = db
        .selectFrom('appUser')
        .select('id')
        .where(sql`lower(user_name)`, '=', query.userName.toLowerCase());
      if (query.userId) q = q.where('id', '<>', query.userId);
      return !(await q.executeTakeFirst());
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/newAddUser',
    permission: 'system:user:add',
    body: addBody,
    async handler({ body, user, req, app: { db } }) {
      await checkPasswordPolicy(db, body.passWord, body.userName);
      const passwordHash = await hashPassword(body.passWord);
      const id = await db.transaction().execute(async (trx) => {
        await checkRefs(trx, body.deptId, body.roleIds);
        await assertMayGrantRoles(trx, user, [], body.roleIds ?? []);
        const taken = await trx
          .selectFrom('appUser')
          .select('id')
          .where(sql`lower(user_name)`, '=', body.userName.toLowerCase())
          .executeTakeFirst();
        if (taken) throw conflict(`用户名 ${body.userName} 已存在`);
        const { roleIds, passWord, ...fields } = body;
        const row = await trx
          .insertInto('appUser')
          .values({
            ...fields,
            email: fields.email || null,
            passwordHash,
            createdBy: user.id,
            updatedBy: user.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setRoles(trx, row.id, roleIds ?? []);
        await audit(trx, user, { entity: 'user', entityId: row.id, action: 'create', after: fields }, req.id);
        return row.id;
      });
      return getUser(db, id);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/user/newUpdateUser',
    permission: 'system:user:edit',
    body: updateBody,
    async handler({ body, user, req, app: { db, sessions } }) {
      const { userId, roleIds, version, ...fields } = body;
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('appUser')
          .selectAll()
          .where('id', '=', userId)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('用户不存在');
        refuseChanged(body, before, USER_ROUND_TRIP);
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        if (userId === user.id && fields.status === '0') throw conflict('不能停用当前登录的账号');
        await checkRefs(trx, fields.deptId, roleIds);
        const rolesBefore = await roleIdsOf(trx, userId);
        const rolesChange = roleIds !== undefined && !sameSet(rolesBefore, roleIds);
        // Any change of a user beyond one's reach, be it only a phone number (issue 34).
        await assertMayManage(trx, sessions, user, [userId]);
        if (rolesChange && roleIds) await assertMayGrantRoles(trx, user, rolesBefore, roleIds);
        await trx
          .updateTable('appUser')
          .set({
            ...fields,
            ...(fields.email !== undefined ? { email: fields.email || null } : {}),
            updatedBy: user.id,
            updatedAt: sql`now()`,
            version: sql`version + 1`,
          })
          .where('id', '=', userId)
          .execute();
        if (rolesChange && roleIds) await setRoles(trx, userId, roleIds);
        await assertAdminRemains(trx);
        if (fields.status === '0' && before.status !== '0') await sessions.revokeAllForUser(trx, userId);
        const { passwordHash, ...b } = before;
        await audit(
          trx,
          user,
          { entity: 'user', entityId: userId, action: 'update', before: b, after: body },
          req.id,
        );
      });
      sessions.invalidate();
      return getUser(db, userId);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/user/newDeleteUser',
    permission: 'system:user:delete',
    body: z.union(
      [z.strictObject({ userId: zx.id }), z.strictObject({ userIds: z.array(zx.id).min(1).max(500) })],
      {
        error: '请提供 userId 或 userIds',
      },
    ),
    async handler({ body, user, req, app: { db, sessions } }) {
      const ids = 'userId' in body ? [body.userId] : [...new Set(body.userIds)];
      if (ids.includes(user.id)) throw conflict('不能删除当前登录的账号');
      await db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('appUser')
          .select(['id', 'userName'])
          .where('id', 'in', ids)
          .forUpdate()
          .execute();
        if (rows.length !== ids.length) throw notFound('用户不存在或已被删除');
        await assertMayManage(trx, sessions, user, ids);
        await trx.deleteFrom('appUser').where('id', 'in', ids).execute();
        await assertAdminRemains(trx);
        for (const r of rows)
          await audit(trx, user, { entity: 'user', entityId: r.id, action: 'delete', before: r }, req.id);
      });
      sessions.invalidate();
      return null;
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/user/newUpdateUserPwd',
    permission: 'authenticated',
    body: z.strictObject({
      userId: zx.id,
      passWord: password,
      oldPassWord: z.string().max(MAX_PASSWORD_LENGTH, '当前密码不正确').optional(),
    }),
    async handler({ body, user, req, app: { db, sessions, throttle } }) {
      const own = body.userId === user.id;
      if (!own && !can(user, 'system:user:edit')) throw forbidden('只能修改自己的密码');
      const target = await db
        .selectFrom('appUser')
        .select(['userName', 'passwordHash'])
        .where('id', '=', body.userId)
        .executeTakeFirst();
      if (!target) throw notFound('用户不存在');
      if (own) {
        // Changing one's own password proves the current one, within the sign-in limits.
        if (!body.oldPassWord) throw fieldError('oldPassWord', '请输入当前密码');
        await throttle.admit(user.userName, req.ip ?? 'unknown', true);
        if (!(await verifyPassword(target.passwordHash, body.oldPassWord)))
          throw fieldError('oldPassWord', '当前密码不正确');
        await throttle.succeeded(user.userName, req.ip ?? 'unknown');
      } else {
        await assertMayManage(db, sessions, user, [body.userId]);
      }
      await checkPasswordPolicy(db, body.passWord, target.userName);
      const passwordHash = await hashPassword(body.passWord);
      await db.transaction().execute(async (trx) => {
        // Again under the user's row lock, which role changes take too: a role granted while the
        // password was hashed counts.
        if (!own) {
          await trx.selectFrom('appUser').select('id').where('id', '=', body.userId).forUpdate().execute();
          await assertMayManage(trx, sessions, user, [body.userId]);
        }
        const r = await trx
          .updateTable('appUser')
          .set({
            passwordHash,
            passwordChangedAt: sql`now()`,
            updatedBy: user.id,
            updatedAt: sql`now()`,
            version: sql`version + 1`,
          })
          .where('id', '=', body.userId)
          .executeTakeFirst();
        if (!r.numUpdatedRows) throw notFound('用户不存在');
        await sessions.revokeAllForUser(trx, body.userId);
        await audit(trx, user, { entity: 'user', entityId: body.userId, action: 'password' }, req.id);
      });
      sessions.invalidate();
      return null;
    },
  });
}

function sameSet(a: number[], b: number[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}
