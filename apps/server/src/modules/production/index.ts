import type { App } from '../../platform/http/route.ts';
import { autoScheduleRoutes } from './auto-schedule.ts';
import { flowCardRoutes } from './flow-card.ts';
import './issue.ts';
import { planRoutes } from './plan.ts';
import { produceOutsourcingRoutes } from './produce-outsourcing.ts';
import { productCostRoutes } from './product-cost.ts';
import { productionOrderRoutes } from './production-order.ts';
import { productionOrderDispatchRoutes } from './production-order-dispatch.ts';
import { productionReportRoutes } from './production-reports.ts';
import { requirementRoutes } from './requirements.ts';
import { subOrderRoutes } from './sub-orders.ts';
import { traceRoutes } from './trace.ts';
import { workReportRoutes } from './work-report.ts';
import { workshopTaskRoutes } from './workshop-task.ts';

export { assertNoProductionOrders, productionOrderHooks } from './production-order.ts';
export { workReportHooks } from './work-report.ts';
export { workDispatchHooks } from './workshop-task.ts';

/**
 * 生产部: production orders' transitions, 从销售订单生成, requirements and 生成请购单 (领料 is the
 * warehouse's); 派单 into workshop tasks; 派工 and the dispatches' lifecycle; boards, queues and 排产计划.
 */
export function productionRoutes(app: App) {
  productionOrderRoutes(app);
  requirementRoutes(app);
  productionOrderDispatchRoutes(app);
  subOrderRoutes(app);
  workshopTaskRoutes(app);
  workReportRoutes(app);
  planRoutes(app);
  autoScheduleRoutes(app);
  flowCardRoutes(app);
  traceRoutes(app);
  productionReportRoutes(app);
  produceOutsourcingRoutes(app);
  productCostRoutes(app);
}
