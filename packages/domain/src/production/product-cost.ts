import Decimal from 'decimal.js';

/**
 * Actual cost of a production order (生产订单实际成本), docs/architecture.md "Product cost":
 *
 *   material issued + piece-rate wages + outsourcing fees + overhead − scrap recovered
 *
 * - 材料: each posted 领料出库 line at its ledger amount (the moving average of the issue).
 * - 计件工资: each approved 报工's wage lines (piece_wage, adjustments included), as posted.
 * - 委外加工费: each 委外入库 (minus 委外退货) line at its 委外订单 line's processing price, as the
 *   payable prices it — line amount × quantity ÷ line quantity, to the fen — without its VAT
 *   (tax = amount × rate ÷ (100 + rate), to the fen: the input VAT is deductible, not a cost).
 * - 制造费用: per workshop, the rate (系统设置 › 成本核算) × its driver over the order's approved
 *   报工 in that workshop: 标准工时 = good pieces × the step's standard minutes, or 实际工时 = the
 *   reports' hours; one amount per workshop, to the fen. Reports of a workshop without a rate
 *   add nothing and name the workshop in `unratedWorkshops`.
 * - 废料回收: each report's scrap pieces (工废 + 料废) × the product's unit weight (kg) × the scrap
 *   price per kg, to the fen, subtracted.
 * Each source line is rounded to the fen once; a component's total is the sum of its lines; unit
 * costs are total ÷ finished quantity to 6 places (null before anything is finished).
 */

const X = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
const fen = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export type OverheadBasis = 'standard-minute' | 'hour';

export const OVERHEAD_BASIS_LABEL: Record<OverheadBasis, string> = {
  'standard-minute': '按标准工时（元/分钟）',
  hour: '按实际工时（元/小时）',
};

export interface CostIssueLine {
  docNo: string;
  materialName: string;
  quantity: string;
  /** Yuan, positive: what the issue took from stock (−ledger amount). */
  amount: string;
}

export interface CostWageLine {
  docNo: string;
  processName: string;
  operatorName: string;
  quantity: string;
  /** Yuan: the report's wage lines summed (net of 工废 deduction, adjustments included). */
  amount: string;
}

export interface CostOutsourcingLine {
  /** The 委外入库 (or 委外退货出库) document. */
  docNo: string;
  /** Its 委外订单. */
  orderNo: string;
  supplierName: string;
  /** Base quantity received; negative for a 委外退货. */
  quantity: string;
  /** The order line's amount with tax and base quantity: its processing price. */
  orderLineAmount: string;
  orderLineQuantity: string;
  taxRate: string;
}

export interface CostReportLine {
  docNo: string;
  workshopId: number | null;
  workshopName: string;
  goodQuantity: string;
  scrapQuantity: string;
  /** Minutes per piece of the report's step; null when the route gives none. */
  standardMinutes: string | null;
  hours: string | null;
}

export interface OverheadRate {
  workshopId: number;
  basis: OverheadBasis;
  /** Yuan per standard minute or per hour. */
  rate: string;
}

export interface CostInputs {
  finishedQuantity: string;
  issues: CostIssueLine[];
  wages: CostWageLine[];
  outsourcing: CostOutsourcingLine[];
  /** The order's approved reports: overhead drivers and scrap. */
  reports: CostReportLine[];
  overheadRates: OverheadRate[];
  /** Unit weight of the product (kg per base unit); null: unknown, nothing recovered. */
  productWeightKg: string | null;
  /** Yuan per kg of scrap; null or 0: nothing recovered. */
  scrapPricePerKg: string | null;
}

export interface CostComponent<L> {
  total: string;
  /** total ÷ finished quantity, 6 places; null while nothing is finished. */
  unitCost: string | null;
  lines: L[];
}

export interface OutsourcingCost extends CostOutsourcingLine {
  /** With tax, as the payable: line amount × quantity ÷ line quantity, to the fen. */
  grossAmount: string;
  taxAmount: string;
  /** The cost: gross − tax. */
  amount: string;
}

export interface OverheadCost {
  workshopId: number | null;
  workshopName: string;
  basis: OverheadBasis | null;
  rate: string | null;
  /** Standard minutes (good × minutes per piece) or hours, summed over the workshop's reports. */
  driver: string;
  docNos: string[];
  amount: string;
}

export interface ScrapCost {
  docNo: string;
  quantity: string;
  weightKg: string;
  /** Positive: what the scrap brings back (subtracted from the total). */
  amount: string;
}

export interface ProductionOrderCost {
  finishedQuantity: string;
  material: CostComponent<CostIssueLine>;
  labour: CostComponent<CostWageLine>;
  outsourcing: CostComponent<OutsourcingCost>;
  overhead: CostComponent<OverheadCost>;
  scrap: CostComponent<ScrapCost>;
  /** material + labour + outsourcing + overhead − scrap. */
  total: string;
  unitCost: string | null;
  /** Workshops with approved reports but no overhead rate. */
  unratedWorkshops: string[];
}

function component<L extends { amount: string }>(lines: L[], finished: Decimal): CostComponent<L> {
  const total = lines.reduce((s, l) => s.plus(l.amount), new X(0));
  return { total: total.toFixed(2), unitCost: per(total, finished), lines };
}

function per(total: Decimal, finished: Decimal): string | null {
  return finished.gt(0) ? total.div(finished).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6) : null;
}

/** The actual cost of one production order from its source lines. Pure; exact decimals. */
export function productionOrderCost(input: CostInputs): ProductionOrderCost {
  const finished = new X(input.finishedQuantity);

  const issues = input.issues.map((l) => ({ ...l, amount: fen(new X(l.amount)).toFixed(2) }));
  const wages = input.wages.map((l) => ({ ...l, amount: fen(new X(l.amount)).toFixed(2) }));

  const outsourcing: OutsourcingCost[] = input.outsourcing.map((l) => {
    const lineQ = new X(l.orderLineQuantity);
    const gross = lineQ.gt(0) ? fen(new X(l.orderLineAmount).times(l.quantity).div(lineQ)) : new X(0);
    const tax = fen(gross.times(l.taxRate).div(new X(l.taxRate).plus(100)));
    return {
      ...l,
      grossAmount: gross.toFixed(2),
      taxAmount: tax.toFixed(2),
      amount: gross.minus(tax).toFixed(2),
    };
  });

  const rates = new Map(input.overheadRates.map((r) => [r.workshopId, r]));
  const shops = new Map<string, { id: number | null; name: string; driver: Decimal; docs: string[] }>();
  for (const r of input.reports) {
    const key = String(r.workshopId ?? '');
    const rate = r.workshopId == null ? undefined : rates.get(r.workshopId);
    const driver =
      rate?.basis === 'hour' ? new X(r.hours ?? 0) : new X(r.goodQuantity).times(r.standardMinutes ?? 0);
    const s = shops.get(key) ?? { id: r.workshopId, name: r.workshopName, driver: new X(0), docs: [] };
    s.driver = s.driver.plus(driver);
    if (!s.docs.includes(r.docNo)) s.docs.push(r.docNo);
    shops.set(key, s);
  }
  const overhead: OverheadCost[] = [];
  const unrated: string[] = [];
  for (const s of shops.values()) {
    const rate = s.id == null ? undefined : rates.get(s.id);
    if (!rate) unrated.push(s.name || '（未指定车间）');
    overhead.push({
      workshopId: s.id,
      workshopName: s.name,
      basis: rate?.basis ?? null,
      rate: rate ? new X(rate.rate).toFixed(6) : null,
      driver: s.driver.toFixed(4),
      docNos: s.docs,
      amount: rate ? fen(s.driver.times(rate.rate)).toFixed(2) : '0.00',
    });
  }

  const weight = new X(input.productWeightKg ?? 0);
  const price = new X(input.scrapPricePerKg ?? 0);
  const scrap: ScrapCost[] =
    weight.gt(0) && price.gt(0)
      ? input.reports
          .filter((r) => new X(r.scrapQuantity).gt(0))
          .map((r) => {
            const kg = new X(r.scrapQuantity).times(weight);
            return {
              docNo: r.docNo,
              quantity: new X(r.scrapQuantity).toFixed(4),
              weightKg: kg.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toFixed(4),
              amount: fen(kg.times(price)).toFixed(2),
            };
          })
      : [];

  const material = component(issues, finished);
  const labour = component(wages, finished);
  const outsourcingC = component(outsourcing, finished);
  const overheadC = component(overhead, finished);
  const scrapC = component(scrap, finished);
  const total = new X(material.total)
    .plus(labour.total)
    .plus(outsourcingC.total)
    .plus(overheadC.total)
    .minus(scrapC.total);
  return {
    finishedQuantity: finished.toFixed(4),
    material,
    labour,
    outsourcing: outsourcingC,
    overhead: overheadC,
    scrap: scrapC,
    total: total.toFixed(2),
    unitCost: per(total, finished),
    unratedWorkshops: unrated,
  };
}

/** What a 生产入库 needs of its order to value the pieces at actual cost (`receiptAtActualCost`). */
export interface ReceiptCostInput {
  /** The order's actual cost so far (`productionOrderCost(…).total`). */
  total: string;
  plannedQuantity: string;
  /** Pieces scrapped on any step of the order's approved reports. */
  scrapQuantity: string;
  /** Finished so far, this receipt's pieces included. */
  finishedQuantity: string;
  /** What the order's earlier 生产入库 brought in (reversals netted). */
  receivedQuantity: string;
  receivedAmount: string;
}

/**
 * 生产入库 at actual cost: the order's cost not yet received (work in progress, total − received)
 * shared over the pieces still expected — the planned quantity less the scrapped, at least what is
 * finished and what this receipt makes — so that the receipt of `quantity` pieces brings in
 *
 *   (total − received amount) × quantity ÷ (expected − received quantity), to the fen,
 *
 * and the receipt that completes the order brings in exactly what is left: once everything is
 * received, the finished stock holds the order's whole actual cost. Unit cost = amount ÷ quantity
 * (6 places). Null while nothing has been spent (the receipt is valued as any unpriced receipt, at
 * the warehouse's average); what is left is never negative (a cost taken back after a receipt
 * leaves the next one at 0).
 */
export function receiptAtActualCost(
  input: ReceiptCostInput,
  quantity: string,
): { unitCost: string; amount: string } | null {
  const q = new X(quantity);
  if (!new X(input.total).gt(0) || !q.gt(0)) return null;
  const received = new X(input.receivedQuantity);
  const left = Decimal.max(new X(input.total).minus(input.receivedAmount), 0);
  const expected = Decimal.max(
    new X(input.plannedQuantity).minus(input.scrapQuantity),
    input.finishedQuantity,
    received.plus(q),
  );
  const amount = fen(left.times(q).div(expected.minus(received)));
  return {
    unitCost: amount.div(q).toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toFixed(6),
    amount: amount.toFixed(2),
  };
}
