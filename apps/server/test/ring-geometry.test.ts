import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Ring geometry from reading sets over HTTP (issue 38 §3): a 6206 P0 inner ring (d = 30, B = 16,
 * diameter series 2: Δdmp 0/−10, Vdsp 8, Vdmp 8, ΔBs 0/−120, VBs 20) and its outer ring (D = 62:
 * ΔDmp 0/−13, VDsp 10, VDmp 10), the worked examples of packages/domain/src/quality/ring-geometry.test.ts
 * computed by hand: d_mp = (largest + smallest) / 2 per plane, V_dsp = largest − smallest, V_dmp =
 * largest − smallest d_mp.
 */
let t: TestApp;
let token: string;
let f: Factory;
let equipment: any;
let adminId: number;
let inner: any;
let outer: any;

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

const RING_A = [
  [29.995, 29.993, 29.996, 29.994],
  [29.991, 29.988, 29.99, 29.992],
];
// V_dsp 10 > 8 in plane I, though both planes' d_mp (29.9940) are good.
const RING_B = [
  [29.999, 29.989, 29.995, 29.993],
  [29.996, 29.992, 29.994, 29.995],
];

const sizes = {
  toleranceClass: 'P0',
  boreDiameter: '30',
  outsideDiameter: '62',
  bearingWidth: '16',
  diameterSeries: '2',
};

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  equipment = await f.create('equipment');
  inner = await f.create('material-info', { ...sizes, partType: 'inner' });
  outer = await f.create('material-info', { ...sizes, partType: 'outer' });
  adminId = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
});
afterAll(() => t?.close());

const header = (productId: number, characteristic = 'bore-diameter') => ({
  productId,
  characteristic,
  equipmentId: equipment.id,
  operatorId: adminId,
  measuredAt: '2026-11-20 09:00:00',
});

describe('reading sets: entry', () => {
  it('answers the plan per characteristic (4 points × 2 planes for diameters) and lets it change', async () => {
    const plans = ok(await t.call('GET', '/api/v1/ring-geometry/plans', { token }));
    expect(plans.find((p: any) => p.characteristic === 'bore-diameter')).toMatchObject({
      points: 4,
      planes: 2,
    });
    const changed = ok(
      await t.call('PUT', '/api/v1/ring-geometry/plans', {
        token,
        body: { characteristic: 'raceway-position', points: 3, planes: 1 },
      }),
    );
    expect(changed.find((p: any) => p.characteristic === 'raceway-position')).toMatchObject({ points: 3 });
    const bad = await t.call('PUT', '/api/v1/ring-geometry/plans', {
      token,
      body: { characteristic: 'rib-angle', points: 3, planes: 1 },
    });
    expect(bad.status).toBe(400);
  });

  it("computes, judges and saves two rings as one subgroup; the subgroup plots the rings' mean d_mp", async () => {
    const r = ok(
      await t.call('POST', '/api/v1/ring-geometry/add', {
        token,
        body: { ...header(inner.id), rings: [{ readings: RING_A }, { readings: RING_B }] },
      }),
    );
    const [a, b] = r.rings;
    expect(a.planes.map((p: any) => [p.mp, p.deviation, p.variation])).toEqual([
      [29.9945, -5.5, 3],
      [29.99, -10, 4],
    ]);
    expect([a.value, a.meanVariation, a.verdict]).toEqual([29.99225, 4.5, 'pass']);
    expect(b.verdict).toBe('fail');
    expect(b.checks.find((c: any) => c.code === 'Vdsp')).toMatchObject({ value: 10, upper: 8, ok: false });
    // The subgroup: values are the rings' mean d_mp, limits from the standard (30 − 0.010 … 30).
    const s = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${r.id}`, { token }));
    expect(s.values.map((v: any) => Number(v.value))).toEqual([29.99225, 29.994]);
    expect([Number(s.lsl), Number(s.usl), s.specSource, s.sampleSize]).toEqual([29.99, 30, 'standard', 2]);
    // The sets, read back with readings by plane and the figures.
    const page = ok(
      await t.call('GET', '/api/v1/ring-geometry/page', { token, query: { subgroupId: r.id } }),
    );
    expect(page.total).toBe(2);
    expect(page.list[0]).toMatchObject({
      readings: RING_A,
      meanDeviationUm: -7.75,
      deviationMinUm: -10,
      deviationMaxUm: -5.5,
      variationUm: 4,
      meanVariationUm: 4.5,
      verdict: 'pass',
      ringType: 'inner',
    });
    expect(page.list[0].planeMeans.map(Number)).toEqual([29.9945, 29.99]);
    expect(page.summary).toEqual([
      expect.objectContaining({ characteristic: 'bore-diameter', rings: 2, fail: 1, pass: 1 }),
    ]);
  });

  it('judges an outer ring by ΔDmp (plane II −13.5 μm < −13) and its width by ΔCs/VCs', async () => {
    const od = ok(
      await t.call('POST', '/api/v1/ring-geometry/preview', {
        token,
        body: {
          productId: outer.id,
          characteristic: 'outside-diameter',
          rings: [
            {
              readings: [
                [61.993, 61.989, 61.991, 61.992],
                [61.986, 61.985, 61.988, 61.987],
              ],
            },
          ],
        },
      }),
    );
    expect(od.rings[0].checks.map((c: any) => [c.code, c.ok])).toEqual([
      ['Dmp', false],
      ['VDsp', true],
      ['VDmp', true],
    ]);
    const width = ok(
      await t.call('POST', '/api/v1/ring-geometry/add', {
        token,
        body: {
          ...header(outer.id, 'ring-height'),
          rings: [{ readings: [[15.99, 15.985, 15.992, 15.988]] }],
        },
      }),
    );
    expect(width.rings[0]).toMatchObject({ value: 15.98875, variation: 7, verdict: 'pass' });
    expect(width.rings[0].checks.map((c: any) => c.code)).toEqual(['Cs', 'VCs']);
  });

  it('refuses a reading set off the plan, a bad reading, an angle and a product without sizes (400, Chinese)', async () => {
    const off = await t.call('POST', '/api/v1/ring-geometry/add', {
      token,
      body: { ...header(inner.id), rings: [{ readings: [[29.99, 29.98, 29.99]] }] },
    });
    expect(off.status).toBe(400);
    expect(off.body.message).toMatch(/2 个截面 × 每截面 4 点/);
    const neg = await t.call('POST', '/api/v1/ring-geometry/add', {
      token,
      body: { ...header(inner.id), rings: [{ readings: [[29.99, -1, 29.99, 29.99], RING_A[1]] }] },
    });
    expect(neg.status).toBe(400);
    const angle = await t.call('POST', '/api/v1/ring-geometry/add', {
      token,
      body: { ...header(inner.id, 'rib-angle'), rings: [{ readings: [[1]] }] },
    });
    expect(angle.status).toBe(400);
    expect(angle.body.message).toMatch(/角度按单值录入/);
    const bare = await f.create('material-info');
    const noSizes = await t.call('POST', '/api/v1/ring-geometry/add', {
      token,
      body: { ...header(bare.id), rings: [{ readings: RING_A }] },
    });
    expect(noSizes.status).toBe(400);
    expect(noSizes.body.message).toMatch(/未填写/);
    // Nothing of the refused calls was saved.
    const page = ok(
      await t.call('GET', '/api/v1/ring-geometry/page', { token, query: { productId: bare.id } }),
    );
    expect(page.total).toBe(0);
  });

  it('keeps single-value subgroups working beside reading sets', async () => {
    const s = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: { ...header(inner.id), values: [{ value: '29.995' }, { value: '29.993' }] },
      }),
    );
    const info = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${s.id}`, { token }));
    expect(info.sampleSize).toBe(2);
    const page = ok(
      await t.call('GET', '/api/v1/ring-geometry/page', { token, query: { subgroupId: s.id } }),
    );
    expect(page.total).toBe(0);
  });
});

describe('reading sets: import and sizes for 选配', () => {
  it('imports a gauge file (件号 + 8 readings a line) all or nothing, in subgroups', async () => {
    const line = (no: string, r: number[][]) => [no, ...r.flat()].join(',');
    const text = [
      '件号,I1,I2,I3,I4,II1,II2,II3,II4',
      line('1', RING_A),
      line('2', RING_B),
      line('3', RING_A),
    ].join('\n');
    const bad = await t.call('POST', '/api/v1/ring-geometry/import', {
      token,
      body: { ...header(inner.id), subgroupSize: 2, text: `${text}\n4,29.99,29.98` },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatchObject({ field: '第5行' });
    expect(bad.body.errors?.[0]?.message).toMatch(/应有 8 个读数/);
    const dry = ok(
      await t.call('POST', '/api/v1/ring-geometry/import', {
        token,
        body: { ...header(inner.id), subgroupSize: 2, text, dryRun: true },
      }),
    );
    expect(dry).toMatchObject({ rings: 3, subgroups: 2, fail: 1, imported: 0 });
    const done = ok(
      await t.call('POST', '/api/v1/ring-geometry/import', {
        token,
        body: { ...header(inner.id), measuredAt: '2026-11-20 10:00:00', subgroupSize: 2, text },
      }),
    );
    expect(done).toMatchObject({ rings: 3, subgroups: 2, fail: 1, imported: 2 });
  });

  it('ringSizes: per ring of a flow card, d_mp and groove diameter (the function 选配 reads)', async () => {
    const card = await f.create('flow-card');
    await t.database.db
      .updateTable('material')
      .set({ ...sizes, partType: 'inner' } as any)
      .where('id', '=', card.productId)
      .execute();
    const on = (characteristic: string, rings: number[][][], at: string) =>
      t.call('POST', '/api/v1/ring-geometry/add', {
        token,
        body: {
          ...header(card.productId, characteristic),
          measuredAt: at,
          flowCardId: card.id,
          rings: rings.map((readings) => ({ readings })),
        },
      });
    ok(await on('bore-diameter', [RING_A, RING_B], '2026-11-20 11:00:00'));
    ok(
      await on(
        'raceway-diameter',
        [[[35.806, 35.802, 35.804, 35.808]], [[35.8, 35.8, 35.802, 35.802]]],
        '2026-11-20 11:05:00',
      ),
    );
    const { ringSizes } = await import('../src/modules/quality/ring-geometry.ts');
    const rows = await ringSizes(t.database.db, { cardIds: [card.id] });
    expect(
      rows.map((r) => [r.ringNo, r.ringType, r.meanDiameterMm, r.meanDeviationUm, r.verdict, r.grooveMm]),
    ).toEqual([
      [1, 'inner', 29.99225, -7.75, 'pass', 35.805],
      [2, 'inner', 29.994, -6, 'fail', 35.801],
    ]);
  });

  it('needs the permissions: entry with :add, reading with :list or a report page', async () => {
    const none = (await t.userWith(['system:user:list'])).token;
    expect((await t.call('GET', '/api/v1/ring-geometry/page', { token: none })).status).toBe(403);
    expect(
      (
        await t.call('POST', '/api/v1/ring-geometry/add', {
          token: none,
          body: { ...header(inner.id), rings: [{ readings: RING_A }] },
        })
      ).status,
    ).toBe(403);
    const reader = (await t.userWith(['report:innerOuterMeasure:query'])).token;
    expect(
      ok(
        await t.call('GET', '/api/v1/ring-geometry/page', { token: reader, query: { family: 'neiwaijing' } }),
      ).total,
    ).toBeGreaterThan(0);
  });
});

describe('groove nominal, angles and the plain edit form', () => {
  it('judges raceway readings against the 6206 groove nominal: Dpw = (30 + 62) / 2 = 46 ∓ Dw 9.525', async () => {
    const ir = await f.create('material-info', {
      ...sizes,
      partType: 'inner',
      name: '6206 内圈',
      spec: '6206',
    });
    const or = await f.create('material-info', {
      ...sizes,
      partType: 'outer',
      name: '6206 外圈',
      spec: '6206',
    });
    const ball = await f.create('material-info', { name: '轴承钢球', spec: 'G10 Φ9.525 (3/8")' });
    const bearing = await f.create('material-info', {
      ...sizes,
      partType: 'bearing',
      name: '深沟球轴承 6206',
      spec: '6206',
    });
    await f.create('product-bom', {
      productId: bearing.id,
      status: 'active',
      lines: [
        { materialId: ir.id, quantity: 1, unitId: ir.unitId },
        { materialId: or.id, quantity: 1, unitId: or.unitId },
        { materialId: ball.id, quantity: 9, unitId: ball.unitId },
      ],
    });
    const preview = async (productId: number, characteristic: string, readings: number[][]) =>
      ok(
        await t.call('POST', '/api/v1/ring-geometry/preview', {
          token,
          body: { productId, characteristic, rings: [{ readings }] },
        }),
      ).rings[0];
    // Inner groove 46 − 9.525 = 36.475; readings' mean (36.470 + 36.474 + 36.472 + 36.476) / 4 = 36.473: −2 μm.
    expect(await preview(ir.id, 'raceway-diameter', [[36.47, 36.474, 36.472, 36.476]])).toMatchObject({
      nominal: 36.475,
      value: 36.473,
      meanDeviation: -2,
      variation: 6,
    });
    // Outer groove 46 + 9.525 = 55.525; mean 55.528: +3 μm.
    expect(await preview(or.id, 'raceway-diameter', [[55.528, 55.53, 55.526, 55.528]])).toMatchObject({
      nominal: 55.525,
      value: 55.528,
      meanDeviation: 3,
    });
    // Groove position of a deep-groove ring: B / 2 = 8 (3 points, the plan set above); mean 8.001: +1 μm.
    expect(await preview(ir.id, 'raceway-position', [[8.004, 7.998, 8.001]])).toMatchObject({
      nominal: 8,
      meanDeviation: 1,
    });
    // A ring in no bearing's BOM has no groove nominal: no deviation.
    expect(await preview(inner.id, 'raceway-diameter', [[36.47, 36.474, 36.472, 36.476]])).toMatchObject({
      nominal: null,
      meanDeviation: null,
    });
  });

  it('takes an angle only for a product that has one: no 挡边角度 on a 6206 ring, yes on a 30206 cone', async () => {
    const deep = await f.create('material-info', { name: '6206 内圈', spec: '6206' });
    const cone = await f.create('material-info', { name: '30206 内圈', spec: '30206' });
    const angle = (productId: number, characteristic: string) =>
      t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: { ...header(productId, characteristic), values: [{ value: '12.5' }] },
      });
    const refused = await angle(deep.id, 'rib-angle');
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toEqual({
      field: 'characteristic',
      message:
        '「6206 内圈」是深沟球轴承（6206），没有挡边角度；角度只对有该角度的产品录入（如角接触球轴承的接触角、圆锥滚子轴承的挡边角度）',
    });
    expect((await angle(deep.id, 'contact-angle')).status).toBe(400);
    ok(await angle(cone.id, 'rib-angle'));
  });

  it("keeps a reading-set subgroup's sets through the plain edit form; its values cannot change there", async () => {
    const r = ok(
      await t.call('POST', '/api/v1/ring-geometry/add', {
        token,
        body: { ...header(inner.id), rings: [{ readings: RING_A }, { readings: RING_B }] },
      }),
    );
    const info: Record<string, any> = ok(
      await t.call('GET', `/api/v1/measurement-subgroup/info/${r.id}`, { token }),
    );
    const sets = async () =>
      ok(await t.call('GET', '/api/v1/ring-geometry/page', { token, query: { subgroupId: r.id } })).total;
    ok(
      await t.call('PUT', `/api/v1/measurement-subgroup/edit/${r.id}`, {
        token,
        body: { ...info, remark: '复核' },
      }),
    );
    expect(await sets()).toBe(2);
    const after = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${r.id}`, { token }));
    expect(after.remark).toBe('复核');
    expect(after.values.map((v: any) => Number(v.value))).toEqual([29.99225, 29.994]);
    const changed = await t.call('PUT', `/api/v1/measurement-subgroup/edit/${r.id}`, {
      token,
      body: { ...after, values: [{ value: '29.995' }, { value: '29.994' }] },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.errors?.[0].field).toBe('values');
    expect(changed.body.errors?.[0].message).toMatch(/^该子组按读数组录入/);
    const other = await t.call('PUT', `/api/v1/measurement-subgroup/edit/${r.id}`, {
      token,
      body: { ...after, productId: outer.id },
    });
    expect(other.status).toBe(400);
    expect(await sets()).toBe(2);
  });
});
