import {
  flowCardResource,
  productionOrderResource,
  workDispatchResource,
  workReportResource,
  workshopTaskResource,
} from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import { autoScheduleRoutes } from './auto-schedule.ts';
import { flowCardRoutes, flowCardTransitions } from './flow-card.ts';
import './issue.ts';
import { planRoutes } from './plan.ts';
import { produceOutsourcingRoutes } from './produce-outsourcing.ts';
import { productCostRoutes } from './product-cost.ts';
import {
  productionOrderHooks,
  productionOrderRoutes,
  productionOrderTransitions,
} from './production-order.ts';
import { productionOrderDispatchRoutes } from './production-order-dispatch.ts';
import { productionReportRoutes } from './production-reports.ts';
import { requirementRoutes } from './requirements.ts';
import { subOrderRoutes } from './sub-orders.ts';
import { traceRoutes } from './trace.ts';
import { workReportHooks, workReportRoutes, workReportTransitions } from './work-report.ts';
import {
  workDispatchHooks,
  workDispatchTransitions,
  workshopTaskRoutes,
  workshopTaskTransitions,
} from './workshop-task.ts';

/**
 * 生产部: production orders' transitions, 从销售订单生成, requirements and 生成请购单 (领料 is the
 * warehouse's); 派单 into workshop tasks; 派工 and the dispatches' lifecycle; boards, queues and 排产计划.
 */
export const productionArea: ServerArea = {
  name: 'production',
  resources: [
    { def: productionOrderResource, hooks: productionOrderHooks, transitions: productionOrderTransitions },
    { def: workshopTaskResource, transitions: workshopTaskTransitions },
    { def: workDispatchResource, hooks: workDispatchHooks, transitions: workDispatchTransitions },
    { def: workReportResource, hooks: workReportHooks, transitions: workReportTransitions },
    { def: flowCardResource, transitions: flowCardTransitions },
  ],
  routes(app) {
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
  },
};
