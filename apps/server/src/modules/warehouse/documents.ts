import {
  fieldOf,
  QUALIFIED_ONLY_OUTBOUND,
  type ResourceDef,
  shownQuantity,
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { auditInsert } from '../../platform/audit.ts';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { type App, route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { businessDay, dayInstant, nextDocNoOf } from '../../platform/numbering.ts';
import type { ResourceEntry } from '../../platform/resource/area.ts';
import { getRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import type { TransitionCtx, TransitionHandlers } from '../../platform/resource/lifecycle.ts';
import { answerRowSchema } from '../../platform/resource/schema.ts';
import { notifyLowStock } from './alert.ts';
import {
  applyMoves,
  type DocRef,
  type LedgerEntry,
  lockValuation,
  type Move,
  type MoveUnit,
  type PostOptions,
  type QualityStatus,
  reversalMoves,
} from './posting.ts';
import { applySources, linkSources, postedLines, type StockKind, sourceColumns } from './sources.ts';
import {
  inboundCosts,
  type StockEvent,
  stockPostChecks,
  stockPosted,
  stockReversed,
} from './stock-events.ts';

type Kind = DocRef['docKind'];

interface DocSpec {
  def: ResourceDef;
  kind: Kind;
  lineTable: string;
  parentColumn: string;
}

const SPECS: DocSpec[] = [
  {
    def: stockInboundResource,
    kind: 'inbound',
    lineTable: 'stock_inbound_line',
    parentColumn: 'stock_inbound_id',
  },
  {
    def: stockOutboundResource,
    kind: 'outbound',
    lineTable: 'stock_outbound_line',
    parentColumn: 'stock_outbound_id',
  },
  {
    def: stockTransferResource,
    kind: 'transfer',
    lineTable: 'stock_transfer_line',
    parentColumn: 'stock_transfer_id',
  },
  {
    def: stocktakeResource,
    kind: 'stocktake',
    lineTable: 'stocktake_line',
    parentColumn: 'stocktake_id',
  },
];

const STATUS_TEXT: Record<string, string> = { draft: '草稿', posted: '已过账', reversed: '已冲销' };

interface MaterialInfo {
  id: number;
  name: string;
  batchManaged: boolean;
}

async function materialsOf(db: Db, ids: number[]): Promise<Map<number, MaterialInfo>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('material')
    .select(['id', 'name', 'batchManaged'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r: any) => [r.id, r]));
}

/**
 * A line's quantity in its material's base unit (line `l`, material `m`, base unit `bu`), converted
 * once by the exact ratio: quantity × base ÷ unit, half away from zero to the base unit's precision
 * (`toBaseQuantity` in packages/domain); NULL without a conversion.
 */
const BASE_QUANTITY = sql`CASE WHEN l.unit_id IS NULL OR l.unit_id = m.unit_id THEN l.quantity
  ELSE (SELECT round_ratio(l.quantity * c.base_quantity, c.unit_quantity, bu.precision) FROM material_unit_conversion c
         WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END`;
/** A line in another unit: its conversion (unit = base) and the base unit's precision, for allocating it by unit. */
const LINE_RATIO = sql`CASE WHEN l.unit_id IS NULL OR l.unit_id = m.unit_id THEN NULL
  ELSE (SELECT c.unit_quantity || ':' || c.base_quantity FROM material_unit_conversion c
         WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END AS ratio, bu.precision AS base_precision`;

function lineError(i: number, field: string, message: string) {
  return badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.${field}`, message }]);
}

/** Locations used by lines must belong to the document's warehouse. */
async function checkLocations(
  db: Db,
  pairs: { i: number; field: string; locationId: number | null | undefined; warehouseId: number }[],
) {
  const used = pairs.filter((p) => p.locationId);
  if (!used.length) return;
  const rows = await db
    .selectFrom('shelfLocation')
    .select(['id', 'warehouseId', 'name'])
    .where(
      'id',
      'in',
      used.map((p) => p.locationId as number),
    )
    .execute();
  const byId = new Map(rows.map((r: any) => [r.id, r]));
  for (const p of used) {
    const loc = byId.get(p.locationId as number);
    if (loc && loc.warehouseId !== p.warehouseId)
      throw lineError(p.i, p.field, `库位「${loc.name}」不属于所选仓库`);
  }
}

function docHooks(spec: DocSpec): ResourceHooks {
  return {
    async prepare(_ctx, data) {
      return { status: 'draft', bizDate: data.bizDate ?? businessDay() };
    },
    async validate({ db }, data, before) {
      if (before && before.status !== 'draft') {
        throw conflict(
          `${STATUS_TEXT[before.status] ?? before.status}的单据不能修改${before.status === 'posted' ? '，只能冲销' : ''}`,
        );
      }
      const lines: any[] = data.lines ?? [];
      if (spec.kind === 'transfer') {
        if (
          data.fromWarehouseId === data.toWarehouseId &&
          lines.some((l) => (l.fromLocationId ?? null) === (l.toLocationId ?? null))
        ) {
          throw badRequest('调出和调入的仓库、库位不能完全相同', [
            { field: 'toWarehouseId', message: '与调出仓库相同' },
          ]);
        }
        await checkLocations(db, [
          ...lines.map((l, i) => ({
            i,
            field: 'fromLocationId',
            locationId: l.fromLocationId,
            warehouseId: data.fromWarehouseId,
          })),
          ...lines.map((l, i) => ({
            i,
            field: 'toLocationId',
            locationId: l.toLocationId,
            warehouseId: data.toWarehouseId,
          })),
        ]);
      } else {
        await checkLocations(
          db,
          lines.map((l, i) => ({
            i,
            field: 'locationId',
            locationId: l.locationId,
            warehouseId: data.warehouseId,
          })),
        );
      }
      if (spec.kind === 'outbound' && QUALIFIED_ONLY_OUTBOUND.includes(data.type)) {
        lines.forEach((l, i) => {
          if ((l.qualityStatus ?? 'qualified') !== 'qualified')
            throw lineError(i, 'qualityStatus', '领料、委外发料和销售出库只能发出合格品');
        });
      }
      if (spec.kind === 'inbound') {
        const materials = await materialsOf(
          db,
          lines.map((l) => l.materialId),
        );
        lines.forEach((l, i) => {
          const m = materials.get(l.materialId);
          if (m?.batchManaged && !l.batchNo)
            throw lineError(i, 'batchNo', `物料「${m.name}」按批次管理，请填写批次号`);
        });
      }
    },
    /**
     * A document made against an order: its lines are linked to the order's, its customer is the
     * order's. A new document is numbered here, the last step before it is written: the day's
     * counter row stays locked until the commit, and every document of the type made meanwhile
     * waits for it. Numbered by the business date, like orders: a document of the 3rd is RK…0103-….
     */
    async derive({ db }, data, before) {
      const linked =
        spec.kind === 'inbound' || spec.kind === 'outbound' ? await linkSources(db, spec.kind, data) : {};
      if (before) return linked;
      return { ...linked, docNo: await nextDocNoOf(db, spec.def, dayInstant(data.bizDate)) };
    },
    async afterSave({ db }, id) {
      if (spec.kind !== 'stocktake') {
        // Drafts show their base-unit quantities too (posting computes them again under lock).
        await sql`UPDATE ${sql.table(spec.lineTable)} l SET base_quantity = ${BASE_QUANTITY}
                    FROM material m, material_unit bu
                   WHERE ${sql.ref(`l.${spec.parentColumn}`)} = ${id} AND m.id = l.material_id AND bu.id = m.unit_id`.execute(
          db,
        );
        return;
      }
      // Book quantities shown while counting are the current ones; posting recomputes them under lock.
      await sql`UPDATE stocktake_line l SET
                  book_quantity = coalesce((SELECT b.quantity FROM stock_balance b, stocktake s
                                             WHERE s.id = l.stocktake_id AND b.warehouse_id = s.warehouse_id AND b.material_id = l.material_id
                                               AND b.location_id IS NOT DISTINCT FROM l.location_id AND b.batch_no = coalesce(l.batch_no, '')
                                               AND b.quality_status = l.quality_status), 0)
                 WHERE l.stocktake_id = ${id}`.execute(db);
      await sql`UPDATE stocktake_line SET difference = counted_quantity - book_quantity WHERE stocktake_id = ${id}`.execute(
        db,
      );
    },
    async beforeDelete({ db }, ids) {
      const posted = await db
        .selectFrom(spec.def.table)
        .select(['docNo', 'status'])
        .where('id', 'in', ids)
        .where('status', '<>', 'draft')
        .executeTakeFirst();
      if (posted)
        throw conflict(`单据 ${posted.docNo} ${STATUS_TEXT[posted.status]}，只能删除草稿状态的单据`);
    },
  };
}

/** Moves a posted document to reversed with one conditional update. */
async function claimForReversal(db: Db, spec: DocSpec, id: number, user: AuthUser) {
  const row = await db
    .updateTable(spec.def.table)
    .set({
      status: 'reversed',
      reversed_at: sql`now()`,
      reversed_by_id: user.id,
      updated_by: user.id,
      updated_at: sql`now()`,
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .where('status', '=', 'posted')
    .returning(['docNo', 'version'])
    .executeTakeFirst();
  return (row as { docNo: string; version: number } | undefined) ?? failTransition(db, spec, id, 'posted');
}

/** The answer when a conditional state change found nothing: not found, or why not. */
async function failTransition(db: Db, spec: DocSpec, id: number, from: 'draft' | 'posted'): Promise<never> {
  const now = await db
    .selectFrom(spec.def.table)
    .select(['status', 'docNo'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!now) throw notFound(`${spec.def.label}不存在或已被删除`);
  throw wrongState(now, from);
}

/** Why a document in `now.status` cannot be posted (from draft) or reversed (from posted). */
function wrongState(now: { docNo: string; status: string }, from: 'draft' | 'posted') {
  if (from === 'draft') return conflict(`单据 ${now.docNo} ${STATUS_TEXT[now.status]}，不能重复过账`);
  return conflict(
    now.status === 'reversed'
      ? `单据 ${now.docNo} 已冲销，不能重复冲销`
      : `单据 ${now.docNo} 还是草稿，不能冲销`,
  );
}

/** Header columns each kind needs for posting (snake case, as in the table). */
const HEAD_COLUMNS: Record<Kind, string[]> = {
  inbound: ['doc_no', 'biz_date', 'type', 'warehouse_id', 'source_no'],
  outbound: ['doc_no', 'biz_date', 'type', 'warehouse_id'],
  transfer: ['doc_no', 'biz_date', 'from_warehouse_id', 'to_warehouse_id'],
  stocktake: ['doc_no', 'biz_date', 'warehouse_id'],
};

/**
 * Moves a draft to posted and prepares its lines, in one statement: the conditional draft →
 * posted update (what makes a double post impossible), each line's quantity in the material's
 * base unit (written to the line; NULL when the line's unit has no conversion), and what posting
 * needs of each material (name, batch flag, safety minimum). Answers the header and the lines.
 */
const isInOut = (spec: DocSpec) => spec.kind === 'inbound' || spec.kind === 'outbound';
const event = (spec: DocSpec, id: number, type: string, user: AuthUser): StockEvent => ({
  docType: spec.def.name,
  kind: spec.kind as StockKind,
  id,
  type,
  user,
});

async function claimForPosting(db: Db, spec: DocSpec, id: number, user: AuthUser) {
  const cols = [...HEAD_COLUMNS[spec.kind], ...(isInOut(spec) ? sourceColumns(spec.kind as StockKind) : [])];
  const line = sql.table(spec.lineTable);
  const parent = sql.ref(`l.${spec.parentColumn}`);
  const materialCols = sql`m.name AS m_name, m.batch_managed AS m_batch_managed, m.safety_stock_min AS m_safety_stock_min`;
  // Stocktake lines are counted in the base unit and have no unit of their own.
  const lines =
    spec.kind === 'stocktake'
      ? sql`SELECT l.*, ${materialCols} FROM ${line} l JOIN d ON ${parent} = d.id JOIN material m ON m.id = l.material_id`
      : sql`UPDATE ${line} l
               SET base_quantity = ${BASE_QUANTITY}
              FROM d, material m, material_unit bu
             WHERE ${parent} = d.id AND m.id = l.material_id AND bu.id = m.unit_id
         RETURNING l.*, ${materialCols}, ${LINE_RATIO}`;
  const r = await prepared(sql<Record<string, any>>`
    WITH d AS (
      UPDATE ${sql.table(spec.def.table)}
         SET status = 'posted', posted_at = now(), posted_by_id = ${user.id}, updated_by = ${user.id},
             updated_at = now(), version = version + 1
       WHERE id = ${id} AND status = 'draft'
   RETURNING id, version, ${sql.join(cols.map((c) => sql.ref(c)))}),
    l AS (${lines})
    SELECT ${sql.join(['version', ...cols].map((c) => sql`d.${sql.ref(c)} AS ${sql.ref(`head_${c}`)}`))}, l.*
      FROM d LEFT JOIN l ON true
     ORDER BY l.line_no`).execute(db);
  const first = r.rows[0];
  if (!first) return failTransition(db, spec, id, 'draft');
  const doc = Object.fromEntries(['version', ...cols].map((c) => [fieldOf(c), first[fieldOf(`head_${c}`)]]));
  return { doc, lines: r.rows.filter((l) => l.id !== null) };
}

const withBase = (lines: any[], base: Decimal[]) =>
  lines.map((l, i) => ({ sourceLineId: l.sourceLineId ?? null, baseQuantity: base[i].toString() }));

/**
 * Base-unit quantities of the lines, as claimForPosting wrote them (converted once per line). A line
 * whose quantity converts to nothing in the base unit (0.1 kg of a material counted in whole 套) is
 * refused.
 */
function baseQuantities(spec: DocSpec, lines: any[]): Decimal[] {
  return lines.map((l, i) => {
    if (spec.kind === 'inbound' && l.mBatchManaged && !l.batchNo)
      throw lineError(i, 'batchNo', `物料「${l.mName}」按批次管理，请填写批次号`);
    if (l.baseQuantity === null)
      throw lineError(i, 'unitId', `物料「${l.mName}」没有该单位的换算关系，请在物料的单位换算中维护`);
    if (new Decimal(l.baseQuantity).isZero())
      throw lineError(
        i,
        'quantity',
        `数量 ${shownQuantity(l.quantity)} 换算为基本单位不足最小单位，不能过账`,
      );
    return new Decimal(l.baseQuantity);
  });
}

/**
 * The part of a line counted in another unit: its unit and quantity in it, and (for an issue,
 * allocated in the unit) the conversion and the base unit's precision. None for base-unit lines.
 */
function lineUnit(l: any): MoveUnit | undefined {
  if (l.ratio == null) return undefined;
  const [unitQuantity, baseQuantity] = String(l.ratio).split(':');
  return {
    unitId: Number(l.unitId),
    quantity: new Decimal(l.quantity).toString(),
    ratio: { unitQuantity, baseQuantity },
    basePrecision: Number(l.basePrecision),
  };
}

/** What each line moved in the base unit, from its ledger rows (an issue allocated by unit). */
function basesFromLedger(lines: any[], entries: LedgerEntry[], fallback: Decimal[]): Decimal[] {
  const moved = new Map<number, Decimal>();
  for (const e of entries)
    if (e.lineId !== null && e.quantity.lt(0))
      moved.set(e.lineId, (moved.get(e.lineId) ?? new Decimal(0)).plus(e.quantity.abs()));
  return lines.map((l, i) => moved.get(Number(l.id)) ?? fallback[i]);
}

/**
 * `lineSide`: the document records a move between the production line and a supplier (a flow
 * card's 委外发料 / 委外入库): the pieces are a card's process state, never in a warehouse, so
 * posting writes no ledger rows, while the order, the payable and the audit follow as usual.
 */
export interface DocumentPostOptions extends PostOptions {
  lineSide?: boolean;
}

/**
 * Reversal guards: a module whose command posted a document (a flow card's 委外发料) refuses its
 * reversal from the warehouse, so that the two stay in step; its own undo passes `owner`.
 */
type ReversalGuard = (db: Db, docType: string, id: number) => Promise<void>;
const REVERSAL_GUARDS: ReversalGuard[] = [];
export function guardReversal(guard: ReversalGuard) {
  if (!REVERSAL_GUARDS.includes(guard)) REVERSAL_GUARDS.push(guard);
}

/**
 * 采购入库 lines made against a purchase order without a typed price are costed at the order
 * line's price without tax ((amount − tax) ÷ base quantity): the input VAT is deductible, so it is
 * not inventory cost. The price is written on the line too (in the line's unit), so the document,
 * the ledger and the moving average agree. A price the keeper typed is kept.
 */
async function costFromOrder(db: Db, id: number, lines: any[], base: Decimal[]) {
  const open = lines.filter((l) => l.unitPrice == null && l.sourceLineId != null);
  if (!open.length) return;
  const r = await sql<{ id: number; cost: string }>`
    SELECT l.id, ((pol.amount - COALESCE(pol.tax_amount, 0)) / pol.base_quantity)::text AS cost
      FROM stock_inbound_line l JOIN stock_inbound i ON i.id = l.stock_inbound_id
      JOIN purchase_order_line pol ON pol.id = l.source_line_id AND pol.purchase_order_id = i.purchase_order_id
     WHERE l.stock_inbound_id = ${id} AND l.unit_price IS NULL
       AND pol.amount IS NOT NULL AND pol.base_quantity > 0`.execute(db);
  if (!r.rows.length) return;
  const cost = new Map(r.rows.map((x) => [Number(x.id), new Decimal(x.cost)]));
  const ids: number[] = [];
  const prices: string[] = [];
  lines.forEach((l, i) => {
    const c = cost.get(Number(l.id));
    if (!c || l.unitPrice != null) return;
    l.unitPrice = c.times(base[i]).dividedBy(l.quantity).toDecimalPlaces(6).toString();
    ids.push(Number(l.id));
    prices.push(l.unitPrice);
  });
  await sql`UPDATE stock_inbound_line l SET unit_price = x.price
              FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(prices)}::numeric[]) AS x(id, price)
             WHERE l.id = x.id`.execute(db);
}

/**
 * Inbound lines without a typed price that a module above the warehouse costs (`inboundCosts`,
 * stock-events.ts): a 生产入库 of an order's product at the order's actual cost. The price is
 * written on the line (in the line's unit) as for 采购入库, and the move carries the exact amount.
 */
async function costFromModules(db: Db, id: number, doc: Record<string, any>, lines: any[], base: Decimal[]) {
  const open = lines.flatMap((l, i) =>
    l.unitPrice == null
      ? [{ id: Number(l.id), materialId: Number(l.materialId), baseQuantity: base[i].toString() }]
      : [],
  );
  const costs = await inboundCosts(db, { id, type: doc.type, sourceNo: doc.sourceNo ?? null }, open);
  if (!costs.size) return new Map<number, { unitCost: string; amount: string }>();
  const ids: number[] = [];
  const prices: string[] = [];
  lines.forEach((l, i) => {
    const c = costs.get(Number(l.id));
    if (!c) return;
    l.unitPrice = new Decimal(c.unitCost).times(base[i]).dividedBy(l.quantity).toDecimalPlaces(6).toString();
    ids.push(Number(l.id));
    prices.push(l.unitPrice);
  });
  await sql`UPDATE stock_inbound_line l SET unit_price = x.price
              FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(prices)}::numeric[]) AS x(id, price)
             WHERE l.id = x.id`.execute(db);
  return costs;
}

export async function postDocument(
  db: Db,
  spec: DocSpec,
  id: number,
  user: AuthUser,
  opts: DocumentPostOptions = {},
) {
  const { doc, lines } = await claimForPosting(db, spec, id, user);
  if (!lines.length && spec.kind !== 'stocktake') throw badRequest('单据没有明细，不能过账');
  const ref: DocRef = {
    docType: spec.def.name,
    docKind: spec.kind,
    docId: id,
    docNo: doc.docNo,
    bizDate: doc.bizDate,
    userId: user.id,
  };
  const q = (l: any) => (l.qualityStatus ?? 'qualified') as QualityStatus;
  // The audit row is written by the ledger statement, saving a round-trip.
  const audited = auditInsert(user, {
    entity: spec.def.name,
    entityId: id,
    action: 'post',
    after: { docNo: doc.docNo },
  });

  if (spec.kind === 'inbound') {
    const base = baseQuantities(spec, lines);
    if (doc.type === 'purchase') await costFromOrder(db, id, lines, base);
    const own = await costFromModules(db, id, doc, lines, base);
    const moves: Move[] = lines.map((l, i) => ({
      materialId: l.materialId,
      warehouseId: doc.warehouseId,
      locationId: l.locationId ?? null,
      batchNo: l.batchNo ?? '',
      qualityStatus: q(l),
      quantity: base[i].toString(),
      unitCost:
        l.unitPrice != null
          ? new Decimal(l.unitPrice).times(l.quantity).dividedBy(base[i]).toDecimalPlaces(6).toString()
          : undefined,
      // A module's cost (a 生产入库 at the order's actual cost): exactly this amount.
      ...(own.has(Number(l.id)) ? own.get(Number(l.id)) : {}),
      lineId: l.id,
      // Counted in another unit: it becomes that unit's part of the row (10 kg ↔ 42.5530 套).
      unit: lineUnit(l),
    }));
    if (opts.lineSide) await audited.execute(db);
    else await applyMoves(db, ref, moves, { ...opts, also: [audited] });
    await applySources(db, 'inbound', doc, withBase(lines, base), 1);
  } else if (spec.kind === 'outbound') {
    const base = baseQuantities(spec, lines);
    if (QUALIFIED_ONLY_OUTBOUND.includes(doc.type) && lines.some((l) => q(l) !== 'qualified')) {
      throw badRequest('领料、委外发料和销售出库只能发出合格品');
    }
    // Modules above the warehouse may refuse (`stock-events.ts`): 出货检验 before a 销售出库.
    await stockPostChecks(db, event(spec, id, doc.type, user));
    const moves: Move[] = lines.map((l, i) => ({
      materialId: l.materialId,
      warehouseId: doc.warehouseId,
      locationId: l.locationId ?? null,
      batchNo: l.batchNo ?? '',
      qualityStatus: q(l),
      quantity: base[i].neg().toString(),
      lineId: l.id,
      // Counted in another unit: allocated in it, from what came in in that unit first.
      unit: lineUnit(l),
    }));
    // Each outbound line keeps the moving-average cost it left at, and what it took in the base unit.
    const costed = sql`UPDATE stock_outbound_line ol SET unit_price = c.avg_cost, base_quantity = c.base FROM c
                        WHERE ol.stock_outbound_id = ${id} AND ol.id = c.line_id`;
    let moved = base;
    if (opts.lineSide) await audited.execute(db);
    else
      moved = basesFromLedger(
        lines,
        await applyMoves(db, ref, moves, { ...opts, also: [costed, audited] }),
        base,
      );
    await applySources(db, 'outbound', doc, withBase(lines, moved), 1);
  } else if (spec.kind === 'transfer') {
    const base = baseQuantities(spec, lines);
    const byLine = new Map(lines.map((l) => [l.id, l]));
    // Both warehouses' valuation rows at once, in the global order: two opposite transfers of a
    // material would otherwise each hold one side and wait for the other.
    await lockValuation(
      db,
      lines.flatMap((l) => [
        { materialId: l.materialId, warehouseId: doc.fromWarehouseId },
        { materialId: l.materialId, warehouseId: doc.toWarehouseId },
      ]),
    );
    const outs = await applyMoves(
      db,
      ref,
      lines.map((l, i) => ({
        materialId: l.materialId,
        warehouseId: doc.fromWarehouseId,
        locationId: l.fromLocationId ?? null,
        batchNo: l.batchNo ?? '',
        qualityStatus: q(l),
        quantity: base[i].neg().toString(),
        lineId: l.id,
        unit: lineUnit(l),
      })),
      opts,
    );
    // The batch, quality status and entry-unit part travel with the stock to the receiving side,
    // and so does its value: each row arrives at exactly the amount it left at. The line keeps
    // what it moved in the base unit.
    const moved = sql`UPDATE stock_transfer_line tl SET base_quantity = c.base FROM c
                       WHERE tl.stock_transfer_id = ${id} AND tl.id = c.line_id`;
    await applyMoves(
      db,
      ref,
      outs
        .filter((o) => o.quantity.lt(0))
        .map((o) => ({
          ...o.key,
          warehouseId: doc.toWarehouseId,
          locationId: byLine.get(o.lineId)?.toLocationId ?? null,
          quantity: o.quantity.neg().toString(),
          unitCost: o.unitCost.toString(),
          amount: o.amount.neg().toString(),
          lineId: o.lineId,
          unit:
            o.unitId === null || o.unitQuantity === null
              ? undefined
              : { unitId: o.unitId, quantity: o.unitQuantity.abs().toString() },
        })),
      { ...opts, also: [moved, audited] },
    );
  } else {
    // Stocktake: the difference between the count and the current book quantity.
    const counted = lines.filter((l) => l.countedQuantity !== null && l.countedQuantity !== undefined);
    if (!counted.length) throw badRequest('没有录入任何实盘数量，不能过账');
    const keys = sql`unnest(${sql.val(counted.map((l) => l.materialId))}::bigint[], ${sql.val(counted.map((l) => l.locationId ?? null))}::bigint[],
                    ${sql.val(counted.map((l) => l.batchNo ?? ''))}::text[], ${sql.val(counted.map((l) => q(l)))}::text[])
             WITH ORDINALITY AS r(m, l, b, qs, n)`;
    const match = sql`b.material_id = r.m AND b.warehouse_id = ${doc.warehouseId}
             AND b.location_id IS NOT DISTINCT FROM r.l AND b.batch_no = r.b AND b.quality_status = r.qs`;
    // Lock the valuation rows (posting's order: them first), the counted keys' balances (in id
    // order), then read them.
    await lockValuation(
      db,
      counted.map((l) => ({ materialId: l.materialId, warehouseId: doc.warehouseId })),
    );
    await sql`SELECT b.id FROM stock_balance b JOIN ${keys} ON ${match} ORDER BY b.id FOR UPDATE OF b`.execute(
      db,
    );
    const book = await sql<{ n: number; quantity: string }>`
      SELECT r.n, coalesce(b.quantity, 0)::text AS quantity FROM ${keys} LEFT JOIN stock_balance b ON ${match} ORDER BY r.n`.execute(
      db,
    );
    const diffs = counted.map((l, i) => new Decimal(l.countedQuantity).minus(book.rows[i].quantity));
    await sql`UPDATE stocktake_line l SET book_quantity = r.book, difference = r.diff
                FROM unnest(${sql.val(counted.map((l) => l.id))}::bigint[], ${sql.val(book.rows.map((b) => b.quantity))}::numeric[],
                            ${sql.val(diffs.map((d) => d.toString()))}::numeric[]) AS r(id, book, diff)
               WHERE l.id = r.id`.execute(db);
    const moves: Move[] = counted
      .map((l, i) => ({
        materialId: l.materialId,
        warehouseId: doc.warehouseId,
        locationId: l.locationId ?? null,
        batchNo: l.batchNo ?? '',
        qualityStatus: q(l),
        quantity: diffs[i].toString(),
        lineId: l.id,
        exact: true,
      }))
      .filter((m) => !new Decimal(m.quantity).isZero());
    await applyMoves(db, ref, moves, { ...opts, also: [audited] });
  }
  // Modules above the warehouse (`stock-events.ts`): 来料检验 of a 采购入库, 应收 / 应付 of a
  // document made against an order (销售出库, 采购入库…).
  if (isInOut(spec)) await stockPosted(db, event(spec, id, doc.type, user));
  // Only materials with a safety minimum can fall below it.
  const watched = lines.filter((l) => l.mSafetyStockMin != null).map((l) => l.materialId);
  if (spec.kind !== 'inbound' && !opts.lineSide && watched.length) await notifyLowStock(db, watched);
  return { id, docNo: doc.docNo as string, status: 'posted', version: doc.version as number };
}

export async function reverseDocument(
  db: Db,
  spec: DocSpec,
  id: number,
  user: AuthUser,
  opts: { owner?: boolean } = {},
) {
  if (!opts.owner) for (const guard of REVERSAL_GUARDS) await guard(db, spec.def.name, id);
  const doc = await claimForReversal(db, spec, id, user);
  const moves = await reversalMoves(db, spec.def.name, id);
  if (spec.kind === 'stocktake') await refuseIfCountedSince(db, id, moves);
  const audited = auditInsert(user, {
    entity: spec.def.name,
    entityId: id,
    action: 'reverse',
    after: { docNo: doc.docNo },
  });
  try {
    await applyMoves(
      db,
      {
        docType: spec.def.name,
        docKind: spec.kind,
        docId: id,
        docNo: doc.docNo,
        bizDate: businessDay(),
        userId: user.id,
      },
      moves,
      { also: [audited] },
    );
    if (isInOut(spec)) {
      const head = await db
        .selectFrom(spec.def.table)
        .select(['type', ...sourceColumns(spec.kind as StockKind)] as any)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const lines = await postedLines(db, spec.lineTable, spec.parentColumn, id);
      await applySources(db, spec.kind as 'inbound' | 'outbound', head, lines, -1);
      await stockReversed(db, event(spec, id, (head as { type: string }).type, user));
    }
  } catch (e) {
    if (e instanceof AppError && e.code === '409' && e.message.startsWith('库存不足')) {
      throw conflict(`${e.message}；${spec.kind === 'stocktake' ? '盘盈' : '入库'}的货物已被发出，无法冲销`);
    }
    throw e;
  }
  return { id, docNo: doc.docNo, status: 'reversed', version: doc.version };
}

/**
 * A stocktake's reversal (冲销, issue 37 §2) takes its differences back at the amounts they were
 * booked at. A later posted count of the same stock in the warehouse made the books agree with the
 * shelf again: reversing the earlier one would undo that, so it is refused until the later count
 * is reversed. The pairs' valuation rows are locked first (every posting's order), so a count
 * posted meanwhile is either seen here or counts after this reversal.
 */
async function refuseIfCountedSince(db: Db, id: number, moves: Move[]) {
  if (!moves.length) return;
  await lockValuation(db, moves);
  const later = await sql<{ docNo: string; laterNo: string; name: string }>`
    SELECT s.doc_no, s2.doc_no AS later_no, m.name
      FROM stocktake s
      JOIN stock_ledger g ON g.doc_type = 'stocktake' AND g.doc_id = s.id AND g.reversal_of IS NULL AND g.quantity <> 0
      JOIN stocktake s2 ON s2.warehouse_id = s.warehouse_id AND s2.status = 'posted' AND s2.id <> s.id
                       AND (s2.posted_at, s2.id) > (s.posted_at, s.id)
      JOIN stocktake_line l2 ON l2.stocktake_id = s2.id AND l2.counted_quantity IS NOT NULL
                            AND l2.material_id = g.material_id AND l2.location_id IS NOT DISTINCT FROM g.location_id
                            AND coalesce(l2.batch_no, '') = g.batch_no AND l2.quality_status = g.quality_status
      JOIN material m ON m.id = g.material_id
     WHERE s.id = ${id}
     ORDER BY s2.posted_at, s2.id LIMIT 1`.execute(db);
  const x = later.rows[0];
  if (x)
    throw conflict(
      `盘点单 ${x.docNo} 之后，盘点单 ${x.laterNo} 又盘点了物料「${x.name}」，请先冲销 ${x.laterNo}`,
    );
}

/** Posts a document of the named kind inside the caller's transaction (commands and tests). */
export function postDocumentByName(
  db: Db,
  name: string,
  id: number,
  user: AuthUser,
  opts: DocumentPostOptions = {},
) {
  const spec = SPECS.find((s) => s.def.name === name);
  if (!spec) throw new Error(`unknown stock document ${name}`);
  return postDocument(db, spec, id, user, opts);
}

/** Reverses a posted document of the named kind inside the caller's transaction (commands). */
export function reverseDocumentByName(
  db: Db,
  name: string,
  id: number,
  user: AuthUser,
  opts: { owner?: boolean } = {},
) {
  const spec = SPECS.find((s) => s.def.name === name);
  if (!spec) throw new Error(`unknown stock document ${name}`);
  return reverseDocument(db, spec, id, user, opts);
}

export const DOC_HOOKS: Record<string, ResourceHooks> = Object.fromEntries(
  SPECS.map((s) => [s.def.name, docHooks(s)]),
);

/**
 * 过账 and 冲销 as lifecycle transitions (`POST /api/v1/<document>/post|reverse/{id}`, the engine's
 * route shape, which is the documented one): the engine locks the document, checks the scope of
 * its kind and its state; the effect is the posting, which moves the state itself in its own
 * statement and writes its own audit row.
 */
function stockTransitions(spec: DocSpec): Record<string, TransitionHandlers> {
  const scope = spec.def.scopedPermissions?.field;
  const read = async (db: Db, id: number) => {
    const row = await db
      .selectFrom(spec.def.table)
      .select(['id', 'docNo', 'status', 'version', ...(scope ? [scope] : [])] as any)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(`${spec.def.label}不存在或已被删除`);
    return row as Record<string, any>;
  };
  const handlers = (
    from: 'draft' | 'posted',
    run: (ctx: TransitionCtx) => Promise<{ status: string }>,
  ): TransitionHandlers => ({
    read,
    movesState: true,
    wrongState: (record) => wrongState(record as { docNo: string; status: string }, from),
    async effect(ctx) {
      ctx.settled = (await run(ctx)).status;
      ctx.audited = true;
    },
  });
  return {
    post: handlers('draft', ({ db, record, user }) => postDocument(db, spec, Number(record.id), user)),
    reverse: handlers('posted', ({ db, record, user }) => reverseDocument(db, spec, Number(record.id), user)),
  };
}

/** The four stock documents: their hooks, and 过账/冲销 with the posting as the effect. */
export const STOCK_DOCUMENTS: ResourceEntry[] = SPECS.map((spec) => ({
  def: spec.def,
  hooks: DOC_HOOKS[spec.def.name],
  transitions: stockTransitions(spec),
}));

export function documentRoutes(app: App) {
  // Fills a draft stocktake with the warehouse's current book quantities (one line per stock key).
  route(app, {
    method: 'POST',
    url: '/api/v1/stocktake/snapshot/:id',
    permission: 'warehouse:stocktake:edit',
    params: idParams,
    // The stocktake with its new lines, as `info` answers it.
    response: z.lazy(() => answerRowSchema(stocktakeResource)),
    async handler({ params, user, app: { db } }) {
      await db.transaction().execute(async (trx) => {
        const doc = await trx
          .selectFrom('stocktake')
          .select(['id', 'status', 'warehouseId'])
          .where('id', '=', params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!doc) throw notFound('盘点单不存在或已被删除');
        if (doc.status !== 'draft') throw conflict('只有草稿状态的盘点单可以重新取数');
        await sql`DELETE FROM stocktake_line WHERE stocktake_id = ${params.id}`.execute(trx);
        await sql`
          INSERT INTO stocktake_line (stocktake_id, line_no, material_id, location_id, batch_no, quality_status, book_quantity)
          SELECT ${params.id}, row_number() OVER (ORDER BY m.code, b.location_id NULLS FIRST, b.batch_no, b.quality_status),
                 b.material_id, b.location_id, nullif(b.batch_no, ''), b.quality_status, b.quantity
            FROM stock_balance b JOIN material m ON m.id = b.material_id
           WHERE b.warehouse_id = ${doc.warehouseId} AND b.quantity > 0`.execute(trx);
        await trx
          .updateTable('stocktake')
          .set({ updatedBy: user.id, updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', params.id)
          .execute();
      });
      return getRecord(db, stocktakeResource, params.id);
    },
  });
}
