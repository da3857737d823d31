import {
  angleRefusal,
  capability,
  characteristicLabel,
  chartDisplayIndices,
  chartKindFor,
  controlLimits,
  measurementSubgroupResource as def,
  dispersionPoints,
  histogramBins,
  histogramRange,
  MAX_SUBGROUP_SIZE,
  MAX_XBAR_R_SIZE,
  MEASURE_CHARACTERISTICS,
  normalCurve,
  SPC_ALARM_WINDOW,
  SPC_CHART_BUCKETS,
  SPC_CHART_MAX_POINTS,
  SPC_CONSTANTS,
  SPC_FAMILIES,
  SPC_MIN_SUBGROUPS_FOR_ALARM,
  type SpcFamily,
  STANDARD_CHARACTERISTIC,
  type SubgroupStat,
  seriesViolations,
  xbarSConstants,
} from '@ringmes/domain';
import Decimal from 'decimal.js';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';
import { notify } from '../../platform/messages.ts';
import { businessDay } from '../../platform/numbering.ts';
import type { ResourceHooks } from '../../platform/resource/crud.ts';
import { createInspectionTask, holdCard } from './inspection.ts';
import { productLimits } from './ring-standard.ts';
import { frozenLimits, seriesSetting, spcLimitRoutes } from './spc-limits.ts';

/**
 * 测量记录 and SPC: the subgroup statistics kept beside each subgroup, the out-of-control alarms
 * raised at entry and import (once per violation), the chart and capability figures aggregated
 * in SQL, and the flow card's measurements.
 */

const FAMILY_KEYS = Object.keys(SPC_FAMILIES) as [SpcFamily, ...SpcFamily[]];
const REPORT_PERMISSIONS = FAMILY_KEYS.map((f) => SPC_FAMILIES[f].permission);

/** Recomputes size, mean, range and Σ(x − x̄)² of subgroups from their values, exactly (numeric). */
export async function refreshSubgroupStats(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await sql`
    UPDATE measurement_subgroup s
       SET sample_size = a.n, mean = round(a.m, 6), range = a.r, ss_dev = round(a.ss, 10)
      FROM (SELECT measurement_subgroup_id AS subgroup_id, count(*)::int AS n, avg(value) AS m, max(value) - min(value) AS r,
                   sum(value * value) - sum(value) * sum(value) / count(*) AS ss
              FROM measurement_value WHERE measurement_subgroup_id = ANY(${sql.val(ids)}::bigint[])
             GROUP BY measurement_subgroup_id) a
     WHERE s.id = a.subgroup_id`.execute(db);
}

interface SeriesRow extends SubgroupStat {
  id: number;
}

/** Rule numbers as a message names them: 「规则1、规则5」. */
const ruleNames = (rules: number[]) => [...new Set(rules)].sort((a, b) => a - b).map((x) => `规则${x}`);

/** The most common subgroup size of a series: the limits are for that size. */
function modalSize(rows: readonly { n: number }[]): number {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.n, (counts.get(r.n) ?? 0) + 1);
  let best = 1;
  let most = -1;
  for (const [n, c] of counts) if (c > most || (c === most && n > best)) [best, most] = [n, c];
  return best;
}

/**
 * Evaluates the series of the given (new or changed) subgroups with the series' Nelson rules
 * against its frozen limits (the approved revision, Phase II) or, before any is approved, limits
 * from the latest subgroups of the series; records each new violation once (spc_violation, with
 * the revision) and sends one message per series to the workshop head and the series' responsible
 * inspector (the quality role when none is set). Viewing a chart never raises messages.
 */
export async function evaluateAlarms(db: Db, ids: number[], user?: AuthUser): Promise<number> {
  if (!ids.length) return 0;
  const series = await sql<{ productId: number; characteristic: string; equipmentId: number; k: number }>`
    SELECT product_id, characteristic, equipment_id, count(*)::int AS k FROM measurement_subgroup
     WHERE id = ANY(${sql.val(ids)}::bigint[]) GROUP BY 1, 2, 3`.execute(db);
  const fresh = new Set(ids.map(Number));
  let total = 0;
  for (const s of series.rows) {
    const r = await sql<SeriesRow>`
      SELECT id, sample_size AS n, mean::float8 AS mean, range::float8 AS range, ss_dev::float8 AS ss_dev FROM measurement_subgroup
       WHERE product_id = ${s.productId} AND characteristic = ${s.characteristic} AND equipment_id = ${s.equipmentId}
       ORDER BY measured_at DESC, id DESC LIMIT ${s.k + SPC_ALARM_WINDOW}`.execute(db);
    const rows = r.rows.reverse();
    const key = {
      productId: Number(s.productId),
      characteristic: s.characteristic,
      equipmentId: Number(s.equipmentId),
    };
    const [frozen, setting] = await Promise.all([frozenLimits(db, key), seriesSetting(db, key)]);
    let limits = frozen?.limits;
    if (!limits) {
      const n = modalSize(rows);
      const basis = rows.filter((x) => x.n === n);
      if (basis.length < SPC_MIN_SUBGROUPS_FOR_ALARM) continue;
      limits = controlLimits(basis, n);
    }
    const found = seriesViolations(rows, limits, setting.rules).filter((v) =>
      fresh.has(Number(rows[v.index].id)),
    );
    if (!found.length) continue;
    const inserted = await sql<{ subgroupId: number; rule: number }>`
      INSERT INTO spc_violation (subgroup_id, rule, chart, center, ucl, lcl, revision_id)
      SELECT u.id, u.rule, u.chart, ${limits.center}, ${limits.ucl}, ${limits.lcl}, ${frozen?.revision.id ?? null}
        FROM unnest(${sql.val(found.map((v) => rows[v.index].id))}::bigint[],
                    ${sql.val(found.map((v) => v.rule))}::smallint[],
                    ${sql.val(found.map((v) => v.chart))}::varchar[]) AS u(id, rule, chart)
      ON CONFLICT DO NOTHING RETURNING subgroup_id, rule`.execute(db);
    if (!inserted.rows.length) continue;
    const hit = [...new Set(inserted.rows.map((x) => Number(x.subgroupId)))];
    await sql`UPDATE measurement_subgroup SET out_of_control = true WHERE id = ANY(${sql.val(hit)}::bigint[])`.execute(
      db,
    );
    total += hit.length;
    const info = await sql<{
      productName: string;
      equipmentName: string;
      workshopId: number;
      managerId: number | null;
    }>`
      SELECT m.name AS product_name, e.name AS equipment_name, e.workshop_id, w.manager_id
        FROM material m, equipment e JOIN workshop w ON w.id = e.workshop_id
       WHERE m.id = ${s.productId} AND e.id = ${s.equipmentId}`.execute(db);
    const i = info.rows[0];
    const users = await sql<{ id: number; roleKey: string }>`
      SELECT DISTINCT u.id, r.role_key FROM app_user u JOIN user_role ur ON ur.user_id = u.id
        JOIN role r ON r.id = ur.role_id
       WHERE r.role_key IN ('quality', 'workshop_head') AND u.status = '1'`.execute(db);
    const quality = setting.inspectorId
      ? [setting.inspectorId]
      : users.rows.filter((u) => u.roleKey === 'quality').map((u) => Number(u.id));
    const heads = i?.managerId
      ? [Number(i.managerId)]
      : users.rows.filter((u) => u.roleKey === 'workshop_head').map((u) => Number(u.id));
    const family = MEASURE_CHARACTERISTICS.find((c) => c.value === s.characteristic)?.family ?? 'neiwaijing';
    const rules = ruleNames(inserted.rows.map((x) => Number(x.rule)));
    const held = await holdMeasuredCards(
      db,
      hit,
      `SPC 失控：${i?.equipmentName ?? '机台'} ${characteristicLabel(s.characteristic)}（${rules.join('、')}）`,
      user,
    );
    await notify(db, [...heads, ...quality], {
      kind: 'spc',
      title: `SPC 失控：${i?.equipmentName ?? '机台'} ${characteristicLabel(s.characteristic)}（${hit.length} 个失控点）`,
      content:
        `${i?.productName ?? ''} 在 ${i?.equipmentName ?? ''} 上的${characteristicLabel(s.characteristic)}出现失控点（${rules.join('、')}${frozen ? `，按冻结控制限第 ${frozen.revision.version} 版` : ''}），请检查机台并处置相关流转卡。` +
        (held.length ? `已暂扣流转卡 ${held.join('、')}，过程检验合格后放行。` : ''),
      link: `${SPC_FAMILIES[family].route}?characteristic=${s.characteristic}&equipmentId=${s.equipmentId}&productId=${s.productId}`,
    });
  }
  return total;
}

/**
 * SPC 失控 on subgroups measured on flow cards: each open card gets the same hold a 不合格
 * inspection sets (flow_card.held, with the reason), and a 过程检验 task (来源 SPC 失控) unless one
 * is open for it. The hold is released the one way every hold is: that card's inspection passes
 * (合格 or 让步接收). Answers the held cards' numbers.
 */
async function holdMeasuredCards(db: Db, subgroupIds: number[], reason: string, user?: AuthUser) {
  const cards = await sql<{
    id: number;
    docNo: string;
    productId: number;
    heatNo: string | null;
    quantity: string;
  }>`
    SELECT DISTINCT c.id, c.doc_no, c.product_id, c.heat_no, c.quantity::text AS quantity
      FROM measurement_subgroup s JOIN flow_card c ON c.id = s.flow_card_id
     WHERE s.id = ANY(${sql.val(subgroupIds)}::bigint[]) AND c.status = 'open' ORDER BY c.id`.execute(db);
  for (const c of cards.rows) {
    await holdCard(db, Number(c.id), reason);
    if (!user) continue;
    const open = await sql`
      SELECT 1 FROM inspection_task WHERE flow_card_id = ${c.id} AND status IN ('pending', 'inspecting', 'failed')`.execute(
      db,
    );
    if (open.rows.length) continue;
    const step = await sql<{ processId: number | null }>`
      SELECT s.process_id FROM flow_card_step s JOIN flow_card c ON c.id = s.flow_card_id AND s.seq = c.current_seq
       WHERE c.id = ${c.id}`.execute(db);
    await createInspectionTask(db, user, {
      category: 'process',
      checkKind: 'patrol',
      productId: Number(c.productId),
      processId: step.rows[0]?.processId ? Number(step.rows[0].processId) : null,
      lotQuantity: c.quantity,
      flowCardId: Number(c.id),
      batchNo: c.heatNo,
      sourceType: 'spc',
      sourceNo: c.docNo,
      planDate: businessDay(),
      remark: reason.slice(0, 500),
    });
  }
  return cards.rows.map((c) => c.docNo);
}

/**
 * The specification limits (mm) the ring standard gives a characteristic of a product: nominal
 * size plus Δdmp/ΔDmp. Null when the characteristic is not one of the standard's, the product
 * lacks its class or sizes, or the standard's table has no value for it.
 */
export async function standardSpec(db: Db, productId: number, characteristic: string) {
  const which = STANDARD_CHARACTERISTIC[characteristic];
  if (!which) return null;
  const limits = await productLimits(db, productId).catch(() => null);
  const l = limits?.limits.find((x) => x.code === which.code);
  if (!l?.available || l.nominal == null || l.upper == null || l.lower == null) return null;
  const mm = (um: number) => new Decimal(l.nominal as number).plus(new Decimal(um).div(1000)).toFixed(4);
  return {
    lsl: mm(l.lower),
    usl: mm(l.upper),
    sourceText: `${l.symbol} ${l.sourceText}`,
    /** The tolerance the limits come from: nominal size (mm) and deviations (μm). */
    symbol: l.symbol,
    nominal: String(l.nominal),
    lowerUm: l.lower,
    upperUm: l.upper,
  };
}

const sameLimit = (a: unknown, b: string) => a != null && a !== '' && new Decimal(String(a)).eq(b);

/**
 * A subgroup's 流转卡 (optional) is a card of the measured product: its genealogy lists the
 * measurement, so a ring's values never land on the bearing's card or another ring's (400 on
 * `flowCardId`).
 */
export async function assertCardOfProduct(db: Db, flowCardId: unknown, productId: unknown) {
  if (flowCardId == null || flowCardId === '') return;
  const r = await sql<{ docNo: string; productId: number; productName: string }>`
    SELECT c.doc_no, c.product_id, m.name AS product_name
      FROM flow_card c JOIN material m ON m.id = c.product_id WHERE c.id = ${Number(flowCardId)}`.execute(db);
  const card = r.rows[0];
  if (!card) throw fieldError('flowCardId', '流转卡不存在或已被删除');
  if (Number(card.productId) !== Number(productId)) {
    throw fieldError(
      'flowCardId',
      `流转卡 ${card.docNo} 是「${card.productName}」的批次，不是所测产品的；请选择该产品的流转卡`,
    );
  }
}

/**
 * 接触角 / 挡边角度 only for a product that has that angle (a deep-groove ring has neither): 400 on
 * `characteristic` with the product's type read from its designation (bearing-angles.ts).
 */
export async function assertAngleOfProduct(db: Db, characteristic: unknown, productId: unknown) {
  if (characteristic !== 'contact-angle' && characteristic !== 'rib-angle') return;
  const r = await sql<{ name: string; code: string; spec: string | null }>`
    SELECT name, code, spec FROM material WHERE id = ${Number(productId)}`.execute(db);
  const product = r.rows[0];
  if (!product) return;
  const why = angleRefusal(characteristic, product);
  if (why) throw fieldError('characteristic', why);
}

/**
 * A subgroup entered as reading sets keeps them through the plain edit form: each ring's value is
 * its set's d_mp (or width, groove reading), so the values, product and characteristic cannot be
 * changed there (400); the header (machine, operator, time, card, limits, remark) can, and the
 * stored values stay as they are — rewriting them would drop the sets hanging on them.
 */
async function keepReadingSets(db: Db, data: Record<string, any>, before?: Record<string, any>) {
  if (!before) return {};
  const r = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ring_reading_set WHERE measurement_subgroup_id = ${Number(before.id)}`.execute(
    db,
  );
  if (!Number(r.rows[0]?.n)) return {};
  const was: { value: unknown }[] = before.values ?? [];
  const now: { value: unknown }[] = data.values ?? was;
  const same =
    was.length === now.length && was.every((v, i) => new Decimal(String(v.value)).eq(String(now[i].value)));
  if (!same)
    throw fieldError(
      'values',
      '该子组按读数组录入，每件的值由其读数组计算（d_mp、宽度或沟道读数），不能在此修改；如读数有误，请删除该子组后按读数组重新录入',
    );
  if (Number(data.productId) !== Number(before.productId) || data.characteristic !== before.characteristic)
    throw fieldError('productId', '该子组按读数组录入，读数按原产品和测量特性计算，不能改为其他产品或特性');
  return { values: undefined };
}

export const measurementHooks: ResourceHooks = {
  async validate({ db }, data) {
    if (data.lsl != null && data.usl != null && Number(data.lsl) >= Number(data.usl))
      throw fieldError('usl', '上规格限必须大于下规格限');
    await assertCardOfProduct(db, data.flowCardId, data.productId);
    await assertAngleOfProduct(db, data.characteristic, data.productId);
  },
  async derive(ctx, data, before) {
    return { ...(await keepReadingSets(ctx.db, data, before)), ...(await deriveSpec(ctx.db, data, before)) };
  },
  async afterSave({ db, user }, id) {
    await refreshSubgroupStats(db, [id]);
    await evaluateAlarms(db, [id], user);
  },
};

/**
 * Limits of a standard characteristic come from the ring standard; typed different limits are an
 * override that needs a reason.
 */
async function deriveSpec(db: Db, data: Record<string, any>, before?: Record<string, any>) {
  const pick = (k: string) => (k in data ? data[k] : before?.[k]);
  const typed = pick('lsl') != null || pick('usl') != null;
  const std = await standardSpec(db, Number(pick('productId')), String(pick('characteristic')));
  if (!std) return { specSource: typed ? 'typed' : null };
  if (!typed) return { lsl: std.lsl, usl: std.usl, specSource: 'standard', specReason: null };
  if (sameLimit(pick('lsl'), std.lsl) && sameLimit(pick('usl'), std.usl))
    return { specSource: 'standard', specReason: null };
  if (!String(pick('specReason') ?? '').trim())
    throw fieldError(
      'specReason',
      `规格限与标准不同（${std.sourceText}：${std.lsl} ~ ${std.usl}），请填写覆盖理由`,
    );
  return { specSource: 'override' };
}

// ------------------------------------------------------------------ chart and capability

const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');
const optionalDecimal = z.coerce
  .number({ error: '必须是数字' })
  .refine(Number.isFinite, '必须是数字')
  .optional();

export const chartQuery = z
  .strictObject({
    family: z.enum(FAMILY_KEYS, { error: '报表类型不正确' }),
    characteristic: z.enum(MEASURE_CHARACTERISTICS.map((c) => c.value) as [string, ...string[]], {
      error: '测量特性不正确',
    }),
    equipmentId: zx.id,
    productId: zx.id.optional(),
    from: dateText,
    to: dateText,
    lsl: optionalDecimal,
    usl: optionalDecimal,
    bins: z.coerce.number().int().min(5, '分组数不能少于 5').max(60, '分组数不能多于 60').optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
    const c = MEASURE_CHARACTERISTICS.find((x) => x.value === q.characteristic);
    if (c && c.family !== q.family)
      ctx.addIssue({ code: 'custom', path: ['characteristic'], message: '该测量特性不属于本报表' });
    if (q.lsl !== undefined && q.usl !== undefined && q.lsl >= q.usl)
      ctx.addIssue({ code: 'custom', path: ['usl'], message: '上规格限必须大于下规格限' });
  });

export type ChartQuery = z.infer<typeof chartQuery>;

/** The WHERE of a series over a period ([from, to] in days of Asia/Shanghai business time). */
function seriesWhere(q: Omit<ChartQuery, 'family'>) {
  return sql`s.characteristic = ${q.characteristic} AND s.equipment_id = ${q.equipmentId}
    ${q.productId ? sql`AND s.product_id = ${q.productId}` : sql``}
    AND s.measured_at >= (${q.from}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'
    AND s.measured_at < (${q.to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'
    AND s.sample_size IS NOT NULL`;
}

/**
 * Capability of a series from subgroup sums in SQL: count, grand mean, pooled Σ(x − x̄)² (overall
 * σ for Pp/Ppk) and R̄ of the modal subgroup size (within σ = R̄/d2 for Cp/Cpk; MR̄/d2 for
 * individuals). Never reads the raw values.
 */
export async function seriesCapability(db: Db, q: Omit<ChartQuery, 'family'>) {
  // One scan of the series' subgroups, grouped by subgroup size: the sums per size combine below.
  const [groups, spec] = await Promise.all([
    sql<{
      n: number;
      k: number;
      sumN: string;
      sumMean: string;
      betweenSs: string;
      ss: string;
      rBar: number;
      sBar: number;
    }>`
      SELECT s.sample_size AS n, count(*)::int AS k, sum(s.sample_size)::text AS sum_n,
             sum(s.sample_size * s.mean)::text AS sum_mean, (sum(s.sample_size * s.mean * s.mean)
               - sum(s.sample_size * s.mean) * sum(s.sample_size * s.mean) / sum(s.sample_size))::text AS between_ss,
             sum(s.ss_dev)::text AS ss, avg(s.range)::float8 AS r_bar,
             -- s̄ only where an X̄–S chart uses it (a numeric square root per subgroup is dear)
             avg(CASE WHEN s.sample_size > ${sql.lit(MAX_XBAR_R_SIZE)} THEN sqrt(s.ss_dev / (s.sample_size - 1)) END)::float8 AS s_bar
        FROM measurement_subgroup s WHERE ${seriesWhere(q)} GROUP BY s.sample_size`.execute(db),
    q.lsl !== undefined && q.usl !== undefined
      ? Promise.resolve({ rows: [] as { lsl: string | null; usl: string | null }[] })
      : sql<{ lsl: string | null; usl: string | null }>`
          SELECT s.lsl::text AS lsl, s.usl::text AS usl FROM measurement_subgroup s
           WHERE ${seriesWhere(q)} AND (s.lsl IS NOT NULL OR s.usl IS NOT NULL)
           ORDER BY s.measured_at DESC, s.id DESC LIMIT 1`.execute(db),
  ]);
  const rows = groups.rows;
  if (!rows.length) return null;
  const modal = [...rows].sort((a, b) => b.k - a.k || b.n - a.n)[0];
  const n = Number(modal.n);
  const count = rows.reduce((s, r) => s + Number(r.sumN), 0);
  const subgroups = rows.reduce((s, r) => s + Number(r.k), 0);
  // Pooled Σ(x − x̿)² = Σ SSᵢ (within subgroups) + Σ nᵢ(x̄ᵢ − x̄_size)² (between, exact in SQL per
  // subgroup size) + Σ N_size(x̄_size − x̿)².
  const sumX = rows.reduce((s, r) => s + Number(r.sumMean), 0);
  const mean = sumX / count;
  let ss = rows.reduce((s, r) => s + Number(r.ss), 0);
  ss += rows.reduce((s, r) => s + Number(r.betweenSs), 0);
  ss += rows.reduce((s, r) => s + Number(r.sumN) * (Number(r.sumMean) / Number(r.sumN) - mean) ** 2, 0);
  let mrBar = 0;
  if (n <= 1) {
    const mr = await sql<{ mrBar: number | null }>`
      SELECT avg(mr)::float8 AS mr_bar FROM (
        SELECT abs(s.mean - lag(s.mean) OVER (ORDER BY s.measured_at, s.id)) AS mr
          FROM measurement_subgroup s WHERE ${seriesWhere(q)} AND s.sample_size = 1) x`.execute(db);
    mrBar = mr.rows[0]?.mrBar ?? 0;
  }
  const kind = chartKindFor(n);
  const sigmaWithin =
    kind === 'i-mr'
      ? mrBar / SPC_CONSTANTS[2].d2
      : kind === 'xbar-r'
        ? (modal.rBar ?? 0) / SPC_CONSTANTS[n].d2
        : (modal.sBar ?? 0) / xbarSConstants(n).c4;
  const sigmaOverall = count > 1 ? Math.sqrt(Math.max(0, ss) / (count - 1)) : 0;
  const stored = spec.rows[0];
  const lsl = q.lsl ?? (stored?.lsl != null ? Number(stored.lsl) : null);
  const usl = q.usl ?? (stored?.usl != null ? Number(stored.usl) : null);
  return {
    count,
    subgroups,
    n,
    mean,
    sigmaWithin,
    sigmaOverall,
    lsl,
    usl,
    capability: capability({ mean, sigmaWithin, sigmaOverall, lsl, usl }),
  };
}

/** Distinct readings a histogram bins from their tally; more are counted value by value. */
export const SPC_TALLY_MAX = 20_000;

/** Subgroups one chart covers at most (a period longer than that is refused: 缩短期间). */
export const SPC_CHART_MAX_SUBGROUPS = 200_000;

/**
 * Everything a statistics report draws, aggregated on the server. With a product chosen and an
 * approved revision for the series, the points are plotted against that revision's frozen limits
 * (Phase II) whatever the period shown; else the limits come from the period's own subgroups (a
 * Phase I look). The rules run over every subgroup; a series of more than 50,000 subgroups is
 * drawn in buckets (`aggregated`: each bucket's extremes and every flagged point, ≤ 30,000 points
 * plus the flagged), one of more than 200,000 is refused.
 */
export async function spcChart(db: Db, q: ChartQuery, opts: { tallyMax?: number } = {}) {
  const tallyMax = opts.tallyMax ?? SPC_TALLY_MAX;
  const key = q.productId
    ? { productId: q.productId, characteristic: q.characteristic, equipmentId: q.equipmentId }
    : null;
  // The capability sums and the points are two index-only reads of the series (0079's covering
  // index, already in time order); they run side by side with the revision and the rules.
  // The histogram's values are tallied beside them (each distinct reading with its count: a gauge
  // reads to 0.1 or 0.01 µm, so 500,000 readings are a few thousand rows) — the bins need the
  // capability figures, the tally does not, and binning the tally gives the same counts.
  const tallying = sql<{ v: string; c: number }>`
    SELECT v.value::text AS v, count(*)::int AS c
      FROM measurement_subgroup s JOIN measurement_value v ON v.measurement_subgroup_id = s.id
     WHERE ${seriesWhere(q)} GROUP BY v.value LIMIT ${tallyMax + 1}`.execute(db);
  tallying.catch(() => {}); // awaited once the bins are known
  const [cap, frozen, setting, rows] = await Promise.all([
    seriesCapability(db, q),
    key ? frozenLimits(db, key) : null,
    key ? seriesSetting(db, key) : null,
    // One row of arrays in time order: 20,000 points without 20,000 row objects on the way.
    sql<{
      ids: number[] | null;
      t: number[] | null;
      n: number[] | null;
      // numeric as exact text: Number() of it is the double PostgreSQL's ::float8 gives, without
      // that conversion (through text) and the float's output for 300,000 values in the server.
      x: string[] | null;
      r: string[] | null;
      ss: string[] | null;
    }>`
      SELECT array_agg(id) AS ids, array_agg(t) AS t, array_agg(n) AS n, array_agg(mean) AS x, array_agg(range) AS r,
             array_agg(ss) AS ss
        -- Minutes since 1970 as bigint: an int ends in the year 6053 (a time stored before the date window was bounded).
        FROM (SELECT s.id, (extract(epoch FROM s.measured_at) / 60)::bigint AS t, s.sample_size AS n,
                     s.mean, s.range, s.ss_dev AS ss
                FROM measurement_subgroup s WHERE ${seriesWhere(q)}
               ORDER BY s.measured_at, s.id LIMIT ${SPC_CHART_MAX_SUBGROUPS + 1}) x`.execute(db),
  ]);
  const characteristic = MEASURE_CHARACTERISTICS.find((c) => c.value === q.characteristic);
  if (!cap) return { empty: true as const, unit: characteristic?.unit ?? '' };
  // The histogram's bins follow from the capability figures.
  const range = histogramRange({
    min: cap.mean - 4 * (cap.sigmaOverall || 1e-6),
    max: cap.mean + 4 * (cap.sigmaOverall || 1e-6),
    lsl: cap.lsl,
    usl: cap.usl,
    bins: q.bins ?? 20,
  });
  const a = rows.rows[0];
  const ids = (a?.ids ?? []).map(Number);
  if (ids.length > SPC_CHART_MAX_SUBGROUPS)
    throw badRequest(
      `所选期间的子组超过 ${SPC_CHART_MAX_SUBGROUPS.toLocaleString('en')} 组，一张控制图画不下，请缩短期间`,
    );
  const series = ids.map((id, i) => ({
    id,
    t: Number(a.t?.[i]),
    n: Number(a.n?.[i]),
    mean: Number(a.x?.[i]),
    range: Number(a.r?.[i]),
    ssDev: Number(a.ss?.[i] ?? 0),
  }));
  // The histogram's bins, counted in SQL while the rules run over the series here: from the tally
  // (a handful of rows) when it was small enough, else over every value.
  const counting = (async () => {
    const tally = (await tallying).rows;
    if (tally.length <= tallyMax)
      return sql<{ b: number; c: number }>`
        SELECT LEAST(GREATEST(width_bucket(u.v::float8, ${range.lo}::float8, ${range.hi}::float8, ${range.bins}::int), 1), ${range.bins}::int) AS b,
               sum(u.c)::int AS c
          FROM unnest(${sql.val(tally.map((x) => x.v))}::numeric[], ${sql.val(tally.map((x) => Number(x.c)))}::int[]) AS u(v, c)
         GROUP BY 1`.execute(db);
    return sql<{ b: number; c: number }>`
      SELECT LEAST(GREATEST(width_bucket(v.value::float8, ${range.lo}::float8, ${range.hi}::float8, ${range.bins}::int), 1), ${range.bins}::int) AS b,
             count(*)::int AS c
        FROM measurement_subgroup s JOIN measurement_value v ON v.measurement_subgroup_id = s.id
       WHERE ${seriesWhere(q)} GROUP BY 1`.execute(db);
  })();
  counting.catch(() => {}); // awaited below; a failure before that must not go unhandled
  const basis = series.filter((x) => x.n === cap.n);
  const limits =
    frozen?.limits ??
    ((cap.n <= 1 ? basis.length >= 2 : basis.length >= 1)
      ? controlLimits(cap.n <= 1 ? series : basis, cap.n)
      : null);
  const kind = limits?.kind ?? chartKindFor(cap.n);
  const rules = setting?.rules;
  const ranges = dispersionPoints(series, kind);
  const found = limits ? seriesViolations(series, limits, rules) : [];
  // A long series: the points drawn are each bucket's extremes and every flagged one; a violation
  // points at its place among the drawn points.
  const shown =
    series.length > SPC_CHART_MAX_POINTS
      ? chartDisplayIndices(
          series.map((x) => x.mean),
          ranges,
          new Set(found.map((v) => v.index)),
        )
      : null;
  const place = shown ? new Map(shown.map((i, k) => [i, k])) : null;
  const violations = found.map((v) => ({
    ...v,
    index: place ? (place.get(v.index) as number) : v.index,
    subgroupId: Number(series[v.index].id),
    measuredAt: new Date(series[v.index].t * 60_000).toISOString(),
    value: v.chart === 'x' ? series[v.index].mean : ranges[v.index],
  }));
  const drawn = shown ? shown.map((i) => series[i]) : series;
  const counts = await counting;
  const binCounts = new Array<number>(range.bins).fill(0);
  for (const x of counts.rows) binCounts[Number(x.b) - 1] += Number(x.c);
  const fit = { mean: cap.mean, sigma: cap.sigmaOverall };
  return {
    empty: false as const,
    unit: characteristic?.unit ?? '',
    ...cap,
    kind,
    limits,
    /** II: the series' frozen limits; I: limits from the period shown. */
    phase: frozen ? ('II' as const) : ('I' as const),
    revision: frozen?.revision ?? null,
    rules: rules ?? null,
    points: {
      id: drawn.map((x) => Number(x.id)),
      t: drawn.map((x) => x.t),
      x: drawn.map((x) => x.mean),
      r: shown ? shown.map((i) => ranges[i]) : ranges,
    },
    /** A series drawn in buckets: its subgroups, the points drawn and the bucket length. */
    aggregated: shown
      ? {
          subgroups: series.length,
          shown: shown.length,
          bucket: Math.ceil(series.length / SPC_CHART_BUCKETS),
        }
      : null,
    violations,
    histogram: { bins: histogramBins(range, binCounts, fit), curve: normalCurve(fit, range, cap.count) },
  };
}

function assertFamily(user: Parameters<typeof can>[0], family: SpcFamily) {
  if (!can(user, SPC_FAMILIES[family].permission) && !can(user, `${def.permission}:list`)) throw forbidden();
}

export function measurementRoutes(app: App) {
  // Phase I / Phase II control limits and the series' rules (spc-limits.ts).
  spcLimitRoutes(app);

  route(app, {
    method: 'GET',
    url: '/api/v1/spc/chart',
    permission: REPORT_PERMISSIONS[0] as `${string}:${string}:${string}`,
    alsoAllowedBy: [
      ...REPORT_PERMISSIONS.slice(1),
      `${def.permission}:list`,
    ] as `${string}:${string}:${string}`[],
    query: chartQuery,
    async handler({ query, user, app: { db } }) {
      assertFamily(user, query.family);
      return spcChart(db, query);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/spc/capability',
    permission: REPORT_PERMISSIONS[0] as `${string}:${string}:${string}`,
    alsoAllowedBy: [
      ...REPORT_PERMISSIONS.slice(1),
      `${def.permission}:list`,
    ] as `${string}:${string}:${string}`[],
    query: chartQuery,
    async handler({ query, user, app: { db } }) {
      assertFamily(user, query.family);
      return (await seriesCapability(db, query)) ?? { count: 0 };
    },
  });

  // The limits the ring standard gives a product's characteristic, before anything is saved: the
  // entry grid shows them and marks values outside as they are typed (null: none, type them).
  route(app, {
    method: 'GET',
    url: '/api/v1/measurement-subgroup/spec',
    permission: 'measure:outsideDiameter:add',
    alsoAllowedBy: ['measure:outsideDiameter:import'],
    query: z.strictObject({
      productId: zx.id,
      characteristic: z.enum(MEASURE_CHARACTERISTICS.map((c) => c.value) as [string, ...string[]], {
        error: '测量特性不正确',
      }),
    }),
    async handler({ query, app: { db } }) {
      const product = await sql`SELECT id FROM material WHERE id = ${query.productId}`.execute(db);
      if (!product.rows.length) throw notFound('产品不存在或已被删除');
      return standardSpec(db, query.productId, query.characteristic);
    },
  });

  // The series (characteristic of the family, machine, product) whose latest 失控 alarm is the most
  // recent: the 统计报表 page opens on it. null when the family has no alarm. `measuredAt` is the
  // timestamp as every answer writes it (business time, YYYY-MM-DD HH:mm:ss): to_char's `OF` wrote
  // "+08", an offset no browser parses, and the page opened on 「Invalid Date」 and a 400.
  route(app, {
    method: 'GET',
    url: '/api/v1/spc/latest-alarm',
    permission: REPORT_PERMISSIONS[0] as `${string}:${string}:${string}`,
    alsoAllowedBy: [
      ...REPORT_PERMISSIONS.slice(1),
      `${def.permission}:list`,
    ] as `${string}:${string}:${string}`[],
    query: z.strictObject({ family: z.enum(FAMILY_KEYS, { error: '报表类型不正确' }) }),
    async handler({ query, user, app: { db } }) {
      assertFamily(user, query.family);
      const characteristics = MEASURE_CHARACTERISTICS.filter((c) => c.family === query.family).map(
        (c) => c.value,
      );
      const r = await sql<Record<string, unknown>>`
        SELECT s.characteristic, s.equipment_id, s.product_id, s.measured_at
          FROM measurement_subgroup s
         WHERE s.out_of_control AND s.characteristic = ANY(${sql.val(characteristics)}::text[])
         ORDER BY s.measured_at DESC, s.id DESC LIMIT 1`.execute(db);
      return r.rows[0] ?? null;
    },
  });

  // The measurements of one flow card (its 测量记录 section): genealogy reaches the measured values.
  route(app, {
    method: 'GET',
    url: '/api/v1/flow-card/measurements/:id',
    permission: 'production:order:list',
    alsoAllowedBy: ['measure:outsideDiameter:list'],
    params: idParams,
    async handler({ params, app: { db } }) {
      const card = await sql`SELECT id FROM flow_card WHERE id = ${params.id}`.execute(db);
      if (!card.rows.length) throw notFound('流转卡不存在或已被删除');
      const r = await sql<Record<string, any>>`
        SELECT s.id, s.characteristic, s.measured_at, s.sample_size, s.mean::text AS mean, s.range::text AS range,
               s.lsl::text AS lsl, s.usl::text AS usl, s.out_of_control, e.name AS equipment_name,
               u.first_name AS operator_name,
               (SELECT string_agg(v.value::text, ' / ' ORDER BY v.line_no) FROM measurement_value v
                 WHERE v.measurement_subgroup_id = s.id) AS "values"
          FROM measurement_subgroup s JOIN equipment e ON e.id = s.equipment_id
          LEFT JOIN app_user u ON u.id = s.operator_id
         WHERE s.flow_card_id = ${params.id} ORDER BY s.measured_at DESC, s.id DESC LIMIT 500`.execute(db);
      return r.rows.map((x) => ({ ...x, characteristicName: characteristicLabel(x.characteristic) }));
    },
  });
}

export { MAX_SUBGROUP_SIZE };
