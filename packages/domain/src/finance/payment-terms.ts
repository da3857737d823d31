import type { EnumOption, FieldDef } from '../resource/types.ts';

/*
 * Payment terms, apart from the ledger declarations (receivable.resource.ts): the customer and
 * supplier declarations carry these fields, and a page of 工厂信息 should not load 应收/应付's.
 */

/** Customer and supplier payment terms: when an item falls due. */
export const PAYMENT_TERMS: EnumOption[] = [
  { value: 'cash', label: '现款' },
  { value: 'days', label: '发货后N天' },
  { value: 'month-end', label: '月结N天' },
];

/** Fields a customer and a supplier carry for their terms. */
export const paymentTermFields = (what: string): FieldDef[] => [
  {
    name: 'paymentTerm',
    label: '付款条件',
    kind: 'enum',
    options: PAYMENT_TERMS,
    default: 'cash',
    list: false,
    help: `现款：${what}当天到期；发货后N天：业务日期加N天；月结N天：业务日期当月月末加N天`,
  },
  {
    name: 'paymentDays',
    label: '账期天数',
    kind: 'int',
    min: 0,
    max: 365,
    default: 0,
    list: false,
    help: '付款条件为「发货后N天」或「月结N天」时的 N',
  },
];
