import type { ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, VERSION_STATUS_OPTIONS } from './fields.ts';

/**
 * The ordered process steps that make a product. Production orders freeze a copy of the active
 * version at release; one active version per product (partial unique index
 * `process_route_active_key`).
 */
export const processRouteResource: ResourceDef = {
  name: 'process-route',
  label: '工艺路线',
  table: 'process_route',
  permission: 'factory:route',
  route: '/factory-info/process-manage/process-route',
  fields: [
    codeField('路线编码', { max: 40 }),
    nameField('路线名称'),
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    // Not `version`: that name is the optimistic-lock counter every record carries.
    {
      name: 'versionNo',
      label: '版本号',
      kind: 'text',
      max: 20,
      required: true,
      default: 'V1',
      help: '同一产品的版本号不能重复，如 V1、V2',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: VERSION_STATUS_OPTIONS,
      default: 'draft',
      filter: 'eq',
      help: '每个产品只能有一个启用的路线；生产订单下达时按启用路线拆分车间任务',
    },
    remarkField(),
  ],
  lines: [
    {
      name: 'steps',
      label: '工序步骤',
      table: 'process_route_step',
      parentColumn: 'process_route_id',
      min: 1,
      max: 100,
      fields: [
        {
          name: 'seq',
          label: '顺序号',
          kind: 'int',
          required: true,
          min: 1,
          max: 9999,
          help: '工序的先后顺序，常用 10、20、30… 以便插入新工序',
        },
        { name: 'processId', label: '工序', kind: 'ref', ref: 'process-manage', required: true },
        {
          name: 'workshopId',
          label: '车间',
          kind: 'ref',
          ref: 'workshop',
          help: '默认取工序的所属车间；委外步骤为空',
        },
        { name: 'standardMinutes', label: '标准工时(分钟/件)', kind: 'decimal', scale: 2, min: 0 },
        { name: 'outsourced', label: '委外', kind: 'boolean', default: false },
        { name: 'inspectionRequired', label: '报工检验', kind: 'boolean', default: false },
        { name: 'remark', label: '备注', kind: 'text', max: 200 },
      ],
    },
  ],
  activeField: { name: 'status', value: 'active' },
  defaultSort: { field: 'code', order: 'asc' },
};
