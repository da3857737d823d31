import {
  equipmentRepairResource,
  inspectionChecklistResource,
  inspectionRecordResource,
  maintenancePlanResource,
  maintenanceRecordResource,
} from './equipment/equipment-care.resource.ts';
import { processWageResource } from './finance/process-wage.resource.ts';
import {
  payableResource,
  paymentResource,
  receiptResource,
  receivableResource,
} from './finance/receivable.resource.ts';
import { customClassifyResource } from './master-data/custom-classify.resource.ts';
import { customGradeResource } from './master-data/custom-grade.resource.ts';
import { customLabelResource } from './master-data/custom-label.resource.ts';
import { customerResource } from './master-data/customer.resource.ts';
import { equipmentResource } from './master-data/equipment.resource.ts';
import { manufacturingMethodResource } from './master-data/manufacturing-method.resource.ts';
import { materialClassificationResource } from './master-data/material-classification.resource.ts';
import { materialInfoResource } from './master-data/material-info.resource.ts';
import { materialTemplateResource } from './master-data/material-template.resource.ts';
import { materialTypeResource } from './master-data/material-type.resource.ts';
import { materialUnitResource } from './master-data/material-unit.resource.ts';
import { processClassifyResource } from './master-data/process-classify.resource.ts';
import { processManageResource } from './master-data/process-manage.resource.ts';
import { processRouteResource } from './master-data/process-route.resource.ts';
import { productBomResource } from './master-data/product-bom.resource.ts';
import { productGroupResource } from './master-data/product-group.resource.ts';
import { productionLineResource } from './master-data/production-line.resource.ts';
import { productionTeamResource } from './master-data/production-team.resource.ts';
import { shelfLocationResource } from './master-data/shelf-location.resource.ts';
import { supplierResource } from './master-data/supplier.resource.ts';
import { supplierClassifyResource } from './master-data/supplier-classify.resource.ts';
import { sysenumResource } from './master-data/sysenum.resource.ts';
import { warehouseManagementResource } from './master-data/warehouse-management.resource.ts';
import { workshopResource } from './master-data/workshop.resource.ts';
import { flowCardResource } from './production/flow-card.resource.ts';
import { productionOrderResource } from './production/production-order.resource.ts';
import { workReportResource } from './production/work-report.resource.ts';
import { workDispatchResource, workshopTaskResource } from './production/workshop-task.resource.ts';
import { outsourcingOrderResource } from './purchase/outsourcing-order.resource.ts';
import { purchaseOrderResource } from './purchase/purchase-order.resource.ts';
import { purchaseRequisitionResource } from './purchase/purchase-requisition.resource.ts';
import {
  inspectionItemResource,
  inspectionTaskResource,
  inspectionTemplateResource,
} from './quality/inspection.resource.ts';
import { measurementSubgroupResource } from './quality/measurement.resource.ts';
import { patrolScheduleResource } from './quality/patrol-schedule.resource.ts';
import { ringStandardOverrideResource } from './quality/ring-standard-override.resource.ts';
import type { ResourceDef } from './resource/types.ts';
import { saleOrderResource } from './sales/sale-order.resource.ts';
import { stockUpOrderResource } from './sales/stock-up-order.resource.ts';
import { technicalDocumentResource } from './technology/technical-document.resource.ts';
import {
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
} from './warehouse/stock-docs.resource.ts';

/**
 * Every resource of the application, in menu order: the whole application map in one place.
 * References (`ref`) name resources by their `name` here; `'user'` means app_user.
 */
export const RESOURCES: ResourceDef[] = [
  // 销售管理
  saleOrderResource,
  stockUpOrderResource,
  // 生产部 › 请购单
  purchaseRequisitionResource,
  // 生产部 › 生产管理
  productionOrderResource,
  workshopTaskResource,
  workDispatchResource,
  workReportResource,
  flowCardResource,
  // 技术部
  technicalDocumentResource,
  // 质量检测
  inspectionItemResource,
  inspectionTemplateResource,
  inspectionTaskResource,
  // 计量检定
  measurementSubgroupResource,
  // 采购管理
  purchaseOrderResource,
  outsourcingOrderResource,
  // 财务部
  receivableResource,
  receiptResource,
  payableResource,
  paymentResource,
  // 工厂信息 › 工厂建模
  workshopResource,
  productionLineResource,
  // 仓库建模
  warehouseManagementResource,
  shelfLocationResource,
  // 设备管理
  equipmentResource,
  equipmentRepairResource,
  maintenancePlanResource,
  maintenanceRecordResource,
  inspectionChecklistResource,
  inspectionRecordResource,
  // 生产班组
  productionTeamResource,
  // 物料管理
  materialInfoResource,
  materialTypeResource,
  materialTemplateResource,
  productBomResource,
  productGroupResource,
  materialUnitResource,
  materialClassificationResource,
  manufacturingMethodResource,
  // 工艺管理
  processRouteResource,
  processManageResource,
  processClassifyResource,
  // 供应商
  supplierResource,
  supplierClassifyResource,
  // 客户
  customerResource,
  customClassifyResource,
  customGradeResource,
  customLabelResource,
  // 仓储物流
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
  // 质量检测 › 轴承套圈标准
  ringStandardOverrideResource,
  // 质量检测 › 过程检验
  patrolScheduleResource,
  // 系统管理
  sysenumResource,
  // 财务部
  processWageResource,
];

const BY_NAME = new Map(RESOURCES.map((def) => [def.name, def]));

/** The resource registered under this API name, or undefined. */
export function resourceByName(name: string): ResourceDef | undefined {
  return BY_NAME.get(name);
}
