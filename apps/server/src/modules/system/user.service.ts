import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound } from '../../platform/errors.ts';

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

/** At least one enabled user must keep the admin role, or nobody can administer the system. */
export async function assertAdminRemains(db: Db): Promise<void> {
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM app_user u
     WHERE u.status = '1'
       AND EXISTS (SELECT 1 FROM user_role ur JOIN role r ON r.id = ur.role_id
                    WHERE ur.user_id = u.id AND r.role_key = 'admin' AND r.status = '1')`.execute(db);
  if (r.rows[0].n < 1) throw conflict('至少需要保留一个启用的管理员账号');
}
