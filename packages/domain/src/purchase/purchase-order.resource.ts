import {
  approvalFields,
  dateField,
  docNoField,
  pricedLineFields,
  remarkField,
  statusField,
  taxedTotalFields,
} from '../resource/doc-fields.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * 采购订单 lifecycle: 草稿 → 已审核 → 部分入库 → 已完成, or 已关闭 (with a reason); 反审核 back
 * to 草稿 while no stock document names the order. 部分入库 and 已完成 follow the posted 采购入库
 * (less 采购退货出库) against its lines, not a button.
 */
export const PURCHASE_ORDER_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审核', color: 'blue' },
    { value: 'partly-received', label: '部分入库', color: 'orange' },
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
      confirm: '反审核后订单回到草稿，可以修改。确定反审核？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['draft', 'approved', 'partly-received'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后订单不能再入库，未到的数量不再跟踪。确定关闭？',
    },
  ],
};

const lineFields: FieldDef[] = [
  ...pricedLineFields({
    material: '物料',
    priceLabel: '含税单价(元)',
    priceHelp: '每个所选单位的含税单价；不填则取该供应商上次采购价，没有则取物料的标准成本',
    amountLabel: '含税金额(元)',
  }),
  {
    name: 'receivedQuantity',
    label: '已入库(基本单位)',
    kind: 'quantity',
    readonly: true,
    default: 0,
    help: '采购入库过账后累计',
  },
  {
    name: 'returnedQuantity',
    label: '已退货(基本单位)',
    kind: 'quantity',
    readonly: true,
    default: 0,
    help: '采购退货出库过账后累计',
  },
  {
    name: 'completedOn',
    label: '到齐日期',
    kind: 'date',
    readonly: true,
    list: false,
    help: '净入库达到订购数量的那张采购入库的业务日期；不晚于交货日期即为准时到货',
  },
  { name: 'remark', label: '备注', kind: 'text', max: 200 },
  {
    name: 'requisitionLineId',
    label: '请购单行',
    kind: 'int',
    hidden: true,
    list: false,
    help: '由请购单生成时所对应的请购明细行',
  },
];

export const purchaseOrderResource: ResourceDef = {
  name: 'purchase-order',
  label: '采购订单',
  table: 'purchase_order',
  permission: 'purchase:order',
  route: '/purchase/purchase-manage',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'CG', dateField: 'orderDate' },
  lifecycle: PURCHASE_ORDER_LIFECYCLE,
  options: { remote: true },
  fields: [
    docNoField('订单编号', '保存时按订单日期生成，如 CG20261122-0001'),
    { name: 'supplierId', label: '供应商', kind: 'ref', ref: 'supplier', required: true, filter: 'eq' },
    dateField('orderDate', '订单日期', { today: true }),
    dateField('deliveryDate', '交货日期'),
    { name: 'buyerId', label: '采购员', kind: 'ref', ref: 'user', filter: 'eq', help: '不填为制单人' },
    statusField(PURCHASE_ORDER_LIFECYCLE),
    ...taxedTotalFields(),
    ...approvalFields(),
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: '订单明细',
      table: 'purchase_order_line',
      parentColumn: 'purchase_order_id',
      min: 1,
      max: 500,
      fields: lineFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
