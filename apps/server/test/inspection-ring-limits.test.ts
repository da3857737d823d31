import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * 计量 inspection items of a ring characteristic take their limits from the bearing ring standard
 * (ISO 492 / GB/T 307.1): derived from the product's class and sizes, tightened by the task's
 * customer, and the item's typed limits only when the product has nothing to derive — each
 * planned item saying where its limits came from.
 */
let t: TestApp;
let token: string;
let f: Factory;
let p6204: Record<string, any>;
let bare: Record<string, any>;
let customer: Record<string, any>;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  // 6204-2RS P6: d = 20, D = 47, B = 14. Standard Δdmp 0/−8 μm, Kia 8 μm, ΔDmp 0/−9 μm.
  p6204 = await f.create('material-info', {
    spec: '6204-2RS P6',
    toleranceClass: 'P6',
    boreDiameter: '20',
    outsideDiameter: '47',
    bearingWidth: '14',
    diameterSeries: '2',
    capped: true,
  });
  bare = await f.create('material-info');
  customer = await f.create('customer');
  for (const o of [
    { characteristic: 'dmp', upperLimit: '0', lowerLimit: '-5' },
    { characteristic: 'Kia', upperLimit: '5' },
  ]) {
    ok(
      await post('/api/v1/ring-standard-override/add', {
        materialId: p6204.id,
        customerId: customer.id,
        reason: '客户图纸要求',
        ...o,
      }),
    );
  }
  const bore = ok(
    await post('/api/v1/inspection-item/add', {
      ...item('RL-D', '内径 Δdmp'),
      ringCharacteristic: 'dmp',
      // The fallback for products without derivable limits: 20 +0.010/−0.020.
      nominal: '20',
      upperTolerance: '0.010',
      lowerTolerance: '-0.020',
      unit: 'mm',
    }),
  );
  const runout = ok(
    await post('/api/v1/inspection-item/add', {
      ...item('RL-K', '内圈径向跳动'),
      ringCharacteristic: 'Kia',
      unit: 'μm',
    }),
  );
  const od = ok(
    await post('/api/v1/inspection-item/add', {
      ...item('RL-OD', '外径 ΔDmp'),
      ringCharacteristic: 'Dmp',
      nominal: '47',
      upperTolerance: '0',
      lowerTolerance: '-0.011',
      unit: 'mm',
    }),
  );
  const look = ok(
    await post('/api/v1/inspection-item/add', {
      code: 'RL-V',
      name: '外观',
      kind: 'count',
      samplingMode: 'fixed',
      sampleSize: 2,
    }),
  );
  ok(
    await post('/api/v1/inspection-template/add', {
      code: 'RL-T',
      name: '出货尺寸检验',
      inspectionKind: 'shipment',
      items: [bore, runout, od, look].map((i) => ({ itemId: i.id })),
    }),
  );
});
afterAll(() => t?.close());

function ok<T = any>(r: { status: number; body: any }): T {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
}
function post(url: string, body: unknown = {}) {
  return t.call('POST', url, { token, body });
}
function item(code: string, name: string) {
  return { code, name, kind: 'measure', samplingMode: 'fixed', sampleSize: 3 };
}
const info = async (id: number) => ok(await t.call('GET', `/api/v1/inspection-task/info/${id}`, { token }));
const task = async (productId: number, extra: Record<string, unknown> = {}) =>
  info(
    ok(
      await post('/api/v1/inspection-task/add', {
        category: 'shipment',
        productId,
        lotQuantity: 50,
        planDate: '2026-11-06',
        ...extra,
      }),
    ).id,
  );
const byTitle = (task: any, title: string) => task.items.find((i: any) => i.itemTitle === title);

describe('检验项目 ▸ 套圈特性', () => {
  it('only a 计量 item names a characteristic, in mm or μm; its typed limits may be left out', async () => {
    const count = await post('/api/v1/inspection-item/add', {
      code: 'RL-X1',
      name: '计数',
      kind: 'count',
      samplingMode: 'fixed',
      sampleSize: 1,
      ringCharacteristic: 'Kia',
    });
    expect(count.status).toBe(400);
    expect(count.body.errors?.[0]).toMatchObject({ field: 'ringCharacteristic' });
    expect(count.body.message).toMatch(/只有计量项目/);
    const hrc = await post('/api/v1/inspection-item/add', {
      ...item('RL-X2', '硬度'),
      ringCharacteristic: 'dmp',
      unit: 'HRC',
    });
    expect(hrc.status).toBe(400);
    expect(hrc.body.errors?.[0]).toMatchObject({ field: 'unit' });
    const half = await post('/api/v1/inspection-item/add', {
      ...item('RL-X3', '半填'),
      ringCharacteristic: 'dmp',
      nominal: '20',
    });
    expect(half.status).toBe(400);
    expect(half.body.errors?.[0]).toMatchObject({ field: 'upperTolerance' });
    const bad = await post('/api/v1/inspection-item/add', {
      ...item('RL-X4', '错'),
      ringCharacteristic: 'X',
    });
    expect(bad.status).toBe(400);
    // Without a characteristic the typed limits stay required.
    const plain = await post('/api/v1/inspection-item/add', item('RL-X5', '无限值'));
    expect(plain.status).toBe(400);
    expect(plain.body.errors?.[0]).toMatchObject({ field: 'nominal' });
  });
});

describe('planned limits', () => {
  it('a product with class and sizes gets the derived limits, converted to the item unit', async () => {
    const x = await task(p6204.id);
    expect(x.customerId).toBeNull();
    expect(byTitle(x, '内径 Δdmp')).toMatchObject({
      ringCharacteristic: 'dmp',
      lowerLimit: '19.9920',
      upperLimit: '20.0000',
      unit: 'mm',
      limitSource: 'standard',
      limitNote: expect.stringMatching(/Δdmp .*表4 6级内圈（18 < d ≤ 30）/),
    });
    // A runout is a maximum: no lower limit; the item reads μm.
    expect(byTitle(x, '内圈径向跳动')).toMatchObject({
      lowerLimit: null,
      upperLimit: '8.0000',
      unit: 'μm',
      limitSource: 'standard',
    });
    expect(byTitle(x, '外径 ΔDmp')).toMatchObject({
      lowerLimit: '46.9910',
      upperLimit: '47.0000',
      limitSource: 'standard',
      limitNote: expect.stringMatching(/ΔDmp .*表5 6级外圈（30 < D ≤ 50）/),
    });
    expect(byTitle(x, '外观')).toMatchObject({ lowerLimit: null, upperLimit: null, limitSource: null });
  });

  it('a characteristic the tables do not hold for the size: the typed limits, saying why', async () => {
    // P6 outer rings are tabled up to D = 150 mm only; the inner ring (d = 100) is.
    const big = await f.create('material-info', {
      spec: '6220 P6',
      toleranceClass: 'P6',
      boreDiameter: '100',
      outsideDiameter: '180',
      bearingWidth: '34',
      diameterSeries: '2',
    });
    const x = await task(big.id);
    expect(byTitle(x, '外径 ΔDmp')).toMatchObject({
      lowerLimit: '46.9890',
      upperLimit: '47.0000',
      limitSource: 'typed',
      limitNote: expect.stringMatching(/^标准无可推导的限值（ΔDmp .*），按检验项目手填值/),
    });
    expect(byTitle(x, '内径 Δdmp')).toMatchObject({ lowerLimit: '99.9850', limitSource: 'standard' });
  });

  it('with a customer who tightens them, the tightened limits', async () => {
    const x = await task(p6204.id, { customerId: customer.id });
    expect(x.customerId).toBe(customer.id);
    expect(byTitle(x, '内径 Δdmp')).toMatchObject({
      lowerLimit: '19.9950',
      upperLimit: '20.0000',
      limitSource: 'override',
      limitNote: expect.stringMatching(/客户收严.*客户图纸要求/),
    });
    expect(byTitle(x, '内圈径向跳动')).toMatchObject({ upperLimit: '5.0000', limitSource: 'override' });
    // The values are judged against the tightened limits: 19.994 is in the standard, not for this customer.
    const d = byTitle(x, '内径 Δdmp');
    const judged = ok(
      await t.call('PUT', `/api/v1/inspection-task/results/${x.id}`, {
        token,
        body: { results: [{ taskItemId: d.id, sampleNo: 1, value: '19.994' }] },
      }),
    );
    expect(judged.results[0].conform).toBe(false);
    expect(judged.items.find((i: any) => i.id === d.id)).toMatchObject({ limitSource: 'override' });
    // Another customer, without requirements: the standard.
    const other = await f.create('customer');
    const y = await task(p6204.id, { customerId: other.id });
    expect(byTitle(y, '内径 Δdmp')).toMatchObject({ lowerLimit: '19.9920', limitSource: 'standard' });
  });

  it('a 销售出库 brings its customer: the shipment inspection has the tightened limits', async () => {
    const warehouseId = (await f.create('warehouse-management', { type: 'finished', status: '1' })).id;
    ok(
      await post(
        `/api/v1/stock-inbound/post/${
          ok(
            await post('/api/v1/stock-inbound/add', {
              type: 'other',
              warehouseId,
              bizDate: '2026-11-05',
              lines: [{ materialId: p6204.id, quantity: 30 }],
            }),
          ).id
        }`,
      ),
    );
    const out = ok(
      await post('/api/v1/stock-outbound/add', {
        type: 'sales',
        warehouseId,
        customerId: customer.id,
        bizDate: '2026-11-06',
        lines: [{ materialId: p6204.id, quantity: 10 }],
      }),
    );
    const { ids } = ok(await post(`/api/v1/inspection-task/for-outbound/${out.id}`));
    const x = await info(ids[0]);
    expect(x).toMatchObject({ sourceType: 'stock-outbound', customerId: customer.id });
    expect(byTitle(x, '内径 Δdmp')).toMatchObject({ lowerLimit: '19.9950', limitSource: 'override' });
  });

  it('a product without class and sizes falls back to the typed limits, saying so', async () => {
    const x = await task(bare.id, { customerId: customer.id });
    expect(byTitle(x, '内径 Δdmp')).toMatchObject({
      lowerLimit: '19.9800',
      upperLimit: '20.0100',
      limitSource: 'typed',
      limitNote: expect.stringMatching(/未填写公差等级.*按检验项目手填值/),
    });
    expect(byTitle(x, '内圈径向跳动')).toMatchObject({
      lowerLimit: null,
      upperLimit: null,
      limitSource: 'typed',
      limitNote: expect.stringMatching(/检验项目也未填写限值/),
    });
  });

  it('changing the task customer re-plans the limits', async () => {
    const x = await task(p6204.id);
    ok(
      await t.call('PUT', `/api/v1/inspection-task/edit/${x.id}`, {
        token,
        body: { customerId: customer.id, version: x.version },
      }),
    );
    expect(byTitle(await info(x.id), '内径 Δdmp')).toMatchObject({
      lowerLimit: '19.9950',
      limitSource: 'override',
    });
  });
});
