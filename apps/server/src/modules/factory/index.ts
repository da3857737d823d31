import { RESOURCES } from '@ringmes/domain';
import type { App } from '../../app.ts';
import { type ResourceHooks, registerResource } from '../../platform/resource/crud.ts';
import { registerExcel } from '../../platform/resource/excel.ts';
import { productionOrderHooks, workDispatchHooks, workReportHooks } from '../production/index.ts';
import { outsourcingOrderHooks, purchaseOrderHooks, requisitionHooks } from '../purchase/index.ts';
import { saleOrderHooks, stockUpHooks } from '../sales/index.ts';
import { technicalDocumentHooks } from '../technology/technical-document.ts';
import { DOC_HOOKS } from '../warehouse/index.ts';
import { bomHooks, bomRoutes } from './bom.ts';
import { EQUIPMENT_CARE_HOOKS, equipmentCareRoutes } from './equipment-care.ts';
import { materialHooks, materialRoutes, templateHooks } from './material.ts';

/** Hooks by resource name: the rules of a resource that its declaration cannot say. */
const HOOKS: Record<string, ResourceHooks> = {
  'product-bom': bomHooks,
  'material-info': materialHooks,
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
};

export function factoryRoutes(app: App) {
  for (const def of RESOURCES) {
    registerResource(app, def, HOOKS[def.name]);
    registerExcel(app, def, HOOKS[def.name]);
  }
  bomRoutes(app);
  materialRoutes(app);
  equipmentCareRoutes(app);
}
