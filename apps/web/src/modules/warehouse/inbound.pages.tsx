import type { PageProps } from '../../platform/page.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { ResourceFormPage } from '../../platform/resource/resource-form.page.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import { useRefreshDocs } from './shared.tsx';
import {
  AddTypeMenu,
  docNameOf,
  LineTotals,
  locationCell,
  MATERIAL_CELLS,
  ORDER_FILTERS,
  ORDER_LINKS,
  orderPicker,
  resolveKind,
  StockDocPrint,
  StockDocSections,
  shownByType,
  typeRoutes,
} from './stock-doc-kit.tsx';
import { INBOUND } from './warehouse.api.ts';

/**
 * 入库单: the kit's list, form and detail on each type's pages (采购入库, 生产入库 …, one resource);
 * the list of every type opens each document on its type's pages.
 */

const def = INBOUND.def;

const shows = shownByType({
  supplierId: ['purchase', 'outsourced', 'other'],
  purchaseOrderId: ['purchase'],
  outsourcingOrderId: ['outsourced'],
  customerId: ['sales-return'],
  saleOrderId: ['sales-return'],
});

/** The orders received against: choosing one fills the supplier and the order's open lines. */
const ORDER_PICKERS = {
  purchaseOrderId: orderPicker(INBOUND, '采购订单'),
  outsourcingOrderId: orderPicker(INBOUND, '委外订单'),
};

const CELLS = { ...MATERIAL_CELLS, 'lines.locationId': locationCell('warehouseId') };

export function InboundListPage({ path }: PageProps) {
  const { type } = resolveKind(path);
  return (
    <ResourceListPage
      def={def}
      path={path}
      fixedFilters={type ? { type } : undefined}
      hiddenFilters={type ? ['type', ...ORDER_FILTERS] : ORDER_FILTERS}
      hiddenColumns={type ? ['type'] : undefined}
      label={type ? docNameOf(INBOUND, type) : undefined}
      routes={type ? typeRoutes(INBOUND, type) : undefined}
      routesOf={(row) => typeRoutes(INBOUND, row.type)}
      addButton={type ? undefined : <AddTypeMenu kind={INBOUND} />}
      onTransition={useRefreshDocs(def)}
    />
  );
}

/** 新增 / 编辑 on a type's page: saved, the draft opens its detail, where it is posted. */
export function InboundFormPage({ path }: PageProps) {
  const type = resolveKind(path).type ?? 'other';
  return (
    <ResourceFormPage
      def={def}
      path={path}
      routes={typeRoutes(INBOUND, type)}
      formName="wh-stock-inbound"
      label={docNameOf(INBOUND, type)}
      initialValues={{ type }}
      locked={['type']}
      shows={shows}
      overrides={ORDER_PICKERS}
      cells={CELLS}
      lineFooter={() => <LineTotals />}
      opensDetail
    />
  );
}

export function InboundDetailPage({ path }: PageProps) {
  const type = resolveKind(path).type ?? 'other';
  return (
    <ResourceDetailPage
      def={def}
      path={path}
      routes={typeRoutes(INBOUND, type)}
      label={(row) => docNameOf(INBOUND, row.type)}
      shows={shows}
      display={ORDER_LINKS}
      keepsRefusal
      onTransition={useRefreshDocs(def)}
      sections={(row) => <StockDocSections row={row} />}
      print={{
        render: (row, close) => (
          <StockDocPrint def={def} row={row} docName={docNameOf(INBOUND, row.type)} onClose={close} />
        ),
      }}
    />
  );
}

/** The type pages' components (`typedPages` in warehouse-pages.ts). */
export const pages = { list: InboundListPage, form: InboundFormPage, detail: InboundDetailPage };
