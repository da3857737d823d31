import './quality.css';
import { inspectionItemResource, inspectionTemplateResource } from '@ringmes/domain';
import { Alert, Form, Tabs } from 'antd';
import { useEffect } from 'react';
import type { PageProps } from '../../platform/page.ts';
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
          message="检验单的名义值和上下限按产品的公差等级和尺寸从 ISO 492 / GB/T 307.1 推导（成品尺寸），客户有收严要求时按客户；检验模板行上填了本工序尺寸（车削含磨量、磨削）时按行上的工序图尺寸；下面手填的名义值和偏差只在产品没有可推导的标准值时使用（可不填）。单位 mm 时限值为尺寸，μm 时为偏差。"
        />
      )}
    </>
  );
};

const ITEM_OVERRIDES: FieldOverrides = { ringCharacteristic: RingCharacteristicInput };

/** What each size stage asks of the template's lines (the server checks the same). */
const STAGE_NOTES: Record<string, string> = {
  turning:
    '车削尺寸：每个尺寸项目（内径 d、外径 D、宽度、沟道）在下面的行上填写留量和本工序偏差；名义值可不填，保存时按成品尺寸 ± 留量算出（外径、宽度加，内孔减）。成品公差在磨削后才适用，这里不能用。',
  grinding:
    '磨削尺寸：沟道填写超精前的尺寸和超精留量；已磨到成品的外径、内径、宽度可不填行上尺寸，按 ISO 492 标准和客户收严取限值。',
  final:
    '成品尺寸：尺寸项目不填行上尺寸时按 ISO 492 标准和客户收严；粗糙度 Ra、圆度等填名义值 0 和最大值（上偏差）。',
};

/**
 * 尺寸阶段 of a step's item set, with what it asks of the lines: the stage decides whether the
 * finished limits may apply (not at turning, where every size carries its grinding allowance).
 */
const SizeStageInput: FieldOverride = ({ form, ...props }) => {
  const stage = Form.useWatch(props.field.name, form);
  return (
    <>
      <FieldInput {...props} placeholder="不分阶段（按成品尺寸）" />
      {stage && STAGE_NOTES[stage] && (
        <Alert className="qi-item-note" type="info" showIcon message={STAGE_NOTES[stage]} />
      )}
    </>
  );
};

const TEMPLATE_OVERRIDES: FieldOverrides = { sizeStage: SizeStageInput };

/**
 * 检验项目: the items (计量 with limits and gauge, or a ring characteristic whose limits come from
 * the standard, or a 测量部位 whose sizes the step sets give; 计数 OK/NG; sampling fixed or
 * GB/T 2828.1) and, on the second tab, the templates: per product × process × inspection kind the
 * step's item set, each line with the size the step's drawing gives (尺寸阶段, 依据图纸).
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
              overrides={TEMPLATE_OVERRIDES}
            />
          ),
        },
      ]}
    />
  );
}
