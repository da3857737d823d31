import { LINE_UNIT } from '../resource/doc-fields.ts';
import type { LifecycleDef, TransitionDef } from '../resource/lifecycle.ts';
import type { EnumOption, FieldDef, LineDef, ResourceDef } from '../resource/types.ts';

/** Document states of every stock document: 草稿 → 已过账 → 已冲销. */
export const STOCK_DOC_STATUS: EnumOption[] = [
  { value: 'draft', label: '草稿', color: 'default' },
  { value: 'posted', label: '已过账', color: 'green' },
  { value: 'reversed', label: '已冲销', color: 'red' },
];

/** 过账: the stock moves (apps/server warehouse `postDocument`); the document can no longer be edited. */
const POST: TransitionDef = {
  name: 'post',
  label: '过账',
  from: ['draft'],
  to: 'posted',
  tone: 'primary',
  confirm: '过账后库存立即变动，单据不能再修改。确定过账？',
};

/** 冲销: the opposite moves of the posted ones (红冲); refused when the goods received were issued. */
const REVERSE: TransitionDef = {
  name: 'reverse',
  label: '冲销',
  from: ['posted'],
  to: 'reversed',
  tone: 'danger',
  confirm: '将按原单反向记账（红冲），此操作不可撤销。确定冲销？',
};

/**
 * Lifecycle of 入库单, 出库单 and 调拨单: 草稿 → 已过账 (过账) → 已冲销 (冲销). Only drafts are edited
 * and deleted. The transitions run through the lifecycle engine; their effect is the stock posting.
 */
export const STOCK_DOC_LIFECYCLE: LifecycleDef = {
  states: STOCK_DOC_STATUS,
  initial: 'draft',
  editable: ['draft'],
  transitions: [POST, REVERSE],
};

/**
 * 盘点单: 过账 books the differences; 冲销 takes them back at the amounts they were booked at (盘盈
 * out of stock again, 盘亏 back in), refused when the 盘盈 stock has been issued since or a later
 * posted count of the warehouse counted the same stock (that count is the books' truth now; it is
 * reversed first). docs/architecture.md, "Valuation and reversals".
 */
export const STOCKTAKE_LIFECYCLE: LifecycleDef = {
  ...STOCK_DOC_LIFECYCLE,
  transitions: [
    POST,
    {
      ...REVERSE,
      confirm: '将按原盘点差异反向记账（盘盈冲回、盘亏补回，按过账时的金额），此操作不可撤销。确定冲销？',
    },
  ],
};

/** Quality status of stock: only 合格 stock can be issued to production or shipped. */
export const QUALITY_STATUS: EnumOption[] = [
  { value: 'qualified', label: '合格', color: 'green' },
  { value: 'pending', label: '待检', color: 'orange' },
  { value: 'rejected', label: '不合格', color: 'red' },
];

export const INBOUND_TYPES: EnumOption[] = [
  { value: 'purchase', label: '采购入库' },
  { value: 'production', label: '生产入库' },
  { value: 'outsourced', label: '委外入库' },
  { value: 'sales-return', label: '销售退货入库' },
  { value: 'other', label: '其他入库' },
];

export const OUTBOUND_TYPES: EnumOption[] = [
  { value: 'requisition', label: '领料出库' },
  { value: 'outsourcing', label: '委外发料出库' },
  { value: 'sales', label: '销售出库' },
  { value: 'purchase-return', label: '采购退货出库' },
  { value: 'outsourcing-return', label: '委外退货出库' },
  { value: 'other', label: '其他出库' },
];

/** Outbound kinds that may only issue 合格 stock. */
export const QUALIFIED_ONLY_OUTBOUND = ['requisition', 'sales', 'outsourcing'];

/** The document number, generated on save with the document's prefix (its `numbering`). */
const docNo = (prefix: string): FieldDef => ({
  name: 'docNo',
  label: '单据编号',
  kind: 'text',
  max: 30,
  readonly: true,
  unique: true,
  filter: 'like',
  sortable: true,
  help: `保存时自动生成，如 ${prefix}20261122-0001`,
});
const status: FieldDef = {
  name: 'status',
  label: '状态',
  kind: 'enum',
  options: STOCK_DOC_STATUS,
  readonly: true,
  filter: 'eq',
  sortable: true,
};
const bizDate: FieldDef = {
  name: 'bizDate',
  label: '业务日期',
  kind: 'date',
  filter: 'range',
  sortable: true,
  help: '不填则为今天',
};
const posted: FieldDef[] = [
  { name: 'postedAt', label: '过账时间', kind: 'datetime', readonly: true, list: false },
  { name: 'postedById', label: '过账人', kind: 'ref', ref: 'user', readonly: true, list: false },
  { name: 'reversedAt', label: '冲销时间', kind: 'datetime', readonly: true, list: false },
  { name: 'reversedById', label: '冲销人', kind: 'ref', ref: 'user', readonly: true, list: false },
];
const remark: FieldDef = {
  name: 'remark',
  label: '备注',
  kind: 'textarea',
  max: 500,
  list: false,
  wide: true,
};

function lineFields(extra: FieldDef[] = []): FieldDef[] {
  return [
    { name: 'materialId', label: '物料', kind: 'ref', ref: 'material-info', required: true, filter: 'eq' },
    {
      name: 'quantity',
      label: '数量',
      kind: 'quantity',
      required: true,
      min: 0.0001,
      help: '按所选单位计，小数位数不超过该单位的精度；过账时换算为基本单位',
      unitFrom: LINE_UNIT,
    },
    { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', help: '不填为物料的基本单位' },
    { name: 'baseQuantity', label: '基本单位数量', kind: 'quantity', readonly: true },
    ...extra,
    { name: 'batchNo', label: '批次号', kind: 'text', max: 60, help: '批次管理的物料必填（原材料填炉号）' },
    { name: 'qualityStatus', label: '质量状态', kind: 'enum', options: QUALITY_STATUS, default: 'qualified' },
    { name: 'remark', label: '备注', kind: 'text', max: 200 },
  ];
}

/** The order line an inbound/outbound line ships, receives or returns (set when made against an order). */
const sourceLine: FieldDef = {
  name: 'sourceLineId',
  label: '来源单据行',
  kind: 'int',
  hidden: true,
  list: false,
  help: '所发货/收货的订单明细行，按订单发货、收货时自动关联',
};

function lines(table: string, parentColumn: string, extra: FieldDef[]): LineDef {
  return {
    name: 'lines',
    label: '明细',
    table,
    parentColumn,
    min: 1,
    max: 500,
    fields: lineFields([...extra, sourceLine]),
  };
}

export const stockInboundResource: ResourceDef = {
  name: 'stock-inbound',
  label: '入库单',
  table: 'stock_inbound',
  permission: 'warehouse:inbound',
  scopedPermissions: {
    field: 'type',
    prefixes: {
      purchase: 'warehouse:purchaseInbound',
      production: 'warehouse:productionInbound',
      outsourced: 'warehouse:outsourcedInbound',
      'sales-return': 'warehouse:salesReturnInbound',
      other: 'warehouse:otherInbound',
    },
  },
  route: '/warehouse-logistics/warehouse-manage',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'RK' },
  lifecycle: STOCK_DOC_LIFECYCLE,
  fields: [
    docNo('RK'),
    { name: 'type', label: '入库类型', kind: 'enum', options: INBOUND_TYPES, required: true, filter: 'eq' },
    {
      name: 'warehouseId',
      label: '仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
    },
    bizDate,
    status,
    {
      name: 'supplierId',
      label: '供应商',
      kind: 'ref',
      ref: 'supplier',
      filter: 'eq',
      help: '采购、委外入库填写',
    },
    {
      name: 'purchaseOrderId',
      label: '采购订单',
      kind: 'ref',
      ref: 'purchase-order',
      filter: 'eq',
      list: false,
      help: '采购入库：所收货的采购订单；过账后累计订单的已入库数量',
    },
    {
      name: 'outsourcingOrderId',
      label: '委外订单',
      kind: 'ref',
      ref: 'outsourcing-order',
      filter: 'eq',
      list: false,
      help: '委外入库：收回加工件的委外订单；过账后累计订单的已收回数量和重量',
    },
    {
      name: 'customerId',
      label: '客户',
      kind: 'ref',
      ref: 'customer',
      filter: 'eq',
      list: false,
      help: '销售退货入库填写',
    },
    {
      name: 'saleOrderId',
      label: '销售订单',
      kind: 'ref',
      ref: 'sale-order',
      filter: 'eq',
      list: false,
      help: '销售退货入库：退回的销售订单；明细冲减订单的已发货数量',
    },
    {
      name: 'sourceNo',
      label: '来源单号',
      kind: 'text',
      max: 40,
      filter: 'like',
      help: '采购订单、生产订单、委外订单等的单号',
    },
    ...posted,
    remark,
  ],
  lines: [
    lines('stock_inbound_line', 'stock_inbound_id', [
      { name: 'locationId', label: '库位', kind: 'ref', ref: 'shelf-location' },
      {
        name: 'unitPrice',
        label: '单价(元)',
        kind: 'price',
        help: '每个所选单位的入库单价，参与移动加权平均成本',
      },
    ]),
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};

export const stockOutboundResource: ResourceDef = {
  name: 'stock-outbound',
  label: '出库单',
  table: 'stock_outbound',
  permission: 'warehouse:outbound',
  scopedPermissions: {
    field: 'type',
    prefixes: {
      requisition: 'warehouse:requisitionOutbound',
      outsourcing: 'warehouse:outsourcingOutbound',
      sales: 'warehouse:salesOutbound',
      // 采购退货 (/purchase/purchase-rejected) is the buyer's view of the same documents.
      'purchase-return': ['warehouse:purchaseReturnOutbound', 'purchase:return'],
      // 委外退货 (/purchase/outsourcing-rejected): the 委外发料 keeper posts it, the buyer drafts it.
      'outsourcing-return': ['warehouse:outsourcingOutbound', 'purchase:outsourcingReturn'],
      other: 'warehouse:otherOutbound',
    },
  },
  route: '/warehouse-logistics/outbound-manage',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'CK' },
  lifecycle: STOCK_DOC_LIFECYCLE,
  fields: [
    docNo('CK'),
    { name: 'type', label: '出库类型', kind: 'enum', options: OUTBOUND_TYPES, required: true, filter: 'eq' },
    {
      name: 'warehouseId',
      label: '仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
    },
    bizDate,
    status,
    { name: 'deptId', label: '领用部门', kind: 'ref', ref: 'dept', list: false, help: '领料出库填写' },
    {
      name: 'supplierId',
      label: '供应商',
      kind: 'ref',
      ref: 'supplier',
      filter: 'eq',
      list: false,
      help: '委外发料、采购退货填写',
    },
    {
      name: 'purchaseOrderId',
      label: '采购订单',
      kind: 'ref',
      ref: 'purchase-order',
      filter: 'eq',
      list: false,
      help: '采购退货出库：退回的采购订单；过账后累计订单的已退货数量',
    },
    {
      name: 'outsourcingOrderId',
      label: '委外订单',
      kind: 'ref',
      ref: 'outsourcing-order',
      filter: 'eq',
      list: false,
      help: '委外发料出库 / 委外退货出库：所对应的委外订单；过账后累计订单的已发料（已退货）数量和重量',
    },
    { name: 'customerId', label: '客户', kind: 'ref', ref: 'customer', filter: 'eq', help: '销售出库填写' },
    {
      name: 'saleOrderId',
      label: '销售订单',
      kind: 'ref',
      ref: 'sale-order',
      filter: 'eq',
      list: false,
      help: '销售出库：所发货的销售订单；过账后累计订单的已发货数量',
    },
    {
      name: 'productionOrderId',
      label: '生产订单',
      kind: 'ref',
      ref: 'production-order',
      filter: 'eq',
      list: false,
      help: '领料出库：领料的生产订单；明细按物料对应订单的物料需求，过账后累计已领料数量',
    },
    {
      name: 'sourceNo',
      label: '来源单号',
      kind: 'text',
      max: 40,
      filter: 'like',
      help: '生产订单、销售订单等的单号',
    },
    ...posted,
    remark,
  ],
  lines: [
    lines('stock_outbound_line', 'stock_outbound_id', [
      {
        name: 'locationId',
        label: '库位',
        kind: 'ref',
        ref: 'shelf-location',
        help: '不填则按先进先出自动分配库位和批次',
      },
      {
        name: 'unitPrice',
        label: '单价(元)',
        kind: 'price',
        readonly: true,
        help: '过账时按移动加权平均成本',
      },
    ]),
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};

export const stockTransferResource: ResourceDef = {
  name: 'stock-transfer',
  label: '调拨单',
  table: 'stock_transfer',
  permission: 'warehouse:transfer',
  route: '/warehouse-logistics/warehouse-allot',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'DB' },
  lifecycle: STOCK_DOC_LIFECYCLE,
  fields: [
    docNo('DB'),
    {
      name: 'fromWarehouseId',
      label: '调出仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
    },
    {
      name: 'toWarehouseId',
      label: '调入仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
    },
    bizDate,
    status,
    ...posted,
    remark,
  ],
  lines: [
    {
      name: 'lines',
      label: '明细',
      table: 'stock_transfer_line',
      parentColumn: 'stock_transfer_id',
      min: 1,
      max: 500,
      fields: lineFields([
        {
          name: 'fromLocationId',
          label: '调出库位',
          kind: 'ref',
          ref: 'shelf-location',
          help: '不填则先进先出分配',
        },
        { name: 'toLocationId', label: '调入库位', kind: 'ref', ref: 'shelf-location' },
      ]),
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};

export const stocktakeResource: ResourceDef = {
  name: 'stocktake',
  label: '盘点单',
  table: 'stocktake',
  permission: 'warehouse:stocktake',
  route: '/warehouse-logistics/inventory-manage',
  // Counts come in per document (stocktake/importCounts/:id); a sheet of bare headers is no stocktake.
  importable: false,
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'PD' },
  lifecycle: STOCKTAKE_LIFECYCLE,
  fields: [
    docNo('PD'),
    {
      name: 'warehouseId',
      label: '盘点仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
    },
    bizDate,
    status,
    ...posted,
    remark,
  ],
  lines: [
    {
      name: 'lines',
      label: '盘点明细',
      table: 'stocktake_line',
      parentColumn: 'stocktake_id',
      max: 5000,
      fields: [
        {
          name: 'materialId',
          label: '物料',
          kind: 'ref',
          ref: 'material-info',
          required: true,
          filter: 'eq',
        },
        { name: 'locationId', label: '库位', kind: 'ref', ref: 'shelf-location' },
        { name: 'batchNo', label: '批次号', kind: 'text', max: 60 },
        {
          name: 'qualityStatus',
          label: '质量状态',
          kind: 'enum',
          options: QUALITY_STATUS,
          default: 'qualified',
        },
        { name: 'bookQuantity', label: '账面数量', kind: 'quantity', readonly: true },
        {
          name: 'countedQuantity',
          label: '实盘数量',
          kind: 'quantity',
          help: '按物料的基本单位计，小数位数不超过该单位的精度',
          unitFrom: { material: 'materialId' },
        },
        { name: 'difference', label: '盈亏数量', kind: 'decimal', scale: 4, readonly: true },
        { name: 'remark', label: '备注', kind: 'text', max: 200 },
      ],
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};

export const WAREHOUSE_RESOURCES: ResourceDef[] = [
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
];
