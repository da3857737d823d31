import {
  outsourcingOrderResource,
  purchaseOrderResource,
  purchaseRequisitionResource,
} from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import {
  outsourcingOrderHooks,
  outsourcingOrderRoutes,
  outsourcingOrderTransitions,
} from './outsourcing-order.ts';
import { purchaseOrderHooks, purchaseOrderTransitions } from './purchase-order.ts';
import { requisitionHooks, requisitionRoutes, requisitionTransitions } from './requisition.ts';
import { trackingRoutes } from './tracking.ts';

/** 采购管理: 请购单, 采购订单 and 委外订单 with their lifecycles, and 采购跟踪; receiving is the warehouse's. */
export const purchaseArea: ServerArea = {
  name: 'purchase',
  resources: [
    { def: purchaseOrderResource, hooks: purchaseOrderHooks, transitions: purchaseOrderTransitions },
    { def: outsourcingOrderResource, hooks: outsourcingOrderHooks, transitions: outsourcingOrderTransitions },
    { def: purchaseRequisitionResource, hooks: requisitionHooks, transitions: requisitionTransitions },
  ],
  routes(app) {
    outsourcingOrderRoutes(app);
    requisitionRoutes(app);
    trackingRoutes(app);
  },
};
