import {
  DOC_NO_PATTERN_VALUES,
  DOC_NO_PATTERNS,
  DOC_PREFIX_MESSAGE,
  DOC_PREFIX_REGEX,
  type DocNoPattern,
  docPrefixClash,
  formatDocNo,
  PAYABLE_SIDE,
  RECEIVABLE_SIDE,
  STOCK_DOC_PREFIX,
} from '@ringmes/domain';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { withoutAnswerOnly } from '../../platform/http/validation.ts';
import { businessDay, type DocNoRule, docNoRule } from '../../platform/numbering.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';
import { CHECK_PREFIX, MAINTENANCE_PREFIX, REPAIR_PREFIX } from '../factory/equipment-care.ts';
import { FLOW_CARD_PREFIX } from '../production/flow-card.ts';
import { PRODUCTION_ORDER_PREFIX } from '../production/production-order.ts';
import { WORK_REPORT_PREFIX } from '../production/work-report.ts';
import { DISPATCH_PREFIX } from '../production/workshop-task.ts';
import { OUTSOURCING_ORDER_PREFIX } from '../purchase/outsourcing-order.ts';
import { PURCHASE_ORDER_PREFIX } from '../purchase/purchase-order.ts';
import { REQUISITION_PREFIX } from '../purchase/requisition.ts';
import { INSPECTION_PREFIX } from '../quality/inspection.ts';
import { SALE_ORDER_PREFIX } from '../sales/sale-order.ts';
import { STOCK_UP_PREFIX } from '../sales/stock-up.ts';
import { DOCUMENT_PREFIX } from '../technology/technical-document.ts';

/**
 * Every numbered document type with the prefix the code passes to `nextDocNo`: that default
 * names the type (and its counter) for good; 系统设置 only changes what is printed.
 */
export const DOC_TYPES: { docType: string; defaultPrefix: string }[] = [
  { docType: '销售订单', defaultPrefix: SALE_ORDER_PREFIX },
  { docType: '备货单', defaultPrefix: STOCK_UP_PREFIX },
  { docType: '生产订单', defaultPrefix: PRODUCTION_ORDER_PREFIX },
  { docType: '派工单', defaultPrefix: DISPATCH_PREFIX },
  { docType: '流转卡', defaultPrefix: FLOW_CARD_PREFIX },
  { docType: '报工单', defaultPrefix: WORK_REPORT_PREFIX },
  { docType: '请购单', defaultPrefix: REQUISITION_PREFIX },
  { docType: '采购订单', defaultPrefix: PURCHASE_ORDER_PREFIX },
  { docType: '委外订单', defaultPrefix: OUTSOURCING_ORDER_PREFIX },
  { docType: '入库单', defaultPrefix: STOCK_DOC_PREFIX['stock-inbound'] },
  { docType: '出库单', defaultPrefix: STOCK_DOC_PREFIX['stock-outbound'] },
  { docType: '调拨单', defaultPrefix: STOCK_DOC_PREFIX['stock-transfer'] },
  { docType: '盘点单', defaultPrefix: STOCK_DOC_PREFIX.stocktake },
  { docType: '检验单', defaultPrefix: INSPECTION_PREFIX },
  { docType: '技术文档', defaultPrefix: DOCUMENT_PREFIX },
  { docType: '报修单', defaultPrefix: REPAIR_PREFIX },
  { docType: '保养记录', defaultPrefix: MAINTENANCE_PREFIX },
  { docType: '点检记录', defaultPrefix: CHECK_PREFIX },
  { docType: RECEIVABLE_SIDE.item.label, defaultPrefix: RECEIVABLE_SIDE.item.prefix },
  { docType: RECEIVABLE_SIDE.settle.label, defaultPrefix: RECEIVABLE_SIDE.settle.prefix },
  { docType: RECEIVABLE_SIDE.settle.refund.label, defaultPrefix: RECEIVABLE_SIDE.settle.refund.prefix },
  { docType: PAYABLE_SIDE.item.label, defaultPrefix: PAYABLE_SIDE.item.prefix },
  { docType: PAYABLE_SIDE.settle.label, defaultPrefix: PAYABLE_SIDE.settle.prefix },
  { docType: PAYABLE_SIDE.settle.refund.label, defaultPrefix: PAYABLE_SIDE.settle.refund.prefix },
];

const DEFAULTS = DOC_TYPES.map((d) => d.defaultPrefix) as [string, ...string[]];
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
 * followed by digits, so no two types can print the same number.
 */
export const docNumberingBody = z
  .array(
    withoutAnswerOnly(
      ['docType', 'example'],
      z.strictObject({
        defaultPrefix: z.enum(DEFAULTS, { error: '未知的单据类型' }),
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
