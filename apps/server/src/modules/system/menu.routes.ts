import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { refuseWhileReferenced } from '../../platform/db/referenced.ts';
import { conflict, fieldError, notFound, STALE_VERSION } from '../../platform/errors.ts';
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
import { allMenus, toTree } from './menu.service.ts';
import { assertHolds } from './user.service.ts';

const fields = {
  parentId: zx.id.optional().nullable(),
  menuName: zx.required(60),
  menuPath: zx
    .text(200)
    .regex(/^(\/[\w\-./:*]*)?$/, '路由地址须以 / 开头')
    .optional()
    .nullable(),
  nodeType: z.enum(['1', '2', '3'], { error: "节点类型只能是 '1' 目录、'2' 菜单或 '3' 按钮" }),
  menuIco: zx.text(60).optional().nullable(),
  menuPermissions: zx
    .text(100)
    .regex(/^([\w-]+:[\w-]+:[\w-]+|\*:\*:\*)?$/, '权限标识格式为 模块:资源:操作')
    .optional()
    .nullable(),
  menuStatus: zx.flag.optional(),
  location: z.number().int().min(0).max(100000).optional(),
  parameter: zx.text(500).optional(),
};

/**
 * A menu node as info or the tree answers it goes back: audit columns, its seed key and its
 * children are dropped; `id` and `menuId` must be its own.
 */
const MENU_ROUND_TRIP: RoundTrip = {
  answerOnly: [...AUDIT_KEYS, 'menuKey', 'children'],
  fixed: { id: '菜单编号', menuId: '菜单编号' },
};

export function menuRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/menu/tree',
    permission: 'system:menu:list',
    handler: async ({ app: { db } }) => toTree(await allMenus(db)),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/menu/info/:id',
    permission: 'system:menu:list',
    params: idParams,
    async handler({ params, app: { db } }) {
      const row = await db.selectFrom('menu').selectAll().where('id', '=', params.id).executeTakeFirst();
      if (!row) throw notFound('菜单不存在');
      return { ...row, menuId: row.id };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/menu/add',
    permission: 'system:menu:add',
    body: z.strictObject(fields),
    async handler({ body, user, req, app: { db, sessions } }) {
      const row = await db.transaction().execute(async (trx) => {
        if (body.parentId) {
          const p = await trx
            .selectFrom('menu')
            .select(['id', 'nodeType'])
            .where('id', '=', body.parentId)
            .executeTakeFirst();
          if (!p) throw fieldError('parentId', '上级菜单不存在');
          if (p.nodeType === '3') throw fieldError('parentId', '按钮下不能再添加节点');
        }
        const r = await trx
          .insertInto('menu')
          .values({ ...body, createdBy: user.id, updatedBy: user.id })
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(trx, user, { entity: 'menu', entityId: r.id, action: 'create', after: r }, req.id);
        return r;
      });
      sessions.invalidate();
      return { ...row, menuId: row.id };
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/menu/edit/:id',
    permission: 'system:menu:edit',
    params: idParams,
    body: editBody(
      {
        ...fields,
        menuName: fields.menuName.optional(),
        nodeType: fields.nodeType.optional(),
        version: zx.version,
      },
      MENU_ROUND_TRIP,
    ),
    async handler({ params, body, user, req, app: { db, sessions } }) {
      const row = await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('menu')
          .selectAll()
          .where('id', '=', params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('菜单不存在');
        refuseChanged(body, { ...before, menuId: before.id }, MENU_ROUND_TRIP);
        const { version, ...changes } = body;
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        // A node's permission string is what every role granting it holds: only who holds both
        // the old and the new one rewrites it (else a 查询 button becomes *:*:*).
        if (
          changes.menuPermissions !== undefined &&
          (changes.menuPermissions ?? '') !== (before.menuPermissions ?? '')
        )
          assertHolds(
            user,
            [before.menuPermissions, changes.menuPermissions ?? null],
            '不能修改自己没有的权限',
          );
        if (changes.parentId) {
          const r = await sql<{ id: number }>`
            WITH RECURSIVE sub AS (SELECT id FROM menu WHERE id = ${params.id}
                                   UNION SELECT m.id FROM menu m JOIN sub ON m.parent_id = sub.id)
            SELECT id FROM sub WHERE id = ${changes.parentId}`.execute(trx);
          if (r.rows.length) throw fieldError('parentId', '上级菜单不能是自己或自己的下级');
          const p = await trx
            .selectFrom('menu')
            .select('id')
            .where('id', '=', changes.parentId)
            .executeTakeFirst();
          if (!p) throw fieldError('parentId', '上级菜单不存在');
        }
        const r = await trx
          .updateTable('menu')
          .set({ ...changes, updatedBy: user.id, updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', params.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(
          trx,
          user,
          { entity: 'menu', entityId: params.id, action: 'update', before, after: r },
          req.id,
        );
        return r;
      });
      sessions.invalidate();
      return { ...row, menuId: row.id };
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/menu/delete/:id',
    permission: 'system:menu:delete',
    params: idParams,
    async handler({ params, user, req, app: { db, sessions } }) {
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('menu')
          .selectAll()
          .where('id', '=', params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('菜单不存在');
        await refuseWhileReferenced(
          trx,
          { table: 'menu', column: 'parentId', id: params.id },
          '该菜单下还有子节点，请先删除子节点',
        );
        assertHolds(user, [before.menuPermissions], '不能删除自己没有的权限');
        await trx.deleteFrom('menu').where('id', '=', params.id).execute();
        await audit(trx, user, { entity: 'menu', entityId: params.id, action: 'delete', before }, req.id);
      });
      sessions.invalidate();
      return null;
    },
  });
}
