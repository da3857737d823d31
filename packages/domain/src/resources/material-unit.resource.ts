import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, statusField } from './fields.ts';

export const materialUnitResource: ResourceDef = {
  name: 'material-unit',
  label: '计量单位',
  table: 'material_unit',
  permission: 'factory:unit',
  route: '/factory-info/material-manage/material-unit',
  fields: [
    codeField('单位编码', { max: 20, help: '如 PCS、SET、KG' }),
    nameField('单位名称', { max: 20, help: '单据和报表上显示的名称，如 件、套、kg、箱' }),
    statusField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
