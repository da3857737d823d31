import type { App } from '../../app.ts';
import { flowCardRoutes } from './flow-card.ts';
import './issue.ts';
import { productionOrderRoutes } from './production-order.ts';
import { requirementRoutes } from './requirements.ts';

export { assertNoProductionOrders, productionOrderHooks } from './production-order.ts';

/** 生产部: production orders' transitions, 从销售订单生成, requirements and 生成请购单; 领料 is the warehouse's. */
export function productionRoutes(app: App) {
  productionOrderRoutes(app);
  requirementRoutes(app);
  flowCardRoutes(app);
}
