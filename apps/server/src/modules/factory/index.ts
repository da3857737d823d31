import type { App } from '../../platform/http/route.ts';
import { bomRoutes } from './bom.ts';
import { materialRoutes } from './material.ts';

export function factoryRoutes(app: App) {
  bomRoutes(app);
  materialRoutes(app);
}
