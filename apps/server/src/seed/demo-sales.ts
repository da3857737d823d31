import {
  saleOrderResource,
  stockInboundResource,
  stockOutboundResource,
  stockUpOrderResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { saleOrderHooks, saleOrderTransitions } from '../modules/sales/sale-order.ts';
import { stockUpHooks, stockUpTransitions } from '../modules/sales/stock-up.ts';
import { DOC_HOOKS, postDocumentByName } from '../modules/warehouse/documents.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay, dayInstant } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/**
 * Demo sales orders over the last three months, through the same commands as users' orders:
 * numbered by their order dates, older ones approved (a few closed with a reason, one
 * un-approved back to draft), this week's still drafts waiting for approval. The older approved
 * orders were shipped from finished goods through 销售出库 against their lines, in full or in
 * part as stock allowed; one customer sent part of a shipment back (销售退货入库, 待检).
 */
export async function seedDemoSales(db: Db, user: AuthUser): Promise<void> {
  const customers = (
    await db.selectFrom('customer').select(['id']).where('state', '=', '1').orderBy('id').execute()
  ).map((c: any) => c.id as number);
  const products = (
    await db
      .selectFrom('material')
      .select(['id'])
      .where('salePrice', 'is not', null)
      .where('status', '=', '1')
      .orderBy('id')
      .execute()
  ).map((m: any) => m.id as number);
  if (!customers.length || !products.length) return;
  const sales = await db
    .selectFrom('appUser')
    .select('id')
    .where('userName', '=', 'sales01')
    .executeTakeFirst();
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const shipped: { id: number; age: number; full: boolean }[] = [];

  for (let i = 0; i < 30; i++) {
    const age = 88 - i * 3; // days ago: 88 … 1
    const orderDate = day(-age);
    const lines = [0, 1, 2].slice(0, 1 + (i % 3)).map((k) => ({
      materialId: products[(i * 3 + k) % products.length],
      quantity: String(200 + ((i * 37 + k * 53) % 9) * 100),
      deliveryDate: day(-age + 20 + k * 5),
    }));
    const id = await createRecord(
      { db, user, def: saleOrderResource },
      {
        customerId: customers[i % customers.length],
        orderDate,
        deliveryDate: day(-age + 30),
        salespersonId: sales?.id ?? user.id,
        remark: i % 7 === 0 ? '客户要求分批交货' : undefined,
        lines,
      },
      saleOrderHooks,
    );
    // Stamp the record with its business date rather than the seeding moment.
    await sql`UPDATE sale_order SET created_at = ${`${orderDate} 09:${String(10 + (i % 40)).padStart(2, '0')}:00+08`}::timestamptz,
                                    updated_at = ${`${orderDate} 10:00:00+08`}::timestamptz
               WHERE id = ${id}`.execute(db);
    const run = (name: string, reason?: string) =>
      runTransition(db, user, saleOrderResource, name, id, { reason }, saleOrderTransitions[name]);
    if (age <= 6) continue; // this week's orders wait for approval
    await run('approve');
    if (i % 9 === 4) await run('close', '客户取消订单');
    else if (i === 20) await run('unapprove', '客户修改交货期，待重新审核');
    else if (age > 30 && i % 3 !== 2) shipped.push({ id, age, full: i % 3 === 0 });
  }
  await shipDemoOrders(db, user, shipped, day);
}

/** Ships the given orders from the finished-goods store, as far as its stock allows. */
async function shipDemoOrders(
  db: Db,
  user: AuthUser,
  orders: { id: number; age: number; full: boolean }[],
  day: (offset: number) => string,
) {
  const fg = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH-FG').executeTakeFirst();
  if (!fg) return;
  let returned = false;
  for (const o of orders) {
    const lines = (await db
      .selectFrom('saleOrderLine')
      .select(['id', 'materialId', 'baseQuantity'])
      .where('saleOrderId', '=', o.id)
      .orderBy('lineNo')
      .execute()) as { id: number; materialId: number; baseQuantity: string }[];
    const ship: { materialId: number; quantity: string; sourceLineId: number }[] = [];
    for (const l of o.full ? lines : lines.slice(0, 1)) {
      const onHand = await db
        .selectFrom('stockBalance')
        .select((eb) => eb.fn.sum<string>('quantity').as('q'))
        .where('materialId', '=', l.materialId)
        .where('warehouseId', '=', fg.id)
        .where('qualityStatus', '=', 'qualified')
        .executeTakeFirst();
      const want = o.full ? new Decimal(l.baseQuantity) : new Decimal(l.baseQuantity).div(2).floor();
      const quantity = Decimal.min(want, new Decimal(onHand?.q ?? 0).floor());
      if (quantity.gt(0))
        ship.push({ materialId: l.materialId, quantity: quantity.toString(), sourceLineId: l.id });
    }
    if (!ship.length) continue;
    const bizDate = day(-o.age + 15);
    const out = await createRecord(
      { db, user, def: stockOutboundResource },
      { type: 'sales', warehouseId: fg.id, bizDate, saleOrderId: o.id, remark: '按订单发货', lines: ship },
      DOC_HOOKS['stock-outbound'],
    );
    await postDocumentByName(db, 'stock-outbound', out, user);
    if (!returned) {
      returned = true;
      const back = ship[0];
      // The goods come back under the batch they left with.
      const left = await sql<{ batchNo: string }>`
        SELECT batch_no FROM stock_ledger WHERE doc_type = 'stock-outbound' AND doc_id = ${out}
         ORDER BY id LIMIT 1`.execute(db);
      const id = await createRecord(
        { db, user, def: stockInboundResource },
        {
          type: 'sales-return',
          warehouseId: fg.id,
          bizDate: day(-o.age + 20),
          saleOrderId: o.id,
          remark: '客户反馈异响，退回待检',
          lines: [
            {
              ...back,
              quantity: Decimal.min(5, back.quantity).toString(),
              batchNo: left.rows[0]?.batchNo || undefined,
              qualityStatus: 'pending',
            },
          ],
        },
        DOC_HOOKS['stock-inbound'],
      );
      await postDocumentByName(db, 'stock-inbound', id, user);
    }
  }
}

/**
 * Demo 备货单: the planner's stock-up of fast movers for the season, approved ones waiting for
 * production, one closed when a forecast fell through, this week's a draft.
 */
export async function seedDemoStockUp(db: Db, user: AuthUser): Promise<void> {
  const products = (
    await db
      .selectFrom('material')
      .select(['id'])
      .where('salePrice', 'is not', null)
      .where('status', '=', '1')
      .orderBy('id')
      .execute()
  ).map((m: any) => m.id as number);
  const customers = (
    await db.selectFrom('customer').select(['id']).where('state', '=', '1').orderBy('id').execute()
  ).map((c: any) => c.id as number);
  if (!products.length) return;
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const plan: { age: number; state: 'draft' | 'approved' | 'closed'; purpose: string }[] = [
    { age: 40, state: 'approved', purpose: '春节前旺季备货（深沟球轴承常用型号）' },
    { age: 26, state: 'closed', purpose: '摩托车配件客户预测备货' },
    { age: 12, state: 'approved', purpose: '安全库存补充' },
    { age: 2, state: 'draft', purpose: '下季度电机客户预测备货' },
  ];
  for (const [i, p] of plan.entries()) {
    const orderDate = day(-p.age);
    const id = await createRecord(
      { db, user, def: stockUpOrderResource },
      {
        orderDate,
        requiredDate: day(-p.age + 30),
        purpose: p.purpose,
        customerId: i === 1 && customers.length ? customers[0] : undefined,
        lines: [0, 1].map((k) => ({
          materialId: products[(i * 2 + k) % products.length],
          quantity: String(500 + k * 300),
        })),
      },
      stockUpHooks,
    );
    await sql`UPDATE stock_up_order SET created_at = ${dayInstant(orderDate)}, updated_at = ${dayInstant(orderDate)}
               WHERE id = ${id}`.execute(db);
    if (p.state === 'draft') continue;
    await runTransition(db, user, stockUpOrderResource, 'approve', id, {}, stockUpTransitions.approve);
    if (p.state === 'closed')
      await runTransition(db, user, stockUpOrderResource, 'close', id, { reason: '客户预测取消' });
  }
}
