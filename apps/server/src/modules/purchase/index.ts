import type { App } from '../../platform/http/route.ts';
import { outsourcingOrderRoutes } from './outsourcing-order.ts';
import { purchaseOrderRoutes } from './purchase-order.ts';
import { requisitionRoutes } from './requisition.ts';
import { trackingRoutes } from './tracking.ts';

export { outsourcingOrderHooks } from './outsourcing-order.ts';
export { purchaseOrderHooks } from './purchase-order.ts';
export { requisitionHooks } from './requisition.ts';

/** 采购管理: the routes beyond the resource kit's (lifecycle transitions); receiving is the warehouse's. */
export function purchaseRoutes(app: App) {
  purchaseOrderRoutes(app);
  outsourcingOrderRoutes(app);
  requisitionRoutes(app);
  trackingRoutes(app);
}
