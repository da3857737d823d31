import {
  type CostInputs,
  type OverheadRate,
  type ProductionOrderCost,
  productionOrderCost,
  receiptAtActualCost,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import { type App, route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { readSettings, SETTING_KEYS } from '../../platform/settings.ts';
import { costInboundBy, type InboundCost } from '../warehouse/stock-events.ts';

/**
 * 成本 of a production order (issue 37 §4): gathers the order's source lines — posted 领料出库
 * ledger rows, wage lines of its reports, 委外入库 / 委外退货 lines of its outsourcing, its approved
 * reports (overhead drivers, scrap) — and the 系统设置 › 成本核算 rates, and lets the pure
 * `productionOrderCost` (packages/domain) add them up. docs/architecture.md, "Product cost".
 */

/** Reports whose good pieces moved on and were paid (approved, or inspected and posted); not 待检验. */
export const COUNTED_REPORTS = ['approved', 'inspected', 'posted'];

/** The 成本核算 settings as stored (system/setting.routes.ts validates them on the way in). */
export async function costingSettings(db: Db) {
  const s = await readSettings(db, [SETTING_KEYS.costingOverheadRates, SETTING_KEYS.costingScrapPricePerKg]);
  const rates = s.get(SETTING_KEYS.costingOverheadRates);
  const price = s.get(SETTING_KEYS.costingScrapPricePerKg);
  return {
    overheadRates: Array.isArray(rates) ? (rates as OverheadRate[]) : [],
    scrapPricePerKg: typeof price === 'string' ? price : null,
  };
}

export interface OrderCost extends ProductionOrderCost {
  orderId: number;
  docNo: string;
  productName: string;
  status: string;
}

export async function orderCost(db: Db, id: number): Promise<OrderCost> {
  const head = await sql<{
    id: number;
    docNo: string;
    status: string;
    producedQuantity: string;
    productName: string;
    weight: string | null;
  }>`
    SELECT o.id, o.doc_no, o.status, o.produced_quantity::text AS produced_quantity, m.name AS product_name,
           m.weight::text AS weight
      FROM production_order o JOIN material m ON m.id = o.product_id WHERE o.id = ${id}`.execute(db);
  const o = head.rows[0];
  if (!o) throw notFound('生产订单不存在或已被删除');

  // 领料出库 posted against the order: each line at what its ledger rows took (a reversed
  // document nets to nothing and is left out; so are quantity-0 成本调整 rows, which are the pair's).
  const issues = await sql<CostInputs['issues'][number]>`
    SELECT d.doc_no, m.name AS material_name, (-sum(g.quantity))::text AS quantity, (-sum(g.amount))::text AS amount
      FROM stock_outbound d
      JOIN stock_ledger g ON g.doc_kind = 'outbound' AND g.doc_id = d.id AND g.reversal_of IS NULL AND g.quantity <> 0
      JOIN material m ON m.id = g.material_id
     WHERE d.production_order_id = ${id} AND d.type = 'requisition' AND d.status = 'posted'
     GROUP BY d.id, d.doc_no, m.id, m.name
     ORDER BY d.id, m.id`.execute(db);

  // Wage lines per report (a report taken back after its month closed nets to 0 and drops out).
  const wages = await sql<CostInputs['wages'][number]>`
    SELECT w.doc_no, p.name AS process_name, u.first_name AS operator_name, sum(w.quantity)::text AS quantity,
           sum(w.amount)::text AS amount
      FROM piece_wage w JOIN process p ON p.id = w.process_id JOIN app_user u ON u.id = w.operator_id
     WHERE w.production_order_id = ${id}
     GROUP BY w.work_report_id, w.doc_no, p.name, u.first_name
    HAVING sum(w.amount) <> 0 OR sum(w.quantity) <> 0
     ORDER BY min(w.id)`.execute(db);

  // 委外入库 (+) and 委外退货出库 (−) of outsourcing done for the order: 委外订单 naming it, or the
  // documents its flow cards' 发出/收回 posted.
  const outsourcing = await sql<CostInputs['outsourcing'][number]>`
    WITH docs AS (
      SELECT 'in' AS side, d.id, d.doc_no, d.outsourcing_order_id FROM stock_inbound d
       WHERE d.type = 'outsourced' AND d.status = 'posted'
         AND (EXISTS (SELECT 1 FROM outsourcing_order x WHERE x.id = d.outsourcing_order_id AND x.production_order_id = ${id})
              OR EXISTS (SELECT 1 FROM flow_card_outsourcing fo JOIN flow_card c ON c.id = fo.flow_card_id
                          WHERE fo.stock_inbound_id = d.id AND c.production_order_id = ${id}))
      UNION ALL
      SELECT 'out', d.id, d.doc_no, d.outsourcing_order_id FROM stock_outbound d
       WHERE d.type = 'outsourcing-return' AND d.status = 'posted'
         AND EXISTS (SELECT 1 FROM outsourcing_order x WHERE x.id = d.outsourcing_order_id AND x.production_order_id = ${id})
    )
    SELECT d.doc_no, x.doc_no AS order_no, s.name AS supplier_name,
           (CASE d.side WHEN 'in' THEN l.base_quantity ELSE -l.base_quantity END)::text AS quantity,
           ol.amount::text AS order_line_amount, ol.base_quantity::text AS order_line_quantity,
           x.tax_rate::text AS tax_rate
      FROM docs d
      JOIN outsourcing_order x ON x.id = d.outsourcing_order_id
      JOIN supplier s ON s.id = x.supplier_id
      JOIN LATERAL (SELECT il.source_line_id, il.base_quantity, il.line_no FROM stock_inbound_line il
                     WHERE d.side = 'in' AND il.stock_inbound_id = d.id
                    UNION ALL
                    SELECT ol2.source_line_id, ol2.base_quantity, ol2.line_no FROM stock_outbound_line ol2
                     WHERE d.side = 'out' AND ol2.stock_outbound_id = d.id) l ON true
      JOIN outsourcing_order_line ol ON ol.id = l.source_line_id
     WHERE l.base_quantity IS NOT NULL AND ol.amount IS NOT NULL AND ol.base_quantity > 0
     ORDER BY d.side, d.id, l.line_no`.execute(db);

  const reports = await sql<CostInputs['reports'][number]>`
    SELECT r.doc_no, r.workshop_id, COALESCE(w.name, '') AS workshop_name, r.good_quantity::text AS good_quantity,
           (r.work_scrap_quantity + r.material_scrap_quantity)::text AS scrap_quantity,
           st.standard_minutes::text AS standard_minutes, r.hours::text AS hours
      FROM work_report r
      LEFT JOIN workshop w ON w.id = r.workshop_id
      LEFT JOIN production_order_step st ON st.id = r.order_step_id
     WHERE r.production_order_id = ${id} AND r.status IN (${sql.join(COUNTED_REPORTS)})
     ORDER BY r.id`.execute(db);

  const settings = await costingSettings(db);
  const cost = productionOrderCost({
    finishedQuantity: o.producedQuantity,
    issues: issues.rows,
    wages: wages.rows,
    outsourcing: outsourcing.rows,
    reports: reports.rows.map((r) => ({
      ...r,
      workshopId: r.workshopId == null ? null : Number(r.workshopId),
    })),
    overheadRates: settings.overheadRates,
    productWeightKg: o.weight,
    scrapPricePerKg: settings.scrapPricePerKg,
  });
  return { orderId: Number(o.id), docNo: o.docNo, productName: o.productName, status: o.status, ...cost };
}

/**
 * 生产入库 at actual cost: a production receipt (type production, 来源单号 the order's number)
 * brings the order's product in at the order's actual cost as it stands at posting — the cost not
 * yet received over the pieces still expected (`receiptAtActualCost`) — instead of the
 * warehouse's average. Lines of other materials, typed prices and orders with nothing spent are
 * left alone. Runs inside the posting transaction (the order's cost read as it now stands).
 */
costInboundBy(async (db, doc, lines) => {
  const out = new Map<number, InboundCost>();
  if (doc.type !== 'production' || !doc.sourceNo) return out;
  const r = await sql<{
    id: number;
    productId: number;
    quantity: string;
    scrap: string;
    receivedQuantity: string;
    receivedAmount: string;
  }>`
    SELECT o.id, o.product_id, o.quantity::text AS quantity,
           (SELECT COALESCE(sum(r.work_scrap_quantity + r.material_scrap_quantity), 0) FROM work_report r
             WHERE r.production_order_id = o.id AND r.status IN (${sql.join(COUNTED_REPORTS)}))::text AS scrap,
           COALESCE(g.quantity, 0)::text AS received_quantity, COALESCE(g.amount, 0)::text AS received_amount
      FROM production_order o
      LEFT JOIN LATERAL (
        SELECT sum(l.quantity) AS quantity, sum(l.amount) AS amount
          FROM stock_inbound d JOIN stock_ledger l ON l.doc_type = 'stock-inbound' AND l.doc_id = d.id
         WHERE d.type = 'production' AND d.source_no = o.doc_no AND d.id <> ${doc.id}
           AND l.material_id = o.product_id) g ON true
     WHERE o.doc_no = ${doc.sourceNo}`.execute(db);
  const order = r.rows[0];
  const mine = lines.filter((l) => order && l.materialId === Number(order.productId));
  if (!order || !mine.length) return out;
  const cost = await orderCost(db, Number(order.id));
  let receivedQuantity = order.receivedQuantity;
  let receivedAmount = order.receivedAmount;
  for (const l of mine) {
    const c = receiptAtActualCost(
      {
        total: cost.total,
        plannedQuantity: order.quantity,
        scrapQuantity: order.scrap,
        finishedQuantity: cost.finishedQuantity,
        receivedQuantity,
        receivedAmount,
      },
      l.baseQuantity,
    );
    if (!c) continue;
    out.set(l.id, c);
    receivedQuantity = new Decimal(receivedQuantity).plus(l.baseQuantity).toString();
    receivedAmount = new Decimal(receivedAmount).plus(c.amount).toString();
  }
  return out;
});

export function productCostRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/production-order/cost/:id',
    permission: 'production:order:cost',
    params: idParams,
    handler: ({ params, app: { db } }) => orderCost(db, params.id),
  });
}
