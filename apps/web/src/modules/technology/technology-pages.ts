import { technicalDocumentResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';

/** 技术部: the kit's list and form of 技术文档; its detail adds the revisions with their files. */
export const TECHNOLOGY_PAGES: Record<string, PageLoader> = resourcePageLoaders(technicalDocumentResource, {
  detail: () => import('./technical-document-detail.page.tsx').then((m) => m.TechnicalDocumentDetailPage),
});
