import { purchaseOrderResource } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../app/page-registry.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import { PURCHASE_RETURN, typePaths } from '../warehouse/warehouse.api.ts';

/** 采购管理: the purchase order's screens from the kit (its list adds 从请购单生成), lifecycle buttons included. */
/** 采购退货: the 采购退货出库 pages of the warehouse, under 采购管理 with the buyer's permissions. */
function purchaseReturnPages(): Record<string, PageLoader> {
  const docs = () => import('../warehouse/stock-doc.pages.tsx');
  const p = typePaths(PURCHASE_RETURN, 'purchase-return');
  return {
    [p.list]: () => docs().then((m) => m.StockDocListPage),
    [p.add]: () => docs().then((m) => m.StockDocFormPage),
    [p.edit]: () => docs().then((m) => m.StockDocFormPage),
    [p.detail]: () => docs().then((m) => m.StockDocDetailPage),
  };
}

export const PURCHASE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseOrderResource, {
    list: () => import('./purchase-order-list.page.tsx').then((m) => m.PurchaseOrderListPage),
  }),
  '/purchase/purchase-manage/statisticalStatement/purchaseReport': () =>
    import('../orders/order-report.page.tsx').then(
      (m) => (props: PageProps) => createElement(m.OrderReportPage, { ...props, spec: m.PURCHASE_REPORT }),
    ),
  ...purchaseReturnPages(),
  '/purchase/purchase-manage-detail': () =>
    import('./purchase-tracking.page.tsx').then((m) => m.PurchaseTrackingPage),
};
