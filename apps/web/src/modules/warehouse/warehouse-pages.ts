import { stockTransferResource } from '@ringmes/domain';
import type { PageComponent } from '../../platform/page.ts';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import {
  ALERT_PATH,
  type DocKind,
  FINISHED_PATHS,
  INBOUND,
  INVENTORY_DETAILS_PATH,
  OUTBOUND,
  STOCKTAKE_PATHS,
  typePaths,
} from './warehouse.api.ts';

const inbound = () => import('./inbound.pages.tsx');
const outbound = () => import('./outbound.pages.tsx');
const stock = () => import('./stock.pages.tsx');
const transfer = () => import('./transfer.pages.tsx');
const stocktake = () => import('./stocktake.pages.tsx');

/** The list of every type and each type's list, add, edit and detail pages of a stock document. */
export function typedPages(
  kind: DocKind,
  load: () => Promise<{ pages: Record<'list' | 'form' | 'detail', PageComponent> }>,
): Record<string, PageLoader> {
  const out: Record<string, PageLoader> = {};
  if (!kind.view) out[kind.listPath] = () => load().then((m) => m.pages.list);
  for (const type of Object.keys(kind.segments)) {
    const p = typePaths(kind, type);
    out[p.list] = () => load().then((m) => m.pages.list);
    out[p.add] = () => load().then((m) => m.pages.form);
    out[p.edit] = () => load().then((m) => m.pages.form);
    out[p.detail] = () => load().then((m) => m.pages.detail);
  }
  return out;
}

function documentPages(): Record<string, PageLoader> {
  // 入库单, 出库单: the kit's screens on each type's pages.
  return {
    ...typedPages(INBOUND, inbound),
    ...typedPages(OUTBOUND, outbound),
  };
}

/** 仓储物流 (and 库存预警 of 财务部): route path → page loader; every page is its own chunk. */
export const WAREHOUSE_PAGES: Record<string, PageLoader> = {
  ...documentPages(),
  [INVENTORY_DETAILS_PATH]: () => stock().then((m) => m.InventoryDetailsPage),
  [FINISHED_PATHS.list]: () => stock().then((m) => m.FinishedGoodsPage),
  [FINISHED_PATHS.detail]: () => stock().then((m) => m.MaterialLedgerPage),
  [ALERT_PATH]: () => stock().then((m) => m.InventoryAlertPage),
  // 调拨单: the kit's list, form (the -panel page) and detail with the warehouse's line cells.
  ...resourcePageLoaders(stockTransferResource, {
    list: () => transfer().then((m) => m.TransferListPage),
    listOpensOnFirstPage: true,
    form: () => transfer().then((m) => m.TransferFormPage),
    detail: () => transfer().then((m) => m.TransferDetailPage),
  }),
  [STOCKTAKE_PATHS.list]: () => stocktake().then((m) => m.StocktakeListPage),
  [STOCKTAKE_PATHS.detail]: () => stocktake().then((m) => m.StocktakeDetailPage),
  [STOCKTAKE_PATHS.report]: () => import('./stocktake-report.tsx').then((m) => m.StocktakeReportPage),
};
