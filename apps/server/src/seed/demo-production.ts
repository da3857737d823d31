import { productionOrderResource, stockOutboundResource } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { mergeFlowCards, openFlowCards, splitFlowCard } from '../modules/production/flow-card.ts';
import {
  fromSaleLines,
  productionOrderHooks,
  productionOrderTransitions,
} from '../modules/production/production-order.ts';
import { dispatchOrder } from '../modules/production/production-order-dispatch.ts';
import { rebuildWorkReportRollup } from '../modules/production/report-rollup.ts';
import { LEAD_DAYS, makeSubOrders, subOrderPlan } from '../modules/production/sub-orders.ts';
import { DOC_HOOKS, postDocumentByName } from '../modules/warehouse/documents.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { addDays, businessDay, dayInstant } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';
import { seedOrderFloor } from './demo-workshop.ts';

type Stage = 'completed' | 'producing' | 'released' | 'closed' | 'draft';

/** Days of assembly the demo plans before an order's due date (the rings are due when it starts). */
const ASSEMBLY_DAYS = 5;

/** A demo order's plan: made and released on `planDay`, work from `start`, due on `due`. */
interface Planned {
  id: number;
  planDay: string;
  start: string;
  due: string;
  stage: Stage;
}

/**
 * Demo 生产订单 of the last five weeks, planned by plan01 from the approved demo sales orders (one
 * per order line, through 从销售订单生成) two days after each came in, and planned back from the
 * line's delivery date: assembly in the last ASSEMBLY_DAYS, the rings (生成自制件订单) in the
 * LEAD_DAYS before it. Each order is where its dates put it today: delivered ones completed (the
 * latest of them still in assembly, a few days late), those whose assembly has begun in production
 * with their rings made, those whose rings are under way released, and the newest, whose rings
 * start in the next days or the last two, drafts on the planner's desk; one released order was
 * closed when its customer put the delivery off. Two stock-up orders for bearings without a
 * customer order are made by hand, one of them a 20,000-piece run released ahead.
 */
export async function seedDemoProduction(db: Db, user: AuthUser): Promise<void> {
  const planner = await db
    .selectFrom('appUser')
    .select(['id', 'firstName', 'deptId'])
    .where('userName', '=', 'plan01')
    .executeTakeFirst();
  const by: AuthUser = planner
    ? { ...user, id: planner.id, userName: 'plan01', firstName: planner.firstName, deptId: planner.deptId }
    : user;
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const today = day(0);
  const lines = await sql<{ id: number; orderDate: string; due: string }>`
    SELECT l.id, to_char(o.order_date, 'YYYY-MM-DD') AS order_date,
           to_char(COALESCE(l.delivery_date, o.delivery_date), 'YYYY-MM-DD') AS due
      FROM sale_order_line l JOIN sale_order o ON o.id = l.sale_order_id
     WHERE o.status IN ('approved', 'partly-shipped', 'producing') AND o.order_date >= ${day(-38)}
       AND EXISTS (SELECT 1 FROM bom b WHERE b.product_id = l.material_id AND b.status = 'active')
     ORDER BY o.order_date, o.id, l.line_no
     LIMIT 20`.execute(db);
  const planned: Planned[] = [];
  for (const l of lines.rows) {
    const start = addDays(l.due, -ASSEMBLY_DAYS);
    const { orders } = await fromSaleLines(db, by, {
      plannedStartDate: start,
      priority: planned.length % 5 === 1 ? 'high' : planned.length % 7 === 3 ? 'urgent' : 'normal',
      lines: [{ saleOrderLineId: Number(l.id) }],
    });
    const planDay = min(addDays(l.orderDate, 2), today);
    const ringStart = addDays(start, -LEAD_DAYS);
    const stage: Stage =
      l.due < today
        ? 'completed'
        : start <= today
          ? 'producing'
          : ringStart < addDays(today, -2)
            ? 'released'
            : 'draft';
    planned.push({ id: orders[0].id, planDay, start, due: l.due, stage });
  }
  // The latest delivered is still in assembly (late); the first released was put off by its customer.
  const late = planned.filter((o) => o.stage === 'completed').at(-1);
  if (late) late.stage = 'producing';
  const putOff = planned.find((o) => o.stage === 'released');
  if (putOff) putOff.stage = 'closed';
  // 备货: bearings made to stock, entered by hand; the big one, released ahead, is short of materials.
  const stockUp = await sql<{ id: number }>`
    SELECT m.id FROM material m WHERE m.code LIKE 'FG-%'
       AND EXISTS (SELECT 1 FROM bom b WHERE b.product_id = m.id AND b.status = 'active')
     ORDER BY m.code LIMIT 2`.execute(db);
  for (const [i, m] of stockUp.rows.entries()) {
    const due = day(i ? 18 : 2);
    const start = addDays(due, -ASSEMBLY_DAYS);
    const id = await createRecord(
      { db, user: by, def: productionOrderResource },
      {
        productId: m.id,
        quantity: String(i ? 20000 : 800),
        plannedStartDate: start,
        dueDate: due,
        priority: 'low',
        remark: '常用型号备货',
      },
      productionOrderHooks,
    );
    const planDay = addDays(start, -LEAD_DAYS - (i ? 11 : 2));
    planned.push({ id, planDay, start, due, stage: i ? 'released' : 'producing' });
  }
  planned.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id));

  for (const [n, o] of planned.entries()) {
    await stamp(db, o.id, o.planDay);
    if (o.stage === 'draft') continue;
    await runTransition(
      db,
      by,
      productionOrderResource,
      'release',
      o.id,
      {},
      productionOrderTransitions.release,
    );
    await sql`UPDATE production_order SET released_at = ${dayInstant(o.planDay)} WHERE id = ${o.id}`.execute(
      db,
    );
    if (o.stage === 'closed') {
      await dispatchOrder(db, by, o.id, undefined);
      await runTransition(
        db,
        by,
        productionOrderResource,
        'close',
        o.id,
        { reason: '客户推迟交货，暂停生产' },
        productionOrderTransitions.close,
      );
      continue;
    }
    // The rings are made first, in turning, heat treatment, grinding and inspection: done once the
    // assembly has begun, under way from their own start, else waiting for it.
    const ringStart = addDays(o.start, -LEAD_DAYS);
    // Rings the ring store still has are taken from it (MRP nets them): only the rest is made.
    const { orders: rings } = (await subOrderPlan(db, o.id)).parts.length
      ? await makeSubOrders(db, by, o.id, undefined, { plannedStartDate: ringStart, dueDate: o.start })
      : { orders: [] };
    const ringStage: Stage =
      o.stage !== 'released' ? 'completed' : ringStart <= today ? 'producing' : 'released';
    for (const [k, r] of rings.entries()) {
      await stamp(db, r.id, o.planDay);
      await advance(db, user, by, r.id, { planDay: o.planDay, start: ringStart }, ringStage, n + k);
    }
    await advance(db, user, by, o.id, o, o.stage, n);
  }
  // The floor's reports were written in bulk (demo-workshop.ts): the report rollups and card
  // summaries from them, once.
  await rebuildWorkReportRollup(db);
}

const min = (a: string, b: string) => (a < b ? a : b);

/** Dates an order's creation on the day it was planned. */
async function stamp(db: Db, id: number, day: string) {
  const at = dayInstant(day);
  await sql`UPDATE production_order SET created_at = ${at}, updated_at = ${at} WHERE id = ${id}`.execute(db);
}

/**
 * Moves a demo order on to `stage`: released on its plan day, its cards opened when work begins
 * (or on release, waiting), then materials issued on its start, work on the floor (tasks and
 * dispatches, see demo-workshop.ts) and, for completed ones, 完工.
 */
async function advance(
  db: Db,
  user: AuthUser,
  by: AuthUser,
  id: number,
  dates: { planDay: string; start: string },
  stage: 'released' | 'producing' | 'completed',
  n: number,
) {
  const run = (name: string, reason?: string) =>
    runTransition(db, by, productionOrderResource, name, id, { reason }, productionOrderTransitions[name]);
  const status = async () =>
    (await db.selectFrom('productionOrder').select('status').where('id', '=', id).executeTakeFirst())?.status;
  if ((await status()) === 'draft') {
    await run('release');
    await sql`UPDATE production_order SET released_at = ${dayInstant(dates.planDay)} WHERE id = ${id}`.execute(
      db,
    );
  }
  if (
    !(await sql`SELECT 1 FROM flow_card WHERE production_order_id = ${id} LIMIT 1`.execute(db)).rows.length
  ) {
    await openDemoCards(db, by, id, stage === 'released' ? dates.planDay : dates.start);
  }
  if (stage === 'released') {
    await seedOrderFloor(db, user, id, 'released', n);
    return;
  }
  await issueMaterials(db, user, id, dates.start);
  await heatsFromIssues(db, id);
  if ((await status()) === 'released') await run('start');
  await seedOrderFloor(db, user, id, stage, n);
  if (stage === 'completed') {
    await sql`UPDATE production_order SET produced_quantity = quantity WHERE id = ${id}`.execute(db);
    await run('complete');
  }
}

/**
 * The order in which the demo's keeper issues an order's material, batch by batch: the rings its
 * own ring orders made (their 完工入库 batches are the ring cards' numbers: 装配领用 links the
 * bearing cards to them), then steel of heats bought from a supplier (采购入库), then the oldest
 * stock. Balances of qualified stock, one row each.
 */
function issueOrder(orderId: number, materialId: unknown) {
  return sql<{ warehouseId: number; batchNo: string; quantity: string }>`
    SELECT b.warehouse_id, b.batch_no, b.quantity::text AS quantity
      FROM stock_balance b
     WHERE b.material_id = ${materialId} AND b.quality_status = 'qualified' AND b.quantity > 0
     ORDER BY EXISTS (SELECT 1 FROM flow_card c JOIN production_order r ON r.id = c.production_order_id
                       WHERE c.doc_no = b.batch_no AND c.product_id = b.material_id AND r.parent_order_id = ${orderId}) DESC,
              EXISTS (SELECT 1 FROM stock_ledger l JOIN stock_inbound i ON i.id = l.doc_id
                       WHERE l.doc_type = 'stock-inbound' AND l.batch_no = b.batch_no AND b.batch_no <> ''
                         AND l.material_id = b.material_id AND i.type = 'purchase') DESC,
              b.first_in_at, b.id`;
}

/**
 * 领料出库 of an order's requirements as far as stock allows, batch by batch in `issueOrder`'s
 * order: one document per store.
 */
async function issueMaterials(db: Db, user: AuthUser, orderId: number, bizDate: string) {
  const needs = await sql<{ id: number; materialId: number; quantity: string }>`
    SELECT pm.id, pm.material_id, (pm.required_quantity - pm.issued_quantity)::text AS quantity
      FROM production_order_material pm
     WHERE pm.production_order_id = ${orderId} AND pm.required_quantity > pm.issued_quantity
     ORDER BY pm.id`.execute(db);
  const byStore = new Map<
    number,
    { materialId: number; quantity: string; sourceLineId: number; batchNo?: string }[]
  >();
  for (const x of needs.rows) {
    let left = new Decimal(x.quantity);
    for (const b of (await issueOrder(orderId, x.materialId).execute(db)).rows) {
      if (left.lte(0)) break;
      // Whole pieces of a counted material, as the keeper hands them out.
      const take = Decimal.min(left, b.quantity);
      const quantity = Number.isInteger(Number(x.quantity)) ? take.floor() : take;
      if (quantity.lte(0)) continue;
      const list = byStore.get(Number(b.warehouseId)) ?? [];
      list.push({
        materialId: Number(x.materialId),
        quantity: quantity.toString(),
        sourceLineId: Number(x.id),
        ...(b.batchNo ? { batchNo: b.batchNo } : {}),
      });
      byStore.set(Number(b.warehouseId), list);
      left = left.minus(quantity);
    }
  }
  for (const [warehouseId, lines] of byStore) {
    const id = await createRecord(
      { db, user, def: stockOutboundResource },
      {
        type: 'requisition',
        warehouseId,
        bizDate,
        productionOrderId: orderId,
        remark: '按生产订单领料',
        lines,
      },
      DOC_HOOKS['stock-outbound'],
    );
    await postDocumentByName(db, 'stock-outbound', id, user);
  }
}

/**
 * A ring order's cards carry the heats of the steel issued to it (what the planner types at 开卡
 * from the 领料单): the issued batches of batch-managed materials other than cards, laid out in
 * issue order, shared among the cards in number order by quantity. A bearing order's cards take
 * their rings' heats from 装配领用 instead.
 */
async function heatsFromIssues(db: Db, orderId: number) {
  await sql`
    WITH o AS (SELECT id, quantity FROM production_order WHERE id = ${orderId} AND parent_order_id IS NOT NULL),
    supply AS (
      SELECT l.batch_no, -sum(l.quantity) AS q, min(l.id) AS first_move
        FROM stock_outbound d
        JOIN stock_ledger l ON l.doc_type = 'stock-outbound' AND l.doc_id = d.id AND l.batch_no <> ''
        JOIN material m ON m.id = l.material_id AND m.batch_managed
       WHERE d.production_order_id = ${orderId} AND d.type = 'requisition'
         AND NOT EXISTS (SELECT 1 FROM flow_card c WHERE c.doc_no = l.batch_no)
       GROUP BY l.batch_no HAVING sum(l.quantity) < 0),
    s AS (
      SELECT batch_no, (sum(q) OVER w - q) / sum(q) OVER () AS lo, sum(q) OVER w / sum(q) OVER () AS hi
        FROM supply WINDOW w AS (ORDER BY first_move, batch_no)),
    c AS (
      SELECT c.id, (sum(c.quantity) OVER w - c.quantity) / o.quantity AS lo, sum(c.quantity) OVER w / o.quantity AS hi
        FROM flow_card c JOIN o ON o.id = c.production_order_id
       WHERE c.origin = 'open' AND c.status <> 'closed' WINDOW w AS (ORDER BY c.id)),
    heats AS (
      SELECT c.id, string_agg(s.batch_no, '/' ORDER BY s.lo) AS heat
        FROM c JOIN s ON least(s.hi, c.hi) > greatest(s.lo, c.lo) GROUP BY c.id)
    UPDATE flow_card f SET heat_no = left(heats.heat, 100) FROM heats WHERE f.id = heats.id`.execute(db);
}

/**
 * Batches of about three cards an order, of at most 500 pieces (what a turnover cart holds): an
 * order of 900 → two cards of 500 and 400. A run of 10,000 or more (the stock-up orders) is carded
 * by the heat-treatment charge, 300 rings: 20,000 → sixty-seven cards.
 */
function batchOf(quantity: string): number {
  const q = new Decimal(quantity);
  if (q.gte(10_000)) return 300;
  return [20, 50, 100, 200].find((b) => q.div(b).lte(3)) ?? 500;
}

/**
 * 开卡 for a released demo order: cards of its batch size. A ring order's cards name the heat of
 * the steel its keeper will issue (the first batch in `issueOrder`'s order; the issue then sets
 * the heats it really took); a bearing's cards carry their rings' heats once the rings are issued.
 */
export async function openDemoCards(db: Db, by: AuthUser, orderId: number, start: string) {
  const o = await sql<{
    quantity: string;
    parentOrderId: number | null;
  }>`SELECT quantity::text AS quantity, parent_order_id FROM production_order WHERE id = ${orderId}`.execute(
    db,
  );
  const at = dayInstant(start);
  let heatNo: string | null = null;
  if (o.rows[0].parentOrderId != null) {
    const steel = await sql<{ materialId: number }>`
      SELECT pm.material_id FROM production_order_material pm JOIN material m ON m.id = pm.material_id
       WHERE pm.production_order_id = ${orderId} AND m.batch_managed ORDER BY pm.id LIMIT 1`.execute(db);
    if (steel.rows[0]) {
      const first = (await issueOrder(orderId, steel.rows[0].materialId).execute(db)).rows[0];
      heatNo = first?.batchNo || null;
    }
  }
  await openFlowCards(db, orderId, batchOf(o.rows[0].quantity), { user: by, heatNo, at });
  await sql`UPDATE flow_card SET created_at = ${at}, updated_at = ${at} WHERE production_order_id = ${orderId}`.execute(
    db,
  );
}

/**
 * The demo's split and merged cards: on a released order whose cards have not started, two cards
 * are split (60/40 and half) and two merged.
 */
export async function seedDemoFlowCards(db: Db, user: AuthUser): Promise<void> {
  const planner = await db
    .selectFrom('appUser')
    .select(['id', 'firstName', 'deptId'])
    .where('userName', '=', 'plan01')
    .executeTakeFirst();
  const by: AuthUser = planner
    ? { ...user, id: planner.id, userName: 'plan01', firstName: planner.firstName, deptId: planner.deptId }
    : user;
  // Open cards of released orders not started yet, two orders' worth: split two of the first,
  // merge two of the second.
  const r = await sql<{ id: number; quantity: string; orderId: number }>`
    SELECT c.id, c.quantity::text AS quantity, c.production_order_id AS order_id FROM flow_card c
     WHERE c.status = 'open' AND c.production_order_id IN (
             SELECT o.id FROM production_order o WHERE o.status = 'released'
                AND (SELECT count(*) FROM flow_card x WHERE x.production_order_id = o.id AND x.status = 'open') >= 2
                AND NOT EXISTS (SELECT 1 FROM flow_card_step s JOIN flow_card x ON x.id = s.flow_card_id
                                 WHERE x.production_order_id = o.id AND (s.in_time IS NOT NULL OR s.good_quantity > 0))
              ORDER BY o.released_at DESC, o.id LIMIT 2)
     ORDER BY c.production_order_id, c.id`.execute(db);
  const orders = [...new Set(r.rows.map((x) => Number(x.orderId)))];
  if (orders.length < 2) return;
  const of = (orderId: number) =>
    r.rows
      .filter((x) => Number(x.orderId) === orderId)
      .map((x) => ({ id: Number(x.id), quantity: x.quantity }));
  const [a, b] = of(orders[0]);
  const [c, d] = of(orders[1]);
  const part = (quantity: string, share: number) => {
    const first = new Decimal(quantity).times(share).floor();
    return [first.toString(), new Decimal(quantity).minus(first).toString()];
  };
  await splitFlowCard(db, by, a.id, part(a.quantity, 0.6));
  await splitFlowCard(db, by, b.id, part(b.quantity, 0.5));
  await mergeFlowCards(db, by, [c.id, d.id]);
}
