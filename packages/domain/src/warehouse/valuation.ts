import Decimal from 'decimal.js';

/**
 * Stock valuation (库存计价): a moving weighted average per material and warehouse, kept as the
 * quantity and the value of the pair (a "bin"), so that the value of the stock is always the sum of
 * its ledger rows' amounts — at every moment, to the cent. The average is derived: value ÷
 * quantity. docs/architecture.md, "Valuation and reversals", has the rules and a worked example.
 *
 * - A priced receipt adds quantity × its unit cost (rounded to the cent).
 * - An issue takes quantity × value ÷ quantity of the bin (rounded to the cent); the issue that
 *   empties the bin takes exactly its value, so an empty bin is worth 0 without any residual.
 * - An unpriced receipt (盘盈, 生产入库 without a price, a quality-status move) is valued at the
 *   bin's average as it stood before the posting.
 * - A reversal (红冲) and a transfer's receiving side carry a fixed amount: the exact negation of
 *   the original ledger row, the exact amount that left the other warehouse.
 * - After a posting a bin holds no value without quantity and no negative value: when a reversal
 *   leaves either, one adjustment row of quantity 0 (成本调整) on the same document brings the value
 *   to 0.
 */

/** Exact enough for any numeric(18,4) × numeric(18,2) ÷ numeric(18,4) before rounding to the cent. */
const X = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP });
type Num = Decimal.Value;

const money = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const rate = (v: Decimal) => v.toDecimalPlaces(6, Decimal.ROUND_HALF_UP);

/** A material's stock in one warehouse, as valued. Decimal strings. */
export interface BinState {
  /** Base-unit quantity, the sum of the pair's stock_balance rows. */
  quantity: string;
  /** Yuan, two places: the sum of the pair's ledger amounts. */
  value: string;
  /** Six places: value ÷ quantity while there is stock; the last average when empty; null: never had one. */
  avgCost: string | null;
}

/** The average of a bin: value ÷ quantity to 6 places, or the last one when the bin is empty. */
export function averageCost(quantity: Num, value: Num, last: string | null): string | null {
  const q = new X(quantity);
  return q.gt(0) ? rate(new X(value).div(q)).toFixed(6) : last;
}

/**
 * What an issue of `quantity` takes from a bin (a positive amount): its share of the value,
 * quantity × value ÷ on-hand, rounded half up to the cent; all of it when it takes all the stock.
 */
export function issueAmount(quantity: Num, onHand: Num, value: Num, avgCost: string | null): string {
  const q = new X(quantity);
  const have = new X(onHand);
  if (have.lte(0)) return money(q.times(avgCost ?? 0)).toFixed(2); // never with the stock guard on
  if (q.gte(have)) return new X(value).toFixed(2);
  return money(q.times(value).div(have)).toFixed(2);
}

/** What a receipt of `quantity` at `unitCost` adds: quantity × unit cost, rounded half up to the cent. */
export function receiptAmount(quantity: Num, unitCost: Num): string {
  return money(new X(quantity).times(unitCost)).toFixed(2);
}

/** How a move is costed. */
export type ValuationMove =
  /** An issue (quantity < 0) at the bin's share; a receipt (quantity > 0) at the average before the posting. */
  | { bin: string; quantity: string; cost: 'average' }
  /** A receipt at its own unit cost. */
  | { bin: string; quantity: string; cost: 'priced'; unitCost: string }
  /** A reversal of a ledger row or a transfer's receiving side: this exact signed amount. */
  | { bin: string; quantity: string; cost: 'fixed'; amount: string; unitCost: string };

export interface ValuedMove {
  unitCost: string;
  /** Signed like the quantity, two places. */
  amount: string;
}

export interface Valuation {
  /** One per move, in the moves' order. */
  moves: ValuedMove[];
  /** Every bin moved, after the posting (adjustments included). */
  bins: Map<string, BinState>;
  /** Quantity-0 rows that bring a bin left empty with a value, or with a negative value, to 0. */
  adjustments: { bin: string; amount: string }[];
}

/**
 * Values one posting's moves against the bins they touch (`bins`: their state before, every bin of
 * a move present). Issues are valued first, in order, each at the bin's share as it stands; then
 * the receipts. Pure: the posting service reads and locks the bins, calls this, and writes the
 * ledger rows and bins it answers.
 */
export function valueMoves(bins: Map<string, BinState>, moves: ValuationMove[]): Valuation {
  const state = new Map<string, { q: Decimal; v: Decimal; avg: string | null }>();
  const start = new Map<string, { q: Decimal; v: Decimal; avg: string | null }>();
  for (const [k, b] of bins) {
    const s = { q: new X(b.quantity), v: new X(b.value), avg: b.avgCost };
    state.set(k, { ...s });
    start.set(k, s);
  }
  const at = (k: string) => {
    const s = state.get(k);
    if (!s) throw new Error(`valuation: bin ${k} was not read`);
    return s;
  };
  const out: ValuedMove[] = new Array(moves.length);
  const order = [...moves.keys()];
  const issues = order.filter((i) => new X(moves[i].quantity).lt(0));
  const receipts = order.filter((i) => !new X(moves[i].quantity).lt(0));
  for (const i of [...issues, ...receipts]) {
    const m = moves[i];
    const s = at(m.bin);
    const q = new X(m.quantity);
    let valued: ValuedMove;
    if (m.cost === 'fixed') {
      valued = { unitCost: rate(new X(m.unitCost)).toFixed(6), amount: money(new X(m.amount)).toFixed(2) };
    } else if (m.cost === 'priced' && q.gt(0)) {
      valued = { unitCost: rate(new X(m.unitCost)).toFixed(6), amount: receiptAmount(q, m.unitCost) };
    } else if (q.lt(0)) {
      valued = {
        unitCost: (s.q.gt(0) ? rate(s.v.div(s.q)).toFixed(6) : s.avg) ?? '0.000000',
        amount: new X(issueAmount(q.neg(), s.q, s.v, s.avg)).neg().toFixed(2),
      };
    } else {
      // An unpriced receipt: at the average before the posting (a status move out and back in is worth 0).
      const b = start.get(m.bin) as { q: Decimal; v: Decimal; avg: string | null };
      valued = b.q.gt(0)
        ? { unitCost: rate(b.v.div(b.q)).toFixed(6), amount: money(q.times(b.v).div(b.q)).toFixed(2) }
        : { unitCost: rate(new X(b.avg ?? 0)).toFixed(6), amount: receiptAmount(q, b.avg ?? 0) };
    }
    out[i] = valued;
    s.q = s.q.plus(q);
    s.v = s.v.plus(valued.amount);
    if (s.q.gt(0)) s.avg = averageCost(s.q, s.v, s.avg);
  }
  const adjustments: { bin: string; amount: string }[] = [];
  const after = new Map<string, BinState>();
  for (const [k, s] of state) {
    if ((s.q.lte(0) && !s.v.isZero()) || s.v.lt(0)) {
      adjustments.push({ bin: k, amount: s.v.neg().toFixed(2) });
      s.v = new X(0);
    }
    const avg = s.q.gt(0) ? averageCost(s.q, s.v, s.avg) : s.avg;
    after.set(k, { quantity: s.q.toFixed(4), value: s.v.toFixed(2), avgCost: avg });
  }
  return { moves: out, bins: after, adjustments };
}
