import { PRODUCTION_ORDER_RESERVING } from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict } from '../../platform/errors.ts';

/**
 * 下达 (release) of a production order, inside the transition's transaction:
 *  1. freezes the BOM: the chosen (or active) BOM exploded over every level — a component with an
 *     active BOM of its own is made in-house and exploded further — each line's quantity in the
 *     component's base unit, required = parent's required × quantity per × (1 + loss rate/100);
 *  2. freezes the route steps, each planned for the order quantity (workshop tasks reference them);
 *  3. writes the material requirements (the leaves of the explosion, summed per material and rounded
 *     up to the unit's precision) netted
 *     against free stock: qualified on hand in every warehouse less what other released orders
 *     still need (required − issued). What free stock covers is reserved, the rest is shortage.
 * Releases run one at a time (a transaction-scoped advisory lock), so two orders never both count
 * the same free stock.
 */

/** Deeper than this is a BOM cycle or a data error. */
const MAX_LEVEL = 20;

interface Exploded {
  level: number;
  parentMaterialId: number;
  materialId: number;
  materialName: string;
  unitName: string | null;
  quantityPer: string | null;
  lossRate: string;
  requiredQuantity: string | null;
  processId: number | null;
  exploded: boolean;
  bomId: number;
  cycle: boolean;
}

async function versionOf(
  db: Db,
  table: 'bom' | 'process_route',
  chosen: number | null,
  productId: number,
): Promise<{ id: number; versionNo: string } | undefined> {
  const t = sql.table(table);
  const r = chosen
    ? await sql<{
        id: number;
        versionNo: string;
      }>`SELECT id, version_no FROM ${t} WHERE id = ${chosen}`.execute(db)
    : await sql<{ id: number; versionNo: string }>`
        SELECT id, version_no FROM ${t} WHERE product_id = ${productId} AND status = 'active' ORDER BY id LIMIT 1`.execute(
        db,
      );
  return r.rows[0];
}

/** The BOM tree under `bomId` for `quantity` of its product, in tree order. */
async function explode(db: Db, bomId: number, quantity: string): Promise<Exploded[]> {
  const r = await sql<Exploded & { sort: number[] }>`
    WITH RECURSIVE x AS (
      SELECT 1 AS level, b.product_id AS parent_material_id, l.material_id, l.process_id, l.loss_rate, b.id AS bom_id,
             l.quantity * f.factor AS quantity_per,
             l.quantity * f.factor * (1 + l.loss_rate / 100) * ${quantity}::numeric AS required_quantity,
             ARRAY[b.product_id, l.material_id] AS path, ARRAY[l.line_no] AS sort, l.unit_id
        FROM bom b JOIN bom_line l ON l.bom_id = b.id
        JOIN material m ON m.id = l.material_id
        LEFT JOIN LATERAL (SELECT CASE WHEN l.unit_id = m.unit_id THEN 1::numeric
                                       ELSE (SELECT c.factor FROM material_unit_conversion c
                                              WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END AS factor) f ON true
       WHERE b.id = ${bomId}
      UNION ALL
      SELECT x.level + 1, x.material_id, l.material_id, l.process_id, l.loss_rate, cb.id,
             l.quantity * f.factor,
             x.required_quantity * l.quantity * f.factor * (1 + l.loss_rate / 100),
             x.path || l.material_id, x.sort || l.line_no, l.unit_id
        FROM x
        JOIN bom cb ON cb.product_id = x.material_id AND cb.status = 'active'
        JOIN bom_line l ON l.bom_id = cb.id
        JOIN material m ON m.id = l.material_id
        LEFT JOIN LATERAL (SELECT CASE WHEN l.unit_id = m.unit_id THEN 1::numeric
                                       ELSE (SELECT c.factor FROM material_unit_conversion c
                                              WHERE c.material_id = l.material_id AND c.unit_id = l.unit_id) END AS factor) f ON true
       WHERE NOT (x.material_id = ANY(x.path[1:cardinality(x.path) - 1])) AND x.level <= ${MAX_LEVEL}
    )
    SELECT x.level, x.parent_material_id, x.material_id, m.name AS material_name, u.name AS unit_name,
           x.quantity_per::text AS quantity_per, x.loss_rate::text AS loss_rate,
           x.required_quantity::text AS required_quantity, x.process_id, x.bom_id, x.sort,
           EXISTS (SELECT 1 FROM bom cb WHERE cb.product_id = x.material_id AND cb.status = 'active') AS exploded,
           (x.material_id = ANY(x.path[1:cardinality(x.path) - 1]) OR x.level > ${MAX_LEVEL}) AS cycle
      FROM x JOIN material m ON m.id = x.material_id LEFT JOIN material_unit u ON u.id = x.unit_id`.execute(
    db,
  );
  const rows = r.rows;
  rows.sort((a, b) => {
    for (let i = 0; i < Math.min(a.sort.length, b.sort.length); i++)
      if (a.sort[i] !== b.sort[i]) return a.sort[i] - b.sort[i];
    return a.sort.length - b.sort.length;
  });
  return rows;
}

export async function releaseOrder(db: Db, record: Record<string, any>, user: AuthUser) {
  const id = Number(record.id);
  const product = record.productName ?? '';
  const bom = await versionOf(db, 'bom', record.bomId, record.productId);
  if (!bom) throw conflict(`产品「${product}」没有启用的BOM，请先启用BOM或在订单上选择BOM`);
  const route = await versionOf(db, 'process_route', record.routeId, record.productId);
  if (!route) throw conflict(`产品「${product}」没有启用的工艺路线，请先启用工艺路线或在订单上选择路线`);

  const tree = await explode(db, bom.id, record.quantity);
  const cycle = tree.find((x) => x.cycle);
  if (cycle) throw conflict(`BOM 存在循环引用或层级超过 ${MAX_LEVEL} 层：「${cycle.materialName}」`);
  const noFactor = tree.find((x) => x.quantityPer === null);
  if (noFactor) {
    throw conflict(
      `BOM 中「${noFactor.materialName}」的单位「${noFactor.unitName ?? ''}」没有换算到基本单位，请在物料的单位换算中添加`,
    );
  }
  // Quantities are stored to 4 decimals; requirements sum the stored lines.
  const q4 = (v: string | null) => new Decimal(v as string).toDecimalPlaces(4).toString();
  await sql`
    INSERT INTO production_order_bom (production_order_id, line_no, level, parent_material_id, material_id,
                                      quantity_per, loss_rate, required_quantity, process_id, exploded, bom_id)
    SELECT ${id}, x.n, x.level, x.parent, x.material, x.per, x.loss, x.required, x.process, x.exploded, x.bom
      FROM unnest(${sql.val(tree.map((_, i) => i + 1))}::int[], ${sql.val(tree.map((x) => x.level))}::int[],
                  ${sql.val(tree.map((x) => x.parentMaterialId))}::bigint[], ${sql.val(tree.map((x) => x.materialId))}::bigint[],
                  ${sql.val(tree.map((x) => q4(x.quantityPer)))}::numeric[], ${sql.val(tree.map((x) => x.lossRate))}::numeric[],
                  ${sql.val(tree.map((x) => q4(x.requiredQuantity)))}::numeric[], ${sql.val(tree.map((x) => x.processId))}::bigint[],
                  ${sql.val(tree.map((x) => x.exploded))}::boolean[], ${sql.val(tree.map((x) => x.bomId))}::bigint[])
           AS x(n, level, parent, material, per, loss, required, process, exploded, bom)`.execute(db);

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
    UPDATE production_order SET bom_id = ${bom.id}, route_id = ${route.id}, bom_version_no = ${bom.versionNo},
           route_version_no = ${route.versionNo}, released_at = now(), released_by_id = ${user.id}
     WHERE id = ${id}`.execute(db);
  if (record.saleOrderId) await settleSaleOrder(db, record.saleOrderId);
}

/**
 * The order's material requirements from its frozen BOM (the leaves: rows not exploded), each
 * rounded up to what its unit counts (8140.5 balls with the loss rate are 8141 粒 to issue and buy:
 * unit precision, issue 34 §2), netted against free stock. Releases run one at a time (a transaction-scoped advisory lock), so two
 * orders never both count the same free stock.
 */
export async function writeRequirements(db: Db, id: number) {
  await sql`SELECT pg_advisory_xact_lock(hashtext('production_order.release'))`.execute(db);
  // A statement of its own after the lock, so it sees what the previous release committed.
  await sql`
    WITH need AS (
      SELECT b.material_id,
             ceil(sum(b.required_quantity) * power(10::numeric, u.precision)) / power(10::numeric, u.precision) AS required
        FROM production_order_bom b
        JOIN material m ON m.id = b.material_id
        JOIN material_unit u ON u.id = m.unit_id
       WHERE b.production_order_id = ${id} AND NOT b.exploded
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
