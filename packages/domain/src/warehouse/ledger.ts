/**
 * Totals of a stock-ledger page scoped to one material (`GET /api/v1/stock-ledger/page?materialId=`):
 * quantity moved in and out under the filter, and the balance now with its value at the
 * material's moving average. Decimal strings.
 */
export interface LedgerSummary {
  inQuantity: string;
  outQuantity: string;
  balance: string;
  value: string;
}
