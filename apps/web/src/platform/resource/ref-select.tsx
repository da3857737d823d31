import { ReloadOutlined } from '@ant-design/icons';
import type { FieldDef } from '@ringmes/domain';
import { Select } from 'antd';
import { type CSSProperties, type ReactElement, type ReactNode, useEffect, useRef, useState } from 'react';
import { TreeSelectInput } from '../ui/lazy-inputs.tsx';
import { isTreeRef } from './fields.ts';
import { splitNames } from './format.tsx';
import {
  isRemote,
  REMOTE_OPTIONS_LIMIT,
  type RefOption,
  useOptionSearch,
  useOptions,
  useOptionsById,
  useTreeOptions,
} from './use-options.ts';

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
  /** The accessible name where no form label names the picker (a line editor's cell). */
  'aria-label'?: string;
  /** Tree resources: allow picking disabled nodes (search filters). */
  allowInactive?: boolean;
  /**
   * How an option shows, in the list and as the chosen value (a 故障 tag beside an equipment);
   * search still matches the plain label. Flat pickers only.
   */
  renderOption?: (option: RefOption) => ReactNode;
}

function footer(menu: ReactElement, count: number, refresh: () => void, remote = false) {
  return (
    <>
      {menu}
      <div className="rk-select-footer">
        <span>
          {remote && count >= REMOTE_OPTIONS_LIMIT ? `前 ${count} 项，输入文字缩小范围` : `共 ${count} 项`}
        </span>
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

/**
 * Adds options for selected ids the list lacks, labelled from the record: a full list lacks them
 * because they were disabled since; a remote one because they are not among the matches.
 */
function withFallback(
  options: RefOption[],
  value: RefSelectProps['value'],
  fallback: unknown,
  remote: boolean,
): RefOption[] {
  if (value === null || value === undefined) return options;
  const ids = (Array.isArray(value) ? value : [value]).map(Number);
  const missing = ids.filter((id) => !options.some((o) => o.value === id));
  if (!missing.length) return options;
  const names = splitNames(fallback);
  const sorted = [...ids].sort((a, b) => a - b);
  const nameOf = (id: number) =>
    ids.length === 1 ? names[0] : names.length === ids.length ? names[sorted.indexOf(id)] : undefined;
  const labelOf = (id: number) => (remote ? (nameOf(id) ?? `#${id}`) : `${nameOf(id) ?? `#${id}`}（已停用）`);
  return [...options, ...missing.map((id) => ({ value: id, label: labelOf(id) }))];
}

/**
 * A searchable picker of records of `field.ref` (tree resources: a tree select). Small resources
 * load their option list once and search it in the browser; big ones (`isRemote`: materials,
 * customers, suppliers, equipment, users) and lists cut at the server's limit ask the server with
 * the typed text, 50 matches at a time. Search matches the name and the code.
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
  'aria-label': ariaLabel,
  allowInactive,
  renderOption,
}: RefSelectProps) {
  const tree = isTreeRef(field);
  const bigTable = isRemote(field.ref);
  const flat = useOptions(field.ref, !tree && !bigTable);
  const nested = useTreeOptions(field.ref, tree);
  const remote = bigTable || flat.truncated;
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const search = useOptionSearch(field.ref, keyword, remote && (open || keyword.length > 0));
  const found = search.options ?? [];
  const selected =
    value === null || value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(Number);
  // A remote picker names its selected records from the matches it has shown, else asks by id.
  const seen = useRef(new Map<number, RefOption>());
  for (const o of found) seen.current.set(o.value, o);
  const named = useOptionsById(field.ref, remote ? selected.filter((id) => !seen.current.has(id)) : []);
  for (const o of named) seen.current.set(o.value, o);
  const listed = remote
    ? [
        ...found,
        ...selected.flatMap((id) => {
          const o = seen.current.get(id);
          return o && !found.some((f) => f.value === id) ? [o] : [];
        }),
      ]
    : flat.options;

  if (tree) {
    const strip = (nodes: typeof nested.tree): typeof nested.tree =>
      nodes.map((n) => ({ ...n, disabled: false, children: n.children && strip(n.children) }));
    return (
      <TreeSelectInput
        id={id}
        aria-label={ariaLabel}
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

  const options = withFallback(listed, value, fallbackLabel, remote);
  return (
    <Select<number | number[], RefOption>
      id={id}
      aria-label={ariaLabel}
      status={status}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      optionRender={renderOption && ((o) => renderOption(o.data))}
      labelRender={
        renderOption &&
        ((l) => {
          const o = options.find((x) => x.value === Number(l.value));
          return o ? renderOption(o) : l.label;
        })
      }
      mode={multiple ? 'multiple' : undefined}
      allowClear
      showSearch={remote ? { filterOption: false, onSearch: setTyped } : { optionFilterProp: 'label' }}
      onOpenChange={setOpen}
      loading={flat.loading || search.loading}
      placeholder={placeholder}
      disabled={disabled}
      maxTagCount="responsive"
      style={{ width: '100%', ...style }}
      popupRender={(menu) =>
        footer(menu, remote ? found.length : flat.options.length, () => void flat.refresh(), remote)
      }
      notFoundContent={flat.loading || search.loading ? '加载中…' : '无匹配数据'}
    />
  );
}
