import { MAX_UNIT_PRECISION } from '../resource/precision-limit.ts';
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
    {
      name: 'precision',
      label: '小数位数',
      kind: 'int',
      default: 0,
      min: 0,
      max: MAX_UNIT_PRECISION,
      help: '按此单位计的数量最多几位小数：件、套、个、粒等计数单位为 0（只能填整数），kg、米、升等按需 1–4',
    },
    statusField(),
  ],
  // Forms read a unit's precision from its option row.
  options: { fields: ['precision'] },
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
