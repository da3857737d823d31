import { sql } from 'kysely';
import { ALL, type AuthUser, can, type SessionService } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';

/** The button permission that lets a user manager change which roles a user holds. */
export const ASSIGN_ROLE = 'system:user:assignRole';

/** The signed-in user's profile as `getUserByToken` answers it. */
export async function userInfo(db: Db, userId: number) {
  const u = await db
    .selectFrom('appUser as u')
    .leftJoin('dept as d', 'd.id', 'u.deptId')
    .select([
      'u.id as userId',
      'u.userName',
      'u.firstName',
      'u.avatar',
      'u.introduction',
      'u.phone',
      'u.email',
      'u.deptId',
      'd.deptName',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!u) throw notFound('用户不存在');
  const roles = await db
    .selectFrom('userRole as ur')
    .innerJoin('role as r', 'r.id', 'ur.roleId')
    .select(['r.id as roleId', 'r.roleName', 'r.roleKey'])
    .where('ur.userId', '=', userId)
    .orderBy('r.orderNum')
    .execute();
  return {
    userId: u.userId,
    userName: u.userName,
    firstName: u.firstName,
    avatar: u.avatar ?? '',
    introduction: u.introduction ?? '',
    phone: u.phone ?? '',
    email: u.email ?? '',
    deptData: { deptId: u.deptId, deptName: u.deptName ?? '' },
    roleDataList: roles,
  };
}

/** The public shape of a user row; never the password hash. */
export function userQuery(db: Db) {
  return db
    .selectFrom('appUser as u')
    .leftJoin('dept as d', 'd.id', 'u.deptId')
    .select([
      'u.id as userId',
      'u.userName',
      'u.firstName',
      'u.phone',
      'u.email',
      'u.avatar',
      'u.introduction',
      'u.status',
      'u.deptId',
      'd.deptName',
      'u.createdAt',
      'u.updatedAt',
      'u.version',
      sql<
        number[]
      >`coalesce((SELECT array_agg(ur.role_id::int ORDER BY ur.role_id) FROM user_role ur WHERE ur.user_id = u.id), '{}')`.as(
        'roleIds',
      ),
      sql<string>`coalesce((SELECT string_agg(r.role_name, '、' ORDER BY r.order_num) FROM user_role ur JOIN role r ON r.id = ur.role_id WHERE ur.user_id = u.id), '')`.as(
        'roleNames',
      ),
    ]);
}

export async function getUser(db: Db, userId: number) {
  const u = await userQuery(db).where('u.id', '=', userId).executeTakeFirst();
  if (!u) throw notFound('用户不存在');
  return u;
}

/**
 * At least one enabled user must keep the admin role, or nobody can administer the system. Call
 * it inside the changing transaction, after the change: the advisory lock makes concurrent
 * changes check one after another, and each check's statement sees the others' commits (two
 * admins disabling each other at once: the second is refused).
 */
export async function assertAdminRemains(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(724101)`.execute(db);
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM app_user u
     WHERE u.status = '1'
       AND EXISTS (SELECT 1 FROM user_role ur JOIN role r ON r.id = ur.role_id
                    WHERE ur.user_id = u.id AND r.role_key = 'admin' AND r.status = '1')`.execute(db);
  if (r.rows[0].n < 1) throw conflict('至少需要保留一个启用的管理员账号');
}

export async function roleIdsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('userRole').select('roleId').where('userId', '=', userId).execute();
  return rows.map((r) => Number(r.roleId));
}

/** Only a super-admin changes a super-admin's password, roles or status, or deletes one. */
export async function assertMayManage(
  db: Db,
  sessions: SessionService,
  actor: AuthUser,
  userIds: number[],
): Promise<void> {
  if (actor.isAdmin) return;
  for (const id of userIds) {
    const { roleKeys, permissions } = await sessions.grants(id, db);
    if (roleKeys.includes('admin') || permissions.has(ALL)) {
      throw forbidden('只有超级管理员可以修改超级管理员的密码、角色或状态');
    }
  }
}

/**
 * Changing a user's roles needs `system:user:assignRole`, and nobody grants a role whose
 * permissions they do not hold themselves (the admin role and `*:*:*` only a super-admin grants).
 */
export async function assertMayGrantRoles(
  db: Db,
  actor: AuthUser,
  before: number[],
  after: number[],
): Promise<void> {
  const added = [...new Set(after)].filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  if (!added.length && !removed.length) return;
  if (!can(actor, ASSIGN_ROLE)) throw forbidden('没有分配角色的权限');
  if (actor.isAdmin || !added.length) return;
  const rows = await db
    .selectFrom('role as r')
    .leftJoin('roleMenu as rm', 'rm.roleId', 'r.id')
    .leftJoin('menu as m', 'm.id', 'rm.menuId')
    .select(['r.roleName', 'r.roleKey', 'm.menuPermissions'])
    .where('r.id', 'in', added)
    .execute();
  for (const r of rows) {
    if (r.roleKey === 'admin' || r.menuPermissions === ALL) {
      throw forbidden(`只有超级管理员可以授予角色「${r.roleName}」`);
    }
  }
  assertHolds(
    actor,
    rows.map((r) => r.menuPermissions),
    '不能授予自己没有的权限',
  );
}

/** Refuses (403) when the actor lacks any of these permissions, naming a few of them. */
export function assertHolds(actor: AuthUser, permissions: (string | null)[], message: string): void {
  if (actor.isAdmin) return;
  const missing = [...new Set(permissions)].filter((p): p is string => !!p && !can(actor, p)).sort();
  if (missing.length) {
    const shown = missing.slice(0, 5).join('、');
    throw forbidden(`${message}：${shown}${missing.length > 5 ? ` 等 ${missing.length} 项` : ''}`);
  }
}
