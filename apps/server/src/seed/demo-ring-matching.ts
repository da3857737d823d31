import { stockInboundResource } from '@ringmes/domain';
import { sql } from 'kysely';
import { acceptRingMatch } from '../modules/quality/ring-matching.ts';
import { DOC_HOOKS, postDocumentByName } from '../modules/warehouse/documents.ts';
import type { AuthUser } from '../platform/auth/sessions.ts';
import type { Db } from '../platform/db/db.ts';
import { businessDay } from '../platform/numbering.ts';
import { createRecord } from '../platform/resource/crud.ts';

/** Rings measured for 选配: [material, card suffix, rings, groove mean, groove σ, diameter, its mean, its σ]. */
const LOTS: [string, string, number, number, number, string, number, number][] = [
  ['SF-6204-IR-P0', 'XP01', 250, 25.56, 0.003, 'bore-diameter', 19.9955, 0.002],
  ['SF-6204-IR-P0', 'XP02', 250, 25.5605, 0.003, 'bore-diameter', 19.9955, 0.002],
  ['SF-6204-OR-P0', 'XP03', 250, 41.4485, 0.0035, 'outside-diameter', 46.9945, 0.0025],
  ['SF-6204-OR-P0', 'XP04', 250, 41.449, 0.0035, 'outside-diameter', 46.9945, 0.0025],
];

/**
 * 选配 demo (issue 38 §4): four 6204 ring lots (two of inner rings, two of outer rings, 250 each)
 * finished on the latest completed order of their ring (an order under way keeps its cards adding
 * up to its quantity), every ring measured by the 套圈内外径测量仪 (EQ-JC-002) on its groove and on its bore
 * or outside diameter (subgroups of five, normal on a fixed seed, read to 0.1 µm), received into
 * the 半成品仓 under their card numbers; then the first open 6204-2RS bearing card is matched in CN
 * (2 µm groups, balls Φ7.938 −2 … +2 µm). The rest stays on offer, so 装配车间 › 选配 proposes
 * real sets. Inner grooves around 25.560 and outer around 41.4485 give a mean clearance of
 * 41.4485 − 25.560 − 2 × 7.938 = 12.5 µm, the middle of CN's 5 … 20 for d = 20.
 */
export async function seedDemoRingMatching(db: Db, user: AuthUser): Promise<void> {
  const day = (offset: number) => businessDay(new Date(Date.now() + offset * 86_400_000));
  await sql`SELECT setseed(0.3838)`.execute(db);
  const ids = await sql<{
    equipmentId: number | null;
    operatorId: number | null;
    warehouseId: number | null;
  }>`
    SELECT (SELECT id FROM equipment WHERE code = 'EQ-JC-002') AS equipment_id,
           (SELECT id FROM app_user WHERE user_name = 'qc01') AS operator_id,
           (SELECT id FROM warehouse WHERE code = 'WH-SF') AS warehouse_id`.execute(db);
  const { equipmentId, operatorId, warehouseId } = ids.rows[0];
  if (!equipmentId || !warehouseId) return;
  const lines: { materialId: number; quantity: number; batchNo: string }[] = [];
  for (const [code, suffix, rings, groove, sigma, characteristic, diameter, dSigma] of LOTS) {
    const m = await sql<{ id: number; orderId: number | null; heatNo: string | null }>`
      SELECT m.id, o.id AS order_id,
             (SELECT c.heat_no FROM flow_card c WHERE c.product_id = m.id AND c.heat_no IS NOT NULL ORDER BY c.id DESC LIMIT 1) AS heat_no
        FROM material m
        LEFT JOIN LATERAL (SELECT id FROM production_order WHERE product_id = m.id AND status IN ('completed', 'closed')
                            ORDER BY id DESC LIMIT 1) o ON true
       WHERE m.code = ${code}`.execute(db);
    const row = m.rows[0];
    if (!row?.orderId) continue;
    const docNo = `LZ${day(-3).replaceAll('-', '')}-${suffix}`;
    const card = await sql<{ id: number }>`
      INSERT INTO flow_card (doc_no, status, production_order_id, product_id, part_name, quantity, heat_no, origin,
                             remark, created_by, updated_by, created_at, updated_at)
      VALUES (${docNo}, 'completed', ${row.orderId}, ${row.id}, ${code.includes('-IR-') ? '内圈' : '外圈'}, ${rings},
              ${row.heatNo}, 'open', '选配演示：检测车间逐件测量后送装配', ${user.id}, ${user.id},
              now() - interval '3 days', now() - interval '3 days')
      RETURNING id`.execute(db);
    const cardId = Number(card.rows[0].id);
    // Every ring on the groove and on its diameter, five rings a subgroup, over the last two days.
    for (const [ch, mean, s, lsl, usl] of [
      ['raceway-diameter', groove, sigma, groove - 0.015, groove + 0.015],
      [characteristic, diameter, dSigma, diameter - 0.0095, diameter + 0.0045],
    ] as const) {
      const count = rings / 5;
      const at = sql`now() - interval '2 days' + (i * 5) * interval '1 minute'`;
      await sql`
        WITH v AS MATERIALIZED (
          SELECT i, k, round((${mean} + ${s} * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))::numeric, 4) AS value
            FROM generate_series(0, ${count - 1}) AS i, generate_series(1, 5) AS k),
        g AS (
          SELECT i, count(*)::int AS n, round(avg(value), 6) AS m, max(value) - min(value) AS r,
                 round(sum(value * value) - sum(value) * sum(value) / count(*), 10) AS ss
            FROM v GROUP BY i),
        s AS (
          INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at, flow_card_id,
                                            lsl, usl, spec_source, sample_size, mean, range, ss_dev,
                                            created_by, updated_by, created_at, updated_at)
          SELECT ${row.id}, ${ch}, ${equipmentId}, ${operatorId ?? user.id}, ${at}, ${cardId}, ${lsl}, ${usl}, 'typed',
                 g.n, g.m, g.r, g.ss, ${user.id}, ${user.id}, ${at}, ${at}
            FROM g ORDER BY i
          RETURNING id, measured_at)
        INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
        SELECT s.id, v.k, v.value FROM v JOIN s ON s.measured_at = ${at}`.execute(db);
    }
    lines.push({ materialId: Number(row.id), quantity: rings, batchNo: docNo });
  }
  if (!lines.length) return;
  const inbound = await createRecord(
    { db, user, def: stockInboundResource },
    {
      type: 'other',
      warehouseId: Number(warehouseId),
      bizDate: day(0),
      remark: '检测车间送装配：逐件测量的 6204 套圈（选配）',
      lines,
    },
    DOC_HOOKS['stock-inbound'],
  );
  await postDocumentByName(db, 'stock-inbound', inbound, user);
  // The first open 6204-2RS card is matched in CN.
  const bearing = await sql<{ bearingId: number; cardId: number }>`
    SELECT m.id AS bearing_id, c.id AS card_id FROM material m JOIN flow_card c ON c.product_id = m.id AND c.status = 'open'
     WHERE m.code = 'FG-6204-2RS' ORDER BY c.id LIMIT 1`.execute(db);
  const b = bearing.rows[0];
  if (!b) return;
  await acceptRingMatch(db, user, {
    bearingId: Number(b.bearingId),
    clearanceGroup: 'CN',
    groupWidthUm: 2,
    ballGradesUm: [-2, -1, 0, 1, 2],
    flowCardId: Number(b.cardId),
    remark: '演示：按 CN 游隙选配',
  });
}
