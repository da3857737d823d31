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
 * 销售订单 lifecycle: 草稿 → 已审核 → 生产中 → 部分发货 → 已完成; 草稿/已审核 → 已关闭 (with a
 * reason; a partly shipped order can be closed short); 反审核 back to 草稿 while nothing downstream exists. 生产中, 部分发货 and 已完成 are
 * reached by what happens downstream (production orders, shipments), not by a button.
 */
export const SALE_ORDER_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审核', color: 'blue' },
    { value: 'producing', label: '生产中', color: 'cyan' },
    { value: 'partly-shipped', label: '部分发货', color: 'orange' },
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
      from: ['draft', 'approved', 'producing', 'partly-shipped'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后订单不能再发货或生产，未发的数量不再计入客户的信用占用。确定关闭？',
    },
  ],
};

/** The permission that lets an approval go over the customer's credit limit (recorded on the order). */
export const SALE_ORDER_OVER_CREDIT = 'sale:order:overCredit';

/** The attachment store's owner of an order's header files (合同、图纸、技术协议…). */
export const SALE_ORDER_ATTACHMENT_OWNER = 'sale-order';

/**
 * States in which an order's files may still be added or removed: while it is open (a drawing or
 * agreement often arrives after approval, during production). A completed or closed order's files
 * stay as they were.
 */
export const SALE_ORDER_FILES_OPEN = ['draft', 'approved', 'producing', 'partly-shipped'];

const lineFields: FieldDef[] = [
  ...pricedLineFields({
    material: '产品',
    priceLabel: '含税单价(元)',
    priceHelp: '每个所选单位的含税单价；不填则取该客户上次成交价，没有则取产品销售价',
    amountLabel: '含税金额(元)',
  }),
  {
    name: 'shippedQuantity',
    label: '已发货(基本单位)',
    kind: 'quantity',
    readonly: true,
    default: 0,
    help: '销售出库过账后累计，销售退货冲减',
  },
  {
    name: 'completedOn',
    label: '发齐日期',
    kind: 'date',
    readonly: true,
    list: false,
    help: '已发货达到订购数量的那张销售出库的业务日期；不晚于交货日期即为准时交货',
  },
  { name: 'remark', label: '备注', kind: 'text', max: 200 },
];

export const saleOrderResource: ResourceDef = {
  name: 'sale-order',
  label: '销售订单',
  table: 'sale_order',
  permission: 'sale:order',
  route: '/sale-manage/sale-order',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'XS', dateField: 'orderDate' },
  lifecycle: SALE_ORDER_LIFECYCLE,
  options: { remote: true },
  fields: [
    docNoField('订单编号', '保存时按订单日期自动生成，如 XS20261122-0001'),
    { name: 'customerId', label: '客户', kind: 'ref', ref: 'customer', required: true, filter: 'eq' },
    dateField('orderDate', '订单日期', { today: true }),
    dateField('deliveryDate', '交货日期'),
    { name: 'salespersonId', label: '业务员', kind: 'ref', ref: 'user', filter: 'eq' },
    statusField(SALE_ORDER_LIFECYCLE),
    ...taxedTotalFields(),
    {
      name: 'overCredit',
      label: '超信用审核',
      kind: 'boolean',
      readonly: true,
      list: false,
      help: '审核时超出客户信用额度，由有超额审核权限的人放行',
    },
    ...approvalFields(),
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: '订单明细',
      table: 'sale_order_line',
      parentColumn: 'sale_order_id',
      min: 1,
      max: 500,
      fields: lineFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
