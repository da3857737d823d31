import { processWageResource } from '@ringmes/domain';
import type { ServerArea } from '../../platform/resource/area.ts';
import { financeRoutes, RECEIVABLES } from './receivable.ts';
import { financeReportRoutes } from './reports.ts';
import { processWageHooks, wageRoutes } from './wages.ts';

/** 财务部: 应收/应付 with 收款/付款 and 账龄, 工序工资 and 计件工资, the finance reports. */
export const financeArea: ServerArea = {
  name: 'finance',
  resources: [...RECEIVABLES, { def: processWageResource, hooks: processWageHooks }],
  routes(app) {
    wageRoutes(app);
    financeReportRoutes(app);
    financeRoutes(app);
  },
};
