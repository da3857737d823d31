import type { EnumOption, FieldDef, ResourceDef } from '../resource/types.ts';

/**
 * Field shapes shared by the master-data resources. Each call returns a fresh object, so a
 * resource can adjust its copy (label, max length, help) without touching the others.
 */

/** Enabled/disabled switch of master data: disabled records stay but vanish from option lists. */
export const STATUS_OPTIONS: EnumOption[] = [
  { value: '1', label: '启用', color: 'green' },
  { value: '0', label: '停用', color: 'default' },
];

/** Versioned definitions (BOM, process route): only the active version is used by production. */
export const VERSION_STATUS_OPTIONS: EnumOption[] = [
  { value: 'draft', label: '草稿', color: 'default' },
  { value: 'active', label: '启用', color: 'green' },
  { value: 'inactive', label: '停用', color: 'red' },
];

/** Loose check for 固话/手机 numbers: digits, +, -, parentheses and spaces. */
export const PHONE_PATTERN = { regex: '^[0-9+()\\- ]{5,30}$', message: '请输入有效的电话号码' };
export const EMAIL_PATTERN = { regex: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$', message: '请输入有效的邮箱地址' };

export function codeField(label: string, extra: Partial<FieldDef> = {}): FieldDef {
  return {
    name: 'code',
    label,
    kind: 'text',
    required: true,
    unique: true,
    max: 40,
    pattern: { regex: '^[A-Za-z0-9][A-Za-z0-9._\\-/]*$', message: `${label}只能包含字母、数字和 . _ - /` },
    filter: 'like',
    sortable: true,
    ...extra,
  };
}

export function nameField(label: string, extra: Partial<FieldDef> = {}): FieldDef {
  return {
    name: 'name',
    label,
    kind: 'text',
    required: true,
    max: 60,
    filter: 'like',
    sortable: true,
    ...extra,
  };
}

export function statusField(extra: Partial<FieldDef> = {}): FieldDef {
  return {
    name: 'status',
    label: '状态',
    kind: 'enum',
    options: STATUS_OPTIONS,
    default: '1',
    filter: 'eq',
    help: '停用后不再出现在下拉选项中，已引用它的单据不受影响',
    ...extra,
  };
}

export function orderNumField(): FieldDef {
  return {
    name: 'orderNum',
    label: '排序',
    kind: 'int',
    default: 0,
    min: 0,
    max: 9999,
    sortable: true,
    help: '数字越小越靠前',
  };
}

export function remarkField(): FieldDef {
  return { name: 'remark', label: '备注', kind: 'textarea', max: 500, list: false, wide: true };
}

/**
 * A small dictionary (分类、等级、标签、制造方式…): code, name, order, status, remark, listed by
 * order. Only the identity differs between them.
 */
export function dictionaryResource(
  def: Pick<ResourceDef, 'name' | 'label' | 'table' | 'permission' | 'route'> & { nameHelp?: string },
): ResourceDef {
  const { nameHelp, ...identity } = def;
  return {
    ...identity,
    fields: [
      codeField(`${def.label}编码`, { max: 30 }),
      nameField(`${def.label}名称`, nameHelp ? { max: 40, help: nameHelp } : { max: 40 }),
      orderNumField(),
      statusField(),
      remarkField(),
    ],
    activeField: { name: 'status', value: '1' },
    defaultSort: { field: 'orderNum', order: 'asc' },
  };
}
