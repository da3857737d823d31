import { decimalPlaces, type FieldDef, fitsPrecision, type LineDef, precisionMessage } from '@ringmes/domain';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { Form, type FormInstance, type FormItemProps, type FormRule } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { FieldInput, type FieldInputProps } from './field-input.tsx';
import { resourceKeys } from './resource-api.ts';
import { loadOptions, OPTIONS_STALE_MS, type RefOption, useOptions, useOptionsById } from './use-options.ts';

/**
 * Unit precision in forms (issue 34 §2): a quantity declared with `unitFrom` counts in the chosen
 * unit, else in the material's base unit, and may have no more digits after the point than that
 * unit's 小数位数. The input steps by it and the form says so in the server's words
 * (「数量 10.5 不符合单位「件」的精度：只能填整数」) before anything is sent. The unit comes from
 * the option lists every form already loads: the material's option row carries `unitId`, the
 * unit's carries `precision`.
 */

export interface CountingUnit {
  id: number;
  name: string;
  precision: number;
}

const idOf = (v: unknown): number | undefined => {
  const n = Number(v);
  return v == null || v === '' || !Number.isSafeInteger(n) || n <= 0 ? undefined : n;
};

function unitOf(units: RefOption[], id: number | undefined): CountingUnit | undefined {
  const u = id ? units.find((o) => o.value === id) : undefined;
  if (!u || u.precision == null) return undefined;
  return { id: u.value, name: String(u.name ?? u.label), precision: Number(u.precision) };
}

/** The unit a quantity counts in, from the option caches (loaded if need be); undefined while unknown. */
export async function countingUnit(
  client: QueryClient,
  materialId: unknown,
  unitId: unknown,
): Promise<CountingUnit | undefined> {
  let id = idOf(unitId);
  const material = idOf(materialId);
  if (!id && material) {
    const rows = await client.fetchQuery({
      queryKey: [...resourceKeys.options('material-info'), 'ids', String(material)],
      queryFn: () => loadOptions('material-info', { ids: [material] }),
      staleTime: OPTIONS_STALE_MS,
    });
    id = idOf(rows[0]?.unitId);
  }
  if (!id) return undefined;
  const units = await client.fetchQuery({
    queryKey: resourceKeys.options('material-unit'),
    queryFn: () => loadOptions('material-unit'),
    staleTime: OPTIONS_STALE_MS,
  });
  return unitOf(units, id);
}

/** The same as a hook, for the input's step. */
export function useCountingUnit(materialId: unknown, unitId: unknown): CountingUnit | undefined {
  const chosen = idOf(unitId);
  const material = idOf(materialId);
  const rows = useOptionsById('material-info', !chosen && material ? [material] : []);
  const { options } = useOptions('material-unit', Boolean(chosen || material));
  return unitOf(options, chosen ?? idOf(rows[0]?.unitId));
}

/**
 * The form rule of a quantity counted in a unit: `counted()` answers the material and the unit
 * as the form holds them when the rule runs.
 */
export function unitPrecisionRule(
  label: string,
  client: QueryClient,
  counted: () => { materialId?: unknown; unitId?: unknown },
): FormRule {
  return {
    validator: async (_, value: unknown) => {
      if (value === null || value === undefined || value === '') return;
      const text = String(value);
      // A whole number fits every unit.
      if (decimalPlaces(text) === 0) return;
      const { materialId, unitId } = counted();
      const unit = await countingUnit(client, materialId, unitId);
      if (unit && !fitsPrecision(text, unit.precision))
        throw new Error(precisionMessage(label, text, unit.name, unit.precision));
    },
  };
}

/**
 * Where a field's `unitFrom` names sit in the form: on a line, a name the line declares is the
 * row's, any other the header's; on a header, the header's.
 */
export function unitPaths(
  f: FieldDef,
  line?: { def: LineDef; row: number },
): { material?: NamePath; unit?: NamePath } {
  const at = (name: string | undefined): NamePath | undefined => {
    if (!name) return undefined;
    if (line?.def.fields.some((x) => x.name === name)) return [line.def.name, line.row, name];
    return name;
  };
  return { material: at(f.unitFrom?.material), unit: at(f.unitFrom?.unit) };
}

/** The rules a `unitFrom` quantity adds to its Form.Item, and the fields it is checked again after. */
export function useUnitRules(
  f: FieldDef,
  form: FormInstance,
  line?: { def: LineDef; row: number },
): { rules: FormRule[]; dependencies: NamePath[] } {
  const client = useQueryClient();
  if (!f.unitFrom || f.kind !== 'quantity') return { rules: [], dependencies: [] };
  const paths = unitPaths(f, line);
  const read = (p: NamePath | undefined) => (p === undefined ? undefined : form.getFieldValue(p));
  return {
    rules: [
      unitPrecisionRule(f.label, client, () => ({
        materialId: read(paths.material),
        unitId: read(paths.unit),
      })),
    ],
    dependencies: [paths.material, paths.unit].filter((p): p is NamePath => p !== undefined),
  };
}

const NONE = '__no_such_field__';

/**
 * A quantity input that steps by its unit's precision (and keeps what the user typed: a
 * fraction the unit does not take is flagged by the rule, never silently rounded).
 */
export function UnitQuantityInput({
  line,
  ...props
}: FieldInputProps & { line?: { def: LineDef; row: number } }) {
  const form = Form.useFormInstance();
  const paths = unitPaths(props.field, line);
  const materialId = Form.useWatch(paths.material ?? NONE, form);
  const unitId = Form.useWatch(paths.unit ?? NONE, form);
  const unit = useCountingUnit(materialId, unitId);
  return <FieldInput {...props} unitPrecision={unit?.precision} />;
}

/**
 * The Form.Item of a `unitFrom` quantity (a line cell or a header field): the declaration's rules
 * plus its unit's, checked again when the material or the unit changes.
 */
export function UnitQuantityItem({
  field,
  form,
  line,
  item,
  input = {},
}: {
  field: FieldDef;
  form: FormInstance;
  line?: { def: LineDef; row: number };
  item: FormItemProps;
  input?: Omit<FieldInputProps, 'field'>;
}) {
  const { rules, dependencies } = useUnitRules(field, form, line);
  return (
    <Form.Item {...item} rules={[...(item.rules ?? []), ...rules]} dependencies={dependencies}>
      <UnitQuantityInput {...input} field={field} line={line} />
    </Form.Item>
  );
}

/** Whether a field is a quantity counted in a declared unit. */
export const countsInUnit = (f: FieldDef) => f.kind === 'quantity' && Boolean(f.unitFrom);
