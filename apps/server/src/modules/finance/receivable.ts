import { AGING_BUCKETS, RECEIPT_METHODS, type ResourceDef, resourceByName } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { zx } from '../../platform/http/validation.ts';
import { withRetry } from '../../platform/idempotency.ts';
import { businessDay, dayInstant, nextDocNo } from '../../platform/numbering.ts';
import type { ResourceEntry } from '../../platform/resource/area.ts';
import { createRecord, type ResourceHooks } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import {
  lifecycleHooks,
  runTransition,
  type TransitionHandlers,
  type TransitionResult,
} from '../../platform/resource/lifecycle.ts';
import { fieldSchema } from '../../platform/resource/schema.ts';
import { SETTING_KEYS, settingOn } from '../../platform/settings.ts';
import { AP, AR, applySettlement, checkSettleTotal, dueDateFor, type SideSql } from './ledger.ts';

/**
 * 应收管理 / 应付管理: the hooks of the items (manual ones: 草稿 → 审核) and of the receipts and
 * payments (确认 applies them, 反确认 takes them off), the aging by party, the statement of a party
 * for a period (printed and exported), and 收款 / 付款 in one step from the item list.
 */

const defOf = (name: string) => resourceByName(name) as ResourceDef;
const t = (name: string) => sql.table(name);
const c = (name: string) => sql.ref(name);
const D = (v: Decimal.Value | null | undefined) => new Decimal(v ?? 0);
const money = (v: Decimal.Value | null | undefined) => D(v).toFixed(2);
/** A business date from a body: the kit's default `today` is today. */
const dayOf = (v: unknown): string => (typeof v === 'string' && /^\d{4}-/.test(v) ? v : businessDay());
const partyField = (s: SideSql) => s.side.party.field;

function itemHooks(s: SideSql): ResourceHooks {
  const def = defOf(s.side.item.name);
  return lifecycleHooks(def, {
    async prepare({ db }, data) {
      const bizDate = dayOf(data.bizDate);
      return {
        docNo: await nextDocNo(db, s.side.item.prefix, undefined, dayInstant(bizDate)),
        bizDate,
        sourceType: 'manual',
        settledAmount: 0,
      };
    },
    async validate(_ctx, data) {
      if (D(data.amount).isZero()) throw fieldError('amount', '金额不能为 0');
      if (data.dueDate && data.bizDate && data.dueDate < data.bizDate)
        throw fieldError('dueDate', '到期日不能早于业务日期');
    },
    async afterSave({ db }, id) {
      const r = await sql<{ partyId: number; bizDate: string; dueDate: string | null }>`
        SELECT ${c(s.party)} AS party_id, biz_date, due_date FROM ${t(s.item)} WHERE id = ${id}`.execute(db);
      const row = r.rows[0];
      if (row && !row.dueDate) {
        const due = await dueDateFor(db, s, row.partyId, row.bizDate);
        await sql`UPDATE ${t(s.item)} SET due_date = ${due}::date WHERE id = ${id}`.execute(db);
      }
    },
  });
}

const itemTransitions = (s: SideSql): Record<string, TransitionHandlers> => ({
  unapprove: {
    // Automatic items are refused by the declared `when` (sourceType manual) before this runs.
    async guard({ record }) {
      if (!D(record.settledAmount).isZero())
        throw conflict(
          `${s.side.item.label} ${record.docNo} 已${s.side.settle.verb}，请先反确认${s.side.settle.label}`,
        );
    },
  },
});

function settleHooks(s: SideSql): ResourceHooks {
  const def = defOf(s.side.settle.name);
  const ref = `${s.side.item.name}Id`;
  return lifecycleHooks(def, {
    async prepare({ db }, data) {
      const bizDate = dayOf(data.bizDate);
      const prefix = data.kind === 'refund' ? s.side.settle.refund.prefix : s.side.settle.prefix;
      return { bizDate, docNo: await nextDocNo(db, prefix, undefined, dayInstant(bizDate)) };
    },
    async validate({ db }, data) {
      const lines: any[] = data.lines ?? [];
      const seen = new Set<number>();
      lines.forEach((l, i) => {
        if (seen.has(l[ref]))
          throw badRequest(`第 ${i + 1} 行：同一${s.side.item.label}只能出现一次`, [
            { field: `lines.${i}.${ref}`, message: `同一${s.side.item.label}只能出现一次` },
          ]);
        seen.add(l[ref]);
        if (D(l.amount).isZero())
          throw badRequest(`第 ${i + 1} 行：本次${s.side.settle.verb}金额不能为 0`, [
            { field: `lines.${i}.amount`, message: '不能为 0' },
          ]);
      });
      if (!lines.length) return;
      const items = await sql<{ id: number; docNo: string; partyId: number; status: string; amount: string }>`
        SELECT id, doc_no, ${c(s.party)} AS party_id, status, amount::text AS amount FROM ${t(s.item)}
         WHERE id = ANY(${sql.val(lines.map((l) => l[ref]))}::bigint[])`.execute(db);
      const byId = new Map(items.rows.map((r) => [r.id, r]));
      lines.forEach((l, i) => {
        const item = byId.get(l[ref]);
        const bad = (message: string) =>
          badRequest(`第 ${i + 1} 行：${message}`, [{ field: `lines.${i}.${ref}`, message }]);
        if (!item) throw bad(`${s.side.item.label}不存在`);
        if (item.partyId !== data[partyField(s)])
          throw bad(`${s.side.item.label} ${item.docNo} 不属于所选${s.side.party.label}`);
        if (item.status === 'draft' || item.status === 'reversed')
          throw bad(
            `${s.side.item.label} ${item.docNo} ${item.status === 'draft' ? '未审核' : '已冲销'}，不能${s.side.settle.verb}`,
          );
        if (data.kind === 'refund' && !D(item.amount).isNeg()) throw bad(refundOnlyNegative(s, item.docNo));
      });
      if (data.kind)
        checkSettleTotal(
          s,
          data.kind,
          lines.map((l) => l.amount),
        );
    },
    async afterSave({ db }, id) {
      await sql`UPDATE ${t(s.settle)} h SET amount = COALESCE((SELECT sum(amount) FROM ${t(s.settleLine)} l
                  WHERE ${c(`l.${s.settle}_id`)} = h.id), 0) WHERE h.id = ${id}`.execute(db);
    },
  });
}

const refundOnlyNegative = (s: SideSql, docNo: string) =>
  `${s.side.settle.refund.label}只核销负数${s.side.item.label}（退货、多${s.side.settle.verb}），${docNo} 不是`;

/** Maker ≠ checker for receipts and payments (系统设置 → 职责分离), on unless switched off. */
const checkerMustNotBeMaker = (db: Db) => settingOn(db, SETTING_KEYS.checkerNotMaker, true);

const settleTransitions = (s: SideSql): Record<string, TransitionHandlers> => ({
  approve: {
    // Money moves on 确认: who entered the document does not confirm it too.
    async guard({ db, user, record }) {
      if (Number(record.createdBy) === user.id && (await checkerMustNotBeMaker(db)))
        throw conflict(
          `收付款确认人不得为制单人（系统设置 → 职责分离）：${s.side.settle.label} ${record.docNo} 由您制单，请由他人确认`,
        );
    },
    effect: ({ db, record }) => applySettlement(db, s, record.id, 1),
  },
  unapprove: { effect: ({ db, record }) => applySettlement(db, s, record.id, -1) },
});

/**
 * A receipt / payment saved by `user` and confirmed at once by `checker` (收款 from the list, the
 * demo). When the checker is the maker and 职责分离 forbids it, the document stays a draft for
 * someone else to confirm: the answer's status says which.
 */
export async function settleNow(
  db: Db,
  user: AuthUser,
  s: SideSql,
  body: Record<string, unknown>,
  requestId?: string,
  checker: AuthUser = user,
): Promise<TransitionResult> {
  const def = defOf(s.side.settle.name);
  // Lock the items first, in id order: the lines' foreign keys would otherwise take share locks
  // that two concurrent receipts then both wait on (a deadlock on PostgreSQL).
  const ids = ((body.lines as Record<string, unknown>[] | undefined) ?? [])
    .map((l) => Number(l[`${s.side.item.name}Id`]))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (ids.length)
    await sql`SELECT id FROM ${t(s.item)} WHERE id = ANY(${sql.val(ids)}::bigint[]) ORDER BY id FOR UPDATE`.execute(
      db,
    );
  const id = await createRecord({ db, user, def }, body, FINANCE_HOOKS[s.side.settle.name], requestId);
  if (checker.id === user.id && (await checkerMustNotBeMaker(db))) {
    const r = await sql<{ docNo: string; version: number }>`
      SELECT doc_no, version FROM ${t(s.settle)} WHERE id = ${id}`.execute(db);
    return { id, docNo: r.rows[0].docNo, status: 'draft', version: Number(r.rows[0].version) };
  }
  return runTransition(db, checker, def, 'approve', id, {}, settleTransitions(s).approve, requestId);
}

export const FINANCE_HOOKS: Record<string, ResourceHooks> = {
  receivable: itemHooks(AR),
  payable: itemHooks(AP),
  receipt: settleHooks(AR),
  payment: settleHooks(AP),
};

/** 应收单/应付单 and 收款单/付款单: their hooks and transition effects, both sides alike. */
export const RECEIVABLES: ResourceEntry[] = [AR, AP].flatMap((s) => [
  { def: defOf(s.side.item.name), hooks: FINANCE_HOOKS[s.side.item.name], transitions: itemTransitions(s) },
  {
    def: defOf(s.side.settle.name),
    hooks: FINANCE_HOOKS[s.side.settle.name],
    transitions: settleTransitions(s),
  },
]);

// ------------------------------------------------------------------ aging

const dateString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');

const agingQuery = (s: SideSql) =>
  z.strictObject({
    asOf: dateString.optional(),
    [partyField(s)]: zx.id.optional(),
    overdueOnly: z.enum(['0', '1'], { error: "只能是 '0' 或 '1'" }).optional(),
    pageNum: zx.pageNum,
    pageSize: zx.pageSize,
  });

type AgingQuery = { asOf?: string; overdueOnly?: '0' | '1'; pageNum: number; pageSize: number } & Record<
  string,
  any
>;

const BUCKET_SQL = {
  notDue: sql`d < 0`,
  days30: sql`d BETWEEN 0 AND 30`,
  days60: sql`d BETWEEN 31 AND 60`,
  days90: sql`d BETWEEN 61 AND 90`,
  over90: sql`d > 90`,
};

/**
 * The open amounts of each party by days past due on `asOf` (未到期, 0–30, 31–60, 61–90, > 90),
 * largest total first, paged, with the totals of all parties.
 *
 * Today (or later) it reads the partial index of open items only. At a past date it rebuilds
 * what was open then: the items dated on or before `asOf` that were not yet reversed (reversal
 * day after `asOf`), each at what is open now plus what confirmed settlements dated after `asOf`
 * applied to it since — read from the application rows (`…_applied`, dated by the settlement),
 * so neither the settlements nor the items they settled are read. An item's open amount and its
 * applications have the item's sign, so no item of then sums to zero and the sums per party
 * need no per-item step. Drafts (and settlements taken off by 反确认) count as never applied.
 */
export async function readAging(db: Db, s: SideSql, q: AgingQuery) {
  const asOf = q.asOf ?? businessDay();
  const party = q[partyField(s)] as number | undefined;
  const keys = AGING_BUCKETS.map((b) => b.key);
  const byParty = (col: string) => (party ? sql`AND ${c(col)} = ${party}` : sql``);
  // The first instant after asOf in business time: a reversal at or after it had not happened yet.
  const after = sql`((${asOf}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai')`;
  const items =
    asOf >= businessDay()
      ? sql`
      SELECT ${c(s.party)} AS party_id, open_amount, ${asOf}::date - due_date AS d
        FROM ${t(s.item)}
       WHERE status IN ('open', 'partly') ${byParty(s.party)}`
      : sql`
      -- Items open now (the open-items index), plus what settlements dated after asOf applied to
      -- items of then (their application rows), plus items reversed after asOf (none can have had a
      -- settlement applied: one is taken off before its item may be reversed).
      SELECT ${c(s.party)} AS party_id, open_amount, ${asOf}::date - due_date AS d
        FROM ${t(s.item)}
       WHERE status IN ('open', 'partly') AND biz_date <= ${asOf}::date ${byParty(s.party)}
      UNION ALL
      SELECT party_id, amount, ${asOf}::date - item_due_date
        FROM ${sql.table(`${s.item}_applied`)}
       WHERE applied_on > ${asOf}::date AND item_biz_date <= ${asOf}::date ${byParty('party_id')}
      UNION ALL
      SELECT ${c(s.party)}, open_amount, ${asOf}::date - due_date
        FROM ${t(s.item)}
       WHERE status = 'reversed' AND reversed_at >= ${after} AND biz_date <= ${asOf}::date ${byParty(s.party)}`;
  const r = await sql<Record<string, any>>`
    WITH i AS (${items}
    ), a AS (
      SELECT party_id, sum(open_amount) AS total,
             ${sql.join(keys.map((k) => sql`COALESCE(sum(open_amount) FILTER (WHERE ${BUCKET_SQL[k]}), 0) AS ${sql.ref(k)}`))}
        FROM i GROUP BY party_id
    ), f AS (
      SELECT * FROM a ${q.overdueOnly === '1' ? sql`WHERE total - "notDue" <> 0` : sql``}
    )
    SELECT f.party_id, p.code, p.name, f.total::text AS total,
           ${sql.join(keys.map((k) => sql`f.${sql.ref(k)}::text AS ${sql.ref(k)}`))},
           count(*) OVER ()::int AS row_count,
           (sum(f.total) OVER ())::text AS all_total,
           ${sql.join(keys.map((k) => sql`(sum(f.${sql.ref(k)}) OVER ())::text AS ${sql.ref(`all_${k}`)}`))}
      FROM f JOIN ${t(s.partyTable)} p ON p.id = f.party_id
     ORDER BY f.total DESC, p.code
     LIMIT ${q.pageSize} OFFSET ${(Math.max(q.pageNum, 1) - 1) * q.pageSize}`.execute(db);
  const first = r.rows[0];
  const totals: Record<string, string> = { total: money(first?.allTotal) };
  for (const k of keys) totals[k] = money(first?.[`all${k.charAt(0).toUpperCase()}${k.slice(1)}`]);
  return {
    asOf,
    buckets: AGING_BUCKETS,
    total: first?.rowCount ?? 0,
    rows: r.rows.map((x) => ({
      partyId: x.partyId,
      code: x.code,
      name: x.name,
      total: x.total,
      ...Object.fromEntries(keys.map((k) => [k, x[k]])),
    })),
    totals,
  };
}

// ------------------------------------------------------------------ statement

const statementQuery = (s: SideSql) =>
  z
    .strictObject({ [partyField(s)]: zx.id, from: dateString, to: dateString })
    .refine((v) => v.from <= v.to, { message: '开始日期不能晚于结束日期', path: ['to'] });

export interface StatementRow {
  date: string;
  kind: 'item' | 'reversal' | 'settle';
  docNo: string;
  type: string;
  sourceDocNo: string | null;
  remark: string | null;
  invoiced: string;
  settled: string;
  balance: string;
}

/**
 * 对账单 of one party for [from, to]: opening balance (items before `from`, less the reversals
 * and the settlements before it), the items, reversals and settlements of the period in date
 * order with the running balance, and the closing balance, so that for any period
 * opening + invoiced − settled = closing. A reversed item shows on its own date and its reversal
 * (冲销, the negated amount) on the day it was reversed. Drafts are left out; a 退款 is a
 * negative settlement (money back to the party).
 */
export async function readStatement(db: Db, s: SideSql, partyId: number, from: string, to: string) {
  const p = await sql<{ id: number; code: string; name: string }>`
    SELECT id, code, name FROM ${t(s.partyTable)} WHERE id = ${partyId}`.execute(db);
  if (!p.rows[0]) throw notFound(`${s.side.party.label}不存在或已被删除`);
  const reversedOn = sql`(reversed_at AT TIME ZONE 'Asia/Shanghai')::date`;
  const o = await sql<{ items: string; reversed: string; settled: string }>`
    SELECT (SELECT COALESCE(sum(amount), 0) FROM ${t(s.item)}
             WHERE ${c(s.party)} = ${partyId} AND status <> 'draft' AND biz_date < ${from}::date)::text AS items,
           (SELECT COALESCE(sum(amount), 0) FROM ${t(s.item)}
             WHERE ${c(s.party)} = ${partyId} AND status = 'reversed' AND ${reversedOn} < ${from}::date)::text AS reversed,
           (SELECT COALESCE(sum(amount), 0) FROM ${t(s.settle)}
             WHERE ${c(s.party)} = ${partyId} AND status = 'confirmed' AND biz_date < ${from}::date)::text AS settled`.execute(
    db,
  );
  const rows = await sql<Record<string, any>>`
    SELECT biz_date::text AS date, 'item' AS kind, doc_no, source_type AS type, source_doc_no, remark,
           amount::text AS invoiced, '0' AS settled
      FROM ${t(s.item)}
     WHERE ${c(s.party)} = ${partyId} AND status <> 'draft' AND biz_date BETWEEN ${from}::date AND ${to}::date
    UNION ALL
    SELECT ${reversedOn}::text, 'reversal', doc_no, source_type, source_doc_no, remark, (-amount)::text, '0'
      FROM ${t(s.item)}
     WHERE ${c(s.party)} = ${partyId} AND status = 'reversed' AND ${reversedOn} BETWEEN ${from}::date AND ${to}::date
    UNION ALL
    SELECT biz_date::text, 'settle', doc_no, kind || ':' || method, NULL, remark, '0', amount::text
      FROM ${t(s.settle)}
     WHERE ${c(s.party)} = ${partyId} AND status = 'confirmed' AND biz_date BETWEEN ${from}::date AND ${to}::date
     ORDER BY date, kind, doc_no`.execute(db);
  const opening = D(o.rows[0].items).minus(o.rows[0].reversed).minus(o.rows[0].settled);
  let balance = opening;
  let invoiced = D(0);
  let settled = D(0);
  const sourceLabel = (v: string) => s.side.sources.find((x) => x.value === v)?.label ?? v;
  const methodLabel = (v: string) => RECEIPT_METHODS.find((x) => x.value === v)?.label ?? v;
  const settleType = (v: string) => {
    const [kind, method] = v.split(':');
    const verb = kind === 'refund' ? s.side.settle.refund.verb : s.side.settle.verb;
    return `${verb}（${methodLabel(method)}）`;
  };
  const out: StatementRow[] = rows.rows.map((r) => {
    invoiced = invoiced.plus(r.invoiced);
    settled = settled.plus(r.settled);
    balance = balance.plus(r.invoiced).minus(r.settled);
    return {
      date: r.date,
      kind: r.kind,
      docNo: r.docNo,
      type:
        r.kind === 'item'
          ? sourceLabel(r.type)
          : r.kind === 'reversal'
            ? `冲销${sourceLabel(r.type)}`
            : settleType(r.type),
      sourceDocNo: r.sourceDocNo,
      remark: r.remark,
      invoiced: money(r.invoiced),
      settled: money(r.settled),
      balance: money(balance),
    };
  });
  return {
    party: p.rows[0],
    from,
    to,
    opening: money(opening),
    invoiced: money(invoiced),
    settled: money(settled),
    closing: money(opening.plus(invoiced).minus(settled)),
    rows: out,
  };
}

// ------------------------------------------------------------------ Excel

const TITLES = {
  receivable: { aging: '应收账龄分析', statement: '客户对账单', settled: '收款' },
  payable: { aging: '应付账龄分析', statement: '供应商对账单', settled: '付款' },
} as const;

async function agingWorkbook(s: SideSql, aging: Awaited<ReturnType<typeof readAging>>) {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(TITLES[s.item].aging);
  ws.addRow([`${TITLES[s.item].aging}（截至 ${aging.asOf}，按到期日计算逾期天数）`]);
  ws.addRow([
    `${s.side.party.label}编码`,
    `${s.side.party.label}名称`,
    '未结金额(元)',
    ...AGING_BUCKETS.map((b) => b.label),
  ]);
  ws.getRow(2).font = { bold: true };
  const line = (code: string, name: string, r: Record<string, any>) =>
    ws.addRow(
      [code, name, Number(r.total), ...AGING_BUCKETS.map((b) => Number(r[b.key] ?? 0))].map(neutralise),
    );
  for (const r of aging.rows) line(r.code, r.name, r);
  line('合计', '', aging.totals);
  ws.columns.forEach((col, i) => {
    col.width = i === 1 ? 32 : 14;
  });
  return wb;
}

async function statementWorkbook(s: SideSql, st: Awaited<ReturnType<typeof readStatement>>) {
  const verb = TITLES[s.item].settled;
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(TITLES[s.item].statement);
  ws.addRow([`${TITLES[s.item].statement}：${st.party.name}（${st.party.code}）  ${st.from} 至 ${st.to}`]);
  ws.addRow(['日期', '单号', '类型', '来源单号', '摘要', '应结金额(元)', `${verb}金额(元)`, '余额(元)']);
  ws.getRow(2).font = { bold: true };
  ws.addRow(['', '', '期初余额', '', '', '', '', Number(st.opening)]);
  for (const r of st.rows)
    ws.addRow(
      [
        r.date,
        r.docNo,
        r.type,
        r.sourceDocNo ?? '',
        r.remark ?? '',
        Number(r.invoiced),
        Number(r.settled),
        Number(r.balance),
      ].map(neutralise),
    );
  ws.addRow(['', '', '本期合计', '', '', Number(st.invoiced), Number(st.settled), Number(st.closing)]);
  ws.addRow(['', '', '期末余额', '', '', '', '', Number(st.closing)]);
  ws.columns.forEach((col, i) => {
    col.width = [12, 18, 16, 18, 24, 14, 14, 14][i] ?? 14;
  });
  return wb;
}

// ------------------------------------------------------------------ routes

const quickBody = (s: SideSql) =>
  z.strictObject({
    [partyField(s)]: zx.id,
    kind: z.enum(['normal', 'refund'], { error: '单据类型只能是 normal 或 refund' }).optional(),
    bizDate: zx.businessDay('业务日期').optional(),
    method: z.enum(RECEIPT_METHODS.map((m) => m.value) as [string, ...string[]], {
      error: `${s.side.settle.verb}方式不正确`,
    }),
    remark: zx.text(500).optional(),
    lines: z
      .array(
        z.strictObject({
          [`${s.side.item.name}Id`]: zx.id,
          amount: fieldSchema({ name: 'amount', label: '金额', kind: 'money', min: -999999999999 }),
        }),
        { error: `请选择要${s.side.settle.verb}的${s.side.item.label}` },
      )
      .min(1, `请选择要${s.side.settle.verb}的${s.side.item.label}`)
      .max(500, '一次最多 500 行'),
  });

// ------------------------------------------------------------------ answers

const amount = z.string();
const exportAnswer = z.object({ fileName: z.string(), rows: z.number().int() });
const bucketSums = Object.fromEntries(AGING_BUCKETS.map((b) => [b.key, amount]));
const agingAnswer = z.object({
  asOf: z.string(),
  buckets: z.array(z.object({ key: z.string(), label: z.string() })),
  /** The parties with an open amount (all pages). */
  total: z.number().int(),
  rows: z.array(
    z.object({
      partyId: z.number().int(),
      code: z.string(),
      name: z.string(),
      total: amount,
      ...bucketSums,
    }),
  ),
  totals: z.object({ total: amount, ...bucketSums }),
});
const statementAnswer = z.object({
  party: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
  from: z.string(),
  to: z.string(),
  opening: amount,
  invoiced: amount,
  settled: amount,
  closing: amount,
  rows: z.array(
    z.object({
      date: z.string(),
      kind: z.enum(['item', 'reversal', 'settle']),
      docNo: z.string(),
      type: z.string(),
      sourceDocNo: z.string().nullable(),
      remark: z.string().nullable(),
      invoiced: amount,
      settled: amount,
      balance: amount,
    }),
  ),
});
/** The settlement saved: confirmed, or a draft when 职责分离 keeps its maker from confirming it. */
const settledAnswer = z.object({
  id: z.number().int(),
  docNo: z.string().nullable(),
  status: z.string(),
  version: z.number().int(),
});

function sideRoutes(app: App, s: SideSql) {
  const item = s.side.item;
  const list = `${item.permission}:list` as Permission;
  const exp = `${item.permission}:export` as Permission;

  route(app, {
    method: 'GET',
    url: `/api/v1/${item.name}/aging`,
    permission: list,
    query: agingQuery(s),
    response: agingAnswer,
    handler: ({ query, app: { db } }) => readAging(db, s, query as AgingQuery),
  });
  route(app, {
    method: 'GET',
    url: `/api/v1/${item.name}/aging/export`,
    permission: exp,
    query: agingQuery(s),
    response: exportAnswer,
    async handler({ query, user, app: { db, config } }) {
      const aging = await readAging(db, s, { ...(query as AgingQuery), pageNum: 1, pageSize: 100_000 });
      const { file, fileName } = newExportFile(config.exportDir, user.id, TITLES[s.item].aging);
      await (await agingWorkbook(s, aging)).xlsx.writeFile(file);
      return { fileName, rows: aging.rows.length };
    },
  });
  route(app, {
    method: 'GET',
    url: `/api/v1/${item.name}/statement`,
    permission: list,
    query: statementQuery(s),
    response: statementAnswer,
    handler: ({ query, app: { db } }) =>
      readStatement(db, s, (query as any)[partyField(s)], (query as any).from, (query as any).to),
  });
  route(app, {
    method: 'GET',
    url: `/api/v1/${item.name}/statement/export`,
    permission: exp,
    query: statementQuery(s),
    response: exportAnswer,
    async handler({ query, user, app: { db, config } }) {
      const q = query as any;
      const st = await readStatement(db, s, q[partyField(s)], q.from, q.to);
      const { file, fileName } = newExportFile(
        config.exportDir,
        user.id,
        `${TITLES[s.item].statement}-${st.party.name}`,
      );
      await (await statementWorkbook(s, st)).xlsx.writeFile(file);
      return { fileName, rows: st.rows.length };
    },
  });
  // 收款 / 付款 from the item list: the settlement is saved and confirmed in one transaction — or,
  // while 职责分离 keeps a maker from confirming his own, saved as a draft for someone else to confirm.
  route(app, {
    method: 'POST',
    url: `/api/v1/${s.side.settle.name}/quick`,
    permission: `${s.side.settle.permission}:approve` as Permission,
    body: quickBody(s),
    response: settledAnswer,
    async handler({ body, user, req, app: { db } }) {
      if (!can(user, `${s.side.settle.permission}:add`)) throw forbidden();
      return withRetry(() => db.transaction().execute((trx) => settleNow(trx, user, s, body as any, req.id)));
    },
  });
}

export function financeRoutes(app: App) {
  sideRoutes(app, AR);
  sideRoutes(app, AP);
}
