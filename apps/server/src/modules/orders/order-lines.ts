import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, type FieldError } from '../../platform/errors.ts';
import { AMOUNT_MAX, grouped } from '../../platform/resource/schema.ts';

/**
 * What sales and purchase orders share about their lines: units that belong to the material,
 * and pricing with exact numerics.
 */

/**
 * A line's quantity in its material's base unit (line `l`, material `m`, base unit `bu`): converted
 * once by the exact ratio, quantity × base ÷ unit rounded half away from zero to the base unit's
 * precision (`toBaseQuantity` in packages/domain, docs/architecture.md "Unit conversion").
 */
export const LINE_BASE = sql`CASE WHEN l.unit_id IS NULL OR l.unit_id = m.unit_id THEN l.quantity
  ELSE (SELECT round_ratio(l.quantity * c.base_quantity, c.unit_quantity, bu.precision) FROM material_unit_conversion c
         WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END`;

/**
 * Each line's unit must be the material's base unit or one of its conversions; answers the field
 * errors of the lines that break it.
 */
export async function unitErrors(db: Db, lines: Record<string, any>[]): Promise<FieldError[]> {
  const withUnit = lines.map((l, i) => ({ ...l, i }) as Record<string, any>).filter((l) => l.unitId != null);
  if (!withUnit.length) return [];
  const bad = await sql<{ i: number }>`
    SELECT x.i FROM unnest(${sql.val(withUnit.map((l) => l.materialId))}::bigint[],
                           ${sql.val(withUnit.map((l) => l.unitId))}::bigint[],
                           ${sql.val(withUnit.map((l) => l.i))}::int[]) AS x(material_id, unit_id, i)
    WHERE NOT EXISTS (SELECT 1 FROM material m WHERE m.id = x.material_id AND m.unit_id = x.unit_id)
      AND NOT EXISTS (SELECT 1 FROM material_unit_conversion c
                      WHERE c.material_id = x.material_id AND c.unit_id = x.unit_id)`.execute(db);
  return bad.rows.map((r) => ({
    field: `lines.${r.i}.unitId`,
    message: '该单位不属于所选物料，请在物料的单位换算中添加',
  }));
}

/** How an order prices its lines: its tables, its party and the material's fallback price. */
export interface OrderPricing {
  table: 'sale_order' | 'purchase_order' | 'outsourcing_order';
  lineTable: 'sale_order_line' | 'purchase_order_line' | 'outsourcing_order_line';
  parentColumn: 'sale_order_id' | 'purchase_order_id' | 'outsourcing_order_id';
  /** The customer or supplier: last prices are this party's. */
  partyColumn: 'customer_id' | 'supplier_id';
  /** The material's price when the party has none: sale price, or standard cost (none for processing fees). */
  fallbackColumn: 'sale_price' | 'standard_cost' | null;
  /** Said when a line has neither. */
  noPrice: string;
}

/**
 * What `priceOrder` will give a line before it is saved (the order form shows it as the line is
 * typed): the unit (the material's base unit unless another is named), its ratio to the base
 * unit (unitQuantity = baseQuantity, with the base unit's precision, to convert the line's quantity
 * as saving does), and the price a line without one takes — the party's last price for the material
 * in that unit (its approved orders, `orderId` excluded), else the material's fallback price per
 * base unit × baseQuantity ÷ unitQuantity.
 */
export async function lineDefaults(
  db: Db,
  p: OrderPricing,
  q: { partyId?: number; materialId: number; unitId?: number; orderId?: number },
) {
  const t = sql.table(p.table);
  const lt = sql.table(p.lineTable);
  const r = await sql<{
    unitId: number;
    unitName: string | null;
    baseUnitId: number;
    baseUnitName: string | null;
    unitQuantity: string | null;
    baseQuantity: string | null;
    basePrecision: number | null;
    lastPrice: string | null;
    fallbackPrice: string | null;
  }>`
    WITH l AS (
      SELECT m.id AS material_id, COALESCE(${q.unitId ?? null}::bigint, m.unit_id) AS unit_id, m.unit_id AS base_unit_id, r.*,
             ${p.fallbackColumn ? sql.ref(`m.${p.fallbackColumn}`) : sql`NULL::numeric`} AS fallback_price
        FROM material m
        LEFT JOIN LATERAL (
          SELECT 1::numeric AS unit_quantity, 1::numeric AS base_quantity
           WHERE ${q.unitId ?? null}::bigint IS NULL OR ${q.unitId ?? null}::bigint = m.unit_id
          UNION ALL
          SELECT c.unit_quantity, c.base_quantity FROM material_unit_conversion c
           WHERE c.material_id = m.id AND c.unit_id = ${q.unitId ?? null}::bigint AND c.unit_id <> m.unit_id) r ON true
       WHERE m.id = ${q.materialId})
    SELECT l.unit_id, u.name AS unit_name, l.base_unit_id, b.name AS base_unit_name,
           l.unit_quantity::text AS unit_quantity, l.base_quantity::text AS base_quantity, b.precision AS base_precision,
           (SELECT x.unit_price::text FROM ${lt} x JOIN ${t} xo ON xo.id = ${sql.ref(`x.${p.parentColumn}`)}
             WHERE x.material_id = l.material_id AND ${sql.ref(`xo.${p.partyColumn}`)} = ${q.partyId ?? null}::bigint
               AND xo.id <> ${q.orderId ?? 0} AND COALESCE(x.unit_id, l.base_unit_id) = l.unit_id AND x.unit_price IS NOT NULL
               AND xo.status NOT IN ('draft', 'closed')
             ORDER BY xo.order_date DESC, xo.id DESC LIMIT 1) AS last_price,
           round_ratio(l.fallback_price * l.base_quantity, l.unit_quantity, 6)::text AS fallback_price
      FROM l LEFT JOIN material_unit u ON u.id = l.unit_id LEFT JOIN material_unit b ON b.id = l.base_unit_id`.execute(
    db,
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const { lastPrice, fallbackPrice, ...unit } = row;
  return {
    ...unit,
    unitPrice: lastPrice ?? fallbackPrice,
    /** Where the price comes from: the party's last order, the material's price, or nowhere. */
    priceSource: lastPrice != null ? 'last' : fallbackPrice != null ? 'material' : null,
  };
}

/**
 * Prices and amounts of a saved order, in one statement with exact numerics: a line without a
 * price takes the party's last price for the material in that unit (from its approved orders),
 * else the material's fallback price in that unit (per base unit × base ÷ unit, to 6 places); the
 * base quantity converts once by the exact ratio (`LINE_BASE`); amount = quantity × price rounded
 * to the fen once, at the line; tax is contained in it (含税): amount × rate / (100 + rate). The
 * header sums its lines. A line amount or a total above `AMOUNT_MAX` (10¹²) is a 400.
 */
export async function priceOrder(db: Db, p: OrderPricing, id: number) {
  const t = sql.table(p.table);
  const lt = sql.table(p.lineTable);
  const parent = (alias: string) => sql.ref(`${alias}.${p.parentColumn}`);
  const party = (alias: string) => sql.ref(`${alias}.${p.partyColumn}`);
  // Amounts are computed before they are written: one past AMOUNT_MAX (quantity × price can reach
  // 10¹⁸ within the fields' bounds) is refused with its line, never written to a numeric(18,2).
  const priced = await sql<{ lineNo: number; unitPrice: string | null; over: boolean }>`
    WITH l AS (
      SELECT l.id, l.line_no, l.quantity, l.unit_price, ${party('o')} AS party_id, l.material_id,
             COALESCE(l.unit_id, m.unit_id) AS unit_id, m.unit_id AS base_unit_id,
             ${LINE_BASE} AS base,
             -- The material's price per base unit, in the line's unit (× base ÷ unit, 6 places).
             CASE WHEN c.unit_id IS NULL THEN fb.price
                  ELSE round_ratio(fb.price * c.base_quantity, c.unit_quantity, 6) END AS fallback_price,
             o.tax_rate, o.delivery_date
        FROM ${lt} l JOIN ${t} o ON o.id = ${parent('l')} JOIN material m ON m.id = l.material_id
        JOIN material_unit bu ON bu.id = m.unit_id
        CROSS JOIN LATERAL (SELECT ${p.fallbackColumn ? sql.ref(`m.${p.fallbackColumn}`) : sql`NULL::numeric`} AS price) fb
        LEFT JOIN material_unit_conversion c ON c.material_id = l.material_id AND c.unit_id = l.unit_id
                                            AND l.unit_id <> m.unit_id
       WHERE ${parent('l')} = ${id}
    ), priced AS (
      SELECT l.*, COALESCE(l.unit_price,
               (SELECT x.unit_price FROM ${lt} x JOIN ${t} xo ON xo.id = ${parent('x')}
                 WHERE x.material_id = l.material_id AND ${party('xo')} = l.party_id AND xo.id <> ${id}
                   -- A line without a unit was in the base unit: its price is no 箱 price.
                   AND COALESCE(x.unit_id, l.base_unit_id) = l.unit_id AND x.unit_price IS NOT NULL
                   AND xo.status NOT IN ('draft', 'closed')
                 ORDER BY xo.order_date DESC, xo.id DESC LIMIT 1),
               l.fallback_price) AS price
        FROM l
    ), amounts AS (
      SELECT p.*, round(p.quantity * p.price, 2) AS amount FROM priced p
    ), written AS (
      UPDATE ${lt} t SET
        unit_price = a.price,
        base_quantity = a.base,
        amount = a.amount,
        tax_amount = round(a.amount * a.tax_rate / (100 + a.tax_rate), 2),
        delivery_date = COALESCE(t.delivery_date, a.delivery_date)
      FROM amounts a WHERE t.id = a.id AND a.amount <= ${AMOUNT_MAX}
      RETURNING t.id
    )
    SELECT a.line_no, a.price::text AS unit_price, COALESCE(a.amount > ${AMOUNT_MAX}, false) AS over
      FROM amounts a ORDER BY a.line_no`.execute(db);
  const unpriced = priced.rows.filter((r) => r.unitPrice === null);
  if (unpriced.length) {
    const errors = unpriced.map((r) => ({ field: `lines.${r.lineNo - 1}.unitPrice`, message: p.noPrice }));
    throw badRequest(errors[0].message, errors);
  }
  const over = priced.rows.filter((r) => r.over);
  if (over.length) {
    const errors = over.map((r) => ({
      field: `lines.${r.lineNo - 1}.amount`,
      message: `第 ${r.lineNo} 行金额（数量 × 单价）不能超过 ${grouped(AMOUNT_MAX)}`,
    }));
    throw badRequest(errors[0].message, errors);
  }
  const total = await sql<{ amount: string }>`
    UPDATE ${t} o SET amount = s.amount, tax_amount = s.tax
      FROM (SELECT COALESCE(sum(amount), 0) AS amount, COALESCE(sum(tax_amount), 0) AS tax
              FROM ${lt} WHERE ${sql.ref(p.parentColumn)} = ${id}) s
     WHERE o.id = ${id}
    RETURNING o.amount::text AS amount`.execute(db);
  if (new Decimal(total.rows[0]?.amount ?? 0).gt(AMOUNT_MAX)) {
    const message = `订单金额合计不能超过 ${grouped(AMOUNT_MAX)}，请分成几张订单`;
    throw badRequest(message, [{ field: 'amount', message }]);
  }
}

/** The checks of a saved order: delivery not before the order date, units of the materials. */
export async function validateOrder(db: Db, data: Record<string, any>) {
  if (data.deliveryDate < data.orderDate) {
    throw badRequest('交货日期不能早于订单日期', [
      { field: 'deliveryDate', message: '交货日期不能早于订单日期' },
    ]);
  }
  const errors = await unitErrors(db, data.lines ?? []);
  if (errors.length) throw badRequest(errors[0].message, errors);
}

/** 反审核 guard: refused (409) while a stock document (not reversed) names the order in `column`. */
export async function assertNoStockDocuments(
  db: Db,
  column: 'sale_order_id' | 'purchase_order_id' | 'outsourcing_order_id',
  id: number,
) {
  const c = sql.ref(column);
  const r = await sql<{ docNo: string }>`
    SELECT doc_no FROM stock_outbound WHERE ${c} = ${id} AND status <> 'reversed'
    UNION ALL
    SELECT doc_no FROM stock_inbound WHERE ${c} = ${id} AND status <> 'reversed'
    LIMIT 1`.execute(db);
  if (r.rows.length) throw conflict(`订单已有出入库单 ${r.rows[0].docNo}，不能反审核`);
}

/** A percentage system setting (sys_setting, e.g. an over-ship allowance); 0 when unset or not a number. */
export async function percentSetting(db: Db, key: string): Promise<Decimal> {
  const r = await sql<{
    value: string;
  }>`SELECT value #>> '{}' AS value FROM sys_setting WHERE key = ${key}`.execute(db);
  const v = r.rows[0]?.value;
  return v && /^\d+(\.\d+)?$/.test(v) ? new Decimal(v) : new Decimal(0);
}

/** A base-unit quantity as messages show it (at most 4 decimals, no trailing zeros). */
export const qty = (d: Decimal.Value) => new Decimal(d).toDecimalPlaces(4).toString();

/** Where a document keeps its lines, and which line date defaults to which header date. */
export interface LineTables {
  table: 'purchase_requisition' | 'stock_up_order';
  lineTable: 'purchase_requisition_line' | 'stock_up_order_line';
  parentColumn: 'purchase_requisition_id' | 'stock_up_order_id';
  /** A line date left empty takes the header's: [line column, header column]. */
  date: [string, string];
}

/**
 * After saving a document of quantities without prices (请购单, 备货单): each line's base-unit
 * quantity (`LINE_BASE`) and its date defaulted from the header, in one statement.
 */
export async function fillLineBases(db: Db, t: LineTables, id: number) {
  const [lineDate, headerDate] = t.date;
  await sql`
    UPDATE ${sql.table(t.lineTable)} l SET
      base_quantity = ${LINE_BASE},
      ${sql.ref(lineDate)} = COALESCE(${sql.ref(`l.${lineDate}`)}, ${sql.ref(`h.${headerDate}`)})
      FROM material m, material_unit bu, ${sql.table(t.table)} h
     WHERE ${sql.ref(`l.${t.parentColumn}`)} = ${id} AND m.id = l.material_id AND bu.id = m.unit_id
       AND h.id = ${sql.ref(`l.${t.parentColumn}`)}`.execute(db);
}

/** A document's date not before another (需求日期 not before 请购日期…), as a field error. */
export function assertNotBefore(data: Record<string, any>, later: string, earlier: string, message: string) {
  if (data[later] < data[earlier]) throw badRequest(message, [{ field: later, message }]);
}
