import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { DASHBOARD_PATHS, prefetchDashboard } from './dashboard.api.ts';

/**
 * 车间看板: one page for the five dashboards, told its scope by its path. A screen opened straight
 * on a dashboard asks for its snapshot with the user's menu (`prefetch`).
 */
export const DASHBOARD_PAGES: Record<string, PageLoader> = Object.fromEntries(
  Object.entries(DASHBOARD_PATHS).map(([path, scope]) => {
    const load: PageLoader = () => import('./dashboard.page.tsx').then((m) => m.WorkshopDashboardPage);
    load.prefetch = (client) => prefetchDashboard(client, scope);
    return [path, load];
  }),
);
