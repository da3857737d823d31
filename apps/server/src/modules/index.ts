import { RESOURCES } from '@ringmes/domain';
import { attachmentRoutes } from '../platform/attachments/attachments.ts';
import { registerOpenApi } from '../platform/http/openapi.ts';
import type { App } from '../platform/http/route.ts';
import { RELEASE } from '../platform/ops/version.ts';
import { type ResourceHooks, registerResource } from '../platform/resource/crud.ts';
import { registerExcel } from '../platform/resource/excel.ts';
import { downloadRoutes } from './common/download.routes.ts';
import { cockpitRoutes } from './dashboard/cockpit.ts';
import { dashboardRoutes } from './dashboard/dashboard.ts';
import { EQUIPMENT_CARE_HOOKS, repairPhotoOwner } from './equipment/equipment-care.ts';
import { equipmentRoutes } from './equipment/index.ts';
import { bomHooks } from './factory/bom.ts';
import { factoryRoutes } from './factory/index.ts';
import { materialHooks, templateHooks } from './factory/material.ts';
import { FINANCE_HOOKS, financeRoutes } from './finance/receivable.ts';
import { financeReportRoutes } from './finance/reports.ts';
import { processWageHooks, wageRoutes } from './finance/wages.ts';
import { orderReportRoutes } from './orders/report.ts';
import {
  productionOrderHooks,
  productionRoutes,
  workDispatchHooks,
  workReportHooks,
} from './production/index.ts';
import {
  outsourcingOrderHooks,
  purchaseOrderHooks,
  purchaseRoutes,
  requisitionHooks,
} from './purchase/index.ts';
import { QUALITY_HOOKS, qualityRoutes } from './quality/index.ts';
import { measurementHooks, measurementRoutes } from './quality/measurement.ts';
import { measurementImportRoutes } from './quality/measurement-import.ts';
import { ringGeometryRoutes } from './quality/ring-geometry.ts';
import {
  ringStandardOverrideHooks,
  ringStandardRoutes,
  withBearingSizeCheck,
} from './quality/ring-standard.ts';
import { saleOrderAttachmentOwner, saleOrderHooks, salesRoutes, stockUpHooks } from './sales/index.ts';
import { deptRoutes } from './system/dept.routes.ts';
import { menuRoutes } from './system/menu.routes.ts';
import { messageRoutes } from './system/message.routes.ts';
import { outboundRoutes } from './system/outbound.routes.ts';
import { roleRoutes } from './system/role.routes.ts';
import { settingRoutes } from './system/setting.routes.ts';
import { ssoRoutes } from './system/sso.routes.ts';
import { threeAppRoutes } from './system/three-app.routes.ts';
import { userRoutes } from './system/user.routes.ts';
import {
  revisionAttachmentOwner,
  technicalDocumentHooks,
  technicalDocumentRoutes,
} from './technology/technical-document.ts';
import { DOC_HOOKS, warehouseRoutes } from './warehouse/index.ts';

/**
 * Hooks by resource name: the rules of a resource that its declaration cannot say. Each module
 * exports its own; only this composition root knows them all.
 */
const HOOKS: Record<string, ResourceHooks> = {
  'product-bom': bomHooks,
  'material-info': withBearingSizeCheck(materialHooks),
  'material-template': templateHooks,
  ...DOC_HOOKS,
  'sale-order': saleOrderHooks,
  'stock-up-order': stockUpHooks,
  'purchase-order': purchaseOrderHooks,
  'outsourcing-order': outsourcingOrderHooks,
  'purchase-requisition': requisitionHooks,
  'production-order': productionOrderHooks,
  'work-dispatch': workDispatchHooks,
  'work-report': workReportHooks,
  ...EQUIPMENT_CARE_HOOKS,
  'technical-document': technicalDocumentHooks,
  'process-wage': processWageHooks,
  'ring-standard-override': ringStandardOverrideHooks,
  ...FINANCE_HOOKS,
  ...QUALITY_HOOKS,
  'measurement-subgroup': measurementHooks,
};

/** Every module's routes, in menu order. */
export function registerModules(app: App) {
  ssoRoutes(app);
  userRoutes(app);
  deptRoutes(app);
  roleRoutes(app);
  menuRoutes(app);
  messageRoutes(app);
  settingRoutes(app);
  threeAppRoutes(app);
  outboundRoutes(app);
  // The resource kit: every declared resource's CRUD and Excel routes, with its hooks.
  for (const def of RESOURCES) {
    registerResource(app, def, HOOKS[def.name]);
    registerExcel(app, def, HOOKS[def.name]);
  }
  factoryRoutes(app);
  equipmentRoutes(app);
  salesRoutes(app);
  productionRoutes(app);
  technicalDocumentRoutes(app);
  purchaseRoutes(app);
  orderReportRoutes(app);
  warehouseRoutes(app);
  wageRoutes(app);
  financeReportRoutes(app);
  ringStandardRoutes(app);
  financeRoutes(app);
  qualityRoutes(app);
  measurementRoutes(app);
  measurementImportRoutes(app);
  ringGeometryRoutes(app);
  downloadRoutes(app);
  dashboardRoutes(app);
  cockpitRoutes(app);
  // Files of every module's records: one owner per kind of record that carries files.
  attachmentRoutes(app, [revisionAttachmentOwner, repairPhotoOwner, saleOrderAttachmentOwner]);
  // The contract of all the routes above (made when first asked for, so it sees every one).
  registerOpenApi(app, RELEASE.version);
}
