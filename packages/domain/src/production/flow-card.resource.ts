import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * 流转卡 lifecycle: a card is 在制 from 开卡 until its last step is done (已完工), or it ends by
 * 拆分 (its pieces go on to child cards), 合并 (into one new card) or 关闭 (abandoned batch, with a
 * reason). Only 关闭 is a button; the other moves are the split/merge commands and report posting.
 */
export const FLOW_CARD_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'open', label: '在制', color: 'blue' },
    { value: 'completed', label: '已完工', color: 'green' },
    { value: 'split', label: '已拆分', color: 'purple' },
    { value: 'merged', label: '已合并', color: 'orange' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'open',
  editable: [],
  transitions: [
    {
      name: 'close',
      label: '关闭',
      from: ['open'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后该卡不再流转，其数量可重新开卡。确定关闭？',
    },
  ],
};

export const FLOW_CARD_ORIGINS: EnumOption[] = [
  { value: 'open', label: '开卡', color: 'blue' },
  { value: 'split', label: '拆分', color: 'purple' },
  { value: 'merge', label: '合并', color: 'orange' },
];

export const INSPECTION_RESULTS: EnumOption[] = [
  { value: 'pending', label: '待检', color: 'gold' },
  { value: 'pass', label: '合格', color: 'green' },
  { value: 'fail', label: '不合格', color: 'red' },
];

/**
 * One row per route step of the card, written by the server: 开卡 creates them from the order's
 * frozen route (`orderStepId` = production_order_step.id); 报工入账 fills in times, quantities,
 * operator and machine; a 委外 step records what was sent to and came back from the supplier.
 */
const stepFields: FieldDef[] = [
  { name: 'orderStepId', label: '订单工序', kind: 'int', required: true, hidden: true },
  { name: 'seq', label: '顺序号', kind: 'int', required: true, min: 1, max: 9999 },
  {
    name: 'processId',
    label: '工序',
    kind: 'ref',
    ref: 'process-manage',
    required: true,
    refActiveOnly: false,
  },
  { name: 'workshopId', label: '车间', kind: 'ref', ref: 'workshop', refActiveOnly: false },
  { name: 'outsourced', label: '委外', kind: 'boolean', default: false },
  { name: 'inspectionRequired', label: '报工检验', kind: 'boolean', default: false },
  { name: 'inTime', label: '进站时间', kind: 'datetime' },
  { name: 'outTime', label: '出站时间', kind: 'datetime' },
  {
    name: 'inputQuantity',
    label: '投入数',
    kind: 'quantity',
    default: 0,
    help: '上道工序转入（首道为卡数量）',
  },
  { name: 'goodQuantity', label: '合格数', kind: 'quantity', default: 0 },
  { name: 'workScrapQuantity', label: '工废', kind: 'quantity', default: 0, help: '操作原因造成的废品' },
  { name: 'materialScrapQuantity', label: '料废', kind: 'quantity', default: 0, help: '来料原因造成的废品' },
  { name: 'reworkQuantity', label: '返工数', kind: 'quantity', default: 0 },
  { name: 'operatorId', label: '操作工', kind: 'ref', ref: 'user', refActiveOnly: false },
  { name: 'equipmentId', label: '设备', kind: 'ref', ref: 'equipment', refActiveOnly: false },
  { name: 'inspectionResult', label: '检验结果', kind: 'enum', options: INSPECTION_RESULTS },
  { name: 'sentQuantity', label: '委外发出数', kind: 'quantity' },
  { name: 'sentWeight', label: '发出重量(kg)', kind: 'decimal', scale: 3, min: 0 },
  { name: 'supplierId', label: '委外供应商', kind: 'ref', ref: 'supplier', refActiveOnly: false },
  { name: 'returnedQuantity', label: '委外收回数', kind: 'quantity' },
  { name: 'hardnessHrc', label: '硬度(HRC)', kind: 'decimal', scale: 1, min: 0, max: 100 },
];

/**
 * 流转卡 `LZ…`: one batch of a production order travelling its route, with one row per step.
 * Cards are made by 开卡 (POST /api/v1/flow-card/open/{orderId}), 拆分 and 合并 — never through the
 * generic add/edit — and the genealogy (flow_card_link) keeps which cards came from which.
 */
export const flowCardResource: ResourceDef = {
  name: 'flow-card',
  label: '流转卡',
  table: 'flow_card',
  // Read with the production order (the cards are a tab of its detail); opened with 派单.
  permission: 'production:order',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'LZ' },
  lifecycle: FLOW_CARD_LIFECYCLE,
  readonlyApi: true,
  fields: [
    {
      name: 'docNo',
      label: '卡号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '开卡、拆分、合并时生成，如 LZ20261125-0001；二维码内容即卡号',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: FLOW_CARD_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'held',
      label: '质量暂扣',
      kind: 'boolean',
      readonly: true,
      filter: 'eq',
      help: '检验不合格时暂扣：不能转入下道工序，返工复检合格后解除',
    },
    { name: 'holdReason', label: '暂扣原因', kind: 'text', max: 200, readonly: true, list: false },
    {
      name: 'productionOrderId',
      label: '生产订单',
      kind: 'ref',
      ref: 'production-order',
      required: true,
      readonly: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      readonly: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    { name: 'partName', label: '零件/套圈', kind: 'text', max: 50, readonly: true, help: '如 内圈、外圈' },
    { name: 'quantity', label: '数量', kind: 'quantity', required: true, readonly: true, min: 0.0001 },
    {
      name: 'heatNo',
      label: '炉号',
      kind: 'text',
      max: 100,
      readonly: true,
      filter: 'like',
      help: '原材料（钢材）批次的炉号，用于质量追溯',
    },
    {
      name: 'currentSeq',
      label: '当前工序号',
      kind: 'int',
      readonly: true,
      min: 1,
      help: '卡当前所在工序的顺序号；报工入账后移到下一道',
    },
    {
      name: 'origin',
      label: '来源',
      kind: 'enum',
      options: FLOW_CARD_ORIGINS,
      readonly: true,
      default: 'open',
    },
    { name: 'statusReason', label: '关闭原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'text', max: 500, readonly: true, list: false },
  ],
  lines: [
    {
      name: 'steps',
      label: '工序流转',
      table: 'flow_card_step',
      parentColumn: 'flow_card_id',
      readonly: true,
      fields: stepFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
