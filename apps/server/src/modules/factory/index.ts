import type { App } from '../../platform/http/route.ts';
import { bomRoutes } from './bom.ts';
import { equipmentAlertRoutes } from './equipment-alerts.ts';
import { equipmentCareRoutes } from './equipment-care.ts';
import { materialRoutes } from './material.ts';

export function factoryRoutes(app: App) {
  bomRoutes(app);
  materialRoutes(app);
  equipmentCareRoutes(app);
  equipmentAlertRoutes(app);
}
