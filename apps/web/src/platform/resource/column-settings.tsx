import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { useState } from 'react';

export interface ColumnChoice {
  key: string;
  title: string;
}

const storageKey = (scope: string) => `rk-columns:${scope}`;

function readHidden(scope: string, fallback: readonly string[]): string[] {
  try {
    const raw = localStorage.getItem(storageKey(scope));
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) ? parsed.map(String) : [...fallback];
  } catch {
    return [...fallback];
  }
}

/** Hidden columns of a list, remembered per resource in localStorage. */
export function useHiddenColumns(scope: string, defaults: readonly string[]) {
  const [hidden, setHidden] = useState<string[]>(() => readHidden(scope, defaults));
  const update = (next: string[] | null) => {
    const value = next ?? [...defaults];
    setHidden(value);
    try {
      if (next) localStorage.setItem(storageKey(scope), JSON.stringify(next));
      else localStorage.removeItem(storageKey(scope));
    } catch {
      // storage disabled: the choice lasts until the page closes
    }
  };
  return [hidden, update] as const;
}

/** 列设置: a popover of checkboxes to show or hide columns; 重置 restores the defaults. */
export function ColumnSettings({
  columns,
  hidden,
  onChange,
}: {
  columns: ColumnChoice[];
  hidden: string[];
  onChange: (hidden: string[] | null) => void;
}) {
  const visible = columns.filter((c) => !hidden.includes(c.key)).length;
  const content = (
    <div className="rk-colset" data-testid="column-settings">
      <div className="rk-colset-head">
        <Checkbox
          checked={visible === columns.length}
          indeterminate={visible > 0 && visible < columns.length}
          onChange={(e) => onChange(e.target.checked ? [] : columns.slice(1).map((c) => c.key))}
        >
          列展示
        </Checkbox>
        <Button type="link" size="small" onClick={() => onChange(null)}>
          重置
        </Button>
      </div>
      <div className="rk-colset-list">
        {columns.map((c, i) => (
          <Checkbox
            key={c.key}
            checked={!hidden.includes(c.key)}
            // The first column (code or name) identifies the row and always stays.
            disabled={i === 0}
            onChange={(e) =>
              onChange(e.target.checked ? hidden.filter((k) => k !== c.key) : [...hidden, c.key])
            }
          >
            {c.title}
          </Checkbox>
        ))}
      </div>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" arrow={false}>
      <Tooltip title="列设置">
        <Button icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  );
}
