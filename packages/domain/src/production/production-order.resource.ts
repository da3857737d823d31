import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * 生产订单 lifecycle: 草稿 → 已下达 → 生产中 → 已完工, or 已关闭 (with a reason). 下达 freezes the
 * BOM and route on the order and computes its material requirements; 反下达 takes them back while
 * no 领料出库 names the order. The first posted 领料出库 also moves 已下达 → 生产中.
 */
export const PRODUCTION_ORDER_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'released', label: '已下达', color: 'blue' },
    { value: 'producing', label: '生产中', color: 'cyan' },
    { value: 'completed', label: '已完工', color: 'green' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    {
      name: 'release',
      label: '下达',
      from: ['draft'],
      to: 'released',
      tone: 'primary',
      confirm: '下达后冻结BOM和工艺路线，计算物料需求并预留库存。确定下达？',
    },
    {
      name: 'unrelease',
      label: '反下达',
      from: ['released'],
      to: 'draft',
      reason: true,
      confirm: '反下达后订单回到草稿，冻结的BOM、工艺路线和物料预留都被撤销。确定反下达？',
    },
    { name: 'start', label: '开工', from: ['released'], to: 'producing', tone: 'primary' },
    {
      name: 'complete',
      label: '完工',
      from: ['producing'],
      to: 'completed',
      tone: 'primary',
      confirm: '完工后订单不再领料，未领的预留释放。确定完工？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['draft', 'released', 'producing', 'completed'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后订单不再生产和领料，未领的预留释放。确定关闭？',
    },
  ],
};

/**
 * Which states hold materials: their requirements less what was issued are reserved. Migration
 * 0048's partial index `production_order_reserving_product_idx` lists the same states.
 */
export const PRODUCTION_ORDER_RESERVING = ['released', 'producing'];

export const PRODUCTION_PRIORITY_OPTIONS: EnumOption[] = [
  { value: 'urgent', label: '紧急', color: 'red' },
  { value: 'high', label: '高', color: 'orange' },
  { value: 'normal', label: '普通', color: 'blue' },
  { value: 'low', label: '低', color: 'default' },
];

export const PRODUCTION_SOURCE_OPTIONS: EnumOption[] = [
  { value: 'sales', label: '销售订单', color: 'blue' },
  { value: 'stock-up', label: '备货单', color: 'purple' },
  { value: 'manual', label: '手工', color: 'default' },
  { value: 'sub-order', label: '自制件', color: 'cyan' },
  { value: 'mrp', label: 'MRP运算', color: 'geekblue' },
];

/** 物料需求: one row per leaf material of the exploded BOM, written at release. */
const materialFields: FieldDef[] = [
  { name: 'materialId', label: '物料', kind: 'ref', ref: 'material-info', required: true },
  { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', help: '物料的基本单位' },
  {
    name: 'requiredQuantity',
    label: '需求数量',
    kind: 'quantity',
    required: true,
    help: 'MRP 逐层净算后的需求（基本单位）：每层先扣可用库存和在途，再按净需求展开下一层；自制件中由库存满足的部分也在此',
  },
  {
    name: 'freeQuantity',
    label: '下达时可用',
    kind: 'decimal',
    scale: 4,
    default: 0,
    help: '下达时的合格在库数量 − 其他已下达订单尚未领用的需求（可为负）',
  },
  {
    name: 'reservedQuantity',
    label: '下达时预留',
    kind: 'quantity',
    default: 0,
    help: 'min(需求, 可用)：下达时由现有库存满足的部分',
  },
  { name: 'shortageQuantity', label: '下达时缺料', kind: 'quantity', default: 0, help: '需求 − 预留' },
  {
    name: 'issuedQuantity',
    label: '已领料',
    kind: 'quantity',
    default: 0,
    help: '按本订单过账的领料出库累计（冲销扣回）；不超过需求 × (1 + 超领比例)',
  },
];

/** 冻结BOM: the exploded BOM at release, every level, in tree order. */
const bomFields: FieldDef[] = [
  { name: 'level', label: '层级', kind: 'int', required: true, min: 1, max: 20 },
  { name: 'parentMaterialId', label: '上级物料', kind: 'ref', ref: 'material-info', required: true },
  { name: 'materialId', label: '子件物料', kind: 'ref', ref: 'material-info', required: true },
  {
    name: 'quantityPer',
    label: '单位用量',
    kind: 'quantity',
    required: true,
    help: '每个上级物料（基本单位）所需的子件数量，已换算为子件的基本单位',
  },
  { name: 'lossRate', label: '损耗率(%)', kind: 'decimal', scale: 2, min: 0, max: 100, default: 0 },
  {
    name: 'requiredQuantity',
    label: '需求数量',
    kind: 'quantity',
    required: true,
    help: '上级的自制数量 × 单位用量 × (1 + 损耗率/100)',
  },
  {
    name: 'madeQuantity',
    label: '自制数量',
    kind: 'quantity',
    default: 0,
    help: 'MRP 逐层净算：需求 − 可用库存 − 在途，按批量取整后由本订单自制的数量，其子件按它展开；需求 − 自制 由库存满足',
  },
  { name: 'processId', label: '消耗工序', kind: 'ref', ref: 'process-manage' },
  {
    name: 'exploded',
    label: '继续展开',
    kind: 'boolean',
    default: false,
    help: '自制数量大于 0：按子件的BOM继续展开',
  },
  { name: 'bomId', label: '来源BOM版本', kind: 'ref', ref: 'product-bom', refActiveOnly: false },
];

/**
 * 冻结工艺路线: the route steps at release. Workshop tasks (派单) reference these rows
 * (`production_order_step.id`), one task per step.
 */
const stepFields: FieldDef[] = [
  { name: 'seq', label: '顺序号', kind: 'int', required: true, min: 1, max: 9999 },
  { name: 'processId', label: '工序', kind: 'ref', ref: 'process-manage', required: true },
  { name: 'workshopId', label: '车间', kind: 'ref', ref: 'workshop' },
  { name: 'standardMinutes', label: '标准工时(分钟/件)', kind: 'decimal', scale: 2, min: 0 },
  { name: 'outsourced', label: '委外', kind: 'boolean', default: false },
  { name: 'inspectionRequired', label: '报工检验', kind: 'boolean', default: false },
  { name: 'plannedQuantity', label: '计划数量', kind: 'quantity', required: true },
];

export const productionOrderResource: ResourceDef = {
  name: 'production-order',
  label: '生产订单',
  table: 'production_order',
  permission: 'production:order',
  route: '/production-department/production-manage/production-order',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'SC' },
  lifecycle: PRODUCTION_ORDER_LIFECYCLE,
  options: { remote: true },
  fields: [
    {
      name: 'docNo',
      label: '订单编号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按计划开工日期生成，如 SC20261122-0001',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: PRODUCTION_ORDER_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      filter: 'eq',
      help: '要生产的成品或半成品（自制件）',
    },
    {
      name: 'quantity',
      label: '数量',
      kind: 'quantity',
      required: true,
      min: 0.0001,
      help: '按产品的基本单位计，小数位数不超过该单位的精度',
      unitFrom: { material: 'productId' },
    },
    {
      name: 'unitId',
      label: '单位',
      kind: 'ref',
      ref: 'material-unit',
      readonly: true,
      help: '产品的基本单位',
    },
    {
      name: 'plannedStartDate',
      label: '计划开工',
      kind: 'date',
      required: true,
      default: 'today',
      filter: 'range',
      sortable: true,
      help: '订单编号按此日期生成',
    },
    {
      name: 'dueDate',
      label: '计划完工',
      kind: 'date',
      required: true,
      filter: 'range',
      sortable: true,
      help: '要求完工入库的日期；由销售订单生成时取订单行的交货日期',
    },
    {
      name: 'priority',
      label: '优先级',
      kind: 'enum',
      options: PRODUCTION_PRIORITY_OPTIONS,
      default: 'normal',
      filter: 'eq',
    },
    {
      name: 'sourceType',
      label: '来源',
      kind: 'enum',
      options: PRODUCTION_SOURCE_OPTIONS,
      readonly: true,
      default: 'manual',
      filter: 'eq',
    },
    {
      name: 'saleOrderId',
      label: '销售订单',
      kind: 'ref',
      ref: 'sale-order',
      readonly: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    { name: 'customerId', label: '客户', kind: 'ref', ref: 'customer', readonly: true, refActiveOnly: false },
    {
      name: 'saleOrderLineId',
      label: '销售订单行',
      kind: 'int',
      readonly: true,
      hidden: true,
      list: false,
      help: '由销售订单生成时所对应的订单明细行',
    },
    {
      name: 'stockUpLineId',
      label: '备货单行',
      kind: 'int',
      readonly: true,
      hidden: true,
      list: false,
      help: '由备货单生成时所对应的备货明细行',
    },
    {
      name: 'stockUpOrderId',
      label: '备货单',
      kind: 'ref',
      ref: 'stock-up-order',
      readonly: true,
      list: false,
      filter: 'eq',
      refActiveOnly: false,
      help: '由备货单生成（从备货单生成）时的备货单；其自制件订单也记同一备货单',
    },
    {
      name: 'parentOrderId',
      label: '上级订单',
      kind: 'ref',
      ref: 'production-order',
      readonly: true,
      list: false,
      filter: 'eq',
      refActiveOnly: false,
      help: '由上级订单的自制件（生成自制件订单）生成时，所属的上级生产订单；自制件订单沿用其销售订单、客户和备货单',
    },
    {
      name: 'bomId',
      label: '产品BOM',
      kind: 'ref',
      ref: 'product-bom',
      list: false,
      help: '不填则下达时取产品当前启用的BOM',
    },
    {
      name: 'routeId',
      label: '工艺路线',
      kind: 'ref',
      ref: 'process-route',
      list: false,
      help: '不填则下达时取产品当前启用的工艺路线',
    },
    { name: 'bomVersionNo', label: 'BOM版本', kind: 'text', max: 20, readonly: true, list: false },
    { name: 'routeVersionNo', label: '路线版本', kind: 'text', max: 20, readonly: true, list: false },
    {
      name: 'producedQuantity',
      label: '完工数量',
      kind: 'quantity',
      readonly: true,
      default: 0,
      help: '末道工序报工入账后累计',
    },
    { name: 'releasedAt', label: '下达时间', kind: 'datetime', readonly: true, list: false },
    { name: 'releasedById', label: '下达人', kind: 'ref', ref: 'user', readonly: true, list: false },
    { name: 'statusReason', label: '关闭/反下达原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  lines: [
    {
      name: 'materials',
      label: '物料需求',
      table: 'production_order_material',
      parentColumn: 'production_order_id',
      readonly: true,
      fields: materialFields,
    },
    {
      name: 'bomLines',
      label: '冻结BOM',
      table: 'production_order_bom',
      parentColumn: 'production_order_id',
      readonly: true,
      fields: bomFields,
    },
    {
      name: 'steps',
      label: '冻结工艺路线',
      table: 'production_order_step',
      parentColumn: 'production_order_id',
      readonly: true,
      fields: stepFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
