import type { ResourceDef } from '../resource/types.ts';
import { RING_CHARACTERISTICS } from './ring-standard.ts';

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

export { BEARING_SIZE_FIELDS } from './bearing-size-fields.ts';
