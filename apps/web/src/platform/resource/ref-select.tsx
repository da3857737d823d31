import { ReloadOutlined } from '@ant-design/icons';
import type { FieldDef } from '@ringmes/domain';
import { Select, TreeSelect } from 'antd';
import { type CSSProperties, type ReactElement, useEffect, useState } from 'react';
import { isTreeRef } from './fields.ts';
import { splitNames } from './format.tsx';
import { type RefOption, useOptionSearch, useOptions, useTreeOptions } from './use-options.ts';

export interface RefSelectProps {
  field: FieldDef;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  /** Several ids (refs fields, or an `eq` filter on a refs field when false). */
  multiple?: boolean;
  /** The stored label (`<base>Name`) so a since-disabled reference still shows its name. */
  fallbackLabel?: unknown;
  placeholder?: string;
  disabled?: boolean;
  style?: CSSProperties;
  id?: string;
  status?: 'error' | 'warning' | '';
  /** Tree resources: allow picking disabled nodes (search filters). */
  allowInactive?: boolean;
}

function footer(menu: ReactElement, count: number, refresh: () => void) {
  return (
    <>
      {menu}
      <div className="rk-select-footer">
        <span>共 {count} 项</span>
        <button
          type="button"
          className="rm-link-button"
          onMouseDown={(e) => e.preventDefault()}
          onClick={refresh}
        >
          <ReloadOutlined /> 刷新
        </button>
      </div>
    </>
  );
}

/** Adds options for selected ids the list lacks (disabled since), labelled from the record. */
function withFallback(options: RefOption[], value: RefSelectProps['value'], fallback: unknown): RefOption[] {
  if (value === null || value === undefined) return options;
  const ids = (Array.isArray(value) ? value : [value]).map(Number);
  const missing = ids.filter((id) => !options.some((o) => o.value === id));
  if (!missing.length) return options;
  const names = splitNames(fallback);
  const sorted = [...ids].sort((a, b) => a - b);
  const nameOf = (id: number) =>
    ids.length === 1 ? names[0] : names.length === ids.length ? names[sorted.indexOf(id)] : undefined;
  return [...options, ...missing.map((id) => ({ value: id, label: `${nameOf(id) ?? `#${id}`}（已停用）` }))];
}

/**
 * A searchable picker of records of `field.ref`, fed by the cached option list (tree resources:
 * a tree select). Search matches the name and the code.
 */
export function RefSelect({
  field,
  value,
  onChange,
  multiple = field.kind === 'refs',
  fallbackLabel,
  placeholder = `请选择${field.label}`,
  disabled,
  style,
  id,
  status,
  allowInactive,
}: RefSelectProps) {
  const tree = isTreeRef(field);
  const flat = useOptions(field.ref, !tree);
  const nested = useTreeOptions(field.ref, tree);
  // Very large resources (100,000 materials) are searched on the server as the user types.
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const remote = useOptionSearch(field.ref, keyword, flat.truncated);

  if (tree) {
    const strip = (nodes: typeof nested.tree): typeof nested.tree =>
      nodes.map((n) => ({ ...n, disabled: false, children: n.children && strip(n.children) }));
    return (
      <TreeSelect
        id={id}
        status={status}
        value={value ?? undefined}
        onChange={(v) => onChange?.((v as number | number[] | undefined) ?? null)}
        treeData={allowInactive ? strip(nested.tree) : nested.tree}
        multiple={multiple}
        allowClear
        treeDefaultExpandAll
        showSearch={{ treeNodeFilterProp: 'label' }}
        loading={nested.loading}
        placeholder={placeholder}
        disabled={disabled}
        style={{ width: '100%', ...style }}
        popupRender={(menu) => footer(menu, nested.tree.length, () => void nested.refresh())}
      />
    );
  }

  return (
    <Select<number | number[]>
      id={id}
      status={status}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={withFallback(
        flat.truncated && keyword ? (remote.options ?? []) : flat.options,
        value,
        fallbackLabel,
      )}
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={
        flat.truncated ? { filterOption: false, onSearch: setTyped } : { optionFilterProp: 'label' }
      }
      loading={flat.loading || remote.loading}
      placeholder={placeholder}
      disabled={disabled}
      maxTagCount="responsive"
      style={{ width: '100%', ...style }}
      popupRender={(menu) => footer(menu, flat.options.length, () => void flat.refresh())}
      notFoundContent={flat.loading ? '加载中…' : '无匹配数据'}
    />
  );
}
