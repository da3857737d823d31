import { purchaseOrderResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 采购管理: the purchase order's screens from the kit (its list adds 从请购单生成), lifecycle buttons included. */
export const PURCHASE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseOrderResource, {
    list: () => import('./purchase-order-list.page.tsx').then((m) => m.PurchaseOrderListPage),
  }),
  '/purchase/purchase-manage-detail': () =>
    import('./purchase-tracking.page.tsx').then((m) => m.PurchaseTrackingPage),
};
