import '../../platform/resource/kit.css';
import './warehouse.css';
import { PlusOutlined } from '@ant-design/icons';
import type { FieldDef, ResourceDef } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown, Form, Table, Tag } from 'antd';
import type { ReactNode } from 'react';
import { usePermission, useRecordPermission } from '../../platform/auth/permission.tsx';
import { formatTime } from '../../platform/lib/time.ts';
import { DocumentPrint } from '../../platform/resource/document-print.tsx';
import type { LineCellOverride, LineCellOverrides } from '../../platform/resource/line-table.tsx';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import type { FieldOverride } from '../../platform/resource/resource-form.tsx';
import type { ResourceRoutes } from '../../platform/resource/routes.ts';
import {
  BaseQuantityCell,
  LineBaseTotals,
  LocationSelect,
  UnitSelect,
  useConversions,
} from './line-cells.tsx';
import { totalsByUnit } from './quantities.ts';
import { Dash, QualityTag, SignedQty, UnitTotals } from './shared.tsx';
import { SourceOrderSelect } from './source-order-select.tsx';
import { type DocKind, kindOfPath, qty, type Row, stockApi, typeLabel, typePaths } from './warehouse.api.ts';

/**
 * What the stock documents add to the kit's form and detail: their line cells (the units of the
 * line's material, the 库位 of the header's warehouse, the base quantity as it is typed), the
 * totals per base unit, and the ledger moves a posted document wrote.
 */

/** 单位: the units the line's material is counted in (base unit first). */
const UnitCell: LineCellOverride = ({ form, index, value, onChange, id }) => {
  const materialId = Form.useWatch(['lines', index, 'materialId'], form);
  return <UnitSelect materialId={materialId} value={value} onChange={onChange} id={id} />;
};

/** 基本单位数量 as the quantity and unit are typed (2 箱 of 50 show 100 个). */
const BaseQuantity: LineCellOverride = ({ form, index }) => {
  const line = Form.useWatch(['lines', index], form) as Row | undefined;
  return <BaseQuantityCell line={line} index={index} />;
};

/** A line's 库位 among the active locations of the warehouse a header field names. */
export function locationCell(warehouseField: string, placeholder = '请选择库位'): LineCellOverride {
  return function LocationCell({ form, ariaLabel, line: _, field: __, index: ___, ...input }) {
    const warehouseId = Form.useWatch(warehouseField, form);
    return (
      <LocationSelect warehouseId={warehouseId} placeholder={placeholder} label={ariaLabel} {...input} />
    );
  };
}

/** The cells every stock document line shares (入库, 出库, 调拨). */
export const MATERIAL_CELLS: LineCellOverrides = {
  'lines.unitId': UnitCell,
  'lines.baseQuantity': BaseQuantity,
};

/** 基本单位数量合计 of the lines being typed. */
export function LineTotals() {
  const form = Form.useFormInstance();
  const lines = Form.useWatch('lines', form) as Row[] | undefined;
  return <LineBaseTotals lines={lines} />;
}

/** The ledger moves a document wrote (posting and reversal). */
export function DocLedger({ docNo }: { docNo: string }) {
  const moves = useQuery({
    queryKey: ['warehouse', 'ledger', { docNo }],
    queryFn: () => stockApi.ledger({ docNo, pageNum: 0 }),
  });
  return (
    <Table<Row>
      size="small"
      rowKey="id"
      loading={moves.isFetching}
      dataSource={moves.data?.list ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid="doc-ledger"
      columns={[
        {
          title: '物料',
          dataIndex: 'materialName',
          width: 180,
          render: (v, r) => `${v}（${r.materialCode}）`,
        },
        { title: '仓库', dataIndex: 'warehouseName', width: 100 },
        { title: '库位', dataIndex: 'locationName', width: 120, render: (v) => v || <Dash /> },
        { title: '批次号', dataIndex: 'batchNo', width: 110, render: (v) => v || <Dash /> },
        { title: '质量', dataIndex: 'qualityStatus', width: 80, render: (v) => <QualityTag value={v} /> },
        {
          title: '数量',
          dataIndex: 'quantity',
          width: 110,
          align: 'right',
          render: (v) => <SignedQty value={v} />,
        },
        { title: '单位', dataIndex: 'unitName', width: 60 },
        {
          title: '成本单价',
          dataIndex: 'unitCost',
          width: 100,
          align: 'right',
          render: (v) => Number(v).toFixed(4),
        },
        {
          title: '说明',
          key: 'rev',
          width: 80,
          render: (_, r) => (r.reversalOf ? <Tag color="red">冲销</Tag> : '过账'),
        },
        { title: '记账时间', dataIndex: 'createdAt', width: 160, render: (v) => formatTime(v) },
      ]}
    />
  );
}

/** Sections of a stock document's detail: 基本单位数量合计, then the ledger moves once posted. */
export function StockDocSections({ row }: { row: ResourceRow }) {
  // 库存流水 is the warehouse's (a buyer viewing a 采购退货 sees the document, not the ledger).
  const seesLedger = usePermission()('warehouse:stock:list');
  const lines: Row[] = row.lines ?? [];
  const conversions = useConversions(lines.map((l) => l.materialId));
  return (
    <>
      <div className="wh-totals">
        <UnitTotals
          label="基本单位数量合计"
          totals={lines.map((l) => ({
            unitName: conversions.get(l.materialId)?.baseUnitName,
            quantity: l.baseQuantity,
          }))}
        />
      </div>
      {row.status !== 'draft' && seesLedger && (
        <div className="rk-form-section">
          <div className="rk-form-section-title">库存流水</div>
          <DocLedger docNo={row.docNo} />
        </div>
      )}
    </>
  );
}

/** The kind and type of an 入库单 / 出库单 page (`…/purchase-warehousing-add` → inbound, purchase). */
export function resolveKind(path: string): { kind: DocKind; type?: string } {
  const found = kindOfPath(path);
  if (!found) throw new Error(`不是出入库单的页面：${path}`);
  return found;
}

/**
 * Filters a stock document's list leaves out: the orders it was made against are found on their
 * own pages, and a keeper may not read them (their options answer 403).
 */
export const ORDER_FILTERS = ['purchaseOrderId', 'outsourcingOrderId', 'saleOrderId', 'productionOrderId'];

/** The kit's routes of one type's pages (list, add, edit, detail). */
export function typeRoutes(kind: DocKind, type: string): ResourceRoutes {
  return { ...typePaths(kind, type), formOnPage: true };
}

/** A type's document name: 采购入库单. */
export const docNameOf = (kind: DocKind, type: string | undefined) => `${typeLabel(kind, type)}单`;

/**
 * Header fields that apply to some types only (a 采购入库 has a 采购订单, a 生产入库 no supplier);
 * every other field applies to all. Reversal fields show once a document was reversed.
 */
export function shownByType(byType: Record<string, readonly string[]>) {
  return (f: FieldDef, values: Record<string, any>) => {
    if (f.name === 'reversedAt' || f.name === 'reversedById') return Boolean(values.reversedAt);
    const types = byType[f.name];
    return !types || types.includes(values.type);
  };
}

/** 新增 on the list of every type: a menu of the types this user may add (a 采购入库 keeper: his only). */
export function AddTypeMenu({ kind, types }: { kind: DocKind; types?: string[] }) {
  const may = useRecordPermission(kind.def);
  const allowed = kind.types.filter((t) => (!types || types.includes(t.value)) && may('add', t.value));
  if (allowed.length === 1)
    return (
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => openResourcePage(typePaths(kind, allowed[0].value).add)}
      >
        新增{allowed[0].label}单
      </Button>
    );
  return (
    <Dropdown
      menu={{
        items: allowed.map((t) => ({ key: t.value, label: t.label })),
        onClick: ({ key }) => openResourcePage(typePaths(kind, key).add),
      }}
    >
      <Button type="primary" icon={<PlusOutlined />}>
        新增{kind.def.label}
      </Button>
    </Dropdown>
  );
}

/** An order a document names, as a link to the order (its name, else the source number). */
function orderLink(idField: string, nameField: string, page: string) {
  return (row: ResourceRow): ReactNode =>
    row[idField] ? (
      <a onClick={() => openResourcePage(page, row[idField])}>{row[nameField] ?? row.sourceNo}</a>
    ) : undefined;
}

/** The orders a stock document was made against, as links on its detail. */
export const ORDER_LINKS: Record<string, (row: ResourceRow) => ReactNode> = {
  purchaseOrderId: orderLink('purchaseOrderId', 'purchaseOrderName', '/purchase/purchase-detail'),
  outsourcingOrderId: orderLink(
    'outsourcingOrderId',
    'outsourcingOrderName',
    '/purchase/outsourcing-manage-info',
  ),
  saleOrderId: orderLink('saleOrderId', 'saleOrderName', '/sale-manage/sale-order-detail'),
};

/** The printout of a stock document: its lines with the base quantities and their totals per unit, 仓管 signs. */
export function StockDocPrint({
  def,
  row,
  docName,
  onClose,
}: {
  def: ResourceDef;
  row: ResourceRow;
  docName: string;
  onClose: () => void;
}) {
  const lines: Row[] = row.lines ?? [];
  const conversions = useConversions(lines.map((l) => l.materialId));
  const totals = totalsByUnit(
    lines.map((l) => ({ unitName: conversions.get(l.materialId)?.baseUnitName, quantity: l.baseQuantity })),
  );
  return (
    <DocumentPrint
      def={def}
      record={row}
      docName={docName}
      signatures={['制单', '仓管', '审核']}
      computed={['baseQuantity']}
      totals={{ 基本单位数量: totals.map((u) => `${qty(u.quantity)} ${u.unitName}`).join('；') }}
      onClose={onClose}
    />
  );
}

/**
 * The order a document of the type being typed is made against (采购订单 of a 采购入库 or 采购退货,
 * 委外订单, 生产订单 of a 领料出库): choosing it fills the party and the order's open lines.
 */
export function orderPicker(
  kind: DocKind,
  label: string,
  options: { partyField?: string | null; placeholder?: string } = {},
): FieldOverride {
  return function OrderPicker({ form, id, value, onChange }) {
    const type = Form.useWatch('type', form) as string;
    return (
      <SourceOrderSelect
        kind={kind}
        type={type}
        label={label}
        partyField={options.partyField}
        placeholder={options.placeholder}
        id={id}
        value={value}
        onChange={onChange}
      />
    );
  };
}
