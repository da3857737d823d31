import { purchaseRequisitionResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 生产部: 请购单 from the kit (list, add, edit, detail with its lifecycle buttons). */
export const PRODUCTION_PAGES: Record<string, PageLoader> = {
  ...resourcePageLoaders(purchaseRequisitionResource),
};
