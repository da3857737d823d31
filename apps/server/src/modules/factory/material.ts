import { materialInfoResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { containsAny } from '../../platform/db/like.ts';
import { badRequest, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { createRecord, getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { resourceSchemas } from '../../platform/resource/schema.ts';

/** Template attributes a material must fill, checked against the template's definitions. */
async function checkAttributes(
  db: Db,
  templateId: number | null | undefined,
  attributes: Record<string, unknown> | null | undefined,
) {
  if (!templateId) return;
  const defs = await db
    .selectFrom('materialTemplateAttribute')
    .select(['name', 'dataType', 'required', 'options'])
    .where('materialTemplateId', '=', templateId)
    .orderBy('lineNo')
    .execute();
  const values = attributes ?? {};
  for (const d of defs) {
    const v = values[d.name];
    const empty = v === undefined || v === null || v === '';
    if (d.required && empty) throw fieldError('attributes', `请填写模板属性「${d.name}」`);
    if (empty) continue;
    if (d.dataType === 'number' && !Number.isFinite(Number(v)))
      throw fieldError('attributes', `模板属性「${d.name}」必须是数字`);
    if (d.dataType === 'enum' && d.options) {
      const allowed = String(d.options)
        .split(/[,，、;；]/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (allowed.length && !allowed.includes(String(v)))
        throw fieldError('attributes', `模板属性「${d.name}」只能是：${allowed.join('、')}`);
    }
  }
  const known = new Set(defs.map((d) => d.name));
  const extra = Object.keys(values).filter((k) => !known.has(k));
  if (extra.length) throw fieldError('attributes', `模板中没有属性：${extra.join('、')}`);
}

export const materialHooks: ResourceHooks = {
  async validate({ db }, data) {
    if (
      data.safetyStockMin != null &&
      data.safetyStockMax != null &&
      Number(data.safetyStockMax) < Number(data.safetyStockMin)
    ) {
      throw fieldError('safetyStockMax', '安全库存上限不能小于下限');
    }
    const units = new Set<number>();
    for (const [i, c] of (data.unitConversions ?? []).entries()) {
      if (c.unitId === data.unitId)
        throw badRequest('换算单位不能是基本单位', [
          { field: `unitConversions.${i}.unitId`, message: '不能是基本单位' },
        ]);
      if (units.has(c.unitId))
        throw badRequest('换算单位重复', [{ field: `unitConversions.${i}.unitId`, message: '单位重复' }]);
      if (!(Number(c.factor) > 0))
        throw badRequest('换算系数必须大于 0', [
          { field: `unitConversions.${i}.factor`, message: '必须大于 0' },
        ]);
      units.add(c.unitId);
    }
    await checkAttributes(db, data.templateId, data.attributes);
  },
};

export const templateHooks: ResourceHooks = {
  async validate(_ctx, data) {
    const names = new Set<string>();
    for (const [i, a] of (data.attributes ?? []).entries()) {
      if (names.has(a.name))
        throw badRequest(`属性「${a.name}」重复`, [
          { field: `attributes.${i}.name`, message: '属性名称重复' },
        ]);
      names.add(a.name);
    }
  },
};

export function materialRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/material-info/unitConversion/:id',
    permission: 'authenticated',
    params: idParams,
    async handler({ params, app: { db } }) {
      const m = await db
        .selectFrom('material as m')
        .leftJoin('materialUnit as u', 'u.id', 'm.unitId')
        .select(['m.id', 'm.code', 'm.name', 'm.unitId', 'u.name as unitName'])
        .where('m.id', '=', params.id)
        .executeTakeFirst();
      if (!m) throw notFound('物料不存在或已被删除');
      const conversions = await db
        .selectFrom('materialUnitConversion as c')
        .innerJoin('materialUnit as u', 'u.id', 'c.unitId')
        .select(['c.unitId', 'u.name as unitName', 'c.factor'])
        .where('c.materialId', '=', params.id)
        .orderBy('c.lineNo')
        .execute();
      return {
        materialId: m.id,
        baseUnitId: m.unitId,
        baseUnitName: m.unitName,
        units: [{ unitId: m.unitId, unitName: m.unitName, factor: '1' }, ...conversions],
      };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/material-info/findByName',
    permission: 'authenticated',
    query: z.strictObject({
      name: zx.required(100),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
    async handler({ query, app: { db } }) {
      return db
        .selectFrom('material')
        .select(['id', 'code', 'name', 'spec', 'unitId', 'status'])
        .where(containsAny(['name', 'code', 'spec'], query.name))
        .orderBy(sql`name = ${query.name}`, 'desc')
        .orderBy('code')
        .limit(query.limit)
        .execute();
    },
  });

  // Create a material from a template: the template's attributes become its attribute values.
  const create = resourceSchemas(materialInfoResource).create as z.ZodObject<any>;
  route(app, {
    method: 'POST',
    url: '/api/v1/material-template/add/materialInfo',
    permission: 'factory:material:add',
    body: create.extend({ templateId: zx.id }),
    async handler({ body, user, req, app: { db } }) {
      const template = await db
        .selectFrom('materialTemplate')
        .select(['id', 'status'])
        .where('id', '=', body.templateId)
        .executeTakeFirst();
      if (!template) throw fieldError('templateId', '所选物料模板不存在');
      const id = await db
        .transaction()
        .execute((trx) =>
          createRecord({ db: trx, user, def: materialInfoResource }, body, materialHooks, req.id),
        );
      return getRecord(db, materialInfoResource, id);
    },
  });
}
