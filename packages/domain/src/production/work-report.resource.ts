import { WORKSHOP_TYPE_OPTIONS } from '../master-data/workshop.resource.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { SHIFT_OPTIONS } from './workshop-task.resource.ts';
import { WORKSHOP_KINDS, workshopPermission } from './workshops.ts';

/**
 * 报工 (work report) lifecycle: 草稿 → 已提交 → 已审核 → 已入账; on a step flagged for inspection
 * 审核 leaves it 待检验 until its inspection task is judged: 合格 / 让步接收 complete it (检验完成, run
 * by the server in the task's transaction — no button, no route), then it is posted. Only
 * 越过检验入账 posts it without that result: its own permission, a reason, the task closed as 已越过.
 * 入账 happens in the same transaction as the step that allows it; 反审核 takes the posting back
 * and returns the report to 草稿.
 */
export const WORK_REPORT_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'draft', label: '草稿', color: 'default' },
    { value: 'submitted', label: '已提交', color: 'blue' },
    { value: 'approved', label: '已审核', color: 'cyan' },
    { value: 'inspecting', label: '待检验', color: 'orange' },
    { value: 'inspected', label: '检验完成', color: 'purple' },
    { value: 'posted', label: '已入账', color: 'green' },
  ],
  initial: 'draft',
  editable: ['draft'],
  transitions: [
    { name: 'submit', label: '提交', from: ['draft'], to: 'submitted', tone: 'primary', action: 'add' },
    {
      name: 'approve',
      label: '审核',
      from: ['submitted'],
      to: 'approved',
      tone: 'primary',
      confirm: '审核后入账：合格数转入下道工序，更新任务与订单进度并计件；需检验的工序先待检验。确定审核？',
    },
    {
      name: 'inspectOverride',
      label: '越过检验入账',
      from: ['inspecting'],
      to: 'inspected',
      tone: 'danger',
      reason: true,
      confirm:
        '不等检验结果直接入账：合格数转入下道工序并计件，检验单关闭为「已越过」，原因记入操作日志。首检不因此通过。',
    },
    {
      name: 'unapprove',
      label: '反审核',
      from: ['submitted', 'approved', 'inspecting', 'inspected', 'posted'],
      to: 'draft',
      reason: true,
      confirm: '反审核撤销入账：数量退回本工序，任务、订单进度和计件工资一并冲回。确定反审核？',
    },
  ],
};

/** 废品原因 (the scrap reason dictionary): 工废 operator-caused, 料废 material-caused. */
export const SCRAP_REASON_OPTIONS: EnumOption[] = [
  { value: 'size', label: '尺寸超差' },
  { value: 'surface', label: '表面缺陷（磕碰、划伤）' },
  { value: 'burn', label: '磨削烧伤' },
  { value: 'crack', label: '裂纹' },
  { value: 'setup', label: '调机废品' },
  { value: 'material', label: '材料缺陷（夹杂、缩孔）' },
  { value: 'heat', label: '热处理硬度不合格' },
  { value: 'other', label: '其他' },
];

/** Each workshop's 报工 page; turning's also its 车间报工记录. */
const prefixes = Object.fromEntries(
  WORKSHOP_KINDS.map((k) => [
    k.type,
    [workshopPermission(k, 'Report'), ...(k.reportRecords ? [workshopPermission(k, 'ReportRecord')] : [])],
  ]),
);

/** A worker's piece rate and wage: finance (工序工资), the workshop's head (who approves) and the worker himself. */
const WAGE_VISIBLE = { permissions: ['finance:wage:list'], actions: ['approve'], owner: true };

export const workReportResource: ResourceDef = {
  name: 'work-report',
  label: '报工单',
  table: 'work_report',
  // 报工记录 (every workshop's reports) is the resource-wide read; each workshop's 报工 its own.
  permission: 'production:reportRecord',
  route: '/production-department/production-manage/work-report-record',
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'BG' },
  lifecycle: WORK_REPORT_LIFECYCLE,
  importable: false,
  scopedPermissions: { field: 'workshopType', prefixes },
  // An operator reads, edits, submits and deletes his own reports; who approves a workshop's
  // reports (its head), and 报工记录 (every workshop's, read only), act on everyone's.
  owner: { field: 'operatorId', liftedBy: ['approve'] },
  fields: [
    {
      name: 'docNo',
      label: '报工单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时按报工日期生成，如 BG20261125-0001',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: WORK_REPORT_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'dispatchId',
      label: '派工单',
      kind: 'ref',
      ref: 'work-dispatch',
      required: true,
      filter: 'eq',
      refActiveOnly: false,
      help: '报工针对操作工的派工单（已开工、暂停或已完工）',
    },
    {
      name: 'flowCardId',
      label: '流转卡',
      kind: 'ref',
      ref: 'flow-card',
      required: true,
      filter: 'eq',
      refActiveOnly: false,
      help: '扫描流转卡二维码或输入卡号；须是同一生产订单的在制卡',
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
    { name: 'taskId', label: '车间任务', kind: 'ref', ref: 'workshop-task', readonly: true, list: false },
    { name: 'productId', label: '产品', kind: 'ref', ref: 'material-info', readonly: true, filter: 'eq' },
    { name: 'seq', label: '工序号', kind: 'int', readonly: true },
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
    { name: 'orderStepId', label: '订单工序', kind: 'int', readonly: true, hidden: true, list: false },
    {
      name: 'operatorId',
      label: '操作工',
      kind: 'ref',
      ref: 'user',
      filter: 'eq',
      help: '不填为派工单的操作工',
    },
    {
      name: 'equipmentId',
      label: '设备',
      kind: 'ref',
      ref: 'equipment',
      filter: 'eq',
      help: '不填为派工单的设备',
    },
    {
      name: 'reportDate',
      label: '报工日期',
      kind: 'date',
      required: true,
      default: 'today',
      filter: 'range',
      sortable: true,
    },
    { name: 'shift', label: '班次', kind: 'enum', options: SHIFT_OPTIONS, default: 'day' },
    {
      name: 'goodQuantity',
      label: '合格数',
      kind: 'quantity',
      required: true,
      min: 0,
      unitFrom: { material: 'productId' },
    },
    {
      name: 'workScrapQuantity',
      label: '工废',
      kind: 'quantity',
      default: 0,
      min: 0,
      help: '操作原因造成的废品',
      unitFrom: { material: 'productId' },
    },
    {
      name: 'materialScrapQuantity',
      label: '料废',
      kind: 'quantity',
      default: 0,
      min: 0,
      help: '来料原因造成的废品',
      unitFrom: { material: 'productId' },
    },
    {
      name: 'scrapReason',
      label: '废品原因',
      kind: 'enum',
      options: SCRAP_REASON_OPTIONS,
      filter: 'eq',
      help: '有废品时必填',
    },
    {
      name: 'reworkQuantity',
      label: '返工数',
      kind: 'quantity',
      default: 0,
      min: 0,
      help: '留在本工序返工的件数，返工后再报合格或废品',
      unitFrom: { material: 'productId' },
    },
    { name: 'hours', label: '工时(小时)', kind: 'decimal', scale: 2, min: 0, max: 24 },
    { name: 'inspectionRequired', label: '报工检验', kind: 'boolean', readonly: true, list: false },
    {
      name: 'pieceRate',
      label: '计件单价',
      kind: 'price',
      readonly: true,
      list: false,
      help: '入账时取工序的计件单价',
      visibleTo: WAGE_VISIBLE,
    },
    {
      name: 'wageAmount',
      label: '计件工资',
      kind: 'money',
      readonly: true,
      list: false,
      visibleTo: WAGE_VISIBLE,
    },
    { name: 'postedAt', label: '入账时间', kind: 'datetime', readonly: true, list: false },
    {
      name: 'stockInboundId',
      label: '完工入库单',
      kind: 'ref',
      ref: 'stock-inbound',
      readonly: true,
      list: false,
      refActiveOnly: false,
      help: '末道工序入账时生成并过账的生产入库单',
    },
    { name: 'statusReason', label: '反审核原因', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
