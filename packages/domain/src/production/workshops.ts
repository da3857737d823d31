/**
 * The four workshop kinds of 生产管理 (车加工, 磨加工, 检测, 装配). Each has the same screens under
 * its own directory; one set of pages and one API serve all four, parameterised by the workshop
 * `type` of master data. The menu tree, the scoped permissions and the web pages all read this list.
 */
export interface WorkshopKind {
  /** The workshop `type` in master data (工厂建模 › 车间). */
  type: 'machine' | 'grinding' | 'inspect' | 'assembly';
  /** Directory segment under production-manage. */
  segment: string;
  name: string;
  icon: string;
  /** Title prefix of the workshop's own pages (车加工任务, 车加工派工, 车加工看板). */
  label: string;
  /** Permission resource prefix (production:lathingTask:list …). */
  resource: string;
  task: string;
  dispatch: string;
  panel: string;
  /** add-report-work and workshop-report-record (the spec lists them for turning only). */
  reportRecords?: boolean;
}

export const WORKSHOP_KINDS: readonly WorkshopKind[] = [
  {
    type: 'machine',
    segment: 'machine',
    name: '车加工车间',
    icon: 'ToolOutlined',
    label: '车加工',
    resource: 'lathing',
    task: 'lathing',
    dispatch: 'lathing-dispatch',
    panel: 'lathing-panel',
    reportRecords: true,
  },
  {
    type: 'grinding',
    segment: 'grinding',
    name: '磨加工车间',
    icon: 'SlidersOutlined',
    label: '磨加工',
    resource: 'grinding',
    task: 'grinding-process',
    dispatch: 'grinding-dispatch',
    panel: 'grinding-panel',
  },
  {
    type: 'inspect',
    segment: 'inspect-workshop',
    name: '检测车间',
    icon: 'FileSearchOutlined',
    label: '检测',
    resource: 'inspect',
    task: 'inspect',
    dispatch: 'inspect-dispatch',
    panel: 'inspect-panel',
  },
  {
    type: 'assembly',
    segment: 'assembly-workshop',
    name: '装配车间',
    icon: 'BuildOutlined',
    label: '装配',
    resource: 'assembly',
    task: 'assembly',
    dispatch: 'dispatch',
    panel: 'assembly-panel',
  },
];

export const PRODUCTION_MANAGE_PATH = '/production-department/production-manage';

/** The route paths of one workshop's screens. */
export function workshopPaths(k: WorkshopKind) {
  const at = (segment: string) => `${PRODUCTION_MANAGE_PATH}/${k.segment}/${segment}`;
  return {
    base: `${PRODUCTION_MANAGE_PATH}/${k.segment}`,
    task: at(k.task),
    dispatch: at(k.dispatch),
    dispatchInfo: at('dispatch-info'),
    panel: at(k.panel),
    plan: at('plan'),
    operatorTask: at('operator-task'),
    sheetAdd: at('process-task-sheet-add'),
    sheetStart: at('process-task-sheet-start'),
    workshopOperatorTask: at('workshop-operator-task'),
    reportWork: at('report-work'),
    addReportWork: at('add-report-work'),
    workshopReportRecord: at('workshop-report-record'),
    semi: at('semi-manufactures'),
  };
}

/** The permission resource of one screen of a workshop: `production:lathingTask`. */
export const workshopPermission = (k: WorkshopKind, screen: string) => `production:${k.resource}${screen}`;

/** The workshop kind a route path belongs to. */
export function workshopOfPath(path: string): WorkshopKind | undefined {
  return WORKSHOP_KINDS.find((k) => path.startsWith(`${PRODUCTION_MANAGE_PATH}/${k.segment}/`));
}

export function workshopKind(type: string): WorkshopKind | undefined {
  return WORKSHOP_KINDS.find((k) => k.type === type);
}
