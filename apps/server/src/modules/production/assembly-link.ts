import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

/**
 * 装配领用 (issue 35): which ring cards a bearing card consumed, and the heats it carries from them.
 * Apart from flow-card.ts and trace.ts so that 开卡 and 领料 can call it without a cycle.
 */

/** Deeper than this a walk is cut off (a real genealogy is a handful of generations). */
export const MAX_DEPTH = 100;

/**
 * Links the cards of order `orderId` to the component cards (rings) issued to the order: the net
 * issued quantity of each card batch (领料出库 of the order, posted, less reversals) is laid out in
 * issue order, each card of the order (those opened, not closed; split and merged ones reach them
 * through their links) needs its quantity × the requirement per piece of the order, and the
 * overlaps become `assembly` links. Then every card of the order carries the heats of its
 * ancestors of other orders (distinct, '/'-joined). Callers hold the order's row lock.
 */
export async function linkAssembly(db: Db, orderId: number): Promise<void> {
  await sql`
    DELETE FROM flow_card_link l USING flow_card c
     WHERE l.child_id = c.id AND l.kind = 'assembly' AND c.production_order_id = ${orderId}`.execute(db);
  const linked = await sql<{ n: number }>`
    WITH supply AS (
      SELECT l.material_id, c.id AS card_id, -sum(l.quantity) AS q, min(l.id) AS first_move
        FROM stock_outbound d
        JOIN stock_ledger l ON l.doc_type = 'stock-outbound' AND l.doc_id = d.id AND l.batch_no <> ''
        JOIN flow_card c ON c.doc_no = l.batch_no AND c.product_id = l.material_id
       WHERE d.production_order_id = ${orderId} AND d.type = 'requisition' AND c.production_order_id <> ${orderId}
       GROUP BY l.material_id, c.id
      HAVING sum(l.quantity) < 0),
    s AS (
      SELECT material_id, card_id, sum(q) OVER w - q AS lo, sum(q) OVER w AS hi FROM supply
      WINDOW w AS (PARTITION BY material_id ORDER BY first_move, card_id)),
    per AS (
      SELECT pm.material_id, sum(pm.required_quantity) / o.quantity AS per
        FROM production_order_material pm JOIN production_order o ON o.id = pm.production_order_id
       WHERE pm.production_order_id = ${orderId} AND o.quantity > 0
         AND pm.material_id IN (SELECT material_id FROM supply)
       GROUP BY pm.material_id, o.quantity),
    demand AS (
      SELECT per.material_id, c.id AS card_id, c.quantity * per.per AS q
        FROM flow_card c CROSS JOIN per
       WHERE c.production_order_id = ${orderId} AND c.origin = 'open' AND c.status <> 'closed'),
    d AS (
      SELECT material_id, card_id, sum(q) OVER w - q AS lo, sum(q) OVER w AS hi FROM demand
      WINDOW w AS (PARTITION BY material_id ORDER BY card_id)),
    inserted AS (
      INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
      SELECT s.card_id, d.card_id, 'assembly', round(sum(least(s.hi, d.hi) - greatest(s.lo, d.lo)), 4)
        FROM s JOIN d ON d.material_id = s.material_id AND least(s.hi, d.hi) > greatest(s.lo, d.lo)
       GROUP BY s.card_id, d.card_id
      HAVING round(sum(least(s.hi, d.hi) - greatest(s.lo, d.lo)), 4) > 0
      -- A ring card already linked to the bearing card by 选配 (kind matching) keeps that link.
      ON CONFLICT (parent_id, child_id) DO NOTHING
      RETURNING 1)
    SELECT count(*)::int AS n FROM inserted`.execute(db);
  if (!linked.rows[0]?.n) return;
  // The heats of each card's ancestors made by other orders (its rings, their split parents…).
  await sql`
    WITH RECURSIVE up AS (
      SELECT c.id AS card_id, l.parent_id AS id, 1 AS depth
        FROM flow_card c JOIN flow_card_link l ON l.child_id = c.id
       WHERE c.production_order_id = ${orderId}
      UNION
      SELECT up.card_id, l.parent_id, up.depth + 1 FROM up JOIN flow_card_link l ON l.child_id = up.id
       WHERE up.depth < ${MAX_DEPTH}),
    heats AS (
      SELECT up.card_id, string_agg(DISTINCT h, '/' ORDER BY h) AS heat
        FROM up JOIN flow_card p ON p.id = up.id AND p.production_order_id <> ${orderId}
       CROSS JOIN LATERAL unnest(string_to_array(p.heat_no, '/')) AS h
       WHERE h <> ''
       GROUP BY up.card_id)
    UPDATE flow_card c
       SET heat_no = CASE WHEN length(heats.heat) <= 100 THEN heats.heat ELSE left(heats.heat, 99) || '…' END
      FROM heats
     WHERE c.id = heats.card_id
       AND c.heat_no IS DISTINCT FROM (CASE WHEN length(heats.heat) <= 100 THEN heats.heat ELSE left(heats.heat, 99) || '…' END)`.execute(
    db,
  );
}

/** The distinct heats of a card and its ancestors ('/'-joined heats split), sorted. */
export async function heatsOf(db: Db, cardId: number): Promise<string[]> {
  const r = await sql<{ heat: string }>`
    WITH RECURSIVE up AS (
      SELECT ${cardId}::bigint AS id, 0 AS depth
      UNION
      SELECT l.parent_id, up.depth + 1 FROM up JOIN flow_card_link l ON l.child_id = up.id
       WHERE up.depth < ${MAX_DEPTH})
    SELECT DISTINCT h AS heat
      FROM (SELECT DISTINCT id FROM up) u JOIN flow_card c ON c.id = u.id
     CROSS JOIN LATERAL unnest(string_to_array(c.heat_no, '/')) AS h
     WHERE h <> '' AND h <> '…' AND right(h, 1) <> '…'
     ORDER BY 1`.execute(db);
  return r.rows.map((x) => x.heat);
}
