import { http } from '../../../platform/api/client.ts';

/**
 * 质量追溯 (server: apps/server/src/modules/production/trace.ts): a card back to the steel heats,
 * a heat forward to the customers, an outbound document's batches back to their cards.
 */

export interface TraceStep {
  seq: number;
  processName: string;
  workshopName: string | null;
  outsourced: boolean;
  inTime: string | null;
  outTime: string | null;
  inputQuantity: string;
  goodQuantity: string;
  workScrapQuantity: string;
  materialScrapQuantity: string;
  reworkQuantity: string;
  operatorName: string | null;
  equipmentCode: string | null;
  equipmentName: string | null;
  inspectionResult: string | null;
  supplierName: string | null;
  sentQuantity: string | null;
  returnedQuantity: string | null;
  hardnessHrc: string | null;
}

export interface TraceReport {
  id: number;
  docNo: string;
  status: string;
  seq: number | null;
  processName: string | null;
  reportDate: string;
  shift: string;
  operatorName: string | null;
  equipmentName: string | null;
  goodQuantity: string;
  workScrapQuantity: string;
  materialScrapQuantity: string;
  reworkQuantity: string;
}

export interface TraceInspection {
  id: number;
  docNo: string;
  status: string;
  category: string;
  checkKind: string | null;
  result: string | null;
  processName: string | null;
  inspectorName: string | null;
  inspectedAt: string | null;
  lotQuantity: string;
  defectQuantity: string | null;
}

export interface TraceMeasurement {
  id: number;
  characteristic: string;
  characteristicName: string;
  measuredAt: string;
  sampleSize: number;
  mean: string;
  range: string;
  lsl: string | null;
  usl: string | null;
  outOfControl: boolean;
  equipmentName: string;
  operatorName: string | null;
  values: string;
}

/** A set line of an accepted 选配 on a bearing card (issue 38 §4). */
export interface TraceRingMatch {
  id: number;
  matchId: number;
  createdAt: string;
  clearanceGroup: string;
  lineNo: number;
  innerGroup: string;
  outerGroup: string;
  ballGradeUm: number;
  clearanceLowUm: number;
  clearanceHighUm: number;
  count: number;
  lots: string;
}

export interface TraceCard {
  id: number;
  docNo: string;
  status: string;
  origin: string;
  productId: number;
  productCode: string;
  productName: string;
  productSpec: string | null;
  partName: string | null;
  quantity: string;
  heatNo: string | null;
  held: boolean;
  productionOrderId: number;
  orderNo: string;
  saleOrderNo: string | null;
  customerName: string | null;
  depth: number;
  steps?: TraceStep[];
  reports?: TraceReport[];
  inspections?: TraceInspection[];
  measurements?: TraceMeasurement[];
  ringMatches?: TraceRingMatch[];
}

export interface TraceLink {
  parentId: number;
  childId: number;
  kind: string;
  quantity: string;
}

export interface TraceReceipt {
  batchNo: string;
  materialId: number;
  materialCode: string;
  materialName: string;
  inboundId: number;
  docNo: string;
  type: string;
  bizDate: string;
  status: string;
  supplierName: string | null;
  sourceNo: string | null;
  quantity: string;
  unitName: string | null;
  inspections: { id: number; docNo: string; status: string; result: string | null; category: string }[];
}

export interface TraceMaterial {
  productionOrderId: number;
  materialId: number;
  materialCode: string;
  materialName: string;
  batchNo: string;
  quantity: string;
  unitName: string | null;
  outboundNos: string;
  bizDate: string;
  receipts: TraceReceipt[];
}

export interface TraceShipment {
  cardId: number;
  cardNo: string;
  outboundId: number;
  docNo: string;
  type: string;
  bizDate: string;
  status: string;
  customerId: number | null;
  customerName: string | null;
  saleOrderNo: string | null;
  materialName: string;
  quantity: string;
  unitName: string | null;
}

export interface CardTrace {
  card: TraceCard;
  heats: { heatNo: string; receipts: TraceReceipt[] }[];
  cards: (TraceCard & Required<Pick<TraceCard, 'steps' | 'reports' | 'inspections' | 'measurements'>>)[];
  links: TraceLink[];
  orders: {
    id: number;
    docNo: string;
    productName: string;
    saleOrderNo: string | null;
    customerName: string | null;
    materials: TraceMaterial[];
  }[];
  descendants: number;
  shipments: TraceShipment[];
}

export interface HeatTrace {
  heatNo: string;
  receipts: TraceReceipt[];
  issues: {
    outboundId: number;
    docNo: string;
    bizDate: string;
    productionOrderId: number;
    orderNo: string;
    productName: string;
    materialName: string;
    quantity: string;
    unitName: string | null;
  }[];
  cards: TraceCard[];
  links: TraceLink[];
  shipments: TraceShipment[];
  customers: { customerId: number | null; customerName: string; outbounds: string[] }[];
}

export interface OutboundTrace {
  outbound: {
    id: number;
    docNo: string;
    type: string;
    status: string;
    bizDate: string;
    customerName: string | null;
    saleOrderNo: string | null;
  };
  lines: {
    lineId: number;
    lineNo: number;
    materialId: number;
    materialCode: string;
    materialName: string;
    batchNo: string;
    quantity: string;
    unitName: string | null;
    cardId: number | null;
    cardNo: string | null;
    heats: string[];
  }[];
}

/** What the 质量追溯 search box found: a card, an outbound document, else a heat. */
export interface TraceTarget {
  kind: 'card' | 'outbound' | 'heat';
  id: number | null;
  code: string;
  /** An outbound's line to open on. */
  lineId?: number;
}

export const traceKeys = {
  card: (id: number) => ['trace', 'card', id] as const,
  heat: (heatNo: string) => ['trace', 'heat', heatNo] as const,
  outbound: (id: number) => ['trace', 'outbound', id] as const,
};

export const traceApi = {
  card: (id: number) => http.get<CardTrace>(`/api/v1/trace/card/${id}`),
  heat: (heatNo: string) => http.get<HeatTrace>('/api/v1/trace/heat', { heatNo }),
  outbound: (id: number) => http.get<OutboundTrace>(`/api/v1/trace/outbound/${id}`),
  find: (code: string) => http.get<TraceTarget>('/api/v1/trace/find', { code }),
};
