import { saleOrderResource, stockUpOrderResource } from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import { alsoReadBy } from '../../platform/resource/options.ts';
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
 * The keeper's 销售出库 form names its 销售订单 (the order the 发货 came from): whoever keeps sales
 * outbounds reads the orders' options — number and customer, no prices — without their list.
 */
alsoReadBy(saleOrderResource.name, ['warehouse:salesOutbound:list', 'warehouse:outbound:list']);

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
