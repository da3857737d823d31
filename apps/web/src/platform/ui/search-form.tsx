import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance } from 'antd';
import type { ReactNode } from 'react';

/** The search bar above a list: inline fields, 搜索 and 重置. */
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
  return (
    <Form<T>
      name={name}
      form={form}
      layout="inline"
      className="rm-search"
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
