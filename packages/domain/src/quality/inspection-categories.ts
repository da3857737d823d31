import type { WorkshopKind } from '../production/workshops.ts';
import { WORKSHOP_KINDS } from '../production/workshops.ts';

/*
 * The categories of inspection task (a page of 质量检测 each, with its own permissions), apart
 * from the resource definitions: the shell reads them to land an inspector on 首页 without
 * pulling the inspection resources and the sampling tables into its first load.
 */

/** One category of inspection task: a page of 质量检测 with its own permissions. */
export interface InspectionCategory {
  value: string;
  label: string;
  kind: 'incoming' | 'reporting' | 'process' | 'shipment';
  workshopType?: WorkshopKind['type'];
  /** The list page. */
  path: string;
  /** Permission prefix (`quality:latheIncoming`). */
  permission: string;
}

const QT = '/quality-testing';
/** Path segment and permission resource per workshop (as the menu tree spells them). */
const WORKSHOP_SEGMENTS: Record<
  WorkshopKind['type'],
  { incoming: string; reporting: string; resource: string; label: string }
> = {
  machine: {
    incoming: 'lathe-machining-incoming',
    reporting: 'lathe-machining-reporting',
    resource: 'lathe',
    label: '车加工',
  },
  grinding: {
    incoming: 'grinding-incoming',
    reporting: 'grinding-reporting',
    resource: 'grinding',
    label: '磨加工',
  },
  inspect: {
    incoming: 'inspect-incoming',
    reporting: 'inspect-workshop-reporting',
    resource: 'inspect',
    label: '检测车间',
  },
  assembly: {
    incoming: 'assemble-incoming',
    reporting: 'assemble-reporting',
    resource: 'assemble',
    label: '装配',
  },
};

export const INSPECTION_CATEGORIES: readonly InspectionCategory[] = [
  ...WORKSHOP_KINDS.flatMap((k) => {
    const s = WORKSHOP_SEGMENTS[k.type];
    return (['incoming', 'reporting'] as const).map((kind) => ({
      value: `${k.type}-${kind}`,
      label: `${s.label}${kind === 'incoming' ? '来料检验' : '报工检验'}`,
      kind,
      workshopType: k.type,
      path: `${QT}/${s[kind]}`,
      permission: `quality:${s.resource}${kind === 'incoming' ? 'Incoming' : 'Reporting'}`,
    }));
  }),
  {
    value: 'process',
    label: '过程检验',
    kind: 'process',
    path: `${QT}/process-inspection`,
    permission: 'quality:process',
  },
  {
    value: 'shipment',
    label: '出货检验',
    kind: 'shipment',
    path: `${QT}/shipment-inspection`,
    permission: 'quality:shipment',
  },
];

export function inspectionCategory(value: string): InspectionCategory | undefined {
  return INSPECTION_CATEGORIES.find((c) => c.value === value);
}

/** The category whose pages a route path belongs to (list, -add, -detail, -view, -quality-testing). */
export function inspectionCategoryOfPath(path: string): InspectionCategory | undefined {
  return INSPECTION_CATEGORIES.find((c) =>
    ['', '-add', '-detail', '-view', '-quality-testing'].some((suffix) => path === `${c.path}${suffix}`),
  );
}

/** The pages of one category. */
export function inspectionPaths(c: InspectionCategory) {
  return {
    list: c.path,
    add: `${c.path}-add`,
    detail: `${c.path}-detail`,
    view: `${c.path}-view`,
    entry: `${c.path}-quality-testing`,
  };
}
