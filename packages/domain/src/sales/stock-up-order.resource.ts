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
 * 备货单 lifecycle: 草稿 → 已审核 → 生产中 → 已完成, or 已关闭 (with a reason); 反审核 back to
 * 草稿 while nothing is planned against it. 生产中 and 已完成 follow the production orders made
 * from its lines (`plannedQuantity`, `producedQuantity`), not a button.
 */
export const STOCK_UP_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审核', color: 'blue' },
    { value: 'producing', label: '生产中', color: 'purple' },
    { value: 'completed', label: '已完成', color: 'green' },
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
      confirm: '反审核后备货单回到草稿，可以修改。确定反审核？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['draft', 'approved', 'producing'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后未排产的数量不再备货。确定关闭？',
    },
  ],
};

const lineFields: FieldDef[] = [
  { name: 'materialId', label: '产品', kind: 'ref', ref: 'material-info', required: true, filter: 'eq' },
  {
    name: 'quantity',
    label: '数量',
    kind: 'quantity',
    required: true,
    min: 0.0001,
    help: '按所选单位计，小数位数不超过该单位的精度',
    unitFrom: LINE_UNIT,
  },
  { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', help: '不填为产品的基本单位' },
  { name: 'baseQuantity', label: '基本单位数量', kind: 'quantity', readonly: true },
  { name: 'requiredDate', label: '完成日期', kind: 'date', help: '不填为备货单的完成日期' },
  {
    name: 'plannedQuantity',
    label: '已排产(基本单位)',
    kind: 'quantity',
    readonly: true,
    default: 0,
    help: '由本行生成的生产订单数量',
  },
  { name: 'remark', label: '备注', kind: 'text', max: 200 },
];

export const stockUpOrderResource: ResourceDef = {
  name: 'stock-up-order',
  label: '备货单',
  table: 'stock_up_order',
  permission: 'sale:stockUp',
  route: '/sale-manage/inventory-manage',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'BH', dateField: 'orderDate' },
  lifecycle: STOCK_UP_LIFECYCLE,
  options: { remote: true },
  fields: [
    docNoField('备货单号', '保存时按单据日期生成，如 BH20261122-0001'),
    dateField('orderDate', '单据日期', { today: true }),
    dateField('requiredDate', '完成日期', { help: '成品需入库的日期' }),
    {
      name: 'customerId',
      label: '预计客户',
      kind: 'ref',
      ref: 'customer',
      filter: 'eq',
      help: '为某客户的预测订单备货时填写',
    },
    { name: 'purpose', label: '备货说明', kind: 'text', max: 200, required: true, filter: 'like' },
    statusField(STOCK_UP_LIFECYCLE),
    { name: 'ownerId', label: '制单人', kind: 'ref', ref: 'user', readonly: true, filter: 'eq' },
    ...approvalFields(),
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: '备货明细',
      table: 'stock_up_order_line',
      parentColumn: 'stock_up_order_id',
      min: 1,
      max: 500,
      fields: lineFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
