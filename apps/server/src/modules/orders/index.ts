import type { ServerArea } from '../../platform/resource/area.ts';
import { orderReportRoutes } from './report.ts';

/** What sales and purchase orders share: 销售统计报表, 采购明细报表 and their on-time figures. */
export const ordersArea: ServerArea = { name: 'orders', routes: orderReportRoutes };
