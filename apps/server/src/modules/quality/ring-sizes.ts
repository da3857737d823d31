import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

/**
 * Per-ring sizes for 选配 (issue 38 §4): the one place the matcher reads measurements from, so
 * that moving to per-ring reading sets (issue 38 §3: d_mp / D_mp and groove diameter per ring)
 * changes this function only.
 *
 * Today a 测量记录 subgroup holds one value per ring of a card, characteristic by characteristic.
 * A ring is therefore "ring k of card X": the k-th 沟道直径 value measured on the card (by
 * measurement time, subgroup, line), and its diameter (内径 for an inner ring, 外径 for an outer
 * one) is the k-th value of that characteristic on the same card, when measured.
 *
 * Rings on offer are those of ring cards (the ring lot: stock batch = card number) in stock,
 * qualified (合格), measured on the groove and not yet matched; a card offers at most as many as
 * it has in stock (the first measured ones).
 */
export interface RingSize {
  /** 「XXXX#k」: the card number and the ring's number on the card. */
  key: string;
  cardId: number;
  cardNo: string;
  ringNo: number;
  materialId: number;
  role: 'inner' | 'outer';
  grooveMm: number;
  /** d_mp of an inner ring, D_mp of an outer one (the single reading today), when measured. */
  diameterMm: number | null;
  measurementValueId: number;
}

export async function ringSizesForMatching(db: Db, materialIds: number[]): Promise<RingSize[]> {
  if (!materialIds.length) return [];
  const r = await sql<{
    cardId: number;
    cardNo: string;
    materialId: number;
    partType: string;
    ringNo: number;
    valueId: number;
    groove: number;
    diameter: number | null;
  }>`
    WITH lots AS (
      SELECT c.id AS card_id, c.doc_no, c.product_id, m.part_type, floor(sum(b.quantity))::int AS stock
        FROM stock_balance b
        JOIN flow_card c ON c.doc_no = b.batch_no AND c.product_id = b.material_id
        JOIN material m ON m.id = c.product_id
       WHERE b.material_id = ANY(${sql.val(materialIds)}::bigint[]) AND b.batch_no <> ''
         AND b.quality_status = 'qualified' AND b.quantity > 0
       GROUP BY c.id, c.doc_no, c.product_id, m.part_type),
    readings AS (
      SELECT l.card_id, s.characteristic, v.id AS value_id, v.value,
             row_number() OVER (PARTITION BY l.card_id, s.characteristic ORDER BY s.measured_at, s.id, v.line_no)::int AS ring_no
        FROM lots l
        JOIN measurement_subgroup s ON s.flow_card_id = l.card_id
         AND s.characteristic IN ('raceway-diameter', 'bore-diameter', 'outside-diameter')
        JOIN measurement_value v ON v.measurement_subgroup_id = s.id),
    free AS (
      SELECT l.card_id, l.doc_no, l.product_id, l.part_type, l.stock, g.ring_no, g.value_id, g.value,
             row_number() OVER (PARTITION BY l.card_id ORDER BY g.ring_no) AS k
        FROM lots l JOIN readings g ON g.card_id = l.card_id AND g.characteristic = 'raceway-diameter'
       WHERE NOT EXISTS (SELECT 1 FROM ring_match_ring x WHERE x.card_id = l.card_id AND x.ring_no = g.ring_no))
    SELECT f.card_id, f.doc_no AS card_no, f.product_id AS material_id, f.part_type, f.ring_no, f.value_id,
           f.value::float8 AS groove, d.value::float8 AS diameter
      FROM free f
      LEFT JOIN readings d ON d.card_id = f.card_id AND d.ring_no = f.ring_no
       AND d.characteristic = CASE f.part_type WHEN 'inner' THEN 'bore-diameter' ELSE 'outside-diameter' END
     WHERE f.k <= f.stock
     ORDER BY f.card_id, f.ring_no`.execute(db);
  return r.rows.map((x) => ({
    key: `${x.cardNo}#${x.ringNo}`,
    cardId: Number(x.cardId),
    cardNo: x.cardNo,
    ringNo: Number(x.ringNo),
    materialId: Number(x.materialId),
    role: x.partType === 'outer' ? 'outer' : 'inner',
    grooveMm: Number(x.groove),
    diameterMm: x.diameter == null ? null : Number(x.diameter),
    measurementValueId: Number(x.valueId),
  }));
}
