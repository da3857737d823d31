import './quality.css';
import { inspectionItemResource, inspectionTemplateResource } from '@ringmes/domain';
import { Alert, Form, Tabs } from 'antd';
import { useEffect } from 'react';
import type { PageProps } from '../../app/page-registry.ts';
import { FieldInput } from '../../platform/resource/field-input.tsx';
import type { FieldOverride, FieldOverrides } from '../../platform/resource/resource-form.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';

/**
 * 套圈特性: only a 计量 item measures a ring characteristic, so for 计数 the form row is hidden
 * (`qi-hidden-item`) and a chosen value cleared. With one chosen, the task's limits come from the
 * standard; the typed ones are the fallback for products without derivable limits.
 */
const RingCharacteristicInput: FieldOverride = ({ form, ...props }) => {
  const name = props.field.name;
  const kind = Form.useWatch('kind', form);
  const value = Form.useWatch(name, form);
  const measured = kind === 'measure';
  useEffect(() => {
    if (!measured && value) form.setFieldValue(name, null);
  }, [measured, value, form, name]);
  if (!measured) return <span className="qi-hidden-item" />;
  return (
    <>
      <FieldInput {...props} placeholder="不关联（按下面手填的名义值和偏差）" />
      {value && (
        <Alert
          className="qi-item-note"
          type="info"
          showIcon
          message="检验单的名义值和上下限按产品的公差等级和尺寸从 ISO 492 / GB/T 307.1 推导，客户有收严要求时按客户；下面手填的名义值和偏差只在产品没有可推导的标准值时使用（可不填）。单位 mm 时限值为尺寸，μm 时为偏差。"
        />
      )}
    </>
  );
};

const ITEM_OVERRIDES: FieldOverrides = { ringCharacteristic: RingCharacteristicInput };

/**
 * 检验项目: the items (计量 with limits and gauge, or a ring characteristic whose limits come from
 * the standard; 计数 OK/NG; sampling fixed or GB/T 2828.1) and, on the second tab, the templates
 * grouping them per product × process × inspection kind.
 */
export function InspectionItemPage({ path }: PageProps) {
  return (
    <Tabs
      className="rk-list-page"
      items={[
        {
          key: 'items',
          label: '检验项目',
          children: <ResourceListPage path={path} def={inspectionItemResource} overrides={ITEM_OVERRIDES} />,
        },
        {
          key: 'templates',
          label: '检验模板',
          children: (
            <ResourceListPage
              path={path}
              def={inspectionTemplateResource}
              routes={{ list: path, formOnPage: false }}
            />
          ),
        },
      ]}
    />
  );
}
