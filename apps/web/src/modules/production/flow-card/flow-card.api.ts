import { http } from '../../../platform/api/client.ts';
import type { Page } from '../../../platform/api/types.ts';
import type { ResourceRow } from '../../../platform/resource/resource-api.ts';
import type { DrawingLink } from '../../technology/drawing-link.tsx';

/**
 * A card as the server answers it: header fields, reference labels, its `steps` and the drawing
 * in force for its product (`card` and `scan` only; lists do not carry it).
 */
export type FlowCard = ResourceRow & {
  docNo: string;
  status: string;
  quantity: string;
  currentSeq: number | null;
  steps: ResourceRow[];
  drawing?: DrawingLink | null;
  /** The heats of the card and its ancestors (a bearing's: its rings'), `card` and `scan` only. */
  heats?: string[];
};

export interface GenealogyNode {
  id: number;
  docNo: string;
  status: string;
  origin: string;
  quantity: string;
  heatNo: string | null;
  currentSeq: number | null;
  processName: string | null;
  productName: string;
  partName: string | null;
  depth: number;
}

export interface Genealogy {
  card: GenealogyNode;
  ancestors: GenealogyNode[];
  descendants: GenealogyNode[];
  links: { parentId: number; childId: number; kind: 'split' | 'merge' | 'assembly'; quantity: string }[];
}

/** Query keys under the resource's, so `invalidateResource(client, 'flow-card')` refreshes them all. */
export const flowCardKeys = {
  card: (id: number | undefined) => ['resource', 'flow-card', 'card', id] as const,
  genealogy: (id: number | undefined) => ['resource', 'flow-card', 'genealogy', id] as const,
  ofOrder: (orderId: number) => ['resource', 'flow-card', 'order', orderId] as const,
};

/** The calls of 流转卡 (server: apps/server/src/modules/production/flow-card.ts). */
export const flowCardApi = {
  card: (id: number) => http.get<FlowCard>(`/api/v1/flow-card/card/${id}`),
  /** The card whose number a scanner typed; 404 (toast 未找到流转卡…) when there is none. */
  scan: (code: string) => http.get<FlowCard>('/api/v1/flow-card/scan', { code }),
  genealogy: (id: number) => http.get<Genealogy>(`/api/v1/flow-card/genealogy/${id}`),
  /** Where the files of a card's drawing are served (`/{fileId}[?inline=true]`). */
  drawingUrl: (id: number) => `/api/v1/flow-card/drawing/${id}`,
  ofOrder: (orderId: number) =>
    http
      .get<Page<FlowCard>>('/api/v1/flow-card/page', { productionOrderId: orderId, pageNum: 0 })
      .then((p) => p.list),
  open: (orderId: number, body: { batchSize: string; heatNo?: string; partName?: string }) =>
    http.post<{ cards: { id: number; docNo: string; quantity: string }[] }>(
      `/api/v1/flow-card/open/${orderId}`,
      body,
    ),
  split: (id: number, quantities: string[]) =>
    http.post<{ children: { id: number; docNo: string; quantity: string }[] }>(
      `/api/v1/flow-card/split/${id}`,
      { quantities },
    ),
  merge: (ids: number[]) =>
    http.post<{ card: { id: number; docNo: string; quantity: string } }>('/api/v1/flow-card/merge', { ids }),
};

/** The step a card waits at (its current one), or undefined. */
export const currentStep = (card: FlowCard) => card.steps?.find((s) => s.seq === card.currentSeq);
