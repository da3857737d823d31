import { NodeIndexOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import {
  INSPECTION_TASK_LIFECYCLE,
  type InspectionCategory,
  inspectionCategory,
  inspectionPaths,
  precisionRule,
  precisionStep,
  QUALITY_STATUS,
  TRACE_READERS,
} from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Tag,
} from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { menuModel } from '../../platform/menu/menu-model.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { unitPrecisionRule, useCountingUnit } from '../../platform/resource/unit-precision.tsx';
import { useUser } from '../../platform/session.ts';
import type { TraceTarget } from '../quality/trace/trace.api.ts';
import { DocDetail } from './doc-detail.tsx';
import { DocFormPage, type LineColumn } from './doc-form.tsx';
import { DocList } from './doc-list.tsx';
import {
  AvailableCell,
  BaseQuantityCell,
  DeptSelect,
  LocationSelect,
  outboundShortages,
  UnitSelect,
} from './line-cells.tsx';
import { Dash, QUALITY_OPTIONS } from './shared.tsx';
import { SourceOrderSelect } from './source-order-select.tsx';
import { AddTypeMenu, resolveKind } from './stock-doc-kit.tsx';
import {
  type DocKind,
  money,
  QUALIFIED_ONLY_OUTBOUND,
  qty,
  type Row,
  typeLabel,
  typePaths,
} from './warehouse.api.ts';

const ref = (name: string, label: string, target: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: target,
});

/** 出库单 lists: every type on the list page, one type on each per-type page. */
export function StockDocListPage({ path }: PageProps) {
  const { kind, type } = resolveKind(path);
  const partner = {
    title: '客户/供应商',
    render: (_: unknown, r: Row) => r.customerName || r.supplierName || <Dash />,
  };
  return (
    <DocList
      def={kind.def}
      fixedType={type}
      types={kind.types}
      warehouses={[{ name: 'warehouseId', label: '仓库' }]}
      columns={[
        // A per-type page needs no 类型 column.
        ...(type
          ? []
          : [{ title: '类型', dataIndex: 'type', width: 100, render: (v: string) => typeLabel(kind, v) }]),
        { title: '仓库', dataIndex: 'warehouseName', width: 100, ellipsis: true },
        { ...partner, key: 'partner', width: 156, ellipsis: true },
        { title: '来源单号', dataIndex: 'sourceNo', width: 140, render: (v?: string) => v || <Dash /> },
      ]}
      pathsOf={(row) => {
        const p = typePaths(kind, row.type);
        return { edit: p.edit, detail: p.detail };
      }}
      addButton={<AddTypeMenu kind={kind} types={type ? [type] : undefined} />}
    />
  );
}

function header(kind: DocKind, fixedType: string | undefined) {
  return () => (
    <>
      <Form.Item name="type" label="出库类型" rules={[{ required: true, message: '请选择类型' }]}>
        <Select options={kind.types} disabled={Boolean(fixedType)} placeholder="请选择类型" />
      </Form.Item>
      <Form.Item name="warehouseId" label="仓库" rules={[{ required: true, message: '请选择仓库' }]}>
        <RefSelect field={ref('warehouseId', '仓库', 'warehouse-management')} />
      </Form.Item>
      <Form.Item name="bizDate" label="业务日期" tooltip="不填则为今天">
        <DatePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(a, b) => a.type !== b.type}>
        {({ getFieldValue }) => {
          const t = getFieldValue('type');
          const supplier = ['outsourcing', 'purchase-return', 'outsourcing-return'];
          const outsourcing = ['outsourcing', 'outsourcing-return'];
          const customer = ['sales'];
          return (
            <>
              {(supplier.includes(t) || t === 'other') && (
                <Form.Item name="supplierId" label="供应商">
                  <RefSelect field={ref('supplierId', '供应商', 'supplier')} />
                </Form.Item>
              )}
              {customer.includes(t) && (
                <Form.Item name="customerId" label="客户">
                  <RefSelect field={ref('customerId', '客户', 'customer')} />
                </Form.Item>
              )}
              {t === 'purchase-return' && (
                <Form.Item
                  name="purchaseOrderId"
                  label="采购订单"
                  tooltip="按采购订单收货/退货：选择订单带出未到（可退）的明细；明细按物料关联订单行，过账时累计订单的已入库（已退货）数量"
                >
                  <SourceOrderSelect kind={kind} type={t} label="采购订单" />
                </Form.Item>
              )}
              {outsourcing.includes(t) && (
                <Form.Item
                  name="outsourcingOrderId"
                  label="委外订单"
                  tooltip="按委外订单发料/收货/退货：选择订单带出未完成的明细；明细按物料关联订单行，过账时累计订单的已发料（已收回、已退货）数量和重量"
                >
                  <SourceOrderSelect kind={kind} type={t} label="委外订单" />
                </Form.Item>
              )}
              {customer.includes(t) && (
                <Form.Item
                  name="saleOrderId"
                  label="销售订单"
                  tooltip="按订单发货/退货：明细按产品关联订单行，过账时累计（退货冲减）订单的已发货数量"
                >
                  <RefSelect field={ref('saleOrderId', '销售订单', 'sale-order')} />
                </Form.Item>
              )}
              {t === 'requisition' && (
                <Form.Item
                  name="productionOrderId"
                  label="生产订单"
                  tooltip="按生产订单领料：选择已下达或生产中的订单，带出各项物料需求的未领数量（需求 − 已领料）；过账时累计订单的已领料，超出需求（含超领比例）的不能过账"
                >
                  <SourceOrderSelect
                    kind={kind}
                    type={t}
                    label="生产订单"
                    partyField={null}
                    placeholder="搜索生产订单编号、产品或客户"
                  />
                </Form.Item>
              )}
              {t === 'requisition' && (
                <Form.Item name="deptId" label="领用部门">
                  <DeptSelect />
                </Form.Item>
              )}
            </>
          );
        }}
      </Form.Item>
      <Form.Item name="sourceNo" label="来源单号" rules={[{ max: 40, message: '不超过 40 个字符' }]}>
        <Input placeholder="采购订单、生产订单、销售订单等的单号" allowClear />
      </Form.Item>
      <Form.Item
        name="remark"
        label="备注"
        className="rk-span-all"
        rules={[{ max: 500, message: '不超过 500 个字符' }]}
      >
        <Input.TextArea rows={2} />
      </Form.Item>
    </>
  );
}

/**
 * 数量 of a line: steps by its unit's precision (the chosen unit, else the material's) and says at
 * once when a fraction does not fit it, in the server's words (unit precision, issue 34 §2).
 */
function QuantityCell({ i, form }: { i: number; form: FormInstance }) {
  const client = useQueryClient();
  const at = (name: string) => ['lines', i, name];
  const unit = useCountingUnit(Form.useWatch(at('materialId'), form), Form.useWatch(at('unitId'), form));
  return (
    <Form.Item
      name={[i, 'quantity']}
      dependencies={[at('materialId'), at('unitId')]}
      rules={[
        { required: true, message: '请输入数量' },
        { type: 'number', min: 0.0001, message: '数量必须大于 0' },
        unitPrecisionRule('数量', client, () => ({
          materialId: form.getFieldValue(at('materialId')),
          unitId: form.getFieldValue(at('unitId')),
        })),
      ]}
    >
      <InputNumber
        style={{ width: '100%' }}
        min={0}
        precision={unit ? undefined : 4}
        step={unit ? Number(precisionStep(unit.precision)) : undefined}
        placeholder={unit ? precisionRule(unit.precision) : undefined}
        aria-label={`第${i + 1}行数量`}
      />
    </Form.Item>
  );
}

/** The cells of a document line shared by 入库, 出库 and 调拨. */
export function materialColumns(): LineColumn[] {
  return [
    {
      title: '物料',
      name: 'materialId',
      width: 240,
      required: true,
      render: (i, form) => (
        <Form.Item name={[i, 'materialId']} rules={[{ required: true, message: '请选择物料' }]}>
          <RefSelect
            field={ref('materialId', '物料', 'material-info')}
            placeholder="搜索物料名称或编码"
            fallbackLabel={form.getFieldValue(['lines', i, 'materialName'])}
          />
        </Form.Item>
      ),
    },
    {
      title: '数量',
      name: 'quantity',
      width: 120,
      required: true,
      render: (i, form) => <QuantityCell i={i} form={form} />,
    },
    {
      title: '单位',
      name: 'unitId',
      width: 140,
      render: (i, form) => (
        <Form.Item noStyle shouldUpdate>
          {() => (
            <Form.Item name={[i, 'unitId']}>
              <UnitSelect materialId={form.getFieldValue(['lines', i, 'materialId'])} />
            </Form.Item>
          )}
        </Form.Item>
      ),
    },
    {
      title: '基本单位数量',
      name: 'baseQuantity',
      width: 120,
      render: (i, form) => (
        <Form.Item noStyle shouldUpdate>
          {() => <BaseQuantityCell line={form.getFieldValue(['lines', i])} index={i} />}
        </Form.Item>
      ),
    },
  ];
}

/** 可用 of an outbound line, as material, warehouse, location, batch and quality are chosen. */
const availableColumn: LineColumn = {
  title: '可用',
  name: 'available',
  width: 110,
  render: (i, form) => (
    <Form.Item noStyle shouldUpdate>
      {() => (
        <AvailableCell
          line={form.getFieldValue(['lines', i])}
          warehouseId={form.getFieldValue('warehouseId')}
          index={i}
        />
      )}
    </Form.Item>
  ),
};

export const batchColumns: LineColumn[] = [
  {
    title: '批次号',
    name: 'batchNo',
    width: 140,
    render: (i) => (
      <Form.Item name={[i, 'batchNo']} rules={[{ max: 60, message: '不超过 60 个字符' }]}>
        <Input placeholder="炉号/批次" aria-label={`第${i + 1}行批次号`} allowClear />
      </Form.Item>
    ),
  },
  {
    title: '质量状态',
    name: 'qualityStatus',
    width: 100,
    render: (i) => (
      <Form.Item name={[i, 'qualityStatus']}>
        <Select options={QUALITY_OPTIONS} aria-label={`第${i + 1}行质量状态`} />
      </Form.Item>
    ),
  },
];

export const remarkColumn: LineColumn = {
  title: '备注',
  name: 'remark',
  width: 140,
  render: (i) => (
    <Form.Item name={[i, 'remark']} rules={[{ max: 200, message: '不超过 200 个字符' }]}>
      <Input allowClear />
    </Form.Item>
  ),
};

function lineColumns(): LineColumn[] {
  const location: LineColumn = {
    title: '库位',
    name: 'locationId',
    width: 170,
    render: (i, form) => (
      <Form.Item noStyle shouldUpdate={(a, b) => a.warehouseId !== b.warehouseId}>
        {() => (
          <Form.Item name={[i, 'locationId']}>
            <LocationSelect
              warehouseId={form.getFieldValue('warehouseId')}
              placeholder="不填按先进先出"
              label={`第${i + 1}行库位`}
            />
          </Form.Item>
        )}
      </Form.Item>
    ),
  };
  return [...materialColumns(), location, ...batchColumns, availableColumn, remarkColumn];
}

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

/** 新增 / 编辑 of an 出库单 (the per-type -add and -edit pages). */
export function StockDocFormPage({ path }: PageProps) {
  const { kind, type } = resolveKind(path);
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const t = type ?? 'other';
  const paths = typePaths(kind, t);
  const client = useQueryClient();
  return (
    <DocFormPage
      key={id ?? 'new'}
      def={kind.def}
      path={path}
      id={id}
      title={`${id ? '编辑' : '新增'}${typeLabel(kind, t)}单`}
      listPath={paths.list}
      detailPath={paths.detail}
      header={header(kind, type)}
      lineColumns={lineColumns()}
      newLine={() => ({ qualityStatus: 'qualified' })}
      initialValues={{ type: t }}
      beforeSave={async (values) =>
        confirmShortages(await outboundShortages(client, values.lines, values.warehouseId))
      }
    />
  );
}

/** The production order a 领料出库 names: a link for who may read orders, its number for the keeper. */
function ProductionOrderLink({ id, name }: { id: number; name: string }) {
  const can = usePermission();
  if (!can('production:order:list')) return <>{name}</>;
  return (
    <a onClick={() => openResourcePage('/production-department/production-manage/produce-order-detail', id)}>
      {name}
    </a>
  );
}

const SHIPMENT_INSPECTION = inspectionPaths(inspectionCategory('shipment') as InspectionCategory);
const inspectionsOf = (outboundId: number) => ['resource', 'inspection-task', 'for-outbound', outboundId];

/** Who follows a 销售出库's inspections: who reads sales outbounds, or shipment inspections. */
const READS_INSPECTIONS = [
  'warehouse:salesOutbound:list',
  'warehouse:outbound:list',
  'quality:shipment:list',
];

/**
 * 出货检验 of a 销售出库: its tasks with their state (the shipment gate of 系统设置 waits for them
 * to pass), each opening its task where the user may.
 */
function ShipmentInspections({ row }: { row: Row }) {
  const can = usePermission();
  const user = useUser();
  const tasks = useQuery({
    queryKey: inspectionsOf(row.id),
    queryFn: () => http.get<Row[]>(`/api/v1/inspection-task/for-outbound/${row.id}`),
    enabled: READS_INSPECTIONS.some((p) => can(p)),
  });
  if (!tasks.data) return <Dash />;
  if (!tasks.data.length) return <span data-testid="outbound-inspections">未生成</span>;
  const opens = Boolean(user && menuModel(user).canVisit(SHIPMENT_INSPECTION.detail));
  return (
    <Space wrap size={[12, 4]} data-testid="outbound-inspections">
      {tasks.data.map((t) => {
        const state = INSPECTION_TASK_LIFECYCLE.states.find((x) => x.value === t.status);
        return (
          <span key={t.id}>
            {opens ? (
              <a onClick={() => openResourcePage(SHIPMENT_INSPECTION.detail, t.id)}>{t.docNo}</a>
            ) : (
              t.docNo
            )}{' '}
            {t.productName} <Tag color={state?.color}>{state?.label ?? t.status}</Tag>
          </span>
        );
      })}
    </Space>
  );
}

/**
 * 生成出货检验 on a 销售出库 draft: one 出货检验 task per material not yet covered (the
 * shipment gate of 系统设置 waits for them to pass). The keeper raises it and follows it on the
 * outbound; quality, who may open the task, goes to it.
 */
function ShipmentInspectionButton({ row }: { row: Row }) {
  const can = usePermission();
  const user = useUser();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const raises = can('quality:shipment:add') || can('warehouse:salesOutbound:requestInspection');
  if (row.type !== 'sales' || row.status !== 'draft' || !raises) return null;
  const make = async () => {
    setBusy(true);
    try {
      const r = await http.post<{ ids: number[] }>(`/api/v1/inspection-task/for-outbound/${row.id}`, {});
      await client.invalidateQueries({ queryKey: inspectionsOf(row.id) });
      if (!r.ids.length) toast.warning('本单的物料都已有出货检验单');
      else if (user && menuModel(user).canVisit(SHIPMENT_INSPECTION.detail)) {
        toast.success(`已生成 ${r.ids.length} 张出货检验单`);
        openResourcePage(SHIPMENT_INSPECTION.detail, r.ids[0]);
      } else toast.success(`已生成 ${r.ids.length} 张出货检验单，已通知质检员；检验合格后即可过账`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<SafetyCertificateOutlined />} loading={busy} onClick={make}>
      生成出货检验
    </Button>
  );
}

/** 质量追溯 in a drawer, loaded when first opened. */
const TraceDrawer = lazy(() =>
  import('../quality/trace/trace.page.tsx').then((m) => ({ default: m.TraceDrawer })),
);

/**
 * Detail of an 出库单 with 过账 / 冲销 / 打印; each line of a posted 销售出库 has 追溯: its
 * batches back to their flow cards, steps, inspections, measurements and the steel's heats.
 */
export function StockDocDetailPage({ path }: PageProps) {
  const { kind, type } = resolveKind(path);
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const paths = typePaths(kind, type ?? 'other');
  const tracer = usePermission()(TRACE_READERS);
  const [trace, setTrace] = useState<TraceTarget>();
  return (
    <DocDetail
      def={kind.def}
      path={path}
      id={id}
      listPath={paths.list}
      editPath={paths.edit}
      docName={(row) => typeLabel(kind, row.type) + '单'}
      fields={(row) => [
        { label: '单据编号', value: row.docNo },
        { label: '出库类型', value: typeLabel(kind, row.type) },
        { label: '仓库', value: row.warehouseName },
        { label: '业务日期', value: row.bizDate },
        ...(row.supplierName ? [{ label: '供应商', value: row.supplierName }] : []),
        ...(row.customerName ? [{ label: '客户', value: row.customerName }] : []),
        ...(row.deptName ? [{ label: '领用部门', value: row.deptName }] : []),
        ...(row.purchaseOrderId
          ? [
              {
                label: '采购订单',
                value: (
                  <a onClick={() => openResourcePage('/purchase/purchase-detail', row.purchaseOrderId)}>
                    {row.purchaseOrderName ?? row.sourceNo}
                  </a>
                ),
              },
            ]
          : []),
        ...(row.outsourcingOrderId
          ? [
              {
                label: '委外订单',
                value: (
                  <a
                    onClick={() =>
                      openResourcePage('/purchase/outsourcing-manage-info', row.outsourcingOrderId)
                    }
                  >
                    {row.outsourcingOrderName ?? row.sourceNo}
                  </a>
                ),
              },
            ]
          : []),
        ...(row.productionOrderId
          ? [
              {
                label: '生产订单',
                value: (
                  <ProductionOrderLink
                    id={row.productionOrderId}
                    name={row.productionOrderName ?? row.sourceNo}
                  />
                ),
              },
            ]
          : []),
        row.saleOrderId
          ? {
              label: '销售订单',
              value: (
                <a onClick={() => openResourcePage('/sale-manage/sale-order-detail', row.saleOrderId)}>
                  {row.saleOrderName ?? row.sourceNo}
                </a>
              ),
            }
          : {
              label: '来源单号',
              value:
                row.purchaseOrderId || row.outsourcingOrderId || row.productionOrderId
                  ? undefined
                  : row.sourceNo,
            },
        { label: '过账时间', value: row.postedAt },
        { label: '过账人', value: row.postedByName },
        ...(row.reversedAt
          ? [
              { label: '冲销时间', value: row.reversedAt },
              { label: '冲销人', value: row.reversedByName },
            ]
          : []),
        ...(row.type === 'sales' ? [{ label: '出货检验', value: <ShipmentInspections row={row} /> }] : []),
        { label: '备注', value: row.remark },
      ]}
      lineColumns={[
        { title: '物料', render: (l) => l.materialName, width: '22%' },
        { title: '数量', render: (l) => qty(l.quantity), numeric: true },
        { title: '单位', render: (l) => l.unitName ?? '基本单位' },
        { title: '基本单位数量', render: (l) => qty(l.baseQuantity), numeric: true },
        { title: '库位', render: (l) => l.locationName ?? '' },
        { title: '批次号', render: (l) => l.batchNo ?? '' },
        {
          title: '质量状态',
          render: (l) => QUALITY_STATUS.find((q) => q.value === l.qualityStatus)?.label ?? '',
        },
        {
          title: '单价(元)',
          render: (l) => (l.unitPrice == null ? '' : money(l.unitPrice)),
          numeric: true,
        },
        {
          title: '金额(元)',
          render: (l) => (l.unitPrice == null ? '' : money(Number(l.unitPrice) * Number(l.quantity))),
          numeric: true,
        },
      ]}
      qualifiedOnly={QUALIFIED_ONLY_OUTBOUND.includes(type ?? '')}
      extra={(row) => <ShipmentInspectionButton row={row} />}
      lineActions={
        tracer
          ? (l, row) =>
              row.type === 'sales' && row.status === 'posted' ? (
                <Button
                  size="small"
                  type="link"
                  icon={<NodeIndexOutlined />}
                  data-testid={`trace-line-${l.lineNo ?? l.id}`}
                  onClick={() =>
                    setTrace({
                      kind: 'outbound',
                      id: row.id,
                      lineId: l.id,
                      code: `${row.docNo} 第 ${l.lineNo ?? ''} 行`,
                    })
                  }
                >
                  追溯
                </Button>
              ) : null
          : undefined
      }
      footer={
        trace && (
          <Suspense fallback={null}>
            <TraceDrawer target={trace} onClose={() => setTrace(undefined)} />
          </Suspense>
        )
      }
    />
  );
}
