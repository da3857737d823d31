import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { type FieldDef, filterFieldsOf, keywordHint, type ResourceDef } from '@ringmes/domain';
import { Button, Form, Input, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactElement, useMemo, useState } from 'react';
import { DATE_FORMAT } from '../lib/time.ts';
import { DateRangeInput, NumberInput } from '../ui/lazy-inputs.tsx';
import { useNarrow } from '../ui/responsive.ts';
import { SearchToggle } from '../ui/search-form.tsx';
import { hasKeyword, isNumeric } from './fields.ts';
import { RefSelect } from './ref-select.tsx';

export type Filters = Record<string, string | number | undefined>;

const BOOLEAN_OPTIONS = [
  { value: 'true', label: '是' },
  { value: 'false', label: '否' },
];

/** The input of one declared filter: like → text, eq → select of options or records, range → two bounds. */
function filterItem(f: FieldDef) {
  if (f.filter === 'range') {
    if (f.kind === 'date' || f.kind === 'datetime') {
      return (
        <Form.Item key={f.name} label={f.label} name={f.name} className="rk-search-wide">
          <DateRangeInput style={{ width: '100%' }} format={DATE_FORMAT} allowEmpty={[true, true]} />
        </Form.Item>
      );
    }
    return (
      <Form.Item key={f.name} label={f.label} className="rk-search-wide">
        <Space.Compact block>
          <Form.Item name={`${f.name}From`} noStyle>
            <NumberInput style={{ width: '50%' }} placeholder="最小值" />
          </Form.Item>
          <Form.Item name={`${f.name}To`} noStyle>
            <NumberInput style={{ width: '50%' }} placeholder="最大值" />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
    );
  }
  let input: ReactElement;
  if (f.kind === 'enum') {
    input = (
      <Select
        allowClear
        placeholder={`全部${f.label}`}
        options={(f.options ?? []).map((o) => ({ value: o.value, label: o.label }))}
      />
    );
  } else if (f.kind === 'boolean') {
    input = <Select allowClear placeholder="全部" options={BOOLEAN_OPTIONS} />;
  } else if (f.kind === 'ref' || f.kind === 'refs') {
    input = <RefSelect field={f} multiple={false} placeholder={`全部${f.label}`} allowInactive />;
  } else if (isNumeric(f)) {
    input = <NumberInput style={{ width: '100%' }} placeholder={`请输入${f.label}`} />;
  } else {
    input = (
      <Input
        allowClear
        placeholder={`请输入${f.label}`}
        maxLength={f.max ?? 100}
        data-testid={`search-${f.name}`}
      />
    );
  }
  return (
    <Form.Item key={f.name} label={f.label} name={f.name}>
      {input}
    </Form.Item>
  );
}

/** Form values → query parameters (`<field>From`/`<field>To` for date ranges, trimmed text). */
export function toFilters(def: ResourceDef, values: Record<string, any>): Filters {
  const out: Filters = {};
  const keyword = typeof values.keyword === 'string' ? values.keyword.trim() : '';
  if (keyword) out.keyword = keyword;
  for (const f of filterFieldsOf(def)) {
    if (f.filter === 'range') {
      if (f.kind === 'date' || f.kind === 'datetime') {
        const range = values[f.name] as [Dayjs | null, Dayjs | null] | undefined;
        if (range?.[0]) out[`${f.name}From`] = range[0].format(DATE_FORMAT);
        if (range?.[1]) out[`${f.name}To`] = range[1].format(DATE_FORMAT);
      } else {
        for (const bound of ['From', 'To']) {
          const v = values[`${f.name}${bound}`];
          if (v !== null && v !== undefined && v !== '') out[`${f.name}${bound}`] = v;
        }
      }
      continue;
    }
    const v = values[f.name];
    if (v === null || v === undefined || v === '') continue;
    out[f.name] = typeof v === 'string' ? v.trim() || undefined : v;
  }
  return out;
}

/**
 * The search bar of a list, generated from the declared filters plus a keyword box over code,
 * name and spec. Collapses to one row; 搜索 and 重置 as on the system pages.
 */
export function ResourceSearchBar({
  def,
  onSearch,
  hidden = [],
  collapsedItems = 3,
  initialValues,
}: {
  def: ResourceDef;
  /** Values shown at first (the filters of the page address). */
  initialValues?: Record<string, unknown>;
  onSearch: (filters: Filters) => void;
  /** Filters driven elsewhere (the type tree beside the material list). */
  hidden?: readonly string[];
  /** Items shown while the bar is collapsed (one row with the buttons). */
  collapsedItems?: number;
}) {
  const [form] = Form.useForm();
  // Filters from the address may sit in the collapsed part: open it so they show.
  const [expanded, setExpanded] = useState(
    () => !!initialValues && Object.keys(initialValues).some((k) => !['keyword'].includes(k)),
  );
  // Below 992 px the bar folds to one field, so the rows come first.
  const folded = useNarrow() ? 1 : collapsedItems;
  const items = useMemo(() => {
    const list = filterFieldsOf(def)
      .filter((f) => !hidden.includes(f.name))
      .map(filterItem);
    if (hasKeyword(def)) {
      list.unshift(
        <Form.Item key="keyword" label="关键字" name="keyword">
          <Input allowClear placeholder={keywordHint(def)} maxLength={100} data-testid="search-keyword" />
        </Form.Item>,
      );
    }
    return list;
  }, [def, hidden]);
  const collapsible = items.length > folded;
  const shown = collapsible && !expanded ? items.slice(0, folded) : items;

  return (
    <Form
      form={form}
      name={`rk-search-${def.name}`}
      layout="inline"
      className="rm-search rk-search"
      autoComplete="off"
      initialValues={initialValues}
      onFinish={(values) => onSearch(toFilters(def, values))}
      data-testid={`search-${def.name}`}
    >
      {shown}
      {/* Collapsed filters keep their values. */}
      {collapsible && !expanded && <div style={{ display: 'none' }}>{items.slice(folded)}</div>}
      <Form.Item className="rm-search-actions">
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          搜索
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            form.resetFields();
            onSearch({});
          }}
        >
          重置
        </Button>
        {collapsible && <SearchToggle expanded={expanded} onToggle={() => setExpanded(!expanded)} />}
      </Form.Item>
    </Form>
  );
}
