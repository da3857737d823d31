import {
  customClassifyResource,
  customerResource,
  customGradeResource,
  customLabelResource,
  equipmentRepairResource,
  equipmentResource,
  inspectionChecklistResource,
  maintenancePlanResource,
  manufacturingMethodResource,
  materialClassificationResource,
  materialInfoResource,
  materialTemplateResource,
  materialUnitResource,
  processClassifyResource,
  processManageResource,
  processRouteResource,
  productBomResource,
  productGroupResource,
  productionTeamResource,
  type ResourceDef,
  shelfLocationResource,
  supplierClassifyResource,
  supplierResource,
  warehouseManagementResource,
  workshopResource,
} from '@ringmes/domain';
import { type ComponentType, createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import {
  type ResourcePageProps,
  resourcePageLoaders,
  resourceRoutes,
} from '../../platform/resource/routes.ts';

const material = () => import('./material/material-list.page.tsx');
const template = () => import('./material-template/template-pages.tsx');
const bom = () => import('./product-bom/bom-pages.tsx');
const maintenance = () => import('./equipment/maintenance-pages.tsx');
const inspection = () => import('./equipment/inspection-pages.tsx');
const repair = () => import('./equipment/repair-pages.tsx');
const _kitDetail = () => import('../../platform/resource/resource-detail.page.tsx');
const EQUIPMENT = '/factory-info/equipment-manage';

/** A page of a module bound to a resource definition, at a route the kit does not derive (-view). */
function viewPage(def: ResourceDef, load: () => Promise<ComponentType<ResourcePageProps>>): PageLoader {
  return () => load().then((Page) => (props: PageProps) => createElement(Page, { ...props, def }));
}

/**
 * 工厂信息: every master resource with a route gets its list/add/edit/detail screens from the kit
 * (in menu order); modules override the screens that need more. Workshops and production lines
 * live in the factory model tree.
 */
export const FACTORY_PAGES: Record<string, PageLoader> = {
  [resourceRoutes(workshopResource).list]: () =>
    import('./factory-model/factory-model.page.tsx').then((m) => m.FactoryModelPage),
  ...resourcePageLoaders(warehouseManagementResource),
  ...resourcePageLoaders(shelfLocationResource),
  ...resourcePageLoaders(equipmentResource, {
    detail: () => import('./equipment/equipment-detail.page.tsx').then((m) => m.EquipmentDetailPage),
  }),
  // 报修: the kit's list and detail (派工, 开始维修, 维修完成, 确认 from the lifecycle); 查看报修 is the
  // same read-only detail reached from messages and the equipment history.
  ...resourcePageLoaders(equipmentRepairResource, {
    form: () => repair().then((m) => m.RepairReportPage),
    detail: () => repair().then((m) => m.RepairDetailPage),
  }),
  [`${EQUIPMENT}/report-for-repair-view`]: viewPage(equipmentRepairResource, () =>
    repair().then((m) => m.RepairDetailPage),
  ),
  ...resourcePageLoaders(maintenancePlanResource, {
    list: () => maintenance().then((m) => m.MaintenancePlanListPage),
    detail: () => maintenance().then((m) => m.MaintenancePlanDetailPage),
  }),
  [`${EQUIPMENT}/maintenance-view`]: viewPage(maintenancePlanResource, () =>
    maintenance().then((m) => m.MaintenanceRecordsPage),
  ),
  ...resourcePageLoaders(inspectionChecklistResource, {
    detail: () => inspection().then((m) => m.ChecklistDetailPage),
  }),
  [`${EQUIPMENT}/inspection-view`]: viewPage(inspectionChecklistResource, () =>
    inspection().then((m) => m.InspectionRecordsPage),
  ),
  // 设备OEE (issue 42): the board and the report with its drill-down.
  [`${EQUIPMENT}/oee`]: () => import('./equipment/oee.page.tsx').then((m) => m.OeePage),
  ...resourcePageLoaders(productionTeamResource),
  ...resourcePageLoaders(materialInfoResource, {
    list: () => material().then((m) => m.MaterialListPage),
    listOpensOnFirstPage: true,
    form: () => import('./material/material-form.page.tsx').then((m) => m.MaterialFormPage),
  }),
  ...resourcePageLoaders(materialTemplateResource, {
    list: () => template().then((m) => m.TemplateListPage),
    detail: () => template().then((m) => m.TemplateDetailPage),
  }),
  ...resourcePageLoaders(productBomResource, {
    list: () => bom().then((m) => m.BomListPage),
    detail: () => bom().then((m) => m.BomDetailPage),
  }),
  ...resourcePageLoaders(productGroupResource),
  ...resourcePageLoaders(materialUnitResource),
  ...resourcePageLoaders(materialClassificationResource),
  ...resourcePageLoaders(manufacturingMethodResource),
  ...resourcePageLoaders(processRouteResource, {
    list: () => import('./process-route/route-pages.tsx').then((m) => m.RouteListPage),
  }),
  ...resourcePageLoaders(processManageResource),
  ...resourcePageLoaders(processClassifyResource),
  ...resourcePageLoaders(supplierResource),
  ...resourcePageLoaders(supplierClassifyResource),
  ...resourcePageLoaders(customerResource),
  ...resourcePageLoaders(customClassifyResource),
  ...resourcePageLoaders(customGradeResource),
  ...resourcePageLoaders(customLabelResource),
};
