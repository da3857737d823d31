import {
  type BearingSize,
  characteristicOf,
  type DerivedLimit,
  deriveRingLimits,
  isDiameterSeries,
  overrideLooseness,
  queryRows,
  RING_CHARACTERISTICS,
  RING_TYPES,
  type RingStandardRow,
  rangeText,
  TOLERANCE_CLASSES,
  type ToleranceClass,
} from '@ringmes/domain';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { conflict, fieldError, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';

const READ = 'quality:ringStandard:list' as const;
const classValues = TOLERANCE_CLASSES.map((c) => c.value) as [ToleranceClass, ...ToleranceClass[]];

/** A product's bearing data, or why it cannot be derived. */
interface ProductRow {
  id: number;
  code: string;
  name: string;
  spec: string | null;
  toleranceClass: ToleranceClass | null;
  boreDiameter: string | null;
  outsideDiameter: string | null;
  bearingWidth: string | null;
  diameterSeries: string | null;
  capped: boolean;
}

async function loadProduct(db: Db, productId: number): Promise<ProductRow> {
  const p = await db
    .selectFrom('material')
    .select([
      'id',
      'code',
      'name',
      'spec',
      'toleranceClass',
      'boreDiameter',
      'outsideDiameter',
      'bearingWidth',
      'diameterSeries',
      'capped',
    ])
    .where('id', '=', productId)
    .executeTakeFirst();
  if (!p) throw notFound('产品不存在或已被删除');
  return p as ProductRow;
}

/** The derivation input of a product; 400 naming what the product lacks. */
export function bearingSizeOf(p: ProductRow, field = 'productId'): BearingSize {
  const lacks = [
    !p.toleranceClass && '公差等级',
    p.boreDiameter == null && '内径 d',
    p.outsideDiameter == null && '外径 D',
    p.bearingWidth == null && '宽度 B',
  ].filter(Boolean);
  if (lacks.length)
    throw fieldError(field, `产品 ${p.code} ${p.name} 未填写${lacks.join('、')}，请先在物料信息中补全`);
  return {
    toleranceClass: p.toleranceClass as ToleranceClass,
    d: Number(p.boreDiameter),
    D: Number(p.outsideDiameter),
    B: Number(p.bearingWidth),
    diameterSeries: isDiameterSeries(p.diameterSeries) ? p.diameterSeries : null,
    capped: p.capped,
  };
}

export interface ProductLimit extends DerivedLimit {
  /** The standard's values, before a customer's tightening. */
  standardUpper: number | null;
  standardLower: number | null;
  /** The customer's requirement applied to this characteristic, if any. */
  override: {
    id: number;
    customerId: number;
    customerName: string;
    upper: number | null;
    lower: number | null;
    reason: string;
    /** False when it is no longer tighter than the standard (the product's sizes changed): not applied. */
    applied: boolean;
    problem?: string;
  } | null;
  /** 「ISO 492… 表4 6级内圈，18 < d ≤ 30」 or 「客户收严：…」. */
  sourceText: string;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const sourceTextOf = (l: DerivedLimit) =>
  l.source ? `${l.source.standard} ${l.source.table}${l.range ? `（${l.range}）` : ''}` : '—';

/**
 * The inspection limits of a product: derived from its tolerance class and sizes by the
 * ISO 492 / GB/T 307.1 tables, with the customer's tightenings applied when `customerId` is given.
 * Each limit names its source. What inspections use for 计量 items of these characteristics.
 */
export async function productLimits(db: Db, productId: number, customerId?: number | null) {
  const p = await loadProduct(db, productId);
  const size = bearingSizeOf(p);
  const derived = deriveRingLimits(size);
  let customer: { id: number; name: string } | null = null;
  const overrides = new Map<string, any>();
  if (customerId) {
    const c = await db
      .selectFrom('customer')
      .select(['id', 'name'])
      .where('id', '=', customerId)
      .executeTakeFirst();
    if (!c) throw notFound('客户不存在或已被删除');
    customer = c as { id: number; name: string };
    const rows = await db
      .selectFrom('ringStandardOverride')
      .select(['id', 'characteristic', 'upperLimit', 'lowerLimit', 'reason', 'customerId'])
      .where('materialId', '=', productId)
      .where('customerId', '=', customerId)
      .execute();
    for (const r of rows) overrides.set(r.characteristic, r);
  }
  const limits: ProductLimit[] = derived.map((l) => {
    const o = overrides.get(l.code);
    const base: ProductLimit = {
      ...l,
      standardUpper: l.upper,
      standardLower: l.lower,
      override: null,
      sourceText: sourceTextOf(l),
    };
    if (!o || !customer) return base;
    const upper = num(o.upperLimit);
    const lower = num(o.lowerLimit);
    const problem = overrideLooseness(l, upper, lower);
    base.override = {
      id: Number(o.id),
      customerId: customer.id,
      customerName: customer.name,
      upper,
      lower,
      reason: o.reason,
      applied: problem === null,
      ...(problem ? { problem } : {}),
    };
    if (problem) return base;
    return {
      ...base,
      upper,
      lower: l.kind === 'max' ? null : lower,
      sourceText: `客户收严（${customer.name}）：${o.reason}；标准 ${sourceTextOf(l)}`,
    };
  });
  return {
    product: {
      id: p.id,
      code: p.code,
      name: p.name,
      spec: p.spec,
      toleranceClass: size.toleranceClass,
      d: size.d,
      D: size.D,
      B: size.B,
      diameterSeries: size.diameterSeries ?? null,
      capped: size.capped ?? false,
    },
    customer,
    limits,
  };
}

/** A customer's requirement must tighten the standard's limit of its product's characteristic. */
export const ringStandardOverrideHooks: ResourceHooks = {
  async validate({ db }, data, before) {
    const c = characteristicOf(String(data.characteristic));
    if (!c) throw fieldError('characteristic', '特性不正确');
    const p = await loadProduct(db, Number(data.materialId));
    const limit = deriveRingLimits(bearingSizeOf(p, 'materialId')).find(
      (l) => l.code === c.code,
    ) as DerivedLimit;
    const upper = num(data.upperLimit);
    const lower = num(data.lowerLimit);
    const problem = overrideLooseness(limit, upper, lower);
    if (problem) {
      const field =
        (upper == null && c.kind === 'max') || /上偏差|最大值|上限/.test(problem)
          ? 'upperLimit'
          : 'lowerLimit';
      throw fieldError(/没有.*数值/.test(problem) ? 'characteristic' : field, problem);
    }
    const dup = await db
      .selectFrom('ringStandardOverride')
      .select('id')
      .where('materialId', '=', data.materialId)
      .where('customerId', '=', data.customerId)
      .where('characteristic', '=', c.code)
      .$if(Boolean(before?.id), (q) => q.where('id', '<>', before?.id))
      .executeTakeFirst();
    if (dup) throw conflict(`该客户对本产品的 ${c.symbol} 已有收严要求，请修改原记录`);
  },
};

const ringTypeValues = RING_TYPES.map((r) => r.value) as ['inner', 'outer'];

/** One table row as the list answers it: each characteristic a column. */
function rowOut(r: RingStandardRow, i: number) {
  const series = (g: RingStandardRow['diameterVariation']) =>
    g?.map((x) => ({ series: x.series.join(','), max: x.max })) ?? [];
  return {
    key: `${r.ringType}-${r.toleranceClass}-${r.over}-${i}`,
    ringType: r.ringType,
    ringTypeName: RING_TYPES.find((x) => x.value === r.ringType)?.label,
    toleranceClass: r.toleranceClass,
    over: r.over,
    incl: r.incl,
    range: rangeText(r),
    meanDeviation: r.meanDeviation ?? null,
    diameterVariation: series(r.diameterVariation),
    diameterVariationCapped: series(r.diameterVariationCapped),
    meanDiameterVariation: r.meanDiameterVariation ?? null,
    widthDeviation: r.widthDeviation ?? null,
    widthVariation: r.widthVariation ?? null,
    radialRunout: r.radialRunout ?? null,
    source: r.source,
  };
}

export function ringStandardRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/bearing-ring-standard/rows',
    permission: READ,
    query: z.strictObject({
      ringType: z.enum(ringTypeValues, { error: '套圈类型只能是 inner（内圈）或 outer（外圈）' }).optional(),
      toleranceClass: z.enum(classValues, { error: '公差等级只能是 P0、P6、P5、P4、P2' }).optional(),
      diameter: z.coerce
        .number({ error: '公称直径必须是数字' })
        .positive('公称直径必须大于 0')
        .max(10000, '公称直径过大')
        .optional(),
    }),
    async handler({ query }) {
      const rows = queryRows(query);
      return { total: rows.length, list: rows.map(rowOut), characteristics: RING_CHARACTERISTICS };
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/bearing-ring-standard/limits',
    permission: READ,
    query: z.strictObject({ productId: zx.id, customerId: zx.id.optional() }),
    handler: ({ query, app: { db } }) => productLimits(db, query.productId, query.customerId),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/bearing-ring-standard/overrides',
    permission: READ,
    query: z.strictObject({ productId: zx.id }),
    async handler({ query, app: { db } }) {
      const rows = await db
        .selectFrom('ringStandardOverride as o')
        .innerJoin('customer as c', 'c.id', 'o.customerId')
        .select([
          'o.id',
          'o.materialId',
          'o.customerId',
          'c.name as customerName',
          'o.characteristic',
          'o.upperLimit',
          'o.lowerLimit',
          'o.reason',
          'o.version',
          'o.updatedAt',
        ])
        .where('o.materialId', '=', query.productId)
        .orderBy('c.name')
        .orderBy('o.characteristic')
        .execute();
      if (!rows.length) {
        const exists = await db
          .selectFrom('material')
          .select('id')
          .where('id', '=', query.productId)
          .executeTakeFirst();
        if (!exists) throw notFound('产品不存在或已被删除');
      }
      return rows.map((r: any) => ({
        ...r,
        symbol: characteristicOf(r.characteristic)?.symbol ?? r.characteristic,
      }));
    },
  });
}
