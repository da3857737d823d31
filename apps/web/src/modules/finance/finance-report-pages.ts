import { FINANCE_REPORTS } from '@ringmes/domain';
import { createElement } from 'react';
import type { PageProps } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';

/** 财务部 reports: one page, bound to each report's declaration. */
export const FINANCE_REPORT_PAGES: Record<string, PageLoader> = Object.fromEntries(
  FINANCE_REPORTS.map((def) => [
    def.route,
    () =>
      import('./reports/finance-report.page.tsx').then(
        (m) => (props: PageProps) => createElement(m.FinanceReportPage, { ...props, def }),
      ),
  ]),
);
