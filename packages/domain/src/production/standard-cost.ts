import Decimal from 'decimal.js';
import type { OverheadRate } from './product-cost.ts';

/**
 * Standard cost of a product (标准成本) from its BOM and route, and the variance of an order's
 * actual cost against it (成本差异), docs/costing.md:
 *
 * - 材料: each BOM line's usage in the material's base unit (quantity × the unit's ratio to the
 *   base unit) × (1 + 损耗率 %) × the material's 标准成本.
 * - 人工: each in-house step's 工序工资 (piece rate per good piece).
 * - 委外: each outsourced step's processing price per piece, without VAT (the last 委外订单 price).
 * - 制造费用: each in-house step's standard minutes × its workshop's rate (系统设置 › 成本核算): per
 *   minute as it stands, or per hour over 60.
 * Standard costs are rates: each component per piece to 6 places. A material without a 标准成本, a
 * step without minutes, rate or price counts 0 and is named in `missing`.
 */

const X = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const rate6 = (v: Decimal) => v.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6);
const fen = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export interface StandardBomLine {
  materialName: string;
  /** Per product piece, in the line's unit. */
  quantity: string;
  /** Base units per line unit (1 when the line is in the base unit). */
  ratio: string;
  /** Percent. */
  lossRate: string | null;
  /** Per base unit; null when the material has none. */
  standardPrice: string | null;
}

export interface StandardStep {
  seq: number;
  processName: string;
  workshopId: number | null;
  outsourced: boolean;
  standardMinutes: string | null;
  pieceRate: string | null;
  /** Outsourced steps: processing price per piece without VAT; null when none is known. */
  outsourcingPrice: string | null;
}

export interface StandardCostInput {
  bom: StandardBomLine[];
  steps: StandardStep[];
  overheadRates: OverheadRate[];
}

export interface StandardCost {
  /** Per piece, 6 places. */
  material: string;
  labour: string;
  outsourcing: string;
  overhead: string;
  total: string;
  /** What counted 0 for want of a price, a rate or minutes. */
  missing: string[];
}

export function standardCost(input: StandardCostInput): StandardCost {
  const missing: string[] = [];
  let material = new X(0);
  for (const l of input.bom) {
    if (l.standardPrice == null) {
      missing.push(`${l.materialName}无标准成本`);
      continue;
    }
    const usage = new X(l.quantity).times(l.ratio).times(new X(l.lossRate ?? 0).div(100).plus(1));
    material = material.plus(usage.times(l.standardPrice));
  }
  const rates = new Map(input.overheadRates.map((r) => [r.workshopId, r]));
  let labour = new X(0);
  let outsourcing = new X(0);
  let overhead = new X(0);
  for (const s of input.steps) {
    const name = `${s.seq} ${s.processName}`;
    if (s.outsourced) {
      if (s.outsourcingPrice == null) missing.push(`${name}无委外价格`);
      else outsourcing = outsourcing.plus(s.outsourcingPrice);
      continue;
    }
    if (s.pieceRate == null) missing.push(`${name}无工序工资`);
    else labour = labour.plus(s.pieceRate);
    const r = s.workshopId == null ? undefined : rates.get(s.workshopId);
    if (!r) missing.push(`${name}车间无制造费用分摊率`);
    else if (s.standardMinutes == null) missing.push(`${name}无标准工时`);
    else {
      const minutes = new X(s.standardMinutes);
      overhead = overhead.plus(r.basis === 'hour' ? minutes.div(60).times(r.rate) : minutes.times(r.rate));
    }
  }
  const parts = [material, labour, outsourcing, overhead].map(rate6);
  return {
    material: parts[0],
    labour: parts[1],
    outsourcing: parts[2],
    overhead: parts[3],
    total: rate6(parts.reduce((s, p) => s.plus(p), new X(0))),
    missing,
  };
}

export interface StandardProduct {
  bom: (Omit<StandardBomLine, 'standardPrice'> & { materialId: number })[];
  steps: StandardStep[];
}

/**
 * Standard costs rolled up the BOM levels: a component made in house (one with a BOM or route of
 * its own here) enters its parent at its own rolled standard (its material, labour, outsourcing
 * and overhead per piece), a bought one at its 标准成本 (`prices`; absent: none). A component
 * that would contain itself counts 0 and is named. Answers every product of `products`.
 */
export function rollStandardCosts(
  products: Map<number, StandardProduct>,
  prices: Map<number, string | null>,
  overheadRates: OverheadRate[],
): Map<number, StandardCost> {
  const done = new Map<number, StandardCost>();
  const visiting = new Set<number>();
  const roll = (id: number): StandardCost => {
    const known = done.get(id);
    if (known) return known;
    const p = products.get(id) as StandardProduct;
    visiting.add(id);
    const cycle: string[] = [];
    const bom = p.bom.map((l) => {
      if (!products.has(l.materialId)) return { ...l, standardPrice: prices.get(l.materialId) ?? null };
      if (visiting.has(l.materialId)) {
        cycle.push(`${l.materialName}循环引用`);
        return { ...l, standardPrice: '0' };
      }
      return { ...l, standardPrice: roll(l.materialId).total };
    });
    visiting.delete(id);
    const c = standardCost({ bom, steps: p.steps, overheadRates });
    const out = { ...c, missing: [...cycle, ...c.missing] };
    done.set(id, out);
    return out;
  };
  for (const id of products.keys()) roll(id);
  return done;
}

export interface ActualComponents {
  material: string;
  labour: string;
  outsourcing: string;
  overhead: string;
  /** Scrap recovered, positive; it lowers the material actually used. */
  scrap: string;
}

export interface CostVariance {
  /** Standard for the finished pieces, to the fen: unit standard × finished. */
  standard: { material: string; labour: string; outsourcing: string; overhead: string; total: string };
  actual: { material: string; labour: string; outsourcing: string; overhead: string; total: string };
  /** Actual − standard: positive is unfavourable (超支), negative favourable (节约). */
  variance: { material: string; labour: string; outsourcing: string; overhead: string; total: string };
  /** Total variance ÷ total standard × 100, 2 places; null when the standard is 0. */
  rate: string | null;
}

/** An order's variance per component: the actual (material net of scrap) against standard × finished. */
export function costVariance(actual: ActualComponents, std: StandardCost, finished: string): CostVariance {
  const keys = ['material', 'labour', 'outsourcing', 'overhead'] as const;
  const a = {
    material: new X(actual.material).minus(actual.scrap),
    labour: new X(actual.labour),
    outsourcing: new X(actual.outsourcing),
    overhead: new X(actual.overhead),
  };
  const s = Object.fromEntries(keys.map((k) => [k, fen(new X(std[k]).times(finished))])) as Record<
    (typeof keys)[number],
    Decimal
  >;
  const sum = (o: Record<string, Decimal>) => keys.reduce((t, k) => t.plus(o[k]), new X(0));
  const text = (o: Record<string, Decimal>) => ({
    ...(Object.fromEntries(keys.map((k) => [k, o[k].toFixed(2)])) as Record<(typeof keys)[number], string>),
    total: sum(o).toFixed(2),
  });
  const v = Object.fromEntries(keys.map((k) => [k, a[k].minus(s[k])])) as Record<string, Decimal>;
  const st = sum(s);
  return {
    standard: text(s),
    actual: text(a),
    variance: text(v),
    rate: st.isZero() ? null : sum(v).div(st).times(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
  };
}
