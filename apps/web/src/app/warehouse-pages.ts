import { type LazyExoticComponent, lazy } from 'react';
import { areaPages } from '../platform/resource/area-pages.ts';
import { loadModulePage } from './chunks.ts';
import type { PageComponent } from './page-registry.ts';

const table = () => import('../modules/warehouse/warehouse-pages.ts').then((m) => m.WAREHOUSE_PAGES);

/** One page of another area served by the warehouse module (库存预警 under 财务部). */
function single(path: string): Record<string, LazyExoticComponent<PageComponent>> {
  return {
    [path]: lazy(async () => {
      const load = (await table())[path];
      if (load) return { default: await load() };
      return { default: (await loadModulePage()).ModulePage };
    }),
  };
}

/**
 * Screens of 仓储物流 (stock documents, transfers, stocktaking, inventory details, finished goods)
 * and 库存预警. The page table is a lazy chunk; the entry carries only the paths.
 */
export const WAREHOUSE_PAGES = {
  ...areaPages('/warehouse-logistics', table),
  ...single('/finance-department/inventory-alert'),
};
