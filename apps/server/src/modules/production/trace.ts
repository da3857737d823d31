import { characteristicLabel, TRACE_PAGE_PERMISSION, TRACE_READERS } from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { type Permission, route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { heatsOf, MAX_DEPTH } from './assembly-link.ts';

/**
 * 质量追溯 (issue 35, "genealogy stops at assembly"): a shipped bearing traced back to the steel,
 * and a heat of steel forward to the customers.
 *
 *  - 装配领用: the rings issued to a bearing order (领料出库 lines whose batch is a ring card's
 *    number — a ring order's 完工入库 is batched by card) are allocated to the order's cards, first
 *    in, first out (cards in number order, each taking its quantity × the BOM's rings a bearing),
 *    and written as `flow_card_link` rows of kind `assembly` (ring card → bearing card), so the
 *    genealogy's recursive walks pass assembly as they pass split and merge. The bearing cards carry
 *    their rings' heats (炉号, derived). Recomputed for the order whenever its issues post or reverse
 *    and whenever its cards are opened, under the order's row lock both take.
 *  - The trace of a card (`traceCard`): the card and every ancestor down to the ring cards and their
 *    heats, each with its steps (machine, operator, times, quantities), work reports, inspections
 *    and measurements; the materials issued to each order with the receipts (采购入库, supplier,
 *    来料检验) of their batches; and where the card and its descendants were shipped.
 *  - From a heat (`traceHeat`): its receipts, the orders it was issued to, the cards carrying it
 *    and all their descendants, and the 销售出库 and customers of those.
 *  - From a 销售出库 (`traceOutbound`): each line's posted batches and the cards they are.
 */

/** Who may read a trace (domain `TRACE_READERS`): the 质量追溯 page, the card readers, the outbound keepers. */
const TRACE_PAGE = TRACE_PAGE_PERMISSION as Permission;
const READERS = TRACE_READERS as Permission[];

/** Per card, at most this many measurements, reports and inspections are listed (newest first). */
const PER_CARD = 100;

// ------------------------------------------------------------------ reads

interface Related {
  id: number;
  depth: number;
}

/** A card's ancestors (up) or descendants (down) with their nearest generation, itself at 0. */
async function walk(db: Db, ids: number[], dir: 'up' | 'down'): Promise<Related[]> {
  const step =
    dir === 'up'
      ? sql`SELECT l.parent_id, w.depth + 1 FROM w JOIN flow_card_link l ON l.child_id = w.id`
      : sql`SELECT l.child_id, w.depth + 1 FROM w JOIN flow_card_link l ON l.parent_id = w.id`;
  const r = await sql<Related>`
    WITH RECURSIVE w AS (
      SELECT id, 0 AS depth FROM unnest(${sql.val(ids)}::bigint[]) AS x(id)
      UNION
      ${step} WHERE w.depth < ${MAX_DEPTH})
    SELECT id, min(depth)::int AS depth FROM w GROUP BY id ORDER BY 2, 1`.execute(db);
  return r.rows.map((x) => ({ id: Number(x.id), depth: Number(x.depth) }));
}

/** The cards themselves: header, product, order, sales order and customer. */
async function cardRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT c.id, c.doc_no, c.status, c.origin, c.product_id, m.code AS product_code, m.name AS product_name,
           m.spec AS product_spec, c.part_name, c.quantity::text AS quantity, c.heat_no, c.current_seq, c.held,
           c.production_order_id, o.doc_no AS order_no, o.parent_order_id, so.doc_no AS sale_order_no,
           cu.name AS customer_name, c.created_at
      FROM flow_card c
      JOIN material m ON m.id = c.product_id
      JOIN production_order o ON o.id = c.production_order_id
      LEFT JOIN sale_order so ON so.id = o.sale_order_id
      LEFT JOIN customer cu ON cu.id = COALESCE(o.customer_id, so.customer_id)
     WHERE c.id = ANY(${sql.val(ids)}::bigint[])`.execute(db);
  return r.rows;
}

/** Each card's steps with their process, workshop, operator, machine and supplier names. */
async function stepRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT s.flow_card_id, s.seq, p.name AS process_name, w.name AS workshop_name, s.outsourced,
           s.inspection_required, s.in_time, s.out_time, s.input_quantity::text AS input_quantity,
           s.good_quantity::text AS good_quantity, s.work_scrap_quantity::text AS work_scrap_quantity,
           s.material_scrap_quantity::text AS material_scrap_quantity, s.rework_quantity::text AS rework_quantity,
           u.first_name AS operator_name, e.code AS equipment_code, e.name AS equipment_name, s.inspection_result,
           sp.name AS supplier_name, s.sent_quantity::text AS sent_quantity,
           s.returned_quantity::text AS returned_quantity, s.hardness_hrc::text AS hardness_hrc
      FROM flow_card_step s
      JOIN process p ON p.id = s.process_id
      LEFT JOIN workshop w ON w.id = s.workshop_id
      LEFT JOIN app_user u ON u.id = s.operator_id
      LEFT JOIN equipment e ON e.id = s.equipment_id
      LEFT JOIN supplier sp ON sp.id = s.supplier_id
     WHERE s.flow_card_id = ANY(${sql.val(ids)}::bigint[])
     ORDER BY s.flow_card_id, s.seq`.execute(db);
  return r.rows;
}

/** Each card's work reports (every state), newest first, PER_CARD a card. */
async function reportRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT x.* FROM unnest(${sql.val(ids)}::bigint[]) AS c(id)
     CROSS JOIN LATERAL (
       SELECT r.id, r.flow_card_id, r.doc_no, r.status, r.seq, p.name AS process_name, r.report_date::text AS report_date,
              r.shift, u.first_name AS operator_name, e.code AS equipment_code, e.name AS equipment_name,
              r.good_quantity::text AS good_quantity, r.work_scrap_quantity::text AS work_scrap_quantity,
              r.material_scrap_quantity::text AS material_scrap_quantity, r.rework_quantity::text AS rework_quantity,
              r.posted_at
         FROM work_report r
         LEFT JOIN process p ON p.id = r.process_id
         LEFT JOIN app_user u ON u.id = r.operator_id
         LEFT JOIN equipment e ON e.id = r.equipment_id
        WHERE r.flow_card_id = c.id
        ORDER BY r.report_date DESC, r.id DESC LIMIT ${PER_CARD}) x`.execute(db);
  return r.rows;
}

/** Each card's inspections, newest first, PER_CARD a card. */
async function inspectionRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT x.* FROM unnest(${sql.val(ids)}::bigint[]) AS c(id)
     CROSS JOIN LATERAL (
       SELECT t.id, t.flow_card_id, t.doc_no, t.status, t.category, t.check_kind, t.result, t.disposition,
              p.name AS process_name, u.first_name AS inspector_name, t.inspected_at,
              t.lot_quantity::text AS lot_quantity, t.defect_quantity::text AS defect_quantity
         FROM inspection_task t
         LEFT JOIN process p ON p.id = t.process_id
         LEFT JOIN app_user u ON u.id = t.inspector_id
        WHERE t.flow_card_id = c.id
        ORDER BY t.id DESC LIMIT ${PER_CARD}) x`.execute(db);
  return r.rows;
}

/** Each card's measurements (测量记录), newest first, PER_CARD a card, with their values. */
async function measurementRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT x.* FROM unnest(${sql.val(ids)}::bigint[]) AS c(id)
     CROSS JOIN LATERAL (
       SELECT s.id, s.flow_card_id, s.characteristic, s.measured_at, s.sample_size, s.mean::text AS mean,
              s.range::text AS range, s.lsl::text AS lsl, s.usl::text AS usl, s.out_of_control,
              e.code AS equipment_code, e.name AS equipment_name, u.first_name AS operator_name,
              (SELECT string_agg(trim_scale(v.value)::text, ' / ' ORDER BY v.line_no) FROM measurement_value v
                WHERE v.measurement_subgroup_id = s.id) AS "values"
         FROM measurement_subgroup s
         JOIN equipment e ON e.id = s.equipment_id
         LEFT JOIN app_user u ON u.id = s.operator_id
        WHERE s.flow_card_id = c.id
        ORDER BY s.measured_at DESC, s.id DESC LIMIT ${PER_CARD}) x`.execute(db);
  return r.rows.map((m) => ({ ...m, characteristicName: characteristicLabel(m.characteristic) }));
}

/**
 * 选配 (issue 38 §4) of bearing cards: each accepted matching's sets — inner group × outer group,
 * ball grade, clearance span, count — with the ring lots they took (ring_match tables, written by
 * the quality module's 接受方案; read here as the measurements are).
 */
async function ringMatchRows(db: Db, ids: number[]) {
  const r = await sql<any>`
    SELECT m.flow_card_id, m.id AS match_id, m.created_at, m.clearance_group, s.id, s.line_no, s.inner_group,
           s.outer_group, s.ball_grade_um::float8 AS ball_grade_um, s.clearance_low_um::float8 AS clearance_low_um,
           s.clearance_high_um::float8 AS clearance_high_um, s.count,
           (SELECT string_agg(x.doc_no || '×' || x.n, '、' ORDER BY x.role, x.doc_no)
              FROM (SELECT rr.role, c.doc_no, count(*) AS n FROM ring_match_ring rr JOIN flow_card c ON c.id = rr.card_id
                     WHERE rr.set_id = s.id GROUP BY 1, 2) x) AS lots
      FROM ring_match m JOIN ring_match_set s ON s.ring_match_id = m.id
     WHERE m.flow_card_id = ANY(${sql.val(ids)}::bigint[])
     ORDER BY m.id, s.line_no LIMIT ${PER_CARD * 10}`.execute(db);
  return r.rows;
}

/**
 * The receipts of batches (inbound, posted: 采购入库, 委外入库, 期初/其他入库…) by batch number and,
 * when given, material: document, type, date, supplier, quantity, and the 来料检验 of each.
 */
async function receiptsOf(db: Db, batches: { batchNo: string; materialId?: number }[]) {
  if (!batches.length) return [];
  const r = await sql<any>`
    WITH want AS (
      SELECT b, m FROM unnest(${sql.val(batches.map((x) => x.batchNo))}::text[],
                              ${sql.val(batches.map((x) => x.materialId ?? null))}::bigint[]) AS w(b, m))
    SELECT l.batch_no, l.material_id, m.code AS material_code, m.name AS material_name, i.id AS inbound_id,
           i.doc_no, i.type, i.biz_date::text AS biz_date, i.status, sp.name AS supplier_name, i.source_no,
           sum(l.quantity)::text AS quantity, mu.name AS unit_name,
           (SELECT json_agg(json_build_object('id', t.id, 'docNo', t.doc_no, 'status', t.status, 'result', t.result,
                                              'category', t.category) ORDER BY t.id)
              FROM inspection_task t
             WHERE t.stock_inbound_id = i.id AND (t.batch_no IS NULL OR t.batch_no = l.batch_no)
               AND t.product_id = l.material_id) AS inspections
      FROM stock_ledger l
      JOIN stock_inbound i ON i.id = l.doc_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit mu ON mu.id = m.unit_id
      LEFT JOIN supplier sp ON sp.id = i.supplier_id
     WHERE l.batch_no = ANY(${sql.val([...new Set(batches.map((x) => x.batchNo))])}::text[])
       AND l.doc_type = 'stock-inbound' AND i.type <> 'production'
       AND EXISTS (SELECT 1 FROM want WHERE want.b = l.batch_no AND (want.m IS NULL OR want.m = l.material_id))
     GROUP BY l.batch_no, l.material_id, m.code, m.name, i.id, i.doc_no, i.type, i.biz_date, i.status, sp.name,
              i.source_no, mu.name
    HAVING sum(l.quantity) <> 0
     ORDER BY l.batch_no, i.biz_date, i.id`.execute(db);
  return r.rows.map((x: any) => ({ ...x, inspections: x.inspections ?? [] })) as any[];
}

/**
 * What was issued to orders (领料出库, posted, net of reversals), by material and batch, except
 * component cards (those are assembly links): the steel and its heats, balls and their lots.
 */
async function issuedTo(db: Db, orderIds: number[]) {
  const r = await sql<any>`
    SELECT d.production_order_id, l.material_id, m.code AS material_code, m.name AS material_name,
           l.batch_no, (-sum(l.quantity))::text AS quantity, mu.name AS unit_name,
           string_agg(DISTINCT d.doc_no, '、') AS outbound_nos, min(d.biz_date)::text AS biz_date
      FROM stock_outbound d
      JOIN stock_ledger l ON l.doc_type = 'stock-outbound' AND l.doc_id = d.id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit mu ON mu.id = m.unit_id
     WHERE d.production_order_id = ANY(${sql.val(orderIds)}::bigint[]) AND d.type = 'requisition'
       AND NOT EXISTS (SELECT 1 FROM flow_card c WHERE c.doc_no = l.batch_no AND c.product_id = l.material_id)
     GROUP BY d.production_order_id, l.material_id, m.code, m.name, l.batch_no, mu.name
    HAVING sum(l.quantity) < 0
     ORDER BY d.production_order_id, m.code, l.batch_no`.execute(db);
  return r.rows;
}

/**
 * Where cards went out (销售出库 and other outbound documents, posted, net of reversals): their
 * pieces leave under the card's number as batch (完工入库 batches by card).
 */
async function shipmentsOf(db: Db, cardIds: number[]) {
  if (!cardIds.length) return [];
  const r = await sql<any>`
    SELECT c.id AS card_id, c.doc_no AS card_no, d.id AS outbound_id, d.doc_no, d.type, d.biz_date::text AS biz_date,
           d.status, cu.id AS customer_id, cu.name AS customer_name, so.doc_no AS sale_order_no,
           l.material_id, m.name AS material_name, (-sum(l.quantity))::text AS quantity, mu.name AS unit_name
      FROM flow_card c
      JOIN stock_ledger l ON l.batch_no = c.doc_no AND l.material_id = c.product_id AND l.doc_type = 'stock-outbound'
      JOIN stock_outbound d ON d.id = l.doc_id
      JOIN material m ON m.id = l.material_id
      LEFT JOIN material_unit mu ON mu.id = m.unit_id
      LEFT JOIN sale_order so ON so.id = d.sale_order_id
      LEFT JOIN customer cu ON cu.id = COALESCE(d.customer_id, so.customer_id)
     WHERE c.id = ANY(${sql.val(cardIds)}::bigint[]) AND d.type IN ('sales', 'other', 'outsourcing')
     GROUP BY c.id, c.doc_no, d.id, d.doc_no, d.type, d.biz_date, d.status, cu.id, cu.name, so.doc_no, l.material_id,
              m.name, mu.name
    HAVING sum(l.quantity) < 0
     ORDER BY d.biz_date, d.id, c.id`.execute(db);
  return r.rows;
}

/** The links among a set of cards. */
async function linksAmong(db: Db, ids: number[]) {
  const r = await sql<{ parentId: number; childId: number; kind: string; quantity: string }>`
    SELECT parent_id, child_id, kind, quantity::text AS quantity FROM flow_card_link
     WHERE parent_id = ANY(${sql.val(ids)}::bigint[]) AND child_id = ANY(${sql.val(ids)}::bigint[])
     ORDER BY parent_id, child_id`.execute(db);
  return r.rows.map((l) => ({ ...l, parentId: Number(l.parentId), childId: Number(l.childId) }));
}

const byCard = (rows: any[], id: number) => rows.filter((r) => Number(r.flowCardId) === id);

/**
 * The whole trace of card `cardId`: itself and every ancestor (through split, merge and 装配领用)
 * with steps, reports, inspections and measurements; the orders they belong to with the
 * materials issued to them and those batches' receipts; the heats with their receipts; and the
 * shipments of the card and its descendants.
 */
export async function traceCard(db: Db, cardId: number) {
  const up = await walk(db, [cardId], 'up');
  if (!(await sql`SELECT 1 FROM flow_card WHERE id = ${cardId}`.execute(db)).rows.length)
    throw notFound('流转卡不存在或已被删除');
  const ids = up.map((x) => x.id);
  const depth = new Map(up.map((x) => [x.id, x.depth]));
  const [heads, steps, reports, inspections, measurements, links, down, matches] = await Promise.all([
    cardRows(db, ids),
    stepRows(db, ids),
    reportRows(db, ids),
    inspectionRows(db, ids),
    measurementRows(db, ids),
    linksAmong(db, ids),
    walk(db, [cardId], 'down'),
    ringMatchRows(db, ids),
  ]);
  const cards = heads
    .map((c) => {
      const id = Number(c.id);
      return {
        ...c,
        id,
        depth: depth.get(id) ?? 0,
        steps: byCard(steps, id),
        reports: byCard(reports, id),
        inspections: byCard(inspections, id),
        measurements: byCard(measurements, id),
        ringMatches: byCard(matches, id),
      };
    })
    .sort((a, b) => a.depth - b.depth || a.id - b.id);
  const orderIds = [...new Set(cards.map((c) => Number(c.productionOrderId)))];
  const issued = await issuedTo(db, orderIds);
  const heats = [
    ...new Set(
      cards.flatMap((c) =>
        String(c.heatNo ?? '')
          .split('/')
          .filter((h) => h && !h.endsWith('…')),
      ),
    ),
  ].sort();
  const receipts = await receiptsOf(db, [
    ...heats.map((batchNo) => ({ batchNo })),
    ...issued.filter((x) => x.batchNo).map((x) => ({ batchNo: x.batchNo, materialId: Number(x.materialId) })),
  ]);
  const receiptsFor = (batchNo: string, materialId?: number) =>
    receipts.filter(
      (r) => r.batchNo === batchNo && (materialId == null || Number(r.materialId) === materialId),
    );
  const orders = orderIds.map((id) => {
    const c = cards.find((x) => Number(x.productionOrderId) === id);
    return {
      id,
      docNo: c?.orderNo,
      productName: c?.productName,
      saleOrderNo: c?.saleOrderNo ?? null,
      customerName: c?.customerName ?? null,
      materials: issued
        .filter((x) => Number(x.productionOrderId) === id)
        .map((x) => ({
          ...x,
          receipts: x.batchNo ? receiptsFor(x.batchNo, Number(x.materialId)) : [],
        })),
    };
  });
  const shipped = await shipmentsOf(
    db,
    down.map((x) => x.id),
  );
  return {
    card: cards.find((c) => c.id === cardId),
    heats: heats.map((heatNo) => ({ heatNo, receipts: receiptsFor(heatNo) })),
    cards,
    links,
    orders,
    descendants: down.filter((x) => x.depth > 0).length,
    shipments: shipped,
  };
}

/**
 * Forward from a heat (炉号): its receipts, the 领料出库 that issued it to orders, the cards
 * carrying it (their own heat or an order it was issued to, whose cards name no heat) and every
 * descendant of those (split, merge, 装配领用), and where they were shipped, with the customers.
 */
export async function traceHeat(db: Db, heatNo: string) {
  const heat = heatNo.trim();
  const [receipts, issues, carriers] = await Promise.all([
    receiptsOf(db, [{ batchNo: heat }]),
    sql<any>`
      SELECT d.id AS outbound_id, d.doc_no, d.biz_date::text AS biz_date, o.id AS production_order_id,
             o.doc_no AS order_no, p.name AS product_name, m.name AS material_name,
             (-sum(l.quantity))::text AS quantity, mu.name AS unit_name
        FROM stock_ledger l
        JOIN stock_outbound d ON d.id = l.doc_id
        JOIN production_order o ON o.id = d.production_order_id
        JOIN material p ON p.id = o.product_id
        JOIN material m ON m.id = l.material_id
        LEFT JOIN material_unit mu ON mu.id = m.unit_id
       WHERE l.batch_no = ${heat} AND l.doc_type = 'stock-outbound' AND d.type = 'requisition'
       GROUP BY d.id, d.doc_no, d.biz_date, o.id, o.doc_no, p.name, m.name, mu.name
      HAVING sum(l.quantity) < 0
       ORDER BY d.biz_date, d.id`.execute(db),
    sql<{ id: number }>`
      SELECT c.id FROM flow_card c WHERE string_to_array(c.heat_no, '/') @> ARRAY[${heat}]::text[]
      UNION
      SELECT c.id FROM flow_card c
        JOIN stock_outbound d ON d.production_order_id = c.production_order_id AND d.type = 'requisition'
        JOIN stock_ledger l ON l.doc_type = 'stock-outbound' AND l.doc_id = d.id AND l.batch_no = ${heat}
       WHERE c.heat_no IS NULL`.execute(db),
  ]);
  const roots = carriers.rows.map((x) => Number(x.id));
  const related = roots.length ? await walk(db, roots, 'down') : [];
  const ids = related.map((x) => x.id);
  const heads: any[] = ids.length ? await cardRows(db, ids) : [];
  const links = ids.length ? await linksAmong(db, ids) : [];
  const shipments: any[] = await shipmentsOf(db, ids);
  const depth = new Map(related.map((x) => [x.id, x.depth]));
  const cards = heads
    .map((c) => ({ ...c, id: Number(c.id), depth: depth.get(Number(c.id)) ?? 0 }))
    .sort((a, b) => a.depth - b.depth || a.id - b.id);
  const customers = new Map<
    string,
    { customerId: number | null; customerName: string; outbounds: string[] }
  >();
  for (const s of shipments) {
    const key = String(s.customerId ?? s.customerName ?? '');
    const c = customers.get(key) ?? {
      customerId: s.customerId == null ? null : Number(s.customerId),
      customerName: s.customerName ?? '（无客户）',
      outbounds: [] as string[],
    };
    if (!c.outbounds.includes(s.docNo)) c.outbounds.push(s.docNo);
    customers.set(key, c);
  }
  return {
    heatNo: heat,
    receipts,
    issues: issues.rows,
    cards,
    links,
    shipments,
    customers: [...customers.values()],
  };
}

/**
 * Back from an outbound document (销售出库): each line's batches as posted (the ledger; the line's
 * own batch while a draft) and the card each batch is, with that card's heats.
 */
export async function traceOutbound(db: Db, outboundId: number) {
  const head = await sql<any>`
    SELECT d.id, d.doc_no, d.type, d.status, d.biz_date::text AS biz_date, cu.name AS customer_name,
           so.doc_no AS sale_order_no
      FROM stock_outbound d
      LEFT JOIN sale_order so ON so.id = d.sale_order_id
      LEFT JOIN customer cu ON cu.id = COALESCE(d.customer_id, so.customer_id)
     WHERE d.id = ${outboundId}`.execute(db);
  if (!head.rows[0]) throw notFound('出库单不存在或已被删除');
  const lines = await sql<any>`
    SELECT ol.id AS line_id, ol.line_no, ol.material_id, m.code AS material_code, m.name AS material_name,
           b.batch_no, b.quantity, mu.name AS unit_name, c.id AS card_id, c.doc_no AS card_no
      FROM stock_outbound_line ol
      JOIN material m ON m.id = ol.material_id
      LEFT JOIN material_unit mu ON mu.id = m.unit_id
      CROSS JOIN LATERAL (
        SELECT l.batch_no, (-sum(l.quantity))::text AS quantity FROM stock_ledger l
         WHERE l.doc_type = 'stock-outbound' AND l.doc_id = ol.stock_outbound_id AND l.line_id = ol.id
         GROUP BY l.batch_no HAVING sum(l.quantity) < 0
        UNION ALL
        SELECT COALESCE(ol.batch_no, ''), COALESCE(ol.base_quantity, ol.quantity)::text
         WHERE NOT EXISTS (SELECT 1 FROM stock_ledger l WHERE l.doc_type = 'stock-outbound'
                              AND l.doc_id = ol.stock_outbound_id AND l.line_id = ol.id)) b
      LEFT JOIN flow_card c ON c.doc_no = b.batch_no AND c.product_id = ol.material_id
     WHERE ol.stock_outbound_id = ${outboundId}
     ORDER BY ol.line_no, b.batch_no`.execute(db);
  const out = [];
  for (const l of lines.rows) {
    out.push({ ...l, heats: l.cardId ? await heatsOf(db, Number(l.cardId)) : [] });
  }
  return { outbound: head.rows[0], lines: out };
}

// ------------------------------------------------------------------ routes

const heatQuery = z.strictObject({ heatNo: zx.required(100) });
const findQuery = z.strictObject({ code: zx.required(100) });

export function traceRoutes(app: App) {
  const read = { permission: TRACE_PAGE, alsoAllowedBy: READERS };
  route(app, {
    method: 'GET',
    url: '/api/v1/trace/card/:id',
    ...read,
    params: idParams,
    handler: ({ params, app: { db } }) => traceCard(db, params.id),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/trace/heat',
    ...read,
    query: heatQuery,
    handler: ({ query, app: { db } }) => traceHeat(db, query.heatNo),
  });
  route(app, {
    method: 'GET',
    url: '/api/v1/trace/outbound/:id',
    ...read,
    params: idParams,
    handler: ({ params, app: { db } }) => traceOutbound(db, params.id),
  });
  // The 质量追溯 search box: what a typed number is — a card (or a batch, which is a card's number),
  // an outbound document, else a heat.
  route(app, {
    method: 'GET',
    url: '/api/v1/trace/find',
    ...read,
    query: findQuery,
    async handler({ query, app: { db } }) {
      const code = query.code.replace(/\s+/g, '');
      const card = await sql<{
        id: number;
      }>`SELECT id FROM flow_card WHERE doc_no = ${code.toUpperCase()}`.execute(db);
      if (card.rows[0]) return { kind: 'card', id: Number(card.rows[0].id), code: code.toUpperCase() };
      const out = await sql<{
        id: number;
      }>`SELECT id FROM stock_outbound WHERE doc_no = ${code.toUpperCase()}`.execute(db);
      if (out.rows[0]) return { kind: 'outbound', id: Number(out.rows[0].id), code: code.toUpperCase() };
      return { kind: 'heat', id: null, code };
    },
  });
}
