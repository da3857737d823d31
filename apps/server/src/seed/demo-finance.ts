import { payableResource, receiptResource, receivableResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { AP, AR, dueDateSql, type SideSql } from '../modules/finance/ledger.ts';
import { FINANCE_HOOKS, settleNow } from '../modules/finance/receivable.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/**
 * 应收 / 应付 of the demo. The receivables and payables themselves were written by the posted
 * 销售出库, 销售退货, 采购入库, 委外入库 and 采购退货 of the earlier steps (three months of
 * business dates); here customers and suppliers get payment terms (the due dates follow), and
 * receipts and payments settle the older items — most in full, some in part, a few left overdue
 * so every aging bucket has money — through the same commands as 财务's. A few manual items
 * (模具费, 运费) are added, one left as a draft; this week's receipt waits as a draft.
 * Maker ≠ checker (系统设置 → 职责分离): 财务 (fin01) enters the receipts and payments, the
 * administrator confirms them; this week's waits for him.
 */
export async function seedDemoFinance(db: Db, user: AuthUser): Promise<void> {
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const finRow = await db
    .selectFrom('appUser')
    .select(['id', 'firstName', 'deptId'])
    .where('userName', '=', 'fin01')
    .executeTakeFirst();
  const maker: AuthUser = finRow
    ? { ...user, id: finRow.id, userName: 'fin01', firstName: finRow.firstName, deptId: finRow.deptId }
    : user;
  const today = day(0);
  // Terms by position: 现款, 发货后30天, 月结30天, 发货后60天.
  for (const [table, s] of [
    ['customer', AR],
    ['supplier', AP],
  ] as const) {
    await sql`UPDATE ${sql.table(table)} p
                 SET payment_term = (ARRAY['cash', 'days', 'month-end', 'days'])[1 + (r.n % 4)],
                     payment_days = (ARRAY[0, 30, 30, 60])[1 + (r.n % 4)]
                FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM ${sql.table(table)}) r
               WHERE r.id = p.id`.execute(db);
    await sql`UPDATE ${sql.table(s.item)} i
                 SET due_date = ${dueDateSql(sql`i.biz_date`, sql`p.payment_term`, sql`p.payment_days`)}
                FROM ${sql.table(s.partyTable)} p WHERE p.id = ${sql.ref(`i.${s.party}`)}`.execute(db);
  }

  // Manual items: a mould fee and a freight bill, approved; a service fee still a draft.
  const manual = async (
    side: 'receivable' | 'payable',
    values: Record<string, unknown>,
    approve: boolean,
  ) => {
    const def = side === 'receivable' ? receivableResource : payableResource;
    const id = await createRecord({ db, user, def }, values, FINANCE_HOOKS[side]);
    if (approve) await runTransition(db, user, def, 'approve', id, {});
  };
  const firstCustomer = await sql<{ id: number }>`SELECT id FROM customer ORDER BY id LIMIT 1`.execute(db);
  const firstSupplier = await sql<{ id: number }>`SELECT id FROM supplier ORDER BY id LIMIT 1`.execute(db);
  if (firstCustomer.rows[0]) {
    const customerId = firstCustomer.rows[0].id;
    // Left open: one past 60 days due, one past 90.
    await manual(
      'receivable',
      { customerId, bizDate: day(-100), amount: '8500.00', remark: '6204 专用模具费' },
      true,
    );
    await manual(
      'receivable',
      { customerId, bizDate: day(-135), amount: '3600.00', remark: '样品及检测费' },
      true,
    );
    await manual(
      'receivable',
      { customerId, bizDate: day(-2), amount: '1200.00', remark: '技术服务费（待审核）' },
      false,
    );
  }
  if (firstSupplier.rows[0])
    await manual(
      'payable',
      {
        supplierId: firstSupplier.rows[0].id,
        bizDate: day(-40),
        amount: '2360.00',
        remark: '10 月份钢材运费',
      },
      true,
    );

  await settle(db, maker, user, AR, today);
  await settle(db, maker, user, AP, today);
  // A receipt entered but not yet confirmed: the newest open shipment's customer paying half.
  const recent = await sql<{ id: number; customerId: number; openAmount: string }>`
    SELECT id, customer_id, open_amount::text AS open_amount FROM receivable
     WHERE status = 'open' AND source_type = 'sales' AND amount > 0 ORDER BY biz_date DESC, id DESC LIMIT 1`.execute(
    db,
  );
  const r = recent.rows[0];
  if (r)
    await createRecord(
      { db, user: maker, def: receiptResource },
      {
        customerId: r.customerId,
        bizDate: today,
        method: 'bank',
        remark: '待银行回单确认',
        lines: [{ receivableId: r.id, amount: new Decimal(r.openAmount).dividedBy(2).toFixed(2) }],
      },
      FINANCE_HOOKS.receipt,
    );
}

/**
 * Settles the open items of each party in due-date order: items more than 45 days old in full
 * (except every fifth party, left overdue), items 15–45 days old half, newer ones not at all.
 * One receipt per party and month, dated a few days after the newest item it pays.
 */
async function settle(db: Db, maker: AuthUser, checker: AuthUser, s: SideSql, today: string) {
  const r = await sql<{
    id: number;
    partyId: number;
    bizDate: string;
    age: number;
    openAmount: string;
    month: string;
    n: number;
  }>`
    SELECT i.id, ${sql.ref(`i.${s.party}`)} AS party_id, i.biz_date::text AS biz_date, (${today}::date - i.biz_date) AS age,
           i.open_amount::text AS open_amount, to_char(i.biz_date, 'YYYY-MM') AS month,
           dense_rank() OVER (ORDER BY ${sql.ref(`i.${s.party}`)}) AS n
      FROM ${sql.table(s.item)} i
     WHERE i.status IN ('open', 'partly') AND i.amount > 0 AND i.source_type <> 'manual'
       AND ${today}::date - i.biz_date >= 15
     ORDER BY party_id, i.due_date, i.id`.execute(db);
  const groups = new Map<string, typeof r.rows>();
  for (const row of r.rows) {
    if (row.n % 5 === 0) continue;
    const key = `${row.partyId}:${row.month}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let k = 0;
  for (const rows of groups.values()) {
    const lines = rows.map((row) => ({
      [`${s.side.item.name}Id`]: row.id,
      amount: (row.age > 45 ? new Decimal(row.openAmount) : new Decimal(row.openAmount).dividedBy(2))
        .toDecimalPlaces(2)
        .toFixed(2),
    }));
    const newest = rows.reduce((a, b) => (a.bizDate > b.bizDate ? a : b)).bizDate;
    const paid = new Date(`${newest}T12:00:00+08:00`);
    paid.setDate(paid.getDate() + 5 + (k % 7));
    const bizDate = businessDay(paid) < today ? businessDay(paid) : today;
    k += 1;
    await settleNow(
      db,
      maker,
      s,
      {
        [s.side.party.field]: rows[0].partyId,
        bizDate,
        method: k % 6 === 0 ? 'acceptance' : 'bank',
        remark: k % 6 === 0 ? '银行承兑汇票' : '网银转账',
        lines,
      },
      undefined,
      checker,
    );
  }
}
