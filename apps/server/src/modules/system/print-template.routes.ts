/**
 * 打印模板 (issue 41 §3): per document type, templates the factory edits in 系统设置 › 打印模板,
 * one of them the type's default. Whoever is signed in reads them (anyone who may open a
 * document may print it; the data comes from the document's own read); 系统设置's edit
 * permission changes them. The layout is checked by the domain's `layoutSchema`.
 */
import {
  defaultLayout,
  docTypeSchema,
  layoutSchema,
  PRINT_DOC_TYPES,
  type PrintDocTypeName,
  type PrintLayout,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, notFound, STALE_VERSION } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';

const EDIT = 'system:setting:edit';
const ENTITY = 'printTemplate';

const name = z
  .string({ error: '请输入模板名称' })
  .trim()
  .min(1, '请输入模板名称')
  .max(60, '模板名称不能超过 60 个字符');

const templateRow = z.object({
  id: z.number().int(),
  docType: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  remark: z.string().nullable(),
  layout: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
  version: z.number().int(),
});
const listRow = templateRow.omit({ layout: true }).extend({ page: z.string() });

const COLUMNS = ['id', 'docType', 'name', 'isDefault', 'remark', 'layout', 'updatedAt', 'version'] as const;

async function getTemplate(db: Db, id: number) {
  const row = await db.selectFrom('printTemplate').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('打印模板不存在或已被删除');
  return row;
}

/** A template of the same type and name already exists: 409 in words (the unique index's). */
async function assertNameFree(db: Db, docType: string, value: string, except?: number) {
  let q = db
    .selectFrom('printTemplate')
    .select('id')
    .where('docType', '=', docType)
    .where('name', '=', value);
  if (except) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw conflict(`该单据类型已有名为「${value}」的模板`);
}

/** Makes `id` the only default of its type (the partial unique index allows one). */
async function makeDefault(db: Db, docType: string, id: number) {
  // One default per type at a time: concurrent choices of one type queue on this lock.
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`print_template:${docType}`}))`.execute(db);
  await db
    .updateTable('printTemplate')
    .set({ isDefault: false })
    .where('docType', '=', docType)
    .where('isDefault', '=', true)
    .where('id', '<>', id)
    .execute();
  await db
    .updateTable('printTemplate')
    .set({ isDefault: true, updatedAt: sql`now()`, version: sql`version + 1` })
    .where('id', '=', id)
    .execute();
}

/** The layout a type prints with: its default template, else the code's (`id: null`). */
export async function effectiveTemplate(db: Db, docType: PrintDocTypeName) {
  const row = await db
    .selectFrom('printTemplate')
    .select(['id', 'name', 'layout'])
    .where('docType', '=', docType)
    .where('isDefault', '=', true)
    .executeTakeFirst();
  return row
    ? { id: Number(row.id), name: row.name as string, layout: row.layout as PrintLayout }
    : { id: null, name: '系统默认', layout: defaultLayout(docType) };
}

export function printTemplateRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/print-template/types',
    permission: 'authenticated',
    response: z.array(z.object({ value: z.string(), label: z.string(), page: z.string() })),
    handler: async () =>
      Object.entries(PRINT_DOC_TYPES).map(([value, t]) => ({ value, label: t.label, page: t.page })),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/print-template/list',
    permission: 'authenticated',
    query: z.strictObject({ docType: docTypeSchema.optional() }),
    response: z.array(listRow),
    async handler({ query, app: { db } }) {
      let q = db
        .selectFrom('printTemplate')
        .select(['id', 'docType', 'name', 'isDefault', 'remark', 'updatedAt', 'version'])
        .select(sql<string>`layout->>'page'`.as('page'))
        .orderBy('docType')
        .orderBy('id');
      if (query.docType) q = q.where('docType', '=', query.docType);
      return q.execute();
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/print-template/info/:id',
    permission: 'authenticated',
    params: idParams,
    response: templateRow,
    handler: ({ params, app: { db } }) => getTemplate(db, params.id),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/print-template/default',
    permission: 'authenticated',
    query: z.strictObject({ docType: docTypeSchema }),
    response: z.object({
      id: z.number().int().nullable(),
      name: z.string(),
      layout: z.record(z.string(), z.unknown()),
    }),
    handler: ({ query, app: { db } }) => effectiveTemplate(db, query.docType),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/print-template/add',
    permission: EDIT,
    body: z.strictObject({
      docType: docTypeSchema,
      name,
      layout: layoutSchema,
      isDefault: z.boolean({ error: '是否默认只能是 true 或 false' }).optional(),
      remark: zx.text(200).nullable().optional(),
    }),
    response: templateRow,
    async handler({ body, user, req, app: { db } }) {
      const id = await db.transaction().execute(async (trx) => {
        await assertNameFree(trx, body.docType, body.name);
        const row = await trx
          .insertInto('printTemplate')
          .values({
            docType: body.docType,
            name: body.name,
            layout: JSON.stringify(body.layout),
            remark: body.remark ?? null,
            createdBy: user.id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        if (body.isDefault) await makeDefault(trx, body.docType, id);
        await audit(trx, user, { entity: ENTITY, entityId: id, action: 'create', after: body }, req.id);
        return id;
      });
      return getTemplate(db, id);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/print-template/edit/:id',
    permission: EDIT,
    params: idParams,
    body: z.strictObject({
      name: name.optional(),
      layout: layoutSchema.optional(),
      remark: zx.text(200).nullable().optional(),
      version: zx.version,
    }),
    response: templateRow,
    async handler({ params, body, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getTemplate(trx, params.id);
        if (body.version !== undefined && before.version !== body.version) throw conflict(STALE_VERSION);
        if (body.name !== undefined) await assertNameFree(trx, before.docType, body.name, params.id);
        await trx
          .updateTable('printTemplate')
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.layout ? { layout: JSON.stringify(body.layout) } : {}),
            ...('remark' in body ? { remark: body.remark ?? null } : {}),
            updatedAt: sql`now()`,
            version: sql`version + 1`,
          })
          .where('id', '=', params.id)
          .execute();
        await audit(
          trx,
          user,
          { entity: ENTITY, entityId: params.id, action: 'update', before, after: body },
          req.id,
        );
      });
      return getTemplate(db, params.id);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/print-template/set-default/:id',
    permission: EDIT,
    params: idParams,
    response: templateRow,
    async handler({ params, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getTemplate(trx, params.id);
        await makeDefault(trx, before.docType, params.id);
        await audit(trx, user, { entity: ENTITY, entityId: params.id, action: 'setDefault' }, req.id);
      });
      return getTemplate(db, params.id);
    },
  });

  route(app, {
    method: 'DELETE',
    url: '/api/v1/print-template/delete/:id',
    permission: EDIT,
    params: idParams,
    response: z.null(),
    async handler({ params, user, req, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const before = await getTemplate(trx, params.id);
        await trx.deleteFrom('printTemplate').where('id', '=', params.id).execute();
        await audit(trx, user, { entity: ENTITY, entityId: params.id, action: 'delete', before }, req.id);
      });
      return null;
    },
  });
}
