import { purchaseOrderResource } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../app/page-registry.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 采购管理: the purchase order's screens from the kit (its list adds 从请购单生成), lifecycle buttons included. */
export const PURCHASE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseOrderResource, {
    list: () => import('./purchase-order-list.page.tsx').then((m) => m.PurchaseOrderListPage),
  }),
  '/purchase/purchase-manage/statisticalStatement/purchaseReport': () =>
    import('../orders/order-report.page.tsx').then(
      (m) => (props: PageProps) => createElement(m.OrderReportPage, { ...props, spec: m.PURCHASE_REPORT }),
    ),
  '/purchase/purchase-manage-detail': () =>
    import('./purchase-tracking.page.tsx').then((m) => m.PurchaseTrackingPage),
};
