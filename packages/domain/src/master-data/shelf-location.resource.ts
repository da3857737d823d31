import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

export const shelfLocationResource: ResourceDef = {
  name: 'shelf-location',
  label: '库位',
  table: 'shelf_location',
  permission: 'factory:location',
  route: '/factory-info/warehouse-modeling/warehouse-location-manage',
  fields: [
    codeField('库位编码', { help: '全厂唯一，建议以仓库编码开头，如 RM-A01（原材料仓 A 区 01 架）' }),
    nameField('库位名称'),
    {
      name: 'warehouseId',
      label: '所属仓库',
      kind: 'ref',
      ref: 'warehouse-management',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
  options: { fields: ['warehouseId'] },
};
