import { z } from 'zod';
import { isDay, monthOutsideWindow, outsideWindow } from '../date-window.ts';
import { AppError, type FieldError } from '../errors.ts';

z.config(z.locales.zhCN());

/** Turns a zod failure into the 400 envelope's field errors, in Chinese. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ field: [...issue.path, key].join('.'), message: `不允许提交字段 ${key}` });
      }
      continue;
    }
    // An optional field is '' | null | its schema: when all three fail, say why its schema did
    // (「单价不能超过 1,000,000,000」), not zod's 「无效输入」.
    if (issue.code === 'invalid_union') {
      const own = issue.errors.find(
        (b) => b.length && !b.every((i) => i.code === 'invalid_type' || i.code === 'invalid_value'),
      );
      if (own) {
        for (const i of own)
          out.push({
            field: [...issue.path, ...i.path].map(String).join('.') || '(body)',
            message: i.message,
          });
        continue;
      }
    }
    const field = issue.path.map(String).join('.') || '(body)';
    const missing = issue.code === 'invalid_type' && (issue as any).input === undefined;
    out.push({ field, message: missing ? '不能为空' : issue.message });
  }
  return out;
}

export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  // reportInput: tells a missing value (不能为空) from one of the wrong type.
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return r.data;
  const errors = toFieldErrors(r.error);
  const first = errors[0];
  const message =
    first.field === '(body)'
      ? `${what}格式不正确：${first.message}`
      : `参数校验失败：${first.field} ${first.message}`;
  throw new AppError(400, '400', message, errors);
}

/**
 * The round trip of an edit: a client reads a record (info, a page row, a tree node), changes
 * a field and sends the whole object back. One rule for every edit body:
 * - `answerOnly` keys — what the server answers but never takes: audit columns, labels of
 *   references (`deptName`), derived values, nested trees (`childDept`), server-managed states
 *   and totals — are dropped from the body whatever they hold, so nothing server-managed is ever
 *   assigned from it;
 * - `fixed` keys (the record's id, a user name) are accepted only unchanged: `refuseChanged`
 *   answers 400 naming each one that differs from the stored record;
 * - every other key must be in the schema: an unknown field stays a 400.
 */
export interface RoundTrip {
  answerOnly: readonly string[];
  /** Key → its Chinese name, for the refusal 「用户名不能修改」. */
  fixed?: Readonly<Record<string, string>>;
}

/** Audit columns every record answers: never taken from a body. */
export const AUDIT_KEYS = [
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
  'createdByName',
  'updatedByName',
];

/** Drops the answer-only keys of an object before `schema` sees it (strict schemas then refuse the rest). */
export function withoutAnswerOnly<T>(answerOnly: readonly string[], schema: z.ZodType<T>): z.ZodType<T> {
  const drop = new Set(answerOnly);
  return z.preprocess((v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    // Spread defines own properties (a JSON `__proto__` key stays a plain key), then the drop.
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const k of drop) delete out[k];
    return out;
  }, schema) as unknown as z.ZodType<T>;
}

/** Where an edit body keeps the fixed values it was sent (not enumerable: never spread into a row). */
const FIXED = Symbol('fixed');

/**
 * An edit body under the round-trip rule: `shape`, strict, with the answer-only keys dropped.
 * The fixed keys are taken out of the parsed body (a handler can never store them) and kept
 * for `refuseChanged`.
 */
export function editBody<S extends z.ZodRawShape>(
  shape: S,
  rule: RoundTrip,
): z.ZodType<z.output<z.ZodObject<S, z.core.$strict>>> {
  const keys = Object.keys(rule.fixed ?? {});
  const fixed = Object.fromEntries(keys.map((k) => [k, z.unknown().optional()]));
  const strict = z.strictObject({ ...fixed, ...shape }).transform((v: Record<string, unknown>) => {
    const sent: Record<string, unknown> = {};
    const out: Record<string, unknown> = { ...v };
    for (const k of keys) {
      if (out[k] !== undefined) sent[k] = out[k];
      delete out[k];
    }
    Object.defineProperty(out, FIXED, { value: sent, enumerable: false });
    return out;
  });
  return withoutAnswerOnly(rule.answerOnly, strict) as any;
}

const sameValue = (a: unknown, b: unknown) => a === b || String(a ?? '').trim() === String(b ?? '').trim();

/**
 * The fixed keys of a round trip must come back as stored (or not at all): refuses (400) naming
 * each one an `editBody` was sent changed.
 */
export function refuseChanged(body: object, stored: Record<string, any>, rule: RoundTrip): void {
  const sent: Record<string, unknown> = (body as any)[FIXED] ?? {};
  const errors: FieldError[] = [];
  for (const [key, label] of Object.entries(rule.fixed ?? {})) {
    if (key in sent && !sameValue(sent[key], stored[key]))
      errors.push({ field: key, message: `${label}不能修改` });
  }
  if (errors.length) throw new AppError(400, '400', errors.map((e) => e.message).join('；'), errors);
}

/** Where in a parsed query, path or body a string (value or key) holds U+0000, which PostgreSQL text cannot store. */
function nulAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (k.includes('\u0000')) return at;
    const found = nulAt(v, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * A `preValidation` hook for every route: a NUL character anywhere in the input is a 400,
 * before any route's schema or the database sees it.
 */
export function refuseNul(
  req: { query: unknown; params: unknown; body: unknown },
  _reply: unknown,
  done: (err?: Error) => void,
) {
  // A callback hook: an async one would cost every request a promise and its turn of the queue.
  for (const value of [req.params, req.query, req.body]) {
    const field = nulAt(value, '');
    if (field !== undefined) {
      const message = '不能包含空字符';
      return done(
        new AppError(400, '400', `参数校验失败：${field || '(body)'} ${message}`, [
          { field: field || '(body)', message },
        ]),
      );
    }
  }
  done();
}

/** The deepest nesting of arrays and objects a JSON body may have (business bodies need about 5). */
export const MAX_JSON_DEPTH = 32;

/**
 * Does a JSON text nest arrays and objects deeper than `max`? One pass over the text, without
 * recursion and before anything parses it (brackets inside strings do not count).
 */
export function jsonTooDeep(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Reusable field schemas with Chinese messages. */
export const zx = {
  id: z.coerce
    .number({ error: '必须是数字' })
    .int('必须是整数')
    .positive('必须是正整数')
    .max(Number.MAX_SAFE_INTEGER, '数值过大'),
  text: (max: number) => z.string().trim().max(max, `不能超过 ${max} 个字符`),
  required: (max: number) => z.string().trim().min(1, '不能为空').max(max, `不能超过 ${max} 个字符`),
  flag: z.enum(['0', '1'], { error: "只能是 '0' 或 '1'" }),
  version: z.number().int().positive().optional(),
  pageNum: z.coerce
    .number({ error: '必须是数字' })
    .int('必须是整数')
    .min(0, '不能小于 0')
    .max(1_000_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: '必须是数字' })
    .int('必须是整数')
    .min(1, '不能小于 1')
    .max(500, '不能大于 500')
    .default(20),
  sortOrder: z.enum(['asc', 'desc', 'ascend', 'descend'], { error: '只能是 asc 或 desc' }).optional(),
  /**
   * A day a custom route stores (a document's 业务日期): YYYY-MM-DD, a real day, inside the date
   * window (platform/date-window.ts). Days that only search (report ranges) take a plain pattern.
   */
  businessDay: (label: string) =>
    z
      .string({ error: `${label}必须是日期` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}格式应为 YYYY-MM-DD`)
      .refine(isDay, { message: `${label}不是有效日期`, abort: true })
      .superRefine((s, ctx) => {
        const why = outsideWindow(s, label);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      }),
  /** A month a custom route acts on for good (工资结账): YYYY-MM, inside the date window. */
  businessMonth: (label: string) =>
    z
      .string({ error: `${label}必须是月份` })
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: `${label}格式应为 YYYY-MM`, abort: true })
      .superRefine((s, ctx) => {
        const why = monthOutsideWindow(s, label);
        if (why) ctx.addIssue({ code: 'custom', message: why });
      }),
};

export const idParams = z.strictObject({ id: zx.id });
