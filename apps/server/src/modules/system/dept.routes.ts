import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { refuseWhileReferenced } from '../../platform/db/referenced.ts';
import { conflict, fieldError, notFound, STALE_VERSION } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { AUDIT_KEYS, editBody, type RoundTrip, zx } from '../../platform/http/validation.ts';

interface DeptNode {
  id: number;
  parentId: number | null;
  deptName: string;
  orderNum: number;
  leader: string | null;
  phone: string | null;
  status: string;
  version: number;
  childDept: DeptNode[];
}

const fields = {
  deptName: zx.required(60),
  parentId: zx.id.optional().nullable(),
  orderNum: z.number().int().min(0).max(100000).optional(),
  leader: zx.text(40).optional().nullable(),
  phone: zx.text(30).optional().nullable(),
  status: zx.flag.optional(),
};

/** A department as the tree answers it goes back: its audit columns and sub-tree are dropped. */
const DEPT_ROUND_TRIP: RoundTrip = { answerOnly: [...AUDIT_KEYS, 'childDept'] };

export function deptRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: '/api/v1/dept/listDeptTree',
    permission: 'authenticated',
    body: z.strictObject({ deptName: zx.text(60).optional(), status: zx.flag.optional() }),
    async handler({ body, app: { db } }) {
      const rows = (await db
        .selectFrom('dept')
        .select([
          'id',
          'parentId',
          'deptName',
          'orderNum',
          'leader',
          'phone',
          'status',
          'version',
          'createdAt',
        ])
        .orderBy('orderNum')
        .orderBy('id')
        .execute()) as Omit<DeptNode, 'childDept'>[];
      const byId = new Map<number, DeptNode>(rows.map((r) => [r.id, { ...r, childDept: [] }]));
      const roots: DeptNode[] = [];
      for (const d of byId.values()) {
        const p = d.parentId === null ? undefined : byId.get(d.parentId);
        if (p) p.childDept.push(d);
        else roots.push(d);
      }
      const name = body.deptName?.toLowerCase();
      if (!name && !body.status) return roots;
      // Keep a node when it matches or any descendant matches, so the tree stays navigable.
      const prune = (nodes: DeptNode[]): DeptNode[] =>
        nodes.flatMap((n) => {
          const kids = prune(n.childDept);
          const hit =
            (!name || n.deptName.toLowerCase().includes(name)) && (!body.status || n.status === body.status);
          return hit || kids.length ? [{ ...n, childDept: kids }] : [];
        });
      return prune(roots);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/dept/addDept',
    permission: 'system:dept:add',
    body: z.strictObject(fields),
    async handler({ body, user, req, app: { db } }) {
      return db.transaction().execute(async (trx) => {
        if (body.parentId) {
          const p = await trx
            .selectFrom('dept')
            .select('id')
            .where('id', '=', body.parentId)
            .executeTakeFirst();
          if (!p) throw fieldError('parentId', '上级部门不存在');
        }
        const row = await trx
          .insertInto('dept')
          .values({ ...body, createdBy: user.id, updatedBy: user.id })
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(trx, user, { entity: 'dept', entityId: row.id, action: 'create', after: row }, req.id);
        return row;
      });
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/dept/updateDept',
    permission: 'system:dept:edit',
    body: editBody(
      { id: zx.id, ...fields, deptName: fields.deptName.optional(), version: zx.version },
      DEPT_ROUND_TRIP,
    ),
    async handler({ body, user, req, app: { db } }) {
      const { id, version, ...changes } = body;
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('dept')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('部门不存在');
        if (version !== undefined && before.version !== version) throw conflict(STALE_VERSION);
        if (changes.parentId) {
          // The new parent must exist and must not be the department itself or one of its descendants.
          const r = await sql<{ id: number }>`
            WITH RECURSIVE sub AS (SELECT id FROM dept WHERE id = ${id}
                                   UNION SELECT d.id FROM dept d JOIN sub ON d.parent_id = sub.id)
            SELECT id FROM sub WHERE id = ${changes.parentId}`.execute(trx);
          if (r.rows.length) throw fieldError('parentId', '上级部门不能是自己或自己的下级部门');
          const p = await trx
            .selectFrom('dept')
            .select('id')
            .where('id', '=', changes.parentId)
            .executeTakeFirst();
          if (!p) throw fieldError('parentId', '上级部门不存在');
        }
        const row = await trx
          .updateTable('dept')
          .set({ ...changes, updatedBy: user.id, updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(
          trx,
          user,
          { entity: 'dept', entityId: id, action: 'update', before, after: row },
          req.id,
        );
        return row;
      });
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/dept/deleteDeptById',
    permission: 'system:dept:delete',
    query: z.strictObject({ id: zx.id }),
    async handler({ query, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('dept')
          .selectAll()
          .where('id', '=', query.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw notFound('部门不存在');
        await refuseWhileReferenced(
          trx,
          { table: 'dept', column: 'parentId', id: query.id },
          '该部门下还有下级部门，无法删除',
        );
        await refuseWhileReferenced(
          trx,
          { table: 'appUser', column: 'deptId', id: query.id },
          '该部门下还有用户，无法删除',
        );
        await trx.deleteFrom('dept').where('id', '=', query.id).execute();
        await audit(trx, user, { entity: 'dept', entityId: query.id, action: 'delete', before }, req.id);
      });
      return null;
    },
  });
}
