import { filterFieldsOf, permissionsFor, RESOURCES, type ResourceDef } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../auth/sessions.ts';
import type { Db } from '../db/db.ts';
import { conflict, fieldError, forbidden, notFound, STALE_VERSION } from '../errors.ts';
import { type App, route } from '../http/route.ts';
import { idParams, zx } from '../http/validation.ts';

/**
 * Saved views of the kit's lists (issue 41 §5): a list's filters, sort, hidden columns and page
 * size under a name, on the server. A view is personal (its owner alone sees and edits it) or
 * shared with one role (seen by the role's users, edited by whoever holds SHARE_VIEW). Each user
 * may name one view per list his default: the list opens with it.
 */

/** Sharing a view with a role, and changing or removing a shared one. */
export const SHARE_VIEW = 'system:setting:shareView';

/** Views a user keeps per list. */
const MAX_PERSONAL = 50;

const BY_NAME = new Map(RESOURCES.map((d) => [d.name, d]));

/** The list a key names (`sale-order`, `stock-inbound:purchase`): its resource, read by the user. */
function listOf(user: AuthUser, listKey: string): ResourceDef {
  const def = BY_NAME.get(listKey.split(':')[0] ?? '');
  if (!def) throw fieldError('listKey', '没有这个列表');
  if (!permissionsFor(def, 'list').some((p) => can(user, p))) throw forbidden(`没有查看${def.label}的权限`);
  return def;
}

const listKey = z
  .string({ error: '请指定列表' })
  .trim()
  .min(1, '请指定列表')
  .max(80, '列表名不能超过 80 个字符')
  .regex(/^[a-z][a-z0-9-]*(:[A-Za-z0-9_-]+)?$/, '列表名格式不正确');

const fieldName = z.string().max(60, '字段名不能超过 60 个字符');

/** What a view keeps: the query parameters of the search bar, the sort, the hidden columns, the page size. */
const stateSchema = z.strictObject(
  {
    filters: z
      .record(
        fieldName,
        z.union([z.string().max(200, '筛选值不能超过 200 个字符'), z.number().finite()], {
          error: '筛选值应为文字或数字',
        }),
        { error: '筛选条件格式不正确' },
      )
      .optional(),
    sortField: fieldName.optional(),
    sortOrder: z.enum(['asc', 'desc'], { error: '排序只能是 asc 或 desc' }).optional(),
    hidden: z.array(fieldName, { error: '隐藏列应为字段名列表' }).max(200, '隐藏列过多').optional(),
    pageSize: z
      .union([z.literal(10), z.literal(20), z.literal(50), z.literal(100)], {
        error: '每页条数只能是 10、20、50 或 100',
      })
      .optional(),
  },
  { error: '视图内容格式不正确' },
);
type ViewState = z.infer<typeof stateSchema>;

const viewName = z
  .string({ error: '请填写视图名称' })
  .trim()
  .min(1, '请填写视图名称')
  .max(40, '视图名称不能超过 40 个字符');

const addBody = z.strictObject({
  listKey,
  name: viewName,
  roleId: zx.id.nullable().optional(),
  state: stateSchema,
});
const editBody = z.strictObject({
  name: viewName.optional(),
  roleId: zx.id.nullable().optional(),
  state: stateSchema.optional(),
  version: z.number().int().min(0).optional(),
});
const defaultBody = z.strictObject({ listKey, viewId: zx.id.nullable() });

/** The names a view's state may use: the list's filter parameters, its fields and the audit columns. */
function checkState(def: ResourceDef, state: ViewState) {
  const params = new Set(['keyword']);
  for (const f of filterFieldsOf(def)) {
    params.add(f.name);
    if (f.filter === 'range') {
      params.add(`${f.name}From`);
      params.add(`${f.name}To`);
    }
  }
  const columns = new Set([...def.fields.map((f) => f.name), 'createdAt', 'updatedAt']);
  const unknownFilter = Object.keys(state.filters ?? {}).find((k) => !params.has(k));
  if (unknownFilter) throw fieldError('state.filters', `${def.label}没有筛选条件「${unknownFilter}」`);
  if (state.sortField && !columns.has(state.sortField))
    throw fieldError('state.sortField', `${def.label}没有字段「${state.sortField}」`);
  const unknownColumn = (state.hidden ?? []).find((k) => !columns.has(k));
  if (unknownColumn) throw fieldError('state.hidden', `${def.label}没有列「${unknownColumn}」`);
}

const viewSchema = z.object({
  id: z.number().int(),
  listKey: z.string(),
  name: z.string(),
  roleId: z.number().int().nullable().describe('共享给的角色；空为个人视图'),
  roleName: z.string().nullable(),
  ownerId: z.number().int(),
  ownerName: z.string().nullable(),
  editable: z.boolean().describe('当前用户可修改、删除'),
  state: z.object({
    filters: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    sortField: z.string().optional(),
    sortOrder: z.enum(['asc', 'desc']).optional(),
    hidden: z.array(z.string()).optional(),
    pageSize: z.number().int().optional(),
  }),
  version: z.number().int(),
});
const listSchema = z.object({
  views: z.array(viewSchema),
  defaultId: z.number().int().nullable(),
  mayShare: z.boolean().describe('可共享视图给角色'),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })).describe('可共享给的角色'),
});

interface ViewRow {
  id: number;
  listKey: string;
  name: string;
  roleId: number | null;
  roleName: string | null;
  ownerId: number;
  ownerName: string | null;
  state: ViewState;
  version: number;
}

const mayShare = (user: AuthUser) => can(user, SHARE_VIEW);
/** Only the owner edits a personal view; a shared one needs the share permission. */
const mayEdit = (user: AuthUser, v: { roleId: number | null; ownerId: number }) =>
  v.roleId === null ? Number(v.ownerId) === user.id : mayShare(user);

const present = (user: AuthUser, r: ViewRow) => ({
  id: Number(r.id),
  listKey: r.listKey,
  name: r.name,
  roleId: r.roleId === null ? null : Number(r.roleId),
  roleName: r.roleName,
  ownerId: Number(r.ownerId),
  ownerName: r.ownerName,
  editable: mayEdit(user, { roleId: r.roleId === null ? null : Number(r.roleId), ownerId: r.ownerId }),
  state: typeof r.state === 'string' ? JSON.parse(r.state) : (r.state ?? {}),
  version: Number(r.version),
});

const SELECT_VIEW = sql`
  SELECT v.id, v.list_key, v.name, v.role_id, r.role_name, v.owner_id,
         coalesce(nullif(u.first_name, ''), u.user_name) AS owner_name, v.state, v.version
    FROM list_view v
    LEFT JOIN role r ON r.id = v.role_id
    LEFT JOIN app_user u ON u.id = v.owner_id`;

/** The views of a list the user sees: his own, and those shared with one of his roles. */
async function visibleViews(db: Db, user: AuthUser, key: string, id?: number): Promise<ViewRow[]> {
  return (
    await sql<ViewRow>`${SELECT_VIEW}
     WHERE ${id === undefined ? sql`v.list_key = ${key}` : sql`v.id = ${id}`}
       AND (v.owner_id = ${user.id}
            OR v.role_id IN (SELECT role_id FROM user_role WHERE user_id = ${user.id}))
     ORDER BY v.role_id IS NOT NULL, v.name, v.id`.execute(db)
  ).rows;
}

/** A view to change: 404 when the user cannot see it, 403 when he may not change it. */
async function editableView(db: Db, user: AuthUser, id: number): Promise<ViewRow> {
  const row = (await sql<ViewRow>`${SELECT_VIEW} WHERE v.id = ${id} FOR UPDATE OF v`.execute(db)).rows[0];
  if (!row) throw notFound('视图不存在或已被删除');
  const roleId = row.roleId === null ? null : Number(row.roleId);
  if (roleId === null && Number(row.ownerId) !== user.id) throw forbidden('只能修改本人的个人视图');
  if (roleId !== null && !mayShare(user)) throw forbidden('没有修改共享视图的权限');
  return row;
}

async function checkRole(db: Db, user: AuthUser, roleId: number | null | undefined) {
  if (roleId === null || roleId === undefined) return;
  if (!mayShare(user)) throw forbidden('没有共享视图的权限');
  const r = await sql`SELECT 1 FROM role WHERE id = ${roleId}`.execute(db);
  if (!r.rows.length) throw fieldError('roleId', '角色不存在');
}

async function refuseSameName(
  db: Db,
  v: { listKey: string; name: string; roleId: number | null; ownerId: number; id?: number },
) {
  const same = await sql`
    SELECT 1 FROM list_view
     WHERE list_key = ${v.listKey} AND name = ${v.name}
       AND ${v.roleId === null ? sql`role_id IS NULL AND owner_id = ${v.ownerId}` : sql`role_id = ${v.roleId}`}
       ${v.id === undefined ? sql`` : sql`AND id <> ${v.id}`}`.execute(db);
  if (same.rows.length)
    throw conflict(`已有同名${v.roleId === null ? '个人' : '共享'}视图「${v.name}」，请换一个名称`);
}

export function listViewRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/list-view/list',
    permission: 'authenticated',
    query: z.strictObject({ listKey }),
    response: listSchema,
    async handler({ query, user, app: { db } }) {
      listOf(user, query.listKey);
      const views = await visibleViews(db, user, query.listKey);
      const chosen = (
        await sql<{ viewId: number }>`
          SELECT view_id FROM list_view_default WHERE user_id = ${user.id} AND list_key = ${query.listKey}`.execute(
          db,
        )
      ).rows[0];
      const defaultId =
        chosen && views.some((v) => Number(v.id) === Number(chosen.viewId)) ? Number(chosen.viewId) : null;
      const roles = mayShare(user)
        ? (
            await sql<{ id: number; name: string }>`
              SELECT id, role_name AS name FROM role WHERE status = '1' ORDER BY order_num, id`.execute(db)
          ).rows.map((r) => ({ id: Number(r.id), name: r.name }))
        : [];
      return { views: views.map((v) => present(user, v)), defaultId, mayShare: mayShare(user), roles };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/list-view/add',
    permission: 'authenticated',
    body: addBody,
    response: viewSchema,
    async handler({ body, user, app: { db } }) {
      const def = listOf(user, body.listKey);
      checkState(def, body.state);
      const roleId = body.roleId ?? null;
      return db.transaction().execute(async (trx) => {
        await checkRole(trx, user, roleId);
        if (roleId === null) {
          const n = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM list_view
             WHERE list_key = ${body.listKey} AND owner_id = ${user.id} AND role_id IS NULL`.execute(trx);
          if (Number(n.rows[0]?.n ?? 0) >= MAX_PERSONAL)
            throw conflict(`每个列表最多保存 ${MAX_PERSONAL} 个个人视图`);
        }
        await refuseSameName(trx, { listKey: body.listKey, name: body.name, roleId, ownerId: user.id });
        const id = (
          await sql<{ id: number }>`
            INSERT INTO list_view (list_key, name, owner_id, role_id, state)
            VALUES (${body.listKey}, ${body.name}, ${user.id}, ${roleId}, ${JSON.stringify(body.state)}::jsonb)
            RETURNING id`.execute(trx)
        ).rows[0]?.id;
        const [row] = await visibleViews(trx, user, body.listKey, Number(id));
        return present(user, row as ViewRow);
      });
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/list-view/edit/:id',
    permission: 'authenticated',
    params: idParams,
    body: editBody,
    response: viewSchema,
    async handler({ params, body, user, app: { db } }) {
      return db.transaction().execute(async (trx) => {
        const before = await editableView(trx, user, params.id);
        if (body.version !== undefined && Number(before.version) !== body.version)
          throw conflict(STALE_VERSION);
        const def = listOf(user, before.listKey);
        if (body.state) checkState(def, body.state);
        const beforeRole = before.roleId === null ? null : Number(before.roleId);
        const roleId = body.roleId === undefined ? beforeRole : body.roleId;
        if (roleId !== beforeRole) {
          if (!mayShare(user)) throw forbidden('没有共享视图的权限');
          await checkRole(trx, user, roleId);
        }
        // A shared view made personal again becomes its editor's.
        const ownerId = roleId === null && beforeRole !== null ? user.id : Number(before.ownerId);
        const name = body.name ?? before.name;
        await refuseSameName(trx, { listKey: before.listKey, name, roleId, ownerId, id: params.id });
        await sql`
          UPDATE list_view
             SET name = ${name}, role_id = ${roleId}, owner_id = ${ownerId},
                 state = ${body.state ? sql`${JSON.stringify(body.state)}::jsonb` : sql`state`},
                 version = version + 1, updated_at = now()
           WHERE id = ${params.id}`.execute(trx);
        const row = (await sql<ViewRow>`${SELECT_VIEW} WHERE v.id = ${params.id}`.execute(trx)).rows[0];
        return present(user, row as ViewRow);
      });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/list-view/delete/:id',
    permission: 'authenticated',
    params: idParams,
    response: z.null(),
    async handler({ params, user, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        await editableView(trx, user, params.id);
        await sql`DELETE FROM list_view WHERE id = ${params.id}`.execute(trx);
      });
      return null;
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/list-view/default',
    permission: 'authenticated',
    body: defaultBody,
    response: z.null(),
    async handler({ body, user, app: { db } }) {
      listOf(user, body.listKey);
      if (body.viewId === null) {
        await sql`DELETE FROM list_view_default WHERE user_id = ${user.id} AND list_key = ${body.listKey}`.execute(
          db,
        );
        return null;
      }
      const [view] = await visibleViews(db, user, body.listKey, body.viewId);
      if (!view) throw notFound('视图不存在或已被删除');
      if (view.listKey !== body.listKey) throw fieldError('viewId', '该视图不属于这个列表');
      await sql`
        INSERT INTO list_view_default (user_id, list_key, view_id) VALUES (${user.id}, ${body.listKey}, ${body.viewId})
        ON CONFLICT (user_id, list_key) DO UPDATE SET view_id = excluded.view_id`.execute(db);
      return null;
    },
  });
}
