import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const customGradeResource: ResourceDef = dictionaryResource({
  name: 'custom-grade',
  label: '客户等级',
  table: 'customer_grade',
  permission: 'factory:customerGrade',
  route: '/factory-info/custom/custom-grade',
});
