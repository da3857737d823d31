import {
  allocateIssue,
  type BinState,
  type PartedRow,
  putStock,
  type Take,
  takeExact,
  type UnitPart,
  type UnitRatio,
  type ValuationMove,
  valueMoves,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { type AppError, conflict } from '../../platform/errors.ts';

/**
 * The posting service: the only code that writes stock_ledger, stock_balance and stock_value.
 * One call applies every move of a document inside the caller's transaction, with a constant
 * number of statements whatever the line count:
 *   1. lock (creating if new) the valuation rows (stock_value: quantity, value and average per
 *      material × warehouse) of every pair moved, in one global order (no deadlocks);
 *   2. lock the candidate balance rows of the decrements in one global order;
 *   3. allocate decrements over them (exact location/batch, or first-in-first-out; by entry unit,
 *      `allocateIssue` in @ringmes/domain) and value every move (`valueMoves`) with exact decimals;
 *   4. one statement: the guarded UPDATE of all decrements (quantity >= requested), the upsert of
 *      all increments, the valuation rows, the entry-unit parts, the ledger rows with their amounts.
 * The value of a material in a warehouse is always the sum of its ledger amounts
 * (docs/architecture.md, "Valuation and reversals"). CHECK (quantity >= 0) on stock_balance is the
 * backstop. A balance row's stock that came in counted in another unit is a part of its own
 * (stock_unit_balance: the quantity in that unit and in the base unit), so that an issue of
 * everything received in a unit takes exactly what it brought (docs/architecture.md, "Unit
 * conversion"); pairs with no parts and moves without units never read them.
 */

export type QualityStatus = 'qualified' | 'pending' | 'rejected';

export interface StockKey {
  materialId: number;
  warehouseId: number;
  /** null: any location (decrements) / no location (increments). */
  locationId: number | null;
  /** '' or undefined on a decrement: any batch, first in first out. */
  batchNo: string;
  qualityStatus: QualityStatus;
}

export interface Move extends StockKey {
  /** Positive: into stock; negative: out of stock. Base-unit quantity as an exact decimal string. */
  quantity: string;
  /** Inbound cost per base unit; outbound moves are costed at the moving average. */
  unitCost?: string;
  /**
   * A fixed signed amount, the move then costs exactly this (with `unitCost` as its unit cost): a
   * reversal's mirror of a ledger row, a transfer's receiving side. On a decrement only with `exact`.
   */
  amount?: string;
  lineId: number | null;
  /** When set, a decrement must take exactly this key (location and batch), not FIFO. */
  exact?: boolean;
  /** Reversal: the ledger row this move mirrors. */
  reversalOf?: number;
  /**
   * The move is counted in a unit other than the base unit. An increment (or an exact decrement)
   * moves the row's part of that unit: `quantity` in the unit, the move's base quantity. A
   * first-in-first-out decrement with `ratio` is allocated in the unit (`allocateIssue`): the parts
   * of the unit first, the rest converted per line; its base quantity is what the allocation takes.
   */
  unit?: MoveUnit;
}

export interface MoveUnit {
  unitId: number;
  /** Positive, in the unit. */
  quantity: string;
  /** The unit's conversion and the base unit's precision: a decrement allocated in the unit. */
  ratio?: UnitRatio;
  basePrecision?: number;
}

export interface DocRef {
  docType: string;
  docKind: 'inbound' | 'outbound' | 'transfer' | 'stocktake';
  docId: number;
  docNo: string;
  bizDate: string;
  userId: number;
}

export interface PostOptions {
  /**
   * Tests only: `false` removes the balance row locks and the quantity guard, to prove the
   * concurrency test bites (the valuation rows stay locked).
   */
  guard?: boolean;
}

export interface ApplyOptions extends PostOptions {
  /**
   * Further data-modifying statements of the same posting (the document's audit row, line
   * updates), run as CTEs of the ledger statement to save round-trips. They may read `c`:
   * `(line_id, material_id, avg_cost)`, the unit cost each line's first ledger row was valued at.
   */
  also?: RawBuilder<unknown>[];
}

interface BalanceRow {
  id: number;
  materialId: number;
  warehouseId: number;
  locationId: number | null;
  batchNo: string;
  qualityStatus: QualityStatus;
  quantity: string;
}

const D = (v: Decimal.Value) => new Decimal(v);

/** A Chinese "insufficient stock" answer naming the material, the available and the requested quantity. */
async function insufficient(
  db: Db,
  materialId: number,
  available: Decimal,
  requested: Decimal,
): Promise<AppError> {
  const m = await db
    .selectFrom('material')
    .select(['code', 'name'])
    .where('id', '=', materialId)
    .executeTakeFirst();
  return conflict(
    `库存不足：物料「${m?.name ?? materialId}」（${m?.code ?? ''}）可用 ${available.toString()}，需要 ${requested.toString()}`,
  );
}

export interface LedgerEntry {
  key: StockKey;
  /** Signed; 0 for a valuation adjustment (成本调整), which moves value only. */
  quantity: Decimal;
  /** The unit cost the row was valued at. */
  unitCost: Decimal;
  /** Signed like the quantity, two places. */
  amount: Decimal;
  lineId: number | null;
  reversalOf: number | null;
  /** The part the row moved (its unit and the quantity in it, signed like `quantity`), or null: loose stock. */
  unitId: number | null;
  unitQuantity: Decimal | null;
}

/** A ledger row before valuation: how the move asked to be costed. */
interface Pending {
  key: StockKey;
  quantity: Decimal;
  lineId: number | null;
  reversalOf: number | null;
  ownCost: string | null;
  fixed: string | null;
  unitId: number | null;
  unitQuantity: Decimal | null;
}

/** One string per valuation pair (material × warehouse). */
const binOf = (k: { materialId: number; warehouseId: number }) => `${k.materialId}|${k.warehouseId}`;

/**
 * Locks the valuation rows of these material × warehouse pairs in one global order, creating the
 * missing ones, and answers their state. An upsert rather than SELECT … FOR UPDATE: a pair nobody
 * has valued yet gets its row locked too, so two first receipts cannot both start from nothing.
 * A new pair starts with the material's average over its other warehouses as its last average
 * (what an unpriced receipt into it is valued at), or none.
 */
export async function lockValuation(
  db: Db,
  pairs: { materialId: number; warehouseId: number }[],
): Promise<Map<string, LockedBin>> {
  const keys = [...new Map(pairs.map((p) => [binOf(p), p])).values()].sort(
    (a, b) => a.materialId - b.materialId || a.warehouseId - b.warehouseId,
  );
  const bins = new Map<string, LockedBin>();
  if (!keys.length) return bins;
  const r = await prepared(sql<{
    materialId: number;
    warehouseId: number;
    quantity: string;
    value: string;
    avgCost: string | null;
    hasUnits: boolean;
  }>`
    INSERT INTO stock_value AS v (material_id, warehouse_id, avg_cost)
    SELECT r.m, r.w, (SELECT CASE WHEN sum(o.quantity) > 0 THEN round(sum(o.value) / sum(o.quantity), 6)
                                  ELSE (array_agg(o.avg_cost ORDER BY o.updated_at DESC) FILTER (WHERE o.avg_cost IS NOT NULL))[1] END
                        FROM stock_value o WHERE o.material_id = r.m)
      FROM unnest(${sql.val(keys.map((k) => k.materialId))}::bigint[], ${sql.val(keys.map((k) => k.warehouseId))}::bigint[]) AS r(m, w)
     ORDER BY r.m, r.w
    ON CONFLICT (material_id, warehouse_id) DO UPDATE SET material_id = excluded.material_id
    RETURNING v.material_id, v.warehouse_id, v.quantity::text AS quantity, v.value::text AS value, v.avg_cost::text AS avg_cost,
              EXISTS (SELECT 1 FROM stock_unit_balance u
                       WHERE u.material_id = v.material_id AND u.warehouse_id = v.warehouse_id) AS has_units`).execute(
    db,
  );
  for (const b of r.rows)
    bins.set(binOf(b), { quantity: b.quantity, value: b.value, avgCost: b.avgCost, hasUnits: b.hasUnits });
  return bins;
}

/** A locked valuation row, and whether any balance row of the pair has entry-unit parts. */
export type LockedBin = BinState & { hasUnits: boolean };

interface PartRow extends StockKey {
  unitId: number;
  quantity: string;
  baseQuantity: string;
  precision: number;
}

/** The entry-unit parts of every balance row of these pairs, by balance key; and each unit's precision. */
async function loadParts(db: Db, pairs: { materialId: number; warehouseId: number }[]) {
  const r = await prepared(sql<PartRow>`
    SELECT s.material_id, s.warehouse_id, s.location_id, s.batch_no, s.quality_status, s.unit_id,
           s.quantity::text AS quantity, s.base_quantity::text AS base_quantity, u.precision
      FROM unnest(${sql.val(pairs.map((p) => p.materialId))}::bigint[], ${sql.val(pairs.map((p) => p.warehouseId))}::bigint[]) AS p(m, w)
      JOIN stock_unit_balance s ON s.material_id = p.m AND s.warehouse_id = p.w
      JOIN material_unit u ON u.id = s.unit_id`).execute(db);
  const parts = new Map<string, Map<number, UnitPart>>();
  const precision = new Map<number, number>();
  for (const p of r.rows) {
    const k = keyOf(p);
    if (!parts.has(k)) parts.set(k, new Map());
    parts.get(k)?.set(Number(p.unitId), { quantity: D(p.quantity), base: D(p.baseQuantity) });
    precision.set(Number(p.unitId), Number(p.precision));
  }
  return { parts, precision };
}

/** Splits a fixed signed amount over takes in proportion to their base quantities; the last takes the rest. */
function splitAmount(amount: string, takes: { base: Decimal }[]): string[] {
  if (takes.length === 1) return [amount];
  const total = takes.reduce((s, t) => s.plus(t.base), D(0));
  let left = D(amount);
  return takes.map((t, i) => {
    if (i === takes.length - 1) return left.toFixed(2);
    const a = D(amount).times(t.base).dividedBy(total).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    left = left.minus(a);
    return a.toFixed(2);
  });
}

/** Applies the moves; answers the ledger entries written (decrements as allocated, adjustments last). */
export async function applyMoves(
  db: Db,
  doc: DocRef,
  moves: Move[],
  opts: ApplyOptions = {},
): Promise<LedgerEntry[]> {
  const guard = opts.guard !== false;
  const outs = moves.filter((m) => D(m.quantity).lt(0));
  const ins = moves.filter((m) => D(m.quantity).gt(0));
  const pending: Pending[] = [];
  // The balance changes, run inside the ledger statement unless a row is both taken from and added to.
  let decrement: { sql: RawBuilder<unknown>; rows: number } | null = null;
  let increment: RawBuilder<unknown> | null = null;
  const taken = new Set<string>();
  if (!outs.length && !ins.length) {
    for (const s of opts.also ?? []) await s.execute(db);
    return [];
  }

  // 1: the valuation rows, before any balance row (every posting locks in this order). They also
  // say whether a pair has entry-unit parts: only then, or when a move is counted in a unit, are
  // the parts read and written.
  const bins = await lockValuation(db, [...outs, ...ins]);
  const withParts = moves.some((m) => m.unit) || [...bins.values()].some((b) => b.hasUnits);
  const loaded = withParts
    ? await loadParts(
        db,
        [...bins.keys()].map((k) => ({
          materialId: Number(k.split('|')[0]),
          warehouseId: Number(k.split('|')[1]),
        })),
      )
    : { parts: new Map<string, Map<number, UnitPart>>(), precision: new Map<number, number>() };
  const precisionOf = (unitId: number) => loaded.precision.get(unitId) ?? 4;
  /** Balance rows as allocation sees them, by balance key: on-hand quantity and parts. */
  const rows = new Map<string, PartedRow & { key: StockKey }>();
  const rowOf = (key: StockKey, id: number, onHand: Decimal.Value) => {
    const k = keyOf(key);
    let r = rows.get(k);
    if (!r) {
      const parts = new Map<number, UnitPart>();
      for (const [u, p] of loaded.parts.get(k) ?? []) parts.set(u, { ...p });
      r = { id, onHand: D(onHand), parts, key };
      rows.set(k, r);
    }
    return r;
  };
  const pendingOf = (
    m: Move,
    key: StockKey,
    quantity: Decimal,
    t: Partial<Take>,
    fixed: string | null,
  ): Pending => ({
    key,
    quantity,
    lineId: m.lineId,
    reversalOf: m.reversalOf ?? null,
    ownCost: m.unitCost ?? null,
    fixed,
    unitId: t.unitId ?? null,
    unitQuantity: t.unitQuantity == null ? null : quantity.lt(0) ? t.unitQuantity.neg() : t.unitQuantity,
  });
  /** What each exact decrement took, for the increment that continues it (a quality-status move). */
  const exactTakes: { m: Move; key: StockKey; takes: Take[]; used: boolean }[] = [];

  // 2–3: decrements.
  if (outs.length) {
    const materials = [...new Set(outs.map((m) => m.materialId))];
    const warehouses = [...new Set(outs.map((m) => m.warehouseId))];
    const candidates = (
      await prepared(sql<BalanceRow>`
        SELECT id, material_id, warehouse_id, location_id, batch_no, quality_status, quantity::text AS quantity
          FROM stock_balance
         WHERE material_id = ANY(${sql.val(materials)}::bigint[]) AND warehouse_id = ANY(${sql.val(warehouses)}::bigint[])
           AND quantity > 0
         ORDER BY first_in_at, id
         ${guard ? sql`FOR UPDATE` : sql``}`).execute(db)
    ).rows;
    const byId = new Map(candidates.map((c) => [c.id, c]));
    const parted = new Map(candidates.map((c) => [c.id, rowOf(c, c.id, c.quantity)]));
    const take = new Map<number, Decimal>();
    for (const m of outs) {
      const need = D(m.quantity).neg();
      const fits = candidates.filter(
        (c) =>
          c.materialId === m.materialId &&
          c.warehouseId === m.warehouseId &&
          c.qualityStatus === m.qualityStatus &&
          (m.exact
            ? c.locationId === m.locationId
            : m.locationId === null || c.locationId === m.locationId) &&
          (m.batchNo ? c.batchNo === m.batchNo : !m.exact || c.batchNo === ''),
      );
      const fitRows = fits.map((c) => parted.get(c.id) as PartedRow);
      const available = fitRows.reduce((s, r) => s.plus(r.onHand), D(0));
      let takes: Take[];
      if (!guard) {
        // Unguarded (test) mode: the whole quantity from the first key, whatever it holds.
        const r = fitRows[0];
        takes = r ? [{ rowId: r.id, base: need, unitId: null, unitQuantity: null }] : [];
        if (r) r.onHand = r.onHand.minus(need);
      } else {
        const a = m.exact
          ? fitRows[0]
            ? takeExact(
                fitRows[0],
                { base: need, unitId: m.unit?.unitId, unitQuantity: m.unit?.quantity },
                precisionOf,
              )
            : { takes: [], need, missing: need }
          : m.unit?.ratio
            ? allocateIssue(
                fitRows,
                {
                  unit: {
                    id: m.unit.unitId,
                    quantity: m.unit.quantity,
                    ratio: m.unit.ratio,
                    basePrecision: m.unit.basePrecision ?? 4,
                  },
                },
                precisionOf,
              )
            : allocateIssue(fitRows, { base: need }, precisionOf);
        if (a.missing.gt(0)) throw await insufficient(db, m.materialId, available, a.need);
        takes = a.takes;
      }
      // A fixed amount belongs to one balance row (a reversal's mirror), shared by the parts it took.
      if (m.amount !== undefined && new Set(takes.map((t) => t.rowId)).size !== 1)
        throw new Error('a decrement with a fixed amount must take exactly one balance row');
      const amounts = m.amount !== undefined ? splitAmount(m.amount, takes) : [];
      takes.forEach((t, i) => {
        const c = byId.get(t.rowId) as BalanceRow;
        const key: StockKey = {
          materialId: c.materialId,
          warehouseId: c.warehouseId,
          locationId: c.locationId,
          batchNo: c.batchNo,
          qualityStatus: c.qualityStatus,
        };
        take.set(c.id, (take.get(c.id) ?? D(0)).plus(t.base));
        pending.push(
          pendingOf(m, key, t.base.neg(), t, m.amount !== undefined ? D(amounts[i]).toFixed(2) : null),
        );
      });
      if (m.exact && fits[0]) exactTakes.push({ m, key: fits[0], takes, used: false });
    }
    if (take.size) {
      const ids = [...take.keys()];
      const qty = ids.map((id) => (take.get(id) as Decimal).toString());
      for (const c of candidates) if (take.has(c.id)) taken.add(keyOf(c));
      decrement = {
        rows: ids.length,
        sql: sql`
          UPDATE stock_balance b SET quantity = b.quantity - r.q, updated_at = now()
            FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(qty)}::numeric[]) AS r(id, q)
           WHERE b.id = r.id ${guard ? sql`AND b.quantity >= r.q` : sql``}
       RETURNING b.id`,
      };
    }
  }

  // 3: increments, aggregated per key (one upsert cannot touch a row twice).
  if (ins.length) {
    const agg = new Map<string, { key: StockKey; q: Decimal }>();
    for (const m of ins) {
      const key: StockKey = {
        materialId: m.materialId,
        warehouseId: m.warehouseId,
        locationId: m.locationId,
        batchNo: m.batchNo ?? '',
        qualityStatus: m.qualityStatus,
      };
      const k = keyOf(key);
      const a = agg.get(k) ?? { key, q: D(0) };
      a.q = a.q.plus(m.quantity);
      agg.set(k, a);
      const row = rowOf(key, 0, 0);
      // A move between two keys of one line (待检 → 合格) takes the parts along, as they left.
      const from = m.unit
        ? undefined
        : exactTakes.find(
            (x) =>
              !x.used &&
              x.m.materialId === m.materialId &&
              x.m.warehouseId === m.warehouseId &&
              x.m.lineId === m.lineId &&
              D(x.m.quantity).neg().eq(m.quantity),
          );
      const parts: Partial<Take>[] = from
        ? from.takes
        : [
            {
              base: D(m.quantity),
              unitId: m.unit?.unitId ?? null,
              unitQuantity: m.unit ? D(m.unit.quantity) : null,
            },
          ];
      if (from) from.used = true;
      const amounts = m.amount !== undefined ? splitAmount(m.amount, parts as { base: Decimal }[]) : [];
      parts.forEach((t, i) => {
        putStock(row, { base: t.base as Decimal, unitId: t.unitId, unitQuantity: t.unitQuantity });
        pending.push(pendingOf(m, key, t.base as Decimal, t, m.amount !== undefined ? amounts[i] : null));
      });
    }
    const rows = [...agg.values()];
    increment = sql`
      INSERT INTO stock_balance (material_id, warehouse_id, location_id, batch_no, quality_status, quantity)
      SELECT * FROM unnest(${sql.val(rows.map((r) => r.key.materialId))}::bigint[], ${sql.val(rows.map((r) => r.key.warehouseId))}::bigint[],
                           ${sql.val(rows.map((r) => r.key.locationId))}::bigint[], ${sql.val(rows.map((r) => r.key.batchNo))}::text[],
                           ${sql.val(rows.map((r) => r.key.qualityStatus))}::text[], ${sql.val(rows.map((r) => r.q.toString()))}::numeric[])
      ON CONFLICT ON CONSTRAINT stock_balance_key
      DO UPDATE SET quantity = stock_balance.quantity + excluded.quantity, updated_at = now()`;
    if (rows.some((r) => taken.has(keyOf(r.key)))) {
      // One statement must not modify a row twice: take first, then add, as separate statements.
      if (decrement) checkDecrement((await decrement.sql.execute(db)).rows.length, decrement.rows, guard);
      await increment.execute(db);
      decrement = null;
      increment = null;
    }
  }

  // The parts that changed: written as they now stand, removed when gone.
  const partsUp: (StockKey & { unitId: number; quantity: string; base: string })[] = [];
  const partsGone: (StockKey & { unitId: number })[] = [];
  if (withParts) {
    for (const [k, r] of rows) {
      const before = loaded.parts.get(k) ?? new Map<number, UnitPart>();
      for (const [u, p] of r.parts)
        if (!before.get(u)?.quantity.eq(p.quantity) || !before.get(u)?.base.eq(p.base))
          partsUp.push({ ...r.key, unitId: u, quantity: p.quantity.toString(), base: p.base.toString() });
      for (const u of before.keys()) if (!r.parts.has(u)) partsGone.push({ ...r.key, unitId: u });
    }
  }

  // Valuation: each row's unit cost and amount, each pair's quantity, value and average after, and
  // the adjustments a reversal may need (quantity 0, on the pair's plain key).
  const valuation = valueMoves(
    bins,
    pending.map((p): ValuationMove => {
      const bin = binOf(p.key);
      const quantity = p.quantity.toString();
      if (p.fixed !== null)
        return { bin, quantity, cost: 'fixed', amount: p.fixed, unitCost: p.ownCost ?? '0' };
      if (p.ownCost !== null && p.quantity.gt(0))
        return { bin, quantity, cost: 'priced', unitCost: p.ownCost };
      return { bin, quantity, cost: 'average' };
    }),
  );
  const ledger: LedgerEntry[] = pending.map((p, i) => ({
    key: p.key,
    quantity: p.quantity,
    unitCost: D(valuation.moves[i].unitCost),
    amount: D(valuation.moves[i].amount),
    lineId: p.lineId,
    reversalOf: p.reversalOf,
    unitId: p.unitId,
    unitQuantity: p.unitQuantity,
  }));
  for (const a of valuation.adjustments) {
    const [materialId, warehouseId] = a.bin.split('|').map(Number);
    ledger.push({
      key: { materialId, warehouseId, locationId: null, batchNo: '', qualityStatus: 'qualified' },
      quantity: D(0),
      unitCost: D(0),
      amount: D(a.amount),
      lineId: null,
      reversalOf: null,
      unitId: null,
      unitQuantity: null,
    });
  }
  const pairs = [...valuation.bins.entries()].map(([k, b]) => ({ k: k.split('|').map(Number), ...b }));
  // Per document line: the unit cost of its first ledger row, and its base quantity (what it moved).
  const lineCost = new Map<number, { entry: LedgerEntry; base: Decimal }>();
  for (const l of ledger) {
    if (l.lineId === null || l.quantity.isZero()) continue;
    const c = lineCost.get(l.lineId);
    if (c) c.base = c.base.plus(l.quantity.abs());
    else lineCost.set(l.lineId, { entry: l, base: l.quantity.abs() });
  }
  const costs = [...lineCost.entries()];
  const partKey = (p: (typeof partsGone)[number]) => [
    p.materialId,
    p.warehouseId,
    p.locationId,
    p.batchNo,
    p.qualityStatus,
    p.unitId,
  ];
  const keyArrays = (ps: (typeof partsGone)[number][]) => {
    const cols = ps.map(partKey);
    const col = (i: number) => sql.val(cols.map((c) => c[i]));
    return sql`${col(0)}::bigint[], ${col(1)}::bigint[], ${col(2)}::bigint[], ${col(3)}::text[], ${col(4)}::text[], ${col(5)}::bigint[]`;
  };

  // 4: one statement for the balances, the valuation rows, the parts, the ledger and the caller's statements.
  const also = opts.also ?? [];
  const r = await prepared(sql<{ updated: number }>`
    WITH ${decrement ? sql`u AS (${decrement.sql}),` : sql``}
         ${increment ? sql`i AS (${increment}),` : sql``}
         ${
           partsUp.length
             ? sql`pu AS (
      INSERT INTO stock_unit_balance AS s (material_id, warehouse_id, location_id, batch_no, quality_status, unit_id, quantity, base_quantity)
      SELECT * FROM unnest(${keyArrays(partsUp)}, ${sql.val(partsUp.map((p) => p.quantity))}::numeric[],
                           ${sql.val(partsUp.map((p) => p.base))}::numeric[])
      ON CONFLICT ON CONSTRAINT stock_unit_balance_key
      DO UPDATE SET quantity = excluded.quantity, base_quantity = excluded.base_quantity, updated_at = now()),`
             : sql``
         }
         ${
           partsGone.length
             ? sql`pd AS (
      DELETE FROM stock_unit_balance s USING unnest(${keyArrays(partsGone)}) AS r(m, w, l, b, qs, unit)
       WHERE s.material_id = r.m AND s.warehouse_id = r.w AND s.location_id IS NOT DISTINCT FROM r.l
         AND s.batch_no = r.b AND s.quality_status = r.qs AND s.unit_id = r.unit),`
             : sql``
         }
    v AS (
      UPDATE stock_value s SET quantity = r.q, value = r.v, avg_cost = r.a, updated_at = now()
        FROM unnest(${sql.val(pairs.map((p) => p.k[0]))}::bigint[], ${sql.val(pairs.map((p) => p.k[1]))}::bigint[],
                    ${sql.val(pairs.map((p) => p.quantity))}::numeric[], ${sql.val(pairs.map((p) => p.value))}::numeric[],
                    ${sql.val(pairs.map((p) => p.avgCost))}::numeric[]) AS r(m, w, q, v, a)
       WHERE s.material_id = r.m AND s.warehouse_id = r.w),
    c AS (
      SELECT * FROM unnest(${sql.val(costs.map(([id]) => id))}::bigint[], ${sql.val(costs.map(([, l]) => l.entry.key.materialId))}::bigint[],
                           ${sql.val(costs.map(([, l]) => l.entry.unitCost.toString()))}::numeric[],
                           ${sql.val(costs.map(([, l]) => l.base.toString()))}::numeric[]) AS c(line_id, material_id, avg_cost, base)),
    l AS (
      INSERT INTO stock_ledger (material_id, warehouse_id, location_id, batch_no, quality_status, quantity, unit_cost, amount,
                                doc_type, doc_kind, doc_id, doc_no, line_id, biz_date, reversal_of, created_by, unit_id, unit_quantity)
      SELECT r.m, r.w, r.l, r.b, r.qs, r.q, r.c, r.a,
             ${doc.docType}, ${doc.docKind}, ${doc.docId}, ${doc.docNo}, r.line, ${doc.bizDate}::date, r.rev, ${doc.userId}, r.unit, r.uq
        FROM unnest(${sql.val(ledger.map((l) => l.key.materialId))}::bigint[], ${sql.val(ledger.map((l) => l.key.warehouseId))}::bigint[],
                    ${sql.val(ledger.map((l) => l.key.locationId))}::bigint[], ${sql.val(ledger.map((l) => l.key.batchNo))}::text[],
                    ${sql.val(ledger.map((l) => l.key.qualityStatus))}::text[], ${sql.val(ledger.map((l) => l.quantity.toString()))}::numeric[],
                    ${sql.val(ledger.map((l) => l.unitCost.toString()))}::numeric[], ${sql.val(ledger.map((l) => l.amount.toString()))}::numeric[],
                    ${sql.val(ledger.map((l) => l.lineId))}::bigint[], ${sql.val(ledger.map((l) => l.reversalOf))}::bigint[],
                    ${sql.val(ledger.map((l) => l.unitId))}::bigint[], ${sql.val(ledger.map((l) => l.unitQuantity?.toString() ?? null))}::numeric[])
             WITH ORDINALITY AS r(m, w, l, b, qs, q, c, a, line, rev, unit, uq, n)
       ORDER BY r.n)
    ${
      also.length
        ? sql.join(
            also.map((a, k) => sql`, ${sql.ref(`x${k}`)} AS (${a})`),
            sql``,
          )
        : sql``
    }
    SELECT ${decrement ? sql`(SELECT count(*) FROM u)` : sql`0`}::int AS updated`).execute(db);
  if (decrement) checkDecrement(r.rows[0].updated, decrement.rows, guard);
  return ledger;
}

/** The guarded decrement must have changed every row it was given; otherwise stock moved under us. */
function checkDecrement(changed: number, rows: number, guard: boolean) {
  if (guard && changed !== rows) throw conflict('库存已被他人同时修改，请重试');
}

/** One string per balance key (material, warehouse, location, batch, quality status). */
const keyOf = (k: StockKey) =>
  `${k.materialId}|${k.warehouseId}|${k.locationId ?? ''}|${k.batchNo}|${k.qualityStatus}`;

/**
 * Mirror moves of a document's ledger rows (红冲): same keys, opposite quantities and the exact
 * opposite amounts, exact keys, the same entry-unit part. Valuation adjustments (quantity 0) are not mirrored: an ordinary
 * posting never writes one, only a reversal, and a reversed document is not reversed again.
 */
export async function reversalMoves(db: Db, docType: string, docId: number): Promise<Move[]> {
  const rows = await db
    .selectFrom('stockLedger')
    .select([
      'id',
      'materialId',
      'warehouseId',
      'locationId',
      'batchNo',
      'qualityStatus',
      sql<string>`quantity::text`.as('quantity'),
      sql<string>`unit_cost::text`.as('unitCost'),
      sql<string>`amount::text`.as('amount'),
      'lineId',
      'unitId',
      sql<string | null>`unit_quantity::text`.as('unitQuantity'),
    ])
    .where('docType', '=', docType)
    .where('docId', '=', docId)
    .where('reversalOf', 'is', null)
    .where('quantity', '<>', 0)
    .orderBy('id')
    .execute();
  return rows.map((r: any) => ({
    materialId: r.materialId,
    warehouseId: r.warehouseId,
    locationId: r.locationId,
    batchNo: r.batchNo,
    qualityStatus: r.qualityStatus,
    quantity: D(r.quantity).neg().toString(),
    unitCost: r.unitCost,
    amount: D(r.amount).neg().toString(),
    lineId: r.lineId,
    exact: true,
    reversalOf: r.id,
    // The part the row moved moves back: a receipt's 10 kg leave that part, an issue's return to it.
    unit:
      r.unitId == null
        ? undefined
        : { unitId: Number(r.unitId), quantity: D(r.unitQuantity).abs().toString() },
  }));
}
