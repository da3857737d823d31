import { payableResource, processWageResource, receivableResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import { FINANCE_REPORT_PAGES } from './finance-report-pages.ts';

/** 工序工资: the monthly wage sheet and the rates list on one page; the kit's add/edit forms of a rate. */
const WAGE_PAGES: Record<string, PageLoader> = resourcePageLoaders(processWageResource, {
  list: () => import('./wages/process-wage.page.tsx').then((m) => m.ProcessWagePage),
});

const ALERT = '/finance-department/inventory-alert';

/**
 * 财务部: 应收管理 and 应付管理 — the kit's form and detail of the items; their list page adds
 * 收款 / 付款, the receipts or payments, the aging and the statement — the reports, 工序工资, and
 * 库存预警 (the warehouse module's page).
 */
export const FINANCE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(receivableResource, {
    list: () => import('./ledger.page.tsx').then((m) => m.ReceivableListPage),
  }),
  ...resourcePageLoaders(payableResource, {
    list: () => import('./ledger.page.tsx').then((m) => m.PayableListPage),
  }),
  ...FINANCE_REPORT_PAGES,
  ...WAGE_PAGES,
  [ALERT]: () => import('../warehouse/warehouse-pages.ts').then((m) => m.WAREHOUSE_PAGES[ALERT]()),
};
