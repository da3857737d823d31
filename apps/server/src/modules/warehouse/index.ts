import type { App } from '../../platform/http/route.ts';
import { alertRoutes } from './alert.ts';
import { documentRoutes } from './documents.ts';
import { sourcePickerRoutes } from './source-pickers.ts';
import { stockQueryRoutes } from './stock-queries.ts';
import { stocktakeReportRoutes } from './stocktake-report.ts';
import { stocktakeSheetRoutes } from './stocktake-sheet.ts';

export { DOC_HOOKS } from './documents.ts';

export function warehouseRoutes(app: App) {
  documentRoutes(app);
  sourcePickerRoutes(app);
  stockQueryRoutes(app);
  alertRoutes(app);
  stocktakeSheetRoutes(app);
  stocktakeReportRoutes(app);
}
