import type { QueryClient } from '@tanstack/react-query';
import { http } from '../../platform/api/client.ts';
import { type LiveState, useLiveQuery } from '../../platform/live/use-live-query.ts';

export type DashboardScope = 'whole' | 'machine' | 'grinding' | 'inspect' | 'assembly';

/** The route of each dashboard (menu-tree: /workshop-dashboard/…) and its scope. */
export const DASHBOARD_PATHS: Record<string, DashboardScope> = {
  '/workshop-dashboard/whole-dashboard': 'whole',
  '/workshop-dashboard/machine-dashboard': 'machine',
  '/workshop-dashboard/grinding-dashboard': 'grinding',
  '/workshop-dashboard/inspect-dashboard': 'inspect',
  '/workshop-dashboard/assemble-dashboard': 'assembly',
};

export interface Quantities {
  planned: string;
  good: string;
  scrap: string;
  rework: string;
  achievement: number | null;
}

export interface DashboardSnapshot {
  scope: DashboardScope;
  scopeName: string;
  day: string;
  computedAt: number;
  output: (Quantities & {
    workshopType: string;
    workshopName: string;
    shifts: (Quantities & { shift: string; shiftLabel: string; reports: number })[];
  })[];
  totals: Quantities;
  orders: {
    inProgress: number;
    producing: number;
    late: number;
    list: {
      id: number;
      docNo: string;
      productName: string;
      productSpec: string | null;
      quantity: string;
      producedQuantity: string;
      dueDate: string;
      status: string;
      priority: string;
      late: boolean;
      progress: number | null;
    }[];
  };
  quality: {
    today: Quantities & { firstPassYield: number | null };
    days: number;
    period: { good: string; scrap: string; rework: string; firstPassYield: number | null };
    pareto: { reason: string; label: string; quantity: string; cumulative: number | null }[];
  };
  equipment: {
    running: number;
    idle: number;
    down: number;
    list: {
      id: number;
      code: string;
      name: string;
      workshopType: string;
      state: 'running' | 'idle' | 'down';
      repairNo: string | null;
      dispatchNo: string | null;
      operatorName: string | null;
      /** The machine's last state signal (MQTT or the signed API), when it sends any. */
      signalState?: 'run' | 'stop' | 'fault' | null;
      signalAt?: string | null;
    }[];
  };
  /** 漏点检: shifts in which an equipment worked without its check (latest first, at most 20). */
  missedChecks?: {
    list: {
      checklistId: number;
      checklistName: string;
      equipmentCode: string;
      equipmentName: string;
      checkDate: string;
      shiftLabel: string;
    }[];
    more: boolean;
  };
  ranking: {
    rank: number;
    operatorId: number;
    operatorName: string;
    good: string;
    scrap: string;
    reports: number;
  }[];
  recent: {
    id: number;
    docNo: string;
    postedAt: string;
    workshopName: string;
    shiftLabel: string;
    operatorName: string | null;
    productName: string | null;
    productSpec: string | null;
    processName: string | null;
    good: string;
    scrap: string;
  }[];
}

export const dashboardApi = {
  snapshot: (scope: DashboardScope, options: { silent?: boolean } = {}) =>
    http.get<DashboardSnapshot>('/api/v1/dashboard/snapshot', { scope }, options),
};

export const dashboardKey = (scope: DashboardScope) => ['dashboard', scope] as const;

/**
 * Asks for a dashboard's snapshot before the page has drawn (opened with a session: alongside the
 * user's menu), under the key the page reads; silent, as the page asks again and answers itself.
 */
export function prefetchDashboard(client: QueryClient, scope: DashboardScope): Promise<void> {
  return client.prefetchQuery({
    queryKey: dashboardKey(scope),
    queryFn: () => dashboardApi.snapshot(scope, { silent: true }),
  });
}

export type { LiveState };

/**
 * A dashboard's data: the snapshot once, then every snapshot the server pushes over the stream
 * (no polling; `useLiveQuery`).
 */
export function useLiveDashboard(scope: DashboardScope) {
  return useLiveQuery({
    queryKey: dashboardKey(scope),
    queryFn: () => dashboardApi.snapshot(scope),
    scope,
  });
}
