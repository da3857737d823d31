import { RING_MATCHING_PATH, RING_MATCHING_YIELD_PATH, WORKSHOP_KINDS, workshopPaths } from '@ringmes/domain';
import type { PageLoader } from '../../../platform/resource/area-pages.ts';

const tasks = () => import('./task-list.page.tsx');
const dispatches = () => import('./dispatch.pages.tsx');
const panel = () => import('./panel.page.tsx');
const operator = () => import('./operator.pages.tsx');
const reports = () => import('./report.pages.tsx');
const plan = () => import('./plan.page.tsx');

/** The screens of the four workshops: one set of pages, each told its workshop by its path. */
export function workshopPages(): Record<string, PageLoader> {
  const out: Record<string, PageLoader> = {};
  for (const kind of WORKSHOP_KINDS) {
    const p = workshopPaths(kind);
    out[p.task] = () => tasks().then((m) => m.WorkshopTaskListPage);
    out[p.dispatch] = () => dispatches().then((m) => m.WorkDispatchListPage);
    out[p.dispatchInfo] = () => dispatches().then((m) => m.DispatchInfoPage);
    out[p.workshopOperatorTask] = () => dispatches().then((m) => m.WorkshopOperatorTaskPage);
    out[p.panel] = () => panel().then((m) => m.WorkshopPanelPage);
    out[p.plan] = () => plan().then((m) => m.WorkshopPlanPage);
    out[p.operatorTask] = () => operator().then((m) => m.OperatorTaskPage);
    out[p.sheetAdd] = () => operator().then((m) => m.ProcessTaskSheetAddPage);
    out[p.sheetStart] = () => operator().then((m) => m.ProcessTaskSheetStartPage);
    out[p.reportWork] = () => reports().then((m) => m.ReportWorkPage);
    out[p.semi] = () => import('./semi.page.tsx').then((m) => m.SemiFinishedPage);
    if (kind.reportRecords) {
      out[p.addReportWork] = () => reports().then((m) => m.AddReportWorkPage);
      out[p.workshopReportRecord] = () => reports().then((m) => m.WorkshopReportRecordPage);
    }
  }
  // 装配车间 › 选配 and 选配合格率 (issue 38 §4).
  out[RING_MATCHING_PATH] = () => import('./ring-matching.page.tsx').then((m) => m.RingMatchingPage);
  out[RING_MATCHING_YIELD_PATH] = () =>
    import('./ring-matching-yield.page.tsx').then((m) => m.RingMatchingYieldPage);
  return out;
}
