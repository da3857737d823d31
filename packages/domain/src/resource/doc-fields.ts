import type { LifecycleDef } from './lifecycle.ts';
import type { FieldDef } from './types.ts';

/**
 * Fields every business document declares the same way: its number, its dates, its state, its
 * approval trail and its taxed totals. A document's definition lists its own fields between them.
 */

/** The document number, generated on save from the business date (e.g. `XS20261122-0001`). */
export const docNoField = (label: string, help: string): FieldDef => ({
  name: 'docNo',
  label,
  kind: 'text',
  max: 30,
  readonly: true,
  unique: true,
  filter: 'like',
  sortable: true,
  help,
});

/** A required business date, filtered by range and sortable; `today` by default when it opens the document. */
export const dateField = (
  name: string,
  label: string,
  opts: { today?: boolean; help?: string } = {},
): FieldDef => ({
  name,
  label,
  kind: 'date',
  required: true,
  ...(opts.today ? { default: 'today' } : {}),
  filter: 'range',
  sortable: true,
  ...(opts.help ? { help: opts.help } : {}),
});

/** The lifecycle state: read-only (transitions move it), filtered and sortable. */
export const statusField = (lifecycle: LifecycleDef): FieldDef => ({
  name: 'status',
  label: '状态',
  kind: 'enum',
  options: lifecycle.states,
  readonly: true,
  filter: 'eq',
  sortable: true,
});

/** Tax rate, currency and the header's taxed totals (the sum of the lines, rounded per line). */
export const taxedTotalFields = (amountLabel = '含税金额(元)'): FieldDef[] => [
  {
    name: 'taxRate',
    label: '税率(%)',
    kind: 'decimal',
    scale: 2,
    default: '13',
    min: 0,
    max: 100,
    list: false,
  },
  { name: 'currency', label: '币种', kind: 'text', max: 3, readonly: true, default: 'CNY', list: false },
  { name: 'amount', label: amountLabel, kind: 'money', readonly: true, sortable: true, default: 0 },
  { name: 'taxAmount', label: '税额(元)', kind: 'money', readonly: true, list: false, default: 0 },
];

/** The approval trail: the reason of the last close/unapprove, who approved and when. */
export const approvalFields = (): FieldDef[] => [
  { name: 'statusReason', label: '关闭/反审核原因', kind: 'text', max: 500, readonly: true, list: false },
  { name: 'approvedAt', label: '审核时间', kind: 'datetime', readonly: true, list: false },
  { name: 'approvedById', label: '审核人', kind: 'ref', ref: 'user', readonly: true, list: false },
];

/** The header's free remark. */
export const remarkField = (): FieldDef => ({
  name: 'remark',
  label: '备注',
  kind: 'textarea',
  max: 500,
  list: false,
  wide: true,
});

/** A line's quantity counts in its chosen unit, else in its material's base unit. */
export const LINE_UNIT = { material: 'materialId', unit: 'unitId' } as const;

/**
 * An order line's material, quantity in any of its units, and taxed price and amount: what sales,
 * purchase and outsourcing order lines share. `extra` fields sit between the base quantity and the price.
 */
export const pricedLineFields = (o: {
  material: string;
  priceLabel: string;
  priceHelp: string;
  amountLabel: string;
  extra?: FieldDef[];
  taxInList?: boolean;
}): FieldDef[] => [
  { name: 'materialId', label: o.material, kind: 'ref', ref: 'material-info', required: true, filter: 'eq' },
  {
    name: 'quantity',
    label: '数量',
    kind: 'quantity',
    required: true,
    min: 0.0001,
    help: '按所选单位计，小数位数不超过该单位的精度',
    unitFrom: LINE_UNIT,
  },
  { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', help: `不填为${o.material}的基本单位` },
  { name: 'baseQuantity', label: '基本单位数量', kind: 'quantity', readonly: true },
  ...(o.extra ?? []),
  { name: 'unitPrice', label: o.priceLabel, kind: 'price', help: o.priceHelp },
  {
    name: 'amount',
    label: o.amountLabel,
    kind: 'money',
    readonly: true,
    help: `数量 × ${o.priceLabel.replace(/\(元\)$/, '')}，按行四舍五入到分`,
  },
  {
    name: 'taxAmount',
    label: '税额(元)',
    kind: 'money',
    readonly: true,
    ...(o.taxInList === false ? { list: false } : {}),
  },
  { name: 'deliveryDate', label: '交货日期', kind: 'date', help: '不填为订单交货日期' },
];
