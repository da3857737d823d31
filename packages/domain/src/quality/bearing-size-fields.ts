import type { EnumOption, FieldDef } from '../resource/types.ts';

/*
 * The bearing's size fields and the enums they offer, apart from the step arithmetic
 * (step-sizes.ts, decimal.js) and the tolerance tables (ring-standard-tables.ts): the 物料
 * declaration carries these fields, and 物料列表 should not load the tables to show them.
 */

/** 零件类型: a finished bearing or one of its rings. Items belong to the part they measure. */
export type PartType = 'bearing' | 'inner' | 'outer';
export const PART_TYPES: EnumOption[] = [
  { value: 'bearing', label: '成套轴承' },
  { value: 'inner', label: '内圈' },
  { value: 'outer', label: '外圈' },
];

export type ToleranceClass = 'P0' | 'P6' | 'P5' | 'P4' | 'P2';

export const TOLERANCE_CLASSES: { value: ToleranceClass; label: string; iso: string }[] = [
  { value: 'P0', label: '普通级 P0', iso: 'Normal' },
  { value: 'P6', label: 'P6 级', iso: 'Class 6' },
  { value: 'P5', label: 'P5 级', iso: 'Class 5' },
  { value: 'P4', label: 'P4 级', iso: 'Class 4' },
  { value: 'P2', label: 'P2 级', iso: 'Class 2' },
];

/** Diameter series digits of ISO 15 (the second digit of 6204 is its diameter series 2). */
export const DIAMETER_SERIES = ['7', '8', '9', '0', '1', '2', '3', '4'] as const;
export type DiameterSeries = (typeof DIAMETER_SERIES)[number];

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
