import { NodeIndexOutlined } from '@ant-design/icons';
import { QUALIFIED_ONLY_OUTBOUND, TRACE_READERS } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, type FormInstance, Modal } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { usePermission } from '../../platform/auth/permission.tsx';
import type { PageProps } from '../../platform/page.ts';
import type { LineExtraColumn } from '../../platform/resource/line-table.tsx';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { ResourceFormPage } from '../../platform/resource/resource-form.page.tsx';
import type { FieldOverride } from '../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { TraceTarget } from '../quality/trace/trace.api.ts';
import { DeliveryNotePrint } from './delivery-note.tsx';
import { AvailableCell, DeptSelect, outboundShortages } from './line-cells.tsx';
import { useRefreshDocs } from './shared.tsx';
import { ShipmentInspectionButton, ShipmentInspections } from './shipment-inspection.tsx';
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
import { OUTBOUND, qty, type Row } from './warehouse.api.ts';

/**
 * 出库单: the kit's list, form and detail on each type's pages (领料出库, 销售出库 …, one resource;
 * 采购退货 and 委外退货 are the buyer's pages of their type under 采购管理). The list of every type
 * opens each document on its type's pages.
 */

const def = OUTBOUND.def;

const shows = shownByType({
  deptId: ['requisition'],
  productionOrderId: ['requisition'],
  supplierId: ['outsourcing', 'purchase-return', 'outsourcing-return', 'other'],
  purchaseOrderId: ['purchase-return'],
  outsourcingOrderId: ['outsourcing', 'outsourcing-return'],
  customerId: ['sales'],
  saleOrderId: ['sales'],
});

/**
 * The orders issued or returned against: choosing one fills the party and the order's open lines;
 * 领用部门 from the department tree.
 */
const INPUTS = {
  deptId: (({ id, value, onChange }) => (
    <DeptSelect id={id} value={value} onChange={onChange} />
  )) as FieldOverride,
  purchaseOrderId: orderPicker(OUTBOUND, '采购订单'),
  outsourcingOrderId: orderPicker(OUTBOUND, '委外订单'),
  productionOrderId: orderPicker(OUTBOUND, '生产订单', {
    partyField: null,
    placeholder: '搜索生产订单编号、产品或客户',
  }),
};

/** The cost of a line is posting's (moving average): not typed, so not on the form. */
const CELLS = {
  ...MATERIAL_CELLS,
  'lines.locationId': locationCell('warehouseId', '不填按先进先出'),
  'lines.unitPrice': null,
};

/** 可用 of a line as its material, warehouse, location, batch and quality are chosen. */
function Available({ form, index }: { form: FormInstance; index: number }) {
  const line = Form.useWatch(['lines', index], form) as Row | undefined;
  const warehouseId = Form.useWatch('warehouseId', form) as number | undefined;
  return <AvailableCell line={line} warehouseId={warehouseId} index={index} />;
}

const AVAILABLE: LineExtraColumn[] = [
  {
    key: 'available',
    title: '可用',
    width: 110,
    after: 'qualityStatus',
    render: (form, index) => <Available form={form} index={index} />,
  },
];

/** Asks before saving lines above what is available (posting would refuse them); true to save. */
function confirmShortages(short: Awaited<ReturnType<typeof outboundShortages>>): Promise<boolean> {
  if (!short.length) return Promise.resolve(true);
  const lines = short.flatMap((s) => s.lines);
  return new Promise((resolve) => {
    Modal.confirm({
      title: `第${lines.join('、')}行超过可用库存`,
      content: (
        <div data-testid="shortage-warning">
          {short.map((s) => (
            <div key={s.lines.join()}>
              第{s.lines.join('、')}行：需要 {qty(s.need)} {s.unitName}，可用 {qty(s.available)} {s.unitName}
            </div>
          ))}
          <div style={{ marginTop: 8 }}>草稿可以保存，但库存不足时过账会被拒绝。</div>
        </div>
      ),
      okText: '仍然保存',
      cancelText: '返回修改',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** The production order a 领料出库 names: a link for who may read orders, its number for the keeper. */
function ProductionOrderLink({ row }: { row: ResourceRow }) {
  const can = usePermission();
  const name = row.productionOrderName ?? row.sourceNo;
  if (!can('production:order:list')) return <>{name}</>;
  return (
    <a
      onClick={() =>
        openResourcePage(
          '/production-department/production-manage/produce-order-detail',
          row.productionOrderId,
        )
      }
    >
      {name}
    </a>
  );
}

const DISPLAY = {
  ...ORDER_LINKS,
  productionOrderId: (row: ResourceRow) =>
    row.productionOrderId ? <ProductionOrderLink row={row} /> : undefined,
};

/** 质量追溯 in a drawer, loaded when first opened. */
const TraceDrawer = lazy(() =>
  import('../quality/trace/trace.page.tsx').then((m) => ({ default: m.TraceDrawer })),
);

export function OutboundListPage({ path }: PageProps) {
  const { kind, type } = resolveKind(path);
  return (
    <ResourceListPage
      def={def}
      path={path}
      fixedFilters={type ? { type } : undefined}
      hiddenFilters={type ? ['type', ...ORDER_FILTERS] : ORDER_FILTERS}
      hiddenColumns={type ? ['type'] : undefined}
      label={type ? docNameOf(kind, type) : undefined}
      routes={type ? typeRoutes(kind, type) : undefined}
      routesOf={(row) => typeRoutes(kind, row.type)}
      addButton={type ? undefined : <AddTypeMenu kind={kind} />}
      onTransition={useRefreshDocs(def)}
    />
  );
}

/** 新增 / 编辑 on a type's page; 保存 above 可用 asks first. Saved, the draft opens its detail. */
export function OutboundFormPage({ path }: PageProps) {
  const { kind, type = 'other' } = resolveKind(path);
  const client = useQueryClient();
  return (
    <ResourceFormPage
      def={def}
      path={path}
      routes={typeRoutes(kind, type)}
      formName="wh-stock-outbound"
      label={docNameOf(kind, type)}
      initialValues={{ type }}
      locked={['type']}
      shows={shows}
      overrides={INPUTS}
      cells={CELLS}
      lineColumns={() => AVAILABLE}
      lineFooter={() => <LineTotals />}
      beforeSave={async (values) =>
        confirmShortages(await outboundShortages(client, values.lines ?? [], values.warehouseId))
      }
      opensDetail
    />
  );
}

/**
 * Detail with 过账 / 冲销 / 打印 (a 销售出库 prints the customer's 送货单); a 销售出库 shows its
 * 出货检验 and, posted, 追溯 on each line: its batches back to their flow cards and the steel's heats.
 */
export function OutboundDetailPage({ path }: PageProps) {
  const { kind, type = 'other' } = resolveKind(path);
  const tracer = usePermission()(TRACE_READERS);
  const [trace, setTrace] = useState<TraceTarget>();
  return (
    <ResourceDetailPage
      def={def}
      path={path}
      routes={typeRoutes(kind, type)}
      label={(row) => docNameOf(kind, row.type)}
      titleClass="wh-detail-head"
      shows={shows}
      display={DISPLAY}
      keepsRefusal
      onTransition={useRefreshDocs(def)}
      actions={(row) => <ShipmentInspectionButton row={row} />}
      lineActions={
        tracer
          ? (line, row) =>
              row.type === 'sales' && row.status === 'posted' ? (
                <Button
                  size="small"
                  type="link"
                  icon={<NodeIndexOutlined />}
                  data-testid={`trace-line-${line.lineNo ?? line.id}`}
                  onClick={() =>
                    setTrace({
                      kind: 'outbound',
                      id: row.id,
                      lineId: line.id,
                      code: `${row.docNo} 第 ${line.lineNo ?? ''} 行`,
                    })
                  }
                >
                  追溯
                </Button>
              ) : null
          : undefined
      }
      sections={(row) => (
        <>
          {row.status === 'draft' && QUALIFIED_ONLY_OUTBOUND.includes(row.type) && (
            <Alert
              type="info"
              showIcon
              className="rk-form-alert"
              title="该类型只能发出质量状态为「合格」的库存"
            />
          )}
          {row.type === 'sales' && (
            <div className="rk-form-section">
              <div className="rk-form-section-title">出货检验</div>
              <ShipmentInspections row={row} />
            </div>
          )}
          <StockDocSections row={row} />
          {trace && (
            <Suspense fallback={null}>
              <TraceDrawer target={trace} onClose={() => setTrace(undefined)} />
            </Suspense>
          )}
        </>
      )}
      print={{
        label: (row) => (row.type === 'sales' ? '打印送货单' : '打印'),
        render: (row, close) =>
          row.type === 'sales' ? (
            <DeliveryNotePrint id={row.id} onClose={close} />
          ) : (
            <StockDocPrint def={def} row={row} docName={docNameOf(kind, row.type)} onClose={close} />
          ),
      }}
    />
  );
}

/** The type pages' components (`typedPages` in warehouse-pages.ts). */
export const pages = { list: OutboundListPage, form: OutboundFormPage, detail: OutboundDetailPage };
