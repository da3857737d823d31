import { ResourceFormPage } from '../../../platform/resource/resource-form.page.tsx';
import type { ResourcePageProps } from '../../../platform/resource/routes.ts';
import { TemplateAttributesInput } from './template-attributes.tsx';
import { UnitConversionSentences } from './unit-conversions.tsx';

/** 新增/编辑物料: the kit's form, with the template's attributes as typed inputs. */
export const MATERIAL_OVERRIDES = { attributes: TemplateAttributesInput };

/** The form, and under its 单位换算 lines each conversion read both ways and the unit weight it makes. */
export function MaterialFormPage(props: ResourcePageProps) {
  return <ResourceFormPage {...props} overrides={MATERIAL_OVERRIDES} extra={<UnitConversionSentences />} />;
}
