import { outsourcingOrderResource, purchaseOrderResource } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import { type DocKind, OUTSOURCING_RETURN, PURCHASE_RETURN } from '../warehouse/warehouse.api.ts';
import { typedPages } from '../warehouse/warehouse-pages.ts';

/** 采购退货 / 委外退货: the warehouse's pages of one outbound type, under 采购管理 with the buyer's permissions. */
const returnPages = (kind: DocKind) => typedPages(kind, () => import('../warehouse/outbound.pages.tsx'));

/** 采购管理: the purchase order's screens from the kit (its list adds 从请购单生成), lifecycle buttons included. */
export const PURCHASE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseOrderResource, {
    list: () => import('./purchase-order-list.page.tsx').then((m) => m.PurchaseOrderListPage),
  }),
  '/purchase/purchase-manage/statisticalStatement/purchaseReport': () =>
    import('../orders/order-report.page.tsx').then(
      (m) => (props: PageProps) => createElement(m.OrderReportPage, { ...props, spec: m.PURCHASE_REPORT }),
    ),
  ...returnPages(PURCHASE_RETURN),
  // 委外订单: the kit's list and form; its -info detail adds 发料/收货/退货 and the document trail.
  ...resourcePageLoaders(outsourcingOrderResource, {
    detail: () => import('./outsourcing-detail.page.tsx').then((m) => m.OutsourcingDetailPage),
  }),
  ...returnPages(OUTSOURCING_RETURN),
  '/purchase/purchase-manage-detail': () =>
    import('./purchase-tracking.page.tsx').then((m) => m.PurchaseTrackingPage),
};
