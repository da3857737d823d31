import type { ResourceDef } from '../resource/types.ts';
import { codeField, remarkField, VERSION_STATUS_OPTIONS } from './fields.ts';

/**
 * A product's bill of materials: component lines per one base unit of the product. Multi-level:
 * a component may itself be a made material with its own BOM. Exactly one active version per
 * product (partial unique index `bom_active_key`).
 */
export const productBomResource: ResourceDef = {
  name: 'product-bom',
  label: '产品BOM',
  table: 'bom',
  permission: 'factory:bom',
  route: '/factory-info/material-manage/product-bom',
  labelField: 'code',
  fields: [
    codeField('BOM编号', { max: 40 }),
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
      help: '每个产品只能有一个启用的版本；启用新版本前先停用旧版本。生产订单下达时使用启用版本',
    },
    remarkField(),
  ],
  lines: [
    {
      name: 'lines',
      label: 'BOM明细',
      table: 'bom_line',
      parentColumn: 'bom_id',
      min: 1,
      max: 200,
      fields: [
        // Where-used: the BOM list filters by a component.
        {
          name: 'materialId',
          label: '子件物料',
          kind: 'ref',
          ref: 'material-info',
          required: true,
          filter: 'eq',
        },
        {
          name: 'quantity',
          label: '单位用量',
          kind: 'quantity',
          required: true,
          min: 0.0001,
          help: '生产一个产品（基本单位）所需的子件数量，按下方单位计',
        },
        { name: 'unitId', label: '单位', kind: 'ref', ref: 'material-unit', required: true },
        {
          name: 'lossRate',
          label: '损耗率(%)',
          kind: 'decimal',
          scale: 2,
          min: 0,
          max: 100,
          default: 0,
          help: '计划用量 = 单位用量 × (1 + 损耗率/100)',
        },
        {
          name: 'processId',
          label: '消耗工序',
          kind: 'ref',
          ref: 'process-manage',
          help: '在哪道工序领用该子件；为空表示在首道工序领用',
        },
        { name: 'remark', label: '备注', kind: 'text', max: 200 },
      ],
    },
  ],
  activeField: { name: 'status', value: 'active' },
  defaultSort: { field: 'code', order: 'asc' },
};
