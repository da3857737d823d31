import { SHIFT_OPTIONS } from '../master-data/shifts.ts';
import { WORKSHOP_TYPE_OPTIONS } from '../master-data/workshop.resource.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { ResourceDef } from '../resource/types.ts';
import { PRODUCTION_PRIORITY_OPTIONS } from './production-order.resource.ts';
import { WORKSHOP_KINDS, workshopPermission } from './workshops.ts';

/**
 * 车间任务 (workshop task): one per step of a released production order's frozen route, made by
 * 派单. Its state follows its 派工单 (the server recounts it whenever one changes): 待派工 while
 * nothing is dispatched, 已派工, 已开工 while any dispatch runs, 暂停 while all running ones are
 * paused, 已完工 when everything dispatched is finished and the plan is covered; 关闭 ends it by hand.
 */
export const WORKSHOP_TASK_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'pending', label: '待派工', color: 'default' },
    { value: 'dispatched', label: '已派工', color: 'blue' },
    { value: 'started', label: '已开工', color: 'cyan' },
    { value: 'paused', label: '暂停', color: 'orange' },
    { value: 'completed', label: '已完工', color: 'green' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'pending',
  editable: [],
  transitions: [
    {
      name: 'close',
      label: '关闭',
      from: ['pending', 'dispatched', 'started', 'paused', 'completed'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后任务不再派工，未开工的派工单一并关闭。确定关闭？',
    },
  ],
};

/**
 * 派工单 (dispatch): part of a task's quantity given to a team, an operator and a machine for a
 * date and shift. 已派工 → 已开工 ⇄ 暂停 → 已完工, or 已关闭. The operator runs it (开工 records
 * the actual start); 暂停, 继续 and 完工 need the same permission as 开工.
 */
export const WORK_DISPATCH_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'dispatched', label: '已派工', color: 'blue' },
    { value: 'started', label: '已开工', color: 'cyan' },
    { value: 'paused', label: '暂停', color: 'orange' },
    { value: 'completed', label: '已完工', color: 'green' },
    { value: 'closed', label: '已关闭', color: 'red' },
  ],
  initial: 'dispatched',
  editable: ['dispatched'],
  transitions: [
    { name: 'start', label: '开工', from: ['dispatched'], to: 'started', tone: 'primary' },
    { name: 'pause', label: '暂停', from: ['started'], to: 'paused', action: 'start' },
    { name: 'resume', label: '继续', from: ['paused'], to: 'started', tone: 'primary', action: 'start' },
    {
      name: 'complete',
      label: '完工',
      from: ['started', 'paused'],
      to: 'completed',
      tone: 'primary',
      action: 'start',
      confirm: '完工后派工单不再开工。确定完工？',
    },
    {
      name: 'close',
      label: '关闭',
      from: ['dispatched', 'started', 'paused', 'completed'],
      to: 'closed',
      reason: true,
      tone: 'danger',
      confirm: '关闭后派工单未完成的数量退回任务，可重新派工。确定关闭？',
    },
  ],
};

export { SHIFT_OPTIONS };

/** Minutes of one shift: capacity of a machine or operator per shift (排产计划). */
export const SHIFT_MINUTES = 480;

const scoped = (screens: string[]) =>
  Object.fromEntries(WORKSHOP_KINDS.map((k) => [k.type, screens.map((s) => workshopPermission(k, s))]));

export const workshopTaskResource: ResourceDef = {
  name: 'workshop-task',
  label: '车间任务',
  table: 'workshop_task',
  permission: 'production:workshopTask',
  route: '/production-department/production-manage/machine/lathing',
  labelField: 'taskNo',
  codeField: 'taskNo',
  lifecycle: WORKSHOP_TASK_LIFECYCLE,
  readonlyApi: true,
  scopedPermissions: { field: 'workshopType', prefixes: scoped(['Task']) },
  options: { remote: true, fields: ['productionOrderId', 'processId', 'workshopType'] },
  fields: [
    {
      name: 'taskNo',
      label: '任务编号',
      kind: 'text',
      max: 40,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '生产订单号-工序顺序号，如 SC20261122-0001-20',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: WORKSHOP_TASK_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'productionOrderId',
      label: '生产订单',
      kind: 'ref',
      ref: 'production-order',
      readonly: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    { name: 'productId', label: '产品', kind: 'ref', ref: 'material-info', readonly: true, filter: 'eq' },
    { name: 'seq', label: '顺序号', kind: 'int', readonly: true, sortable: true },
    { name: 'processId', label: '工序', kind: 'ref', ref: 'process-manage', readonly: true, filter: 'eq' },
    {
      name: 'workshopType',
      label: '车间类型',
      kind: 'enum',
      options: WORKSHOP_TYPE_OPTIONS,
      readonly: true,
      filter: 'eq',
      list: false,
    },
    { name: 'workshopId', label: '车间', kind: 'ref', ref: 'workshop', readonly: true, filter: 'eq' },
    { name: 'plannedQuantity', label: '计划数量', kind: 'quantity', readonly: true },
    {
      name: 'dispatchedQuantity',
      label: '已派工',
      kind: 'quantity',
      readonly: true,
      default: 0,
      help: '未关闭派工单的数量，加上已关闭派工单已完成的数量；不超过计划数量 × (1 + 超派比例)',
    },
    {
      name: 'completedQuantity',
      label: '完工数量',
      kind: 'quantity',
      readonly: true,
      default: 0,
      help: '报工入账的合格数量',
    },
    { name: 'scrapQuantity', label: '报废数量', kind: 'quantity', readonly: true, default: 0 },
    {
      name: 'standardMinutes',
      label: '标准工时(分钟/件)',
      kind: 'decimal',
      scale: 2,
      readonly: true,
      list: false,
    },
    {
      name: 'plannedStartDate',
      label: '计划开始',
      kind: 'date',
      readonly: true,
      filter: 'range',
      sortable: true,
    },
    { name: 'plannedFinishDate', label: '计划完成', kind: 'date', readonly: true, sortable: true },
    {
      name: 'priority',
      label: '优先级',
      kind: 'enum',
      options: PRODUCTION_PRIORITY_OPTIONS,
      readonly: true,
      filter: 'eq',
    },
    { name: 'inspectionRequired', label: '报工检验', kind: 'boolean', readonly: true, list: false },
    {
      name: 'orderStepId',
      label: '订单工序',
      kind: 'int',
      readonly: true,
      hidden: true,
      list: false,
      unique: true,
      help: '生产订单冻结工艺路线的工序行（production_order_step）',
    },
    { name: 'statusReason', label: '关闭原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, readonly: true },
  ],
  defaultSort: { field: 'plannedStartDate', order: 'asc' },
};

export const workDispatchResource: ResourceDef = {
  name: 'work-dispatch',
  label: '派工单',
  table: 'work_dispatch',
  permission: 'production:workDispatch',
  route: '/production-department/production-manage/machine/lathing-dispatch',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'PG' },
  lifecycle: WORK_DISPATCH_LIFECYCLE,
  importable: false,
  scopedPermissions: {
    field: 'workshopType',
    prefixes: scoped(['Dispatch', 'OperatorTask', 'WorkshopOperatorTask', 'Plan']),
  },
  // An operator sees and runs (开工, 暂停, 继续, 完工, 报工) the dispatches given to him; who dispatches
  // or re-dispatches (排产计划 改派) in a workshop acts on all of its dispatches.
  owner: { field: 'operatorId', liftedBy: ['add', 'edit'] },
  options: { remote: true },
  fields: [
    {
      name: 'docNo',
      label: '派工单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按生产日期生成，如 PG20261125-0001',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: WORK_DISPATCH_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'taskId',
      label: '车间任务',
      kind: 'ref',
      ref: 'workshop-task',
      required: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    {
      name: 'productionOrderId',
      label: '生产订单',
      kind: 'ref',
      ref: 'production-order',
      readonly: true,
      filter: 'eq',
      refActiveOnly: false,
    },
    { name: 'productId', label: '产品', kind: 'ref', ref: 'material-info', readonly: true, filter: 'eq' },
    { name: 'processId', label: '工序', kind: 'ref', ref: 'process-manage', readonly: true, filter: 'eq' },
    {
      name: 'workshopType',
      label: '车间类型',
      kind: 'enum',
      options: WORKSHOP_TYPE_OPTIONS,
      readonly: true,
      filter: 'eq',
      list: false,
    },
    { name: 'workshopId', label: '车间', kind: 'ref', ref: 'workshop', readonly: true, list: false },
    { name: 'teamId', label: '班组', kind: 'ref', ref: 'production-team', filter: 'eq' },
    { name: 'operatorId', label: '操作工', kind: 'ref', ref: 'user', required: true, filter: 'eq' },
    { name: 'equipmentId', label: '设备', kind: 'ref', ref: 'equipment', filter: 'eq' },
    {
      name: 'workDate',
      label: '生产日期',
      kind: 'date',
      required: true,
      default: 'today',
      filter: 'range',
      sortable: true,
    },
    {
      name: 'shift',
      label: '班次',
      kind: 'enum',
      options: SHIFT_OPTIONS,
      required: true,
      default: 'day',
      filter: 'eq',
    },
    {
      name: 'quantity',
      label: '派工数量',
      kind: 'quantity',
      required: true,
      min: 0.0001,
      help: '按产品的基本单位计，小数位数不超过该单位的精度',
      unitFrom: { material: 'productId' },
    },
    {
      name: 'reportedQuantity',
      label: '已报工',
      kind: 'quantity',
      readonly: true,
      default: 0,
      help: '报工入账的合格数量',
    },
    {
      name: 'plannedMinutes',
      label: '计划工时(分钟)',
      kind: 'decimal',
      scale: 2,
      readonly: true,
      help: '工序标准工时 × 派工数量，用于排产负荷',
    },
    { name: 'startedAt', label: '实际开工', kind: 'datetime', readonly: true, sortable: true },
    { name: 'finishedAt', label: '实际完工', kind: 'datetime', readonly: true, list: false },
    { name: 'statusReason', label: '关闭/暂停原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
