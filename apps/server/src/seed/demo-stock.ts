import {
  stockInboundResource,
  stockOutboundResource,
  stockTransferResource,
  stocktakeResource,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { DOC_HOOKS, postDocumentByName } from '../modules/warehouse/documents.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';
import { MEASURED_PRODUCTS } from './demo-measure.ts';
import { seedUser } from './seed-user.ts';

/**
 * Demo stock: opening balances three weeks ago, then a few weeks of posted documents — steel
 * bought by heat number, issued to turning, bearings shipped to customers, a transfer of rings
 * to the semi-finished store and a count of the auxiliary store with differences. Everything goes
 * through the same document commands and posting service as users' documents.
 */
export async function seedDemoStock(db: Db, adminId: number): Promise<void> {
  const user = seedUser(adminId);
  const materials = (await db
    .selectFrom('material as m')
    .leftJoin('warehouse as w', 'w.id', 'm.defaultWarehouseId')
    .select([
      'm.id',
      'm.code',
      'm.name',
      'm.batchManaged',
      'm.standardCost',
      'm.safetyStockMin',
      'm.defaultWarehouseId',
      'w.code as warehouseCode',
    ])
    .where('m.defaultWarehouseId', 'is not', null)
    .orderBy('m.id')
    .execute()) as any[];
  if (!materials.length) return;
  const warehouses = new Map(
    (await db.selectFrom('warehouse').select(['id', 'code']).execute()).map((w: any) => [
      w.code,
      w.id as number,
    ]),
  );
  const firstLocation = new Map<number, number>();
  const lastLocationOf = new Map<number, number>();
  for (const l of (await db
    .selectFrom('shelfLocation')
    .select(['id', 'warehouseId'])
    .orderBy('id')
    .execute()) as any[]) {
    if (!firstLocation.has(l.warehouseId)) firstLocation.set(l.warehouseId, l.id);
    lastLocationOf.set(l.warehouseId, l.id);
  }
  const supplier =
    (await db.selectFrom('supplier').select('id').orderBy('id').executeTakeFirst())?.id ?? null;
  const customers = (
    await db.selectFrom('customer').select('id').where('state', '=', '1').orderBy('id').limit(5).execute()
  ).map((c: any) => c.id);
  const production =
    (await db.selectFrom('dept').select('id').where('deptName', '=', '生产部').executeTakeFirst())?.id ??
    null;

  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  const heat = (m: any, n: number) =>
    m.batchManaged ? `HT${day(-30).slice(2, 4)}${String(1000 + m.id * 7 + n)}` : undefined;
  const post = async (def: typeof stockInboundResource, body: Record<string, unknown>) => {
    const id = await createRecord({ db, user, def }, body, DOC_HOOKS[def.name]);
    await postDocumentByName(db, def.name, id, user);
    return id;
  };
  const opening = (m: any) => new Decimal(m.safetyStockMin ?? 100).times(3).toNumber();

  // Opening balances per warehouse, at standard cost.
  const byWarehouse = new Map<number, any[]>();
  for (const m of materials)
    byWarehouse.set(m.defaultWarehouseId, [...(byWarehouse.get(m.defaultWarehouseId) ?? []), m]);
  for (const [warehouseId, list] of byWarehouse) {
    await post(stockInboundResource, {
      type: 'other',
      warehouseId,
      bizDate: day(-21),
      remark: '期初库存',
      lines: list.map((m) => ({
        materialId: m.id,
        quantity: opening(m),
        locationId: firstLocation.get(warehouseId),
        batchNo: heat(m, 0),
        unitPrice: m.standardCost ?? '1',
      })),
    });
  }

  const raw = materials.filter((m) => m.warehouseCode === 'WH-RM');
  const finished = materials.filter((m) => m.warehouseCode === 'WH-FG');
  const rawWh = warehouses.get('WH-RM');
  const fgWh = warehouses.get('WH-FG');
  for (let d = -20, n = 1; d <= -1; d += 2, n++) {
    if (rawWh && raw.length) {
      const m = raw[n % raw.length];
      await post(stockInboundResource, {
        type: 'purchase',
        warehouseId: rawWh,
        bizDate: day(d),
        supplierId: supplier,
        sourceNo: `CG${day(d).replaceAll('-', '')}-00${n % 9}`,
        lines: [
          {
            materialId: m.id,
            quantity: opening(m) / 2,
            locationId: firstLocation.get(rawWh),
            batchNo: heat(m, n),
            unitPrice: new Decimal(m.standardCost ?? 1).times(1 + (n % 3) / 50).toFixed(2),
          },
        ],
      });
      const issue = raw[(n + 1) % raw.length];
      await post(stockOutboundResource, {
        type: 'requisition',
        warehouseId: rawWh,
        bizDate: day(d + 1),
        deptId: production,
        sourceNo: `SC${day(d).replaceAll('-', '')}-00${n % 9}`,
        remark: '车加工领料',
        lines: [{ materialId: issue.id, quantity: Math.max(1, Math.floor(opening(issue) / 8)) }],
      });
    }
    if (fgWh && finished.length && customers.length && n % 2 === 0) {
      const m = finished[n % finished.length];
      await post(stockOutboundResource, {
        type: 'sales',
        warehouseId: fgWh,
        bizDate: day(d),
        customerId: customers[n % customers.length],
        sourceNo: `XS${day(d).replaceAll('-', '')}-00${n % 9}`,
        lines: [{ materialId: m.id, quantity: Math.max(1, Math.floor(opening(m) / 10)) }],
      });
    }
  }

  const semi = materials.filter((m) => m.warehouseCode === 'WH-SF');
  const sfWh = warehouses.get('WH-SF');
  const axWh = warehouses.get('WH-AX');
  if (sfWh && semi.length) {
    await post(stockTransferResource, {
      fromWarehouseId: sfWh,
      toWarehouseId: sfWh,
      bizDate: day(-5),
      remark: '磨加工完工套圈移库',
      lines: semi
        .slice(0, 2)
        .map((m) => ({ materialId: m.id, quantity: 20, toLocationId: lastLocation(sfWh) })),
    });
  }
  if (axWh) {
    const id = await createRecord(
      { db, user, def: stocktakeResource },
      { warehouseId: axWh, bizDate: day(-2), remark: '月末辅料盘点' },
      DOC_HOOKS.stocktake,
    );
    const lines = (await db
      .selectFrom('stockBalance')
      .select(['materialId', 'locationId', 'batchNo', 'qualityStatus', 'quantity'])
      .where('warehouseId', '=', axWh)
      .where('quantity', '>', '0' as any)
      .orderBy('materialId')
      .execute()) as any[];
    await db
      .insertInto('stocktakeLine')
      .values(
        lines.map((l, i) => ({
          stocktakeId: id,
          lineNo: i + 1,
          materialId: l.materialId,
          locationId: l.locationId,
          batchNo: l.batchNo || null,
          qualityStatus: l.qualityStatus,
          bookQuantity: l.quantity,
          // Two items counted off: one short, one over.
          countedQuantity:
            i === 0
              ? new Decimal(l.quantity).minus(3).toString()
              : i === 1
                ? new Decimal(l.quantity).plus(2).toString()
                : l.quantity,
        })),
      )
      .execute();
    if (lines.length) await postDocumentByName(db, 'stocktake', id, user);
  }

  function lastLocation(warehouseId: number) {
    return lastLocationOf.get(warehouseId);
  }
}

/**
 * Stamps the demo's stock documents and their ledger rows with their business dates (a working
 * morning, in number order) instead of the moment the seed ran.
 */
export async function stampStockDocuments(db: Db): Promise<void> {
  for (const table of ['stock_inbound', 'stock_outbound', 'stock_transfer', 'stocktake']) {
    await sql`UPDATE ${sql.table(table)}
                 SET created_at = (biz_date + time '08:30' + right(doc_no, 4)::int * interval '7 minutes') AT TIME ZONE 'Asia/Shanghai',
                     updated_at = (biz_date + time '08:30' + right(doc_no, 4)::int * interval '7 minutes') AT TIME ZONE 'Asia/Shanghai',
                     posted_at = CASE WHEN posted_at IS NOT NULL THEN
                                 (biz_date + time '08:35' + right(doc_no, 4)::int * interval '7 minutes') AT TIME ZONE 'Asia/Shanghai' END`.execute(
      db,
    );
    await sql`UPDATE stock_ledger l SET created_at = d.posted_at
                FROM ${sql.table(table)} d
               WHERE l.doc_no = d.doc_no AND d.posted_at IS NOT NULL`.execute(db);
  }
}

/**
 * A rush shipment, after the demo's production has received its bearings, leaves one finished
 * bearing below its safety minimum, so 库存预警 and the keepers' messages have something to show.
 */
export async function seedRushShipment(db: Db, user: AuthUser): Promise<void> {
  const r = await sql<{ id: number; min: string; warehouseId: number; q: string }>`
    SELECT m.id, m.safety_stock_min::text AS min, s.warehouse_id, sum(s.quantity)::text AS q
      FROM material m JOIN stock_balance s ON s.material_id = m.id JOIN warehouse w ON w.id = s.warehouse_id
     WHERE m.code LIKE 'FG-%' AND m.safety_stock_min > 0 AND w.type = 'finished' AND s.quality_status = 'qualified'
     GROUP BY m.id, m.code, m.safety_stock_min, s.warehouse_id
    HAVING sum(s.quantity) > m.safety_stock_min
     ORDER BY m.code DESC LIMIT 1`.execute(db);
  const customer = await sql<{ id: number }>`SELECT id FROM customer ORDER BY id LIMIT 1`.execute(db);
  const rush = r.rows[0];
  if (!rush || !customer.rows[0]) return;
  const yesterday = businessDay(new Date(Date.now() - 86_400_000));
  const id = await createRecord(
    { db, user, def: stockOutboundResource },
    {
      type: 'sales',
      warehouseId: Number(rush.warehouseId),
      bizDate: yesterday,
      customerId: Number(customer.rows[0].id),
      sourceNo: `XS${yesterday.replaceAll('-', '')}-018`,
      remark: '大客户紧急发货',
      lines: [
        {
          materialId: Number(rush.id),
          quantity: new Decimal(rush.q).minus(new Decimal(rush.min).div(2).floor()).toString(),
        },
      ],
    },
    DOC_HOOKS['stock-outbound'],
  );
  await postDocumentByName(db, 'stock-outbound', id, user);
}

/**
 * Shipments of bearings the demo made (issue 35, genealogy): a finished bearing card of a customer
 * order, its pieces in the finished store under the card's number, goes out on a 销售出库 against
 * the order's line — two orders, those whose rings were measured first — so the delivery traces
 * back through 装配领用 to the ring cards, their steps, inspections and measurements and the heats
 * of the steel, and each heat forward to the customer.
 */
export async function seedTracedShipments(db: Db, user: AuthUser): Promise<void> {
  const r = await sql<{
    docNo: string;
    productId: number;
    saleOrderId: number;
    lineId: number;
    warehouseId: number;
    quantity: string;
    bizDate: string;
  }>`
    SELECT DISTINCT ON (o.id) c.doc_no, c.product_id, o.sale_order_id, sl.id AS line_id, b.warehouse_id,
           least(b.quantity, sl.base_quantity - sl.shipped_quantity, 200)::text AS quantity,
           to_char(greatest(i.biz_date + 1, (now() AT TIME ZONE 'Asia/Shanghai')::date - 2), 'YYYY-MM-DD') AS biz_date,
           EXISTS (SELECT 1 FROM flow_card_link l JOIN flow_card ring ON ring.id = l.parent_id
                     JOIN material m ON m.id = ring.product_id
                    WHERE l.child_id = c.id AND l.kind = 'assembly'
                      AND m.code = ANY(${sql.val(MEASURED_PRODUCTS)}::text[])) AS measured
      FROM flow_card c
      JOIN production_order o ON o.id = c.production_order_id AND o.parent_order_id IS NULL
      JOIN sale_order so ON so.id = o.sale_order_id AND so.status IN ('approved', 'producing', 'partly-shipped')
      JOIN sale_order_line sl ON sl.id = o.sale_order_line_id AND sl.base_quantity > sl.shipped_quantity
      JOIN stock_balance b ON b.material_id = c.product_id AND b.batch_no = c.doc_no
                          AND b.quality_status = 'qualified' AND b.quantity >= 1
      JOIN LATERAL (SELECT max(l.biz_date) AS biz_date FROM stock_ledger l
                     WHERE l.batch_no = c.doc_no AND l.material_id = c.product_id AND l.doc_type = 'stock-inbound') i ON true
     WHERE c.status = 'completed'
       AND EXISTS (SELECT 1 FROM flow_card_link l WHERE l.child_id = c.id AND l.kind = 'assembly')
     ORDER BY o.id, measured DESC, c.id`.execute(db);
  const picked = [...r.rows]
    .sort((a: any, b: any) => Number(b.measured) - Number(a.measured) || Number(a.lineId) - Number(b.lineId))
    .slice(0, 2);
  for (const x of picked) {
    const quantity = new Decimal(x.quantity).floor();
    if (quantity.lte(0)) continue;
    const id = await createRecord(
      { db, user, def: stockOutboundResource },
      {
        type: 'sales',
        warehouseId: Number(x.warehouseId),
        bizDate: x.bizDate,
        saleOrderId: Number(x.saleOrderId),
        remark: '按订单发货（整卡批次）',
        lines: [
          {
            materialId: Number(x.productId),
            quantity: quantity.toString(),
            sourceLineId: Number(x.lineId),
            batchNo: x.docNo,
          },
        ],
      },
      DOC_HOOKS['stock-outbound'],
    );
    await postDocumentByName(db, 'stock-outbound', id, user);
  }
}
