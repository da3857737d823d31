import { stockTransferResource } from '@ringmes/domain';
import type { PageLoader } from '../../platform/resource/area-pages.ts';
import { resourcePageLoaders } from '../../platform/resource/routes.ts';
import {
  ALERT_PATH,
  FINISHED_PATHS,
  INBOUND,
  INVENTORY_DETAILS_PATH,
  OUTBOUND,
  STOCKTAKE_PATHS,
  typePaths,
} from './warehouse.api.ts';

const docs = () => import('./stock-doc.pages.tsx');
const inbound = () => import('./inbound.pages.tsx');
const stock = () => import('./stock.pages.tsx');
const transfer = () => import('./transfer.pages.tsx');
const stocktake = () => import('./stocktake.pages.tsx');

function documentPages(): Record<string, PageLoader> {
  // 入库单: the kit's screens on each type's pages.
  const out: Record<string, PageLoader> = {
    [INBOUND.listPath]: () => inbound().then((m) => m.InboundListPage),
  };
  for (const type of Object.keys(INBOUND.segments)) {
    const p = typePaths(INBOUND, type);
    out[p.list] = () => inbound().then((m) => m.InboundListPage);
    out[p.add] = () => inbound().then((m) => m.InboundFormPage);
    out[p.edit] = () => inbound().then((m) => m.InboundFormPage);
    out[p.detail] = () => inbound().then((m) => m.InboundDetailPage);
  }
  out[OUTBOUND.listPath] = () => docs().then((m) => m.StockDocListPage);
  for (const type of Object.keys(OUTBOUND.segments)) {
    const p = typePaths(OUTBOUND, type);
    out[p.list] = () => docs().then((m) => m.StockDocListPage);
    out[p.add] = () => docs().then((m) => m.StockDocFormPage);
    out[p.edit] = () => docs().then((m) => m.StockDocFormPage);
    out[p.detail] = () => docs().then((m) => m.StockDocDetailPage);
  }
  return out;
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
