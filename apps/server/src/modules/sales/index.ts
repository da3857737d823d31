import type { App } from '../../app.ts';
import { saleOrderRoutes } from './sale-order.ts';
import { shippingRoutes } from './shipping.ts';

export { saleOrderHooks } from './sale-order.ts';

/** 销售管理: the routes beyond the resource kit's (lifecycle transitions, 销售仓库 shipping and returns). */
export function salesRoutes(app: App) {
  saleOrderRoutes(app);
  shippingRoutes(app);
}
