import { remarkField } from '../master-data/fields.ts';
import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { MAX_SUBGROUP_SIZE } from './spc.ts';

/**
 * 测量记录: one subgroup of 1–25 rings measured together on one characteristic, by product,
 * machine, operator and time, optionally on a flow card (so a bearing's genealogy reaches its
 * measured values). The server keeps each subgroup's size, mean, range and sum of squared
 * deviations beside it, so control charts and capability aggregate subgroups in SQL and never
 * read the raw values.
 */

/** Measured characteristics of a ring, and the statistics-report family each belongs to. */
export const MEASURE_CHARACTERISTICS: (EnumOption & { family: SpcFamily; unit: string })[] = [
  { value: 'outside-diameter', label: '外径', family: 'neiwaijing', unit: 'mm' },
  { value: 'bore-diameter', label: '内径', family: 'neiwaijing', unit: 'mm' },
  { value: 'raceway-diameter', label: '沟道直径', family: 'track', unit: 'mm' },
  { value: 'raceway-position', label: '沟道位置', family: 'track', unit: 'mm' },
  { value: 'contact-angle', label: '接触角', family: 'angle', unit: '°' },
  { value: 'rib-angle', label: '挡边角度', family: 'angle', unit: '°' },
  { value: 'ring-height', label: '套圈高度', family: 'height', unit: 'mm' },
];

/** The four 统计报表 pages, one per characteristic family, with their menu permission. */
export const SPC_FAMILIES = {
  track: {
    label: '沟道测量',
    route: '/statistics-report/track-measure',
    permission: 'report:trackMeasure:query',
  },
  angle: {
    label: '角度测量',
    route: '/statistics-report/angle-measure',
    permission: 'report:angleMeasure:query',
  },
  height: {
    label: '高度测量',
    route: '/statistics-report/height-measure',
    permission: 'report:heightMeasure:query',
  },
  neiwaijing: {
    label: '内外径测量',
    route: '/statistics-report/neiwaijing-measure',
    permission: 'report:innerOuterMeasure:query',
  },
} as const;

export type SpcFamily = keyof typeof SPC_FAMILIES;

/** Where a subgroup's specification limits come from. */
export const SPEC_SOURCES: EnumOption[] = [
  { value: 'standard', label: '轴承套圈标准' },
  { value: 'override', label: '手填覆盖' },
  { value: 'typed', label: '手填' },
];

/**
 * The measured characteristics the ring standard limits: the mean diameter deviation of the
 * ring (Δdmp of the bore, ΔDmp of the outside diameter) around the product's nominal size.
 */
export const STANDARD_CHARACTERISTIC: Record<string, { code: string; dimension: 'd' | 'D' }> = {
  'outside-diameter': { code: 'Dmp', dimension: 'D' },
  'bore-diameter': { code: 'dmp', dimension: 'd' },
};

export const characteristicLabel = (v: string) =>
  MEASURE_CHARACTERISTICS.find((c) => c.value === v)?.label ?? v;

/** Subgroups from this many on are evaluated for out-of-control points at entry and import. */
export const SPC_MIN_SUBGROUPS_FOR_ALARM = 20;
/** Alarms at entry compare the new subgroups with limits from this many latest subgroups of the series. */
export const SPC_ALARM_WINDOW = 100;

export const measurementSubgroupResource: ResourceDef = {
  name: 'measurement-subgroup',
  label: '测量记录',
  table: 'measurement_subgroup',
  permission: 'measure:outsideDiameter',
  route: '/measure-check/outside-diameter',
  labelField: 'measuredAt',
  importable: false,
  defaultSort: { field: 'measuredAt', order: 'desc' },
  fields: [
    {
      name: 'productId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      filter: 'eq',
      help: '被测的套圈或轴承',
    },
    {
      name: 'characteristic',
      label: '测量特性',
      kind: 'enum',
      options: MEASURE_CHARACTERISTICS.map(({ value, label }) => ({ value, label })),
      required: true,
      default: 'outside-diameter',
      filter: 'eq',
      sortable: true,
    },
    { name: 'equipmentId', label: '机台', kind: 'ref', ref: 'equipment', required: true, filter: 'eq' },
    { name: 'operatorId', label: '操作工', kind: 'ref', ref: 'user', required: true, filter: 'eq' },
    {
      name: 'measuredAt',
      label: '测量时间',
      kind: 'datetime',
      required: true,
      notFuture: true,
      filter: 'range',
      sortable: true,
      help: '控制图按测量时间排列子组；不能晚于当前时间',
    },
    {
      name: 'flowCardId',
      label: '流转卡',
      kind: 'ref',
      ref: 'flow-card',
      filter: 'eq',
      help: '被测套圈所在批次的流转卡；流转卡详情的「测量记录」由此列出',
    },
    { name: 'lsl', label: '下规格限', kind: 'decimal', scale: 4, help: '规格下限（LSL），用于 Cp/Cpk' },
    { name: 'usl', label: '上规格限', kind: 'decimal', scale: 4, help: '规格上限（USL），用于 Cp/Cpk' },
    {
      name: 'specSource',
      label: '规格限来源',
      kind: 'enum',
      options: SPEC_SOURCES,
      readonly: true,
      list: false,
      help: '外径、内径按产品的公差等级和尺寸从轴承套圈标准（ISO 492 / GB/T 307.1）取得；手填不同的规格限为覆盖，须写理由',
    },
    {
      name: 'specReason',
      label: '规格限覆盖理由',
      kind: 'text',
      max: 200,
      list: false,
      help: '手填的规格限与标准推导值不同时必填',
    },
    {
      name: 'sampleSize',
      label: '子组容量',
      kind: 'int',
      readonly: true,
      min: 1,
      max: MAX_SUBGROUP_SIZE,
      help: '本子组的测量值个数（1 为单值，按 I-MR 图分析）',
    },
    { name: 'mean', label: '均值', kind: 'decimal', scale: 6, readonly: true, sortable: true },
    { name: 'range', label: '极差', kind: 'decimal', scale: 6, readonly: true, min: 0 },
    {
      name: 'ssDev',
      label: '离差平方和',
      kind: 'decimal',
      scale: 10,
      readonly: true,
      min: 0,
      list: false,
      help: 'Σ(x − 子组均值)²，用于合并计算总体标准差（Pp/Ppk）',
    },
    {
      name: 'outOfControl',
      label: '失控',
      kind: 'boolean',
      readonly: true,
      default: false,
      filter: 'eq',
      help: '录入或导入时按西电规则判定为失控点（已通知车间主任和质检）',
    },
    remarkField(),
  ],
  lines: [
    {
      name: 'values',
      label: '测量值',
      table: 'measurement_value',
      parentColumn: 'measurement_subgroup_id',
      min: 1,
      max: MAX_SUBGROUP_SIZE,
      fields: [{ name: 'value', label: '测量值', kind: 'decimal', scale: 6, required: true }],
    },
  ],
};
