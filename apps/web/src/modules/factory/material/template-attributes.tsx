import '../factory.css';
import { materialTemplateResource } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, InputNumber, Select, Skeleton } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { KeyValueEditor } from '../../../platform/resource/json-editor.tsx';
import { resourceApi, resourceKeys } from '../../../platform/resource/resource-api.ts';
import type { FieldOverride } from '../../../platform/resource/resource-form.tsx';

type Value = Record<string, string | number | boolean | null>;

interface TemplateAttribute {
  name: string;
  dataType: 'text' | 'number' | 'enum';
  unit?: string | null;
  required?: boolean;
  options?: string | null;
}

const choices = (options: string | null | undefined) =>
  String(options ?? '')
    .split(/[,，、;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The attribute definitions of a material template (`GET /api/v1/material-template/info/:id`). */
export function useTemplateAttributes(templateId: number | undefined) {
  return useQuery({
    queryKey: resourceKeys.info(materialTemplateResource.name, templateId),
    queryFn: () => resourceApi(materialTemplateResource).info(templateId as number),
    enabled: Boolean(templateId),
    select: (row) => ({ name: String(row.name), attributes: (row.attributes ?? []) as TemplateAttribute[] }),
  });
}

/**
 * 模板属性 of a material: with a template chosen, one typed input per attribute the template
 * defines (数值 with its unit, 枚举 as a select of its values, 文本); without one, free key/value
 * pairs. Values are stored by attribute name.
 */
export const TemplateAttributesInput: FieldOverride = ({ value, onChange, form, disabled, id }) => {
  const templateId = Form.useWatch('templateId', form) as number | undefined;
  const template = useTemplateAttributes(templateId ?? undefined);
  const attributes = template.data?.attributes;
  const current: Value = (value as Value) ?? {};

  // Switching templates drops the values the new template does not define (the server refuses them).
  useEffect(() => {
    if (!attributes) return;
    const known = new Set(attributes.map((a) => a.name));
    const extra = Object.keys(current).filter((k) => !known.has(k));
    if (extra.length) {
      const next: Value = {};
      for (const [k, v] of Object.entries(current)) if (known.has(k)) next[k] = v;
      onChange?.(next);
    }
  }, [attributes, current, onChange]);

  if (!templateId) {
    return (
      <div id={id}>
        <div className="fm-attr-hint">未选择物料模板：可自由填写属性；选择模板后按模板属性填写。</div>
        <KeyValueEditor value={current} onChange={onChange} disabled={disabled} />
      </div>
    );
  }
  if (template.isLoading) return <Skeleton active paragraph={{ rows: 2 }} title={false} />;
  if (!attributes?.length) return <Alert type="info" showIcon title="该模板没有定义属性" />;

  const set = (name: string, v: string | number | null) => onChange?.({ ...current, [name]: v });
  return (
    <div className="fm-attrs" id={id} data-testid="template-attributes">
      {attributes.map((a) => {
        const v = current[a.name];
        const empty = v === undefined || v === null || v === '';
        let input: ReactNode;
        if (a.dataType === 'number') {
          input = (
            <InputNumber<number>
              value={empty ? null : Number(v)}
              onChange={(x) => set(a.name, x ?? null)}
              style={{ width: '100%' }}
              disabled={disabled}
              suffix={a.unit || undefined}
              placeholder="数值"
              aria-label={a.name}
            />
          );
        } else if (a.dataType === 'enum') {
          input = (
            <Select
              value={empty ? undefined : String(v)}
              onChange={(x) => set(a.name, x ?? null)}
              options={choices(a.options).map((o) => ({ value: o, label: o }))}
              allowClear
              disabled={disabled}
              placeholder="请选择"
              aria-label={a.name}
            />
          );
        } else {
          input = (
            <Input
              value={empty ? '' : String(v)}
              onChange={(e) => set(a.name, e.target.value)}
              maxLength={500}
              disabled={disabled}
              placeholder="请输入"
              suffix={a.unit || undefined}
              aria-label={a.name}
            />
          );
        }
        return (
          <div key={a.name} className="fm-attr">
            <div className="fm-attr-label">
              {a.required && <span className="rk-required">*</span>}
              {a.name}
            </div>
            {input}
          </div>
        );
      })}
    </div>
  );
};
