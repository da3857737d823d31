import { areaPages, tablePages } from '../platform/resource/area-pages.ts';

const table = () => import('../modules/warehouse/warehouse-pages.ts').then((m) => m.WAREHOUSE_PAGES);

/**
 * Screens of 仓储物流 (stock documents, transfers, stocktaking, inventory details, finished goods)
 * and 库存预警 (under 财务部). The page table is a lazy chunk; the entry carries only the paths.
 */
export const WAREHOUSE_PAGES = {
  ...areaPages('/warehouse-logistics', table),
  ...tablePages(['/finance-department/inventory-alert'], table),
};
