import { materialInfoResource, materialTemplateResource, productBomResource } from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import { bomHooks, bomRoutes } from './bom.ts';
import { materialInfoHooks, materialRoutes, templateHooks } from './material.ts';

/** 工厂信息: materials (with their templates and unit conversions) and bills of materials. */
export const factoryArea: ServerArea = {
  name: 'factory',
  resources: [
    { def: productBomResource, hooks: bomHooks },
    { def: materialInfoResource, hooks: materialInfoHooks },
    { def: materialTemplateResource, hooks: templateHooks },
  ],
  routes(app) {
    bomRoutes(app);
    materialRoutes(app);
  },
};
