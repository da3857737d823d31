import { INSPECTION_CATEGORIES, inspectionPaths } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { STANDARD_PAGES } from './standard-pages.ts';

const tasks = () => import('./inspection-task.pages.tsx');

/**
 * 质量检测: 检验项目 (with its 检验模板 tab), one set of inspection-task pages for every category
 * (four workshops × 来料/报工, 过程检验, 出货检验), each told its category by its path, and the
 * 轴承套圈标准 pages, and 质量追溯 (a heat forward, a card or a shipped batch back).
 */
export const QUALITY_PAGES: Record<string, PageLoader> = {
  ...STANDARD_PAGES,
  '/quality-testing/inspection-item': () =>
    import('./inspection-item.page.tsx').then((m) => m.InspectionItemPage),
  '/quality-testing/trace': () => import('./trace/trace.page.tsx').then((m) => m.TracePage),
  ...Object.fromEntries(
    INSPECTION_CATEGORIES.flatMap((c) => {
      const p = inspectionPaths(c);
      return [
        [p.list, () => tasks().then((m) => m.InspectionTaskListPage)],
        [p.add, () => tasks().then((m) => m.InspectionTaskAddPage)],
        [p.detail, () => tasks().then((m) => m.InspectionTaskDetailPage)],
        [p.view, () => tasks().then((m) => m.InspectionTaskDetailPage)],
        [p.entry, () => tasks().then((m) => m.InspectionEntryPage)],
      ] as [string, PageLoader][];
    }),
  ),
};
