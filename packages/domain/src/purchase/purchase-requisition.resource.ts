import {
  approvalFields,
  dateField,
  docNoField,
  LINE_UNIT,
  remarkField,
  statusField,
} from '../resource/doc-fields.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * 请购单 lifecycle: 草稿 → 已审核 → 部分下单 → 已下单, or 已关闭 (with a reason). 部分下单 and 已下单
 * follow the purchase orders made from its lines (`orderedQuantity`), not a button; 反审核 back to
 * 草稿 only while no purchase order names it.
 */
export const PURCHASE_REQUISITION_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审核', color: 'blue' },
    { value: 'partly-ordered', label: '部分下单', color: 'orange' },
    { value: 'ordered', label: '已下单', color: 'green' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    { name: 'approve', label: '审核', from: ['draft'], to: 'approved', tone: 'primary' },
    {
      name: 'unapprove',
      label: '反审核',
      from: ['approved'],
      to: 'draft',
      reason: true,
      confirm: '反审核后请购单回到草稿，可以修改。确定反审核？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['draft', 'approved', 'partly-ordered'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后未下单的数量不再采购。确定关闭？',
    },
  ],
};

const lineFields: FieldDef[] = [
  { name: 'materialId', label: '物料', kind: 'ref', ref: 'material-info', required: true, filter: 'eq' },
  {
    name: 'quantity',
    label: '数量',
    kind: 'quantity',
    required: true,
    min: 0.0001,
    help: '按所选单位计，小数位数不超过该单位的精度',
    unitFrom: LINE_UNIT,
  },
  { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', help: '不填为物料的基本单位' },
  { name: 'baseQuantity', label: '基本单位数量', kind: 'quantity', readonly: true },
  { name: 'requiredDate', label: '需求日期', kind: 'date', help: '不填为请购单的需求日期' },
  {
    name: 'supplierId',
    label: '建议供应商',
    kind: 'ref',
    ref: 'supplier',
    filter: 'eq',
    help: '生成采购订单时按供应商合并；不填则在生成时选择',
  },
  {
    name: 'orderedQuantity',
    label: '已下单(基本单位)',
    kind: 'quantity',
    readonly: true,
    default: 0,
    help: '由本行生成的采购订单数量（已关闭的订单只计已入库部分）',
  },
  { name: 'remark', label: '备注', kind: 'text', max: 200 },
];

export const purchaseRequisitionResource: ResourceDef = {
  name: 'purchase-requisition',
  label: '请购单',
  table: 'purchase_requisition',
  permission: 'production:requisition',
  route: '/production-department/buying-requisition',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'QG', dateField: 'requestDate' },
  lifecycle: PURCHASE_REQUISITION_LIFECYCLE,
  options: { remote: true },
  fields: [
    docNoField('请购单号', '保存时按请购日期生成，如 QG20261122-0001'),
    dateField('requestDate', '请购日期', { today: true }),
    dateField('requiredDate', '需求日期', { help: '物料需要到厂的日期' }),
    { name: 'requesterId', label: '请购人', kind: 'ref', ref: 'user', filter: 'eq', help: '不填为制单人' },
    {
      name: 'deptId',
      label: '请购部门',
      kind: 'ref',
      ref: 'dept',
      readonly: true,
      help: '请购人所在部门',
    },
    statusField(PURCHASE_REQUISITION_LIFECYCLE),
    { name: 'reason', label: '请购原因', kind: 'text', max: 200, required: true, filter: 'like' },
    ...approvalFields(),
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: '请购明细',
      table: 'purchase_requisition_line',
      parentColumn: 'purchase_requisition_id',
      min: 1,
      max: 500,
      fields: lineFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
