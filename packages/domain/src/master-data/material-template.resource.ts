import type { EnumOption, ResourceDef } from '../resource/types.ts';
import { codeField, nameField, remarkField, statusField } from './fields.ts';

export const TEMPLATE_ATTRIBUTE_TYPE_OPTIONS: EnumOption[] = [
  { value: 'text', label: '文本' },
  { value: 'number', label: '数值' },
  { value: 'enum', label: '枚举' },
];

/**
 * A named set of attribute definitions (轴承套圈: 内径 d, 外径 D, 宽度 B, 精度等级). A material
 * created from a template stores the values in its `attributes`, keyed by attribute name.
 */
export const materialTemplateResource: ResourceDef = {
  name: 'material-template',
  label: '物料模板',
  table: 'material_template',
  permission: 'factory:template',
  route: '/factory-info/material-manage/material-template-manage',
  fields: [codeField('模板编码', { max: 30 }), nameField('模板名称'), statusField(), remarkField()],
  lines: [
    {
      name: 'attributes',
      label: '模板属性',
      table: 'material_template_attribute',
      parentColumn: 'material_template_id',
      min: 1,
      max: 50,
      fields: [
        {
          name: 'name',
          label: '属性名称',
          kind: 'text',
          required: true,
          max: 40,
          help: '如 内径 d、外径 D；也是物料属性值的键名',
        },
        {
          name: 'dataType',
          label: '数据类型',
          kind: 'enum',
          options: TEMPLATE_ATTRIBUTE_TYPE_OPTIONS,
          default: 'text',
        },
        { name: 'unit', label: '单位', kind: 'text', max: 20, help: '数值属性的单位，如 mm' },
        { name: 'required', label: '必填', kind: 'boolean', default: false },
        {
          name: 'options',
          label: '可选值',
          kind: 'text',
          max: 500,
          help: '枚举类型的可选值，用英文逗号分隔，如 P0,P6,P5,P4',
        },
      ],
    },
  ],
  activeField: { name: 'status', value: '1' },
  defaultSort: { field: 'code', order: 'asc' },
  api: {
    page: 'pageList',
    edit: { method: 'POST', path: 'edit' },
    delete: { method: 'POST', path: 'delete' },
  },
};
