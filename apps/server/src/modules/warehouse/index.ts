import type { ServerArea } from '../../platform/resource/area.ts';
import { alertRoutes } from './alert.ts';
import { documentRoutes, STOCK_DOCUMENTS } from './documents.ts';
import { sourcePickerRoutes } from './source-pickers.ts';
import { stockQueryRoutes } from './stock-queries.ts';
import { stocktakeReportRoutes } from './stocktake-report.ts';
import { stocktakeSheetRoutes } from './stocktake-sheet.ts';

/** 仓储物流: the four stock documents (入库, 出库, 调拨, 盘点), stock queries, alerts, stocktake sheets. */
export const warehouseArea: ServerArea = {
  name: 'warehouse',
  resources: STOCK_DOCUMENTS,
  routes(app) {
    documentRoutes(app);
    sourcePickerRoutes(app);
    stockQueryRoutes(app);
    alertRoutes(app);
    stocktakeSheetRoutes(app);
    stocktakeReportRoutes(app);
  },
};
