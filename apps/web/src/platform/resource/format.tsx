import type { FieldDef } from '@ringmes/domain';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { DATE_FORMAT, formatTime } from '../lib/time.ts';
import { isDecimal, precisionOf, refLabelKey } from './fields.ts';

const empty = (v: unknown) => v === null || v === undefined || v === '';

/** An exact decimal string with thousands separators; money and prices keep at least 2 places, others drop trailing zeros. */
export function formatNumber(f: FieldDef, value: unknown): string {
  if (empty(value)) return '';
  const text = String(value);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const [, sign, int, frac = ''] = m;
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let decimals = frac;
  if (f.kind === 'money' || f.kind === 'price') {
    // Amounts and unit prices keep at least two places (元.角分).
    const significant = frac.replace(/0+$/, '');
    decimals = significant.length > 2 ? significant : significant.padEnd(2, '0');
  } else if (isDecimal(f)) decimals = frac.replace(/0+$/, '');
  const scale = precisionOf(f);
  if (scale !== undefined && decimals.length > scale) decimals = decimals.slice(0, scale);
  return `${sign}${grouped}${decimals ? `.${decimals}` : ''}`;
}

/** Split a `refs` label ("长期合作、月结60天") into names. */
export function splitNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (empty(value)) return [];
  return String(value)
    .split('、')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The text of a list's link column (the record's code, else its first column): the value as the
 * column shows it — a reference by its name (`#id` while the name is missing), an enum by its
 * label — never the raw id (外径测量 listed its products as 16, 17 …).
 */
export function linkText(f: FieldDef, row: Record<string, any>): string {
  const text = fieldText(f, row);
  if (text || empty(row[f.name])) return text;
  return f.kind === 'ref' ? `#${row[f.name]}` : String(row[f.name]);
}

/** Plain text of a field's value (titles, exports, tooltips). */
export function fieldText(f: FieldDef, row: Record<string, any>): string {
  const v = row[f.name];
  if (empty(v)) return '';
  switch (f.kind) {
    case 'enum':
      return f.options?.find((o) => o.value === String(v))?.label ?? String(v);
    case 'ref':
    case 'refs':
      return String(row[refLabelKey(f)] ?? '');
    case 'boolean':
      return v ? '是' : '否';
    case 'date':
      return formatTime(v, DATE_FORMAT);
    case 'datetime':
      return formatTime(v);
    case 'json':
      return Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${k}: ${x}`)
        .join('；');
    case 'int':
    case 'decimal':
    case 'quantity':
    case 'money':
    case 'price':
      return formatNumber(f, v);
    default:
      return String(v);
  }
}

export const Muted = () => <span className="rm-muted">-</span>;

/** A field's value as lists and details show it: enums as coloured tags, references by name, numbers grouped. */
export function FieldValue({ field, row }: { field: FieldDef; row: Record<string, any> }): ReactNode {
  const v = row[field.name];
  if (field.kind === 'boolean') {
    if (v === null || v === undefined) return <Muted />;
    return v ? <span className="rk-yes">是</span> : <span className="rk-no">否</span>;
  }
  if (empty(v) || (Array.isArray(v) && !v.length)) return <Muted />;
  switch (field.kind) {
    case 'enum': {
      const o = field.options?.find((x) => x.value === String(v));
      if (!o) return String(v);
      return (
        <Tag color={o.color && o.color !== 'default' ? o.color : undefined} className="rk-tag">
          {o.label}
        </Tag>
      );
    }
    case 'ref': {
      const name = row[refLabelKey(field)];
      return name ? String(name) : <span className="rm-muted">#{String(v)}</span>;
    }
    case 'refs': {
      const names = splitNames(row[refLabelKey(field)]);
      return names.length ? (
        <span className="rk-tags">
          {names.map((n) => (
            <Tag key={n} className="rk-tag">
              {n}
            </Tag>
          ))}
        </span>
      ) : (
        <Muted />
      );
    }
    case 'json': {
      const entries = Object.entries(v as Record<string, unknown>);
      if (!entries.length) return <Muted />;
      return (
        <span className="rk-tags">
          {entries.map(([k, x]) => (
            <Tag key={k} className="rk-tag rk-attr-tag">
              <span className="rk-attr-key">{k}</span>
              {String(x ?? '')}
            </Tag>
          ))}
        </span>
      );
    }
    default:
      return fieldText(field, row) || <Muted />;
  }
}
