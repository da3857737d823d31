import {
  PRODUCTION_REPORT_BASE,
  PRODUCTION_REPORTS,
  productionOrderResource,
  purchaseRequisitionResource,
  workReportResource,
} from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import { workshopPages } from './workshop/workshop-pages.ts';

/**
 * 生产部: 请购单 from the kit (list, add, edit, detail with its lifecycle buttons); 生产订单 from the
 * kit with 从销售订单生成 on its list and the material requirements (生成请购单) on its detail;
 * 派单; the four workshops' screens (one set of pages parameterised by the workshop).
 */
export const PRODUCTION_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseRequisitionResource),
  ...resourcePageLoaders(productionOrderResource, {
    list: () => import('./production-order-list.page.tsx').then((m) => m.ProductionOrderListPage),
    detail: () => import('./production-order-detail.page.tsx').then((m) => m.ProductionOrderDetailPage),
  }),
  '/production-department/production-manage/produce-order-dispatch': () =>
    import('./order-dispatch.page.tsx').then((m) => m.ProductionOrderDispatchPage),
  // 物料需求计划: the plan (menu) and one order's sheet (from the order).
  '/production-department/mrp': () => import('./mrp.page.tsx').then((m) => m.MrpPlanPage),
  '/production-department/production-manage/produce-order-mrp': () =>
    import('./mrp.page.tsx').then((m) => m.MrpOrderPage),
  ...resourcePageLoaders(workReportResource),
  '/production-department/produce-outsourcing': () =>
    import('./produce-outsourcing.page.tsx').then((m) => m.ProduceOutsourcingPage),
  '/production-department/produce-outsourcing/info': () =>
    import('./produce-outsourcing-info.page.tsx').then((m) => m.ProduceOutsourcingInfoPage),
  ...workshopPages(),
  // 统计报表: the eight production reports, one page drawn from each report's declaration.
  ...Object.fromEntries(
    PRODUCTION_REPORTS.map((def) => [
      `${PRODUCTION_REPORT_BASE}/${def.name}`,
      () =>
        import('./reports/production-report.page.tsx').then(
          (m) => (props: PageProps) => createElement(m.ProductionReportPage, { ...props, def }),
        ),
    ]),
  ),
};
