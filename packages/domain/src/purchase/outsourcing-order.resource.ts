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
 * 委外订单 lifecycle: 草稿 → 已审核 → 部分收回 → 已收回, or 已关闭 (with a reason); 反审核 back to
 * 草稿 while no stock document names the order. 部分收回 and 已收回 follow the posted 委外发料出库,
 * 委外入库 and 委外退货出库 against its lines, not a button.
 */
export const OUTSOURCING_ORDER_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'approved', label: '已审核', color: 'blue' },
    { value: 'partly-received', label: '部分收回', color: 'orange' },
    { value: 'received', label: '已收回', color: 'green' },
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
      confirm: '关闭后订单不能再发料和收货，未收回的数量不再跟踪。确定关闭？',
    },
  ],
};

const tracked = (name: string, label: string, help: string): FieldDef => ({
  name,
  label,
  kind: 'quantity',
  readonly: true,
  default: 0,
  help,
});

const lineFields: FieldDef[] = [
  ...pricedLineFields({
    material: '物料',
    extra: [
      {
        name: 'weight',
        label: '重量(kg)',
        kind: 'quantity',
        min: 0,
        help: '不填则按物料单重计算（单位为 kg 时即数量）；发料、收货的重量按此比例累计',
      },
    ],
    priceLabel: '加工单价(元)',
    priceHelp: '每个所选单位的含税加工费；不填则取该供应商上次的加工单价',
    amountLabel: '加工费(元)',
    taxInList: false,
  }),
  tracked('sentQuantity', '已发料(基本单位)', '委外发料出库过账后累计'),
  tracked('sentWeight', '已发料重量(kg)', '委外发料出库过账后累计'),
  tracked('receivedQuantity', '已收回(基本单位)', '委外入库过账后累计'),
  tracked('receivedWeight', '已收回重量(kg)', '委外入库过账后累计'),
  tracked('returnedQuantity', '已退货(基本单位)', '委外退货出库过账后累计'),
  tracked('returnedWeight', '已退货重量(kg)', '委外退货出库过账后累计'),
  { name: 'remark', label: '备注', kind: 'text', max: 200 },
];

export const outsourcingOrderResource: ResourceDef = {
  name: 'outsourcing-order',
  label: '委外订单',
  table: 'outsourcing_order',
  permission: 'purchase:outsourcing',
  route: '/purchase/outsourcing-manage',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'WW', dateField: 'orderDate' },
  lifecycle: OUTSOURCING_ORDER_LIFECYCLE,
  options: { remote: true },
  fields: [
    docNoField('订单编号', '保存时按订单日期生成，如 WW20261122-0001'),
    { name: 'supplierId', label: '加工供应商', kind: 'ref', ref: 'supplier', required: true, filter: 'eq' },
    {
      name: 'processId',
      label: '委外工序',
      kind: 'ref',
      ref: 'process-manage',
      required: true,
      filter: 'eq',
      help: '送出加工的工序，通常为热处理',
    },
    dateField('orderDate', '订单日期', { today: true }),
    dateField('deliveryDate', '交货日期'),
    {
      name: 'productionOrderId',
      label: '生产订单',
      kind: 'ref',
      ref: 'production-order',
      filter: 'eq',
      list: false,
      help: '可选：为哪张生产订单委外加工',
    },
    { name: 'buyerId', label: '采购员', kind: 'ref', ref: 'user', filter: 'eq', help: '不填为制单人' },
    statusField(OUTSOURCING_ORDER_LIFECYCLE),
    ...taxedTotalFields('加工费(元)'),
    ...approvalFields(),
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: '委外明细',
      table: 'outsourcing_order_line',
      parentColumn: 'outsourcing_order_id',
      min: 1,
      max: 500,
      fields: lineFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
