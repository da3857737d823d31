import {
  customClassifyResource,
  customerResource,
  customGradeResource,
  customLabelResource,
  equipmentResource,
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
  shelfLocationResource,
  supplierClassifyResource,
  supplierResource,
  warehouseManagementResource,
  workshopResource,
} from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders, resourceRoutes } from '../../platform/resource/routes.ts';

const material = () => import('./material/material-list.page.tsx');
const template = () => import('./material-template/template-pages.tsx');
const bom = () => import('./product-bom/bom-pages.tsx');

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
  ...resourcePageLoaders(equipmentResource),
  ...resourcePageLoaders(productionTeamResource),
  ...resourcePageLoaders(materialInfoResource, {
    list: () => material().then((m) => m.MaterialListPage),
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
