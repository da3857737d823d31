import type { ServerArea } from '../../platform/resource/area.ts';
import { cockpitRoutes } from './cockpit.ts';
import { dashboardRoutes } from './dashboard.ts';

/** The live dashboards and the 首页 cockpit, over every module's figures. */
export const dashboardArea: ServerArea = {
  name: 'dashboard',
  routes(app) {
    dashboardRoutes(app);
    cockpitRoutes(app);
  },
};
