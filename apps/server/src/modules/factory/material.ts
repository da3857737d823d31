import { materialInfoResource, ratioProblem } from '@ringmes/domain';
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
      const problem = ratioProblem({ unitQuantity: c.unitQuantity ?? 1, baseQuantity: c.baseQuantity });
      if (problem)
        throw badRequest(problem, [{ field: `unitConversions.${i}.baseQuantity`, message: problem }]);
      units.add(c.unitId);
    }
    await checkAttributes(db, data.templateId, data.attributes);
  },
  // The unit weight is the kilogram conversion, read the other way: one fact, stored once.
  async afterSave({ db }, id) {
    await deriveWeights(db, [id]);
  },
};

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A product that names a tolerance class needs its three sizes, and the bore inside the outside diameter. */
function withBearingSizeCheck(hooks: ResourceHooks): ResourceHooks {
  return {
    ...hooks,
    async validate(ctx, data, before) {
      await hooks.validate?.(ctx, data, before);
      const d = num(data.boreDiameter);
      const D = num(data.outsideDiameter);
      if (data.toleranceClass) {
        if (d == null) throw fieldError('boreDiameter', '已选公差等级，请填写内径 d');
        if (D == null) throw fieldError('outsideDiameter', '已选公差等级，请填写外径 D');
        if (data.bearingWidth == null) throw fieldError('bearingWidth', '已选公差等级，请填写宽度 B');
      }
      if (d != null && D != null && d >= D) throw fieldError('outsideDiameter', '外径 D 必须大于内径 d');
    },
  };
}

/** The material's generic calls: its own rules and the bearing sizes (the 公差等级 tables need all three). */
export const materialInfoHooks = withBearingSizeCheck(materialHooks);

/**
 * Sets the unit weight (单重, kg per base unit) of the materials from what they are: 1 when counted
 * in kg, else their kilogram conversion read the other way (0.235 kg = 1 套 → 0.235), else none.
 * The weight is never typed: it follows the conversion on every save (migration 0063).
 */
export async function deriveWeights(db: Db, ids: number[]) {
  if (!ids.length) return;
  await sql`
    UPDATE material m SET weight = CASE
        WHEN is_kilogram(b.code, b.name) THEN 1
        ELSE (SELECT round(c.unit_quantity / c.base_quantity, 6) FROM material_unit_conversion c
                JOIN material_unit u ON u.id = c.unit_id
               WHERE c.material_id = m.id AND is_kilogram(u.code, u.name) ORDER BY c.line_no LIMIT 1) END
      FROM material_unit b
     WHERE m.id = ANY(${sql.val(ids)}::bigint[]) AND b.id = m.unit_id`.execute(db);
}

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
        .select(['m.id', 'm.code', 'm.name', 'm.unitId', 'u.name as unitName', 'u.precision'])
        .where('m.id', '=', params.id)
        .executeTakeFirst();
      if (!m) throw notFound('物料不存在或已被删除');
      const conversions = await db
        .selectFrom('materialUnitConversion as c')
        .innerJoin('materialUnit as u', 'u.id', 'c.unitId')
        .select(['c.unitId', 'u.name as unitName', 'u.precision', 'c.unitQuantity', 'c.baseQuantity'])
        .where('c.materialId', '=', params.id)
        .orderBy('c.lineNo')
        .execute();
      // Each unit as its exact ratio to the base unit (「0.235 kg = 1 套」); the base unit is 1 = 1.
      return {
        materialId: m.id,
        baseUnitId: m.unitId,
        baseUnitName: m.unitName,
        basePrecision: m.precision ?? 0,
        units: [
          {
            unitId: m.unitId,
            unitName: m.unitName,
            precision: m.precision ?? 0,
            unitQuantity: '1',
            baseQuantity: '1',
          },
          ...conversions,
        ],
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
