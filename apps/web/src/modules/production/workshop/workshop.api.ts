import {
  type WorkshopKind,
  workDispatchResource,
  workshopOfPath,
  workshopPaths,
  workshopPermission,
  workshopTaskResource,
} from '@ringmes/domain';
import { http } from '../../../platform/api/client.ts';
import type { ResourceRoutes } from '../../../platform/resource/routes.ts';

export type Row = Record<string, any>;

/** The workshop a page of 生产管理 belongs to, from its route path (one page set serves four). */
export function kindOf(path: string): WorkshopKind {
  const k = workshopOfPath(path);
  if (!k) throw new Error(`${path} 不是车间页面`);
  return k;
}

export const taskRoutes = (k: WorkshopKind): ResourceRoutes => ({
  list: workshopPaths(k).task,
  formOnPage: false,
});

export const dispatchRoutes = (k: WorkshopKind): ResourceRoutes => ({
  list: workshopPaths(k).dispatch,
  detail: workshopPaths(k).dispatchInfo,
  formOnPage: false,
});

export const screenPermission = (k: WorkshopKind, screen: string, action: string) =>
  `${workshopPermission(k, screen)}:${action}`;

export interface DispatchLine {
  teamId?: number | null;
  operatorId: number;
  equipmentId?: number | null;
  workDate: string;
  shift: string;
  quantity: string;
  remark?: string;
}

export const workshopApi = {
  board: (k: WorkshopKind) =>
    http.get<{ list: Row[] }>('/api/v1/workshop-task/board', { workshopType: k.type }),
  mine: (k: WorkshopKind) =>
    http.get<{ list: Row[] }>('/api/v1/work-dispatch/mine', { workshopType: k.type }),
  dispatch: (taskId: number, lines: DispatchLine[]) =>
    http.post<{ dispatches: { id: number; docNo: string }[]; warnings?: string[] }>(
      `/api/v1/workshop-task/dispatch/${taskId}`,
      { lines },
      { silent: true },
    ),
  /** Minutes already dispatched on a day per operator / machine and shift (the 派工 dialog's 超负荷). */
  load: (taskId: number, workDate: string, operatorIds: number[], equipmentIds: number[]) =>
    http.get<{ shiftMinutes: number; list: Row[] }>(`/api/v1/workshop-task/load/${taskId}`, {
      workDate,
      ...(operatorIds.length ? { operatorIds: operatorIds.join(',') } : {}),
      ...(equipmentIds.length ? { equipmentIds: equipmentIds.join(',') } : {}),
    }),
  transition: (name: string, id: number, version: number, reason?: string) =>
    http.post<{ status: string; version: number }>(`/api/v1/work-dispatch/${name}/${id}`, {
      version,
      ...(reason ? { reason } : {}),
    }),
  dispatchInfo: (id: number) => http.get<Row>(`/api/v1/work-dispatch/info/${id}`),
  /** 工序任务单: the dispatch with its product's drawing in force (`drawing`). */
  sheet: (id: number, extra?: { silent?: boolean }) =>
    http.get<Row>(`/api/v1/work-dispatch/sheet/${id}`, undefined, extra),
  /** Where the files of a dispatch's drawing are served (`/{fileId}[?inline=true]`). */
  drawingUrl: (id: number) => `/api/v1/work-dispatch/drawing/${id}`,
  findDispatch: (docNo: string) =>
    http.get<{ list: Row[] }>('/api/v1/work-dispatch/page', { docNo, pageSize: 5 }),
};

export { workDispatchResource, workshopTaskResource };
