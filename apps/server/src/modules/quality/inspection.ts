import {
  type Aql,
  acceptNumberOneStepTighter,
  characteristicForPart,
  characteristicOf,
  inspectionTaskResource as def,
  featureLabel,
  featureOfCharacteristic,
  filledNominal,
  finalSizeOf,
  hasStepValues,
  type InspectionLevel,
  inspectionCategory,
  inspectionPaths,
  itemFitsPart,
  type PartType,
  type Severity,
  type SizeStage,
  samplingPlan,
  scopePrefixes,
  sizeFeatureOf,
  stepBasisText,
  stepLineProblem,
  toleranceLimits,
  whyNotForPart,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { AppError, conflict, fieldError } from '../../platform/errors.ts';
import { notify } from '../../platform/messages.ts';
import { dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { lifecycleHooks, type TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { qty } from '../orders/order-lines.ts';
import { completeInspection } from '../production/work-report.ts';
import { applyMoves, type QualityStatus } from '../warehouse/posting.ts';
import { type ProductLimit, productLimits } from './ring-standard.ts';
import { recordOriginalVerdict, samplingSourceOf, switchingFor } from './sampling.ts';

/**
 * 检验单 (inspection tasks). A task freezes its items from a template when saved (limits,
 * sample size from the lot and GB/T 2828.1, Ac/Re), takes the values per item and sample
 * (`saveResults`, judged as they are saved) and ends 合格 / 不合格 / 让步接收. The end releases or
 * holds its source in the same transaction:
 *  - a work report waiting 待检验 posts (检验完成) on 合格/让步接收; 不合格 holds its flow card;
 *  - a flow card (车间来料, 过程检验) is held on 不合格 and released on a later 合格;
 *  - a purchase receipt line's stock moves 待检 → 合格 / 不合格;
 *  - a 销售出库 may post (with the shipment-inspection setting on) once its tasks passed.
 */

const D = (v: Decimal.Value) => new Decimal(v);

// ------------------------------------------------------------------ items frozen from a template

export interface PlannedItem {
  itemId: number;
  itemTitle: string;
  kind: string;
  ringCharacteristic: string | null;
  /** The nominal the limits rest on (the step's drawing size, or the product's size). */
  nominal: string | null;
  lowerLimit: string | null;
  upperLimit: string | null;
  /** 标准 / 客户加严 / 工序图 / 手工 for 计量 items; null for 计数. */
  limitSource: LimitSource | null;
  limitNote: string | null;
  unit: string | null;
  instrument: string | null;
  sampleSize: number;
  acceptNumber: number;
  rejectNumber: number;
  codeLetter: string | null;
  /** Normal plans with Ac ≥ 2: Ac one AQL step tighter on the same row (the switching score). */
  tighterAcceptNumber: number | null;
  defectCount: number;
  result: null;
}

type LimitSource = 'standard' | 'override' | 'drawing' | 'typed';

/** What the limits of a 计量 item are planned for: the product, and the customer whose tightenings apply. */
export interface PlanFor {
  productId: number;
  customerId?: number | null;
}

/**
 * The template that fits a product, step and kind best: product and process match first, then
 * generic ones. A 过程检验 (patrol) of a step without a process template of its own checks the
 * step's item set, its 报工检验 template of the product and process.
 */
export async function findTemplate(
  db: Db,
  productId: number,
  processId: number | null,
  kind: string,
): Promise<number | null> {
  const stepSet =
    kind === 'process' && processId != null
      ? sql`OR (inspection_kind = 'reporting' AND product_id = ${productId} AND process_id = ${processId})`
      : sql``;
  const r = await sql<{ id: number }>`
    SELECT id FROM inspection_template
     WHERE status = '1'
       AND (product_id = ${productId} OR product_id IS NULL)
       AND (process_id IS NOT DISTINCT FROM ${processId} OR process_id IS NULL)
       AND (inspection_kind = ${kind} ${stepSet})
     ORDER BY (product_id IS NULL), (process_id IS NULL), (inspection_kind <> ${kind}), code LIMIT 1`.execute(
    db,
  );
  return r.rows[0] ? Number(r.rows[0].id) : null;
}

/** A gauge reading in μm (a comparator zeroed on the nominal) rather than the size in mm. */
const MICRONS = /^(μm|µm|um)$/i;

/**
 * The limits of an item measuring a ring characteristic, from the product's standard limits
 * (μm deviations or maxima): in mm the size (nominal + deviation / 1000) or the maximum / 1000;
 * in μm the deviations themselves. A maximum (variation, runout) has no lower limit.
 */
function standardLimits(l: ProductLimit, unit: string | null) {
  const um = MICRONS.test(unit ?? '');
  const at = (v: number | null, base: number | null) => {
    if (v == null) return null;
    if (um) return D(v).toString();
    return D(base ?? 0)
      .plus(D(v).div(1000))
      .toFixed(4);
  };
  const base = l.kind === 'deviation' ? l.nominal : 0;
  return {
    nominal: l.kind === 'deviation' && l.nominal != null ? D(l.nominal).toFixed(4) : null,
    lowerLimit: l.kind === 'deviation' ? at(l.lower, base) : null,
    upperLimit: at(l.upper, base),
    unit: unit || 'mm',
  };
}

/**
 * A product's standard limits for planning, or why there are none (no class or sizes): read once
 * per task, only when one of its items names a ring characteristic.
 */
async function limitsFor(db: Db, plan: PlanFor) {
  try {
    const r = await productLimits(db, plan.productId, plan.customerId);
    return { limits: new Map(r.limits.map((l) => [l.code as string, l])), why: null };
  } catch (e) {
    if (e instanceof AppError) return { limits: null, why: e.message };
    throw e;
  }
}

/** What a task's product is for planning: its part and finished sizes (mm), its drawing number. */
interface PartOf {
  partType: PartType | null;
  d: string | null;
  D: string | null;
  B: string | null;
  drawingNo: string | null;
}

async function partOf(db: Db, productId: number): Promise<PartOf | null> {
  const r = await sql<PartOf>`
    SELECT part_type, bore_diameter::text AS d, outside_diameter::text AS "D", bearing_width::text AS "B", drawing_no
      FROM material WHERE id = ${productId}`.execute(db);
  return r.rows[0] ?? null;
}

/** A template's header as planning reads it: its size stage and the drawing its sizes come from. */
async function templateBasis(db: Db, templateId: number) {
  const r = await sql<{
    sizeStage: SizeStage | null;
    documentId: number | null;
    docNo: string | null;
    title: string | null;
    revisionNo: string | null;
  }>`
    SELECT t.size_stage, d.id AS document_id, d.doc_no, d.title,
           (SELECT r.revision_no FROM technical_document_revision r
             WHERE r.document_id = d.id AND r.status = 'current' ORDER BY r.id DESC LIMIT 1) AS revision_no
      FROM inspection_template t LEFT JOIN technical_document d ON d.id = t.technical_document_id
     WHERE t.id = ${templateId}`.execute(db);
  return r.rows[0];
}

/** 「依据 JS… 6205 外圈零件图 A 版」 or 「图号 RM-6205-OR-01」: where a step's sizes come from. */
function documentText(
  basis: Awaited<ReturnType<typeof templateBasis>> | undefined,
  part: PartOf | null,
): string {
  if (basis?.docNo)
    return `依据 ${basis.docNo} ${basis.title ?? ''}${basis.revisionNo ? ` ${basis.revisionNo} 版` : ''}`;
  return part?.drawingNo ? `图号 ${part.drawingNo}` : '';
}

/**
 * The template's items with their limits and sampling for a lot — the items of the task's part
 * only (an outer ring has no bore d; see `itemFitsPart`). A 计量 line carrying the step's size
 * (工序图: turned with grinding allowance, ground, finished) takes its limits from it; else an
 * item that names a ring characteristic takes its limits from the product's ISO 492 / GB/T 307.1
 * derivation (the characteristic of the part's own ring), tightened by the customer's requirement
 * when `plan` names a customer who has one; the limits typed on the item apply only when the
 * product has none to derive (and the item says why). Items sampled by GB/T 2828.1 take their
 * plan from the table of `severity` (表 2-A 正常, 2-B 加严, 2-C 放宽).
 */
export async function planItems(
  db: Db,
  templateId: number,
  lot: Decimal.Value,
  plan?: PlanFor,
  severity: Severity = 'normal',
): Promise<PlannedItem[]> {
  const r = await sql<Record<string, any>>`
    SELECT i.id, i.name, i.kind, i.ring_characteristic, i.feature, i.nominal::text AS nominal,
           i.upper_tolerance::text AS upper_tolerance, i.lower_tolerance::text AS lower_tolerance, i.unit, i.instrument,
           i.sampling_mode, i.sample_size, i.inspection_level, i.aql,
           l.nominal::text AS step_nominal, l.upper_tolerance::text AS step_upper,
           l.lower_tolerance::text AS step_lower, l.allowance::text AS step_allowance
      FROM inspection_template_line l JOIN inspection_item i ON i.id = l.item_id
     WHERE l.inspection_template_id = ${templateId} ORDER BY l.line_no`.execute(db);
  const part = plan ? await partOf(db, plan.productId) : null;
  const partType = part?.partType ?? null;
  const rows = r.rows
    .filter((i) => itemFitsPart(partType, i))
    .map(
      (i): Record<string, any> => ({
        ...i,
        ringCharacteristic: i.ringCharacteristic
          ? characteristicForPart(i.ringCharacteristic, partType)
          : null,
        step: {
          nominal: i.stepNominal,
          upperTolerance: i.stepUpper,
          lowerTolerance: i.stepLower,
          allowance: i.stepAllowance,
        },
      }),
    );
  const lotSize = Math.max(1, D(lot).ceil().toNumber());
  const drawn = rows.some((i) => i.kind === 'measure' && hasStepValues(i.step));
  const basis = drawn ? await templateBasis(db, templateId) : undefined;
  const standard =
    plan && rows.some((i) => i.kind === 'measure' && i.ringCharacteristic && !hasStepValues(i.step))
      ? await limitsFor(db, plan)
      : null;
  return rows.map((i) => {
    let n = Math.min(Number(i.sampleSize ?? 1), lotSize);
    let ac = 0;
    let re = 1;
    let letter: string | null = null;
    let tighter: number | null = null;
    if (i.samplingMode === 'aql' && i.inspectionLevel && i.aql) {
      const sp = samplingPlan(lotSize, i.inspectionLevel as InspectionLevel, i.aql as Aql, severity);
      n = sp.sampleSize;
      ac = sp.ac;
      re = sp.re;
      letter = sp.planLetter;
      if (severity === 'normal' && ac >= 2) tighter = acceptNumberOneStepTighter(sp.planLetter, i.aql as Aql);
    }
    const limits =
      i.kind === 'measure' && hasStepValues(i.step)
        ? drawingLimits(i, basis, part, partType)
        : limitsOf(i, standard);
    return {
      itemId: Number(i.id),
      itemTitle: i.name,
      kind: i.kind,
      ringCharacteristic: i.kind === 'measure' ? (i.ringCharacteristic ?? null) : null,
      ...limits,
      instrument: i.instrument,
      sampleSize: n,
      acceptNumber: ac,
      rejectNumber: re,
      codeLetter: letter,
      tighterAcceptNumber: tighter,
      defectCount: 0,
      result: null,
    };
  });
}

type Limits = Pick<
  PlannedItem,
  'nominal' | 'lowerLimit' | 'upperLimit' | 'unit' | 'limitSource' | 'limitNote'
>;

/** A line's step size from the drawing: nominal + deviations, in the item's unit. */
function drawingLimits(
  i: Record<string, any>,
  basis: Awaited<ReturnType<typeof templateBasis>> | undefined,
  part: PartOf | null,
  partType: PartType | null,
): Limits {
  const nominal =
    i.step.nominal ??
    filledNominal({
      part: partType,
      item: i,
      line: i.step,
      finalSize: part ? finalSizeOf(part, sizeFeatureOf(i)) : null,
    });
  const text = stepBasisText({
    stage: basis?.sizeStage,
    part: partType,
    item: i,
    line: { ...i.step, nominal },
    unit: i.unit,
  });
  const doc = documentText(basis, part);
  return {
    nominal: nominal == null ? null : D(nominal).toFixed(4),
    ...toleranceLimits(nominal, i.step.upperTolerance, i.step.lowerTolerance),
    unit: i.unit,
    limitSource: 'drawing',
    limitNote: `${text}${doc ? `；${doc}` : ''}`.slice(0, 200),
  };
}

/** One item's limits, unit and their source (see `planItems`). */
function limitsOf(i: Record<string, any>, standard: Awaited<ReturnType<typeof limitsFor>> | null): Limits {
  if (i.kind !== 'measure')
    return {
      nominal: null,
      lowerLimit: null,
      upperLimit: null,
      unit: i.unit,
      limitSource: null,
      limitNote: null,
    };
  let why: string | null = null;
  if (i.ringCharacteristic && standard) {
    const l = standard.limits?.get(i.ringCharacteristic);
    if (l?.available && l.upper != null) {
      const applied = Boolean(l.override?.applied);
      const note = l.override && !l.override.applied ? `；客户收严未采用：${l.override.problem}` : '';
      return {
        ...standardLimits(l, i.unit),
        limitSource: applied ? 'override' : 'standard',
        limitNote: `${l.symbol} ${l.sourceText}${note}`.slice(0, 200),
      };
    }
    why = standard.why ?? (l ? `${l.symbol} ${l.missing ?? '标准数据缺失'}` : null);
  } else if (i.ringCharacteristic) {
    why = '未指定产品';
  }
  const typed = i.nominal != null;
  return {
    nominal: typed ? D(i.nominal).toFixed(4) : null,
    lowerLimit: typed
      ? D(i.nominal)
          .plus(i.lowerTolerance ?? 0)
          .toString()
      : null,
    upperLimit: typed
      ? D(i.nominal)
          .plus(i.upperTolerance ?? 0)
          .toString()
      : null,
    unit: i.unit,
    limitSource: 'typed',
    limitNote: why
      ? `标准无可推导的限值（${why}），${typed ? '按检验项目手填值' : '检验项目也未填写限值，请按图纸判定'}`.slice(
          0,
          200,
        )
      : null,
  };
}

// ------------------------------------------------------------------ hooks of the generic calls

export const inspectionItemHooks: ResourceHooks = {
  async validate(_ctx, d) {
    if (d.ringCharacteristic && d.kind !== 'measure')
      throw fieldError('ringCharacteristic', '只有计量项目可以关联套圈特性，计数项目请清空');
    if (d.ringCharacteristic && d.unit && !MICRONS.test(d.unit) && d.unit.toLowerCase() !== 'mm')
      throw fieldError('unit', '关联套圈特性的项目单位只能是 mm（尺寸）或 μm（偏差）');
    if (d.kind === 'measure') {
      // With a ring characteristic the limits come from the standard; typed ones are the fallback
      // for products without derivable limits and may be left out — but not half filled.
      const typed = [d.nominal, d.upperTolerance, d.lowerTolerance].some((v) => v != null);
      // So may an item naming its 测量部位: its sizes are the step's, on the template's lines.
      if ((!d.ringCharacteristic && !d.feature) || typed) {
        if (d.nominal == null) throw fieldError('nominal', '计量项目请填写名义值');
        if (d.upperTolerance == null) throw fieldError('upperTolerance', '计量项目请填写上偏差');
        if (d.lowerTolerance == null) throw fieldError('lowerTolerance', '计量项目请填写下偏差');
      }
      if (typed && D(d.upperTolerance).lt(d.lowerTolerance))
        throw fieldError('upperTolerance', '上偏差不能小于下偏差');
    }
    if (d.feature && d.ringCharacteristic) {
      const of = featureOfCharacteristic(d.ringCharacteristic);
      if (of !== d.feature)
        throw fieldError(
          'feature',
          `套圈特性 ${characteristicOf(d.ringCharacteristic)?.symbol ?? d.ringCharacteristic} 测量的是${featureLabel(of) ?? '其他部位'}，与测量部位「${featureLabel(d.feature)}」不一致`,
        );
    }
    if (d.samplingMode === 'fixed' && !d.sampleSize)
      throw fieldError('sampleSize', '固定样本量时请填写样本量');
    if (d.samplingMode === 'aql') {
      if (!d.inspectionLevel) throw fieldError('inspectionLevel', '按 GB/T 2828.1 抽样时请选择检验水平');
      if (!d.aql) throw fieldError('aql', '按 GB/T 2828.1 抽样时请选择 AQL');
    }
  },
};

interface TemplateItemRow {
  id: number;
  name: string;
  kind: string;
  feature: string | null;
  ringCharacteristic: string | null;
}

async function templateItems(db: Db, lines: any[]): Promise<Map<number, TemplateItemRow>> {
  const ids = lines.map((l) => Number(l.itemId)).filter((id) => id > 0);
  if (!ids.length) return new Map();
  const r = await sql<TemplateItemRow>`
    SELECT id, name, kind, feature, ring_characteristic FROM inspection_item WHERE id = ANY(${sql.val(ids)}::bigint[])`.execute(
    db,
  );
  return new Map(r.rows.map((i) => [Number(i.id), i]));
}

/**
 * 检验模板 is a step's item set: each item belongs to the template's product (an outer ring has
 * no bore d), each line's size fits the step (at 车削 its own size with the grinding allowance,
 * never the finished limits; the nominal = finished size ± allowance, filled in when left blank),
 * and the drawing it names is the product's or the process's.
 */
export const inspectionTemplateHooks: ResourceHooks = {
  async validate({ db }, d) {
    const lines: any[] = d.items ?? [];
    const ids = lines.map((l: any) => Number(l.itemId));
    const dup = ids.find((id: number, i: number) => ids.indexOf(id) !== i);
    if (dup) throw fieldError('items', '同一检验项目在模板中只能出现一次');
    const items = await templateItems(db, lines);
    const part = d.productId ? await partOf(db, Number(d.productId)) : null;
    for (const [n, l] of lines.entries()) {
      const it = items.get(Number(l.itemId));
      if (!it) continue;
      const why = whyNotForPart(part?.partType, it, it.name);
      if (why) throw fieldError(`items.${n}.itemId`, why);
      const problem = stepLineProblem({
        stage: d.sizeStage ?? null,
        part: part?.partType ?? null,
        item: it,
        line: l,
        finalSize: part ? finalSizeOf(part, sizeFeatureOf(it)) : null,
      });
      if (problem) throw fieldError(`items.${n}.${problem.field}`, problem.message);
    }
    if (d.technicalDocumentId) {
      const r = await sql<{
        docNo: string;
        materialId: number | null;
        processId: number | null;
        status: string;
      }>`
        SELECT doc_no, material_id, process_id, status FROM technical_document WHERE id = ${d.technicalDocumentId}`.execute(
        db,
      );
      const doc = r.rows[0];
      if (!doc) throw fieldError('technicalDocumentId', '技术文档不存在或已被删除');
      if (doc.status === 'voided') throw fieldError('technicalDocumentId', `技术文档 ${doc.docNo} 已作废`);
      const ofProduct = doc.materialId != null && Number(doc.materialId) === Number(d.productId);
      const ofProcess = doc.processId != null && Number(doc.processId) === Number(d.processId);
      if (!ofProduct && !ofProcess)
        throw fieldError('technicalDocumentId', `技术文档 ${doc.docNo} 不属于本模板的产品或工序`);
    }
  },
  async derive({ db }, d) {
    const lines: any[] = d.items ?? [];
    if (!d.productId || !lines.some((l) => l.nominal == null && l.allowance != null)) return {};
    const items = await templateItems(db, lines);
    const part = await partOf(db, Number(d.productId));
    for (const l of lines) {
      const it = items.get(Number(l.itemId));
      if (it?.kind !== 'measure' || !part) continue;
      const nominal = filledNominal({
        part: part.partType,
        item: it,
        line: l,
        finalSize: finalSizeOf(part, sizeFeatureOf(it)),
      });
      if (nominal != null) l.nominal = nominal;
    }
    return {};
  },
};

/**
 * The customer a task's source knows: a 销售出库's (or its sales order's), or the customer of the
 * production order a flow card (so a work report) belongs to — through its parent for a component
 * order. Null for purchase receipts and sources without one.
 */
async function customerOfSource(db: Db, data: Record<string, any>): Promise<number | null> {
  if (data.stockOutboundId) {
    const r = await sql<{ customerId: number | null }>`
      SELECT COALESCE(o.customer_id, so.customer_id) AS customer_id
        FROM stock_outbound o LEFT JOIN sale_order so ON so.id = o.sale_order_id
       WHERE o.id = ${data.stockOutboundId}`.execute(db);
    return r.rows[0]?.customerId == null ? null : Number(r.rows[0].customerId);
  }
  if (data.flowCardId) {
    const r = await prepared(sql<{ customerId: number | null }>`
      SELECT COALESCE(p.customer_id, so.customer_id, pp.customer_id, pso.customer_id) AS customer_id
        FROM flow_card c JOIN production_order p ON p.id = c.production_order_id
        LEFT JOIN sale_order so ON so.id = p.sale_order_id
        LEFT JOIN production_order pp ON pp.id = p.parent_order_id
        LEFT JOIN sale_order pso ON pso.id = pp.sale_order_id
       WHERE c.id = ${data.flowCardId}`).execute(db);
    return r.rows[0]?.customerId == null ? null : Number(r.rows[0].customerId);
  }
  return null;
}

async function outboundOf(db: Db, id: number) {
  const r = await sql<{ docNo: string; type: string; status: string }>`
    SELECT doc_no, type, status FROM stock_outbound WHERE id = ${id}`.execute(db);
  return r.rows[0];
}

export const inspectionTaskHooks: ResourceHooks = lifecycleHooks(def, {
  async prepare({ db }, data) {
    return {
      docNo: await nextDocNoOf(
        db,
        def,
        /^\d{4}-\d{2}-\d{2}$/.test(String(data.planDate ?? '')) ? dayInstant(data.planDate) : undefined,
      ),
    };
  },
  async validate(_ctx, data) {
    const c = inspectionCategory(String(data.category));
    if (!c) throw fieldError('category', '请选择检验类别');
    if (data.stockOutboundId) {
      if (c.kind !== 'shipment') throw fieldError('stockOutboundId', '只有出货检验可以关联销售出库单');
    }
  },
  async derive({ db }, data, before) {
    const c = inspectionCategory(String(data.category));
    if (!c) throw fieldError('category', '请选择检验类别');
    const out: Record<string, unknown> = { inspectionKind: c.kind, workshopType: c.workshopType ?? null };
    if (!before) {
      if (data.stockOutboundId) {
        const o = await outboundOf(db, Number(data.stockOutboundId));
        Object.assign(out, { sourceType: 'stock-outbound', sourceNo: o.docNo });
      } else if (data.flowCardId && !data.workReportId) {
        const card = await sql<{ docNo: string; heatNo: string | null }>`
          SELECT doc_no, heat_no FROM flow_card WHERE id = ${data.flowCardId}`.execute(db);
        Object.assign(out, {
          sourceType: data.sourceType ?? 'flow-card',
          sourceNo: card.rows[0]?.docNo ?? null,
          batchNo: data.batchNo ?? card.rows[0]?.heatNo ?? null,
        });
      } else if (!data.sourceType) out.sourceType = 'manual';
      if (data.customerId == null) out.customerId = await customerOfSource(db, data);
    }
    const customerId = (out.customerId ?? data.customerId ?? null) as number | null;
    const changed =
      !before ||
      String(before.templateId ?? '') !== String(data.templateId ?? '') ||
      !D(before.lotQuantity).eq(data.lotQuantity) ||
      before.productId !== data.productId ||
      before.processId !== data.processId ||
      String(before.customerId ?? '') !== String(customerId ?? '');
    if (changed) {
      const templateId =
        data.templateId ??
        (await findTemplate(
          db,
          Number(data.productId),
          data.processId ? Number(data.processId) : null,
          c.kind,
        ));
      // Tasks made from a source (报工, 入库, 巡检计划, 出库) may have no template: judged by hand.
      if (!templateId && !before && !data.sourceType) {
        throw fieldError('templateId', '没有匹配的检验模板，请先在「检验项目 › 检验模板」中维护，或选择模板');
      }
      // 来料检验 of a 采购入库 line: the supplier × material's lots decide the severity (转移规则).
      const source = await samplingSourceOf(db, { ...before, ...data });
      const severity = source
        ? (await switchingFor(db, source, before ? Number(before.id) : undefined)).severity
        : 'normal';
      const items = templateId
        ? await planItems(
            db,
            templateId,
            data.lotQuantity,
            {
              productId: Number(data.productId),
              customerId: customerId == null ? null : Number(customerId),
            },
            severity,
          )
        : [];
      Object.assign(out, {
        templateId,
        items,
        sampleSize: items.reduce((m, i) => Math.max(m, i.sampleSize), 0),
        samplingSeverity: items.some((i) => i.codeLetter) ? severity : null,
      });
    }
    return out;
  },
  async afterSave({ db }, id, action) {
    if (action === 'create') await notifyInspectors(db, id);
    // An edit re-plans the items (lot, product, customer…): the header's sample size follows them.
    else
      await sql`UPDATE inspection_task t SET sample_size = COALESCE(
                  (SELECT max(i.sample_size) FROM inspection_task_item i WHERE i.inspection_task_id = t.id), 0)
                 WHERE t.id = ${id}`.execute(db);
  },
});

/**
 * 「待检验」: a new task is messaged to its assignee, or else to every active user whose roles may
 * inspect its category (the resource's or the category's `:inspect` button); once per task.
 */
async function notifyInspectors(db: Db, id: number) {
  const r = await sql<Record<string, any>>`
    SELECT t.doc_no, t.category, t.assignee_id, t.lot_quantity::text, t.source_no, m.name AS product_name
      FROM inspection_task t LEFT JOIN material m ON m.id = t.product_id WHERE t.id = ${id}`.execute(db);
  const t = r.rows[0];
  const c = t && inspectionCategory(t.category);
  if (!c) return;
  const may = [def.permission, ...scopePrefixes(def, c.value)].map((p) => `${p}:inspect`);
  // Else from the permission's menus to their roles to the users, each step an array computed
  // once (an init plan), so the plan holds without statistics too: on an unanalysed embedded
  // database a join order of the planner's choosing was many times slower.
  const users = t.assigneeId
    ? [Number(t.assigneeId)]
    : (
        await prepared(sql<{ id: number }>`
          SELECT u.id FROM app_user u
           WHERE u.status = '1'
             AND u.id = ANY(ARRAY(
                   SELECT ur.user_id FROM role_menu rm
                     JOIN role ro ON ro.id = rm.role_id AND ro.status = '1' JOIN user_role ur ON ur.role_id = ro.id
                    WHERE rm.menu_id = ANY(ARRAY(SELECT mn.id FROM menu mn WHERE mn.menu_permissions = ANY(${sql.val(may)}::text[])))))
           ORDER BY u.id`).execute(db)
      ).rows.map((u) => Number(u.id));
  await notify(db, users, {
    kind: 'inspection',
    title: `待检验：${c.label} ${t.productName ?? ''} ${qty(t.lotQuantity ?? 0)}（${t.docNo}）`,
    content: t.sourceNo ? `来源 ${t.sourceNo}` : '',
    link: `${inspectionPaths(c).detail}?id=${id}`,
    eventKey: `inspection:${id}`,
  });
}

/** Creates a task from its source (report, receipt, card, outbound) as the system, in the caller's transaction. */
export async function createInspectionTask(db: Db, user: AuthUser, body: Record<string, unknown>) {
  return createRecord({ db, user: { ...user, isAdmin: true }, def }, body, inspectionTaskHooks);
}

// ------------------------------------------------------------------ results

export interface ResultInput {
  taskItemId: number;
  sampleNo: number;
  value?: string | null;
  ok?: boolean | null;
}

interface TaskItemRow {
  id: number;
  lineNo: number;
  itemTitle: string;
  kind: string;
  nominal: string | null;
  lowerLimit: string | null;
  upperLimit: string | null;
  unit: string | null;
  ringCharacteristic: string | null;
  limitSource: LimitSource | null;
  limitNote: string | null;
  sampleSize: number;
  acceptNumber: number;
  rejectNumber: number;
  /** GB/T 2828.1 items: the table row whose plan is used. */
  codeLetter: string | null;
}

async function taskItems(db: Db, taskId: number): Promise<TaskItemRow[]> {
  const r = await sql<TaskItemRow>`
    SELECT id, line_no, item_title, kind, nominal::text AS nominal, lower_limit::text AS lower_limit,
           upper_limit::text AS upper_limit, unit, ring_characteristic, limit_source, limit_note, sample_size,
           accept_number, reject_number, code_letter
      FROM inspection_task_item WHERE inspection_task_id = ${taskId} ORDER BY line_no`.execute(db);
  return r.rows.map((x) => ({ ...x, id: Number(x.id) }));
}

/** Is one value within its item's limits (计量), or OK (计数)? */
export function conforms(
  item: Pick<TaskItemRow, 'kind' | 'lowerLimit' | 'upperLimit'>,
  v: { value?: string | null; ok?: boolean | null },
) {
  if (item.kind === 'count') return v.ok === true;
  if (v.value == null) return false;
  const x = D(v.value);
  if (item.lowerLimit != null && x.lt(item.lowerLimit)) return false;
  if (item.upperLimit != null && x.gt(item.upperLimit)) return false;
  return true;
}

/** The task's results and the judgement of each item: 不合格 once defects reach Re, 合格 when complete within Ac. */
export async function resultsOf(db: Db, taskId: number) {
  const items = await taskItems(db, taskId);
  const r = await sql<{
    taskItemId: number;
    sampleNo: number;
    value: string | null;
    ok: boolean | null;
    conform: boolean;
  }>`
    SELECT task_item_id, sample_no, value::text AS value, ok, conform FROM inspection_result
     WHERE inspection_task_id = ${taskId} ORDER BY task_item_id, sample_no`.execute(db);
  const results = r.rows.map((x) => ({ ...x, taskItemId: Number(x.taskItemId) }));
  const judged = items.map((i) => {
    const mine = results.filter((x) => x.taskItemId === i.id);
    const defects = mine.filter((x) => !x.conform).length;
    const result = defects >= i.rejectNumber ? 'fail' : mine.length >= i.sampleSize ? 'pass' : null;
    return { ...i, entered: mine.length, defectCount: defects, result };
  });
  const verdict = judged.some((i) => i.result === 'fail')
    ? 'fail'
    : judged.every((i) => i.result === 'pass')
      ? 'pass'
      : null;
  return { items: judged, results, verdict, basis: await taskBasis(db, taskId) };
}

/**
 * What a task's items rest on, for the result-entry screen: the part, the step's size stage and
 * the drawing (technical document, its 现行 revision) of the template its items came from.
 */
async function taskBasis(db: Db, taskId: number) {
  const r = await sql<{
    templateId: number | null;
    templateName: string | null;
    sizeStage: SizeStage | null;
    partType: PartType | null;
    drawingNo: string | null;
    documentId: number | null;
    docNo: string | null;
    title: string | null;
    revisionNo: string | null;
  }>`
    SELECT t.template_id, tp.name AS template_name, tp.size_stage, m.part_type, m.drawing_no,
           d.id AS document_id, d.doc_no, d.title,
           (SELECT r.revision_no FROM technical_document_revision r
             WHERE r.document_id = d.id AND r.status = 'current' ORDER BY r.id DESC LIMIT 1) AS revision_no
      FROM inspection_task t JOIN material m ON m.id = t.product_id
      LEFT JOIN inspection_template tp ON tp.id = t.template_id
      LEFT JOIN technical_document d ON d.id = tp.technical_document_id
     WHERE t.id = ${taskId}`.execute(db);
  const b = r.rows[0];
  if (!b) return null;
  return {
    templateId: b.templateId == null ? null : Number(b.templateId),
    templateName: b.templateName,
    sizeStage: b.sizeStage,
    partType: b.partType,
    drawingNo: b.drawingNo,
    document:
      b.documentId == null
        ? null
        : { id: Number(b.documentId), docNo: b.docNo, title: b.title, revisionNo: b.revisionNo },
  };
}

/** Saves values (empty removes one), judged against the frozen limits; a 待检验 task becomes 检验中. */
export async function saveResults(db: Db, user: AuthUser, taskId: number, rows: ResultInput[]) {
  const task = await sql<{ status: string; docNo: string }>`
    SELECT status, doc_no FROM inspection_task WHERE id = ${taskId} FOR UPDATE`.execute(db);
  const t = task.rows[0];
  if (!t) throw conflict('检验单不存在或已被删除');
  if (!['pending', 'inspecting'].includes(t.status))
    throw conflict(`检验单 ${t.docNo} 已判定，不能再录入结果`);
  const items = new Map((await taskItems(db, taskId)).map((i) => [i.id, i]));
  // Checked whole first, then written in two statements (a grid of 5 × 20 values was 100 round
  // trips); the last entry of a cell wins, as it would typed one by one.
  const cells = new Map<
    string,
    { item: number; sample: number; value: string | null; ok: boolean | null; conform: boolean } | null
  >();
  for (const [n, row] of rows.entries()) {
    const item = items.get(Number(row.taskItemId));
    if (!item) throw fieldError(`results.${n}.taskItemId`, '检验项目不属于该检验单');
    if (row.sampleNo > item.sampleSize)
      throw fieldError(`results.${n}.sampleNo`, `「${item.itemTitle}」只抽 ${item.sampleSize} 件`);
    const key = `${item.id}:${row.sampleNo}`;
    const empty = item.kind === 'count' ? row.ok == null : row.value == null || row.value === '';
    if (empty) {
      cells.set(key, null);
      continue;
    }
    if (item.kind === 'measure' && row.value != null && !/^-?\d{1,13}(\.\d{1,4})?$/.test(String(row.value)))
      throw fieldError(
        `results.${n}.value`,
        `「${item.itemTitle}」第 ${row.sampleNo} 件的测量值不是有效数字（最多 4 位小数）`,
      );
    const value = item.kind === 'measure' ? String(row.value) : null;
    const ok = item.kind === 'count' ? row.ok === true : null;
    cells.set(key, {
      item: item.id,
      sample: row.sampleNo,
      value,
      ok,
      conform: conforms(item, { value, ok }),
    });
  }
  const cleared = [...cells].filter(([, c]) => c === null).map(([k]) => k.split(':').map(Number));
  if (cleared.length)
    await sql`
      DELETE FROM inspection_result r USING unnest(${sql.val(cleared.map((c) => c[0]))}::bigint[], ${sql.val(cleared.map((c) => c[1]))}::int[]) AS x(item, sample)
       WHERE r.task_item_id = x.item AND r.sample_no = x.sample`.execute(db);
  const kept = [...cells.values()].filter((c) => c !== null);
  if (kept.length)
    await prepared(sql`
      INSERT INTO inspection_result (inspection_task_id, task_item_id, sample_no, value, ok, conform)
      SELECT ${taskId}, x.item, x.sample, x.value, x.ok, x.conform
        FROM unnest(${sql.val(kept.map((c) => c.item))}::bigint[], ${sql.val(kept.map((c) => c.sample))}::int[],
                    ${sql.val(kept.map((c) => c.value))}::numeric[], ${sql.val(kept.map((c) => c.ok))}::boolean[],
                    ${sql.val(kept.map((c) => c.conform))}::boolean[]) AS x(item, sample, value, ok, conform)
      ON CONFLICT (task_item_id, sample_no) DO UPDATE SET value = EXCLUDED.value, ok = EXCLUDED.ok, conform = EXCLUDED.conform`).execute(
      db,
    );
  const judged = await resultsOf(db, taskId);
  if (judged.items.length)
    await sql`
      UPDATE inspection_task_item i SET defect_count = x.defects, result = x.result
        FROM unnest(${sql.val(judged.items.map((i) => i.id))}::bigint[], ${sql.val(judged.items.map((i) => i.defectCount))}::int[],
                    ${sql.val(judged.items.map((i) => i.result))}::text[]) AS x(id, defects, result)
       WHERE i.id = x.id`.execute(db);
  await sql`
    UPDATE inspection_task SET status = CASE WHEN status = 'pending' THEN 'inspecting' ELSE status END,
           inspector_id = ${user.id}, updated_by = ${user.id}, updated_at = now(), version = version + 1
     WHERE id = ${taskId}`.execute(db);
  return judged;
}

// ------------------------------------------------------------------ 认领 and 指派

/**
 * Gives a waiting task to an inspector (null: back to the pool). 认领 (`reassign` false) takes
 * only a task nobody else holds; 指派 may move it. Answers the task's assignee.
 */
export async function assignTask(
  db: Db,
  user: AuthUser,
  task: Record<string, any>,
  assigneeId: number | null,
  reassign: boolean,
) {
  const r = await sql<{ status: string; assigneeId: number | null; assigneeName: string | null }>`
    SELECT t.status, t.assignee_id, u.first_name AS assignee_name
      FROM inspection_task t LEFT JOIN app_user u ON u.id = t.assignee_id
     WHERE t.id = ${task.id} FOR UPDATE OF t`.execute(db);
  const cur = r.rows[0];
  if (!cur) throw conflict('检验单不存在或已被删除');
  if (!['pending', 'inspecting'].includes(cur.status))
    throw conflict(`检验单 ${task.docNo} 已判定，不能再${reassign ? '指派' : '认领'}`);
  if (!reassign && cur.assigneeId != null && Number(cur.assigneeId) !== user.id)
    throw conflict(`检验单 ${task.docNo} 已指派给 ${cur.assigneeName ?? '其他检验员'}，不能认领`);
  if (assigneeId != null) {
    const u = await sql`SELECT 1 FROM app_user WHERE id = ${assigneeId} AND status = '1'`.execute(db);
    if (!u.rows.length) throw fieldError('assigneeId', '检验员不存在或已停用');
  }
  await sql`UPDATE inspection_task SET assignee_id = ${assigneeId}, updated_by = ${user.id}, updated_at = now(),
                   version = version + 1 WHERE id = ${task.id}`.execute(db);
  return { id: Number(task.id), assigneeId };
}

// ------------------------------------------------------------------ release and hold

/** Holds a flow card (检验不合格): it cannot move to its next step until released. */
export async function holdCard(db: Db, cardId: number, reason: string) {
  await sql`UPDATE flow_card SET held = true, hold_reason = ${reason.slice(0, 200)}, updated_at = now(), version = version + 1
             WHERE id = ${cardId}`.execute(db);
}

export async function releaseCard(db: Db, cardId: number) {
  await sql`UPDATE flow_card SET held = false, hold_reason = NULL, updated_at = now(), version = version + 1
             WHERE id = ${cardId} AND held`.execute(db);
}

/** Moves a receipt line's stock between quality states (待检 → 合格/不合格) through the stock service. */
async function moveStockStatus(
  db: Db,
  user: AuthUser,
  task: Record<string, any>,
  from: QualityStatus,
  to: QualityStatus,
) {
  if (from === to) return;
  const r = await sql<Record<string, any>>`
    SELECT i.warehouse_id, i.biz_date::text AS biz_date, l.material_id, l.location_id, COALESCE(l.batch_no, '') AS batch_no,
           l.base_quantity::text AS base_quantity
      FROM stock_inbound i JOIN stock_inbound_line l ON l.stock_inbound_id = i.id
     WHERE i.id = ${task.stockInboundId} AND l.id = ${task.stockInboundLineId}`.execute(db);
  const line = r.rows[0];
  if (!line) return;
  const key = {
    materialId: Number(line.materialId),
    warehouseId: Number(line.warehouseId),
    locationId: line.locationId == null ? null : Number(line.locationId),
    batchNo: line.batchNo,
  };
  await applyMoves(
    db,
    {
      docType: 'inspection-task',
      docKind: 'transfer',
      docId: Number(task.id),
      docNo: task.docNo,
      bizDate: line.bizDate,
      userId: user.id,
    },
    [
      {
        ...key,
        qualityStatus: from,
        quantity: D(line.baseQuantity).neg().toString(),
        lineId: null,
        exact: true,
      },
      { ...key, qualityStatus: to, quantity: line.baseQuantity, lineId: null },
    ],
  );
}

async function setStepResult(db: Db, task: Record<string, any>, result: 'pass' | 'fail') {
  if (!task.workReportId) return;
  await sql`
    UPDATE flow_card_step s SET inspection_result = ${result}
      FROM work_report r WHERE r.id = ${task.workReportId} AND s.flow_card_id = r.flow_card_id AND s.order_step_id = r.order_step_id`.execute(
    db,
  );
}

/** Where a receipt line's stock stands: 不合格 once the task failed (kept through 返工复检), else 待检. */
const stockStatusOf = (task: Record<string, any>): QualityStatus =>
  task.status === 'failed' || task.disposition ? 'rejected' : 'pending';

/** 合格 or 让步接收 (`verdict`): the batch goes on. */
async function release(db: Db, user: AuthUser, task: Record<string, any>, verdict: '合格' | '让步接收') {
  if (task.flowCardId) await releaseCard(db, Number(task.flowCardId));
  await setStepResult(db, task, 'pass');
  if (task.stockInboundId && task.stockInboundLineId)
    await moveStockStatus(db, user, task, stockStatusOf(task), 'qualified');
  if (task.workReportId) {
    const r = await sql<{
      status: string;
    }>`SELECT status FROM work_report WHERE id = ${task.workReportId}`.execute(db);
    if (r.rows[0]?.status === 'inspecting')
      await completeInspection(db, user, Number(task.workReportId), `检验单 ${task.docNo} ${verdict}`);
  }
}

/** 不合格: the card is held, the stock rejected. */
async function hold(db: Db, user: AuthUser, task: Record<string, any>) {
  if (task.flowCardId) await holdCard(db, Number(task.flowCardId), `检验单 ${task.docNo} 不合格`);
  await setStepResult(db, task, 'fail');
  if (task.stockInboundId && task.stockInboundLineId)
    await moveStockStatus(db, user, task, stockStatusOf(task), 'rejected');
}

const stamp = (db: Db, id: number, user: AuthUser, values: Record<string, unknown>) =>
  db
    .updateTable('inspectionTask')
    .set({ ...values, inspectorId: user.id, inspectedAt: sql`now()` } as any)
    .where('id', '=', id)
    .execute();

export const inspectionTaskTransitions: Record<string, TransitionHandlers> = {
  start: {
    async effect({ db, record, user }) {
      // Starting an unassigned task claims it.
      await db
        .updateTable('inspectionTask')
        .set({ inspectorId: user.id, assigneeId: sql`COALESCE(assignee_id, ${user.id})` } as any)
        .where('id', '=', record.id)
        .execute();
    },
  },
  pass: {
    async guard({ db, record }) {
      const { items, verdict } = await resultsOf(db, record.id);
      const bad = items.find((i) => i.result === 'fail');
      if (bad) {
        throw conflict(
          `「${bad.itemTitle}」不合格 ${bad.defectCount} 件（Ac ${bad.acceptNumber}），不能判定合格；可判定不合格或让步接收`,
        );
      }
      const open = items.find((i) => i.result === null);
      if (verdict !== 'pass' && open) {
        throw conflict(
          `「${open.itemTitle}」已录入 ${open.entered} / ${open.sampleSize} 件，请录完全部样本再判定`,
        );
      }
    },
    async effect({ db, record, user }) {
      await stamp(db, record.id, user, { result: 'pass', disposition: null, defectQuantity: null });
      await recordOriginalVerdict(db, record.id, 'pass');
      await release(db, user, record, '合格');
    },
  },
  reject: {
    async effect({ db, record, user, input }) {
      if (input.defectQuantity != null && D(input.defectQuantity).gt(record.lotQuantity))
        throw fieldError('defectQuantity', `不合格数不能超过批量 ${qty(record.lotQuantity)}`);
      await stamp(db, record.id, user, {
        result: 'fail',
        disposition: input.disposition,
        defectQuantity: input.defectQuantity ?? null,
      });
      await recordOriginalVerdict(db, record.id, 'fail');
      await hold(db, user, record);
    },
  },
  concede: {
    async effect({ db, record, user }) {
      await stamp(db, record.id, user, { result: 'concession' });
      await recordOriginalVerdict(db, record.id, 'concession');
      await release(db, user, record, '让步接收');
    },
  },
  reinspect: {
    async guard({ record }) {
      if (record.disposition !== 'rework')
        throw conflict(`检验单 ${record.docNo} 的处置为「报废/退货」，不能返工复检`);
    },
    async effect({ db, record }) {
      await sql`DELETE FROM inspection_result WHERE inspection_task_id = ${record.id}`.execute(db);
      await sql`UPDATE inspection_task_item SET defect_count = 0, result = NULL WHERE inspection_task_id = ${record.id}`.execute(
        db,
      );
      await db
        .updateTable('inspectionTask')
        .set({ result: null, inspectedAt: null } as any)
        .where('id', '=', record.id)
        .execute();
    },
  },
};
