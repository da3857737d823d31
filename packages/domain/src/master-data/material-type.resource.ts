import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, orderNumField, statusField } from './fields.ts';

/**
 * The material type tree (原材料 → 钢管…). It has no page of its own: the material list shows it
 * beside the table and maintains it, so it shares the material permissions.
 */
export const materialTypeResource: ResourceDef = {
  name: 'material-type',
  label: '物料类型',
  table: 'material_type',
  permission: 'factory:material',
  fields: [
    {
      name: 'parentId',
      label: '上级类型',
      kind: 'ref',
      ref: 'material-type',
      filter: 'eq',
      help: '为空表示顶级类型',
    },
    codeField('类型编码', { max: 30 }),
    nameField('类型名称', { max: 40 }),
    orderNumField(),
    statusField(),
  ],
  parentField: 'parentId',
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'orderNum', order: 'asc' },
};
