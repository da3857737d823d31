import {
  DOC_NO_PATTERN_VALUES,
  DOC_NO_PATTERNS,
  DOC_PREFIX_MESSAGE,
  DOC_PREFIX_REGEX,
  type DocNoPattern,
  type DocType,
  docPrefixClash,
  docTypesOf,
  formatDocNo,
  RESOURCES,
} from '@ringmes/domain';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { withoutAnswerOnly } from '../../platform/http/validation.ts';
import { businessDay, type DocNoRule, docNoRule } from '../../platform/numbering.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';

/**
 * Every numbered document type, as the resource declarations give them (`numbering`, in menu
 * order): the default prefix the code numbers a type by names it (and its counter) for good;
 * 系统设置 only changes what is printed. A registry test checks that every resource with a `docNo`
 * declares one, with unique prefixes. A numbered document without a resource would be added here.
 */
const DOC_TYPES: DocType[] = docTypesOf(RESOURCES);
/** The change body, built from the types (`docNumberingBody`). */
let body: ReturnType<typeof makeBody> | undefined;

const docTypeOf = (defaultPrefix: string) =>
  DOC_TYPES.find((d) => d.defaultPrefix === defaultPrefix)?.docType ?? defaultPrefix;

/** One row of 单据编号: the type, its default and current prefix and pattern, and an example number. */
export interface DocNumberingRow extends DocNoRule {
  docType: string;
  defaultPrefix: string;
  example: string;
}

/** The rules as stored: only the types that differ from the default (`XS` daily). */
export type StoredDocNumbering = Record<string, DocNoRule>;

export async function readDocNumbering(db: Db): Promise<DocNumberingRow[]> {
  const stored = (await readSettings(db, [SETTING_KEYS.docNumbering])).get(SETTING_KEYS.docNumbering);
  const today = businessDay();
  return DOC_TYPES.map((d) => {
    const rule = docNoRule(stored, d.defaultPrefix);
    return { ...d, ...rule, example: formatDocNo(rule.prefix, rule.pattern, today, 1) };
  });
}

/** What to store for a full list of rules: the ones that differ from the default. */
export function storedDocNumbering(
  rules: { defaultPrefix: string; prefix: string; pattern: DocNoPattern }[],
) {
  const out: StoredDocNumbering = {};
  for (const r of rules)
    if (r.prefix !== r.defaultPrefix || r.pattern !== 'daily')
      out[r.defaultPrefix] = { prefix: r.prefix, pattern: r.pattern };
  return out;
}

const PATTERN_MESSAGE = `编号格式只能是 ${DOC_NO_PATTERNS.map((p) => p.label).join('、')} 之一`;

/**
 * The body of a change: every document type once, as `GET docPrefixes` answers it (the type's
 * name and the example are answer-only). Prefixes are unique across types, and none is another
 * followed by digits, so no two types can print the same number. Built once, when the route is
 * registered.
 */
export function docNumberingBody() {
  body ??= makeBody(DOC_TYPES.map((d) => d.defaultPrefix) as [string, ...string[]]);
  return body;
}

const makeBody = (defaults: [string, ...string[]]) =>
  z
    .array(
      withoutAnswerOnly(
        ['docType', 'example'],
        z.strictObject({
          defaultPrefix: z.enum(defaults, { error: '未知的单据类型' }),
          prefix: z
            .string({ error: '请输入前缀' })
            .trim()
            .min(1, { error: '请输入前缀', abort: true })
            .regex(DOC_PREFIX_REGEX, DOC_PREFIX_MESSAGE),
          pattern: z.enum(DOC_NO_PATTERN_VALUES, { error: PATTERN_MESSAGE }),
        }),
      ),
      { error: '请提交各类单据的编号规则列表' },
    )
    .superRefine((rules, ctx) => {
      const seen = new Set<string>();
      rules.forEach((r, i) => {
        if (seen.has(r.defaultPrefix))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'defaultPrefix'],
            message: `${docTypeOf(r.defaultPrefix)}只能出现一次`,
          });
        seen.add(r.defaultPrefix);
      });
      const missing = DOC_TYPES.filter((d) => !seen.has(d.defaultPrefix));
      if (missing.length)
        ctx.addIssue({
          code: 'custom',
          path: [],
          message: `缺少单据类型：${missing.map((d) => d.docType).join('、')}`,
        });
      // Both sides of a clash are marked: the message names the other type.
      rules.forEach((r, i) => {
        for (const o of rules) {
          if (o.defaultPrefix === r.defaultPrefix) continue;
          const clash = docPrefixClash(r.prefix, { docType: docTypeOf(o.defaultPrefix), prefix: o.prefix });
          if (clash) {
            ctx.addIssue({
              code: 'custom',
              path: [i, 'prefix'],
              message: `${docTypeOf(r.defaultPrefix)}：${clash}`,
            });
            break;
          }
        }
      });
    });
