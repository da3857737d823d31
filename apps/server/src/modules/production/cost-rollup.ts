import {
  type OverheadRate,
  rollStandardCosts,
  type StandardCost,
  type StandardProduct,
  type StandardStep,
} from '@ringmes/domain';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { businessDay } from '../../platform/numbering.ts';
import { COUNTED_REPORTS, costingSettings } from './product-cost.ts';

/**
 * The cost roll-up of many production orders at once (成本差异, issue 37 §4): the same components
 * as an order's 成本 tab (`orderCost` / `productionOrderCost`), summed in set-based SQL with the
 * same rounding — each 委外 line's gross and VAT to the fen, each workshop's overhead to the fen,
 * each report's scrap to the fen, each report's wage lines to the fen — so a month of a million
 * 报工 is one statement. The variance of an order is taken once it is finished (完工 or 关闭), in the
 * month of its last posted 生产入库. docs/costing.md.
 *
 * The 报工 are read once: per order, workshop and step, their good pieces, hours, scrap value and
 * wages — a report's wage lines to the fen are its `wage_amount`, written with its lines when it
 * is posted (NULL once taken back, when its lines net to nothing), so the million wage lines are
 * not read and summed per report again. Steps and rates join the few thousand groups afterwards.
 */

export interface RollupQuery {
  from?: string;
  to?: string;
  productId?: number;
}

export interface CostingContext {
  overheadRates: OverheadRate[];
  scrapPricePerKg: string | null;
  /** Standard cost per piece of each product with finished orders. */
  standards: Map<number, StandardCost>;
}

/** Per order: `id, doc_no, product_id, day, produced, material, labour, outsourcing, overhead, scrap`. */
export function costRollupSql(
  q: RollupQuery,
  ctx: Pick<CostingContext, 'overheadRates' | 'scrapPricePerKg'>,
) {
  const rates = ctx.overheadRates;
  const price = ctx.scrapPricePerKg ?? '0';
  const range = [
    ...(q.from ? [sql`rc.day >= ${q.from}::date`] : []),
    ...(q.to ? [sql`rc.day <= ${q.to}::date`] : []),
    ...(q.productId ? [sql`p.product_id = ${q.productId}`] : []),
  ];
  return sql`
    WITH o AS MATERIALIZED (
      SELECT p.id, p.doc_no, p.product_id, p.produced_quantity AS produced, rc.day, m.weight
        FROM production_order p
        JOIN material m ON m.id = p.product_id
        JOIN LATERAL (SELECT max(d.biz_date) AS day FROM stock_inbound d
                       WHERE d.type = 'production' AND d.status = 'posted' AND d.source_no = p.doc_no) rc ON rc.day IS NOT NULL
       WHERE p.status IN ('completed', 'closed') AND p.produced_quantity > 0 ${range.length ? sql`AND ${sql.join(range, sql` AND `)}` : sql``}),
    rt AS (SELECT * FROM unnest(${sql.val(rates.map((r) => r.workshopId))}::bigint[], ${sql.val(rates.map((r) => r.basis))}::text[],
                                 ${sql.val(rates.map((r) => r.rate))}::numeric[]) AS r(workshop_id, basis, rate)),
    mat AS (
      SELECT d.production_order_id AS id, -sum(g.amount) AS amount
        FROM stock_outbound d
        JOIN stock_ledger g ON g.doc_type = 'stock-outbound' AND g.doc_id = d.id AND g.reversal_of IS NULL AND g.quantity <> 0
       WHERE d.production_order_id IN (SELECT id FROM o) AND d.type = 'requisition' AND d.status = 'posted'
       GROUP BY 1),
    od AS (
      SELECT d.id AS doc_id, 'in' AS side, d.outsourcing_order_id,
             COALESCE((SELECT c.production_order_id FROM flow_card_outsourcing fo JOIN flow_card c ON c.id = fo.flow_card_id
                        WHERE fo.stock_inbound_id = d.id LIMIT 1), x.production_order_id) AS order_id
        FROM stock_inbound d JOIN outsourcing_order x ON x.id = d.outsourcing_order_id
       WHERE d.type = 'outsourced' AND d.status = 'posted'
      UNION ALL
      SELECT d.id, 'out', d.outsourcing_order_id, x.production_order_id
        FROM stock_outbound d JOIN outsourcing_order x ON x.id = d.outsourcing_order_id
       WHERE d.type = 'outsourcing-return' AND d.status = 'posted'),
    outs AS (
      SELECT od.order_id AS id, sum(t.gross - round(t.gross * x.tax_rate / (100 + x.tax_rate), 2)) AS amount
        FROM od JOIN outsourcing_order x ON x.id = od.outsourcing_order_id
        JOIN LATERAL (SELECT il.source_line_id, il.base_quantity FROM stock_inbound_line il
                       WHERE od.side = 'in' AND il.stock_inbound_id = od.doc_id
                      UNION ALL
                      SELECT ol2.source_line_id, -ol2.base_quantity FROM stock_outbound_line ol2
                       WHERE od.side = 'out' AND ol2.stock_outbound_id = od.doc_id) l ON true
        JOIN outsourcing_order_line ol ON ol.id = l.source_line_id
        CROSS JOIN LATERAL (SELECT round(ol.amount * l.base_quantity / ol.base_quantity, 2) AS gross) t
       WHERE od.order_id IN (SELECT id FROM o) AND l.base_quantity IS NOT NULL AND ol.amount IS NOT NULL
         AND ol.base_quantity > 0
       GROUP BY 1),
    rep AS (
      SELECT r.production_order_id AS id, r.workshop_id, r.order_step_id,
             sum(r.good_quantity) AS good, sum(COALESCE(r.hours, 0)) AS hours, sum(COALESCE(r.wage_amount, 0)) AS wage,
             sum(CASE WHEN o.weight > 0 AND ${price}::numeric > 0
                      THEN round((r.work_scrap_quantity + r.material_scrap_quantity) * o.weight * ${price}::numeric, 2)
                      ELSE 0 END) AS scrap
        FROM work_report r JOIN o ON o.id = r.production_order_id
       WHERE r.status IN (${sql.join(COUNTED_REPORTS)})
       GROUP BY 1, 2, 3),
    ws AS (
      SELECT x.id, x.workshop_id, max(rt.rate) AS rate,
             sum(CASE WHEN rt.basis = 'hour' THEN x.hours ELSE x.good * COALESCE(st.standard_minutes, 0) END) AS driver,
             sum(x.scrap) AS scrap, sum(x.wage) AS labour
        FROM rep x
        LEFT JOIN production_order_step st ON st.id = x.order_step_id
        LEFT JOIN rt ON rt.workshop_id = x.workshop_id
       GROUP BY 1, 2),
    ovh AS (SELECT id, sum(CASE WHEN rate IS NULL THEN 0 ELSE round(driver * rate, 2) END) AS amount,
                   sum(scrap) AS scrap, sum(labour) AS labour FROM ws GROUP BY 1)
    SELECT o.id, o.doc_no, o.product_id, o.day::text AS day, o.produced::text AS produced,
           COALESCE(mat.amount, 0) AS material, COALESCE(ovh.labour, 0) AS labour,
           COALESCE(outs.amount, 0) AS outsourcing, COALESCE(ovh.amount, 0) AS overhead,
           COALESCE(ovh.scrap, 0) AS scrap
      FROM o LEFT JOIN mat ON mat.id = o.id
      LEFT JOIN outs ON outs.id = o.id LEFT JOIN ovh ON ovh.id = o.id`;
}

/**
 * Standard cost per piece of the given products (`rollStandardCosts`, packages/domain): the active
 * BOM's lines — a part made here (one with an active BOM or route) at its own rolled standard, a
 * bought one at its 标准成本 — and the active route's steps: 工序工资 in force today (the product's
 * own rate before the process's, else the process's piece rate), the last approved 委外订单 price of
 * the product and process without VAT (amount − amount × rate ÷ (100 + rate), as the actual cost
 * takes it), and the overhead rates. Components are read level by level until none is made here.
 */
export async function standardCostsOf(db: Db, productIds: number[], rates: OverheadRate[]) {
  const products = new Map<number, StandardProduct>();
  const prices = new Map<number, string | null>();
  const today = businessDay();
  let wanted = [...new Set(productIds)];
  for (let level = 0; wanted.length && level < 20; level++) {
    const ids = sql.val(wanted);
    const [made, bom, steps] = await Promise.all([
      sql<{ id: number; standardCost: string | null; made: boolean }>`
        SELECT m.id, m.standard_cost::text AS standard_cost,
               (EXISTS (SELECT 1 FROM bom b WHERE b.product_id = m.id AND b.status = 'active')
                OR EXISTS (SELECT 1 FROM process_route r WHERE r.product_id = m.id AND r.status = 'active')) AS made
          FROM material m WHERE m.id = ANY(${ids}::bigint[])`.execute(db),
      sql<StandardProduct['bom'][number] & { productId: number }>`
        SELECT b.product_id, l.material_id, m.name AS material_name, l.quantity::text AS quantity,
               (CASE WHEN l.unit_id = m.unit_id THEN 1
                     ELSE COALESCE(c.base_quantity / c.unit_quantity, c.factor, 1) END)::text AS ratio,
               l.loss_rate::text AS loss_rate
          FROM bom b JOIN bom_line l ON l.bom_id = b.id JOIN material m ON m.id = l.material_id
          LEFT JOIN material_unit_conversion c ON c.material_id = l.material_id AND c.unit_id = l.unit_id
         WHERE b.product_id = ANY(${ids}::bigint[]) AND b.status = 'active'
           AND b.id = (SELECT max(b2.id) FROM bom b2 WHERE b2.product_id = b.product_id AND b2.status = 'active')
         ORDER BY b.product_id, l.line_no`.execute(db),
      sql<StandardStep & { productId: number }>`
        SELECT r.product_id, s.seq, pr.name AS process_name, COALESCE(s.workshop_id, pr.workshop_id) AS workshop_id,
               s.outsourced, COALESCE(s.standard_minutes, pr.standard_minutes)::text AS standard_minutes,
               COALESCE((SELECT w.piece_rate FROM process_wage w
                          WHERE w.process_id = s.process_id AND (w.product_id = r.product_id OR w.product_id IS NULL)
                            AND w.valid_from <= ${today}::date
                          ORDER BY w.product_id IS NULL, w.valid_from DESC, w.id DESC LIMIT 1), pr.piece_rate)::text AS piece_rate,
               (SELECT ((ol.amount - round(ol.amount * x.tax_rate / (100 + x.tax_rate), 2)) / ol.base_quantity)::text
                  FROM outsourcing_order x JOIN outsourcing_order_line ol ON ol.outsourcing_order_id = x.id
                 WHERE x.process_id = s.process_id AND ol.material_id = r.product_id AND x.status <> 'draft'
                   AND ol.amount IS NOT NULL AND ol.base_quantity > 0
                 ORDER BY x.order_date DESC, x.id DESC LIMIT 1) AS outsourcing_price
          FROM process_route r JOIN process_route_step s ON s.process_route_id = r.id JOIN process pr ON pr.id = s.process_id
         WHERE r.product_id = ANY(${ids}::bigint[]) AND r.status = 'active'
         ORDER BY r.product_id, s.seq`.execute(db),
    ]);
    const next = new Set<number>();
    for (const m of made.rows) {
      const id = Number(m.id);
      prices.set(id, m.standardCost);
      if (!m.made && !productIds.includes(id)) continue;
      const lines = bom.rows
        .filter((l) => Number(l.productId) === id)
        .map((l) => ({ ...l, materialId: Number(l.materialId) }));
      products.set(id, {
        bom: lines,
        steps: steps.rows
          .filter((s) => Number(s.productId) === id)
          .map((s) => ({ ...s, workshopId: s.workshopId == null ? null : Number(s.workshopId) })),
      });
      for (const l of lines) if (!prices.has(l.materialId)) next.add(l.materialId);
    }
    wanted = [...next];
  }
  const rolled = rollStandardCosts(products, prices, rates);
  return new Map(productIds.map((id) => [id, rolled.get(id) as StandardCost]));
}

/** What the cost reports need besides their SQL: the 成本核算 settings and the products' standards. */
export async function costingContext(db: Db, q: RollupQuery): Promise<CostingContext> {
  const settings = await costingSettings(db);
  const products = await sql<{ productId: number }>`
    SELECT DISTINCT product_id FROM production_order
     WHERE produced_quantity > 0 ${q.productId ? sql`AND product_id = ${q.productId}` : sql``}`.execute(db);
  const standards = await standardCostsOf(
    db,
    products.rows.map((r) => Number(r.productId)),
    settings.overheadRates,
  );
  return { ...settings, standards };
}

/** The products' standards as a relation `s(product_id, material, labour, outsourcing, overhead)`. */
export function standardsSql(standards: Map<number, StandardCost>): RawBuilder<unknown> {
  const list = [...standards.entries()];
  const col = (k: keyof StandardCost) => sql.val(list.map(([, s]) => s[k] as string));
  return sql`unnest(${sql.val(list.map(([id]) => id))}::bigint[], ${col('material')}::numeric[], ${col('labour')}::numeric[],
                    ${col('outsourcing')}::numeric[], ${col('overhead')}::numeric[])
             AS s(product_id, material, labour, outsourcing, overhead)`;
}
