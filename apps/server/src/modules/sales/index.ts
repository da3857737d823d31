import { saleOrderResource, stockUpOrderResource } from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import {
  saleOrderAttachmentOwner,
  saleOrderHooks,
  saleOrderRoutes,
  saleOrderTransitions,
} from './sale-order.ts';
import { saleOrderProgressRoutes } from './sale-order-progress.ts';
import { shippingRoutes } from './shipping.ts';
import { stockUpHooks, stockUpRoutes, stockUpTransitions } from './stock-up.ts';

/**
 * 销售管理: 销售订单 and 备货单 with their lifecycles, an order's 订单执行 figures and documents,
 * 销售仓库 shipping and returns.
 */
export const salesArea: ServerArea = {
  name: 'sales',
  resources: [
    { def: saleOrderResource, hooks: saleOrderHooks, transitions: saleOrderTransitions },
    { def: stockUpOrderResource, hooks: stockUpHooks, transitions: stockUpTransitions },
  ],
  attachments: [saleOrderAttachmentOwner],
  routes(app) {
    saleOrderRoutes(app);
    saleOrderProgressRoutes(app);
    shippingRoutes(app);
    stockUpRoutes(app);
  },
};
