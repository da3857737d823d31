import { codeField, nameField, remarkField, statusField } from '../master-data/fields.ts';
import { SHIFT_OPTIONS } from '../master-data/shifts.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * 设备管理 beyond the ledger: 报修 (repair requests with a lifecycle and downtime), 保养 (plans by
 * cycle and the records that advance them) and 点检 (checklists per equipment and the daily
 * records by shift). The server keeps the equipment's 运行状况 (正常/故障) from the open repairs.
 */

const EQUIPMENT_ROOT = '/factory-info/equipment-manage';

/** 报修单 lifecycle: 已报修 → 已派工 → 维修中 → 已修复 → 已确认, or 已关闭 (with a reason). */
export const EQUIPMENT_REPAIR_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'reported', label: '已报修', color: 'orange' },
    { value: 'dispatched', label: '已派工', color: 'blue' },
    { value: 'repairing', label: '维修中', color: 'cyan' },
    { value: 'repaired', label: '已修复', color: 'green' },
    { value: 'confirmed', label: '已确认', color: 'purple' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'reported',
  editable: ['reported'],
  transitions: [
    {
      name: 'dispatch',
      label: '派工',
      from: ['reported', 'dispatched'],
      to: 'dispatched',
      tone: 'primary',
      input: [
        {
          name: 'assigneeId',
          label: '维修人',
          kind: 'ref',
          ref: 'user',
          required: true,
          help: '负责本次维修的设备维修人员；已派工的报修可以改派',
        },
      ],
    },
    { name: 'start', label: '开始维修', from: ['dispatched'], to: 'repairing', tone: 'primary' },
    {
      name: 'finish',
      label: '维修完成',
      from: ['repairing'],
      to: 'repaired',
      tone: 'primary',
      input: [{ name: 'repairContent', label: '维修内容', kind: 'textarea', max: 1000, required: true }],
    },
    {
      name: 'confirm',
      label: '确认修复',
      from: ['repaired'],
      to: 'confirmed',
      tone: 'primary',
      confirm: '确认设备已修复、可以正常使用？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['reported', 'dispatched', 'repairing', 'repaired'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后报修单不再处理（误报、重复报修等）。',
    },
  ],
};

/** States in which a repair is open: its equipment shows 故障. */
export const REPAIR_OPEN_STATES = ['reported', 'dispatched', 'repairing'];

export const equipmentRepairResource: ResourceDef = {
  name: 'equipment-repair',
  label: '报修单',
  table: 'equipment_repair',
  permission: 'factory:repair',
  route: `${EQUIPMENT_ROOT}/report-for-repair`,
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'BX' },
  lifecycle: EQUIPMENT_REPAIR_LIFECYCLE,
  fields: [
    {
      name: 'docNo',
      label: '报修单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按报修日期生成，如 BX20261125-0001',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: EQUIPMENT_REPAIR_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'equipmentId',
      label: '设备',
      kind: 'ref',
      ref: 'equipment',
      required: true,
      filter: 'eq',
      help: '报修期间设备的运行状况显示为「故障」',
    },
    {
      name: 'faultDescription',
      label: '故障描述',
      kind: 'textarea',
      max: 1000,
      required: true,
      wide: true,
      help: '故障现象、发生时间、是否停机等',
    },
    { name: 'reporterId', label: '报修人', kind: 'ref', ref: 'user', readonly: true, filter: 'eq' },
    {
      name: 'reportedAt',
      label: '报修时间',
      kind: 'datetime',
      readonly: true,
      sortable: true,
      filter: 'range',
      help: '停机时长从此时起算',
    },
    { name: 'assigneeId', label: '维修人', kind: 'ref', ref: 'user', readonly: true, filter: 'eq' },
    { name: 'dispatchedAt', label: '派工时间', kind: 'datetime', readonly: true, list: false },
    { name: 'startedAt', label: '开始维修', kind: 'datetime', readonly: true, list: false },
    { name: 'repairedAt', label: '修复时间', kind: 'datetime', readonly: true },
    {
      name: 'downtimeMinutes',
      label: '停机时长(分钟)',
      kind: 'int',
      readonly: true,
      min: 0,
      help: '从报修到维修完成的分钟数',
    },
    { name: 'repairContent', label: '维修内容', kind: 'textarea', max: 1000, readonly: true, wide: true },
    { name: 'confirmedById', label: '确认人', kind: 'ref', ref: 'user', readonly: true, list: false },
    { name: 'confirmedAt', label: '确认时间', kind: 'datetime', readonly: true, list: false },
    {
      name: 'inspectionRecordId',
      label: '来源点检',
      kind: 'ref',
      ref: 'inspection-record',
      readonly: true,
      list: false,
      refActiveOnly: false,
      help: '由点检不合格项一键报修时的点检记录',
    },
    { name: 'statusReason', label: '关闭原因', kind: 'text', max: 500, readonly: true, list: false },
    {
      name: 'remark',
      label: '备注',
      kind: 'textarea',
      max: 500,
      list: false,
      wide: true,
      help: '现场照片在报修时或报修详情页上传（图片，可多张）',
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};

// ------------------------------------------------------------------ 保养

/** 保养周期: by days, or by running hours taken from the work reports on the equipment. */
export const MAINTENANCE_CYCLE_OPTIONS: EnumOption[] = [
  { value: 'days', label: '按天数', color: 'blue' },
  { value: 'hours', label: '按运行小时', color: 'purple' },
];

export const maintenancePlanResource: ResourceDef = {
  name: 'maintenance-plan',
  label: '保养计划',
  table: 'maintenance_plan',
  permission: 'factory:maintenance',
  route: `${EQUIPMENT_ROOT}/maintenance`,
  fields: [
    codeField('计划编码', { max: 30 }),
    nameField('保养项目', { help: '如 一级保养、导轨润滑、液压油更换' }),
    { name: 'equipmentId', label: '设备', kind: 'ref', ref: 'equipment', required: true, filter: 'eq' },
    {
      name: 'cycleType',
      label: '周期类型',
      kind: 'enum',
      options: MAINTENANCE_CYCLE_OPTIONS,
      default: 'days',
      filter: 'eq',
      help: '按天数，或按运行小时（该设备报工单上的工时累计）',
    },
    {
      name: 'cycleDays',
      label: '周期(天)',
      kind: 'int',
      min: 1,
      max: 3650,
      help: '按天：两次保养之间的天数',
    },
    {
      name: 'cycleHours',
      label: '周期(运行小时)',
      kind: 'decimal',
      scale: 2,
      min: 0.01,
      max: 100000,
      help: '按运行小时：上次保养后该设备报工工时累计达到此数即到期',
    },
    {
      name: 'hoursSince',
      label: '已运行(小时)',
      kind: 'decimal',
      scale: 2,
      readonly: true,
      help: '按运行小时的计划：上次保养（无记录时自首次保养日期）以来该设备已提交报工的工时合计',
    },
    {
      name: 'startDate',
      label: '首次保养日期',
      kind: 'date',
      required: true,
      default: 'today',
      list: false,
      help: '还没有保养记录时，下次保养日期就是这一天',
    },
    {
      name: 'lastDoneDate',
      label: '上次保养',
      kind: 'date',
      readonly: true,
      help: '该计划最近一条保养记录的日期',
    },
    {
      name: 'nextDueDate',
      label: '下次保养',
      kind: 'date',
      readonly: true,
      sortable: true,
      filter: 'range',
      help: '按天：上次保养 + 周期，没有记录时为首次保养日期；按运行小时：累计工时达到周期的那一天（未达到时为空）。早于今天即逾期',
    },
    { name: 'content', label: '保养内容', kind: 'textarea', max: 1000, list: false, wide: true },
    statusField({ help: '停用的计划不再产生待保养项' }),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'nextDueDate', order: 'asc' },
};

export const maintenanceRecordResource: ResourceDef = {
  name: 'maintenance-record',
  label: '保养记录',
  table: 'maintenance_record',
  permission: 'factory:maintenance',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'BY' },
  fields: [
    {
      name: 'docNo',
      label: '保养单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按保养日期生成，如 BY20261125-0001',
    },
    {
      name: 'planId',
      label: '保养计划',
      kind: 'ref',
      ref: 'maintenance-plan',
      required: true,
      filter: 'eq',
      help: '保存后计划的上次保养、下次保养随之更新',
    },
    {
      name: 'equipmentId',
      label: '设备',
      kind: 'ref',
      ref: 'equipment',
      readonly: true,
      filter: 'eq',
      help: '取保养计划的设备',
    },
    {
      name: 'doneDate',
      label: '保养日期',
      kind: 'date',
      required: true,
      default: 'today',
      sortable: true,
      filter: 'range',
    },
    { name: 'doneById', label: '保养人', kind: 'ref', ref: 'user', filter: 'eq', help: '不填为登记人' },
    { name: 'minutes', label: '用时(分钟)', kind: 'int', min: 0, max: 100000 },
    { name: 'content', label: '保养内容', kind: 'textarea', max: 1000, required: true, wide: true },
    {
      name: 'outboundId',
      label: '备件领料单',
      kind: 'ref',
      ref: 'stock-outbound',
      readonly: true,
      refActiveOnly: false,
      help: '保养用到的备件：在保养记录上「领用备件」生成并过账的领料出库单',
    },
    remarkField(),
  ],
  defaultSort: { field: 'doneDate', order: 'desc' },
};

// ------------------------------------------------------------------ 点检

export const CHECK_VALUE_TYPE_OPTIONS: EnumOption[] = [
  { value: 'okng', label: 'OK/NG', color: 'blue' },
  { value: 'value', label: '数值', color: 'purple' },
];

export const CHECK_RESULT_OPTIONS: EnumOption[] = [
  { value: 'ok', label: 'OK', color: 'green' },
  { value: 'ng', label: 'NG', color: 'red' },
];

const checkItemFields: FieldDef[] = [
  { name: 'itemName', label: '点检项目', kind: 'text', max: 60, required: true },
  { name: 'method', label: '点检方法', kind: 'text', max: 100, help: '如 目视、听音、测温枪' },
  {
    name: 'valueType',
    label: '判定方式',
    kind: 'enum',
    options: CHECK_VALUE_TYPE_OPTIONS,
    required: true,
    default: 'okng',
  },
  { name: 'expected', label: '标准', kind: 'text', max: 100, help: '如 无异响、油位在刻度线之间' },
  { name: 'lowerLimit', label: '下限', kind: 'decimal', scale: 4, help: '数值项：实测值低于下限判 NG' },
  { name: 'upperLimit', label: '上限', kind: 'decimal', scale: 4, help: '数值项：实测值高于上限判 NG' },
  { name: 'unit', label: '单位', kind: 'text', max: 20 },
];

export const inspectionChecklistResource: ResourceDef = {
  name: 'inspection-checklist',
  label: '点检表',
  table: 'inspection_checklist',
  permission: 'factory:inspection',
  route: `${EQUIPMENT_ROOT}/inspection`,
  fields: [
    codeField('点检表编码', { max: 30 }),
    nameField('点检表名称'),
    { name: 'equipmentId', label: '设备', kind: 'ref', ref: 'equipment', required: true, filter: 'eq' },
    statusField({ help: '停用的点检表不能再登记点检' }),
    remarkField(),
  ],
  lines: [
    {
      name: 'items',
      label: '点检项目',
      table: 'inspection_checklist_item',
      parentColumn: 'inspection_checklist_id',
      min: 1,
      max: 100,
      fields: checkItemFields,
    },
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};

export const inspectionRecordResource: ResourceDef = {
  name: 'inspection-record',
  label: '点检记录',
  table: 'inspection_record',
  permission: 'factory:inspection',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'DJ' },
  fields: [
    {
      name: 'docNo',
      label: '点检单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按点检日期生成，如 DJ20261125-0001',
    },
    {
      name: 'checklistId',
      label: '点检表',
      kind: 'ref',
      ref: 'inspection-checklist',
      required: true,
      filter: 'eq',
    },
    { name: 'equipmentId', label: '设备', kind: 'ref', ref: 'equipment', readonly: true, filter: 'eq' },
    {
      name: 'checkDate',
      label: '点检日期',
      kind: 'date',
      required: true,
      default: 'today',
      sortable: true,
      filter: 'range',
    },
    {
      name: 'shift',
      label: '班次',
      kind: 'enum',
      options: SHIFT_OPTIONS,
      required: true,
      filter: 'eq',
      help: '与派工的班次相同：白班、夜班',
    },
    { name: 'checkerId', label: '点检人', kind: 'ref', ref: 'user', filter: 'eq', help: '不填为登记人' },
    {
      name: 'result',
      label: '结果',
      kind: 'enum',
      options: CHECK_RESULT_OPTIONS,
      readonly: true,
      filter: 'eq',
      help: '任一项目 NG 即为 NG',
    },
    { name: 'ngCount', label: 'NG项数', kind: 'int', readonly: true, default: 0 },
    remarkField(),
  ],
  lines: [
    {
      name: 'items',
      label: '点检结果',
      table: 'inspection_record_item',
      parentColumn: 'inspection_record_id',
      min: 1,
      max: 100,
      fields: [
        {
          name: 'checklistItemId',
          label: '点检表项目',
          kind: 'int',
          hidden: true,
          list: false,
          help: '对应点检表的项目行：标准、判定方式和上下限从那里取',
        },
        { name: 'itemName', label: '点检项目', kind: 'text', max: 60, required: true },
        { name: 'expected', label: '标准', kind: 'text', max: 100, readonly: true },
        {
          name: 'valueType',
          label: '判定方式',
          kind: 'enum',
          options: CHECK_VALUE_TYPE_OPTIONS,
          readonly: true,
        },
        {
          name: 'measuredValue',
          label: '实测值',
          kind: 'decimal',
          scale: 4,
          help: '数值项必填，按点检表的上下限判定',
        },
        {
          name: 'result',
          label: '判定',
          kind: 'enum',
          options: CHECK_RESULT_OPTIONS,
          help: 'OK/NG 项必填；数值项由实测值判定',
        },
        { name: 'note', label: '说明', kind: 'text', max: 200 },
        {
          name: 'repairId',
          label: '报修单',
          kind: 'ref',
          ref: 'equipment-repair',
          readonly: true,
          refActiveOnly: false,
        },
      ],
    },
  ],
  defaultSort: { field: 'checkDate', order: 'desc' },
};

export { EQUIPMENT_FAULT_OPTIONS } from './fault-options.ts';
