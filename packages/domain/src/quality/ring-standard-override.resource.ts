import type { FieldDef, ResourceDef } from '../resource/types.ts';
import { RING_CHARACTERISTICS } from './ring-standard.ts';
import { DIAMETER_SERIES, TOLERANCE_CLASSES } from './ring-standard-tables.ts';
import { PART_TYPES } from './step-sizes.ts';

/**
 * 客户收严要求: a customer's tighter limits for one characteristic of one product. It holds only
 * what differs from the standard — the standard's values are derived, never copied here — and
 * the server refuses limits looser than the standard's (see `overrideLooseness`).
 */
export const ringStandardOverrideResource: ResourceDef = {
  name: 'ring-standard-override',
  label: '客户收严要求',
  table: 'ring_standard_override',
  permission: 'quality:ringStandard',
  labelField: 'reason',
  importable: false,
  fields: [
    {
      name: 'materialId',
      label: '产品',
      kind: 'ref',
      ref: 'material-info',
      required: true,
      filter: 'eq',
      help: '须已填写公差等级和内径 d、外径 D、宽度 B',
    },
    { name: 'customerId', label: '客户', kind: 'ref', ref: 'customer', required: true, filter: 'eq' },
    {
      name: 'characteristic',
      label: '特性',
      kind: 'enum',
      required: true,
      filter: 'eq',
      options: RING_CHARACTERISTICS.map((c) => ({
        value: c.code,
        label: `${c.ringType === 'inner' ? '内圈' : '外圈'} ${c.symbol} ${c.label}`,
      })),
    },
    {
      name: 'upperLimit',
      label: '上偏差/最大值(μm)',
      kind: 'decimal',
      scale: 1,
      min: -10000,
      max: 10000,
      help: '偏差类特性填上偏差；变动量和跳动填最大值。不得比标准宽松',
    },
    {
      name: 'lowerLimit',
      label: '下偏差(μm)',
      kind: 'decimal',
      scale: 1,
      min: -10000,
      max: 10000,
      help: '只有偏差类特性（Δdmp、ΔDmp、ΔBs、ΔCs）填写；不得比标准宽松',
    },
    { name: 'reason', label: '收严原因', kind: 'textarea', max: 500, required: true, wide: true },
  ],
};

/** The bearing fields a product (material-info) carries for the ring standard. */
export const BEARING_SIZE_FIELDS: FieldDef[] = [
  {
    name: 'partType',
    label: '零件类型',
    kind: 'enum',
    options: PART_TYPES,
    filter: 'eq',
    list: false,
    help: '成套轴承、内圈或外圈。检验只取属于该零件的项目：内圈检内径 d 和沟道，外圈检外径 D 和沟道，成套轴承检 d、D、B、游隙、振动等；套圈的 d、D、B 仍填所属轴承的尺寸',
  },
  {
    name: 'toleranceClass',
    label: '公差等级',
    kind: 'enum',
    options: TOLERANCE_CLASSES.map((c) => ({ value: c.value, label: c.label })),
    filter: 'eq',
    list: false,
    help: 'GB/T 307.1 / ISO 492 公差等级；轴承套圈标准据此和下列尺寸推导检验界限',
  },
  {
    name: 'boreDiameter',
    label: '内径 d(mm)',
    kind: 'decimal',
    scale: 3,
    min: 0.6,
    max: 2000,
    list: false,
  },
  {
    name: 'outsideDiameter',
    label: '外径 D(mm)',
    kind: 'decimal',
    scale: 3,
    min: 1,
    max: 2500,
    list: false,
  },
  { name: 'bearingWidth', label: '宽度 B(mm)', kind: 'decimal', scale: 3, min: 0.1, max: 1000, list: false },
  {
    name: 'diameterSeries',
    label: '直径系列',
    kind: 'enum',
    options: DIAMETER_SERIES.map((s) => ({ value: s, label: s })),
    list: false,
    help: '如 6204 的直径系列为 2、6004 为 0、61804 为 8；Vdsp/VDsp 按直径系列取值',
  },
  {
    name: 'capped',
    label: '带密封/防尘盖',
    kind: 'boolean',
    default: false,
    list: false,
    help: '如 -2RS、-2Z；外圈 VDsp 按带密封轴承取值',
  },
];
