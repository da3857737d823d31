import { PAYABLE_SIDE, RECEIVABLE_SIDE, RESOURCES, STOCK_DOC_PREFIX } from '@ringmes/domain';
import { attachmentRoutes } from '../platform/attachments/attachments.ts';
import type { App } from '../platform/http/route.ts';
import { type ResourceHooks, registerResource } from '../platform/resource/crud.ts';
import { registerExcel } from '../platform/resource/excel.ts';
import { downloadRoutes } from './common/download.routes.ts';
import { cockpitRoutes } from './dashboard/cockpit.ts';
import { dashboardRoutes } from './dashboard/dashboard.ts';
import {
  CHECK_PREFIX,
  EQUIPMENT_CARE_HOOKS,
  MAINTENANCE_PREFIX,
  REPAIR_PREFIX,
  repairPhotoOwner,
} from './equipment/equipment-care.ts';
import { equipmentRoutes } from './equipment/index.ts';
import { bomHooks } from './factory/bom.ts';
import { factoryRoutes } from './factory/index.ts';
import { materialHooks, templateHooks } from './factory/material.ts';
import { FINANCE_HOOKS, financeRoutes } from './finance/receivable.ts';
import { financeReportRoutes } from './finance/reports.ts';
import { processWageHooks, wageRoutes } from './finance/wages.ts';
import { orderReportRoutes } from './orders/report.ts';
import { FLOW_CARD_PREFIX } from './production/flow-card.ts';
import {
  productionOrderHooks,
  productionRoutes,
  workDispatchHooks,
  workReportHooks,
} from './production/index.ts';
import { PRODUCTION_ORDER_PREFIX } from './production/production-order.ts';
import { WORK_REPORT_PREFIX } from './production/work-report.ts';
import { DISPATCH_PREFIX } from './production/workshop-task.ts';
import {
  outsourcingOrderHooks,
  purchaseOrderHooks,
  purchaseRoutes,
  requisitionHooks,
} from './purchase/index.ts';
import { OUTSOURCING_ORDER_PREFIX } from './purchase/outsourcing-order.ts';
import { PURCHASE_ORDER_PREFIX } from './purchase/purchase-order.ts';
import { REQUISITION_PREFIX } from './purchase/requisition.ts';
import { QUALITY_HOOKS, qualityRoutes } from './quality/index.ts';
import { INSPECTION_PREFIX } from './quality/inspection.ts';
import { measurementHooks, measurementRoutes } from './quality/measurement.ts';
import { measurementImportRoutes } from './quality/measurement-import.ts';
import {
  ringStandardOverrideHooks,
  ringStandardRoutes,
  withBearingSizeCheck,
} from './quality/ring-standard.ts';
import { saleOrderAttachmentOwner, saleOrderHooks, salesRoutes, stockUpHooks } from './sales/index.ts';
import { SALE_ORDER_PREFIX } from './sales/sale-order.ts';
import { STOCK_UP_PREFIX } from './sales/stock-up.ts';
import { deptRoutes } from './system/dept.routes.ts';
import { type DocType, registerDocTypes } from './system/doc-numbering.ts';
import { menuRoutes } from './system/menu.routes.ts';
import { messageRoutes } from './system/message.routes.ts';
import { roleRoutes } from './system/role.routes.ts';
import { settingRoutes } from './system/setting.routes.ts';
import { ssoRoutes } from './system/sso.routes.ts';
import { threeAppRoutes } from './system/three-app.routes.ts';
import { userRoutes } from './system/user.routes.ts';
import {
  DOCUMENT_PREFIX,
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

/** Every numbered document type, in the order 单据编号 lists them (`system/doc-numbering.ts`). */
const DOC_TYPES: DocType[] = [
  { docType: '销售订单', defaultPrefix: SALE_ORDER_PREFIX },
  { docType: '备货单', defaultPrefix: STOCK_UP_PREFIX },
  { docType: '生产订单', defaultPrefix: PRODUCTION_ORDER_PREFIX },
  { docType: '派工单', defaultPrefix: DISPATCH_PREFIX },
  { docType: '流转卡', defaultPrefix: FLOW_CARD_PREFIX },
  { docType: '报工单', defaultPrefix: WORK_REPORT_PREFIX },
  { docType: '请购单', defaultPrefix: REQUISITION_PREFIX },
  { docType: '采购订单', defaultPrefix: PURCHASE_ORDER_PREFIX },
  { docType: '委外订单', defaultPrefix: OUTSOURCING_ORDER_PREFIX },
  { docType: '入库单', defaultPrefix: STOCK_DOC_PREFIX['stock-inbound'] },
  { docType: '出库单', defaultPrefix: STOCK_DOC_PREFIX['stock-outbound'] },
  { docType: '调拨单', defaultPrefix: STOCK_DOC_PREFIX['stock-transfer'] },
  { docType: '盘点单', defaultPrefix: STOCK_DOC_PREFIX.stocktake },
  { docType: '检验单', defaultPrefix: INSPECTION_PREFIX },
  { docType: '技术文档', defaultPrefix: DOCUMENT_PREFIX },
  { docType: '报修单', defaultPrefix: REPAIR_PREFIX },
  { docType: '保养记录', defaultPrefix: MAINTENANCE_PREFIX },
  { docType: '点检记录', defaultPrefix: CHECK_PREFIX },
  { docType: RECEIVABLE_SIDE.item.label, defaultPrefix: RECEIVABLE_SIDE.item.prefix },
  { docType: RECEIVABLE_SIDE.settle.label, defaultPrefix: RECEIVABLE_SIDE.settle.prefix },
  { docType: RECEIVABLE_SIDE.settle.refund.label, defaultPrefix: RECEIVABLE_SIDE.settle.refund.prefix },
  { docType: PAYABLE_SIDE.item.label, defaultPrefix: PAYABLE_SIDE.item.prefix },
  { docType: PAYABLE_SIDE.settle.label, defaultPrefix: PAYABLE_SIDE.settle.prefix },
  { docType: PAYABLE_SIDE.settle.refund.label, defaultPrefix: PAYABLE_SIDE.settle.refund.prefix },
];

/** Every module's routes, in menu order. */
export function registerModules(app: App) {
  registerDocTypes(DOC_TYPES);
  ssoRoutes(app);
  userRoutes(app);
  deptRoutes(app);
  roleRoutes(app);
  menuRoutes(app);
  messageRoutes(app);
  settingRoutes(app);
  threeAppRoutes(app);
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
  downloadRoutes(app);
  dashboardRoutes(app);
  cockpitRoutes(app);
  // Files of every module's records: one owner per kind of record that carries files.
  attachmentRoutes(app, [revisionAttachmentOwner, repairPhotoOwner, saleOrderAttachmentOwner]);
}
