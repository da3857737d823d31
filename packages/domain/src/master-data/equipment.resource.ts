import { EQUIPMENT_FAULT_OPTIONS } from '../equipment/fault-options.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField } from './fields.ts';

export const EQUIPMENT_STATUS_OPTIONS: EnumOption[] = [
  { value: 'running', label: '运行', color: 'green' },
  { value: 'idle', label: '空闲', color: 'blue' },
  { value: 'repair', label: '维修', color: 'orange' },
  { value: 'scrapped', label: '报废', color: 'red' },
];

/** The equipment ledger (设备台账). */
export const equipmentResource: ResourceDef = {
  name: 'equipment',
  label: '设备',
  table: 'equipment',
  permission: 'factory:equipment',
  route: '/factory-info/equipment-manage/equipment-ledger',
  fields: [
    codeField('设备编码', { max: 30 }),
    nameField('设备名称'),
    { name: 'model', label: '规格型号', kind: 'text', max: 60, filter: 'like', help: '如 CK6140、M1080' },
    {
      name: 'workshopId',
      label: '所属车间',
      kind: 'ref',
      ref: 'workshop',
      required: true,
      filter: 'eq',
      sortable: true,
    },
    { name: 'lineId', label: '所属产线', kind: 'ref', ref: 'production-line', filter: 'eq' },
    { name: 'maker', label: '制造商', kind: 'text', max: 100, list: false },
    { name: 'purchaseDate', label: '购置日期', kind: 'date', filter: 'range', sortable: true, list: false },
    {
      name: 'status',
      label: '设备状态',
      kind: 'enum',
      options: EQUIPMENT_STATUS_OPTIONS,
      default: 'running',
      filter: 'eq',
      help: '维修和报废的设备不能派工',
    },
    {
      name: 'faultState',
      label: '运行状况',
      kind: 'enum',
      options: EQUIPMENT_FAULT_OPTIONS,
      default: 'normal',
      readonly: true,
      filter: 'eq',
      help: '有未修复的报修单（已报修、已派工、维修中）时为「故障」，由系统维护',
    },
    {
      name: 'maintenanceCycleDays',
      label: '保养周期(天)',
      kind: 'int',
      min: 0,
      max: 3650,
      help: '两次保养之间的天数；为空或 0 表示不做周期保养',
    },
    {
      name: 'lastMaintenanceDate',
      label: '上次保养日期',
      kind: 'date',
      filter: 'range',
      sortable: true,
      help: '下次保养日期 = 上次保养日期 + 保养周期；逾期在保养计划中标红',
    },
    remarkField(),
  ],
  defaultSort: { field: 'code', order: 'asc' },
  options: { remote: true, fields: ['faultState', 'workshopId'] },
  importable: true,
};
