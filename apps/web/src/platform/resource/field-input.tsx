import { type FieldDef, precisionRule, precisionStep, shownQuantity } from '@ringmes/domain';
import { type FormRule, Input, InputNumber, Radio, Select, Switch } from 'antd';

import dayjs from 'dayjs';
import { DATE_FORMAT, DATE_TIME_FORMAT } from '../lib/time.ts';
import { DateInput } from '../ui/lazy-inputs.tsx';
import { isNumeric, maxLengthOf, minOf, precisionOf } from './fields.ts';
import { KeyValueEditor } from './json-editor.tsx';
import { RefSelect } from './ref-select.tsx';

const CHOOSE: FieldDef['kind'][] = ['enum', 'ref', 'refs', 'date', 'datetime', 'boolean'];

/** Form rules from the declaration: the same checks the server's schema makes, in the same words. */
export function fieldRules(f: FieldDef): FormRule[] {
  const rules: FormRule[] = [];
  if (f.required && f.kind !== 'boolean') {
    const verb = CHOOSE.includes(f.kind) ? '请选择' : '请输入';
    const message = `${verb}${f.label}`;
    // Only `required` (+ message): any other key makes the validator type-check the value as text,
    // and ids or numbers would then fail.
    rules.push(
      f.kind === 'text' || f.kind === 'textarea'
        ? { required: true, whitespace: true, message }
        : { required: true, message },
    );
  }
  if (f.kind === 'text' || f.kind === 'textarea') {
    const max = maxLengthOf(f);
    rules.push({ max, message: `${f.label}不能超过 ${max} 个字符` });
    if (f.min) rules.push({ min: f.min, message: `${f.label}至少 ${f.min} 个字符` });
    if (f.pattern) rules.push({ pattern: new RegExp(f.pattern.regex), message: f.pattern.message });
  }
  if (isNumeric(f)) {
    const min = minOf(f);
    rules.push({
      validator: async (_, value: unknown) => {
        if (value === null || value === undefined || value === '') return;
        const n = Number(value);
        if (!Number.isFinite(n)) throw new Error(`${f.label}必须是数字`);
        if (min !== undefined && n < min)
          throw new Error(min === 0 ? `${f.label}不能为负数` : `${f.label}不能小于 ${min}`);
        if (f.max !== undefined && n > f.max) throw new Error(`${f.label}不能大于 ${f.max}`);
      },
    });
  }
  return rules;
}

export interface FieldInputProps {
  field: FieldDef;
  value?: any;
  onChange?: (value: any) => void;
  id?: string;
  /** The record's `<base>Name` for references (shows disabled references by name). */
  fallbackLabel?: unknown;
  /** Inside a table cell: selects instead of radios, no counters. */
  compact?: boolean;
  disabled?: boolean;
  status?: 'error' | 'warning' | '';
  placeholder?: string;
  /**
   * The input's accessible name where no form label names it: a table cell of a line editor
   * (「第2行数量」) — the column title is not a label, and axe's `label` rule is critical.
   */
  ariaLabel?: string;
  /**
   * A quantity's unit precision when known (`UnitQuantityInput`): the input steps by it and shows
   * the value without the stored scale's zeros; a fraction the unit does not take is left for the
   * form's rule to flag, not rounded away.
   */
  unitPrecision?: number;
}

/** The input of one field by its kind; form values stay plain API values (date strings, decimal strings, ids). */
export function FieldInput({
  field: f,
  value,
  onChange,
  id,
  fallbackLabel,
  compact,
  disabled,
  status,
  placeholder,
  ariaLabel,
  unitPrecision,
}: FieldInputProps) {
  const common = { id, disabled, status, 'aria-label': ariaLabel };
  switch (f.kind) {
    case 'text':
      return (
        <Input
          {...common}
          value={value ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
          maxLength={maxLengthOf(f)}
          placeholder={
            placeholder ?? (compact ? undefined : f.help?.startsWith('如') ? f.help : `请输入${f.label}`)
          }
          allowClear={!compact}
        />
      );
    case 'textarea':
      return (
        <Input.TextArea
          {...common}
          value={value ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
          maxLength={maxLengthOf(f)}
          showCount={!compact}
          autoSize={{ minRows: 2, maxRows: 6 }}
          placeholder={placeholder ?? `请输入${f.label}`}
        />
      );
    case 'int':
      return (
        <InputNumber<number>
          {...common}
          value={value ?? null}
          onChange={(v) => onChange?.(v ?? null)}
          precision={0}
          style={{ width: '100%' }}
          placeholder={placeholder ?? (compact ? undefined : `请输入${f.label}`)}
        />
      );
    case 'quantity':
      if (unitPrecision !== undefined)
        return (
          <InputNumber<string>
            {...common}
            stringMode
            value={value === null || value === undefined ? null : shownQuantity(String(value))}
            onChange={(v) => onChange?.(v === null || v === '' ? null : v)}
            step={precisionStep(unitPrecision)}
            style={{ width: '100%' }}
            placeholder={
              placeholder ??
              (compact ? precisionRule(unitPrecision) : `请输入${f.label}（${precisionRule(unitPrecision)}）`)
            }
          />
        );
      return (
        <InputNumber<string>
          {...common}
          stringMode
          value={value === null || value === undefined ? null : String(value)}
          onChange={(v) => onChange?.(v === null || v === '' ? null : v)}
          precision={precisionOf(f)}
          style={{ width: '100%' }}
          placeholder={placeholder ?? (compact ? undefined : `请输入${f.label}`)}
        />
      );
    case 'decimal':
    case 'money':
    case 'price':
      return (
        <InputNumber<string>
          {...common}
          stringMode
          value={value === null || value === undefined ? null : inputDecimal(f, String(value))}
          onChange={(v) => onChange?.(v === null || v === '' ? null : v)}
          precision={f.kind === 'money' || f.kind === 'price' ? undefined : precisionOf(f)}
          style={{ width: '100%' }}
          placeholder={placeholder ?? (compact ? undefined : `请输入${f.label}`)}
        />
      );
    case 'date':
    case 'datetime': {
      const format = f.kind === 'date' ? DATE_FORMAT : DATE_TIME_FORMAT;
      return (
        <DateInput
          {...common}
          value={value ? dayjs(value) : null}
          onChange={(d) => onChange?.(d ? d.format(format) : null)}
          showTime={f.kind === 'datetime'}
          format={format}
          style={{ width: '100%' }}
          placeholder={placeholder ?? `请选择${f.label}`}
        />
      );
    }
    case 'boolean':
      return (
        <Switch
          id={id}
          aria-label={ariaLabel}
          disabled={disabled}
          checked={Boolean(value)}
          onChange={(v) => onChange?.(v)}
          checkedChildren="是"
          unCheckedChildren="否"
        />
      );
    case 'enum': {
      const options = (f.options ?? []).map((o) => ({ value: o.value, label: o.label }));
      if (!compact && options.length <= 4) {
        return (
          <Radio.Group
            id={id}
            aria-label={ariaLabel}
            disabled={disabled}
            value={value ?? undefined}
            onChange={(e) => onChange?.(e.target.value)}
            options={options}
          />
        );
      }
      return (
        <Select
          {...common}
          value={value ?? undefined}
          onChange={(v) => onChange?.(v ?? null)}
          options={options}
          allowClear={!f.required}
          placeholder={placeholder ?? `请选择${f.label}`}
          style={{ width: '100%' }}
        />
      );
    }
    case 'ref':
    case 'refs':
      return (
        <RefSelect
          {...common}
          field={f}
          value={value ?? null}
          onChange={(v) => onChange?.(v)}
          fallbackLabel={fallbackLabel}
          placeholder={placeholder}
        />
      );
    case 'json':
      return <KeyValueEditor id={id} value={value} onChange={onChange} disabled={disabled} />;
  }
}

/**
 * Money and prices as a form shows them: at least 2 places, more only when they count
 * (18.5 → 18.50, 3.141500 → 3.1415), never the 6 places of the stored scale.
 */
export function inputDecimal(f: FieldDef, text: string): string {
  const m = /^(-?\d+)\.(\d+)$/.exec(text);
  if (!m || (f.kind !== 'money' && f.kind !== 'price')) return text;
  const significant = m[2].replace(/0+$/, '');
  return `${m[1]}.${significant.length > 2 ? significant : significant.padEnd(2, '0')}`;
}
