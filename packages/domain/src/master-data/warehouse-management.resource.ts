import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

export const WAREHOUSE_TYPE_OPTIONS: EnumOption[] = [
  { value: 'raw', label: '原材料', color: 'blue' },
  { value: 'semi', label: '半成品', color: 'cyan' },
  { value: 'finished', label: '成品', color: 'green' },
  { value: 'auxiliary', label: '辅料', color: 'gold' },
  { value: 'scrap', label: '废品', color: 'red' },
];

export const warehouseManagementResource: ResourceDef = {
  name: 'warehouse-management',
  label: '仓库',
  table: 'warehouse',
  permission: 'factory:warehouse',
  route: '/factory-info/warehouse-modeling/warehouse-manage',
  fields: [
    codeField('仓库编码', { max: 30 }),
    nameField('仓库名称'),
    {
      name: 'type',
      label: '仓库类型',
      kind: 'enum',
      required: true,
      options: WAREHOUSE_TYPE_OPTIONS,
      filter: 'eq',
      sortable: true,
      help: '成品仓接收生产入库、发出销售出库；废品仓接收报废品',
    },
    { name: 'keeperId', label: '仓管员', kind: 'ref', ref: 'user', filter: 'eq' },
    { name: 'address', label: '仓库地址', kind: 'text', max: 200, wide: true },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
