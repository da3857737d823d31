import {
  editableLines,
  type FieldDef,
  fieldOf,
  type LineDef,
  lineFilters,
  type ResourceDef,
  refLabelKey,
  withBusinessOffset,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { z } from 'zod';
import { dayInFuture, dayOfInstant, inFuture, isDay, outsideWindow } from '../date-window.ts';
import { AUDIT_KEYS, editBody, type RoundTrip, withoutAnswerOnly, zx } from '../http/validation.ts';
import { pagingFields } from '../paging.ts';
import { getBusinessTimeZone } from './query.ts';

const DIGITS: Record<string, [number, number]> = {
  quantity: [18, 4],
  money: [18, 2],
  price: [18, 6],
};

/** Precision and scale of a numeric field. */
export function numericShape(f: FieldDef): [number, number] | undefined {
  if (f.kind === 'decimal') return [18, f.scale ?? 4];
  return DIGITS[f.kind];
}

/**
 * Business bounds of a stored number by kind (docs/architecture.md, "Bounds on numbers and
 * dates"): far above any bearing factory's figure, far below what a numeric(18,x) column, a sum
 * of a month's documents or a product of two of them can hold. A declared `max`/`min` narrows them.
 */
export const NUMBER_BOUNDS = {
  quantity: 1_000_000_000,
  price: 1_000_000_000,
  money: 1_000_000_000_000,
  decimal: 1_000_000_000_000,
} as const;

/** A computed amount: a line's quantity × price, and a document's total of its lines. */
export const AMOUNT_MAX = 1_000_000_000_000;

/** 1000000000 → '1,000,000,000' (bounds in messages). */
export const grouped = (n: number | string) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The [min, max] a numeric field takes: its declared bounds within the business ones. */
export function numericBounds(f: FieldDef): [Decimal, Decimal] {
  const bound = NUMBER_BOUNDS[f.kind as keyof typeof NUMBER_BOUNDS];
  const floor = f.min ?? (f.kind === 'decimal' ? -bound : 0);
  return [Decimal.max(floor, -bound), Decimal.min(f.max ?? bound, bound)];
}

/**
 * An exact decimal given as a number or a string; answered as a normalised string so the
 * database does the arithmetic (numeric), never binary floating point.
 */
function decimal(f: FieldDef) {
  const [precision, scale] = numericShape(f) as [number, number];
  const intDigits = precision - scale;
  const [low, high] = numericBounds(f);
  return z.union([z.number(), z.string().trim()], { error: `${f.label}必须是数字` }).transform((v, ctx) => {
    const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
    const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(
      s.includes('e') || s.includes('E') ? Number(s).toFixed(scale) : s,
    );
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `${f.label}必须是数字` });
      return z.NEVER;
    }
    const [, sign, int, frac = ''] = m;
    if (int.replace(/^0+/, '').length > intDigits) {
      ctx.addIssue({ code: 'custom', message: `${f.label}超出允许范围` });
      return z.NEVER;
    }
    if (frac.replace(/0+$/, '').length > scale) {
      ctx.addIssue({ code: 'custom', message: `${f.label}最多 ${scale} 位小数` });
      return z.NEVER;
    }
    const n = new Decimal(`${sign}${int}.${frac || '0'}`);
    if (n.lt(low)) {
      ctx.addIssue({
        code: 'custom',
        message: low.isZero()
          ? `${f.label}不能为负数`
          : f.min !== undefined && low.eq(f.min)
            ? `${f.label}不能小于 ${f.min}`
            : `${f.label}不能小于 -${grouped(low.negated().toFixed())}`,
      });
      return z.NEVER;
    }
    if (n.gt(high)) {
      ctx.addIssue({
        code: 'custom',
        message:
          f.max !== undefined && high.eq(f.max)
            ? `${f.label}不能大于 ${f.max}`
            : `${f.label}不能超过 ${grouped(high.toFixed())}`,
      });
      return z.NEVER;
    }
    return `${sign === '-' ? '-' : ''}${int.replace(/^0+(?=\d)/, '')}${frac ? `.${frac}` : ''}`;
  });
}

/** The zod type of a resource's field `name` (a command body reusing the resource's rules). */
export function resourceFieldSchema(def: ResourceDef, name: string): z.ZodType {
  const f = def.fields.find((x) => x.name === name);
  if (!f) throw new Error(`${def.name} has no field ${name}`);
  return fieldSchema(f);
}

/** The zod type of one field's value in a body (without required/optional handling). */
export function fieldSchema(f: FieldDef): z.ZodType {
  switch (f.kind) {
    case 'text':
    case 'textarea': {
      const max = f.max ?? (f.kind === 'text' ? 100 : 2000);
      let s = z
        .string({ error: `${f.label}必须是文本` })
        .trim()
        .max(max, `${f.label}不能超过 ${max} 个字符`);
      if (f.min) s = s.min(f.min, `${f.label}至少 ${f.min} 个字符`);
      if (f.pattern) s = s.regex(new RegExp(f.pattern.regex), f.pattern.message);
      return s;
    }
    case 'int': {
      let n = z.number({ error: `${f.label}必须是整数` }).int(`${f.label}必须是整数`);
      n = n.min(f.min ?? -2_147_483_648, `${f.label}不能小于 ${f.min ?? -2_147_483_648}`);
      n = n.max(f.max ?? 2_147_483_647, `${f.label}不能大于 ${f.max ?? 2_147_483_647}`);
      return n;
    }
    case 'decimal':
    case 'quantity':
    case 'money':
    case 'price':
      return decimal(f);
    case 'date':
      // A stored business day lies in the date window (platform/date-window.ts); `notFuture`: not after today.
      return z
        .string({ error: `${f.label}必须是日期` })
        .regex(/^\d{4}-\d{2}-\d{2}$/, `${f.label}格式应为 YYYY-MM-DD`)
        .refine(isDay, { message: `${f.label}不是有效日期`, abort: true })
        .superRefine((s, ctx) => {
          const why = outsideWindow(s, f.label) ?? (f.notFuture ? dayInFuture(s, f.label) : undefined);
          if (why) ctx.addIssue({ code: 'custom', message: why });
        });
    case 'datetime':
      return (
        z
          .string({ error: `${f.label}必须是时间` })
          .regex(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/, `${f.label}格式应为 YYYY-MM-DD HH:mm:ss`)
          .refine((s) => !Number.isNaN(Date.parse(s.replace(' ', 'T'))), `${f.label}不是有效时间`)
          // Typed without an offset: a wall-clock time of the factory, not UTC.
          .transform((s) => withBusinessOffset(s, getBusinessTimeZone()))
          // Its business day in the date window; `notFuture` (a measuring time): not later than now.
          .superRefine((s, ctx) => {
            const why =
              outsideWindow(dayOfInstant(s), f.label) ?? (f.notFuture ? inFuture(s, f.label) : undefined);
            if (why) ctx.addIssue({ code: 'custom', message: why });
          })
      );
    case 'boolean':
      return z.boolean({ error: `${f.label}必须是是/否` });
    case 'enum': {
      const values = (f.options ?? []).map((o) => o.value);
      return z
        .union([z.string(), z.number()])
        .transform((v) => String(v))
        .refine(
          (v) => values.includes(v),
          `${f.label}只能是：${(f.options ?? []).map((o) => o.label).join('、')}`,
        );
    }
    case 'ref':
      return z.coerce
        .number({ error: `${f.label}必须是记录编号` })
        .int(`${f.label}不正确`)
        .positive(`${f.label}不正确`)
        .max(Number.MAX_SAFE_INTEGER);
    case 'refs':
      return z
        .array(z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER), {
          error: `${f.label}必须是编号列表`,
        })
        .max(500, `${f.label}最多 500 项`);
    case 'json':
      return z.record(z.string().max(60), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]), {
        error: `${f.label}必须是对象`,
      });
  }
}

/** A field's label and help as its schema's title and description (the OpenAPI document shows them). */
const described = (f: FieldDef) => ({ title: f.label, ...(f.help ? { description: f.help } : {}) });

function bodyShape(fields: FieldDef[], mode: 'create' | 'update') {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    if (f.readonly) continue;
    let s = fieldSchema(f);
    if (mode === 'create' && f.required) {
      if (f.kind === 'text' || f.kind === 'textarea') s = (s as z.ZodString).min(1, `请输入${f.label}`);
      shape[f.name] = s.meta(described(f));
    } else {
      // Empty strings and null clear an optional value.
      shape[f.name] = (
        f.required ? s.optional() : z.union([z.literal('').transform(() => null), z.null(), s]).optional()
      ).meta(described(f));
    }
  }
  return shape;
}

/** What the server answers about fields but never takes: readonly values and reference labels. */
function answerOnlyOf(fields: FieldDef[]): string[] {
  return fields.flatMap((f) => [
    ...(f.readonly ? [f.name] : []),
    ...(f.kind === 'ref' || f.kind === 'refs' ? [refLabelKey(f)] : []),
  ]);
}

/**
 * The round-trip rule of a resource's edit (see `RoundTrip`): audit columns, readonly fields
 * (document number, totals, approval) and reference labels are dropped; `id` must be the
 * record's own, and a document's `status` may come back only as it is (states move through
 * their transitions, never through an edit: architecture.md refuses a `status` in a body).
 */
export function resourceRoundTrip(def: ResourceDef): RoundTrip {
  const status = def.fields.some((f) => f.name === 'status' && f.readonly);
  return {
    answerOnly: [
      ...AUDIT_KEYS,
      ...answerOnlyOf(def.fields).filter((k) => !(status && k === 'status')),
      // Lines only the server writes (a production order's frozen BOM and requirements).
      ...(def.lines ?? []).filter((l) => l.readonly).map((l) => l.name),
    ],
    fixed: status ? { id: '记录编号', status: '状态' } : { id: '记录编号' },
  };
}

/** A line as answered carries its parent, its number, audit columns, readonly values and labels. */
function lineAnswerOnly(line: LineDef): string[] {
  return [fieldOf(line.parentColumn), 'lineNo', ...AUDIT_KEYS, ...answerOnlyOf(line.fields)];
}

/** One new line as the save takes it (a line import validates each row with it). */
export function lineItemSchema(line: LineDef) {
  return z.strictObject(bodyShape(line.fields, 'create'));
}

function lineSchema(line: LineDef, mode: 'create' | 'update') {
  const strict = z.strictObject({
    // Lines are saved whole: a line's id is accepted back and not kept.
    id: z.number().int().positive().optional(),
    ...bodyShape(line.fields, 'create'),
  });
  const item = mode === 'update' ? withoutAnswerOnly(lineAnswerOnly(line), strict) : strict;
  let arr = z
    .array(item, { error: `${line.label}必须是列表` })
    .max(line.max ?? 1000, `${line.label}最多 ${line.max ?? 1000} 行`);
  if (line.min) arr = arr.min(line.min, `${line.label}至少需要 ${line.min} 行`);
  return arr;
}

export interface ResourceSchemas {
  create: z.ZodType<Record<string, any>>;
  /** The edit body of `edit/{id}`, under the round-trip rule (a sent `id` must be the record's). */
  update: z.ZodType<Record<string, any>>;
  /** The edit body that names its record (`POST edit` with `id` in the body). */
  updateById: z.ZodType<Record<string, any> & { id: number }>;
  query: z.ZodType<Record<string, any>>;
}

/** Built once per resource (the routes, the exports and the imports share them). */
const built = new WeakMap<ResourceDef, ResourceSchemas>();

export function resourceSchemas(def: ResourceDef): ResourceSchemas {
  let schemas = built.get(def);
  if (!schemas) {
    schemas = buildSchemas(def);
    built.set(def, schemas);
  }
  return schemas;
}

/**
 * The same schemas for registering routes: each is built when its resource is first called, not
 * while the server starts (building every resource's schemas was a noticeable part of each start).
 */
export function lazyResourceSchemas(def: ResourceDef): ResourceSchemas {
  return {
    create: z.lazy(() => resourceSchemas(def).create),
    update: z.lazy(() => resourceSchemas(def).update),
    updateById: z.lazy(() => resourceSchemas(def).updateById),
    query: z.lazy(() => resourceSchemas(def).query),
  };
}

function buildSchemas(def: ResourceDef): ResourceSchemas {
  const lines = Object.fromEntries(
    editableLines(def).map((l) => [
      l.name,
      l.min ? lineSchema(l, 'create') : lineSchema(l, 'create').optional(),
    ]),
  );
  const optionalLines = Object.fromEntries(
    editableLines(def).map((l) => [l.name, lineSchema(l, 'update').optional()]),
  );
  const create = z.strictObject({ ...bodyShape(def.fields, 'create'), ...lines });
  const editShape = { ...bodyShape(def.fields, 'update'), ...optionalLines, version: zx.version };
  const rule = resourceRoundTrip(def);
  const update = editBody(editShape, rule);
  const updateById = editBody({ ...editShape, id: zx.id }, { answerOnly: rule.answerOnly });
  const q: Record<string, z.ZodType> = {
    ...pagingFields,
    keyword: z.string().trim().max(100).optional(),
    // The rows chosen in a list (导出所选, issue 41 §6): ids separated by commas.
    ids: z
      .string()
      .regex(/^[1-9]\d{0,15}(,[1-9]\d{0,15}){0,499}$/, '所选记录应为以逗号分隔的编号，最多 500 个')
      .optional(),
    // Rows changed after this moment (issue 44 §5; `…/changes` pages them with a cursor).
    updatedSince: z.iso
      .datetime({ offset: true, error: '更新时间格式不正确，应为 ISO 8601（如 2026-11-29T08:00:00+08:00）' })
      .optional(),
  };
  const filters = [...def.fields, ...lineFilters(def).map((x) => x.field)];
  for (const f of filters) {
    const mode =
      f.filter ??
      (f.name === 'status' || (def.activeField && f.name === def.activeField.name) ? 'eq' : undefined);
    if (mode) Object.assign(q, filterSchema(f, mode));
  }
  if (def.parentField) q[def.parentField] ??= z.coerce.number().int().positive().optional();
  return { create, update, updateById, query: z.strictObject(q) };
}

/** One value of a field as answers carry it (numeric columns come back as exact decimal strings). */
function answerValue(f: FieldDef): z.ZodType {
  switch (f.kind) {
    case 'int':
      return z.number().int();
    case 'decimal':
    case 'quantity':
    case 'money':
    case 'price':
      return z.union([z.string(), z.number()]);
    case 'boolean':
      return z.boolean();
    case 'ref':
      return z.number().int();
    case 'refs':
      return z.array(z.number().int());
    case 'json':
      return z.record(z.string(), z.unknown());
    default:
      return z.string();
  }
}

/** The fields of a row in an answer: each may be null or left out (confidential values are hidden). */
function answerShape(fields: FieldDef[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of fields) {
    shape[f.name] = answerValue(f).nullable().optional().meta(described(f));
    if (f.kind === 'ref' || f.kind === 'refs')
      shape[refLabelKey(f)] = z
        .union([z.string(), z.array(z.string())])
        .nullable()
        .optional()
        .meta({ title: `${f.label}（名称）` });
  }
  return shape;
}

const rows = new WeakMap<ResourceDef, z.ZodType>();
/** A record of the resource as `info`, `add`, `edit` and each row of `page` answer it (the OpenAPI document's shape). */
export function answerRowSchema(def: ResourceDef): z.ZodType {
  let row = rows.get(def);
  if (!row) {
    const lines = Object.fromEntries(
      (def.lines ?? []).map((l) => [
        l.name,
        z.array(z.looseObject({ id: z.number().int().optional(), ...answerShape(l.fields) })).optional(),
      ]),
    );
    row = z
      .looseObject({ id: z.number().int(), ...answerShape(def.fields), ...lines })
      .meta({ title: def.label });
    rows.set(def, row);
  }
  return row;
}

/** A page of records: `{ list, total, pageNum, pageSize }`. */
export function answerPageSchema(row: z.ZodType): z.ZodType {
  return z.object({
    list: z.array(row),
    total: z.number().int(),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    /** Present (false) when more rows match than a page counts: `total` is then a lower bound. */
    totalExact: z.boolean().optional(),
  });
}

/** Query parameters of one filter: `<name>`, or `<name>From` / `<name>To` for a range. */
function filterSchema(f: FieldDef, mode: NonNullable<FieldDef['filter']>): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  if (mode === 'range') {
    const bound =
      f.kind === 'date' || f.kind === 'datetime'
        ? z.string().regex(/^\d{4}-\d{2}-\d{2}/, `${f.label}格式应为 YYYY-MM-DD`)
        : z.coerce.number({ error: `${f.label}必须是数字` });
    out[`${f.name}From`] = bound.optional();
    out[`${f.name}To`] = bound.optional();
  } else if (f.kind === 'ref' || f.kind === 'refs') {
    out[f.name] = z.coerce
      .number({ error: `${f.label}必须是记录编号` })
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional();
  } else if (f.kind === 'boolean') {
    out[f.name] = z.enum(['true', 'false'], { error: `${f.label}只能是 true 或 false` }).optional();
  } else if (f.kind === 'int') {
    out[f.name] = z.coerce.number().int().optional();
  } else {
    out[f.name] = z
      .string()
      .trim()
      .max(f.max ?? 100)
      .optional();
  }
  for (const k of Object.keys(out)) out[k] = out[k].meta(described(f));
  return out;
}
