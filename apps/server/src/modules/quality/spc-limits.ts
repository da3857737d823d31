import {
  type ChartKind,
  type ControlLimits,
  chartKindFor,
  controlLimits,
  DEFAULT_NELSON_RULES,
  dispersionPoints,
  isNelsonRule,
  MEASURE_CHARACTERISTICS,
  type NelsonRule,
  SPC_FAMILIES,
  SPC_MIN_SUBGROUPS_FOR_ALARM,
  type SpcFamily,
  seriesViolations,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { z } from 'zod';
import { type AuthUser, can } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams, zx } from '../../platform/http/validation.ts';

/**
 * Phase I / Phase II control limits (issue 38 §2). A series — product × characteristic × machine —
 * gets limits from a baseline: its subgroups of a period, less the points removed for assignable
 * causes (each with its reason). The revision is drafted, then approved: the approved revision is
 * frozen, and every chart and alarm of the series plots against it whatever period is shown
 * (Phase II). A newer approved revision supersedes it; the old ones stay as history.
 */

export interface SeriesKey {
  productId: number;
  characteristic: string;
  equipmentId: number;
}

export interface FrozenLimits {
  revision: {
    id: number;
    version: number;
    chartKind: ChartKind;
    subgroupSize: number;
    baselineFrom: string;
    baselineTo: string;
    approvedAt: string;
    approvedByName: string | null;
  };
  limits: ControlLimits;
}

/** The Phase II limits of a series: its approved revision, or null (limits come from the data shown). */
export async function frozenLimits(db: Db, key: SeriesKey): Promise<FrozenLimits | null> {
  const r = await sql<Record<string, any>>`
    SELECT r.id, r.version, r.chart_kind, r.subgroup_size, r.baseline_from::text AS baseline_from,
           r.baseline_to::text AS baseline_to, r.approved_at, u.first_name AS approved_by_name,
           r.center, r.ucl, r.lcl, r.r_center, r.r_ucl, r.r_lcl, r.sigma_within
      FROM spc_limit_revision r LEFT JOIN app_user u ON u.id = r.approved_by
     WHERE r.product_id = ${key.productId} AND r.characteristic = ${key.characteristic}
       AND r.equipment_id = ${key.equipmentId} AND r.status = 'approved'`.execute(db);
  const x = r.rows[0];
  if (!x) return null;
  return {
    revision: {
      id: Number(x.id),
      version: Number(x.version),
      chartKind: x.chartKind,
      subgroupSize: Number(x.subgroupSize),
      baselineFrom: x.baselineFrom,
      baselineTo: x.baselineTo,
      approvedAt: x.approvedAt,
      approvedByName: x.approvedByName ?? null,
    },
    limits: {
      kind: x.chartKind,
      n: Number(x.subgroupSize),
      center: Number(x.center),
      ucl: Number(x.ucl),
      lcl: Number(x.lcl),
      rCenter: Number(x.rCenter),
      rUcl: Number(x.rUcl),
      rLcl: Number(x.rLcl),
      sigmaWithin: Number(x.sigmaWithin),
    },
  };
}

/** The Nelson rules a series checks and the inspector its alarms go to. */
export async function seriesSetting(
  db: Db,
  key: SeriesKey,
): Promise<{ rules: NelsonRule[]; inspectorId: number | null; inspectorName: string | null }> {
  const r = await sql<{ rules: number[]; inspectorId: number | null; inspectorName: string | null }>`
    SELECT s.rules, s.inspector_id, u.first_name AS inspector_name
      FROM spc_series_setting s LEFT JOIN app_user u ON u.id = s.inspector_id
     WHERE s.product_id = ${key.productId} AND s.characteristic = ${key.characteristic}
       AND s.equipment_id = ${key.equipmentId}`.execute(db);
  const x = r.rows[0];
  if (!x) return { rules: [...DEFAULT_NELSON_RULES], inspectorId: null, inspectorName: null };
  return {
    rules: (x.rules ?? []).map(Number).filter(isNelsonRule),
    inspectorId: x.inspectorId == null ? null : Number(x.inspectorId),
    inspectorName: x.inspectorName ?? null,
  };
}

const characteristicEnum = z.enum(MEASURE_CHARACTERISTICS.map((c) => c.value) as [string, ...string[]], {
  error: '测量特性不正确',
});
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD');

const seriesKey = { productId: zx.id, characteristic: characteristicEnum, equipmentId: zx.id };

export const baselineBody = z
  .strictObject({
    ...seriesKey,
    from: dateText,
    to: dateText,
    exclusions: z
      .array(
        z.strictObject({
          subgroupId: zx.id,
          reason: z
            .string({ error: '请填写剔除原因' })
            .trim()
            .min(1, '请填写剔除原因（可查明的异常原因）')
            .max(200),
        }),
      )
      .max(1000, '剔除点过多')
      .default([]),
    remark: z.string().trim().max(500).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: '结束日期不能早于开始日期' });
  });
type BaselineBody = z.infer<typeof baselineBody>;

const familyOf = (characteristic: string): SpcFamily =>
  MEASURE_CHARACTERISTICS.find((c) => c.value === characteristic)?.family ?? 'neiwaijing';
/** 建立控制限 / 批准控制限 on the family's report page: `report:<page>:limit` / `:limitApprove`. */
const familyPermission = (family: SpcFamily, action: 'query' | 'limit' | 'limitApprove') =>
  SPC_FAMILIES[family].permission.replace(/:query$/, `:${action}`) as `${string}:${string}:${string}`;
const FAMILIES = Object.keys(SPC_FAMILIES) as SpcFamily[];
const allOf = (action: 'query' | 'limit' | 'limitApprove') =>
  FAMILIES.map((f) => familyPermission(f, action));

function assertMay(user: AuthUser, characteristic: string, action: 'query' | 'limit' | 'limitApprove') {
  if (!can(user, familyPermission(familyOf(characteristic), action))) throw forbidden();
}

/**
 * Phase I: the baseline's subgroups, the points removed, and limits from the rest (the modal
 * subgroup size's subgroups), with the series' rules checked on every baseline point under them.
 */
export async function baselineStudy(db: Db, q: BaselineBody) {
  const r = await sql<{ id: number; t: number; n: number; mean: number; range: number; ssDev: number }>`
    SELECT s.id, (extract(epoch FROM s.measured_at) / 60)::bigint AS t, s.sample_size AS n, s.mean::float8 AS mean,
           s.range::float8 AS range, s.ss_dev::float8 AS ss_dev
      FROM measurement_subgroup s
     WHERE s.product_id = ${q.productId} AND s.characteristic = ${q.characteristic} AND s.equipment_id = ${q.equipmentId}
       AND s.measured_at >= (${q.from}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'
       AND s.measured_at < (${q.to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'
       AND s.sample_size IS NOT NULL
     ORDER BY s.measured_at, s.id LIMIT 5001`.execute(db);
  if (r.rows.length > 5000) throw badRequest('基准期的子组超过 5,000 组，请缩短基准期');
  const series = r.rows.map((x) => ({
    id: Number(x.id),
    t: Number(x.t),
    n: Number(x.n),
    mean: Number(x.mean),
    range: Number(x.range),
    ssDev: Number(x.ssDev ?? 0),
  }));
  const inBaseline = new Set(series.map((x) => x.id));
  const excluded = new Map<number, string>();
  for (const [i, e] of q.exclusions.entries()) {
    if (!inBaseline.has(e.subgroupId))
      throw fieldError(`exclusions[${i}].subgroupId`, `剔除的子组 ${e.subgroupId} 不在所选基准期内`);
    excluded.set(e.subgroupId, e.reason);
  }
  const kept = series.filter((x) => !excluded.has(x.id));
  const counts = new Map<number, number>();
  for (const x of kept) counts.set(x.n, (counts.get(x.n) ?? 0) + 1);
  const n = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;
  const basis = kept.filter((x) => x.n === n);
  const setting = await seriesSetting(db, q);
  const enough = basis.length >= SPC_MIN_SUBGROUPS_FOR_ALARM;
  const limits = basis.length >= 2 ? controlLimits(basis, n) : null;
  const kind = chartKindFor(n);
  const violations = limits
    ? seriesViolations(series, limits, setting.rules).map((v) => ({
        ...v,
        subgroupId: series[v.index].id,
        value: v.chart === 'x' ? series[v.index].mean : dispersionPoints([series[v.index]], kind)[0],
      }))
    : [];
  return {
    kind,
    n,
    subgroups: series.length,
    basisSubgroups: basis.length,
    enough,
    minimum: SPC_MIN_SUBGROUPS_FOR_ALARM,
    limits,
    rules: setting.rules,
    points: {
      id: series.map((x) => x.id),
      t: series.map((x) => x.t),
      x: series.map((x) => x.mean),
      r: kind === 'i-mr' ? dispersionPoints(kept, kind) : dispersionPoints(series, kind),
      excluded: series.map((x) => excluded.has(x.id)),
    },
    exclusions: series
      .filter((x) => excluded.has(x.id))
      .map((x) => ({ subgroupId: x.id, t: x.t, mean: x.mean, reason: excluded.get(x.id) as string })),
    violations,
  };
}

async function revisionList(db: Db, key: SeriesKey) {
  const r = await sql<Record<string, any>>`
    SELECT r.id, r.version, r.status, r.chart_kind, r.subgroup_size, r.baseline_from::text AS baseline_from,
           r.baseline_to::text AS baseline_to, r.baseline_subgroups, r.center, r.ucl, r.lcl, r.r_center, r.r_ucl,
           r.r_lcl, r.sigma_within, r.remark, r.created_at, c.first_name AS created_by_name, r.approved_at,
           a.first_name AS approved_by_name,
           COALESCE((SELECT json_agg(json_build_object('subgroupId', e.subgroup_id, 'measuredAt', e.measured_at,
                                                      'mean', e.mean, 'reason', e.reason) ORDER BY e.measured_at)
                       FROM spc_limit_exclusion e WHERE e.revision_id = r.id), '[]') AS exclusions
      FROM spc_limit_revision r LEFT JOIN app_user c ON c.id = r.created_by LEFT JOIN app_user a ON a.id = r.approved_by
     WHERE r.product_id = ${key.productId} AND r.characteristic = ${key.characteristic}
       AND r.equipment_id = ${key.equipmentId}
     ORDER BY r.version DESC`.execute(db);
  return r.rows.map((x) => ({
    ...x,
    exclusions: typeof x.exclusions === 'string' ? JSON.parse(x.exclusions) : x.exclusions,
  }));
}

/** 建立控制限: a draft revision from the baseline (the series' next version), waiting for approval. */
export async function draftRevision(trx: Db, user: AuthUser, body: BaselineBody) {
  const study = await baselineStudy(trx, body);
  if (!study.limits || !study.enough)
    throw badRequest(
      `基准期剔除后只有 ${study.basisSubgroups} 个容量为 ${study.n} 的子组，建立控制限至少需要 ${study.minimum} 个`,
    );
  const l = study.limits;
  // Versions count per series; the lock keeps two drafts from taking the same number.
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`spc:${body.productId}:${body.characteristic}:${body.equipmentId}`}))`.execute(
    trx,
  );
  const ins = await sql<{ id: number; version: number }>`
    INSERT INTO spc_limit_revision (product_id, characteristic, equipment_id, version, chart_kind, subgroup_size,
           baseline_from, baseline_to, baseline_subgroups, center, ucl, lcl, r_center, r_ucl, r_lcl,
           sigma_within, remark, created_by)
    SELECT ${body.productId}, ${body.characteristic}, ${body.equipmentId},
           COALESCE(max(version), 0) + 1, ${l.kind}, ${l.n}, ${body.from}::date, ${body.to}::date,
           ${study.basisSubgroups}, ${l.center}, ${l.ucl}, ${l.lcl}, ${l.rCenter}, ${l.rUcl}, ${l.rLcl},
           ${l.sigmaWithin}, ${body.remark ?? null}, ${user.id}
      FROM spc_limit_revision
     WHERE product_id = ${body.productId} AND characteristic = ${body.characteristic}
       AND equipment_id = ${body.equipmentId}
    RETURNING id, version`.execute(trx);
  const rev = ins.rows[0];
  if (study.exclusions.length)
    await sql`
      INSERT INTO spc_limit_exclusion (revision_id, subgroup_id, measured_at, mean, reason)
      SELECT ${rev.id}, e.id, s.measured_at, s.mean::float8, e.reason
        FROM unnest(${sql.val(study.exclusions.map((e) => e.subgroupId))}::bigint[],
                    ${sql.val(study.exclusions.map((e) => e.reason))}::varchar[]) AS e(id, reason)
        JOIN measurement_subgroup s ON s.id = e.id`.execute(trx);
  return { id: Number(rev.id), version: Number(rev.version), status: 'draft', limits: l };
}

/** 批准: the draft becomes the series' frozen limits; the revision approved before is superseded. */
export async function approveRevision(trx: Db, user: AuthUser, id: number) {
  const r = await sql<{
    status: string;
    productId: number;
    characteristic: string;
    equipmentId: number;
  }>`
    SELECT status, product_id, characteristic, equipment_id FROM spc_limit_revision
     WHERE id = ${id} FOR UPDATE`.execute(trx);
  const rev = r.rows[0];
  if (!rev) throw notFound('控制限版本不存在');
  assertMay(user, rev.characteristic, 'limitApprove');
  if (rev.status !== 'draft') throw conflict('只有待批准的控制限版本可以批准');
  await sql`
    UPDATE spc_limit_revision SET status = 'superseded'
     WHERE product_id = ${rev.productId} AND characteristic = ${rev.characteristic}
       AND equipment_id = ${rev.equipmentId} AND status = 'approved'`.execute(trx);
  await sql`
    UPDATE spc_limit_revision SET status = 'approved', approved_by = ${user.id}, approved_at = now()
     WHERE id = ${id}`.execute(trx);
  return { id, status: 'approved' };
}

export function spcLimitRoutes(app: App) {
  const read = { permission: allOf('query')[0], alsoAllowedBy: allOf('query').slice(1) };

  // The series' revisions, newest first, with their removed points.
  route(app, {
    method: 'GET',
    url: '/api/v1/spc/limit-revision/list',
    ...read,
    query: z.strictObject(seriesKey),
    async handler({ query, user, app: { db } }) {
      assertMay(user, query.characteristic, 'query');
      return revisionList(db, query);
    },
  });

  // Phase I study of a baseline before it is saved: limits from the kept points, every point flagged.
  route(app, {
    method: 'POST',
    url: '/api/v1/spc/limit-revision/preview',
    permission: allOf('limit')[0],
    alsoAllowedBy: allOf('limit').slice(1),
    body: baselineBody,
    async handler({ body, user, app: { db } }) {
      assertMay(user, body.characteristic, 'limit');
      return baselineStudy(db, body);
    },
  });

  // 建立控制限: a draft revision from the baseline (its next version), waiting for approval.
  route(app, {
    method: 'POST',
    url: '/api/v1/spc/limit-revision/add',
    permission: allOf('limit')[0],
    alsoAllowedBy: allOf('limit').slice(1),
    body: baselineBody,
    async handler({ body, user, app: { db } }) {
      assertMay(user, body.characteristic, 'limit');
      return db.transaction().execute((trx) => draftRevision(trx, user, body));
    },
  });

  // 批准: the draft becomes the series' frozen limits; the revision approved before is superseded.
  route(app, {
    method: 'POST',
    url: '/api/v1/spc/limit-revision/approve/:id',
    permission: allOf('limitApprove')[0],
    alsoAllowedBy: allOf('limitApprove').slice(1),
    params: idParams,
    async handler({ params, user, app: { db } }) {
      return db.transaction().execute((trx) => approveRevision(trx, user, params.id));
    },
  });

  // The rules a series checks and its responsible inspector.
  route(app, {
    method: 'GET',
    url: '/api/v1/spc/series-setting',
    ...read,
    query: z.strictObject(seriesKey),
    async handler({ query, user, app: { db } }) {
      assertMay(user, query.characteristic, 'query');
      return seriesSetting(db, query);
    },
  });

  route(app, {
    method: 'PUT',
    url: '/api/v1/spc/series-setting',
    permission: allOf('limit')[0],
    alsoAllowedBy: allOf('limit').slice(1),
    body: z.strictObject({
      ...seriesKey,
      rules: z
        .array(z.number().int().min(1, '判异规则为 1–8').max(8, '判异规则为 1–8'))
        .max(8)
        .transform((v) => [...new Set(v)].sort((a, b) => a - b)),
      inspectorId: zx.id.nullable().optional(),
    }),
    async handler({ body, user, app: { db } }) {
      assertMay(user, body.characteristic, 'limit');
      if (body.inspectorId) {
        const u = await sql`SELECT 1 FROM app_user WHERE id = ${body.inspectorId} AND status = '1'`.execute(
          db,
        );
        if (!u.rows.length) throw fieldError('inspectorId', '负责检验员不存在或已停用');
      }
      await sql`
        INSERT INTO spc_series_setting (product_id, characteristic, equipment_id, rules, inspector_id, updated_by)
        VALUES (${body.productId}, ${body.characteristic}, ${body.equipmentId}, ${sql.val(body.rules)}::smallint[],
                ${body.inspectorId ?? null}, ${user.id})
        ON CONFLICT (product_id, characteristic, equipment_id)
        DO UPDATE SET rules = EXCLUDED.rules, inspector_id = EXCLUDED.inspector_id, updated_by = EXCLUDED.updated_by,
                      updated_at = now()`.execute(db);
      return seriesSetting(db, body);
    },
  });
}
