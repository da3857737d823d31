import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const customClassifyResource: ResourceDef = dictionaryResource({
  name: 'custom-classify',
  label: '客户分类',
  table: 'customer_classify',
  permission: 'factory:customerClass',
  route: '/factory-info/custom/custom-classify',
});
