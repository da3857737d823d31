import { paymentTermFields } from '../finance/payment-terms.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { codeField, EMAIL_PATTERN, nameField, PHONE_PATTERN, remarkField } from './fields.ts';

/** Customers use `state` (the spec's option lists ask for state 1), not `status`. */
export const CUSTOMER_STATE_OPTIONS: EnumOption[] = [
  { value: '1', label: '正常', color: 'green' },
  { value: '0', label: '停用', color: 'default' },
];

export const customerResource: ResourceDef = {
  name: 'customer',
  label: '客户',
  table: 'customer',
  permission: 'factory:customer',
  route: '/factory-info/custom/custom-manage',
  fields: [
    codeField('客户编码', { max: 30 }),
    nameField('客户名称', { max: 100 }),
    { name: 'classifyId', label: '客户分类', kind: 'ref', ref: 'custom-classify', filter: 'eq' },
    { name: 'gradeId', label: '客户等级', kind: 'ref', ref: 'custom-grade', filter: 'eq' },
    { name: 'labelIds', label: '客户标签', kind: 'refs', ref: 'custom-label', filter: 'eq', list: false },
    {
      name: 'contact',
      label: '联系人',
      kind: 'text',
      max: 40,
      filter: 'like',
      help: '主要联系人；更多联系人见下方联系人列表',
    },
    { name: 'phone', label: '联系电话', kind: 'text', max: 30, pattern: PHONE_PATTERN },
    { name: 'address', label: '地址', kind: 'text', max: 200, wide: true, list: false },
    {
      name: 'creditLimit',
      label: '信用额度(元)',
      kind: 'money',
      sortable: true,
      help: '审核销售订单时，未收应收款加本单金额不得超过此额度；为空表示不控制',
    },
    { name: 'salespersonId', label: '业务员', kind: 'ref', ref: 'user', filter: 'eq' },
    {
      name: 'state',
      label: '状态',
      kind: 'enum',
      options: CUSTOMER_STATE_OPTIONS,
      default: '1',
      filter: 'eq',
      help: '停用的客户不出现在销售下拉选项中',
    },
    ...paymentTermFields('发货'),
    remarkField(),
  ],
  lines: [
    {
      name: 'contacts',
      label: '联系人',
      table: 'customer_contact',
      parentColumn: 'customer_id',
      max: 50,
      fields: [
        { name: 'name', label: '姓名', kind: 'text', required: true, max: 40 },
        { name: 'position', label: '职务', kind: 'text', max: 40 },
        { name: 'phone', label: '电话', kind: 'text', max: 30, pattern: PHONE_PATTERN },
        { name: 'email', label: '邮箱', kind: 'text', max: 120, pattern: EMAIL_PATTERN },
        { name: 'isPrimary', label: '主联系人', kind: 'boolean', default: false },
      ],
    },
  ],
  activeField: { name: 'state', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
  options: { remote: true },
};
