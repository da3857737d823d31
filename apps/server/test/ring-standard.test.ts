import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 轴承套圈标准 over HTTP: the table rows, a product's derived limits with their sources, customer
 * tightenings (refused when looser than the standard) and the permissions.
 */
let t: TestApp;
let token: string;
let f: Factory;
let p6204: Record<string, any>;
let customer: Record<string, any>;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  // 6204-2RS P6: d = 20, D = 47, B = 14, diameter series 2, sealed.
  p6204 = await f.create('material-info', {
    spec: '6204-2RS P6',
    toleranceClass: 'P6',
    boreDiameter: '20',
    outsideDiameter: '47',
    bearingWidth: '14',
    diameterSeries: '2',
    capped: true,
  });
  customer = await f.create('customer');
});
afterAll(() => t?.close());

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const limits = async (productId: number, customerId?: number, as = token) =>
  t.call('GET', '/api/v1/bearing-ring-standard/limits', {
    token: as,
    query: { productId, ...(customerId ? { customerId } : {}) },
  });
const byCode = (r: any, code: string) => r.limits.find((l: any) => l.code === code);

describe('standard rows', () => {
  it('filters by ring type, class and diameter; each row names its source', async () => {
    const r = ok(
      await t.call('GET', '/api/v1/bearing-ring-standard/rows', {
        token,
        query: { ringType: 'inner', toleranceClass: 'P6', diameter: 20 },
      }),
    );
    expect(r.total).toBe(1);
    expect(r.list[0]).toMatchObject({
      ringType: 'inner',
      toleranceClass: 'P6',
      over: 18,
      incl: 30,
      meanDeviation: { upper: 0, lower: -8 },
      radialRunout: 8,
      source: { standard: expect.stringContaining('GB/T 307.1'), table: expect.stringMatching(/^表4/) },
    });
    const all = ok(await t.call('GET', '/api/v1/bearing-ring-standard/rows', { token }));
    expect(all.total).toBeGreaterThan(60);
  });
  it('refuses a bad filter in Chinese', async () => {
    const r = await t.call('GET', '/api/v1/bearing-ring-standard/rows', {
      token,
      query: { toleranceClass: 'P9' },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/公差等级/);
  });
});

describe('derived limits', () => {
  it('derives 6204-2RS P6 from its class and sizes, each value with its source', async () => {
    const r = ok(await limits(p6204.id));
    expect(r.product).toMatchObject({ toleranceClass: 'P6', d: 20, D: 47, B: 14, diameterSeries: '2' });
    expect(byCode(r, 'dmp')).toMatchObject({ nominal: 20, upper: 0, lower: -8, available: true });
    expect(byCode(r, 'dmp').sourceText).toMatch(/表4 6级内圈（18 < d ≤ 30）/);
    expect(byCode(r, 'Vdsp')).toMatchObject({ upper: 6, lower: null });
    expect(byCode(r, 'Kia').upper).toBe(8);
    expect(byCode(r, 'Bs')).toMatchObject({ nominal: 14, upper: 0, lower: -120 });
    expect(byCode(r, 'Dmp')).toMatchObject({ nominal: 47, upper: 0, lower: -9, available: true });
    expect(byCode(r, 'Dmp').sourceText).toMatch(/表5 6级外圈（30 < D ≤ 50）/);
    expect(byCode(r, 'Kea').upper).toBe(10);
    expect(r.limits).toHaveLength(12);
  });
  it('answers 400 naming what a product without sizes lacks', async () => {
    const bare = await f.create('material-info');
    const r = await limits(bare.id);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/未填写公差等级、内径 d、外径 D、宽度 B/);
    expect((await limits(99999999)).status).toBe(404);
  });
  it('a product with a class needs its sizes, the bore inside the outside diameter', async () => {
    const r = await t.call('POST', '/api/v1/material-info/add', {
      token,
      body: {
        ...(await f.body((await import('@ringmes/domain')).materialInfoResource)),
        toleranceClass: 'P0',
        boreDiameter: '50',
        outsideDiameter: '40',
        bearingWidth: '10',
      },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/外径 D 必须大于内径 d/);
  });
});

describe('customer tightening', () => {
  const add = (body: Record<string, unknown>, as = token) =>
    t.call('POST', '/api/v1/ring-standard-override/add', {
      token: as,
      body: { materialId: p6204.id, customerId: customer.id, reason: '客户图纸要求', ...body },
    });

  it('refuses limits looser than the standard with a clear Chinese 400', async () => {
    const upper = await add({ characteristic: 'dmp', upperLimit: '2', lowerLimit: '-5' });
    expect(upper.status).toBe(400);
    expect(upper.body.message).toMatch(/上偏差 2 μm 比标准 0 μm 宽松，客户要求只能收严/);
    expect(upper.body.errors?.[0]?.field).toBe('upperLimit');
    const lower = await add({ characteristic: 'dmp', upperLimit: '0', lowerLimit: '-9' });
    expect(lower.status).toBe(400);
    expect(lower.body.message).toMatch(/下偏差 -9 μm 比标准 -8 μm 宽松/);
    const kia = await add({ characteristic: 'Kia', upperLimit: '9' });
    expect(kia.status).toBe(400);
    expect(kia.body.message).toMatch(/Kia 最大值 9 μm 比标准 8 μm 宽松/);
    // P6 outer rings are tabled up to D = 150 mm: a 6220 (D = 180) has no ΔDmp to tighten.
    const p6220 = await f.create('material-info', {
      toleranceClass: 'P6',
      boreDiameter: '100',
      outsideDiameter: '180',
      bearingWidth: '34',
      diameterSeries: '2',
    });
    const missing = await add({
      materialId: p6220.id,
      characteristic: 'Dmp',
      upperLimit: '0',
      lowerLimit: '-5',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/标准中没有 ΔDmp 的数值/);
    const noReason = await t.call('POST', '/api/v1/ring-standard-override/add', {
      token,
      body: { materialId: p6204.id, customerId: customer.id, characteristic: 'Kia', upperLimit: '5' },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors?.[0]?.field).toBe('reason');
  });

  it('applies a tighter limit for that customer only, keeping the standard beside it', async () => {
    const o = ok(await add({ characteristic: 'dmp', upperLimit: '0', lowerLimit: '-5' }));
    ok(await add({ characteristic: 'Kia', upperLimit: '5' }));
    const dup = await add({ characteristic: 'dmp', upperLimit: '0', lowerLimit: '-6' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/已有收严要求/);

    const r = ok(await limits(p6204.id, customer.id));
    expect(byCode(r, 'dmp')).toMatchObject({ upper: 0, lower: -5, standardUpper: 0, standardLower: -8 });
    expect(byCode(r, 'dmp').override).toMatchObject({ applied: true, reason: '客户图纸要求' });
    expect(byCode(r, 'dmp').sourceText).toMatch(/^客户收严/);
    expect(byCode(r, 'Kia')).toMatchObject({ upper: 5, standardUpper: 8 });
    // Without the customer, or for another one: the standard.
    expect(byCode(ok(await limits(p6204.id)), 'dmp').lower).toBe(-8);
    const other = await f.create('customer');
    expect(byCode(ok(await limits(p6204.id, other.id)), 'dmp').lower).toBe(-8);

    // Editing to a looser value is refused too.
    const looser = await t.call('PUT', `/api/v1/ring-standard-override/edit/${o.id}`, {
      token,
      body: { lowerLimit: '-10', version: 1 },
    });
    expect(looser.status).toBe(400);
    const list = ok(
      await t.call('GET', '/api/v1/bearing-ring-standard/overrides', {
        token,
        query: { productId: p6204.id },
      }),
    );
    expect(list.map((x: any) => x.symbol).sort()).toEqual(['Kia', 'Δdmp']);
  });
});

describe('permissions', () => {
  it('needs 轴承套圈标准 to read and its add permission to tighten', async () => {
    const none = (await t.userWith([])).token;
    expect((await limits(p6204.id, undefined, none)).status).toBe(403);
    expect((await t.call('GET', '/api/v1/bearing-ring-standard/rows', { token: none })).status).toBe(403);
    const reader = (await t.userWith(['quality:ringStandard:list'])).token;
    expect((await limits(p6204.id, undefined, reader)).status).toBe(200);
    const r = await t.call('POST', '/api/v1/ring-standard-override/add', {
      token: reader,
      body: {
        materialId: p6204.id,
        customerId: customer.id,
        characteristic: 'Vdmp',
        upperLimit: '4',
        reason: '试',
      },
    });
    expect(r.status).toBe(403);
  });
});
