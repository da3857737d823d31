import { type LedgerSide, PAYABLE_SIDE, RECEIVABLE_SIDE } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, notFound } from '../../platform/errors.ts';
import { dayInstant, nextDocNo } from '../../platform/numbering.ts';
import { salesHooks } from '../sales/sales-hooks.ts';
import { onStockPosted, onStockReversed } from '../warehouse/stock-events.ts';

/**
 * The money side of posted stock documents: 应收 (receivable) and 应付 (payable) items, and the
 * 收款 / 付款 applied to them. Every write to an item's settled amount goes through `applySettlement`
 * under the items' row locks with a conditional update; the table's CHECK is the backstop.
 */

/** Table and column names of one side. */
export interface SideSql {
  side: LedgerSide;
  item: 'receivable' | 'payable';
  itemLine: 'receivable_line' | 'payable_line';
  settle: 'receipt' | 'payment';
  settleLine: 'receipt_line' | 'payment_line';
  /** Column naming the party on items and settlements. */
  party: 'customer_id' | 'supplier_id';
  partyTable: 'customer' | 'supplier';
  /** Column of a settlement line naming its item. */
  itemRef: 'receivable_id' | 'payable_id';
}

export const AR: SideSql = {
  side: RECEIVABLE_SIDE,
  item: 'receivable',
  itemLine: 'receivable_line',
  settle: 'receipt',
  settleLine: 'receipt_line',
  party: 'customer_id',
  partyTable: 'customer',
  itemRef: 'receivable_id',
};

export const AP: SideSql = {
  side: PAYABLE_SIDE,
  item: 'payable',
  itemLine: 'payable_line',
  settle: 'payment',
  settleLine: 'payment_line',
  party: 'supplier_id',
  partyTable: 'supplier',
  itemRef: 'payable_id',
};

const t = (name: string) => sql.table(name);
const c = (name: string) => sql.ref(name);
const yuan = (v: Decimal.Value) => new Decimal(v).toFixed(2);

/** Due date of an item of `day` for a party with these terms: 现款 that day, N days after, or N days after month end. */
export function dueDateSql(day: unknown, term: unknown, days: unknown) {
  return sql<string>`(CASE ${term}
      WHEN 'days' THEN ${day}::date + ${days}::int
      WHEN 'month-end' THEN (date_trunc('month', ${day}::date) + interval '1 month - 1 day')::date + ${days}::int
      ELSE ${day}::date END)`;
}

/** The due date of an item of `day` for the party, from its payment terms. */
export async function dueDateFor(db: Db, s: SideSql, partyId: number, day: string): Promise<string> {
  const r = await sql<{ due: string }>`
    SELECT ${dueDateSql(sql`${day}`, sql`p.payment_term`, sql`p.payment_days`)}::text AS due
      FROM ${t(s.partyTable)} p WHERE p.id = ${partyId}`.execute(db);
  return r.rows[0]?.due ?? day;
}

// ------------------------------------------------------------------ items from stock documents

type StockDocType = 'stock-inbound' | 'stock-outbound';

/** Which posted stock documents make an item, at which order's prices, with which sign. */
interface ItemSource {
  doc: StockDocType;
  type: string;
  s: SideSql;
  sign: 1 | -1;
  orderTable: string;
  orderColumn: string;
  orderLineTable: string;
  orderLineParent: string;
}

const SOURCES: ItemSource[] = [
  {
    doc: 'stock-outbound',
    type: 'sales',
    s: AR,
    sign: 1,
    orderTable: 'sale_order',
    orderColumn: 'sale_order_id',
    orderLineTable: 'sale_order_line',
    orderLineParent: 'sale_order_id',
  },
  {
    doc: 'stock-inbound',
    type: 'sales-return',
    s: AR,
    sign: -1,
    orderTable: 'sale_order',
    orderColumn: 'sale_order_id',
    orderLineTable: 'sale_order_line',
    orderLineParent: 'sale_order_id',
  },
  {
    doc: 'stock-inbound',
    type: 'purchase',
    s: AP,
    sign: 1,
    orderTable: 'purchase_order',
    orderColumn: 'purchase_order_id',
    orderLineTable: 'purchase_order_line',
    orderLineParent: 'purchase_order_id',
  },
  {
    doc: 'stock-inbound',
    type: 'outsourced',
    s: AP,
    sign: 1,
    orderTable: 'outsourcing_order',
    orderColumn: 'outsourcing_order_id',
    orderLineTable: 'outsourcing_order_line',
    orderLineParent: 'outsourcing_order_id',
  },
  {
    doc: 'stock-outbound',
    type: 'purchase-return',
    s: AP,
    sign: -1,
    orderTable: 'purchase_order',
    orderColumn: 'purchase_order_id',
    orderLineTable: 'purchase_order_line',
    orderLineParent: 'purchase_order_id',
  },
  {
    doc: 'stock-outbound',
    type: 'outsourcing-return',
    s: AP,
    sign: -1,
    orderTable: 'outsourcing_order',
    orderColumn: 'outsourcing_order_id',
    orderLineTable: 'outsourcing_order_line',
    orderLineParent: 'outsourcing_order_id',
  },
];

const HEAD = { 'stock-inbound': 'stock_inbound', 'stock-outbound': 'stock_outbound' } as const;

/**
 * Posting (`direction` 1) or reversing (−1) a stock document, inside its transaction: writes the
 * item of a 销售出库 / 销售退货入库 / 采购入库 / 委外入库 / 采购退货 / 委外退货 made against an
 * order, or reverses it. Each line is priced at its order line: order line amount (with tax) ×
 * the line's base quantity ÷ the order line's base quantity, rounded to the fen once. Reversal is
 * refused (409) while a receipt or payment is applied to the item. `type`, when the caller knows
 * it, spares the read of a document no item follows from (生产入库, 领料出库…).
 */
export async function financeOnStockDocument(
  db: Db,
  doc: StockDocType,
  id: number,
  direction: 1 | -1,
  type?: string,
) {
  if (type !== undefined && !SOURCES.some((x) => x.doc === doc && x.type === type)) return;
  const head = await sql<{ type: string; docNo: string; bizDate: string } & Record<string, any>>`
    SELECT * FROM ${t(HEAD[doc])} WHERE id = ${id}`.execute(db);
  const h = head.rows[0];
  if (!h) return;
  const src = SOURCES.find((x) => x.doc === doc && x.type === h.type);
  if (!src) return;
  if (direction === -1) return reverseItem(db, src.s, doc, id);
  const orderId = h[src.orderColumn.replace(/_(\w)/g, (_m, ch: string) => ch.toUpperCase())];
  if (orderId == null) return;
  const lineTable = `${HEAD[doc]}_line`;
  const lines = await sql<{ materialId: number; quantity: string; unitPrice: string; amount: string }>`
    SELECT l.material_id, (${src.sign} * l.base_quantity)::text AS quantity,
           round(ol.amount / ol.base_quantity, 6)::text AS unit_price,
           (${src.sign} * round(ol.amount * l.base_quantity / ol.base_quantity, 2))::text AS amount
      FROM ${t(lineTable)} l JOIN ${t(src.orderLineTable)} ol ON ol.id = l.source_line_id
     WHERE ${c(`l.${HEAD[doc]}_id`)} = ${id} AND ol.base_quantity > 0 AND l.base_quantity IS NOT NULL
     ORDER BY l.line_no`.execute(db);
  if (!lines.rows.length) return;
  const order = await sql<{ partyId: number; docNo: string }>`
    SELECT ${c(src.s.party)} AS party_id, doc_no FROM ${t(src.orderTable)} WHERE id = ${orderId}`.execute(db);
  const o = order.rows[0];
  const amount = lines.rows.reduce((sum, l) => sum.plus(l.amount), new Decimal(0));
  const docNo = await nextDocNo(db, src.s.side.item.prefix, undefined, dayInstant(h.bizDate));
  const item = await sql<{ id: number }>`
    INSERT INTO ${t(src.s.item)} (doc_no, ${c(src.s.party)}, source_type, source_doc_no, order_no, biz_date, due_date,
                                  amount, settled_amount, status, source_doc_type, source_doc_id, created_by, updated_by)
    SELECT ${docNo}, p.id, ${src.type}, ${h.docNo}, ${o.docNo}, ${h.bizDate}::date,
           ${dueDateSql(sql`${h.bizDate}`, sql`p.payment_term`, sql`p.payment_days`)},
           ${amount.toFixed(2)}, 0, ${amount.isZero() ? 'settled' : 'open'}, ${doc}, ${id}, ${h.postedById ?? null}, ${h.postedById ?? null}
      FROM ${t(src.s.partyTable)} p WHERE p.id = ${o.partyId}
    RETURNING id`.execute(db);
  const itemId = item.rows[0].id;
  await sql`
    INSERT INTO ${t(src.s.itemLine)} (${c(`${src.s.item}_id`)}, line_no, material_id, quantity, unit_price, amount)
    SELECT ${itemId}, r.n, r.m, r.q, r.p, r.a
      FROM unnest(${sql.val(lines.rows.map((l) => l.materialId))}::bigint[], ${sql.val(lines.rows.map((l) => l.quantity))}::numeric[],
                  ${sql.val(lines.rows.map((l) => l.unitPrice))}::numeric[], ${sql.val(lines.rows.map((l) => l.amount))}::numeric[])
           WITH ORDINALITY AS r(m, q, p, a, n)`.execute(db);
}

// The warehouse tells finance of its postings (`warehouse/stock-events.ts`).
onStockPosted((db, e) => financeOnStockDocument(db, e.docType as StockDocType, e.id, 1, e.type));
onStockReversed((db, e) => financeOnStockDocument(db, e.docType as StockDocType, e.id, -1));

async function reverseItem(db: Db, s: SideSql, doc: StockDocType, id: number) {
  const r = await sql<{ id: number; docNo: string; settledAmount: string }>`
    SELECT id, doc_no, settled_amount::text AS settled_amount FROM ${t(s.item)}
     WHERE source_doc_type = ${doc} AND source_doc_id = ${id} AND status <> 'reversed' FOR UPDATE`.execute(
    db,
  );
  const item = r.rows[0];
  if (!item) return;
  if (!new Decimal(item.settledAmount).isZero()) {
    const by = await sql<{ docNo: string }>`
      SELECT DISTINCT h.doc_no FROM ${t(s.settleLine)} l JOIN ${t(s.settle)} h ON h.id = ${c(`l.${s.settle}_id`)}
       WHERE ${c(`l.${s.itemRef}`)} = ${item.id} AND h.status = 'confirmed' ORDER BY h.doc_no`.execute(db);
    const verb = s.side.settle.verb;
    throw conflict(
      `${s.side.item.label} ${item.docNo} 已${verb} ${yuan(item.settledAmount)} 元（${s.side.settle.label} ${by.rows
        .map((x) => x.docNo)
        .join('、')}），不能冲销；请先反确认${s.side.settle.label}`,
    );
  }
  await sql`UPDATE ${t(s.item)} SET status = 'reversed', reversed_at = now(), updated_at = now(), version = version + 1
             WHERE id = ${item.id}`.execute(db);
}

// ------------------------------------------------------------------ settlements

/**
 * A 收款 / 付款 moves money in the items' direction: its total is positive (negative items may be
 * offset in it). A 退款 moves it back: every line is a negative item and the total is negative.
 */
export function checkSettleTotal(s: SideSql, kind: string, amounts: Decimal.Value[]) {
  const total = amounts.reduce<Decimal>((sum, a) => sum.plus(new Decimal(a || 0)), new Decimal(0));
  if (kind === 'refund' && !total.isNeg())
    throw badRequest(
      `${s.side.settle.refund.label}的金额应为负数（退还的钱），请核销负数${s.side.item.label}`,
    );
  if (kind !== 'refund' && !total.isPos())
    throw badRequest(
      `${s.side.settle.label}合计应大于 0；退还${s.side.party.label}的钱请用${s.side.settle.refund.label}`,
    );
}

/**
 * Applies (`direction` 1) or takes off (−1) a confirmed receipt / payment: every line's amount
 * moves its item's settled amount. Locks the items in id order (no deadlocks between two
 * receipts), checks each against what is open and moves them with one conditional update.
 */
export async function applySettlement(db: Db, s: SideSql, settleId: number, direction: 1 | -1) {
  const head = await sql<{ partyId: number; kind: string; amount: string; bizDate: string }>`
    SELECT ${c(s.party)} AS party_id, kind, amount::text AS amount, to_char(biz_date, 'YYYY-MM-DD') AS biz_date
      FROM ${t(s.settle)} WHERE id = ${settleId}`.execute(db);
  if (!head.rows[0]) throw notFound(`${s.side.settle.label}不存在或已被删除`);
  const { partyId, kind } = head.rows[0];
  const refund = kind === 'refund';
  const lines = await sql<{ itemId: number; amount: string; n: number }>`
    SELECT ${c(s.itemRef)} AS item_id, sum(amount)::text AS amount, min(line_no) AS n
      FROM ${t(s.settleLine)} WHERE ${c(`${s.settle}_id`)} = ${settleId}
     GROUP BY ${c(s.itemRef)} ORDER BY ${c(s.itemRef)}`.execute(db);
  if (!lines.rows.length) throw badRequest(`${s.side.settle.label}没有核销明细`);
  const items = await sql<{
    id: number;
    docNo: string;
    partyId: number;
    status: string;
    amount: string;
    settledAmount: string;
  }>`
    SELECT id, doc_no, ${c(s.party)} AS party_id, status, amount::text AS amount, settled_amount::text AS settled_amount
      FROM ${t(s.item)} WHERE id = ANY(${sql.val(lines.rows.map((l) => l.itemId))}::bigint[])
     ORDER BY id FOR UPDATE`.execute(db);
  const byId = new Map(items.rows.map((i) => [i.id, i]));
  const verb = s.side.settle.verb;
  const lineErr = (n: number, message: string) =>
    badRequest(`第 ${n} 行：${message}`, [{ field: `lines.${n - 1}.${s.side.item.name}Id`, message }]);
  for (const l of lines.rows) {
    const item = byId.get(l.itemId);
    if (!item) throw lineErr(l.n, `${s.side.item.label}不存在或已被删除`);
    if (direction === -1) continue;
    const x = new Decimal(l.amount);
    const amount = new Decimal(item.amount);
    if (item.partyId !== partyId)
      throw lineErr(l.n, `${s.side.item.label} ${item.docNo} 不属于本单的${s.side.party.label}`);
    if (item.status !== 'open' && item.status !== 'partly') {
      const state =
        { draft: '未审核', settled: `已${verb}清`, reversed: '已冲销' }[item.status] ?? item.status;
      throw conflict(`第 ${l.n} 行：${s.side.item.label} ${item.docNo} ${state}，不能${verb}`);
    }
    if (refund && !amount.isNeg())
      throw lineErr(
        l.n,
        `${s.side.settle.refund.label}只核销负数${s.side.item.label}（退货、多${verb}），${item.docNo} 不是`,
      );
    if (x.isZero() || x.s !== amount.s)
      throw lineErr(l.n, `本次${verb}金额应${amount.isNeg() ? '为负数（冲抵退货）' : '大于 0'}`);
    const open = amount.minus(item.settledAmount);
    if (x.abs().gt(open.abs()))
      throw conflict(
        `第 ${l.n} 行：${s.side.item.label} ${item.docNo} 未${verb} ${yuan(open)} 元，本次${verb} ${yuan(x)} 元超出`,
      );
  }
  if (direction === 1)
    checkSettleTotal(
      s,
      kind,
      lines.rows.map((l) => l.amount),
    );
  // The application rows (`…_applied`) date what this settlement applied, for the aging at a past date.
  const applied = sql.table(`${s.item}_applied`);
  if (direction === -1) await sql`DELETE FROM ${applied} WHERE settle_id = ${settleId}`.execute(db);
  const moved = await sql`
    WITH moved AS (
    UPDATE ${t(s.item)} i
       SET settled_amount = i.settled_amount + r.x,
           status = CASE WHEN i.settled_amount + r.x = 0 THEN 'open'
                         WHEN i.settled_amount + r.x = i.amount THEN 'settled' ELSE 'partly' END,
           updated_at = now(), version = i.version + 1
      FROM unnest(${sql.val(lines.rows.map((l) => l.itemId))}::bigint[],
                  ${sql.val(lines.rows.map((l) => new Decimal(l.amount).times(direction).toString()))}::numeric[]) AS r(id, x)
     WHERE i.id = r.id AND i.status IN ('open', 'partly', 'settled')
       AND abs(i.settled_amount + r.x) <= abs(i.amount) AND (i.settled_amount + r.x) * sign(i.amount) >= 0
    RETURNING i.id, ${c(`i.${s.party}`)} AS party_id, i.biz_date, i.due_date, r.x
    )${
      direction === 1
        ? sql`, kept AS (
      INSERT INTO ${applied} (settle_id, item_id, party_id, applied_on, item_biz_date, item_due_date, amount)
      SELECT ${settleId}, id, party_id, ${head.rows[0].bizDate}::date, biz_date, due_date, x FROM moved
    )`
        : sql``
    }
    SELECT count(*)::int AS n FROM moved`.execute(db);
  if ((moved.rows[0] as { n: number }).n !== lines.rows.length)
    throw conflict(`核销金额超出${s.side.item.label}的未${verb}金额，请刷新后重试`);
}

/** What a customer still owes: the open amount of its effective receivables (the credit check). */
export async function openReceivables(db: Db, customerId: number): Promise<string> {
  const r = await sql<{ open: string }>`
    SELECT COALESCE(sum(open_amount), 0)::text AS open FROM receivable
     WHERE customer_id = ${customerId} AND status IN ('open', 'partly')`.execute(db);
  return r.rows[0].open;
}

// Sales' credit check asks finance for a customer's open receivables (`sales/sales-hooks.ts`).
salesHooks.openReceivables.provide(openReceivables);
