/**
 * 盘点差异报告 (`GET /api/v1/stocktake/difference/{id}`): the counted lines that differ from the
 * books, valued, with totals. Quantities and amounts are decimal strings.
 */
export interface DifferenceReport {
  docNo: string;
  status: string;
  warehouseName: string;
  bizDate: string;
  /** Amounts are the posted ledger's once posted; a draft's are valued at today's moving average. */
  valuedAt: 'posting' | 'current average';
  lines: {
    lineNo: number;
    materialCode: string;
    materialName: string;
    spec: string | null;
    unitName: string | null;
    locationName: string | null;
    batchNo: string;
    qualityStatus: string;
    bookQuantity: string;
    countedQuantity: string;
    difference: string;
    unitCost: string;
    amount: string;
  }[];
  totals: {
    /** 盘盈 / 盘亏 quantity: one figure when every such line has one unit, else null. */
    gainQuantity: string | null;
    lossQuantity: string | null;
    /** The same per base unit (件, kg and 粒 are never added): most lines first. */
    gainByUnit: { unitName: string; quantity: string }[];
    lossByUnit: { unitName: string; quantity: string }[];
    gainAmount: string;
    lossAmount: string;
    netAmount: string;
  };
}
