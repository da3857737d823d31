import Decimal from 'decimal.js';
import { roundRatio, toBaseQuantity, type UnitRatio } from '../resource/unit-conversion.ts';

/**
 * Stock by entry unit (docs/architecture.md, "Unit conversion"). A balance row (material ×
 * warehouse × location × batch × quality status) counts its stock in the base unit; what came in
 * counted in another unit (a 采购入库 of 10 kg of a material counted in 套) stays, inside the row,
 * a part of its own that remembers both figures: 10 kg and the 42.5532 套 they converted to. The
 * rest of the row is loose stock. Every ledger row moves exactly one part (its unit and the
 * quantity in it) or loose stock, so each part is the sum of its ledger rows.
 *
 * - A receipt in a unit adds its quantity and its base quantity (converted once, per line) to the
 *   row's part of that unit.
 * - An issue in a unit takes from the parts of that unit first, row by row in the usual order: its
 *   share of a part, quantity × base ÷ quantity of the part, rounded half up to the base unit's
 *   precision; the issue that empties a part takes exactly its base quantity. So an issue of
 *   everything received in a unit takes exactly what those receipts brought, whatever rounding
 *   each line had. What the parts do not cover converts per line and comes from loose stock.
 * - An issue in the base unit (or beyond the parts) takes loose stock first, then parts, a part's
 *   share in its own unit rounded to that unit's precision.
 * The arithmetic mirrors the valuation's (quantity ↔ value): `valuation.ts`.
 */

export interface UnitPart {
  /** In the part's unit. */
  quantity: Decimal;
  /** In the base unit; > 0 while the part exists. */
  base: Decimal;
}

/** A balance row as allocation sees it. */
export interface PartedRow {
  id: number;
  /** Base-unit quantity on hand (loose stock and parts). */
  onHand: Decimal;
  /** Parts by unit id. */
  parts: Map<number, UnitPart>;
}

/** One ledger row of a decrement: from a row's loose stock (unitId null) or from one part. */
export interface Take {
  rowId: number;
  /** Base quantity taken, > 0. */
  base: Decimal;
  unitId: number | null;
  /** In the part's unit (≥ 0); null for loose stock. */
  unitQuantity: Decimal | null;
}

/** The line's unit, when an issue is counted in one. */
export interface AskUnit {
  id: number;
  quantity: Decimal.Value;
  ratio: UnitRatio;
  /** Precision (小数位数) of the material's base unit. */
  basePrecision: number;
}

const step = (places: number) => new Decimal(10).pow(-Math.max(0, places));

/** Loose stock of a row: on hand less its parts. */
export function looseOf(row: PartedRow): Decimal {
  let l = row.onHand;
  for (const p of row.parts.values()) l = l.minus(p.base);
  return l;
}

/**
 * The base quantity an issue of `quantity` (in the part's unit, ≤ the part's) takes from a part:
 * all of it for the whole part; else its share, rounded half up to `basePrecision` and kept one
 * step below the part's base, so that what stays is worth something.
 */
export function partShare(part: UnitPart, quantity: Decimal.Value, basePrecision: number): Decimal {
  const t = new Decimal(quantity);
  if (t.gte(part.quantity)) return part.base;
  const s = new Decimal(roundRatio(t.times(part.base), part.quantity, basePrecision));
  return s.gte(part.base) ? Decimal.max(part.base.minus(step(basePrecision)), 0) : s;
}

/**
 * What a take of `base` from a part is in the part's unit: all of it with all its base; else
 * base × quantity ÷ base of the part, rounded half up to `unitPrecision` and kept one step below the
 * part's quantity (possibly 0: 30 套 out of a box of 100 leaves the box, with 70 套 in it).
 */
export function partUnits(part: UnitPart, base: Decimal.Value, unitPrecision: number): Decimal {
  const x = new Decimal(base);
  if (x.gte(part.base)) return part.quantity;
  const t = new Decimal(roundRatio(x.times(part.quantity), part.base, unitPrecision));
  return t.gte(part.quantity) ? Decimal.max(part.quantity.minus(step(unitPrecision)), 0) : t;
}

function takeFromPart(row: PartedRow, unitId: number, t: Decimal, x: Decimal, takes: Take[]) {
  const part = row.parts.get(unitId) as UnitPart;
  const left = { quantity: part.quantity.minus(t), base: part.base.minus(x) };
  if (left.base.lte(0)) row.parts.delete(unitId);
  else row.parts.set(unitId, left);
  row.onHand = row.onHand.minus(x);
  takes.push({ rowId: row.id, base: x, unitId, unitQuantity: t });
}

/**
 * Takes `need` base units from the rows in order: each row's loose stock first, then its parts by
 * unit id. Answers what is still missing (0 when covered). Mutates the rows.
 */
export function takeBase(
  rows: PartedRow[],
  need: Decimal.Value,
  unitPrecision: (unitId: number) => number,
  takes: Take[],
): Decimal {
  let left = new Decimal(need);
  for (const row of rows) {
    if (left.lte(0)) break;
    const loose = Decimal.min(looseOf(row), left);
    if (loose.gt(0)) {
      row.onHand = row.onHand.minus(loose);
      takes.push({ rowId: row.id, base: loose, unitId: null, unitQuantity: null });
      left = left.minus(loose);
    }
    for (const unitId of [...row.parts.keys()].sort((a, b) => a - b)) {
      if (left.lte(0)) break;
      const part = row.parts.get(unitId) as UnitPart;
      const x = Decimal.min(part.base, left);
      takeFromPart(row, unitId, partUnits(part, x, unitPrecision(unitId)), x, takes);
      left = left.minus(x);
    }
  }
  return left;
}

export interface Allocation {
  takes: Take[];
  /** Base quantity the issue asks for: the parts' shares plus the rest converted per line. */
  need: Decimal;
  /** Base quantity the rows could not give (0: covered). */
  missing: Decimal;
}

/**
 * An issue from candidate rows (in first-in-first-out order): `base` units of the base unit, or
 * `unit.quantity` of a unit — from that unit's parts first (a share each, the whole part when it
 * takes all), then the rest converted per line (`toBaseQuantity`) from loose stock and other parts.
 * Mutates the rows; answers the ledger rows to write.
 */
export function allocateIssue(
  rows: PartedRow[],
  ask: { base: Decimal.Value } | { unit: AskUnit },
  unitPrecision: (unitId: number) => number,
): Allocation {
  const takes: Take[] = [];
  if ('base' in ask) {
    const need = new Decimal(ask.base);
    return { takes, need, missing: takeBase(rows, need, unitPrecision, takes) };
  }
  const u = ask.unit;
  let t = new Decimal(u.quantity);
  let need = new Decimal(0);
  for (const row of rows) {
    if (t.lte(0)) break;
    const part = row.parts.get(u.id);
    if (!part) continue;
    const here = Decimal.min(part.quantity, t);
    const x = partShare(part, here, u.basePrecision);
    if (x.lte(0)) continue;
    takeFromPart(row, u.id, here, x, takes);
    need = need.plus(x);
    t = t.minus(here);
  }
  if (t.lte(0)) return { takes, need, missing: new Decimal(0) };
  const rest = new Decimal(toBaseQuantity(t, u.ratio, u.basePrecision));
  return { takes, need: need.plus(rest), missing: takeBase(rows, rest, unitPrecision, takes) };
}

/**
 * An exact decrement of one row (a reversal's mirror of a ledger row, a stocktake difference, a
 * quality-status move): from the part it names when that part still holds it (leaving a part with
 * both figures or none), else as a base-unit issue of that row (loose first, then parts).
 */
export function takeExact(
  row: PartedRow,
  move: { base: Decimal.Value; unitId?: number | null; unitQuantity?: Decimal.Value | null },
  unitPrecision: (unitId: number) => number,
): Allocation {
  const x = new Decimal(move.base);
  const takes: Take[] = [];
  const part = move.unitId != null ? row.parts.get(move.unitId) : undefined;
  if (part && move.unitQuantity != null) {
    const t = new Decimal(move.unitQuantity);
    const q = part.quantity.minus(t);
    const b = part.base.minus(x);
    if (q.gte(0) && b.gte(0) && q.isZero() === b.isZero()) {
      takeFromPart(row, move.unitId as number, t, x, takes);
      return { takes, need: x, missing: new Decimal(0) };
    }
  }
  return { takes, need: x, missing: takeBase([row], x, unitPrecision, takes) };
}

/** A receipt into a row: loose stock, or the part of its unit. Mutates the row. */
export function putStock(
  row: PartedRow,
  move: { base: Decimal.Value; unitId?: number | null; unitQuantity?: Decimal.Value | null },
) {
  const x = new Decimal(move.base);
  row.onHand = row.onHand.plus(x);
  if (move.unitId == null || move.unitQuantity == null) return;
  const part = row.parts.get(move.unitId);
  row.parts.set(move.unitId, {
    quantity: (part?.quantity ?? new Decimal(0)).plus(move.unitQuantity),
    base: (part?.base ?? new Decimal(0)).plus(x),
  });
}
