import { paymentTermFields } from '../finance/payment-terms.ts';
import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, PHONE_PATTERN, remarkField, statusField } from './fields.ts';

export const supplierResource: ResourceDef = {
  name: 'supplier',
  label: '供应商',
  table: 'supplier',
  permission: 'factory:supplier',
  route: '/factory-info/supplier/supplier-manage',
  fields: [
    codeField('供应商编码', { max: 30 }),
    nameField('供应商名称', { max: 100 }),
    { name: 'classifyId', label: '供应商分类', kind: 'ref', ref: 'supplier-classify', filter: 'eq' },
    { name: 'contact', label: '联系人', kind: 'text', max: 40, filter: 'like' },
    { name: 'phone', label: '联系电话', kind: 'text', max: 30, pattern: PHONE_PATTERN },
    { name: 'address', label: '地址', kind: 'text', max: 200, wide: true, list: false },
    {
      name: 'bankAccount',
      label: '开户行及账号',
      kind: 'text',
      max: 120,
      list: false,
      confidential: true,
      help: '付款时使用，如 中国工商银行无锡分行 1103 0201 0900 1234 567',
    },
    {
      name: 'taxNo',
      label: '税号',
      kind: 'text',
      max: 20,
      list: false,
      confidential: true,
      pattern: {
        regex: '^[0-9A-Z]{15,20}$',
        message: '税号应为 15–20 位数字或大写字母（统一社会信用代码为 18 位）',
      },
      help: '统一社会信用代码，开具和核对增值税专用发票时使用',
    },
    statusField(),
    ...paymentTermFields('入库'),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
  options: { remote: true, fields: ['classifyId'] },
  api: { edit: { method: 'PUT', path: 'update' } },
};
