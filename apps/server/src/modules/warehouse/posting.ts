import Decimal from 'decimal.js';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { prepared } from '../../platform/db/prepared.ts';
import { type AppError, conflict } from '../../platform/errors.ts';

/**
 * The posting service: the only code that writes stock_ledger, stock_balance and material_cost.
 * One call applies every move of a document inside the caller's transaction, with a constant
 * number of statements whatever the line count:
 *   1. lock the candidate balance rows of the decrements in one global order (no deadlocks),
 *   2. allocate decrements over them (exact location/batch, or first-in-first-out),
 *   3. one guarded UPDATE for all decrements (quantity >= requested), one upsert for all increments,
 *   4. one INSERT of all ledger rows, one upsert of moving-average costs.
 * CHECK (quantity >= 0) on stock_balance is the backstop.
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
  lineId: number | null;
  /** When set, a decrement must take exactly this key (location and batch), not FIFO. */
  exact?: boolean;
  /** Reversal: the ledger row this move mirrors. */
  reversalOf?: number;
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
  /** Tests only: `false` removes the row locks and the quantity guard, to prove the concurrency test bites. */
  guard?: boolean;
}

export interface ApplyOptions extends PostOptions {
  /**
   * Further data-modifying statements of the same posting (the document's audit row, line
   * updates), run as CTEs of the ledger statement to save round-trips. They may read `c`:
   * `(material_id, avg_cost)` of every material moved, after this posting.
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
  quantity: Decimal;
  unitCost: Decimal | null;
  lineId: number | null;
  reversalOf: number | null;
}

/** Applies the moves; answers the ledger entries written (decrements as allocated). */
export async function applyMoves(
  db: Db,
  doc: DocRef,
  moves: Move[],
  opts: ApplyOptions = {},
): Promise<LedgerEntry[]> {
  const guard = opts.guard !== false;
  const outs = moves.filter((m) => D(m.quantity).lt(0));
  const ins = moves.filter((m) => D(m.quantity).gt(0));
  const ledger: LedgerEntry[] = [];
  // The balance changes, run inside the ledger statement unless a row is both taken from and added to.
  let decrement: { sql: RawBuilder<unknown>; rows: number } | null = null;
  let increment: RawBuilder<unknown> | null = null;
  const taken = new Set<string>();

  // 1–3: decrements.
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
    const left = new Map(candidates.map((c) => [c.id, D(c.quantity)]));
    const take = new Map<number, Decimal>();
    for (const m of outs) {
      let need = D(m.quantity).neg();
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
      const available = fits.reduce((s, c) => s.plus(left.get(c.id) as Decimal), D(0));
      if (guard && available.lessThan(need)) throw await insufficient(db, m.materialId, available, need);
      for (const c of fits) {
        if (need.isZero()) break;
        const here = left.get(c.id) as Decimal;
        const q = guard ? Decimal.min(here, need) : need;
        if (q.isZero()) continue;
        left.set(c.id, here.minus(q));
        take.set(c.id, (take.get(c.id) ?? D(0)).plus(q));
        ledger.push({
          key: {
            materialId: c.materialId,
            warehouseId: c.warehouseId,
            locationId: c.locationId,
            batchNo: c.batchNo,
            qualityStatus: c.qualityStatus,
          },
          quantity: q.neg(),
          unitCost: null,
          lineId: m.lineId,
          reversalOf: m.reversalOf ?? null,
        });
        need = need.minus(q);
      }
      if (!guard && need.gt(0)) {
        // Unguarded (test) mode: issue the rest from the key as given, whatever it holds.
        const c = fits[0];
        if (c) {
          take.set(c.id, (take.get(c.id) ?? D(0)).plus(need));
          ledger.push({
            key: c,
            quantity: need.neg(),
            unitCost: null,
            lineId: m.lineId,
            reversalOf: m.reversalOf ?? null,
          });
        }
      }
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
      ledger.push({
        key,
        quantity: D(m.quantity),
        unitCost: m.unitCost !== undefined ? D(m.unitCost) : null,
        lineId: m.lineId,
        reversalOf: m.reversalOf ?? null,
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

  if (!ledger.length) {
    for (const s of opts.also ?? []) await s.execute(db);
    return ledger;
  }

  // 4: costs and ledger. Priced inbound moves update the moving average first; then one statement
  // adds the other moves' quantities to the quantity the average is spread over and writes the
  // ledger rows, costing them at the average it returns (or at their own cost: priced inbound
  // moves and reversals of outbound ones).
  const priced = new Set(
    ledger.filter((l) => l.quantity.gt(0) && l.unitCost !== null && l.reversalOf === null),
  );
  if (priced.size) {
    const byMaterial = new Map<number, { q: Decimal; amount: Decimal }>();
    for (const l of priced) {
      const a = byMaterial.get(l.key.materialId) ?? { q: D(0), amount: D(0) };
      a.q = a.q.plus(l.quantity);
      a.amount = a.amount.plus(l.quantity.times(l.unitCost as Decimal));
      byMaterial.set(l.key.materialId, a);
    }
    const ids = [...byMaterial.keys()];
    await sql`
      INSERT INTO material_cost (material_id, quantity, avg_cost)
      SELECT r.id, r.q, round(r.amount / r.q, 6)
        FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(ids.map((i) => byMaterial.get(i)!.q.toString()))}::numeric[],
                    ${sql.val(ids.map((i) => byMaterial.get(i)!.amount.toString()))}::numeric[]) AS r(id, q, amount)
      ON CONFLICT (material_id) DO UPDATE SET
        avg_cost = CASE WHEN material_cost.quantity + excluded.quantity > 0
                        THEN round((material_cost.quantity * material_cost.avg_cost + excluded.quantity * excluded.avg_cost)
                                   / (material_cost.quantity + excluded.quantity), 6)
                        ELSE excluded.avg_cost END,
        quantity = GREATEST(material_cost.quantity, 0) + excluded.quantity,
        updated_at = now()`.execute(db);
  }

  // Every material of the document gets a cost row; moves that are not priced change its quantity.
  const spread = new Map<number, Decimal>();
  for (const l of ledger) {
    const q = spread.get(l.key.materialId) ?? D(0);
    spread.set(l.key.materialId, priced.has(l) ? q : q.plus(l.quantity));
  }
  const own = (l: LedgerEntry) => (l.unitCost !== null && l.quantity.gt(0) ? l.unitCost.toString() : null);
  const ids = [...spread.keys()];
  const also = opts.also ?? [];
  const r = await prepared(sql<{ updated: number }>`
    WITH ${decrement ? sql`u AS (${decrement.sql}),` : sql``}
         ${increment ? sql`i AS (${increment}),` : sql``}
    c AS (
      INSERT INTO material_cost (material_id, quantity, avg_cost)
      SELECT r.id, r.q, 0 FROM unnest(${sql.val(ids)}::bigint[], ${sql.val(ids.map((i) => spread.get(i)!.toString()))}::numeric[]) AS r(id, q)
      ON CONFLICT (material_id) DO UPDATE SET quantity = material_cost.quantity + excluded.quantity, updated_at = now()
      RETURNING material_id, avg_cost),
    l AS (
      INSERT INTO stock_ledger (material_id, warehouse_id, location_id, batch_no, quality_status, quantity, unit_cost, amount,
                                doc_type, doc_kind, doc_id, doc_no, line_id, biz_date, reversal_of, created_by)
      SELECT r.m, r.w, r.l, r.b, r.qs, r.q, coalesce(r.c, c.avg_cost), round(r.q * coalesce(r.c, c.avg_cost), 2),
             ${doc.docType}, ${doc.docKind}, ${doc.docId}, ${doc.docNo}, r.line, ${doc.bizDate}::date, r.rev, ${doc.userId}
        FROM unnest(${sql.val(ledger.map((l) => l.key.materialId))}::bigint[], ${sql.val(ledger.map((l) => l.key.warehouseId))}::bigint[],
                    ${sql.val(ledger.map((l) => l.key.locationId))}::bigint[], ${sql.val(ledger.map((l) => l.key.batchNo))}::text[],
                    ${sql.val(ledger.map((l) => l.key.qualityStatus))}::text[], ${sql.val(ledger.map((l) => l.quantity.toString()))}::numeric[],
                    ${sql.val(ledger.map(own))}::numeric[], ${sql.val(ledger.map((l) => l.lineId))}::bigint[],
                    ${sql.val(ledger.map((l) => l.reversalOf))}::bigint[])
             WITH ORDINALITY AS r(m, w, l, b, qs, q, c, line, rev, n)
        JOIN c ON c.material_id = r.m
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

/** Mirror moves of a document's ledger rows (红冲): same keys, opposite quantities, exact keys. */
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
      'lineId',
    ])
    .where('docType', '=', docType)
    .where('docId', '=', docId)
    .where('reversalOf', 'is', null)
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
    lineId: r.lineId,
    exact: true,
    reversalOf: r.id,
  }));
}
