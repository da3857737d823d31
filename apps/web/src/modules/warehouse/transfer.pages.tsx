import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { ResourceFormPage } from '../../platform/resource/resource-form.page.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { useRefreshDocs } from './shared.tsx';
import {
  LineTotals,
  locationCell,
  MATERIAL_CELLS,
  StockDocPrint,
  StockDocSections,
} from './stock-doc-kit.tsx';

/** 调拨单: the kit's screens; a line's 调出库位 / 调入库位 are among its warehouse's locations. */
const TRANSFER_CELLS = {
  ...MATERIAL_CELLS,
  'lines.fromLocationId': locationCell('fromWarehouseId', '不填按先进先出'),
  'lines.toLocationId': locationCell('toWarehouseId'),
};

export function TransferListPage(props: ResourcePageProps) {
  return <ResourceListPage {...props} onTransition={useRefreshDocs(props.def)} />;
}

/** 调拨单编辑 (the -panel page): add without `?id`, edit with it; saved, it opens its detail. */
export function TransferFormPage(props: ResourcePageProps) {
  return <ResourceFormPage {...props} cells={TRANSFER_CELLS} lineFooter={() => <LineTotals />} opensDetail />;
}

export function TransferDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      keepsRefusal
      onTransition={useRefreshDocs(props.def)}
      sections={(row) => <StockDocSections row={row} />}
      print={{
        render: (row, close) => (
          <StockDocPrint def={props.def} row={row} docName={props.def.label} onClose={close} />
        ),
      }}
    />
  );
}
