import { saleOrderResource, stockUpOrderResource } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

const saleOrder = () => import('./sale-order-detail.page.tsx');

/**
 * 销售管理: the documents' list/add/edit/detail screens from the kit, lifecycle buttons included;
 * the sales order's detail adds 订单执行, 关联单据 and 附件, its edit form 附件; the 备货单's detail
 * 生成生产订单 and 生产进度.
 */
export const SALES_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(saleOrderResource, {
    form: () => saleOrder().then((m) => m.SaleOrderFormPage),
    detail: () => saleOrder().then((m) => m.SaleOrderDetailPage),
  }),
  ...resourcePageLoaders(stockUpOrderResource, {
    detail: () => import('./stock-up-detail.page.tsx').then((m) => m.StockUpDetailPage),
  }),
  '/sale-manage/statisticalStatement/salesReport': () =>
    import('../orders/order-report.page.tsx').then(
      (m) => (props: PageProps) => createElement(m.OrderReportPage, { ...props, spec: m.SALES_REPORT }),
    ),
  '/sale-manage/sales-warehouse': () =>
    import('./sales-warehouse.page.tsx').then((m) => m.SalesWarehousePage),
};
