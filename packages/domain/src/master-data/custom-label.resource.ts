import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const customLabelResource: ResourceDef = dictionaryResource({
  name: 'custom-label',
  label: '客户标签',
  table: 'customer_label',
  permission: 'factory:customerLabel',
  route: '/factory-info/custom/custom-label',
});
