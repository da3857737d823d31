import { RESOURCES } from '@ringmes/domain';
import type { App } from '../../platform/http/route.ts';
import { type ResourceHooks, registerResource } from '../../platform/resource/crud.ts';
import { registerExcel } from '../../platform/resource/excel.ts';
import { FINANCE_HOOKS } from '../finance/receivable.ts';
import { processWageHooks } from '../finance/wages.ts';
import { productionOrderHooks, workDispatchHooks, workReportHooks } from '../production/index.ts';
import { outsourcingOrderHooks, purchaseOrderHooks, requisitionHooks } from '../purchase/index.ts';
import { QUALITY_HOOKS } from '../quality/index.ts';
import { measurementHooks } from '../quality/measurement.ts';
import { ringStandardOverrideHooks, withBearingSizeCheck } from '../quality/ring-standard.ts';
import { saleOrderHooks, stockUpHooks } from '../sales/index.ts';
import { technicalDocumentHooks } from '../technology/technical-document.ts';
import { DOC_HOOKS } from '../warehouse/index.ts';
import { bomHooks, bomRoutes } from './bom.ts';
import { equipmentAlertRoutes } from './equipment-alerts.ts';
import { EQUIPMENT_CARE_HOOKS, equipmentCareRoutes } from './equipment-care.ts';
import { materialHooks, materialRoutes, templateHooks } from './material.ts';

/** Hooks by resource name: the rules of a resource that its declaration cannot say. */
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

export function factoryRoutes(app: App) {
  for (const def of RESOURCES) {
    registerResource(app, def, HOOKS[def.name]);
    registerExcel(app, def, HOOKS[def.name]);
  }
  bomRoutes(app);
  materialRoutes(app);
  equipmentCareRoutes(app);
  equipmentAlertRoutes(app);
}
