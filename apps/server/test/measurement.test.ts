import crypto from 'node:crypto';
import { capability, controlLimits, pooledSigma, seriesViolations } from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spcChart } from '../src/modules/quality/measurement.ts';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/** 测量记录 and SPC over HTTP: entry, gauge import, chart figures, alarms once, permissions. */
let t: TestApp;
let token: string;
let f: Factory;
let product: any;
let equipment: any;
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
  equipment = await f.create('equipment');
  adminId = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
});
afterAll(() => t?.close());

/** Montgomery Example 6.1 piston rings (25 subgroups of 5): see packages/domain/src/quality/spc.test.ts. */
const PISTON_RINGS = [
  '74.030,74.002,74.019,73.992,74.008',
  '73.995,73.992,74.001,74.011,74.004',
  '73.988,74.024,74.021,74.005,74.002',
  '74.002,73.996,73.993,74.015,74.009',
  '73.992,74.007,74.015,73.989,74.014',
  '74.009,73.994,73.997,73.985,73.993',
  '73.995,74.006,73.994,74.000,74.005',
  '73.985,74.003,73.993,74.015,73.988',
  '74.008,73.995,74.009,74.005,74.004',
  '73.998,74.000,73.990,74.007,73.995',
  '73.994,73.998,73.994,73.995,73.990',
  '74.004,74.000,74.007,74.000,73.996',
  '73.983,74.002,73.998,73.997,74.012',
  '74.006,73.967,73.994,74.000,73.984',
  '74.012,74.014,73.998,73.999,74.007',
  '74.000,73.984,74.005,73.998,73.996',
  '73.994,74.012,73.986,74.005,74.007',
  '74.006,74.010,74.018,74.003,74.000',
  '73.984,74.002,74.003,74.005,73.997',
  '74.000,74.010,74.013,74.020,74.003',
  '73.988,74.001,74.009,74.005,73.996',
  '74.004,73.999,73.990,74.006,74.009',
  '74.010,73.989,73.990,74.009,74.014',
  '74.015,74.008,73.993,74.000,74.010',
  '73.982,73.984,73.995,74.017,74.013',
];

function multipart(parts: { name: string; value: string | Buffer; fileName?: string }[]) {
  const boundary = `----ringmes${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.fileName ? `; filename="${p.fileName}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function importCsv(csv: string | Buffer, meta: Record<string, unknown>, as = token) {
  const body = multipart([
    {
      name: 'meta',
      value: JSON.stringify({
        productId: product.id,
        characteristic: 'outside-diameter',
        equipmentId: equipment.id,
        operatorId: adminId,
        subgroupSize: 5,
        valueColumns: [1, 2, 3, 4, 5],
        timeColumn: 0,
        lsl: 73.95,
        usl: 74.05,
        ...meta,
      }),
    },
    { name: 'file', value: csv, fileName: 'gauge.csv' },
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/measurement-subgroup/importValues',
    headers: { ...body.headers, authorization: `Bearer ${as}` },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const csvOf = (rows: string[], day = '2026-11-02') =>
  [
    '时间,X1,X2,X3,X4,X5',
    ...rows.map(
      (r, i) =>
        `${day} ${String(8 + Math.floor(i / 6)).padStart(2, '0')}:${String((i % 6) * 10).padStart(2, '0')}:00,${r}`,
    ),
  ].join('\r\n');

const chartQuery = (extra: Record<string, unknown> = {}) => ({
  family: 'neiwaijing',
  characteristic: 'outside-diameter',
  equipmentId: equipment.id,
  productId: product.id,
  from: '2026-11-01',
  to: '2026-11-30',
  ...extra,
});

describe('entry of a subgroup', () => {
  it('keeps size, mean and range exactly beside the values', async () => {
    const r = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: {
          productId: product.id,
          characteristic: 'bore-diameter',
          equipmentId: equipment.id,
          operatorId: adminId,
          measuredAt: '2026-11-20 09:00:00',
          lsl: '19.990',
          usl: '20.000',
          values: [{ value: '19.9951' }, { value: '19.9962' }, { value: '19.9948' }],
        },
      }),
    );
    const info = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${r.id}`, { token }));
    expect(info.sampleSize).toBe(3);
    expect(info.mean).toBe('19.995367');
    expect(info.range).toBe('0.001400');
    // Readings are kept to six decimals (a gauge writes up to five).
    expect(info.values.map((v: any) => v.value)).toEqual(['19.995100', '19.996200', '19.994800']);
  });

  it('refuses bad input with field errors', async () => {
    const base = {
      productId: product.id,
      characteristic: 'outside-diameter',
      equipmentId: equipment.id,
      operatorId: adminId,
      measuredAt: '2026-11-20 09:00:00',
    };
    const swapped = await t.call('POST', '/api/v1/measurement-subgroup/add', {
      token,
      body: { ...base, lsl: '47', usl: '46.9', values: [{ value: '47' }] },
    });
    expect(swapped.status).toBe(400);
    expect(swapped.body.errors?.[0].field).toBe('usl');
    const tooMany = await t.call('POST', '/api/v1/measurement-subgroup/add', {
      token,
      body: { ...base, values: Array.from({ length: 26 }, () => ({ value: '47' })) },
    });
    expect(tooMany.status).toBe(400);
    const notNumber = await t.call('POST', '/api/v1/measurement-subgroup/add', {
      token,
      body: { ...base, values: [{ value: 'abc' }] },
    });
    expect(notNumber.status).toBe(400);
    const none = await t.call('POST', '/api/v1/measurement-subgroup/add', {
      token,
      body: { ...base, values: [] },
    });
    expect(none.status).toBe(400);
  });
});

describe('gauge import', () => {
  it('reports bad rows by row number and imports nothing', async () => {
    const rows = [...PISTON_RINGS.slice(0, 3)];
    rows[1] = '73.995,73.992,x,74.011,74.004';
    const r = await importCsv(csvOf(rows), {});
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: '第3行', message: '第 4 列「x」不是数字' }]);
    const badTime = await importCsv(`时间,X1,X2,X3,X4,X5\r\n2026-13-45 08:00,${PISTON_RINGS[0]}`, {});
    expect(badTime.status).toBe(400);
    expect(badTime.body.errors?.[0].field).toBe('第2行');
    const page = ok(
      await t.call('GET', '/api/v1/measurement-subgroup/page', {
        token,
        query: { characteristic: 'outside-diameter', equipmentId: equipment.id },
      }),
    );
    expect(page.total).toBe(0);
  });

  it('previews without importing (dry run)', async () => {
    const r = ok(await importCsv(csvOf(PISTON_RINGS), { dryRun: true }));
    expect(r).toMatchObject({ rows: 25, subgroups: 25, values: 125, imported: 0, errors: [] });
    expect(r.preview[0]).toEqual(['时间', 'X1', 'X2', 'X3', 'X4', 'X5']);
  });

  it('imports one value column in consecutive subgroups', async () => {
    const one = ['值', ...PISTON_RINGS.slice(0, 2).flatMap((r) => r.split(','))].join('\n');
    const r = ok(
      await importCsv(one, {
        characteristic: 'raceway-diameter',
        valueColumns: [0],
        timeColumn: null,
        measuredAt: '2026-11-03 10:00:00',
      }),
    );
    expect(r).toMatchObject({ subgroups: 2, values: 10, imported: 2 });
  });

  it('reads GBK and GB18030 gauge files and keeps 5-decimal readings exactly', async () => {
    // GB 2312 / GBK code table: 时 CA B1, 间 BC E4, 外 CD E2, 径 BE B6; GB 18030 four-byte µ 81 30 85 38.
    const header = Buffer.from([
      0xca, 0xb1, 0xbc, 0xe4, 0x2c, 0xcd, 0xe2, 0xbe, 0xb6, 0x28, 0x81, 0x30, 0x85, 0x38, 0x6d, 0x29,
    ]);
    const body = Buffer.from('\r\n2026-11-04 08:00:00,13.95125,13.94987,13.95003,13.95240,13.94895\r\n');
    const file = Buffer.concat([header, body]);
    const meta = { characteristic: 'ring-height', lsl: 13.88, usl: 14.0 };
    const dry = ok(await importCsv(file, { ...meta, dryRun: true }));
    expect(dry).toMatchObject({ rows: 1, values: 5, encoding: 'gb18030', errors: [] });
    expect(dry.preview[0]).toEqual(['时间', '外径(µm)']);
    // Named explicitly, GBK reads the same; UTF-8 forced shows replacement characters instead.
    expect(ok(await importCsv(file, { ...meta, dryRun: true, encoding: 'gbk' })).preview[0][0]).toBe('时间');
    expect(ok(await importCsv(file, { ...meta, dryRun: true, encoding: 'utf-8' })).preview[0][0]).not.toBe(
      '时间',
    );
    const r = ok(await importCsv(file, meta));
    expect(r).toMatchObject({ subgroups: 1, values: 5, imported: 1 });
    const stored = await sql<{ values: string[]; mean: string; range: string }>`
      SELECT array_agg(v.value::text ORDER BY v.line_no) AS values, s.mean::text AS mean, s.range::text AS range
        FROM measurement_subgroup s JOIN measurement_value v ON v.measurement_subgroup_id = s.id
       WHERE s.characteristic = 'ring-height' AND s.equipment_id = ${equipment.id} GROUP BY s.id`.execute(
      t.database.db,
    );
    // By hand: Σ = 69.75250, mean 13.950500; range 13.95240 − 13.94895 = 0.00345.
    expect(stored.rows).toEqual([
      {
        values: ['13.951250', '13.949870', '13.950030', '13.952400', '13.948950'],
        mean: '13.950500',
        range: '0.003450',
      },
    ]);
  });
});

describe('chart and capability', () => {
  it('answers the figures of the pure engine (Montgomery Example 6.1)', async () => {
    ok(await importCsv(csvOf(PISTON_RINGS), {}));
    const chart = ok(await t.call('GET', '/api/v1/spc/chart', { token, query: chartQuery() }));
    const groups = PISTON_RINGS.map((r) => r.split(',').map(Number)).map((g) => {
      const mean = g.reduce((s, v) => s + v, 0) / g.length;
      return {
        n: g.length,
        mean,
        range: Math.max(...g) - Math.min(...g),
        ssDev: g.reduce((s, v) => s + (v - mean) ** 2, 0),
      };
    });
    const limits = controlLimits(groups, 5);
    const pooled = pooledSigma(groups);
    const cap = capability({
      mean: pooled.mean,
      sigmaWithin: limits.sigmaWithin,
      sigmaOverall: pooled.sigma,
      lsl: 73.95,
      usl: 74.05,
    });
    expect(chart.kind).toBe('xbar-r');
    expect(chart.subgroups).toBe(25);
    expect(chart.count).toBe(125);
    for (const k of ['center', 'ucl', 'lcl', 'rCenter', 'rUcl', 'sigmaWithin'] as const)
      expect(chart.limits[k]).toBeCloseTo(limits[k], 9);
    for (const k of ['cp', 'cpk', 'pp', 'ppk'] as const)
      expect(chart.capability[k]).toBeCloseTo(cap[k] as number, 9);
    expect(chart.limits.center.toFixed(5)).toBe('74.00118');
    expect(chart.capability.cp.toPrecision(3)).toBe('1.70');
    expect(chart.capability.cpk.toPrecision(3)).toBe('1.66');
    expect(chart.violations.length).toBe(seriesViolations(groups, limits).length);
    expect(chart.histogram.bins.reduce((s: number, b: any) => s + b.count, 0)).toBe(125);
    // The bins counted from the readings' tally are the bins of every reading, each counted where
    // its value falls by hand (from ≤ v < to), and the same as counting reading by reading.
    const readings = PISTON_RINGS.flatMap((r) => r.split(',').map(Number));
    const byHand = chart.histogram.bins.map(
      (b: any) => readings.filter((v) => v >= b.from && v < b.to).length,
    );
    expect(chart.histogram.bins.map((b: any) => b.count)).toEqual(byHand);
    const q = { ...chartQuery(), equipmentId: Number(equipment.id), productId: Number(product.id) } as any;
    const oneByOne = await spcChart(t.database.db, q, { tallyMax: 0 });
    expect(oneByOne.empty ? null : oneByOne.histogram).toEqual(chart.histogram);
    expect(chart.lsl).toBe(73.95);
    const capOnly = ok(await t.call('GET', '/api/v1/spc/capability', { token, query: chartQuery() }));
    expect(capOnly.capability.cpk).toBeCloseTo(cap.cpk as number, 9);
  });

  it('validates the query', async () => {
    const wrongFamily = await t.call('GET', '/api/v1/spc/chart', {
      token,
      query: chartQuery({ family: 'track' }),
    });
    expect(wrongFamily.status).toBe(400);
    expect(wrongFamily.body.errors?.[0].field).toBe('characteristic');
    const backwards = await t.call('GET', '/api/v1/spc/chart', {
      token,
      query: chartQuery({ from: '2026-12-01' }),
    });
    expect(backwards.status).toBe(400);
    const empty = ok(
      await t.call('GET', '/api/v1/spc/chart', {
        token,
        query: chartQuery({ from: '2025-01-01', to: '2025-01-31' }),
      }),
    );
    expect(empty.empty).toBe(true);
  });
});

describe('out-of-control alarms', () => {
  it('messages the quality role once per new violation, never on viewing', async () => {
    const qc = await t.userWith(['report:innerOuterMeasure:query']);
    await sql`UPDATE role SET role_key = 'quality' WHERE id = ${qc.roleId}`.execute(t.database.db);
    const messages = async () =>
      ok(await t.call('GET', '/api/v1/message/page', { token: qc.token, query: { kind: 'spc' } }))
        .total as number;
    expect(await messages()).toBe(0);
    const add = (value: string, at: string) =>
      t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: {
          productId: product.id,
          characteristic: 'outside-diameter',
          equipmentId: equipment.id,
          operatorId: adminId,
          measuredAt: at,
          values: Array.from({ length: 5 }, () => ({ value })),
        },
      });
    const outlier = ok(await add('74.060', '2026-11-05 08:00:00'));
    expect(await messages()).toBe(1);
    const info = ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${outlier.id}`, { token }));
    expect(info.outOfControl).toBe(true);
    ok(await t.call('GET', '/api/v1/spc/chart', { token: qc.token, query: chartQuery() }));
    ok(await add('74.001', '2026-11-05 09:00:00'));
    expect(await messages()).toBe(1);
    const chart = ok(await t.call('GET', '/api/v1/spc/chart', { token, query: chartQuery() }));
    expect(chart.violations.some((v: any) => v.subgroupId === outlier.id && v.rule === 1)).toBe(true);
    // The report page opens on the series of the family's latest alarm.
    const latest = ok(
      await t.call('GET', '/api/v1/spc/latest-alarm', { token: qc.token, query: { family: 'neiwaijing' } }),
    );
    expect(latest).toMatchObject({
      characteristic: 'outside-diameter',
      equipmentId: equipment.id,
      productId: product.id,
    });
    // A time the browser reads (the page's period starts 42 days before it): the alarm's own instant.
    expect(Number.isNaN(Date.parse(latest.measuredAt))).toBe(false);
    expect(Date.parse(latest.measuredAt)).toBe(Date.parse(info.measuredAt));
    expect((await t.call('GET', '/api/v1/spc/latest-alarm', { token, query: { family: 'x' } })).status).toBe(
      400,
    );
  });
});

describe('permissions and the flow card', () => {
  it('refuses users without the permission', async () => {
    const reader = await t.userWith(['measure:outsideDiameter:list']);
    const add = await t.call('POST', '/api/v1/measurement-subgroup/add', { token: reader.token, body: {} });
    expect(add.status).toBe(403);
    const imp = await importCsv(csvOf(PISTON_RINGS.slice(0, 1)), {}, reader.token);
    expect(imp.status).toBe(403);
    const track = await t.userWith(['report:trackMeasure:query']);
    const other = await t.call('GET', '/api/v1/spc/chart', { token: track.token, query: chartQuery() });
    expect(other.status).toBe(403);
    const nobody = await t.userWith([]);
    expect(
      (await t.call('GET', '/api/v1/spc/chart', { token: nobody.token, query: chartQuery() })).status,
    ).toBe(403);
  });

  it("lists a flow card's measurements", async () => {
    const card = await f.create('flow-card');
    const m = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: {
          productId: card.productId,
          characteristic: 'ring-height',
          equipmentId: equipment.id,
          operatorId: adminId,
          measuredAt: '2026-11-21 10:00:00',
          flowCardId: card.id,
          values: [{ value: '14.001' }, { value: '13.999' }, { value: '14.000' }],
        },
      }),
    );
    const list = ok(await t.call('GET', `/api/v1/flow-card/measurements/${card.id}`, { token }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: m.id,
      characteristicName: '套圈高度',
      values: '14.001000 / 13.999000 / 14.000000',
    });
    expect((await t.call('GET', '/api/v1/flow-card/measurements/999999', { token })).status).toBe(404);
  });
});

describe('SPC alarm holds the measured flow card', () => {
  it('holds the card of an out-of-control subgroup and releases it when its 过程检验 passes', async () => {
    const machine = await f.create('equipment');
    const card = await f.create('flow-card');
    // The series is of the card's product: a subgroup names a card of the product it measures.
    const add = (values: string[], at: string, flowCardId?: number) =>
      t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: {
          productId: card.productId,
          characteristic: 'outside-diameter',
          equipmentId: machine.id,
          operatorId: adminId,
          measuredAt: at,
          ...(flowCardId ? { flowCardId } : {}),
          values: values.map((value) => ({ value })),
        },
      });
    for (const [i, row] of PISTON_RINGS.entries())
      ok(await add(row.split(','), `2026-11-10 ${String(i % 24).padStart(2, '0')}:00:00`));
    // An in-control subgroup on the card holds nothing.
    ok(await add(PISTON_RINGS[1].split(','), '2026-11-11 08:00:00', card.id));
    let info = ok(await t.call('GET', `/api/v1/flow-card/info/${card.id}`, { token }));
    expect(info.held).toBe(false);

    const outlier = ok(await add(Array(5).fill('74.060'), '2026-11-11 09:00:00', card.id));
    expect(
      ok(await t.call('GET', `/api/v1/measurement-subgroup/info/${outlier.id}`, { token })).outOfControl,
    ).toBe(true);
    info = ok(await t.call('GET', `/api/v1/flow-card/info/${card.id}`, { token }));
    expect(info.held).toBe(true);
    expect(info.holdReason).toMatch(/^SPC 失控：.*外径（规则1）$/);

    // One 过程检验 task (来源 SPC 失控) for the card; a second alarm adds none.
    const tasks = async () =>
      ok(
        await t.call('GET', '/api/v1/inspection-task/page', {
          token,
          query: { pageNum: 1, pageSize: 50, flowCardId: card.id },
        }),
      ).list as any[];
    let list = await tasks();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ category: 'process', sourceType: 'spc', status: 'pending' });
    ok(await add(Array(5).fill('74.070'), '2026-11-11 10:00:00', card.id));
    list = await tasks();
    expect(list).toHaveLength(1);

    // Released by the same path as a 不合格 hold: the card's inspection passes.
    ok(await t.call('POST', `/api/v1/inspection-task/start/${list[0].id}`, { token, body: {} }));
    ok(await t.call('POST', `/api/v1/inspection-task/pass/${list[0].id}`, { token, body: {} }));
    info = ok(await t.call('GET', `/api/v1/flow-card/info/${card.id}`, { token }));
    expect(info).toMatchObject({ held: false, holdReason: null });
  });
});

describe('specification limits from the ring standard', () => {
  it('derives the limits of a standard characteristic; typed different limits need a reason', async () => {
    // 6204-2RS P6: d = 20 (P6 inner 18 < d ≤ 30: Δdmp 0/−8 μm).
    const p6204 = await f.create('material-info', {
      toleranceClass: 'P6',
      boreDiameter: '20',
      outsideDiameter: '47',
      bearingWidth: '14',
      diameterSeries: '2',
      capped: true,
    });
    const machine = await f.create('equipment');
    const body = (extra: Record<string, unknown>) => ({
      productId: p6204.id,
      characteristic: 'bore-diameter',
      equipmentId: machine.id,
      operatorId: adminId,
      measuredAt: '2026-11-12 08:00:00',
      values: [{ value: '19.996' }, { value: '19.995' }, { value: '19.997' }],
      ...extra,
    });
    const derived = ok(await t.call('POST', '/api/v1/measurement-subgroup/add', { token, body: body({}) }));
    expect(derived).toMatchObject({ lsl: '19.9920', usl: '20.0000', specSource: 'standard' });
    const refused = await t.call('POST', '/api/v1/measurement-subgroup/add', {
      token,
      body: body({ lsl: '19.990', usl: '20.000' }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({ field: 'specReason' });
    expect(refused.body.errors?.[0].message).toContain('19.9920 ~ 20.0000');
    const same = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: body({ lsl: '19.992', usl: '20' }),
      }),
    );
    expect(same.specSource).toBe('standard');
    const override = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: body({ lsl: '19.994', usl: '20.000', specReason: '客户图纸收严' }),
      }),
    );
    expect(override).toMatchObject({ lsl: '19.9940', specSource: 'override', specReason: '客户图纸收严' });
    // The outside diameter: P6 outer ring 30 < D ≤ 50, ΔDmp 0/−9 μm.
    const od = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: body({
          characteristic: 'outside-diameter',
          values: [{ value: '46.996' }, { value: '46.995' }],
        }),
      }),
    );
    expect(od).toMatchObject({ lsl: '46.9910', usl: '47.0000', specSource: 'standard' });
    // Not a characteristic of the standard: typed limits are kept as typed.
    const race = ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: body({
          characteristic: 'raceway-diameter',
          lsl: '26.990',
          usl: '27.010',
          values: [{ value: '27.001' }],
        }),
      }),
    );
    expect(race.specSource).toBe('typed');
  });

  it('answers the standard limits before a subgroup is saved (the entry grid shows them as values are typed)', async () => {
    // 6205 outer ring P6: D = 52 (P6 outer 50 < D ≤ 80: ΔDmp 0/−11 μm) → 51.9890 ~ 52.0000.
    const ring = await f.create('material-info', {
      toleranceClass: 'P6',
      boreDiameter: '25',
      outsideDiameter: '52',
      bearingWidth: '15',
      diameterSeries: '2',
    });
    const spec = (characteristic: string, productId = ring.id, as = token) =>
      t.call('GET', '/api/v1/measurement-subgroup/spec', {
        token: as,
        query: { productId, characteristic },
      });
    expect(ok(await spec('outside-diameter'))).toMatchObject({
      lsl: '51.9890',
      usl: '52.0000',
      symbol: 'ΔDmp',
      nominal: '52',
      lowerUm: -11,
      upperUm: 0,
    });
    expect(ok(await spec('bore-diameter'))).toMatchObject({ lsl: '24.9920', usl: '25.0000' });
    // Not one of the standard's characteristics: nothing to show, the limits are typed.
    expect(ok(await spec('raceway-diameter'))).toBeNull();
    expect((await spec('outside-diameter', 99_999_999)).status).toBe(404);
    expect((await spec('x')).status).toBe(400);
    const reader = await t.userWith(['measure:outsideDiameter:list']);
    expect((await spec('outside-diameter', ring.id, reader.token)).status).toBe(403);
  });
});
