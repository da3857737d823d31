import {
  type EnumOption,
  INBOUND_TYPES,
  OUTBOUND_TYPES,
  QUALIFIED_ONLY_OUTBOUND,
  type ResourceDef,
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
} from '@ringmes/domain';
import { type QueryParams, request } from '../../platform/api/client.ts';
import { download } from '../../platform/api/download.ts';
import { type ApiQuery, type ApiResult, api } from '../../platform/api/typed.ts';
import type { Page } from '../../platform/api/types.ts';
import { loadOptions } from '../../platform/resource/use-options.ts';

export type Row = Record<string, any> & { id: number };

const WL = '/warehouse-logistics';

/** One kind of stock document (入库单, 出库单) and the menu pages of each of its types. */
export interface DocKind {
  key: 'inbound' | 'outbound' | 'transfer' | 'stocktake';
  def: ResourceDef;
  /** The list of every type. */
  listPath: string;
  types: EnumOption[];
  /** Type value → menu segment of its own list page. */
  segments: Record<string, string>;
  /** Page title of the print view. */
  docName: string;
  /**
   * Another module's view of one type (采购退货 under 采购管理): its pages are the list path and
   * its -add/-edit/-detail siblings instead of per-type segments.
   */
  view?: boolean;
}

export const INBOUND: DocKind = {
  key: 'inbound',
  def: stockInboundResource,
  listPath: `${WL}/warehouse-manage`,
  types: INBOUND_TYPES,
  segments: {
    purchase: 'purchase-warehousing',
    production: 'production-warehousing',
    outsourced: 'outsourced-warehousing',
    'sales-return': 'sales-returns-warehousing',
    other: 'other-warehousing',
  },
  docName: '入库单',
};

export const OUTBOUND: DocKind = {
  key: 'outbound',
  def: stockOutboundResource,
  listPath: `${WL}/outbound-manage`,
  types: OUTBOUND_TYPES,
  segments: {
    requisition: 'internal-requisition-outbound',
    outsourcing: 'outsourcing-receive-outbound',
    sales: 'sales-outbound',
    'purchase-return': 'purchase-return-outbound',
    other: 'other-outbound',
  },
  docName: '出库单',
};

/** 采购退货 (/purchase/purchase-rejected): the buyer's pages of the 采购退货出库 documents. */
export const PURCHASE_RETURN: DocKind = {
  ...OUTBOUND,
  listPath: '/purchase/purchase-rejected',
  types: OUTBOUND_TYPES.filter((t) => t.value === 'purchase-return'),
  segments: { 'purchase-return': '' },
  view: true,
};

/** 委外退货 (/purchase/outsourcing-rejected): the pages of the 委外退货出库 documents. */
export const OUTSOURCING_RETURN: DocKind = {
  ...OUTBOUND,
  listPath: '/purchase/outsourcing-rejected',
  types: OUTBOUND_TYPES.filter((t) => t.value === 'outsourcing-return'),
  segments: { 'outsourcing-return': '' },
  view: true,
};

/** Views of one type (another module's pages); a type without a page of its own kind opens its view. */
const VIEWS: DocKind[] = [PURCHASE_RETURN, OUTSOURCING_RETURN];

export const TRANSFER_PATHS = {
  list: `${WL}/warehouse-allot`,
  panel: `${WL}/warehouse-allot-panel`,
  detail: `${WL}/warehouse-allot-detail`,
};
export const STOCKTAKE_PATHS = {
  list: `${WL}/inventory-manage`,
  detail: `${WL}/inventory-manage-detail`,
  report: `${WL}/inventory-detail`,
};
export const INVENTORY_DETAILS_PATH = `${WL}/inventory-details`;
export const FINISHED_PATHS = { list: `${WL}/finish-warehouse`, detail: `${WL}/finish-warehouse-detail` };
export const ALERT_PATH = '/finance-department/inventory-alert';

export { QUALIFIED_ONLY_OUTBOUND, stockTransferResource, stocktakeResource };

/** The per-type pages of a document kind (list, add, edit, detail) for a type value. */
export function typePaths(kind: DocKind, type: string): Record<'list' | 'add' | 'edit' | 'detail', string> {
  const view =
    !kind.view && !kind.segments[type] && VIEWS.find((v) => v.key === kind.key && type in v.segments);
  if (view) return typePaths(view, type);
  const base = kind.view ? kind.listPath : `${kind.listPath}/${kind.segments[type] ?? kind.segments.other}`;
  return { list: base, add: `${base}-add`, edit: `${base}-edit`, detail: `${base}-detail` };
}

/** Which kind and type a menu path belongs to (`…/purchase-warehousing-edit` → inbound, purchase). */
export function kindOfPath(path: string): { kind: DocKind; type?: string } | undefined {
  for (const view of VIEWS) {
    if (path.startsWith(view.listPath)) return { kind: view, type: view.types[0].value };
  }
  for (const kind of [INBOUND, OUTBOUND]) {
    if (path === kind.listPath) return { kind };
    for (const [type, segment] of Object.entries(kind.segments)) {
      if (path.startsWith(`${kind.listPath}/${segment}`)) return { kind, type };
    }
  }
  return undefined;
}

export const typeLabel = (kind: DocKind, type: string | undefined) =>
  kind.types.find((t) => t.value === type)?.label ?? type ?? '';

// ------------------------------------------------------------------------- calls

export const whKeys = {
  all: ['warehouse'] as const,
  docs: (name: string) => ['resource', name] as const,
  balance: (q: QueryParams) => ['warehouse', 'balance', q] as const,
  ledger: (q: QueryParams) => ['warehouse', 'ledger', q] as const,
  alert: (q: QueryParams) => ['warehouse', 'alert', q] as const,
  units: (materialId: number) => ['warehouse', 'units', materialId] as const,
  available: (key: AvailableKey) => ['warehouse', 'available', key] as const,
  locations: (warehouseId: number) => ['warehouse', 'locations', warehouseId] as const,
};

/** A material's units, each as its exact ratio to the base unit: unitQuantity of it = baseQuantity base units. */
export interface UnitConversion {
  materialId: number;
  baseUnitId: number;
  baseUnitName: string;
  basePrecision: number;
  units: {
    unitId: number;
    unitName: string;
    precision: number;
    unitQuantity: string;
    baseQuantity: string;
  }[];
}

/** A ledger page; scoped to a material it has the totals, and each move its `balanceAfter`. */
export type LedgerPage = ApiResult<'/api/v1/stock-ledger/page'>;

/** Balances with quantity totals per base unit (never one sum over different units). */
export type BalancePage = ApiResult<'/api/v1/stock-balance/page'>;

/** Where an outbound line draws from: posting's rules (no location or batch → any). */
export interface AvailableKey {
  materialId: number;
  warehouseId: number;
  locationId?: number;
  batchNo?: string;
  qualityStatus?: string;
}

export function docApi(def: ResourceDef) {
  const base = `/api/v1/${def.name}`;
  return {
    page: (q: QueryParams) => request<Page<Row>>({ url: `${base}/page`, params: q }),
    info: (id: number) => request<Row>({ url: `${base}/info/${id}` }),
    add: (body: Record<string, unknown>) =>
      request<Row>({ url: `${base}/add`, method: 'POST', data: body, silent: true }),
    edit: (id: number, body: Record<string, unknown>) =>
      request<Row>({ url: `${base}/edit/${id}`, method: 'PUT', data: body, silent: true }),
    remove: (id: number) => request<null>({ url: `${base}/delete/${id}`, method: 'DELETE' }),
  };
}

export const stockApi = {
  balance: (q: QueryParams) =>
    api.get('/api/v1/stock-balance/page', { query: q as ApiQuery<'/api/v1/stock-balance/page'> }),
  ledger: (q: QueryParams) =>
    api.get('/api/v1/stock-ledger/page', { query: q as ApiQuery<'/api/v1/stock-ledger/page'> }),
  /** The base-unit quantity an outbound line could take now. */
  available: (key: AvailableKey) =>
    api.get('/api/v1/stock-balance/available', {
      query: { ...key, qualityStatus: key.qualityStatus as 'qualified' | 'pending' | 'rejected' | undefined },
    }),
  alert: (q: QueryParams) =>
    api.get('/api/v1/stock-alert/page', { query: q as ApiQuery<'/api/v1/stock-alert/page'> }),
  units: (materialId: number) =>
    request<UnitConversion>({ url: `/api/v1/material-info/unitConversion/${materialId}` }),
  /** The locations of a warehouse, disabled ones too (a stored line may name one). */
  locations: (warehouseId: number) => loadOptions('shelf-location', { warehouseId, all: 'true' }),
  snapshot: (id: number) => api.post('/api/v1/stocktake/snapshot/{id}', { path: { id } }),
  async countSheet(id: number): Promise<void> {
    const { fileName } = await api.get('/api/v1/stocktake/countSheet/{id}', { path: { id } });
    await download('/common/download', { fileName, delete: 'true' });
  },
  difference: (id: number) => api.get('/api/v1/stocktake/difference/{id}', { path: { id } }),
  async differenceExport(id: number): Promise<void> {
    const { fileName } = await api.get('/api/v1/stocktake/differenceExport/{id}', { path: { id } });
    await download('/common/download', { fileName, delete: 'true' });
  },
  // The body is the file itself (application/octet-stream), outside the typed JSON bodies.
  importCounts: (id: number, file: Blob) =>
    request<ApiResult<'/api/v1/stocktake/importCounts/{id}', 'post'>>({
      url: `/api/v1/stocktake/importCounts/${id}`,
      method: 'POST',
      data: file,
      headers: { 'Content-Type': 'application/octet-stream' },
    }),
};

/** Quantities arrive as decimal strings ("3000.0000"): shown without trailing zeros; amounts with 2 places. */
export { moneyText as money, quantityText as qty } from '../../platform/lib/number-text.ts';
