import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const supplierClassifyResource: ResourceDef = dictionaryResource({
  name: 'supplier-classify',
  label: '供应商分类',
  table: 'supplier_classify',
  permission: 'factory:supplierClass',
  route: '/factory-info/supplier/supplier-classify',
});
