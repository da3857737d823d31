import { MrpCycleError, netBomTree, PRODUCTION_ORDER_RESERVING } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict } from '../../platform/errors.ts';
import { lockPlanning, orderMrp } from './mrp.ts';

/**
 * 下达 (release) of a production order, inside the transition's transaction:
 *  1. runs the order's MRP (`mrp.ts`): each level netted against free stock and open supply before
 *     the next is exploded, so a ring partly in stock is made only for what stock lacks and its
 *     steel is exploded from that (issue 37 §1);
 *  2. freezes the BOM from the run: every level, each row's requirement from its parent row's made
 *     quantity × quantity per × (1 + loss rate/100) in the component's base unit, a made component's
 *     planned quantity as the row's made quantity (`netBomTree`);
 *  3. freezes the route steps, each planned for the order quantity (workshop tasks reference them);
 *  4. writes the material requirements (per material, what the rows take from stock: required −
 *     made, rounded up to the unit's precision) netted against free stock: qualified on hand in
 *     every warehouse less what other released orders still need (required − issued). What free
 *     stock covers is reserved, the rest is shortage.
 * Releases run one at a time (a transaction-scoped advisory lock, taken before the run), so two
 * orders never both count the same free stock.
 */

async function routeOf(db: Db, chosen: number | null, productId: number) {
  const r = chosen
    ? await sql<{
        id: number;
        versionNo: string;
      }>`SELECT id, version_no FROM process_route WHERE id = ${chosen}`.execute(db)
    : await sql<{ id: number; versionNo: string }>`
        SELECT id, version_no FROM process_route WHERE product_id = ${productId} AND status = 'active' ORDER BY id LIMIT 1`.execute(
        db,
      );
  return r.rows[0];
}

export async function releaseOrder(db: Db, record: Record<string, any>, user: AuthUser) {
  const id = Number(record.id);
  await lockPlanning(db);
  const run = await orderMrp(db, id);
  const route = await routeOf(db, record.routeId, record.productId);
  if (!route)
    throw conflict(
      `产品「${record.productName ?? ''}」没有启用的工艺路线，请先启用工艺路线或在订单上选择路线`,
    );

  // What the order makes of each component itself: its new planned orders in the run.
  const made = new Map<number, string>();
  for (const o of run.sheet.plannedOrders) {
    if (o.firm || o.source !== 'make') continue;
    made.set(o.itemId, new Decimal(made.get(o.itemId) ?? 0).plus(o.quantity).toString());
  }
  let tree: ReturnType<typeof netBomTree>;
  try {
    tree = netBomTree({
      rootQuantity: record.quantity,
      rootLines: run.rootLines,
      linesOf: run.linesOf,
      made,
    });
  } catch (e) {
    if (e instanceof MrpCycleError) throw conflict('BOM 存在循环引用或层级超过 20 层');
    throw e;
  }
  await sql`
    INSERT INTO production_order_bom (production_order_id, line_no, level, parent_material_id, material_id,
                                      quantity_per, loss_rate, required_quantity, made_quantity, process_id, exploded, bom_id)
    SELECT ${id}, x.n, x.level, x.parent, x.material, round(x.per, 4), x.loss, x.required, x.made, x.process, x.exploded, x.bom
      FROM unnest(${sql.val(tree.map((_, i) => i + 1))}::int[], ${sql.val(tree.map((x) => x.level))}::int[],
                  ${sql.val(tree.map((x) => x.parentMaterialId))}::bigint[], ${sql.val(tree.map((x) => x.materialId))}::bigint[],
                  ${sql.val(tree.map((x) => x.quantityPer))}::numeric[], ${sql.val(tree.map((x) => x.lossRate))}::numeric[],
                  ${sql.val(tree.map((x) => x.requiredQuantity))}::numeric[], ${sql.val(tree.map((x) => x.madeQuantity))}::numeric[],
                  ${sql.val(tree.map((x) => x.processId))}::bigint[], ${sql.val(tree.map((x) => x.exploded))}::boolean[],
                  ${sql.val(tree.map((x) => x.bomId))}::bigint[])
           AS x(n, level, parent, material, per, loss, required, made, process, exploded, bom)`.execute(db);

  const steps = await sql`
    INSERT INTO production_order_step (production_order_id, line_no, seq, process_id, workshop_id, standard_minutes,
                                       outsourced, inspection_required, planned_quantity)
    SELECT ${id}, row_number() OVER (ORDER BY s.seq, s.id), s.seq, s.process_id, s.workshop_id, s.standard_minutes,
           s.outsourced, s.inspection_required, ${record.quantity}::numeric
      FROM process_route_step s WHERE s.process_route_id = ${route.id}
    RETURNING id`.execute(db);
  if (!steps.rows.length) throw conflict('工艺路线没有工序步骤，不能下达');

  await writeRequirements(db, id);

  await sql`
    UPDATE production_order SET bom_id = ${run.bom.id}, route_id = ${route.id}, bom_version_no = ${run.bom.versionNo},
           route_version_no = ${route.versionNo}, released_at = now(), released_by_id = ${user.id}
     WHERE id = ${id}`.execute(db);
  if (record.saleOrderId) await settleSaleOrder(db, record.saleOrderId);
}

/**
 * The order's material requirements from its frozen BOM (what each row takes from stock: required −
 * made; a leaf makes nothing), each rounded up to what its unit counts (8140.5 balls with the loss rate are 8141 粒 to issue and buy:
 * unit precision, issue 34 §2), netted against free stock. Releases run one at a time (a transaction-scoped advisory lock), so two
 * orders never both count the same free stock.
 */
export async function writeRequirements(db: Db, id: number) {
  await lockPlanning(db);
  // A statement of its own after the lock, so it sees what the previous release committed.
  await sql`
    WITH need AS (
      SELECT b.material_id,
             ceil(sum(greatest(b.required_quantity - b.made_quantity, 0)) * power(10::numeric, u.precision))
               / power(10::numeric, u.precision) AS required
        FROM production_order_bom b
        JOIN material m ON m.id = b.material_id
        JOIN material_unit u ON u.id = m.unit_id
       WHERE b.production_order_id = ${id} AND b.required_quantity > b.made_quantity
       GROUP BY b.material_id, u.precision
    ), free AS (
      SELECT n.material_id, n.required,
             COALESCE((SELECT sum(s.quantity) FROM stock_balance s
                        WHERE s.material_id = n.material_id AND s.quality_status = 'qualified'), 0)
           - COALESCE((SELECT sum(greatest(pm.required_quantity - pm.issued_quantity, 0))
                         FROM production_order_material pm JOIN production_order p ON p.id = pm.production_order_id
                        WHERE pm.material_id = n.material_id AND p.id <> ${id}
                          AND p.status = ANY(${sql.val(PRODUCTION_ORDER_RESERVING)}::text[])), 0) AS free
        FROM need n
    )
    INSERT INTO production_order_material (production_order_id, line_no, material_id, unit_id, required_quantity,
                                           free_quantity, reserved_quantity, shortage_quantity)
    SELECT ${id}, row_number() OVER (ORDER BY m.code, m.id), f.material_id, m.unit_id, f.required, f.free,
           least(f.required, greatest(f.free, 0)), f.required - least(f.required, greatest(f.free, 0))
      FROM free f JOIN material m ON m.id = f.material_id`.execute(db);
}

/** 反下达: the frozen copies and requirements go; the order is a draft again. */
export async function unreleaseOrder(db: Db, record: Record<string, any>) {
  const id = Number(record.id);
  await sql`DELETE FROM production_order_material WHERE production_order_id = ${id}`.execute(db);
  await sql`DELETE FROM production_order_bom WHERE production_order_id = ${id}`.execute(db);
  await sql`DELETE FROM production_order_step WHERE production_order_id = ${id}`.execute(db);
  await sql`
    UPDATE production_order SET bom_version_no = NULL, route_version_no = NULL, released_at = NULL, released_by_id = NULL
     WHERE id = ${id}`.execute(db);
  if (record.saleOrderId) await settleSaleOrder(db, record.saleOrderId);
}

/**
 * A sales order is 生产中 while one of its production orders is released, in production or
 * completed, and 已审核 otherwise; later states (shipped, completed, closed) are the shipping's.
 */
export async function settleSaleOrder(db: Db, saleOrderId: number) {
  await sql`
    UPDATE sale_order o SET status = x.next, updated_at = now(), version = o.version + 1
      FROM (SELECT CASE WHEN EXISTS (SELECT 1 FROM production_order p WHERE p.sale_order_id = ${saleOrderId}
                                        AND p.status IN ('released', 'producing', 'completed'))
                        THEN 'producing' ELSE 'approved' END AS next) x
     WHERE o.id = ${saleOrderId} AND o.status IN ('approved', 'producing') AND o.status <> x.next`.execute(
    db,
  );
}
