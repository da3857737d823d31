import { saleOrderResource, stockUpOrderResource } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../app/page-registry.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 销售管理: the documents' list/add/edit/detail screens from the kit, lifecycle buttons included. */
export const SALES_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(saleOrderResource),
  ...resourcePageLoaders(stockUpOrderResource),
  '/sale-manage/statisticalStatement/salesReport': () =>
    import('../orders/order-report.page.tsx').then(
      (m) => (props: PageProps) => createElement(m.OrderReportPage, { ...props, spec: m.SALES_REPORT }),
    ),
  '/sale-manage/sales-warehouse': () =>
    import('./sales-warehouse.page.tsx').then((m) => m.SalesWarehousePage),
};
