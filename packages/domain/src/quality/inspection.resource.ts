import { codeField, nameField, remarkField, statusField } from '../master-data/fields.ts';
import { WORKSHOP_TYPE_OPTIONS } from '../master-data/workshop.resource.ts';
import type { LifecycleDef } from '../resource/lifecycle.ts';
import type { EnumOption, FieldDef, ResourceDef } from '../resource/types.ts';
import { INSPECTION_CATEGORIES } from './inspection-categories.ts';
import { RING_CHARACTERISTICS } from './ring-standard.ts';
import { AQL_VALUES, INSPECTION_LEVELS, SEVERITIES } from './sampling.ts';
import { PART_FEATURE_OPTIONS, SIZE_STAGES } from './step-sizes.ts';

const QT = '/quality-testing';

/**
 * 质量检测: 检验项目 (what is checked and how many pieces), 检验模板 (the items of a product ×
 * process step × inspection kind: the step's item set, each line with the size its drawing gives
 * for that step — turned with grinding allowance, ground, finished; see step-sizes.ts) and 检验单 (one inspection task: its items frozen from the
 * template, the values per sample, the automatic judgement and the result that releases or
 * holds the batch). One task resource serves every workshop's 来料/报工检验 and 过程/出货检验: its
 * `category` says which, and each category's page grants its own permissions.
 */

export const ITEM_KINDS: EnumOption[] = [
  { value: 'measure', label: '计量', color: 'blue' },
  { value: 'count', label: '计数', color: 'purple' },
];

export const SAMPLING_MODES: EnumOption[] = [
  { value: 'fixed', label: '固定样本量' },
  { value: 'aql', label: 'GB/T 2828.1 抽样' },
];

export const INSPECTION_KINDS: EnumOption[] = [
  { value: 'incoming', label: '来料检验', color: 'blue' },
  { value: 'reporting', label: '报工检验', color: 'cyan' },
  { value: 'process', label: '过程检验', color: 'purple' },
  { value: 'shipment', label: '出货检验', color: 'orange' },
];

/** 报工检验的类别: 首检 (first article), 巡检 (patrol), 末检 (last pieces). */
export const REPORT_CHECK_KINDS: EnumOption[] = [
  { value: 'first', label: '首检', color: 'magenta' },
  { value: 'patrol', label: '巡检', color: 'geekblue' },
  { value: 'final', label: '末检', color: 'volcano' },
];

export const INSPECTION_RESULT_OPTIONS: EnumOption[] = [
  { value: 'pass', label: '合格', color: 'green' },
  { value: 'fail', label: '不合格', color: 'red' },
  { value: 'concession', label: '让步接收', color: 'gold' },
];

export const DISPOSITIONS: EnumOption[] = [
  { value: 'rework', label: '返工' },
  { value: 'scrap', label: '报废' },
  { value: 'return', label: '退货' },
];

export const INSPECTION_SOURCES: EnumOption[] = [
  { value: 'manual', label: '手工' },
  { value: 'work-report', label: '报工' },
  { value: 'stock-inbound', label: '采购入库' },
  { value: 'flow-card', label: '车间来料（流转卡）' },
  { value: 'stock-outbound', label: '销售出库' },
  { value: 'schedule', label: '巡检计划' },
  { value: 'spc', label: 'SPC 失控' },
];

/** Where a planned 计量 item's limits came from. */
export const LIMIT_SOURCES: EnumOption[] = [
  { value: 'standard', label: '标准', color: 'blue' },
  { value: 'override', label: '客户加严', color: 'gold' },
  { value: 'drawing', label: '工序图', color: 'cyan' },
  { value: 'typed', label: '手工', color: 'default' },
];

/** The ring characteristics of ISO 492 / GB/T 307.1 a 计量 item may measure (see ring-standard.ts). */
export const RING_CHARACTERISTIC_OPTIONS: EnumOption[] = RING_CHARACTERISTICS.map((c) => ({
  value: c.code,
  label: `${c.symbol} ${c.label}`,
}));

// ------------------------------------------------------------------ 检验项目

const limitHelp =
  '相对名义值的偏差，如 +0.000 / -0.010；计量项目必填（关联套圈特性或测量部位时可不填：限值取标准或检验模板行上的工序尺寸，手填值只作后备）';

export const inspectionItemResource: ResourceDef = {
  name: 'inspection-item',
  label: '检验项目',
  table: 'inspection_item',
  permission: 'quality:item',
  route: `${QT}/inspection-item`,
  options: { fields: ['kind', 'unit'] },
  fields: [
    codeField('项目编码', { max: 30 }),
    nameField('项目名称'),
    {
      name: 'kind',
      label: '类型',
      kind: 'enum',
      options: ITEM_KINDS,
      required: true,
      default: 'measure',
      filter: 'eq',
    },
    {
      name: 'ringCharacteristic',
      label: '套圈特性',
      kind: 'enum',
      options: RING_CHARACTERISTIC_OPTIONS,
      filter: 'eq',
      help:
        '仅计量项目：检验该产品的哪一项套圈公差（ISO 492 / GB/T 307.1）。选了特性，检验单的名义值和上下限按产品的公差等级和尺寸从标准推导，' +
        '客户有收严要求时按客户；产品没有可推导的标准值时才用下面手填的名义值和偏差。单位 mm 时限值为尺寸，μm 时为偏差',
    },
    {
      name: 'feature',
      label: '测量部位',
      kind: 'enum',
      options: PART_FEATURE_OPTIONS,
      filter: 'eq',
      help:
        '该项目测量零件的哪个部位。检验单只取属于受检零件的项目（外圈没有内径 d，内圈没有外径 D，沟道只在套圈上，游隙、振动只在成套轴承上）；' +
        '不填为各零件通用（外观、硬度、包装）。关联套圈特性时部位由特性决定，两者须一致。尺寸按工序在检验模板的行上填写（工序图）',
    },
    { name: 'nominal', label: '名义值', kind: 'decimal', scale: 4, help: '计量项目的名义尺寸，如 20.0000' },
    { name: 'upperTolerance', label: '上偏差', kind: 'decimal', scale: 4, help: limitHelp },
    { name: 'lowerTolerance', label: '下偏差', kind: 'decimal', scale: 4, help: limitHelp },
    { name: 'unit', label: '单位', kind: 'text', max: 20, help: '如 mm、μm、HRC' },
    { name: 'instrument', label: '量具', kind: 'text', max: 60, help: '如 内径千分表、D913 测量仪' },
    { name: 'method', label: '检验方法', kind: 'textarea', max: 500, list: false, wide: true },
    {
      name: 'samplingMode',
      label: '抽样方式',
      kind: 'enum',
      options: SAMPLING_MODES,
      required: true,
      default: 'fixed',
      filter: 'eq',
    },
    {
      name: 'sampleSize',
      label: '样本量',
      kind: 'int',
      min: 1,
      max: 200,
      help: '固定样本量时必填；按 GB/T 2828.1 时由批量查表得出',
    },
    {
      name: 'inspectionLevel',
      label: '检验水平',
      kind: 'enum',
      options: INSPECTION_LEVELS.map((v) => ({
        value: v,
        label: v.startsWith('S') ? `特殊 ${v}` : `一般 ${v}`,
      })),
      help: 'GB/T 2828.1 抽样时必填，一般检验水平 II 最常用',
    },
    {
      name: 'aql',
      label: '接收质量限 AQL',
      kind: 'enum',
      options: AQL_VALUES.map((v) => ({ value: v, label: v })),
      help: 'GB/T 2828.1 抽样时必填：接收质量限',
    },
    statusField(),
    remarkField(),
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};

// ------------------------------------------------------------------ 检验模板

export const inspectionTemplateResource: ResourceDef = {
  name: 'inspection-template',
  label: '检验模板',
  table: 'inspection_template',
  permission: 'quality:item',
  options: { fields: ['productId', 'processId', 'inspectionKind'] },
  fields: [
    codeField('模板编码', { max: 30 }),
    nameField('模板名称'),
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      filter: 'eq',
      help: '不填为通用模板（该工序或检验类型下所有产品适用）',
    },
    {
      name: 'processId',
      label: '工序',
      kind: 'ref',
      ref: 'process-manage',
      filter: 'eq',
      help: '报工检验按工序选模板',
    },
    {
      name: 'inspectionKind',
      label: '检验类型',
      kind: 'enum',
      options: INSPECTION_KINDS,
      required: true,
      filter: 'eq',
    },
    {
      name: 'sizeStage',
      label: '尺寸阶段',
      kind: 'enum',
      options: SIZE_STAGES,
      filter: 'eq',
      help:
        '本工序检哪一阶段的尺寸：车削尺寸（成品尺寸加磨削留量，成品公差不适用，每个尺寸项目须在行上填写本工序尺寸、偏差和留量）、' +
        '磨削尺寸（沟道留超精量）、成品尺寸（行上不填时按 ISO 492 标准和客户收严）。不填按成品尺寸',
    },
    {
      name: 'technicalDocumentId',
      label: '依据图纸/工艺文件',
      kind: 'ref',
      ref: 'technical-document',
      refActiveOnly: false,
      filter: 'eq',
      list: false,
      help: '行上的工序尺寸出自的技术文档（零件图、工艺卡），须属于本模板的产品或工序；检验单和结果录入显示它的现行版本',
    },
    statusField(),
    remarkField(),
  ],
  lines: [
    {
      name: 'items',
      label: '检验项目',
      table: 'inspection_template_line',
      parentColumn: 'inspection_template_id',
      min: 1,
      max: 50,
      fields: [
        { name: 'itemId', label: '检验项目', kind: 'ref', ref: 'inspection-item', required: true },
        {
          name: 'nominal',
          label: '本工序名义值',
          kind: 'decimal',
          scale: 4,
          help: '工序图上本工序的名义尺寸（单位同检验项目）。尺寸项目填了留量、产品有成品尺寸时可不填，按成品尺寸 ± 留量算出；粗糙度、圆度等最大值填 0',
        },
        {
          name: 'upperTolerance',
          label: '上偏差/最大值',
          kind: 'decimal',
          scale: 4,
          help: '相对本工序名义值的上偏差；粗糙度、圆度等填最大值。不填则按检验项目（套圈特性按标准）取限值',
        },
        {
          name: 'lowerTolerance',
          label: '下偏差',
          kind: 'decimal',
          scale: 4,
          help: '相对本工序名义值的下偏差；最大值类项目不填（无下限）',
        },
        {
          name: 'allowance',
          label: '留量(mm)',
          kind: 'decimal',
          scale: 4,
          min: 0,
          max: 10,
          help: '本工序之后还要去除的余量：车削留给磨削（套圈直径常见 0.3–0.5 mm、宽度 0.2–0.3 mm），磨沟道留给超精（几 μm）。外表面和宽度 = 成品 + 留量，内孔 = 成品 − 留量',
        },
        {
          name: 'remark',
          label: '说明',
          kind: 'text',
          max: 200,
          help: '本模板下的检验要求，如“磨后 2 小时内检”',
        },
      ],
    },
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
};

// ------------------------------------------------------------------ 检验单

/**
 * 待检验 → 检验中 (results being entered) → 合格 / 不合格 / 让步接收. 不合格 carries the disposition
 * of the rejects; 返工复检 sends a reworked batch back to 待检验 (its held card stays held until
 * the re-inspection passes). 让步接收 needs its own permission and a reason.
 */
export const INSPECTION_TASK_LIFECYCLE: LifecycleDef = {
  states: [
    { value: 'pending', label: '待检验', color: 'orange' },
    { value: 'inspecting', label: '检验中', color: 'blue' },
    { value: 'passed', label: '合格', color: 'green' },
    { value: 'failed', label: '不合格', color: 'red' },
    { value: 'conceded', label: '让步接收', color: 'gold' },
    // Closed without a verdict: its work report was posted by 越过检验入账 (work-report.ts).
    { value: 'overridden', label: '已越过', color: 'default' },
  ],
  initial: 'pending',
  editable: ['pending'],
  transitions: [
    {
      name: 'start',
      label: '开始检验',
      from: ['pending'],
      to: 'inspecting',
      tone: 'primary',
      action: 'inspect',
    },
    {
      name: 'pass',
      label: '判定合格',
      from: ['inspecting'],
      to: 'passed',
      tone: 'primary',
      action: 'inspect',
      confirm: '按录入结果判定合格：放行批次（报工入账、库存转合格、流转卡解除暂扣）。确定？',
    },
    {
      name: 'reject',
      label: '判定不合格',
      from: ['inspecting'],
      to: 'failed',
      tone: 'danger',
      action: 'inspect',
      input: [
        { name: 'disposition', label: '不合格处置', kind: 'enum', options: DISPOSITIONS, required: true },
        { name: 'defectQuantity', label: '不合格数', kind: 'quantity', min: 0 },
      ],
      confirm: '判定不合格：流转卡暂扣、库存转不合格。确定？',
    },
    {
      name: 'concede',
      label: '让步接收',
      from: ['inspecting', 'failed'],
      to: 'conceded',
      reason: true,
      confirm: '让步接收按合格放行批次，须写明理由。确定？',
    },
    {
      name: 'reinspect',
      label: '返工复检',
      from: ['failed'],
      to: 'pending',
      action: 'inspect',
      confirm: '返工完成，清空本次结果重新检验？流转卡在复检合格前仍暂扣。',
    },
  ],
};

const taskPrefixes = Object.fromEntries(INSPECTION_CATEGORIES.map((c) => [c.value, c.permission]));

const resultFields: FieldDef[] = [
  { name: 'itemId', label: '检验项目', kind: 'ref', ref: 'inspection-item', refActiveOnly: false },
  { name: 'itemTitle', label: '项目名称', kind: 'text', max: 60, help: '建单时检验项目的名称' },
  { name: 'kind', label: '类型', kind: 'enum', options: ITEM_KINDS },
  { name: 'ringCharacteristic', label: '套圈特性', kind: 'enum', options: RING_CHARACTERISTIC_OPTIONS },
  {
    name: 'nominal',
    label: '名义值',
    kind: 'decimal',
    scale: 4,
    help: '限值所依据的名义尺寸（工序图或产品尺寸）',
  },
  { name: 'lowerLimit', label: '下限', kind: 'decimal', scale: 4 },
  { name: 'upperLimit', label: '上限', kind: 'decimal', scale: 4 },
  {
    name: 'limitSource',
    label: '限值来源',
    kind: 'enum',
    options: LIMIT_SOURCES,
    help: '标准：按产品公差等级和尺寸从 ISO 492 / GB/T 307.1 推导；客户加严：客户收严要求；工序图：检验模板行上本工序的尺寸（车削含磨量、磨削、成品）；手工：检验项目上填写的值',
  },
  {
    name: 'limitNote',
    label: '限值依据',
    kind: 'text',
    max: 200,
    help: '标准表号与尺寸段、客户收严原因，或为何用手工值',
  },
  { name: 'unit', label: '单位', kind: 'text', max: 20 },
  { name: 'instrument', label: '量具', kind: 'text', max: 60 },
  { name: 'sampleSize', label: '样本量', kind: 'int' },
  { name: 'acceptNumber', label: '接收数 Ac', kind: 'int' },
  { name: 'rejectNumber', label: '拒收数 Re', kind: 'int' },
  { name: 'codeLetter', label: '字码', kind: 'text', max: 2 },
  { name: 'defectCount', label: '不合格数', kind: 'int' },
  {
    name: 'tighterAcceptNumber',
    label: '严一档接收数',
    kind: 'int',
    hidden: true,
    help: '转移得分用：正常检验 Ac ≥ 2 时，同一样本量下严一档 AQL 的接收数',
  },
  {
    name: 'originalDefectCount',
    label: '初次不合格数',
    kind: 'int',
    hidden: true,
    help: '初次判定时的不合格数（返工复检不改变），转移规则按它计分',
  },
  { name: 'result', label: '判定', kind: 'enum', options: INSPECTION_RESULT_OPTIONS },
];

export const inspectionTaskResource: ResourceDef = {
  name: 'inspection-task',
  label: '检验单',
  table: 'inspection_task',
  permission: 'quality:inspection',
  route: `${QT}/shipment-inspection`,
  labelField: 'docNo',
  codeField: 'docNo',
  numbering: { prefix: 'JY' },
  lifecycle: INSPECTION_TASK_LIFECYCLE,
  importable: false,
  scopedPermissions: { field: 'category', prefixes: taskPrefixes },
  options: { fields: ['category', 'status', 'productId'], remote: true },
  fields: [
    {
      name: 'docNo',
      label: '检验单号',
      kind: 'text',
      max: 30,
      readonly: true,
      unique: true,
      filter: 'like',
      sortable: true,
      help: '保存时生成，如 JY20261125-0001',
    },
    {
      name: 'status',
      label: '状态',
      kind: 'enum',
      options: INSPECTION_TASK_LIFECYCLE.states,
      readonly: true,
      filter: 'eq',
      sortable: true,
    },
    {
      name: 'category',
      label: '检验类别',
      kind: 'enum',
      options: INSPECTION_CATEGORIES.map((c) => ({ value: c.value, label: c.label })),
      required: true,
      filter: 'eq',
      list: false,
    },
    {
      name: 'inspectionKind',
      label: '检验类型',
      kind: 'enum',
      options: INSPECTION_KINDS,
      readonly: true,
      list: false,
    },
    {
      name: 'workshopType',
      label: '车间类型',
      kind: 'enum',
      options: WORKSHOP_TYPE_OPTIONS,
      readonly: true,
      list: false,
    },
    { name: 'checkKind', label: '首/巡/末检', kind: 'enum', options: REPORT_CHECK_KINDS, filter: 'eq' },
    {
      name: 'productId',
      label: '产品/物料',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      filter: 'eq',
    },
    { name: 'processId', label: '工序', kind: 'ref', ref: 'process-manage', filter: 'eq' },
    {
      name: 'customerId',
      label: '客户',
      kind: 'ref',
      ref: 'customer',
      filter: 'eq',
      list: false,
      help: '按此客户的收严要求取套圈特性的限值；不填时从来源带出（销售出库的客户、流转卡所属生产订单的客户）',
    },
    {
      name: 'templateId',
      label: '检验模板',
      kind: 'ref',
      ref: 'inspection-template',
      list: false,
      help: '不填按产品、工序和检验类型自动匹配',
    },
    { name: 'lotQuantity', label: '批量', kind: 'quantity', required: true, min: 1 },
    { name: 'sampleSize', label: '样本量', kind: 'int', readonly: true },
    {
      name: 'samplingSeverity',
      label: '严格度',
      kind: 'enum',
      options: SEVERITIES.map(({ value, label, color }) => ({ value, label, color })),
      readonly: true,
      help:
        'GB/T 2828.1 检验严格度（正常 表 2-A、加严 表 2-B、放宽 表 2-C）：采购入库的来料检验按该供方该物料的批历史和转移规则确定，' +
        '其他检验按正常；只有按 AQL 抽样的项目才有',
    },
    {
      name: 'originalResult',
      label: '初次检验结论',
      kind: 'enum',
      options: INSPECTION_RESULT_OPTIONS,
      readonly: true,
      hidden: true,
      list: false,
      help: '第一次判定的结论（返工复检后的结论不算），转移规则按它计批',
    },
    {
      name: 'originalAt',
      label: '初次判定时间',
      kind: 'datetime',
      readonly: true,
      hidden: true,
      list: false,
    },
    { name: 'batchNo', label: '批次/炉号', kind: 'text', max: 60, filter: 'like', list: false },
    {
      name: 'sourceType',
      label: '来源',
      kind: 'enum',
      options: INSPECTION_SOURCES,
      readonly: true,
      filter: 'eq',
    },
    { name: 'sourceNo', label: '来源单号', kind: 'text', max: 30, readonly: true, filter: 'like' },
    {
      name: 'flowCardId',
      label: '流转卡',
      kind: 'ref',
      ref: 'flow-card',
      refActiveOnly: false,
      filter: 'eq',
      help: '车间来料、过程检验填写受检的流转卡；不合格时暂扣该卡',
    },
    {
      name: 'workReportId',
      label: '报工单',
      kind: 'ref',
      ref: 'work-report',
      readonly: true,
      list: false,
      refActiveOnly: false,
    },
    {
      name: 'dispatchId',
      label: '派工单',
      kind: 'ref',
      ref: 'work-dispatch',
      readonly: true,
      list: false,
      refActiveOnly: false,
    },
    {
      name: 'stockInboundId',
      label: '入库单',
      kind: 'ref',
      ref: 'stock-inbound',
      readonly: true,
      list: false,
      refActiveOnly: false,
    },
    { name: 'stockInboundLineId', label: '入库单行', kind: 'int', readonly: true, hidden: true, list: false },
    {
      name: 'flowCardStepId',
      label: '到达工序',
      kind: 'int',
      readonly: true,
      hidden: true,
      list: false,
      help: '车间来料：流转卡到达的工序（每张卡每道工序只生成一张来料检验单）',
    },
    {
      name: 'stockOutboundId',
      label: '销售出库单',
      kind: 'ref',
      ref: 'stock-outbound',
      readonly: true,
      list: false,
      refActiveOnly: false,
      help: '出货检验：受检的销售出库单，由出库单上的「生成出货检验」带出',
    },
    {
      name: 'patrolScheduleId',
      label: '巡检计划',
      kind: 'ref',
      ref: 'patrol-schedule',
      readonly: true,
      list: false,
      refActiveOnly: false,
    },
    {
      name: 'patrolSlot',
      label: '巡检时段',
      kind: 'datetime',
      readonly: true,
      list: false,
      help: '按巡检计划生成时的时段开始；同一计划、流转卡和时段只生成一次',
    },
    { name: 'planDate', label: '计划日期', kind: 'date', default: 'today', filter: 'range', sortable: true },
    {
      name: 'result',
      label: '检验结论',
      kind: 'enum',
      options: INSPECTION_RESULT_OPTIONS,
      readonly: true,
      filter: 'eq',
    },
    {
      name: 'disposition',
      label: '不合格处置',
      kind: 'enum',
      options: DISPOSITIONS,
      readonly: true,
      list: false,
    },
    { name: 'defectQuantity', label: '不合格数', kind: 'quantity', readonly: true, list: false },
    {
      name: 'assigneeId',
      label: '指派检验员',
      kind: 'ref',
      ref: 'user',
      readonly: true,
      filter: 'eq',
      help: '认领或由质检主管指派；质检员登录后首先看到指派给自己和未指派的待检任务',
    },
    { name: 'inspectorId', label: '检验员', kind: 'ref', ref: 'user', readonly: true, filter: 'eq' },
    { name: 'inspectedAt', label: '检验时间', kind: 'datetime', readonly: true, sortable: true },
    { name: 'statusReason', label: '让步理由', kind: 'text', max: 500, readonly: true, list: false },
    { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true },
  ],
  lines: [
    {
      name: 'items',
      label: '检验项目',
      table: 'inspection_task_item',
      parentColumn: 'inspection_task_id',
      readonly: true,
      fields: resultFields,
    },
  ],
  defaultSort: { field: 'docNo', order: 'desc' },
};
