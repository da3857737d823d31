import type { App } from '../../platform/http/route.ts';
import { saleOrderRoutes } from './sale-order.ts';
import { saleOrderProgressRoutes } from './sale-order-progress.ts';
import { shippingRoutes } from './shipping.ts';
import { stockUpRoutes } from './stock-up.ts';

export { saleOrderAttachmentOwner, saleOrderHooks } from './sale-order.ts';
export { stockUpHooks } from './stock-up.ts';

/**
 * 销售管理: the routes beyond the resource kit's (lifecycle transitions of 销售订单 and 备货单, an
 * order's 订单执行 figures and documents, 销售仓库 shipping and returns).
 */
export function salesRoutes(app: App) {
  saleOrderRoutes(app);
  saleOrderProgressRoutes(app);
  shippingRoutes(app);
  stockUpRoutes(app);
}
