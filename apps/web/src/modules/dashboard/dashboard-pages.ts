import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { DASHBOARD_PATHS } from './dashboard.api.ts';

/** 车间看板: one page for the five dashboards, told its scope by its path. */
export const DASHBOARD_PAGES: Record<string, PageLoader> = Object.fromEntries(
  Object.keys(DASHBOARD_PATHS).map((path) => [
    path,
    () => import('./dashboard.page.tsx').then((m) => m.WorkshopDashboardPage),
  ]),
);
