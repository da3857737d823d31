import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

export const productionTeamResource: ResourceDef = {
  name: 'production-team',
  label: '班组',
  table: 'production_team',
  permission: 'factory:team',
  route: '/factory-info/production-team/production-team-index',
  fields: [
    codeField('班组编码', { max: 30 }),
    nameField('班组名称'),
    {
      name: 'workshopId',
      label: '所属车间',
      kind: 'ref',
      ref: 'workshop',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    { name: 'leaderId', label: '班组长', kind: 'ref', ref: 'user', filter: 'eq' },
    {
      name: 'memberIds',
      label: '班组成员',
      kind: 'refs',
      ref: 'user',
      filter: 'eq',
      wide: true,
      help: '可被派工的操作工；班组的计件工资按成员汇总',
    },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
