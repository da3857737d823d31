import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const manufacturingMethodResource: ResourceDef = dictionaryResource({
  name: 'manufacturing-method',
  label: '制造方式',
  table: 'manufacturing_method',
  permission: 'factory:manufactureMethod',
  route: '/factory-info/material-manage/manufacturing-method',
  nameHelp: '自制件走生产订单，外购件走采购，委外件走委外订单',
});
