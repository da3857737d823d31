import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

/** Production lines are edited in the factory-model tree (factory-modeling-main), not on a page of their own. */
export const productionLineResource: ResourceDef = {
  name: 'production-line',
  label: '产线',
  table: 'production_line',
  permission: 'factory:line',
  fields: [
    codeField('产线编码', { max: 30 }),
    nameField('产线名称'),
    {
      name: 'workshopId',
      label: '所属车间',
      kind: 'ref',
      ref: 'workshop',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
