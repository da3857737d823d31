import type { ResourceDef } from '../resource/types.ts';
import { dictionaryResource } from './fields.ts';

export const processClassifyResource: ResourceDef = dictionaryResource({
  name: 'process-classify',
  label: '工序分类',
  table: 'process_classify',
  permission: 'factory:processClass',
  route: '/factory-info/process-manage/process-classify',
});
