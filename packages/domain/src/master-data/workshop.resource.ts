import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

/** The four workshop kinds; production screens (tasks, dispatch, panels) are grouped by them. */
export const WORKSHOP_TYPE_OPTIONS: EnumOption[] = [
  { value: 'machine', label: '车加工', color: 'blue' },
  { value: 'grinding', label: '磨加工', color: 'purple' },
  { value: 'inspect', label: '检测', color: 'orange' },
  { value: 'assembly', label: '装配', color: 'green' },
];

export const workshopResource: ResourceDef = {
  name: 'workshop',
  label: '车间',
  table: 'workshop',
  permission: 'factory:workshop',
  route: '/factory-info/factory-modeling/factory-modeling-main',
  fields: [
    codeField('车间编码', { max: 30 }),
    nameField('车间名称'),
    {
      name: 'type',
      label: '车间类型',
      kind: 'enum',
      required: true,
      options: WORKSHOP_TYPE_OPTIONS,
      filter: 'eq',
      sortable: true,
      help: '决定车间在生产管理中使用哪一组任务、派工、看板和报工页面',
    },
    { name: 'managerId', label: '车间主任', kind: 'ref', ref: 'user', filter: 'eq' },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
