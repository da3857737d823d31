import { areaPages } from '../platform/resource/area-pages.ts';

/**
 * Screens built with the resource kit, by menu area. Each area's page table (definitions and
 * overrides, `modules/<area>/<area>-pages.ts`) is a lazy chunk, so the entry carries only the
 * paths; the pages themselves are further chunks.
 */
export const RESOURCE_PAGES = {
  ...areaPages('/sale-manage', () => import('../modules/sales/sales-pages.ts').then((m) => m.SALES_PAGES)),
  ...areaPages('/purchase', () =>
    import('../modules/purchase/purchase-pages.ts').then((m) => m.PURCHASE_PAGES),
  ),
  ...areaPages('/production-department', () =>
    import('../modules/production/production-pages.ts').then((m) => m.PRODUCTION_PAGES),
  ),
  ...areaPages('/technology-dept', () =>
    import('../modules/technology/technology-pages.ts').then((m) => m.TECHNOLOGY_PAGES),
  ),
  ...areaPages('/finance-department', () =>
    import('../modules/finance/finance-pages.ts').then((m) => m.FINANCE_PAGES),
  ),
  ...areaPages('/factory-info', () =>
    import('../modules/factory/factory-pages.ts').then((m) => m.FACTORY_PAGES),
  ),
  ...areaPages('/quality-testing', () =>
    import('../modules/quality/quality-pages.ts').then((m) => m.QUALITY_PAGES),
  ),
  ...areaPages('/workshop-dashboard', () =>
    import('../modules/dashboard/dashboard-pages.ts').then((m) => m.DASHBOARD_PAGES),
  ),
  ...areaPages('/measure-check', () =>
    import('../modules/quality/measure-pages.ts').then((m) => m.MEASURE_PAGES),
  ),
  ...areaPages('/statistics-report', () =>
    import('../modules/quality/measure-pages.ts').then((m) => m.STATISTICS_PAGES),
  ),
};
