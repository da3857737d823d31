import './kit.css';
import { editableLines, type FieldDef, type ResourceDef } from '@ringmes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, type FormInstance, Modal } from 'antd';
import {
  type ComponentType,
  type ReactNode,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { isApiError } from '../api/errors.ts';
import { toast } from '../feedback.ts';
import { FieldInput, type FieldInputProps, fieldRules } from './field-input.tsx';
import {
  codeFieldOf,
  formFields,
  isNumeric,
  labelFieldOf,
  newRecordValues,
  recordTitle,
  refLabelKey,
} from './fields.ts';
import { type LineCellOverrides, type LineExtraColumn, LineTableEditor } from './line-table.tsx';
import { type ResourceRow, resourceApi, resourceKeys } from './resource-api.ts';
import { countsInUnit, UnitQuantityItem } from './unit-precision.tsx';
import { invalidateResource } from './use-options.ts';

/** A module's own input for one field (template attributes…), rendered inside the field's Form.Item. */
export type FieldOverride = ComponentType<FieldInputProps & { form: FormInstance }>;
export type FieldOverrides = Record<string, FieldOverride>;

/**
 * Whether a field applies to the record as it stands (a 采购入库 has a 采购订单, a 生产入库 none):
 * the form shows the field only then, the detail only then.
 */
export type FieldShown = (field: FieldDef, values: Record<string, any>) => boolean;

const STALE_VERSION = /已被他人修改/;

// ------------------------------------------------------------------ values

/** A stored record as form values: declared fields and lines (lines keep their labels for disabled references). */
export function toFormValues(def: ResourceDef, row: ResourceRow): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of formFields(def)) values[f.name] = row[f.name] ?? (f.kind === 'refs' ? [] : null);
  for (const line of editableLines(def))
    values[line.name] = (row[line.name] ?? []).map((l: object) => ({ ...l }));
  return values;
}

function apiValue(f: FieldDef, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (f.kind === 'refs') return [];
    if (f.kind === 'json') return {};
    if (f.kind === 'boolean') return false;
    return null;
  }
  if (f.kind === 'text' || f.kind === 'textarea') {
    const s = String(v).trim();
    return s === '' ? null : s;
  }
  if (isNumeric(f) && v === '') return null;
  return v;
}

/** The API body of the form: only declared fields (the server's schemas are strict), trimmed, empty → null. */
export function toBody(
  def: ResourceDef,
  values: Record<string, any>,
  fields: readonly FieldDef[] = formFields(def),
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = apiValue(f, values[f.name]);
    // A new record leaves unset optional values to the server's defaults.
    if (v === null && f.default !== undefined) continue;
    body[f.name] = v;
  }
  for (const line of editableLines(def)) {
    const items: Record<string, unknown>[] = values[line.name] ?? [];
    body[line.name] = items.map((item) => {
      const out: Record<string, unknown> = {};
      // Readonly line fields (amounts, base quantities) are computed by the server, never sent.
      for (const f of line.fields) {
        if (f.readonly) continue;
        const v = apiValue(f, item?.[f.name]);
        if (v === null && f.default !== undefined) continue;
        out[f.name] = v;
      }
      return out;
    });
  }
  return body;
}

// ------------------------------------------------------------------ server errors

/** Form path of a server field (`lines.0.materialId` → ['lines', 0, 'materialId']) when the form shows it. */
function formPath(
  def: ResourceDef,
  fields: readonly FieldDef[],
  field: string,
): (string | number)[] | undefined {
  const parts = field.split('.');
  if (parts.length === 1) {
    if (fields.some((f) => f.name === field)) return [field];
    if (def.lines?.some((l) => l.name === field)) return [field];
    return undefined;
  }
  const line = def.lines?.find((l) => l.name === parts[0]);
  const index = Number(parts[1]);
  if (!line || !Number.isInteger(index)) return undefined;
  if (parts.length === 2) return [line.name, index];
  return line.fields.some((f) => f.name === parts[2]) ? [line.name, index, parts[2]] : undefined;
}

/**
 * Puts the server's field errors on the form (line cells included) and answers the messages that
 * have no place on it. A duplicate code or name (409 without field errors) marks that field.
 */
export function applyServerErrors(
  form: FormInstance,
  def: ResourceDef,
  fields: readonly FieldDef[],
  error: { code: string; message: string; errors: readonly { field: string; message: string }[] },
): string[] {
  const placed: { name: (string | number)[]; errors: string[] }[] = [];
  const unplaced: string[] = [];
  for (const e of error.errors) {
    const name = formPath(def, fields, e.field);
    if (name) placed.push({ name, errors: [e.message] });
    else unplaced.push(e.message);
  }
  if (error.code === '409' && !error.errors.length) {
    const code = codeFieldOf(def);
    const target = error.message.startsWith('编码')
      ? code
      : error.message.startsWith('名称')
        ? labelFieldOf(def)
        : undefined;
    if (target && fields.some((f) => f.name === target))
      placed.push({ name: [target], errors: [error.message] });
  }
  if (placed.length) {
    form.setFields(placed);
    form.scrollToField(placed[0].name, { behavior: 'smooth', block: 'center' });
  }
  return unplaced;
}

// ------------------------------------------------------------------ the inputs

/** Fields of the form grid: Form.Items with label, help tooltip and the declaration's rules. */
export function ResourceFormInputs({
  def,
  form,
  record,
  fields = formFields(def),
  overrides = {},
  locked = [],
  shows,
}: {
  def: ResourceDef;
  form: FormInstance;
  record?: ResourceRow;
  fields?: readonly FieldDef[];
  overrides?: FieldOverrides;
  /** Fields shown but not editable (the workshop of a line added under that workshop). */
  locked?: readonly string[];
  /** Fields that apply to what is typed so far (the document's type); the others are not shown. */
  shows?: FieldShown;
}) {
  const nodeOf = (f: FieldDef) => {
    const Override = overrides[f.name];
    const wide = f.wide || f.kind === 'textarea' || f.kind === 'json' || Boolean(Override);
    const props = {
      field: f,
      fallbackLabel: record?.[refLabelKey(f)],
      disabled: locked.includes(f.name),
    };
    if (!Override && countsInUnit(f)) {
      const { field: _, ...input } = props;
      return (
        <UnitQuantityItem
          key={f.name}
          field={f}
          form={form}
          item={{
            name: f.name,
            label: f.label,
            tooltip: f.help,
            rules: fieldRules(f),
            className: wide ? 'rm-span-2 rk-span-all' : undefined,
            validateFirst: true,
          }}
          input={input}
        />
      );
    }
    return (
      <Form.Item
        key={f.name}
        name={f.name}
        label={f.label}
        tooltip={f.help}
        rules={fieldRules(f)}
        className={wide ? 'rm-span-2 rk-span-all' : undefined}
        validateFirst
      >
        {Override ? <Override {...props} form={form} /> : <FieldInput {...props} />}
      </Form.Item>
    );
  };
  const shown = fields.filter((f) => !f.hidden);
  if (!shows) return <>{shown.map(nodeOf)}</>;
  return (
    <>
      {shown.map((f) => (
        <Form.Item key={f.name} noStyle shouldUpdate>
          {() => (shows(f, form.getFieldsValue(true)) ? nodeOf(f) : null)}
        </Form.Item>
      ))}
    </>
  );
}

// ------------------------------------------------------------------ loading and saving

export interface ResourceFormOptions {
  /** Values of a new record beyond the declared defaults (the parent of a new tree node…). */
  initialValues?: Record<string, unknown>;
  /** Fields on the form (default: every field that is not readonly). */
  fields?: readonly FieldDef[];
  /** Saves through another endpoint (按模板新建物料). */
  submit?: (body: Record<string, unknown>) => Promise<ResourceRow>;
  /** Asked once the form is valid, before saving: false keeps the form open (a warning the user declined). */
  beforeSave?: (values: Record<string, any>) => Promise<boolean>;
  enabled?: boolean;
}

/**
 * The state of an add/edit form: loads the record (edit), fills defaults (add), validates, saves
 * with the record's `version`, maps field errors, and offers to reload on a stale version.
 */
export function useResourceForm(def: ResourceDef, id: number | undefined, options: ResourceFormOptions = {}) {
  const [form] = Form.useForm();
  const client = useQueryClient();
  const api = useMemo(() => resourceApi(def), [def]);
  const fields = options.fields ?? formFields(def);
  const enabled = options.enabled ?? true;
  const info = useQuery({
    queryKey: resourceKeys.info(def.name, id),
    queryFn: () => api.info(id as number),
    enabled: Boolean(id) && enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const record = id ? info.data : undefined;
  const [saving, setSaving] = useState(false);
  const [formError, setFormError] = useState<string[]>([]);
  const initial = useRef(options.initialValues);
  initial.current = options.initialValues;
  const loaded = useRef<string>('');
  // The values as loaded: the form is "changed" when what it holds differs from them (some
  // widgets report a change while mounting, so antd's touched flag is not the user's doing).
  const pristine = useRef('');
  const isDirty = useCallback(() => JSON.stringify(form.getFieldsValue(true)) !== pristine.current, [form]);

  const reset = useCallback(
    (row?: ResourceRow) => {
      form.resetFields();
      setFormError([]);
      form.setFieldsValue(row ? toFormValues(def, row) : { ...newRecordValues(def), ...initial.current });
      pristine.current = JSON.stringify(form.getFieldsValue(true));
    },
    [def, form],
  );

  // Fill the form when the record (or the add form) is opened, before the browser paints it (a
  // click or keystroke right after opening is never overwritten); a refetch in the background
  // never overwrites what the user is typing.
  useLayoutEffect(() => {
    if (!enabled) {
      loaded.current = '';
      return;
    }
    const key = id ? (record ? `${id}@${record.version}` : '') : 'new';
    if (!key || key === loaded.current) return;
    if (loaded.current.startsWith(`${id}@`) && isDirty()) return;
    loaded.current = key;
    reset(record);
  }, [enabled, id, record, reset, isDirty]);

  /** Clears the add form for the next record (保存并新增). */
  const startNew = useCallback(() => {
    loaded.current = 'new';
    reset(undefined);
  }, [reset]);

  const reload = useCallback(async () => {
    const fresh = await info.refetch();
    if (fresh.data) {
      loaded.current = `${id}@${fresh.data.version}`;
      reset(fresh.data);
    }
  }, [info, id, reset]);

  /** Validates and saves; answers the saved record, or undefined when something was wrong. */
  const save = useCallback(async (): Promise<ResourceRow | undefined> => {
    setFormError([]);
    try {
      await form.validateFields();
    } catch (e) {
      const first = (e as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0];
      if (first) form.scrollToField(first.name, { behavior: 'smooth', block: 'center' });
      toast.warning('请检查表单中标红的内容');
      return undefined;
    }
    if (options.beforeSave && !(await options.beforeSave(form.getFieldsValue(true)))) return undefined;
    const body = toBody(def, form.getFieldsValue(true), fields);
    setSaving(true);
    try {
      let saved: ResourceRow;
      if (options.submit) saved = await options.submit(body);
      else if (id) saved = await api.edit(id, { ...body, version: record?.version }, { silent: true });
      else saved = await api.add(body, { silent: true });
      invalidateResource(client, def.name);
      toast.success(id ? '修改成功' : '新增成功');
      return saved;
    } catch (error) {
      if (!isApiError(error)) throw error;
      if (error.code === '409' && STALE_VERSION.test(error.message)) {
        Modal.confirm({
          title: '数据已被他人修改',
          content: `${error.message}。重新加载会读取最新数据，并放弃你在此页面的修改。`,
          okText: '重新加载',
          cancelText: '继续编辑',
          onOk: () => reload(),
        });
        return undefined;
      }
      if (!error.shown) toast.error(error.message);
      const unplaced = applyServerErrors(form, def, fields, error);
      const placedAll = error.errors.length > 0 && unplaced.length === 0;
      setFormError(placedAll ? [] : unplaced.length ? [error.message, ...unplaced] : [error.message]);
      return undefined;
    } finally {
      setSaving(false);
    }
  }, [api, client, def, fields, form, id, options, record, reload]);

  return {
    form,
    record,
    fields,
    loading: Boolean(id) && info.isLoading,
    loadError: info.error,
    saving,
    formError,
    isDirty,
    save,
    startNew,
    reload,
  };
}

export function FormErrorAlert({ messages }: { messages: string[] }) {
  if (!messages.length) return null;
  const unique = [...new Set(messages)];
  return (
    <Alert
      type="error"
      showIcon
      className="rk-form-alert"
      title={unique[0]}
      description={unique.length > 1 ? unique.slice(1).join('；') : undefined}
    />
  );
}

/** The whole form body: header fields in a grid, then one editable table per line. */
export function ResourceFormBody({
  def,
  state,
  overrides,
  locked,
  columns = 3,
  lineTitle,
  cells,
  lineFooter,
  lineColumns,
  shows,
}: {
  def: ResourceDef;
  state: ReturnType<typeof useResourceForm>;
  overrides?: FieldOverrides;
  locked?: readonly string[];
  columns?: 2 | 3;
  /** Wraps each line table (pages put them in cards). */
  lineTitle?: (title: string, content: ReactNode, key: string) => ReactNode;
  /** A module's own inputs for some line cells (`lines.locationId`). */
  cells?: LineCellOverrides;
  /** Shown under a line table (the totals of what was typed). */
  lineFooter?: (line: string) => ReactNode;
  /** Columns of a line table that are no field (可用). */
  lineColumns?: (line: string) => readonly LineExtraColumn[];
  /** Header fields that apply to what is typed so far (the others are not shown). */
  shows?: FieldShown;
}) {
  const lines = editableLines(def).map((line, i) => {
    const table = (
      <LineTableEditor
        key={line.name}
        line={line}
        form={state.form}
        def={i === 0 && !def.readonlyApi ? def : undefined}
        cells={cells}
        footer={lineFooter?.(line.name)}
        extraColumns={lineColumns?.(line.name)}
      />
    );
    return lineTitle ? (
      lineTitle(line.label, table, line.name)
    ) : (
      <div key={line.name} className="rk-form-section">
        <div className="rk-form-section-title">{line.label}</div>
        {table}
      </div>
    );
  });
  return (
    <>
      <FormErrorAlert messages={state.formError} />
      <div className={`rk-form-grid rk-cols-${columns}`}>
        <ResourceFormInputs
          def={def}
          form={state.form}
          record={state.record}
          fields={state.fields}
          overrides={overrides}
          locked={locked}
          shows={shows}
        />
      </div>
      {lines}
    </>
  );
}

/** Title of a form: 新增物料 / 编辑物料：轴承钢球（AX-B-10319）. */
export function formTitle(def: ResourceDef, record: ResourceRow | undefined, editing: boolean): string {
  if (!editing) return `新增${def.label}`;
  const name = recordTitle(def, record);
  return name ? `编辑${def.label}：${name}` : `编辑${def.label}`;
}

/**
 * Add/edit in a modal (dictionaries, resources without form pages, tree nodes): the same inputs
 * and rules as the form page.
 */
export function ResourceFormModal({
  def,
  open,
  id,
  onClose,
  onSaved,
  initialValues,
  locked,
  fields,
  overrides,
  title,
  submit,
  width,
}: {
  def: ResourceDef;
  open: boolean;
  id?: number;
  onClose: () => void;
  onSaved?: (row: ResourceRow) => void;
  initialValues?: Record<string, unknown>;
  locked?: readonly string[];
  fields?: readonly FieldDef[];
  overrides?: FieldOverrides;
  title?: string;
  submit?: (body: Record<string, unknown>) => Promise<ResourceRow>;
  width?: number;
}) {
  const state = useResourceForm(def, id, { initialValues, fields, submit, enabled: open });
  const hasLines = editableLines(def).length > 0;
  const ok = async () => {
    const saved = await state.save();
    if (saved) {
      onSaved?.(saved);
      onClose();
    }
  };
  return (
    <Modal
      title={title ?? formTitle(def, state.record, Boolean(id))}
      open={open}
      width={width ?? (hasLines ? 1000 : 720)}
      onOk={ok}
      onCancel={onClose}
      confirmLoading={state.saving}
      okText="保存"
      cancelText="取消"
      destroyOnHidden
      mask={{ closable: false }}
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto', paddingRight: 4 } }}
    >
      <Form
        form={state.form}
        name={`rk-modal-${def.name}`}
        layout="vertical"
        autoComplete="off"
        className="rk-form rk-modal-form"
        disabled={state.loading}
        data-testid={`form-${def.name}`}
      >
        <ResourceFormBody def={def} state={state} overrides={overrides} locked={locked} columns={2} />
      </Form>
    </Modal>
  );
}
