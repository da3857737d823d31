import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance } from 'antd';
import { type ReactNode, useState } from 'react';
import { useNarrow } from './responsive.ts';

/** 展开 / 收起 of a search bar folded to its first field. */
export function SearchToggle({ expanded, onToggle }: { expanded: boolean; onToggle: () => void }) {
  return (
    <Button type="link" className="rk-search-toggle" onClick={onToggle} aria-expanded={expanded}>
      {expanded ? (
        <>
          收起 <UpOutlined />
        </>
      ) : (
        <>
          展开 <DownOutlined />
        </>
      )}
    </Button>
  );
}

/**
 * The search bar above a list: inline fields, 搜索 and 重置. Below 992 px it folds to its first
 * field (展开 shows the rest; folded fields keep their values), so the rows come first.
 */
export function SearchForm<T extends object>({
  form,
  onSearch,
  onReset,
  children,
  initialValues,
  name = 'search',
}: {
  /** Prefix of the field ids (two forms on one screen must not share ids). */
  name?: string;
  form: FormInstance<T>;
  onSearch: (values: T) => void;
  onReset: () => void;
  children: ReactNode;
  initialValues?: Partial<T>;
}) {
  const narrow = useNarrow();
  const [expanded, setExpanded] = useState(false);
  const folded = narrow && !expanded;
  return (
    <Form<T>
      name={name}
      form={form}
      layout="inline"
      className={`rm-search${folded ? ' rm-search-folded' : ''}`}
      onFinish={onSearch}
      initialValues={initialValues as T}
      autoComplete="off"
    >
      {children}
      <Form.Item className="rm-search-actions">
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          搜索
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            form.resetFields();
            onReset();
          }}
        >
          重置
        </Button>
        {narrow && <SearchToggle expanded={expanded} onToggle={() => setExpanded(!expanded)} />}
      </Form.Item>
    </Form>
  );
}

/** The row of buttons above a table (left) with extras such as refresh (right). */
export function TableToolbar({ left, right }: { left?: ReactNode; right?: ReactNode }) {
  return (
    <div className="rm-table-toolbar">
      <div className="rm-table-toolbar-left">{left}</div>
      <div className="rm-table-toolbar-right">{right}</div>
    </div>
  );
}

/** Maps server field errors (`errors: [{ field, message }]`) onto a form. */
export function applyFieldErrors(
  form: FormInstance,
  errors: readonly { field: string; message: string }[],
  rename: Record<string, string> = {},
): void {
  if (!errors.length) return;
  form.setFields(errors.map((e) => ({ name: rename[e.field] ?? e.field, errors: [e.message] })));
}
