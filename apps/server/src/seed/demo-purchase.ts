import {
  outsourcingOrderResource,
  purchaseOrderResource,
  purchaseRequisitionResource,
  stockInboundResource,
  stockOutboundResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { outsourcingOrderHooks, outsourcingOrderTransitions } from '../modules/purchase/outsourcing-order.ts';
import { purchaseOrderHooks, purchaseOrderTransitions } from '../modules/purchase/purchase-order.ts';
import { requisitionHooks, requisitionTransitions, toOrders } from '../modules/purchase/requisition.ts';
import { DOC_HOOKS, postDocumentByName } from '../modules/warehouse/documents.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay, dayInstant } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { runTransition } from '../platform/resource/lifecycle.ts';

/**
 * Demo purchase orders of the last two months for the raw-material store, made by buy01 through
 * the same commands as users' orders: the older ones received against the order in one or two
 * deliveries (采购入库 posted by the keeper), one with part of a delivery sent back (采购退货出库),
 * the latest ones approved and waiting, this week's a draft.
 */
export async function seedDemoPurchase(db: Db, user: AuthUser): Promise<void> {
  const suppliers = (
    await db.selectFrom('supplier').select('id').where('status', '=', '1').orderBy('id').execute()
  ).map((s: any) => s.id as number);
  const raw = (await db
    .selectFrom('material as m')
    .innerJoin('warehouse as w', 'w.id', 'm.defaultWarehouseId')
    .select(['m.id', 'm.batchManaged', 'm.standardCost', 'm.safetyStockMin'])
    .where('w.code', '=', 'WH-RM')
    .orderBy('m.id')
    .execute()) as any[];
  const store = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH-RM').executeTakeFirst();
  if (!suppliers.length || !raw.length || !store) return;
  const buyer = await db
    .selectFrom('appUser')
    .select('id')
    .where('userName', '=', 'buy01')
    .executeTakeFirst();
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));

  for (let i = 0; i < 10; i++) {
    const age = 60 - i * 6; // days ago: 60 … 6
    const orderDate = day(-age);
    const materials = raw.slice(i % raw.length, (i % raw.length) + 1 + (i % 2));
    const lines = materials.map((m: any, k: number) => ({
      materialId: m.id,
      quantity: new Decimal(m.safetyStockMin ?? 100).times(2 + k).toString(),
      unitPrice: m.standardCost ? new Decimal(m.standardCost).times(1 + (i % 4) / 100).toFixed(2) : '10',
    }));
    const id = await createRecord(
      { db, user, def: purchaseOrderResource },
      {
        supplierId: suppliers[i % suppliers.length],
        orderDate,
        deliveryDate: day(-age + 14),
        buyerId: buyer?.id ?? user.id,
        lines,
      },
      purchaseOrderHooks,
    );
    await sql`UPDATE purchase_order SET created_at = ${dayInstant(orderDate)}, updated_at = ${dayInstant(orderDate)}
               WHERE id = ${id}`.execute(db);
    if (age <= 6) continue; // this week's order is still a draft
    await runTransition(db, user, purchaseOrderResource, 'approve', id, {}, purchaseOrderTransitions.approve);
    if (age <= 18) continue; // recent orders are on their way
    const orderLines = (await db
      .selectFrom('purchaseOrderLine')
      .select(['id', 'materialId', 'baseQuantity'])
      .where('purchaseOrderId', '=', id)
      .orderBy('lineNo')
      .execute()) as any[];
    // Older orders arrived in full; the middle ones in part.
    const share = age > 36 ? 1 : 0.6;
    const receipt = await createRecord(
      { db, user, def: stockInboundResource },
      {
        type: 'purchase',
        warehouseId: store.id,
        bizDate: day(-age + 10),
        purchaseOrderId: id,
        remark: '按采购订单到货',
        lines: orderLines.map((l, k) => ({
          materialId: l.materialId,
          quantity: new Decimal(l.baseQuantity).times(share).floor().toString(),
          sourceLineId: l.id,
          batchNo: raw.find((m: any) => m.id === l.materialId)?.batchManaged
            ? `HT${orderDate.slice(2, 4)}${4000 + i * 10 + k}`
            : undefined,
          unitPrice: lines[k].unitPrice,
        })),
      },
      DOC_HOOKS['stock-inbound'],
    );
    await postDocumentByName(db, 'stock-inbound', receipt, user);
    if (i === 2) {
      // Incoming inspection found a bad heat: part of the delivery goes back.
      const l = orderLines[0];
      const left = await sql<{ batchNo: string }>`
        SELECT batch_no FROM stock_ledger WHERE doc_type = 'stock-inbound' AND doc_id = ${receipt} ORDER BY id LIMIT 1`.execute(
        db,
      );
      const back = await createRecord(
        { db, user, def: stockOutboundResource },
        {
          type: 'purchase-return',
          warehouseId: store.id,
          bizDate: day(-age + 12),
          purchaseOrderId: id,
          remark: '来料检验硬度不合格，退回供应商',
          lines: [
            {
              materialId: l.materialId,
              quantity: new Decimal(l.baseQuantity).div(10).floor().toString(),
              sourceLineId: l.id,
              batchNo: left.rows[0]?.batchNo || undefined,
            },
          ],
        },
        DOC_HOOKS['stock-outbound'],
      );
      await postDocumentByName(db, 'stock-outbound', back, user);
    }
  }
}

/**
 * Demo 请购单 of the last five weeks, raised by the planner for raw materials: the oldest fully
 * turned into a purchase order, one partly, one closed, one approved and waiting for the buyer
 * (从请购单生成), and this week's a draft.
 */
export async function seedDemoRequisitions(db: Db, user: AuthUser): Promise<void> {
  const raw = (await db
    .selectFrom('material as m')
    .innerJoin('warehouse as w', 'w.id', 'm.defaultWarehouseId')
    .select(['m.id', 'm.safetyStockMin'])
    .where('w.code', '=', 'WH-RM')
    .orderBy('m.id')
    .execute()) as any[];
  const suppliers = (
    await db.selectFrom('supplier').select('id').where('status', '=', '1').orderBy('id').execute()
  ).map((s: any) => s.id as number);
  const planner = await db
    .selectFrom('appUser')
    .select('id')
    .where('userName', '=', 'plan01')
    .executeTakeFirst();
  if (!raw.length || !suppliers.length) return;
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const plan: {
    age: number;
    state: 'ordered' | 'partly' | 'closed' | 'approved' | 'draft';
    reason: string;
  }[] = [
    { age: 35, state: 'ordered', reason: '6204 套圈月度投产备料' },
    { age: 28, state: 'closed', reason: '6305 试制用料（客户取消试制）' },
    { age: 21, state: 'partly', reason: '6206 内外圈投产缺料' },
    { age: 10, state: 'approved', reason: '保持架冲压件低于安全库存' },
    { age: 3, state: 'draft', reason: '下月滚动计划备料' },
  ];
  for (const [i, p] of plan.entries()) {
    const requestDate = day(-p.age);
    const materials = raw.slice((i * 2) % raw.length, ((i * 2) % raw.length) + 2);
    const id = await createRecord(
      { db, user, def: purchaseRequisitionResource },
      {
        requestDate,
        requiredDate: day(-p.age + 14),
        requesterId: planner?.id ?? user.id,
        reason: p.reason,
        lines: materials.map((m: any, k: number) => ({
          materialId: m.id,
          quantity: new Decimal(m.safetyStockMin ?? 100).times(k + 1).toString(),
          supplierId: suppliers[(i + k) % suppliers.length],
        })),
      },
      requisitionHooks,
    );
    await sql`UPDATE purchase_requisition SET created_at = ${dayInstant(requestDate)}, updated_at = ${dayInstant(requestDate)}
               WHERE id = ${id}`.execute(db);
    if (p.state === 'draft') continue;
    await runTransition(
      db,
      user,
      purchaseRequisitionResource,
      'approve',
      id,
      {},
      requisitionTransitions.approve,
    );
    const lines = (await db
      .selectFrom('purchaseRequisitionLine')
      .select(['id', 'baseQuantity'])
      .where('purchaseRequisitionId', '=', id)
      .orderBy('lineNo')
      .execute()) as any[];
    if (p.state === 'ordered' || p.state === 'partly') {
      const chosen = p.state === 'ordered' ? lines : lines.slice(0, 1);
      await toOrders(db, user, {
        orderDate: day(-p.age + 2),
        lines: chosen.map((l) => ({
          requisitionLineId: l.id,
          quantity: p.state === 'partly' ? new Decimal(l.baseQuantity).div(2).toString() : undefined,
        })),
      });
    }
    if (p.state === 'closed') {
      await runTransition(db, user, purchaseRequisitionResource, 'close', id, { reason: '客户取消试制' });
    }
  }
}

/**
 * One 委外订单 out for heat treatment (热处理) at the heat-treatment supplier, three weeks old: the
 * turned rings went out on a 委外发料出库 and about 60% came back on a 委外入库 into the
 * semi-finished store's 热处理返回待检区; the rest is still at the supplier.
 */
export async function seedDemoOutsourcing(db: Db, user: AuthUser): Promise<void> {
  const process = await db.selectFrom('process').select('id').where('name', '=', '热处理').executeTakeFirst();
  const supplier =
    (await db
      .selectFrom('supplier as s')
      .innerJoin('supplierClassify as c', 'c.id', 's.classifyId')
      .select('s.id')
      .where('c.name', '=', '热处理外协')
      .orderBy('s.id')
      .executeTakeFirst()) ?? (await db.selectFrom('supplier').select('id').orderBy('id').executeTakeFirst());
  const store = await db.selectFrom('warehouse').select('id').where('code', '=', 'WH-SF').executeTakeFirst();
  if (!process || !supplier || !store) return;
  // Rings with qualified stock in the semi-finished store, sent out in round tens.
  const rings = (
    await sql<{ materialId: number; quantity: string }>`
    SELECT b.material_id, sum(b.quantity)::text AS quantity FROM stock_balance b
     WHERE b.warehouse_id = ${store.id} AND b.quality_status = 'qualified'
     GROUP BY b.material_id HAVING sum(b.quantity) >= 20 ORDER BY b.material_id LIMIT 2`.execute(db)
  ).rows;
  if (!rings.length) return;
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const send = rings.map((r) => Decimal.min(new Decimal(r.quantity), 400).div(10).floor().times(10));
  const id = await createRecord(
    { db, user, def: outsourcingOrderResource },
    {
      supplierId: supplier.id,
      processId: process.id,
      orderDate: day(-21),
      deliveryDate: day(-7),
      remark: '车加工套圈委外淬火+回火，返回检验硬度 HRC 60–64',
      lines: rings.map((r, k) => ({
        materialId: r.materialId,
        quantity: send[k].toString(),
        unitPrice: '0.85',
      })),
    },
    outsourcingOrderHooks,
  );
  await sql`UPDATE outsourcing_order SET created_at = ${dayInstant(day(-21))}, updated_at = ${dayInstant(day(-21))}
             WHERE id = ${id}`.execute(db);
  await runTransition(
    db,
    user,
    outsourcingOrderResource,
    'approve',
    id,
    {},
    outsourcingOrderTransitions.approve,
  );
  const lines = (await db
    .selectFrom('outsourcingOrderLine')
    .select(['id', 'materialId', 'baseQuantity'])
    .where('outsourcingOrderId', '=', id)
    .orderBy('lineNo')
    .execute()) as any[];
  const out = await createRecord(
    { db, user, def: stockOutboundResource },
    {
      type: 'outsourcing',
      warehouseId: store.id,
      bizDate: day(-19),
      outsourcingOrderId: id,
      remark: '送常州热处理',
      lines: lines.map((l) => ({ materialId: l.materialId, quantity: l.baseQuantity, sourceLineId: l.id })),
    },
    DOC_HOOKS['stock-outbound'],
  );
  await postDocumentByName(db, 'stock-outbound', out, user);
  const returnArea = await db
    .selectFrom('shelfLocation')
    .select('id')
    .where('warehouseId', '=', store.id)
    .where('code', '=', 'SF-Q01')
    .executeTakeFirst();
  const back = await createRecord(
    { db, user, def: stockInboundResource },
    {
      type: 'outsourced',
      warehouseId: store.id,
      bizDate: day(-9),
      outsourcingOrderId: id,
      remark: '第一批热处理件返回',
      lines: lines.map((l) => ({
        materialId: l.materialId,
        quantity: new Decimal(l.baseQuantity).times(0.6).floor().toString(),
        sourceLineId: l.id,
        locationId: returnArea?.id,
      })),
    },
    DOC_HOOKS['stock-inbound'],
  );
  await postDocumentByName(db, 'stock-inbound', back, user);
}
