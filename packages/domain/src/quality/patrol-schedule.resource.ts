import { remarkField, statusField } from '../master-data/fields.ts';
import type { ResourceDef } from '../resource/types.ts';

/**
 * 巡检计划: every `intervalHours` hours, while dispatches of a workshop (optionally of one
 * process) are running, a 过程检验 task for each open flow card waiting at a step flagged for
 * inspection. Generating is idempotent: one task per card and period, however often it runs.
 */
export const patrolScheduleResource: ResourceDef = {
  name: 'patrol-schedule',
  label: '巡检计划',
  table: 'patrol_schedule',
  permission: 'quality:process',
  labelField: 'name',
  importable: false,
  activeField: { name: 'status', value: '1' },
  fields: [
    { name: 'name', label: '计划名称', kind: 'text', max: 60, required: true, filter: 'like' },
    { name: 'workshopId', label: '车间', kind: 'ref', ref: 'workshop', required: true, filter: 'eq' },
    {
      name: 'processId',
      label: '工序',
      kind: 'ref',
      ref: 'process-manage',
      filter: 'eq',
      help: '不填：该车间所有需检验的工序',
    },
    {
      name: 'intervalHours',
      label: '间隔(小时)',
      kind: 'int',
      required: true,
      default: 2,
      min: 1,
      max: 24,
      help: '派工单在执行中时，每隔这么多小时对在制流转卡生成一次巡检任务',
    },
    {
      name: 'lastRunAt',
      label: '上次生成',
      kind: 'datetime',
      readonly: true,
      help: '最近一次按本计划生成巡检任务的时间',
    },
    statusField(),
    remarkField(),
  ],
};
