import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';

/**
 * 应收 and 应付 (财务部): open items of customers and suppliers, and the 收款 / 付款 documents
 * applied to them. One shape for both sides, declared by `ledgerResources`:
 *   - an item (应收单 YS… / 应付单 YF…) is written by the server when a stock document posts
 *     (销售出库 at order prices with tax, 销售退货入库 negative; 采购入库 at order prices, 委外入库
 *     at the processing price, 采购退货 / 委外退货 negative), or entered by hand for other income
 *     and costs (草稿 → 审核);
 *   - a receipt / payment (收款单 SK… / 付款单 FK…) lists the items it settles with an amount each
 *     (partial allowed); 确认 applies it under the items' row locks, never above what is open;
 *     反确认 takes it off again.
 * Reversing the stock document reverses its item in the same transaction, refused while a receipt
 * is applied to it. Money is numeric(18,2), each line rounded to the fen once.
 */

export { PAYMENT_TERMS, paymentTermFields } from './payment-terms.ts';

export const AGING_BUCKETS = [
  { key: 'notDue', label: '未到期' },
  { key: 'days30', label: '0–30天' },
  { key: 'days60', label: '31–60天' },
  { key: 'days90', label: '61–90天' },
  { key: 'over90', label: '90天以上' },
] as const;

export const RECEIPT_METHODS: EnumOption[] = [
  { value: 'bank', label: '银行转账' },
  { value: 'cash', label: '现金' },
  { value: 'acceptance', label: '承兑汇票' },
  { value: 'offset', label: '冲抵' },
  { value: 'other', label: '其他' },
];

export interface LedgerSide {
  side: 'receivable' | 'payable';
  /** Item resource: `receivable` / `payable`. */
  item: { name: string; label: string; table: string; permission: string; route: string; prefix: string };
  /** Settlement resource: `receipt` / `payment`. */
  settle: {
    name: string;
    label: string;
    table: string;
    permission: string;
    prefix: string;
    verb: string;
    /** A refund (退款) of this side: money going the other way, applied to negative items. */
    refund: { label: string; prefix: string; verb: string };
  };
  party: { field: 'customerId' | 'supplierId'; ref: 'customer' | 'supplier'; label: string };
  sources: EnumOption[];
}

export const RECEIVABLE_SIDE: LedgerSide = {
  side: 'receivable',
  item: {
    name: 'receivable',
    label: '应收单',
    table: 'receivable',
    permission: 'finance:receivable',
    route: '/finance-department/receivable-management',
    prefix: 'YS',
  },
  settle: {
    name: 'receipt',
    label: '收款单',
    table: 'receipt',
    permission: 'finance:receipt',
    prefix: 'SK',
    verb: '收款',
    refund: { label: '退款单', prefix: 'TK', verb: '退款' },
  },
  party: { field: 'customerId', ref: 'customer', label: '客户' },
  sources: [
    { value: 'sales', label: '销售出库', color: 'blue' },
    { value: 'sales-return', label: '销售退货', color: 'orange' },
    { value: 'manual', label: '其他应收', color: 'default' },
  ],
};

export const PAYABLE_SIDE: LedgerSide = {
  side: 'payable',
  item: {
    name: 'payable',
    label: '应付单',
    table: 'payable',
    permission: 'finance:payable',
    route: '/finance-department/account-payable-management',
    prefix: 'YF',
  },
  settle: {
    name: 'payment',
    label: '付款单',
    table: 'payment',
    permission: 'finance:payment',
    prefix: 'FK',
    verb: '付款',
    refund: { label: '供应商退款单', prefix: 'ST', verb: '收退款' },
  },
  party: { field: 'supplierId', ref: 'supplier', label: '供应商' },
  sources: [
    { value: 'purchase', label: '采购入库', color: 'blue' },
    { value: 'outsourced', label: '委外入库', color: 'cyan' },
    { value: 'purchase-return', label: '采购退货', color: 'orange' },
    { value: 'outsourcing-return', label: '委外退货', color: 'orange' },
    { value: 'manual', label: '其他应付', color: 'default' },
  ],
};

/** States of an item: manual ones start as 草稿; the server moves open items as money is applied. */
export const itemLifecycle = (s: LedgerSide): LifecycleDef => ({
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'open', label: s.side === 'receivable' ? '未收' : '未付', color: 'blue' },
    { value: 'partly', label: s.side === 'receivable' ? '部分收款' : '部分付款', color: 'orange' },
    { value: 'settled', label: s.side === 'receivable' ? '已收清' : '已付清', color: 'green' },
    { value: 'reversed', label: '已冲销', color: 'red' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    {
      name: 'approve',
      label: '审核',
      from: ['draft'],
      to: 'open',
      tone: 'primary',
      confirm: `审核后${s.item.label}生效，可以${s.settle.verb}。确定审核？`,
    },
    {
      name: 'unapprove',
      label: '反审核',
      from: ['open'],
      to: 'draft',
      reason: true,
      when: {
        field: 'sourceType',
        in: ['manual'],
        message: `${s.item.label}由出入库单生成，不能反审核；请冲销来源单据`,
      },
      confirm: `只有手工录入且未${s.settle.verb}的${s.item.label}可以反审核。确定反审核？`,
    },
  ],
});

export const settleLifecycle = (s: LedgerSide): LifecycleDef => ({
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'confirmed', label: '已确认', color: 'green' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    {
      name: 'approve',
      label: `确认${s.settle.verb}`,
      from: ['draft'],
      to: 'confirmed',
      tone: 'primary',
      confirm: `确认后按明细核销${s.item.label}。确定确认？`,
    },
    {
      name: 'unapprove',
      label: '反确认',
      from: ['confirmed'],
      to: 'draft',
      reason: true,
      confirm: `反确认将撤销本单对${s.item.label}的核销。确定反确认？`,
    },
  ],
});

function itemResource(s: LedgerSide): ResourceDef {
  const lifecycle = itemLifecycle(s);
  const verb = s.settle.verb;
  return {
    name: s.item.name,
    label: s.item.label,
    table: s.item.table,
    permission: s.item.permission,
    route: s.item.route,
    labelField: 'docNo',
    codeField: 'docNo',
    numbering: { prefix: s.item.prefix },
    lifecycle,
    importable: false,
    fields: [
      {
        name: 'docNo',
        label: '单号',
        kind: 'text',
        max: 30,
        readonly: true,
        unique: true,
        filter: 'like',
        sortable: true,
        help: `按业务日期生成，如 ${s.item.prefix}20261125-0001`,
      },
      {
        name: s.party.field,
        label: s.party.label,
        kind: 'ref',
        ref: s.party.ref,
        required: true,
        filter: 'eq',
      },
      {
        name: 'sourceType',
        label: '来源',
        kind: 'enum',
        options: s.sources,
        readonly: true,
        default: 'manual',
        filter: 'eq',
      },
      {
        name: 'sourceDocNo',
        label: '来源单号',
        kind: 'text',
        max: 40,
        readonly: true,
        filter: 'like',
        help: '生成本单的出入库单号',
      },
      { name: 'orderNo', label: '订单号', kind: 'text', max: 40, readonly: true, filter: 'like' },
      {
        name: 'bizDate',
        label: '业务日期',
        kind: 'date',
        default: 'today',
        filter: 'range',
        sortable: true,
      },
      {
        name: 'dueDate',
        label: '到期日',
        kind: 'date',
        filter: 'range',
        sortable: true,
        help: `不填则按${s.party.label}的付款条件从业务日期算出`,
      },
      {
        name: 'amount',
        label: '金额(元)',
        kind: 'money',
        required: true,
        min: -999999999999,
        sortable: true,
        help: '含税金额；负数为冲减（退货、折让）',
      },
      {
        name: 'settledAmount',
        label: `已${verb}(元)`,
        kind: 'money',
        readonly: true,
        default: 0,
        min: -999999999999,
      },
      {
        name: 'openAmount',
        label: `未${verb}(元)`,
        kind: 'money',
        readonly: true,
        sortable: true,
        help: '金额 − 已核销金额（数据库计算列）',
      },
      {
        name: 'status',
        label: '状态',
        kind: 'enum',
        options: lifecycle.states,
        readonly: true,
        filter: 'eq',
        sortable: true,
      },
      { name: 'statusReason', label: '反审核原因', kind: 'text', max: 500, readonly: true, list: false },
      { name: 'reversedAt', label: '冲销时间', kind: 'datetime', readonly: true, list: false },
      {
        name: 'sourceDocType',
        label: '来源单据类型',
        kind: 'text',
        max: 30,
        readonly: true,
        hidden: true,
        list: false,
        help: 'stock-outbound / stock-inbound：生成本单的出入库单，冲销时据此找回',
      },
      { name: 'sourceDocId', label: '来源单据', kind: 'int', readonly: true, hidden: true, list: false },
      { name: 'remark', label: '摘要', kind: 'textarea', max: 500, list: false, wide: true },
    ],
    lines: [
      {
        name: 'lines',
        label: '明细',
        table: `${s.item.table}_line`,
        parentColumn: `${s.item.table}_id`,
        readonly: true,
        fields: [
          { name: 'materialId', label: '物料', kind: 'ref', ref: 'material-info', refActiveOnly: false },
          {
            name: 'quantity',
            label: '数量(基本单位)',
            kind: 'quantity',
            min: -999999999999,
          },
          {
            name: 'unitPrice',
            label: '含税单价(元)',
            kind: 'price',
            help: '订单行金额 ÷ 订单行基本数量，仅供参考；金额按订单行金额比例计算',
          },
          { name: 'amount', label: '金额(元)', kind: 'money', min: -999999999999 },
        ],
      },
    ],
    defaultSort: { field: 'dueDate', order: 'asc' },
    options: { fields: [s.party.field] },
  };
}

/** 收款 / 退款 (付款 / 收退款): the direction of a settlement document. */
export const settleKinds = (s: LedgerSide): EnumOption[] => [
  { value: 'normal', label: s.settle.verb, color: 'green' },
  { value: 'refund', label: s.settle.refund.verb, color: 'orange' },
];

function settleResource(s: LedgerSide): ResourceDef {
  const lifecycle = settleLifecycle(s);
  return {
    name: s.settle.name,
    label: s.settle.label,
    table: s.settle.table,
    permission: s.settle.permission,
    labelField: 'docNo',
    codeField: 'docNo',
    numbering: {
      prefix: s.settle.prefix,
      variants: [{ prefix: s.settle.refund.prefix, docType: s.settle.refund.label }],
    },
    lifecycle,
    importable: false,
    fields: [
      {
        name: 'docNo',
        label: '单号',
        kind: 'text',
        max: 30,
        readonly: true,
        unique: true,
        filter: 'like',
        sortable: true,
        help: `按${s.settle.verb}日期生成，如 ${s.settle.prefix}20261125-0001；${s.settle.refund.label}为 ${s.settle.refund.prefix}…`,
      },
      {
        name: 'kind',
        label: '单据类型',
        kind: 'enum',
        options: settleKinds(s),
        required: true,
        default: 'normal',
        filter: 'eq',
        help:
          s.side === 'receivable'
            ? '收款：客户付款，核销应收；退款：退还客户的钱（退货已收款、多收款），核销负数应收，金额为负'
            : '付款：付给供应商，核销应付；收退款：供应商退回的钱（退货已付款、多付款），核销负数应付，金额为负',
      },
      {
        name: s.party.field,
        label: s.party.label,
        kind: 'ref',
        ref: s.party.ref,
        required: true,
        filter: 'eq',
      },
      {
        name: 'bizDate',
        label: `${s.settle.verb}日期`,
        kind: 'date',
        default: 'today',
        filter: 'range',
        sortable: true,
      },
      {
        name: 'method',
        label: `${s.settle.verb}方式`,
        kind: 'enum',
        options: RECEIPT_METHODS,
        required: true,
        default: 'bank',
        filter: 'eq',
      },
      {
        name: 'amount',
        label: `${s.settle.verb}金额(元)`,
        kind: 'money',
        readonly: true,
        default: 0,
        min: -999999999999,
        sortable: true,
        help: '明细核销金额之和',
      },
      {
        name: 'status',
        label: '状态',
        kind: 'enum',
        options: lifecycle.states,
        readonly: true,
        filter: 'eq',
        sortable: true,
      },
      { name: 'statusReason', label: '反确认原因', kind: 'text', max: 500, readonly: true, list: false },
      { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
    ],
    lines: [
      {
        name: 'lines',
        label: '核销明细',
        table: `${s.settle.table}_line`,
        parentColumn: `${s.settle.table}_id`,
        min: 1,
        max: 500,
        fields: [
          {
            name: `${s.item.name}Id`,
            label: s.item.label,
            kind: 'ref',
            ref: s.item.name,
            required: true,
            refActiveOnly: false,
          },
          {
            name: 'amount',
            label: `本次${s.settle.verb}(元)`,
            kind: 'money',
            required: true,
            min: -999999999999,
            help: `不超过${s.item.label}的未${s.settle.verb}金额；负数应收（退货）以负数冲抵`,
          },
          { name: 'remark', label: '备注', kind: 'text', max: 200 },
        ],
      },
    ],
    defaultSort: { field: 'docNo', order: 'desc' },
  };
}

export const receivableResource = itemResource(RECEIVABLE_SIDE);
export const receiptResource = settleResource(RECEIVABLE_SIDE);
export const payableResource = itemResource(PAYABLE_SIDE);
export const paymentResource = settleResource(PAYABLE_SIDE);
