import type { ResourceDef } from '../resource/types.ts';
import { orderNumField, remarkField } from './fields.ts';

/**
 * System enums: small key/value lists grouped by type that pages read for their dropdowns
 * (e.g. 精度等级, 班次). No page of its own; administrators maintain it (system settings
 * permission). `enumKey` is unique within its `enumType` (index `sys_enum_enum_key_key`).
 */
export const sysenumResource: ResourceDef = {
  name: 'sysenum',
  label: '系统枚举',
  table: 'sys_enum',
  permission: 'system:setting',
  labelField: 'enumValue',
  fields: [
    {
      name: 'enumType',
      label: '枚举类型',
      kind: 'text',
      required: true,
      max: 60,
      filter: 'eq',
      sortable: true,
      pattern: {
        regex: '^[A-Za-z][A-Za-z0-9_]*$',
        message: '枚举类型只能包含字母、数字和下划线，且以字母开头',
      },
      help: '程序读取时使用的分组名，如 precisionClass、shift',
    },
    {
      name: 'enumKey',
      label: '枚举键',
      kind: 'text',
      required: true,
      max: 60,
      filter: 'like',
      help: '保存在业务数据中的值',
    },
    {
      name: 'enumValue',
      label: '枚举值',
      kind: 'text',
      required: true,
      max: 100,
      filter: 'like',
      help: '界面上显示的文字',
    },
    orderNumField(),
    remarkField(),
  ],
  defaultSort: { field: 'enumType', order: 'asc' },
};
