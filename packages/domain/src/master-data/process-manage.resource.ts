import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

export const processManageResource: ResourceDef = {
  name: 'process-manage',
  label: '工序',
  table: 'process',
  permission: 'factory:process',
  route: '/factory-info/process-manage/process-manage',
  fields: [
    codeField('工序编码', { max: 30 }),
    nameField('工序名称', { max: 40 }),
    { name: 'classifyId', label: '工序分类', kind: 'ref', ref: 'process-classify', filter: 'eq' },
    {
      name: 'workshopId',
      label: '所属车间',
      kind: 'ref',
      ref: 'workshop',
      filter: 'eq',
      sortable: true,
      help: '执行该工序的车间；委外工序可不填',
    },
    {
      name: 'standardMinutes',
      label: '标准工时(分钟/件)',
      kind: 'decimal',
      scale: 2,
      min: 0,
      help: '加工一件的标准时间，用于排产产能计算（标准工时 × 数量 对比班次时长）',
    },
    {
      name: 'pieceRate',
      label: '计件单价(元/件)',
      kind: 'price',
      help: '报工合格数量 × 计件单价 = 计件工资',
    },
    {
      name: 'inspectionRequired',
      label: '报工检验',
      kind: 'boolean',
      default: false,
      filter: 'eq',
      help: '勾选后该工序报工的产出须经检验合格才能流转到下道工序',
    },
    {
      name: 'outsourced',
      label: '委外',
      kind: 'boolean',
      default: false,
      filter: 'eq',
      help: '由供应商加工（如热处理），通过委外发料和委外入库流转',
    },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};
