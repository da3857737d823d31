import {
  CLEARANCE_GROUPS,
  type ClearanceGroup,
  type MatchResult,
  matchingYield,
  matchRings,
  RingMatchingError,
  radialClearanceLimits,
  sizeGroups,
  stockOutboundResource,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { conflict, fieldError, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { businessDay } from '../../platform/numbering.ts';
import { createRecord } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import { DOC_HOOKS } from '../warehouse/documents.ts';
import { type RingSize, ringSizesForMatching } from './ring-sizes.ts';

/**
 * 选配 (issue 38 §4) for the 装配 workshop: size groups of the measured rings in stock, the
 * matching proposal for a bearing and clearance group (domain `matchRings`), its acceptance
 * (rings recorded per set, the ring cards linked to the bearing card for the genealogy) and the
 * monthly matching yield. Per-ring sizes come from `ringSizesForMatching` only.
 */

/** 装配车间 › 选配 (page and accept button) and › 选配合格率 (report). */
export const MATCHING_PERMISSION = 'production:assemblyMatching:list';
export const MATCHING_ACCEPT = 'production:assemblyMatching:accept';
export const MATCHING_YIELD = 'production:assemblyMatchingYield:query';
export const MATCHING_YIELD_EXPORT = 'production:assemblyMatchingYield:export';

/** ISO 3290 ball gauges most plants stock for a ball size: −2 … +2 µm. */
export const DEFAULT_BALL_GRADES = [-2, -1, 0, 1, 2];

const groupWidth = z.coerce
  .number({ error: '分组宽度必须是数字' })
  .min(0.5, '分组宽度不能小于 0.5 µm')
  .max(20, '分组宽度不能大于 20 µm')
  .refine((v) => Number.isInteger(v * 10), '分组宽度精确到 0.1 µm')
  .default(2);

const groupsQuery = z.strictObject({ bearingId: zx.id, groupWidthUm: groupWidth });

const proposeBody = z.strictObject({
  bearingId: zx.id,
  clearanceGroup: z.enum(CLEARANCE_GROUPS, { error: '游隙组别只能是 C2、CN、C3、C4、C5' }),
  groupWidthUm: groupWidth,
  ballGradesUm: z
    .array(
      z
        .number({ error: '钢球规值必须是数字（µm）' })
        .min(-20, '钢球规值应在 −20～+20 µm 之间')
        .max(20, '钢球规值应在 −20～+20 µm 之间')
        .refine((v) => Number.isInteger(v * 10), '钢球规值精确到 0.1 µm'),
    )
    .min(1, '请至少选择一个钢球规值')
    .max(41, '钢球规值过多')
    .optional(),
  /**
   * Balls in stock by grade (粒): no grade fills more bearings than its balls ÷ the BOM's balls per
   * bearing; a grade not listed has none. Absent: balls are not the constraint.
   */
  ballStock: z
    .array(
      z.strictObject({
        gradeUm: z
          .number({ error: '钢球规值必须是数字（µm）' })
          .min(-20, '钢球规值应在 −20～+20 µm 之间')
          .max(20, '钢球规值应在 −20～+20 µm 之间')
          .refine((v) => Number.isInteger(v * 10), '钢球规值精确到 0.1 µm'),
        quantity: z
          .number({ error: '钢球数量必须是整数（粒）' })
          .int('钢球数量必须是整数（粒）')
          .min(0, '钢球数量不能为负')
          .max(100_000_000, '钢球数量过大'),
      }),
    )
    .max(41, '钢球规值过多')
    .refine((v) => new Set(v.map((x) => x.gradeUm)).size === v.length, '同一规值的钢球库存只能填一行')
    .optional(),
});

const acceptBody = proposeBody.extend({
  flowCardId: zx.id,
  workReportId: zx.id.optional(),
  remark: zx.text(500).optional(),
});

const pageQuery = z.strictObject({
  pageNum: zx.pageNum,
  pageSize: zx.pageSize,
  bearingId: zx.id.optional(),
  flowCardId: zx.id.optional(),
});

const month = (label: string) =>
  z.string({ error: `${label}必须是月份` }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${label}格式应为 YYYY-MM`);
const yieldQuery = z
  .strictObject({ from: month('开始月份'), to: month('结束月份'), bearingId: zx.id.optional() })
  .refine((q) => q.from <= q.to, { message: '开始月份不能晚于结束月份', path: ['to'] });

interface Bearing {
  id: number;
  code: string;
  name: string;
  boreMm: number;
  inner: { id: number; code: string; name: string };
  outer: { id: number; code: string; name: string };
  ballMm: number;
  ballCode: string;
  /** Balls a bearing takes (the BOM line's quantity). */
  ballsPerBearing: number;
}

/**
 * The bearing's matching data from master data: its nominal bore (the clearance table's row), and
 * from its active BOM the inner and outer ring materials and the ball (diameter from the ball's
 * spec, 「G10 Φ7.938」).
 */
async function bearingOf(db: Db, bearingId: number): Promise<Bearing> {
  const m = await sql<{
    id: number;
    code: string;
    name: string;
    partType: string | null;
    bore: string | null;
  }>`
    SELECT id, code, name, part_type, bore_diameter::text AS bore FROM material WHERE id = ${bearingId}`.execute(
    db,
  );
  const b = m.rows[0];
  if (!b) throw notFound('轴承不存在或已被删除');
  if (b.partType !== 'bearing') throw fieldError('bearingId', `${b.code} 不是轴承成品，不能选配`);
  if (!b.bore) throw fieldError('bearingId', `${b.code} 未填写内径 d，无法确定游隙`);
  const lines = await sql<{
    id: number;
    code: string;
    name: string;
    spec: string | null;
    partType: string | null;
    quantity: string;
  }>`
    SELECT m.id, m.code, m.name, m.spec, m.part_type, l.quantity::text AS quantity
      FROM bom JOIN bom_line l ON l.bom_id = bom.id JOIN material m ON m.id = l.material_id
     WHERE bom.product_id = ${bearingId} AND bom.status = 'active'
     ORDER BY l.line_no`.execute(db);
  const inner = lines.rows.find((x) => x.partType === 'inner');
  const outer = lines.rows.find((x) => x.partType === 'outer');
  const ball = lines.rows
    .map((x) => ({ x, d: /Φ\s*(\d+(?:\.\d+)?)/.exec(x.spec ?? '')?.[1] }))
    .find((x) => x.d && /球/.test(x.x.name));
  if (!inner || !outer) throw fieldError('bearingId', `${b.code} 的启用 BOM 中没有内圈和外圈`);
  if (!ball?.d)
    throw fieldError('bearingId', `${b.code} 的启用 BOM 中没有注明直径的钢球（规格如「G10 Φ7.938」）`);
  const pick = (x: { id: number; code: string; name: string }) => ({
    id: Number(x.id),
    code: x.code,
    name: x.name,
  });
  return {
    id: Number(b.id),
    code: b.code,
    name: b.name,
    boreMm: Number(b.bore),
    inner: pick(inner),
    outer: pick(outer),
    ballMm: Number(ball.d),
    ballCode: ball.x.code,
    ballsPerBearing: Math.max(1, Math.round(Number(ball.x.quantity))),
  };
}

async function ringsOf(db: Db, bearing: Bearing) {
  const rings = await ringSizesForMatching(db, [bearing.inner.id, bearing.outer.id]);
  return {
    inner: rings.filter((r) => r.materialId === bearing.inner.id && r.role === 'inner'),
    outer: rings.filter((r) => r.materialId === bearing.outer.id && r.role === 'outer'),
  };
}

const rethrow = (e: unknown): never => {
  if (e instanceof RingMatchingError) throw fieldError(e.field, e.message);
  throw e;
};

const groupView = (g: { label: string; count: number }[]) => g.map(({ label, count }) => ({ label, count }));

/** The lots (ring cards) of each side with the rings each offers. */
function lotsOf(rings: RingSize[]) {
  const by = new Map<string, { cardId: number; cardNo: string; rings: number }>();
  for (const r of rings) {
    const x = by.get(r.cardNo) ?? { cardId: r.cardId, cardNo: r.cardNo, rings: 0 };
    x.rings++;
    by.set(r.cardNo, x);
  }
  return [...by.values()];
}

/** Groove and diameter groups of the rings on offer. */
export async function ringGroups(db: Db, bearingId: number, widthUm: number) {
  const bearing = await bearingOf(db, bearingId);
  const { inner, outer } = await ringsOf(db, bearing);
  const side = (rings: RingSize[]) => {
    const measured = rings.filter((r) => r.diameterMm != null);
    return {
      rings: rings.length,
      lots: lotsOf(rings),
      grooveGroups: groupView(
        sizeGroups(
          rings,
          (r) => r.grooveMm,
          (r) => r.key,
          widthUm,
        ),
      ),
      diameterGroups: groupView(
        sizeGroups(
          measured,
          (r) => r.diameterMm as number,
          (r) => r.key,
          widthUm,
        ),
      ),
    };
  };
  return { bearing, groupWidthUm: widthUm, inner: side(inner), outer: side(outer) };
}

type ProposeBody = z.infer<typeof proposeBody>;
export type AcceptBody = z.infer<typeof acceptBody>;

async function computeProposal(db: Db, body: ProposeBody) {
  const bearing = await bearingOf(db, body.bearingId);
  let clearance: { min: number; max: number };
  try {
    clearance = radialClearanceLimits(bearing.boreMm, body.clearanceGroup as ClearanceGroup);
  } catch (e) {
    return rethrow(e);
  }
  const { inner, outer } = await ringsOf(db, bearing);
  const grades = [...new Set(body.ballGradesUm ?? DEFAULT_BALL_GRADES)].sort((a, b) => a - b);
  // Balls in stock by grade → the bearings each grade can fill (whole bearings only).
  const stock = body.ballStock
    ? grades.map((g) => {
        const quantity = body.ballStock?.find((x) => x.gradeUm === g)?.quantity ?? 0;
        return { gradeUm: g, quantity, sets: Math.floor(quantity / bearing.ballsPerBearing) };
      })
    : null;
  let result: MatchResult<RingSize>;
  try {
    result = matchRings<RingSize>({
      inner: inner.map((r) => ({ id: r, grooveMm: r.grooveMm })),
      outer: outer.map((r) => ({ id: r, grooveMm: r.grooveMm })),
      ballMm: bearing.ballMm,
      ballGradesUm: grades,
      clearance,
      groupWidthUm: body.groupWidthUm,
      ballStockSets: stock ? Object.fromEntries(stock.map((x) => [String(x.gradeUm), x.sets])) : undefined,
    });
  } catch (e) {
    return rethrow(e);
  }
  return { bearing, clearance, grades, inner, outer, result, stock };
}

/** The proposal as the page shows it: sets by group pair with their lots, groups and leftovers. */
function proposalView(p: Awaited<ReturnType<typeof computeProposal>>, clearanceGroup: string) {
  const { bearing, clearance, grades, inner, outer, result, stock } = p;
  const lotsIn = (rings: RingSize[]) => {
    const by = new Map<string, number>();
    for (const r of rings) by.set(r.cardNo, (by.get(r.cardNo) ?? 0) + 1);
    return [...by].map(([cardNo, count]) => ({ cardNo, count }));
  };
  return {
    bearing,
    clearanceGroup,
    clearance,
    ballGradesUm: grades,
    /** Balls in stock by grade as given: the bearings they fill and the sets that use them. */
    ballStock:
      stock?.map((x) => ({
        ...x,
        used: result.sets.filter((s) => s.ballGradeUm === x.gradeUm).reduce((a, s) => a + s.count, 0),
      })) ?? null,
    groupWidthUm: result.groupWidthUm,
    offered: { inner: inner.length, outer: outer.length },
    assembled: result.assembled,
    yieldPercent: matchingYield(result.assembled, inner.length, outer.length),
    sets: result.sets.map((s, i) => ({
      lineNo: i + 1,
      innerGroup: s.innerLabel,
      outerGroup: s.outerLabel,
      ballGradeUm: s.ballGradeUm,
      ballMm: Math.round((bearing.ballMm * 1000 + s.ballGradeUm) * 10) / 10_000,
      clearanceLowUm: s.clearanceLowUm,
      clearanceHighUm: s.clearanceHighUm,
      count: s.count,
      innerLots: lotsIn(s.pairs.map((x) => x[0])),
      outerLots: lotsIn(s.pairs.map((x) => x[1])),
    })),
    innerGroups: groupView(result.innerGroups),
    outerGroups: groupView(result.outerGroups),
    leftover: { inner: groupView(result.leftover.inner), outer: groupView(result.leftover.outer) },
  };
}

/**
 * Accepts the proposal for a bearing card: recomputed on the rings on offer now, cut to what the
 * card still needs, written with every ring (card, number, reading, group, measurement) under the
 * card's row lock; each ring card is linked to the bearing card (kind `matching`) so the genealogy
 * reaches the rings' measurements. A ring taken meanwhile by another acceptance is a 409.
 */
export async function acceptRingMatch(db: Db, user: AuthUser, body: AcceptBody) {
  const card = await sql<{
    id: number;
    docNo: string;
    productId: number;
    quantity: string;
    status: string;
    productionOrderId: number;
  }>`
    SELECT id, doc_no, product_id, quantity::text AS quantity, status, production_order_id
      FROM flow_card WHERE id = ${body.flowCardId} FOR UPDATE`.execute(db);
  const c = card.rows[0];
  if (!c) throw notFound('流转卡不存在或已被删除');
  if (Number(c.productId) !== body.bearingId)
    throw fieldError('flowCardId', `流转卡 ${c.docNo} 不是该轴承的流转卡`);
  if (c.status !== 'open')
    throw conflict(`流转卡 ${c.docNo} 已${c.status === 'completed' ? '完工' : '关闭'}，不能再选配`);
  if (body.workReportId) {
    const rep = await sql<{ flowCardId: number | null; workshopType: string; status: string }>`
      SELECT flow_card_id, workshop_type, status FROM work_report WHERE id = ${body.workReportId}`.execute(
      db,
    );
    const w = rep.rows[0];
    if (!w) throw fieldError('workReportId', '报工单不存在或已被删除');
    if (Number(w.flowCardId) !== Number(c.id) || w.workshopType !== 'assembly')
      throw fieldError('workReportId', `报工单不是装配车间在流转卡 ${c.docNo} 上的报工`);
  }
  const done = await sql<{ n: number }>`
    SELECT COALESCE(sum(assembled), 0)::int AS n FROM ring_match WHERE flow_card_id = ${c.id}`.execute(db);
  const room = Math.floor(Number(c.quantity)) - Number(done.rows[0].n);
  if (room <= 0) throw conflict(`流转卡 ${c.docNo} 的 ${Number(c.quantity)} 套已全部选配`);
  const p = await computeProposal(db, body);
  if (!p.result.assembled)
    throw conflict('在库的已测套圈配不出该游隙组的轴承，请调整游隙组别、钢球规值或分组宽度');
  // The card takes what it still needs: the best-centred sets first (clearance nearest the middle
  // of the group's limits), the rest stay on offer.
  let left = room;
  const middle = p.clearance.min + p.clearance.max;
  const off = (s: { clearanceLowUm: number; clearanceHighUm: number }) =>
    Math.abs(s.clearanceLowUm + s.clearanceHighUm - middle);
  const sets = [...p.result.sets]
    .sort((a, b) => off(a) - off(b))
    .map((s) => {
      const n = Math.min(s.count, left);
      left -= n;
      return { ...s, count: n, pairs: s.pairs.slice(0, n) };
    })
    .filter((s) => s.count > 0);
  const assembled = sets.reduce((a, s) => a + s.count, 0);
  const head = await sql<{ id: number }>`
    INSERT INTO ring_match (bearing_id, inner_material_id, outer_material_id, clearance_group, clearance_min, clearance_max,
                            group_width_um, ball_mm, ball_grades, inner_offered, outer_offered, assembled,
                            flow_card_id, production_order_id, work_report_id, remark, created_by)
    VALUES (${p.bearing.id}, ${p.bearing.inner.id}, ${p.bearing.outer.id}, ${body.clearanceGroup}, ${p.clearance.min},
            ${p.clearance.max}, ${p.result.groupWidthUm}, ${p.bearing.ballMm}, ${p.grades.join(',')}, ${p.inner.length},
            ${p.outer.length}, ${assembled}, ${c.id}, ${c.productionOrderId}, ${body.workReportId ?? null},
            ${body.remark ?? null}, ${user.id})
    RETURNING id`.execute(db);
  const matchId = Number(head.rows[0].id);
  const setIds = await sql<{ id: number }>`
    INSERT INTO ring_match_set (ring_match_id, line_no, inner_group, outer_group, ball_grade_um, clearance_low_um,
                                clearance_high_um, count)
    SELECT ${matchId}, u.n, u.ig, u.og, u.g, u.lo, u.hi, u.c
      FROM unnest(${sql.val(sets.map((_, i) => i + 1))}::int[], ${sql.val(sets.map((s) => s.innerLabel))}::text[],
                  ${sql.val(sets.map((s) => s.outerLabel))}::text[], ${sql.val(sets.map((s) => s.ballGradeUm))}::numeric[],
                  ${sql.val(sets.map((s) => s.clearanceLowUm))}::numeric[], ${sql.val(sets.map((s) => s.clearanceHighUm))}::numeric[],
                  ${sql.val(sets.map((s) => s.count))}::int[]) AS u(n, ig, og, g, lo, hi, c)
     ORDER BY u.n
    RETURNING id`.execute(db);
  const rows: { set: number; pair: number; role: string; r: RingSize; group: string }[] = [];
  sets.forEach((s, i) => {
    const setId = Number(setIds.rows[i].id);
    s.pairs.forEach(([a, b], k) => {
      rows.push({ set: setId, pair: k + 1, role: 'inner', r: a, group: s.innerLabel });
      rows.push({ set: setId, pair: k + 1, role: 'outer', r: b, group: s.outerLabel });
    });
  });
  try {
    await sql`
      INSERT INTO ring_match_ring (ring_match_id, set_id, pair_no, role, card_id, ring_no, groove_mm, size_group,
                                   measurement_value_id)
      SELECT ${matchId}, u.s, u.p, u.role, u.card, u.ring, u.groove, u.grp, u.v
        FROM unnest(${sql.val(rows.map((x) => x.set))}::bigint[], ${sql.val(rows.map((x) => x.pair))}::int[],
                    ${sql.val(rows.map((x) => x.role))}::text[], ${sql.val(rows.map((x) => x.r.cardId))}::bigint[],
                    ${sql.val(rows.map((x) => x.r.ringNo))}::int[], ${sql.val(rows.map((x) => x.r.grooveMm))}::numeric[],
                    ${sql.val(rows.map((x) => x.group))}::text[], ${sql.val(rows.map((x) => x.r.measurementValueId))}::bigint[])
             AS u(s, p, role, card, ring, groove, grp, v)`.execute(db);
  } catch (e: any) {
    if (e?.code === '23505') throw conflict('部分套圈已被其他选配占用，请重新生成方案');
    throw e;
  }
  await sql`
    INSERT INTO flow_card_link (parent_id, child_id, kind, quantity)
    SELECT card_id, ${c.id}, 'matching', count(*) FROM ring_match_ring WHERE ring_match_id = ${matchId}
     GROUP BY card_id
    ON CONFLICT (parent_id, child_id) DO UPDATE SET quantity = flow_card_link.quantity + EXCLUDED.quantity
     WHERE flow_card_link.kind = 'matching'`.execute(db);
  const issues = await draftRingIssue(db, user, matchId, {
    docNo: c.docNo,
    productionOrderId: Number(c.productionOrderId),
  });
  return { id: matchId, assembled, offered: { inner: p.inner.length, outer: p.outer.length }, issues };
}

/**
 * The matched rings leave the ring store for the bearing card's order: a 领料出库 draft per
 * warehouse holding them, a line per ring card (its number as batch, the rings matched from it,
 * taken from its qualified stock warehouse by warehouse), for the keeper to check and post —
 * posting checks the order's requirement as any issue does, and links the cards (装配领用) on top
 * of the 选配 links. Rings whose material the order does not require are left out (nothing to
 * issue them against).
 */
async function draftRingIssue(
  db: Db,
  user: AuthUser,
  matchId: number,
  card: { docNo: string; productionOrderId: number },
): Promise<{ id: number; docNo: string; warehouseId: number; quantity: number }[]> {
  const stock = await sql<{
    cardNo: string;
    materialId: number;
    taken: number;
    warehouseId: number;
    quantity: string;
  }>`
    WITH taken AS (
      SELECT card_id, count(*)::int AS n FROM ring_match_ring WHERE ring_match_id = ${matchId} GROUP BY card_id)
    SELECT c.doc_no AS card_no, c.product_id AS material_id, t.n AS taken, b.warehouse_id,
           floor(sum(b.quantity))::text AS quantity
      FROM taken t JOIN flow_card c ON c.id = t.card_id
      JOIN stock_balance b ON b.batch_no = c.doc_no AND b.material_id = c.product_id
       AND b.quality_status = 'qualified' AND b.quantity > 0
     WHERE EXISTS (SELECT 1 FROM production_order_material pm
                    WHERE pm.production_order_id = ${card.productionOrderId} AND pm.material_id = c.product_id)
     GROUP BY c.doc_no, c.product_id, t.n, b.warehouse_id
     ORDER BY c.doc_no, b.warehouse_id`.execute(db);
  const byStore = new Map<number, { materialId: number; quantity: string; batchNo: string }[]>();
  const left = new Map<string, number>();
  for (const r of stock.rows) {
    const want = left.get(r.cardNo) ?? Number(r.taken);
    const n = Math.min(want, Number(r.quantity));
    left.set(r.cardNo, want - n);
    if (n <= 0) continue;
    const lines = byStore.get(Number(r.warehouseId)) ?? [];
    lines.push({ materialId: Number(r.materialId), quantity: String(n), batchNo: r.cardNo });
    byStore.set(Number(r.warehouseId), lines);
  }
  const drafts: { id: number; docNo: string; warehouseId: number; quantity: number }[] = [];
  for (const [warehouseId, lines] of byStore) {
    const id = await createRecord(
      { db, user, def: stockOutboundResource },
      {
        type: 'requisition',
        warehouseId,
        bizDate: businessDay(),
        productionOrderId: card.productionOrderId,
        remark: `选配领料：流转卡 ${card.docNo} 配对的套圈`,
        lines,
      },
      DOC_HOOKS['stock-outbound'],
    );
    const doc = await sql<{ docNo: string }>`SELECT doc_no FROM stock_outbound WHERE id = ${id}`.execute(db);
    drafts.push({
      id,
      docNo: doc.rows[0].docNo,
      warehouseId,
      quantity: lines.reduce((a, l) => a + Number(l.quantity), 0),
    });
  }
  return drafts;
}

async function matchInfo(db: Db, id: number) {
  const h = await sql<any>`
    SELECT r.id, r.clearance_group, r.clearance_min::float8 AS clearance_min, r.clearance_max::float8 AS clearance_max,
           r.group_width_um::float8 AS group_width_um, r.ball_mm::float8 AS ball_mm, r.ball_grades, r.inner_offered,
           r.outer_offered, r.assembled, r.created_at, r.remark, r.flow_card_id, c.doc_no AS card_no,
           r.work_report_id, w.doc_no AS work_report_no, b.code AS bearing_code, b.name AS bearing_name,
           u.first_name AS created_by_name
      FROM ring_match r JOIN material b ON b.id = r.bearing_id
      LEFT JOIN flow_card c ON c.id = r.flow_card_id
      LEFT JOIN work_report w ON w.id = r.work_report_id
      LEFT JOIN app_user u ON u.id = r.created_by
     WHERE r.id = ${id}`.execute(db);
  if (!h.rows[0]) throw notFound('选配记录不存在');
  const sets = await sql<any>`
    SELECT s.id, s.line_no, s.inner_group, s.outer_group, s.ball_grade_um::float8 AS ball_grade_um,
           s.clearance_low_um::float8 AS clearance_low_um, s.clearance_high_um::float8 AS clearance_high_um, s.count,
           (SELECT json_agg(json_build_object('role', x.role, 'cardNo', x.card_no, 'count', x.n) ORDER BY x.role, x.card_no)
              FROM (SELECT rr.role, fc.doc_no AS card_no, count(*)::int AS n FROM ring_match_ring rr
                      JOIN flow_card fc ON fc.id = rr.card_id WHERE rr.set_id = s.id GROUP BY 1, 2) x) AS lots
      FROM ring_match_set s WHERE s.ring_match_id = ${id} ORDER BY s.line_no`.execute(db);
  return { ...h.rows[0], sets: sets.rows };
}

async function yieldRows(db: Db, q: z.infer<typeof yieldQuery>) {
  const r = await sql<{
    month: string;
    matches: number;
    innerOffered: number;
    outerOffered: number;
    offered: number;
    assembled: number;
  }>`
    SELECT to_char(r.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM') AS month, count(*)::int AS matches,
           sum(r.inner_offered)::int AS inner_offered, sum(r.outer_offered)::int AS outer_offered,
           sum(least(r.inner_offered, r.outer_offered))::int AS offered, sum(r.assembled)::int AS assembled
      FROM ring_match r
     WHERE to_char(r.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM') BETWEEN ${q.from} AND ${q.to}
       ${q.bearingId ? sql`AND r.bearing_id = ${q.bearingId}` : sql``}
     GROUP BY 1 ORDER BY 1`.execute(db);
  const rows = r.rows.map((x) => ({
    ...x,
    yieldPercent: x.offered > 0 ? Math.round((x.assembled / x.offered) * 1000) / 10 : null,
  }));
  const sum = (k: 'matches' | 'innerOffered' | 'outerOffered' | 'offered' | 'assembled') =>
    rows.reduce((a, x) => a + Number(x[k]), 0);
  const offered = sum('offered');
  const assembled = sum('assembled');
  return {
    rows,
    totals: {
      matches: sum('matches'),
      innerOffered: sum('innerOffered'),
      outerOffered: sum('outerOffered'),
      offered,
      assembled,
      yieldPercent: offered > 0 ? Math.round((assembled / offered) * 1000) / 10 : null,
    },
  };
}

/**
 * The bearings 选配 can serve (an active BOM with an inner and an outer ring) with the measured
 * rings each side has on offer, most first; and the open cards of one bearing with what is matched.
 */
async function bearingOptions(db: Db) {
  const r = await sql<{ id: number; code: string; name: string; innerId: number; outerId: number }>`
    SELECT DISTINCT ON (b.id) b.id, b.code, b.name, i.id AS inner_id, o.id AS outer_id
      FROM material b
      JOIN bom ON bom.product_id = b.id AND bom.status = 'active'
      JOIN bom_line li ON li.bom_id = bom.id JOIN material i ON i.id = li.material_id AND i.part_type = 'inner'
      JOIN bom_line lo ON lo.bom_id = bom.id JOIN material o ON o.id = lo.material_id AND o.part_type = 'outer'
     WHERE b.part_type = 'bearing' AND b.status = '1'
     ORDER BY b.id, li.line_no, lo.line_no`.execute(db);
  const ids = [...new Set(r.rows.flatMap((x) => [Number(x.innerId), Number(x.outerId)]))];
  const rings = await ringSizesForMatching(db, ids);
  const count = new Map<number, number>();
  for (const x of rings) count.set(x.materialId, (count.get(x.materialId) ?? 0) + 1);
  return r.rows
    .map((x) => ({
      id: Number(x.id),
      code: x.code,
      name: x.name,
      innerRings: count.get(Number(x.innerId)) ?? 0,
      outerRings: count.get(Number(x.outerId)) ?? 0,
    }))
    .sort(
      (a, b) => Math.min(b.innerRings, b.outerRings) - Math.min(a.innerRings, a.outerRings) || a.id - b.id,
    );
}

async function bearingCards(db: Db, bearingId: number) {
  const r = await sql<any>`
    SELECT c.id, c.doc_no, c.quantity::float8 AS quantity, o.doc_no AS order_no,
           COALESCE((SELECT sum(m.assembled) FROM ring_match m WHERE m.flow_card_id = c.id), 0)::int AS matched
      FROM flow_card c JOIN production_order o ON o.id = c.production_order_id
     WHERE c.product_id = ${bearingId} AND c.status = 'open'
     ORDER BY c.id LIMIT 200`.execute(db);
  return r.rows;
}

/** The assembly 报工 on a bearing card that a matching can be recorded by (not cancelled). */
async function cardReports(db: Db, flowCardId: number) {
  const r = await sql<any>`
    SELECT w.id, w.doc_no, w.status, w.report_date, w.good_quantity::float8 AS good_quantity
      FROM work_report w
     WHERE w.flow_card_id = ${flowCardId} AND w.workshop_type = 'assembly'
     ORDER BY w.id DESC LIMIT 100`.execute(db);
  return r.rows;
}

export function ringMatchingRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/reports',
    permission: MATCHING_PERMISSION,
    query: z.strictObject({ flowCardId: zx.id }),
    handler: ({ query, app: { db } }) => cardReports(db, query.flowCardId),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/bearings',
    permission: MATCHING_PERMISSION,
    handler: ({ app: { db } }) => bearingOptions(db),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/cards',
    permission: MATCHING_PERMISSION,
    query: z.strictObject({ bearingId: zx.id }),
    handler: ({ query, app: { db } }) => bearingCards(db, query.bearingId),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/groups',
    permission: MATCHING_PERMISSION,
    query: groupsQuery,
    handler: ({ query, app: { db } }) => ringGroups(db, query.bearingId, query.groupWidthUm),
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/ring-matching/propose',
    permission: MATCHING_PERMISSION,
    body: proposeBody,
    async handler({ body, app: { db } }) {
      return proposalView(await computeProposal(db, body), body.clearanceGroup);
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/ring-matching/accept',
    permission: MATCHING_ACCEPT,
    body: acceptBody,
    handler: ({ body, user, app: { db } }) =>
      db.transaction().execute((trx) => acceptRingMatch(trx, user, body)),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/page',
    permission: MATCHING_PERMISSION,
    alsoAllowedBy: [MATCHING_YIELD],
    query: pageQuery,
    async handler({ query, app: { db } }) {
      const where = sql`WHERE true ${query.bearingId ? sql`AND r.bearing_id = ${query.bearingId}` : sql``}
        ${query.flowCardId ? sql`AND r.flow_card_id = ${query.flowCardId}` : sql``}`;
      const size = query.pageNum === 0 ? 500 : query.pageSize;
      const offset = query.pageNum === 0 ? 0 : (query.pageNum - 1) * size;
      const [list, total] = await Promise.all([
        sql<any>`
          SELECT r.id, r.clearance_group, r.group_width_um::float8 AS group_width_um, r.inner_offered, r.outer_offered,
                 r.assembled, r.created_at, b.code AS bearing_code, b.name AS bearing_name, c.doc_no AS card_no,
                 w.doc_no AS work_report_no, u.first_name AS created_by_name
            FROM ring_match r JOIN material b ON b.id = r.bearing_id
            LEFT JOIN flow_card c ON c.id = r.flow_card_id
            LEFT JOIN work_report w ON w.id = r.work_report_id
            LEFT JOIN app_user u ON u.id = r.created_by
           ${where} ORDER BY r.created_at DESC, r.id DESC LIMIT ${size} OFFSET ${offset}`.execute(db),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM ring_match r ${where}`.execute(db),
      ]);
      return { list: list.rows, total: total.rows[0].n, pageNum: query.pageNum, pageSize: size };
    },
  });

  // The 选配 an assembly 报工 records (its 报工 pages show them): each accepted match with its sets,
  // groups, ball grades and the ring lots taken.
  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/by-report/:id',
    permission: MATCHING_PERMISSION,
    alsoAllowedBy: [MATCHING_YIELD, 'production:reportRecord:list'],
    params: idParams,
    async handler({ params, app: { db } }) {
      const r = await sql<{ id: number }>`
        SELECT id FROM ring_match WHERE work_report_id = ${params.id} ORDER BY created_at, id`.execute(db);
      return Promise.all(r.rows.map((x) => matchInfo(db, Number(x.id))));
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/info/:id',
    permission: MATCHING_PERMISSION,
    alsoAllowedBy: [MATCHING_YIELD],
    params: idParams,
    handler: ({ params, app: { db } }) => matchInfo(db, params.id),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/yield',
    permission: MATCHING_YIELD,
    query: yieldQuery,
    handler: ({ query, app: { db } }) => yieldRows(db, query),
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/ring-matching/yield/export',
    permission: MATCHING_YIELD_EXPORT,
    query: yieldQuery,
    async handler({ query, user, app: { db, config } }) {
      const data = await yieldRows(db, query);
      const wb = new (await exceljs()).Workbook();
      const ws = wb.addWorksheet('选配合格率');
      ws.addRow([`选配合格率 ${query.from} 至 ${query.to}`]);
      ws.addRow(['月份', '选配次数', '内圈（件）', '外圈（件）', '可配套数', '配成套数', '选配合格率(%)']);
      ws.getRow(2).font = { bold: true };
      for (const r of [...data.rows, { month: '合计', ...data.totals }])
        ws.addRow(
          [r.month, r.matches, r.innerOffered, r.outerOffered, r.offered, r.assembled, r.yieldPercent].map(
            neutralise,
          ),
        );
      ws.columns.forEach((c) => {
        c.width = 14;
      });
      const { file, fileName } = newExportFile(config.exportDir, user.id, '选配合格率');
      await wb.xlsx.writeFile(file);
      return { fileName, rows: data.rows.length };
    },
  });
}
