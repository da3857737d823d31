import { purchaseOrderResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 采购管理: the purchase order's list/add/edit/detail screens from the kit, lifecycle buttons included. */
export const PURCHASE_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseOrderResource),
};
