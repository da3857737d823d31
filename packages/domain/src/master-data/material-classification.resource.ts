import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const materialClassificationResource: ResourceDef = dictionaryResource({
  name: 'material-classification',
  label: '物料分类',
  table: 'material_classification',
  permission: 'factory:materialClass',
  route: '/factory-info/material-manage/material-classification',
  nameHelp: '按用途或管理方式对物料分组，如 关键件、标准件、通用件；用于统计和筛选',
});
