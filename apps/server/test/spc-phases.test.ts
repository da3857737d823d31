import { controlLimits, xbarRLimits, xbarSLimits } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * SPC Phase I / Phase II over HTTP (issue 38 §2): limits from a baseline with points removed for
 * assignable causes, approved and frozen in versioned revisions; charts and alarms against the
 * frozen limits whatever the period shown; Nelson rules switched per series; X̄–S for subgroups
 * larger than 10; alarms to the series' responsible inspector.
 */
let t: TestApp;
let token: string;
let f: Factory;
let product: any;
let adminId: number;

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  product = await f.create('material-info');
  adminId = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
});
afterAll(() => t?.close());

/** Montgomery Example 6.1 piston rings: X̄–R limits 73.9880 … 74.0143 around 74.00118. */
const PISTON_RINGS = [
  [74.03, 74.002, 74.019, 73.992, 74.008],
  [73.995, 73.992, 74.001, 74.011, 74.004],
  [73.988, 74.024, 74.021, 74.005, 74.002],
  [74.002, 73.996, 73.993, 74.015, 74.009],
  [73.992, 74.007, 74.015, 73.989, 74.014],
  [74.009, 73.994, 73.997, 73.985, 73.993],
  [73.995, 74.006, 73.994, 74.0, 74.005],
  [73.985, 74.003, 73.993, 74.015, 73.988],
  [74.008, 73.995, 74.009, 74.005, 74.004],
  [73.998, 74.0, 73.99, 74.007, 73.995],
  [73.994, 73.998, 73.994, 73.995, 73.99],
  [74.004, 74.0, 74.007, 74.0, 73.996],
  [73.983, 74.002, 73.998, 73.997, 74.012],
  [74.006, 73.967, 73.994, 74.0, 73.984],
  [74.012, 74.014, 73.998, 73.999, 74.007],
  [74.0, 73.984, 74.005, 73.998, 73.996],
  [73.994, 74.012, 73.986, 74.005, 74.007],
  [74.006, 74.01, 74.018, 74.003, 74.0],
  [73.984, 74.002, 74.003, 74.005, 73.997],
  [74.0, 74.01, 74.013, 74.02, 74.003],
  [73.988, 74.001, 74.009, 74.005, 73.996],
  [74.004, 73.999, 73.99, 74.006, 74.009],
  [74.01, 73.989, 73.99, 74.009, 74.014],
  [74.015, 74.008, 73.993, 74.0, 74.01],
  [73.982, 73.984, 73.995, 74.017, 74.013],
];
const stat = (g: number[]) => {
  const mean = g.reduce((s, v) => s + v, 0) / g.length;
  return {
    n: g.length,
    mean,
    range: Math.max(...g) - Math.min(...g),
    ssDev: g.reduce((s, v) => s + (v - mean) ** 2, 0),
  };
};
const PUBLISHED = xbarRLimits(PISTON_RINGS.map(stat), 5);

const add = (equipmentId: number, values: (number | string)[], at: string) =>
  t.call('POST', '/api/v1/measurement-subgroup/add', {
    token,
    body: {
      productId: product.id,
      characteristic: 'outside-diameter',
      equipmentId,
      operatorId: adminId,
      measuredAt: at,
      values: values.map((v) => ({ value: String(v) })),
    },
  });
const day = (d: number, hour = 8) => {
  const date = new Date(Date.UTC(2026, 9, 1 + d));
  return `${date.toISOString().slice(0, 10)} ${String(hour).padStart(2, '0')}:00:00`;
};
const key = (equipmentId: number) => ({
  productId: product.id,
  characteristic: 'outside-diameter',
  equipmentId,
});
const chart = async (equipmentId: number, from: string, to: string) =>
  ok(
    await t.call('GET', '/api/v1/spc/chart', {
      token,
      query: { family: 'neiwaijing', ...key(equipmentId), from, to },
    }),
  );

describe('Phase I: limits from a baseline, points removed for assignable causes', () => {
  let equipment: any;
  let outlierId: number;
  const baseline = (exclusions: { subgroupId: number; reason: string }[] = []) => ({
    ...key(equipment.id),
    from: '2026-10-01',
    to: '2026-10-31',
    exclusions,
  });

  beforeAll(async () => {
    equipment = await f.create('equipment');
    for (const [i, g] of PISTON_RINGS.entries()) ok(await add(equipment.id, g, day(i)));
    // A subgroup measured after a wrong gauge setting: an assignable cause.
    outlierId = ok(await add(equipment.id, [74.06, 74.061, 74.059, 74.06, 74.062], day(25))).id;
  });

  it('flags the outlier on the trial limits and gives the published limits once it is removed', async () => {
    const trial = ok(await t.call('POST', '/api/v1/spc/limit-revision/preview', { token, body: baseline() }));
    expect(trial.subgroups).toBe(26);
    expect(trial.violations.some((v: any) => v.subgroupId === outlierId && v.rule === 1)).toBe(true);
    const clean = ok(
      await t.call('POST', '/api/v1/spc/limit-revision/preview', {
        token,
        body: baseline([{ subgroupId: outlierId, reason: '量仪校零错误' }]),
      }),
    );
    expect(clean.basisSubgroups).toBe(25);
    expect(clean.kind).toBe('xbar-r');
    expect(clean.limits.center.toFixed(5)).toBe('74.00118');
    expect(clean.limits.ucl.toFixed(4)).toBe('74.0143');
    expect(clean.limits.lcl.toFixed(4)).toBe('73.9880');
    expect(clean.points.excluded.filter(Boolean)).toHaveLength(1);
    expect(clean.exclusions).toEqual([
      expect.objectContaining({ subgroupId: outlierId, reason: '量仪校零错误' }),
    ]);
  });

  it('refuses a removal without a reason, a point outside the baseline and too short a baseline', async () => {
    const noReason = await t.call('POST', '/api/v1/spc/limit-revision/add', {
      token,
      body: baseline([{ subgroupId: outlierId, reason: ' ' }]),
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toContain('剔除原因');
    const outside = await t.call('POST', '/api/v1/spc/limit-revision/add', {
      token,
      body: { ...baseline([{ subgroupId: outlierId, reason: '量仪校零错误' }]), to: '2026-10-20' },
    });
    expect(outside.status).toBe(400);
    expect(outside.body.message).toContain('不在所选基准期内');
    const short = await t.call('POST', '/api/v1/spc/limit-revision/add', {
      token,
      body: { ...baseline(), to: '2026-10-10' },
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('至少需要 20 个');
  });

  it('freezes an approved revision: charts and alarms use it whatever the period shown (Phase II)', async () => {
    const draft = ok(
      await t.call('POST', '/api/v1/spc/limit-revision/add', {
        token,
        body: { ...baseline([{ subgroupId: outlierId, reason: '量仪校零错误' }]), remark: '首次建立' },
      }),
    );
    expect(draft).toMatchObject({ version: 1, status: 'draft' });
    // A draft changes nothing yet.
    expect((await chart(equipment.id, '2026-10-01', '2026-10-31')).phase).toBe('I');
    ok(await t.call('POST', `/api/v1/spc/limit-revision/approve/${draft.id}`, { token }));
    const again = await t.call('POST', `/api/v1/spc/limit-revision/approve/${draft.id}`, { token });
    expect(again.status).toBe(409);

    // November: the process has drifted 0.02 mm. The first subgroup is already an alarm (frozen
    // limits need no window of 20), and every one is flagged against the frozen UCL 74.0143.
    const drifted: number[] = [];
    for (const [i, g] of PISTON_RINGS.entries())
      drifted.push(
        ok(
          await add(
            equipment.id,
            g.map((v) => (v + 0.02).toFixed(3)),
            day(31 + i),
          ),
        ).id,
      );
    const first = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${drifted[0]}`, { token }));
    expect(first.outOfControl).toBe(true);
    const v = await sql<{ rule: number; revisionId: number }>`
      SELECT rule, revision_id FROM spc_violation WHERE subgroup_id = ${drifted[0]}`.execute(t.database.db);
    expect(v.rows.map((x) => [x.rule, Number(x.revisionId)])).toContainEqual([1, draft.id]);

    // A window of November only would centre on the drift and call it in control; the frozen
    // limits flag the drifted points, over November alone and over both months alike.
    const nov = await chart(equipment.id, '2026-11-01', '2026-11-30');
    expect(nov.phase).toBe('II');
    expect(nov.revision).toMatchObject({ id: draft.id, version: 1, baselineFrom: '2026-10-01' });
    expect(nov.limits.center).toBeCloseTo(PUBLISHED.center, 9);
    expect(nov.limits.ucl).toBeCloseTo(PUBLISHED.ucl, 9);
    const windowLimits = controlLimits(
      PISTON_RINGS.map((g) => stat(g.map((x) => x + 0.02))),
      5,
    );
    const aboveFrozen = PISTON_RINGS.filter((g) => stat(g).mean + 0.02 > PUBLISHED.ucl).length;
    const aboveWindow = PISTON_RINGS.filter((g) => stat(g).mean + 0.02 > windowLimits.ucl).length;
    expect(aboveWindow).toBe(0);
    const rule1 = (c: any) =>
      new Set(c.violations.filter((x: any) => x.rule === 1 && x.chart === 'x').map((x: any) => x.subgroupId));
    expect(rule1(nov).size).toBe(aboveFrozen);
    expect(aboveFrozen).toBeGreaterThan(10);
    const both = await chart(equipment.id, '2026-10-01', '2026-11-30');
    expect(both.limits.ucl).toBeCloseTo(PUBLISHED.ucl, 9);
    for (const id of rule1(nov)) expect(rule1(both).has(id)).toBe(true);
  });

  it('keeps the history: a new approved revision supersedes the old one', async () => {
    const v2 = ok(
      await t.call('POST', '/api/v1/spc/limit-revision/add', {
        token,
        body: { ...key(equipment.id), from: '2026-11-01', to: '2026-11-30', remark: '更换砂轮后重新建立' },
      }),
    );
    expect(v2.version).toBe(2);
    ok(await t.call('POST', `/api/v1/spc/limit-revision/approve/${v2.id}`, { token }));
    const list = ok(
      await t.call('GET', '/api/v1/spc/limit-revision/list', { token, query: key(equipment.id) }),
    );
    expect(list.map((r: any) => [r.version, r.status])).toEqual([
      [2, 'approved'],
      [1, 'superseded'],
    ]);
    expect(list[1]).toMatchObject({
      baselineFrom: '2026-10-01',
      baselineTo: '2026-10-31',
      baselineSubgroups: 25,
      remark: '首次建立',
      approvedByName: expect.any(String),
    });
    expect(list[1].ucl).toBeCloseTo(PUBLISHED.ucl, 9);
    expect(list[1].exclusions).toEqual([
      expect.objectContaining({ subgroupId: outlierId, reason: '量仪校零错误', mean: 74.0604 }),
    ]);
    const nov = await chart(equipment.id, '2026-11-01', '2026-11-30');
    expect(nov.revision.version).toBe(2);
    expect(nov.limits.center).toBeCloseTo(PUBLISHED.center + 0.02, 6);
  });

  it('needs 建立控制限 to draft and 批准控制限 to approve', async () => {
    const reader = await t.userWith(['report:innerOuterMeasure:query']);
    const maker = await t.userWith(['report:innerOuterMeasure:query', 'report:innerOuterMeasure:limit']);
    const body = { ...key(equipment.id), from: '2026-11-01', to: '2026-11-30' };
    expect(
      (await t.call('POST', '/api/v1/spc/limit-revision/preview', { token: reader.token, body })).status,
    ).toBe(403);
    const draft = ok(await t.call('POST', '/api/v1/spc/limit-revision/add', { token: maker.token, body }));
    expect(
      (await t.call('POST', `/api/v1/spc/limit-revision/approve/${draft.id}`, { token: maker.token })).status,
    ).toBe(403);
    // Another family's permission does not reach this characteristic.
    const track = await t.userWith(['report:trackMeasure:query', 'report:trackMeasure:limit']);
    expect(
      (await t.call('POST', '/api/v1/spc/limit-revision/preview', { token: track.token, body })).status,
    ).toBe(403);
  });
});

describe('Nelson rules per series and the responsible inspector', () => {
  it('checks only the rules switched on and messages the series inspector', async () => {
    const equipment = await f.create('equipment');
    for (const [i, g] of PISTON_RINGS.entries()) ok(await add(equipment.id, g, day(i)));
    const draft = ok(
      await t.call('POST', '/api/v1/spc/limit-revision/add', {
        token,
        body: { ...key(equipment.id), from: '2026-10-01', to: '2026-10-31' },
      }),
    );
    ok(await t.call('POST', `/api/v1/spc/limit-revision/approve/${draft.id}`, { token }));
    const inspector = await t.userWith(['report:innerOuterMeasure:query']);
    const bystander = await t.userWith(['report:innerOuterMeasure:query']);
    // Both hold the quality role: without a responsible inspector, alarms would reach both.
    await sql`UPDATE role SET role_key = 'quality' WHERE id = ${inspector.roleId}`.execute(t.database.db);
    await sql`UPDATE user_role SET role_id = ${inspector.roleId} WHERE user_id = ${bystander.userId}`.execute(
      t.database.db,
    );
    const setting = ok(
      await t.call('PUT', '/api/v1/spc/series-setting', {
        token,
        body: { ...key(equipment.id), rules: [1], inspectorId: inspector.userId },
      }),
    );
    expect(setting).toMatchObject({ rules: [1], inspectorId: inspector.userId });
    const bad = await t.call('PUT', '/api/v1/spc/series-setting', {
      token,
      body: { ...key(equipment.id), rules: [9] },
    });
    expect(bad.status).toBe(400);

    // Two of three beyond 2σ but inside 3σ: Nelson rule 5 only.
    const sigma = (PUBLISHED.ucl - PUBLISHED.center) / 3;
    const high = (PUBLISHED.center + 2.5 * sigma).toFixed(4);
    const a = ok(await add(equipment.id, Array(5).fill(high), day(40)));
    const b = ok(await add(equipment.id, Array(5).fill(high), day(40, 9)));
    const info = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${b.id}`, { token }));
    expect(info.outOfControl).toBe(false);
    let c = await chart(equipment.id, '2026-11-01', '2026-11-30');
    expect(c.rules).toEqual([1]);
    expect(c.violations).toEqual([]);
    ok(
      await t.call('PUT', '/api/v1/spc/series-setting', {
        token,
        body: { ...key(equipment.id), rules: [1, 5], inspectorId: inspector.userId },
      }),
    );
    c = await chart(equipment.id, '2026-11-01', '2026-11-30');
    expect(c.violations.map((v: any) => [v.subgroupId, v.rule])).toEqual([[b.id, 5]]);
    expect(a.id).toBeLessThan(b.id);

    // An alarm under the series' rules goes to its inspector, not to the whole quality role.
    ok(await add(equipment.id, Array(5).fill(high), day(40, 10)));
    const count = async (who: { token: string }) =>
      ok(await t.call('GET', '/api/v1/message/page', { token: who.token, query: { kind: 'spc' } })).total;
    expect(await count(inspector)).toBe(1);
    expect(await count(bystander)).toBe(0);
  });
});

describe('X̄–S for subgroups larger than 10', () => {
  it('charts 12 readings a subgroup with s̄, A3, B3 and B4', async () => {
    const equipment = await f.create('equipment');
    const groups = Array.from({ length: 20 }, (_, i) =>
      Array.from({ length: 12 }, (_, j) => 50 + (((i * 7 + j * 3) % 11) - 5) / 1000),
    );
    for (const [i, g] of groups.entries()) ok(await add(equipment.id, g, day(i)));
    const c = await chart(equipment.id, '2026-10-01', '2026-10-31');
    expect(c.kind).toBe('xbar-s');
    const expected = xbarSLimits(groups.map(stat), 12);
    // Means are kept to six decimals, Σ(x − x̄)² to ten.
    for (const k of ['center', 'ucl', 'lcl', 'rCenter', 'rUcl', 'rLcl', 'sigmaWithin'] as const)
      expect(c.limits[k]).toBeCloseTo(expected[k], 6);
    expect(c.points.r[0]).toBeCloseTo(Math.sqrt(stat(groups[0]).ssDev / 11), 7);
    expect(c.sigmaWithin).toBeCloseTo(expected.sigmaWithin, 7);
  });
});

describe('Phase II over a long series', () => {
  it('runs the rules over 51,000 subgroups and draws them in buckets that keep every flagged point', async () => {
    const equipment = await f.create('equipment');
    // One reading a minute from 2026-10-01 00:00 (Shanghai): 10 + 0.001·((7i mod 5) − 2), i.e. 9.998 … 10.002,
    // moving ranges ≤ 0.003; subgroup 50,505 reads 10.010, beyond the frozen UCL 10.006.
    const N = 51_000;
    const SPIKE = 50_505;
    const value = sql`CASE WHEN i = ${SPIKE} THEN 10.010 ELSE 10 + 0.001 * ((i * 7) % 5 - 2) END`;
    await sql`
      INSERT INTO measurement_subgroup (product_id, characteristic, equipment_id, operator_id, measured_at,
                                        sample_size, mean, range, ss_dev)
      SELECT ${product.id}, 'outside-diameter', ${equipment.id}, ${adminId},
             '2026-10-01 00:00:00+08'::timestamptz + i * interval '1 minute', 1, ${value}, 0, 0
        FROM generate_series(0, ${N - 1}) AS i`.execute(t.database.db);
    await sql`
      INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
      SELECT id, 1, mean FROM measurement_subgroup WHERE equipment_id = ${equipment.id}`.execute(
      t.database.db,
    );
    // Frozen I-MR limits chosen by hand: CL 10, UCL/LCL 10 ± 0.006, MR chart 0 … 0.02.
    await sql`
      INSERT INTO spc_limit_revision (product_id, characteristic, equipment_id, version, status, chart_kind,
             subgroup_size, baseline_from, baseline_to, baseline_subgroups, center, ucl, lcl, r_center, r_ucl,
             r_lcl, sigma_within, approved_by, approved_at)
      VALUES (${product.id}, 'outside-diameter', ${equipment.id}, 1, 'approved', 'i-mr', 1, '2026-10-01',
              '2026-10-02', 2880, 10, 10.006, 9.994, 0.0024, 0.02, 0, 0.002, ${adminId}, now())`.execute(
      t.database.db,
    );
    ok(
      await t.call('PUT', '/api/v1/spc/series-setting', {
        token,
        body: { ...key(equipment.id), rules: [1] },
      }),
    );
    const spike = await sql<{ id: string }>`
      SELECT id::text FROM measurement_subgroup WHERE equipment_id = ${equipment.id} AND mean = 10.010`.execute(
      t.database.db,
    );
    const c = await chart(equipment.id, '2026-10-01', '2026-11-30');
    expect(c).toMatchObject({ phase: 'II', kind: 'i-mr', subgroups: N, count: N });
    expect(c.revision.version).toBe(1);
    // ⌈51,000 / 10,000⌉ = 6 subgroups a bucket; at most lowest, highest and largest MR of each.
    expect(c.aggregated.subgroups).toBe(N);
    expect(c.aggregated.bucket).toBe(6);
    expect(c.aggregated.shown).toBe(c.points.id.length);
    expect(c.points.id.length).toBeLessThanOrEqual(30_000);
    expect(c.points.id.length).toBeGreaterThan(10_000);
    // The one point beyond the frozen limits, found over the whole series and drawn where it is.
    expect(c.violations.map((v: any) => [v.rule, v.chart, String(v.subgroupId)])).toEqual([
      [1, 'x', spike.rows[0].id],
    ]);
    const v = c.violations[0];
    expect(String(c.points.id[v.index])).toBe(spike.rows[0].id);
    expect(c.points.x[v.index]).toBe(10.01);
    expect(v.value).toBe(10.01);
  }, 180_000);
});
