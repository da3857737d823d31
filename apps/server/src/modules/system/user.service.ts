import { sql } from 'kysely';
import { ALL, type AuthUser, can, type SessionService } from '../../platform/auth/sessions.ts';
import { type Db, inColumnNames } from '../../platform/db/db.ts';
import { containsPattern } from '../../platform/db/like.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { ALL_ROWS_MAX, checkAllRows, type Page, type PageArgs } from '../../platform/paging.ts';

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
/** A user row as the API answers it, never the password hash: user `u` with its dept `d`. */
const USER_COLUMNS = sql`u.id AS user_id, u.user_name, u.first_name, u.phone, u.email, u.avatar, u.introduction,
  u.status, u.dept_id, d.dept_name, u.created_at, u.updated_at, u.version,
  coalesce((SELECT array_agg(ur.role_id::int ORDER BY ur.role_id) FROM user_role ur WHERE ur.user_id = u.id), '{}') AS role_ids,
  coalesce((SELECT string_agg(r.role_name, '、' ORDER BY r.order_num) FROM user_role ur JOIN role r ON r.id = ur.role_id
             WHERE ur.user_id = u.id), '') AS role_names`;

/** 用户列表's filters; each one not asked is NULL and lets every row through. */
export interface UserFilters {
  userName?: string;
  firstName?: string;
  phone?: string;
  deptId?: number;
  status?: string;
}

/** Sort fields of 用户列表 → columns (anything else sorts by id). */
const USER_SORT: Record<string, string> = {
  userName: 'u.user_name',
  firstName: 'u.first_name',
  createdAt: 'u.created_at',
  status: 'u.status',
  userId: 'u.id',
};

/** A department's users include those of its sub-departments. */
function userWhere(f: UserFilters) {
  const like = (v?: string) => (v ? containsPattern(v) : null);
  return sql`(${like(f.userName)}::text IS NULL OR u.user_name ILIKE ${like(f.userName)})
     AND (${like(f.firstName)}::text IS NULL OR u.first_name ILIKE ${like(f.firstName)})
     AND (${like(f.phone)}::text IS NULL OR u.phone LIKE ${like(f.phone)})
     AND (${f.status ?? null}::text IS NULL OR u.status = ${f.status ?? null})
     AND (${f.deptId ?? null}::bigint IS NULL OR u.dept_id IN (
           WITH RECURSIVE t AS (SELECT id FROM dept WHERE id = ${f.deptId ?? null}
                                UNION SELECT c.id FROM dept c JOIN t ON c.parent_id = t.id)
           SELECT id FROM t))`;
}

/**
 * 用户列表: one named statement per sort, whatever the filters (their values are parameters), so
 * it is parsed and planned once per connection, with the total in the same statement (a factory
 * has tens to hundreds of users). `pageNum` 0 answers every row, up to ALL_ROWS_MAX.
 */
export async function userPage(db: Db, q: UserFilters & PageArgs): Promise<Page<Record<string, unknown>>> {
  const known = q.sortField ? USER_SORT[q.sortField] : undefined;
  const dir = known && q.sortOrder?.startsWith('desc') ? 'DESC' : 'ASC';
  const order = sql.raw(!known || known === 'u.id' ? `u.id ${dir}` : `${known} ${dir}, u.id ${dir}`);
  const all = q.pageNum === 0;
  const take = all ? ALL_ROWS_MAX + 1 : q.pageSize;
  const skip = all ? 0 : (q.pageNum - 1) * q.pageSize;
  const rows = (
    await prepared(sql<Record<string, unknown>>`
      SELECT ${USER_COLUMNS}, count(*) OVER () AS page_total
        FROM app_user u LEFT JOIN dept d ON d.id = u.dept_id
       WHERE ${userWhere(q)}
       ORDER BY ${order} LIMIT ${take} OFFSET ${skip}`).execute(inColumnNames(db))
  ).rows;
  let total = rows.length ? Number(rows[0].pageTotal) : 0;
  // Past the end the page is empty and says nothing of the total: counted apart.
  if (!rows.length && skip)
    total = Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM app_user u WHERE ${userWhere(q)}`.execute(db))
        .rows[0].n,
    );
  for (const r of rows) delete r.pageTotal;
  if (all) {
    checkAllRows(total);
    return { list: rows, total, pageNum: 0, pageSize: rows.length };
  }
  return { list: rows, total, pageNum: q.pageNum, pageSize: q.pageSize };
}

export async function getUser(db: Db, userId: number) {
  const u = (
    await prepared(sql<Record<string, unknown>>`
      SELECT ${USER_COLUMNS} FROM app_user u LEFT JOIN dept d ON d.id = u.dept_id WHERE u.id = ${userId}`).execute(
      db,
    )
  ).rows[0];
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

/**
 * A user manager acts on a user — password, status, roles, profile, deletion — only when every
 * permission that user holds is one of his own: resetting a password and signing in would
 * otherwise hand him what he was never granted (issue 34). Only a super-admin acts on a
 * super-admin. Acting on oneself is not acting on someone else.
 */
export async function assertMayManage(
  db: Db,
  sessions: SessionService,
  actor: AuthUser,
  userIds: number[],
): Promise<void> {
  if (actor.isAdmin) return;
  for (const id of userIds) {
    if (id === actor.id) continue;
    const { roleKeys, permissions } = await sessions.grants(id, db);
    if (roleKeys.includes('admin') || permissions.has(ALL)) {
      throw forbidden('只有超级管理员可以修改超级管理员的账号');
    }
    assertHolds(actor, [...permissions], '该用户拥有您不具备的权限，不能修改');
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
