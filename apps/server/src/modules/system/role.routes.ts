import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { conflict, fieldError, forbidden, notFound, STALE_VERSION } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import {
  AUDIT_KEYS,
  editBody,
  idParams,
  type RoundTrip,
  refuseChanged,
  zx,
} from '../../platform/http/validation.ts';
import { paginate, pagingFields } from '../../platform/paging.ts';
import { assertAdminRemains, assertHolds } from './user.service.ts';

const fields = {
  roleName: zx.required(40),
  roleKey: z
    .string()
    .trim()
    .regex(/^[A-Za-z][\w-]{1,39}$/, '角色标识为 2–40 位字母开头的字母、数字、_ 或 -'),
  orderNum: z.number().int().min(0).max(100000).optional(),
  status: zx.flag.optional(),
  remark: zx.text(500).optional().nullable(),
  menuIds: z.array(zx.id).max(5000).optional(),
};

/** A role as info or page answers it goes back: audit columns and its user count are dropped. */
const ROLE_ROUND_TRIP: RoundTrip = { answerOnly: [...AUDIT_KEYS, 'userCount'], fixed: { id: '角色编号' } };

function roleQuery(db: Db) {
  return db
    .selectFrom('role as r')
    .select([
      'r.id',
      'r.roleName',
      'r.roleKey',
      'r.orderNum',
      'r.status',
      'r.remark',
      'r.createdAt',
      'r.updatedAt',
      'r.version',
      sql<number>`(SELECT count(*)::int FROM user_role ur WHERE ur.role_id = r.id)`.as('userCount'),
    ]);
}

async function getRole(db: Db, id: number) {
  const role = await roleQuery(db).where('r.id', '=', id).executeTakeFirst();
  if (!role) throw notFound('角色不存在');
  const menus = await db
    .selectFrom('roleMenu')
    .select('menuId')
    .where('roleId', '=', id)
    .orderBy('menuId')
    .execute();
  return { ...role, menuIds: menus.map((m) => m.menuId) };
}

/** Sets a role's menus; the actor may add only menus whose permissions they hold themselves. */
async function setMenus(db: Db, actor: AuthUser, roleId: number, menuIds: number[], before: number[] = []) {
  const unique = [...new Set(menuIds)];
  if (unique.length) {
    const found = await db
      .selectFrom('menu')
      .select(['id', 'menuPermissions'])
      .where('id', 'in', unique)
      .execute();
    if (found.length !== unique.length) throw fieldError('menuIds', '所选菜单不存在');
    const added = found.filter((m) => !before.includes(m.id));
    assertHolds(
      actor,
      added.map((m) => m.menuPermissions),
      '不能授予自己没有的权限',
    );
  }
  await db.deleteFrom('roleMenu').where('roleId', '=', roleId).execute();
  if (unique.length)
    await db
      .insertInto('roleMenu')
      .values(unique.map((menuId) => ({ roleId, menuId })))
      .execute();
}

/**
 * A role is changed or deleted only by who holds every permission it carries (the super-admin
 * excepted): stripping or disabling it would otherwise change users beyond one's reach.
 */
async function assertRoleWithinReach(db: Db, actor: AuthUser, menuIds: number[]) {
  if (actor.isAdmin || !menuIds.length) return;
  const menus = await db.selectFrom('menu').select('menuPermissions').where('id', 'in', menuIds).execute();
  assertHolds(
    actor,
    menus.map((m) => m.menuPermissions),
    '该角色拥有您不具备的权限，不能修改',
  );
}

export function roleRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/role/page',
    permission: 'system:role:list',
    query: z.strictObject({
      ...pagingFields,
      roleName: zx.text(40).optional(),
      roleKey: zx.text(40).optional(),
      status: zx.flag.optional(),
    }),
    async handler({ query, app: { db } }) {
      let q = roleQuery(db);
      if (query.roleName) q = q.where('r.roleName', 'ilike', containsPattern(query.roleName));
      if (query.roleKey) q = q.where('r.roleKey', 'ilike', containsPattern(query.roleKey));
      if (query.status) q = q.where('r.status', '=', query.status);
      return paginate(
        q,
        query,
        { roleName: 'r.roleName', roleKey: 'r.roleKey', orderNum: 'r.orderNum', createdAt: 'r.createdAt' },
        { column: 'r.orderNum', desc: false },
        'r.id',
      );
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/role/listAll',
    permission: 'authenticated',
    async handler({ app: { db } }) {
      return db
        .selectFrom('role')
        .select(['id', 'roleName', 'roleKey', 'status'])
        .orderBy('orderNum')
        .orderBy('id')
        .execute();
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/role/info/:id',
    permission: 'system:role:list',
    params: idParams,
    handler: ({ params, app: { db } }) => getRole(db, params.id),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/role/add',
    permission: 'system:role:add',
    body: z.strictObject(fields),
    async handler({ body, user, req, app: { db, sessions } }) {
      const { menuIds, ...data } = body;
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('role')
          .values({ ...data, createdBy: user.id, updatedBy: user.id })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setMenus(trx, user, row.id, menuIds ?? []);
        await audit(trx, user, { entity: 'role', entityId: row.id, action: 'create', after: body }, req.id);
        return row.id;
      });
      sessions.invalidate();
      return getRole(db, id);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/role/edit/:id',
    permission: 'system:role:edit',
    params: idParams,
    body: editBody(
      {
        ...fields,
        roleName: fields.roleName.optional(),
        roleKey: fields.roleKey.optional(),
        version: zx.version,
      },
      ROLE_ROUND_TRIP,
    ),
    async handler({ params, body, user, req, app: { db, sessions } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getRole(trx, params.id);
        refuseChanged(body, before, ROLE_ROUND_TRIP);
        const { menuIds, version, ...data } = body;
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        const changes = Object.keys(data).length > 0 || menuIds !== undefined;
        if (before.roleKey === 'admin' && changes && !user.isAdmin) {
          throw forbidden('只有超级管理员可以修改超级管理员角色');
        }
        if (before.roleKey === 'admin' && data.roleKey && data.roleKey !== 'admin') {
          throw conflict('超级管理员角色的标识不能修改');
        }
        if (changes) await assertRoleWithinReach(trx, user, before.menuIds);
        await trx
          .updateTable('role')
          .set({ ...data, updatedBy: user.id, updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', params.id)
          .execute();
        if (menuIds) await setMenus(trx, user, params.id, menuIds, before.menuIds);
        await assertAdminRemains(trx);
        await audit(
          trx,
          user,
          { entity: 'role', entityId: params.id, action: 'update', before, after: body },
          req.id,
        );
      });
      sessions.invalidate();
      return getRole(db, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/role/delete/:id',
    permission: 'system:role:delete',
    params: idParams,
    async handler({ params, user, req, app: { db, sessions } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getRole(trx, params.id);
        if (before.roleKey === 'admin') throw conflict('超级管理员角色不能删除');
        await assertRoleWithinReach(trx, user, before.menuIds);
        if (before.userCount > 0) throw conflict(`该角色已分配给 ${before.userCount} 个用户，无法删除`);
        await trx.deleteFrom('role').where('id', '=', params.id).execute();
        await audit(trx, user, { entity: 'role', entityId: params.id, action: 'delete', before }, req.id);
      });
      sessions.invalidate();
      return null;
    },
  });
}
