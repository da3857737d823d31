import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';

/**
 * Inspection items fit the part and the step (issue 35): a 检验模板 of a product × process step is
 * the step's item set, each line with the size its drawing gives for that step. The 6205 outer
 * ring's 车外圈 checks its outside diameter D turned with grinding allowance (52.40 ±0.05), never
 * the bearing's bore d nor the finished P6 limits; its inner ring checks d (24.60 ±0.05); 超精
 * checks the raceway's Ra and roundness; the finished sizes keep their ISO 492 limits.
 */
let t: TestApp;
let token: string;
let f: Factory;
let outer: Record<string, any>;
let inner: Record<string, any>;
let bearing: Record<string, any>;
let turn: Record<string, any>;
let superfinish: Record<string, any>;
let grindRaceway: Record<string, any>;
const item: Record<string, Record<string, any>> = {};

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};
const post = (url: string, body: unknown = {}) => t.call('POST', url, { token, body });
const get = (url: string, query?: Record<string, unknown>) => t.call('GET', url, { token, query }).then(ok);
const refused = (r: { status: number; body: any }, field: string, message: RegExp | string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.errors?.[0]?.field).toBe(field);
  expect(r.body.errors?.[0]?.message).toMatch(message);
};

/** A 6205 part: d 25, D 52, B 15, P6, series 2. */
const part = (partType: string, spec: string) =>
  f.create('material-info', {
    spec,
    partType,
    toleranceClass: 'P6',
    boreDiameter: '25',
    outsideDiameter: '52',
    bearingWidth: '15',
    diameterSeries: '2',
  });

const measure = (code: string, name: string, extra: Record<string, unknown>) =>
  post('/api/v1/inspection-item/add', {
    code,
    name,
    kind: 'measure',
    samplingMode: 'fixed',
    sampleSize: 3,
    status: '1',
    ...extra,
  }).then(ok);

const template = (body: Record<string, unknown>) =>
  post('/api/v1/inspection-template/add', { inspectionKind: 'reporting', status: '1', ...body });

const task = async (body: Record<string, unknown>) =>
  get(
    `/api/v1/inspection-task/info/${
      ok(
        await post('/api/v1/inspection-task/add', {
          category: 'machine-reporting',
          lotQuantity: 20,
          planDate: '2026-11-06',
          ...body,
        }),
      ).id
    }`,
  );
const titles = (x: any) => x.items.map((i: any) => i.itemTitle);
const byTitle = (x: any, title: string) => x.items.find((i: any) => i.itemTitle === title);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  outer = await part('outer', '6205 外圈 P6');
  inner = await part('inner', '6205 内圈 P6');
  bearing = await part('bearing', '6205-2RS/P6');
  turn = await f.create('process-manage', { name: '车外圈' });
  grindRaceway = await f.create('process-manage', { name: '磨沟道' });
  superfinish = await f.create('process-manage', { name: '超精' });
  item.bore = await measure('ST-D', '内径 d', { ringCharacteristic: 'dmp', unit: 'mm' });
  item.od = await measure('ST-DD', '外径 D', { ringCharacteristic: 'Dmp', unit: 'mm' });
  item.width = await measure('ST-B', '宽度', { ringCharacteristic: 'Bs', unit: 'mm' });
  item.raceway = await measure('ST-RW', '沟道直径', { feature: 'raceway', unit: 'mm' });
  item.ra = await measure('ST-RA', '沟道粗糙度 Ra', { feature: 'raceway-roughness', unit: 'μm' });
  item.round = await measure('ST-RR', '沟道圆度', { feature: 'raceway-roundness', unit: 'μm' });
  item.clearance = await measure('ST-GR', '径向游隙', { feature: 'radial-clearance', unit: 'μm' });
  item.look = ok(
    await post('/api/v1/inspection-item/add', {
      code: 'ST-V',
      name: '外观',
      kind: 'count',
      samplingMode: 'fixed',
      sampleSize: 2,
      status: '1',
    }),
  );
});
afterAll(() => t?.close());

describe('检验项目 ▸ 测量部位', () => {
  it('an item measuring a part feature may leave its typed limits out; its characteristic must agree', async () => {
    expect(item.raceway).toMatchObject({ feature: 'raceway', nominal: null });
    refused(
      await post('/api/v1/inspection-item/add', {
        code: 'ST-X',
        name: '内径',
        kind: 'measure',
        samplingMode: 'fixed',
        sampleSize: 1,
        ringCharacteristic: 'dmp',
        feature: 'outside',
        unit: 'mm',
      }),
      'feature',
      /Δdmp 测量的是内径 d，与测量部位「外径 D」不一致/,
    );
  });
});

describe('检验模板: the step item set of a product × process', () => {
  it("an outer ring's set refuses the bore d, an inner ring's the outside diameter D", async () => {
    refused(
      await template({
        code: 'ST-T1',
        name: '外圈车削',
        productId: outer.id,
        processId: turn.id,
        items: [{ itemId: item.bore.id }],
      }),
      'items.0.itemId',
      '「内径 d」测量内径 d，属于内圈、成套轴承，外圈没有该部位（外圈检外径 D、宽度和沟道）',
    );
    refused(
      await template({
        code: 'ST-T2',
        name: '内圈车削',
        productId: inner.id,
        processId: turn.id,
        items: [{ itemId: item.look.id }, { itemId: item.od.id }],
      }),
      'items.1.itemId',
      /内圈没有该部位/,
    );
    refused(
      await template({
        code: 'ST-T3',
        name: '套圈游隙',
        productId: outer.id,
        processId: turn.id,
        items: [{ itemId: item.clearance.id }],
      }),
      'items.0.itemId',
      /属于成套轴承/,
    );
  });

  it('at turning the finished limits are refused: each size carries its own size with grinding allowance', async () => {
    const base = {
      code: 'ST-T4',
      name: '外圈车外圈',
      productId: outer.id,
      processId: turn.id,
      sizeStage: 'turning',
    };
    refused(
      await template({ ...base, items: [{ itemId: item.od.id }] }),
      'items.0.upperTolerance',
      /车削工序检车削尺寸.*成品公差在磨削后才适用/,
    );
    refused(
      await template({
        ...base,
        items: [{ itemId: item.od.id, nominal: '52', upperTolerance: '0.05', lowerTolerance: '-0.05' }],
      }),
      'items.0.allowance',
      /须含磨削留量/,
    );
    refused(
      await template({
        ...base,
        items: [
          {
            itemId: item.od.id,
            nominal: '52.3',
            allowance: '0.4',
            upperTolerance: '0.05',
            lowerTolerance: '-0.05',
          },
        ],
      }),
      'items.0.nominal',
      '「外径 D」的本工序尺寸应为 52 + 0.4 = 52.4（成品尺寸加留量），填写的是 52.3',
    );
    // A raceway has no size on the product: the drawing's.
    refused(
      await template({
        ...base,
        items: [
          { itemId: item.raceway.id, allowance: '0.4', upperTolerance: '0.05', lowerTolerance: '-0.05' },
        ],
      }),
      'items.0.nominal',
      /请填写本工序的名义尺寸/,
    );
  });
});

describe('the inspection task of a step uses its item set', () => {
  let outerTurning: Record<string, any>;
  beforeAll(async () => {
    // The nominal of D and of the width are left blank: filled from the product's size and the allowance.
    outerTurning = ok(
      await template({
        code: 'ST-OR-TURN',
        name: '6205 外圈 车外圈检验',
        productId: outer.id,
        processId: turn.id,
        sizeStage: 'turning',
        items: [
          { itemId: item.od.id, allowance: '0.40', upperTolerance: '0.05', lowerTolerance: '-0.05' },
          { itemId: item.width.id, allowance: '0.30', upperTolerance: '0.05', lowerTolerance: '-0.05' },
          {
            itemId: item.raceway.id,
            nominal: '46.038',
            allowance: '0.40',
            upperTolerance: '0.05',
            lowerTolerance: '-0.05',
          },
          { itemId: item.look.id },
        ],
      }),
    );
  });

  it('fills the turning nominal: D 52 + 0.40 = 52.40, width 15 + 0.30 = 15.30', async () => {
    const saved = await get(`/api/v1/inspection-template/info/${outerTurning.id}`);
    expect(saved.sizeStage).toBe('turning');
    expect(saved.items.map((l: any) => l.nominal)).toEqual(['52.4000', '15.3000', '46.0380', null]);
  });

  it("a report of 车外圈 on the outer ring checks D at 52.35–52.45 from the drawing, never d nor P6's 51.989–52", async () => {
    const machine = await f.create('workshop', { type: 'machine' });
    const steel = await f.create('material-info');
    await f.create('product-bom', {
      productId: outer.id,
      status: 'active',
      lines: [{ materialId: steel.id, quantity: 1, unitId: steel.unitId }],
    });
    await f.create('process-route', {
      productId: outer.id,
      status: 'active',
      steps: [
        {
          seq: 10,
          processId: turn.id,
          workshopId: machine.id,
          standardMinutes: '2',
          inspectionRequired: true,
        },
      ],
    });
    const order = ok(
      await post('/api/v1/production-order/add', {
        productId: outer.id,
        quantity: 50,
        plannedStartDate: '2026-11-02',
        dueDate: '2026-11-09',
      }),
    );
    ok(await post(`/api/v1/production-order/release/${order.id}`));
    const { tasks } = ok(await post(`/api/v1/production-order/dispatch/${order.id}`));
    const { cards } = ok(
      await post(`/api/v1/flow-card/open/${order.id}`, { batchSize: 50, heatNo: 'H6205' }),
    );
    const op = await t.userWith(['production:lathingOperatorTask:list']);
    const { dispatches } = ok(
      await post(`/api/v1/workshop-task/dispatch/${tasks[0].id}`, {
        lines: [{ operatorId: op.userId, quantity: 50, workDate: '2026-11-03', shift: 'day' }],
      }),
    );
    ok(await post(`/api/v1/work-dispatch/start/${dispatches[0].id}`));
    const report = ok(
      await post('/api/v1/work-report/add', {
        dispatchId: dispatches[0].id,
        flowCardId: cards[0].id,
        reportDate: '2026-11-04',
        goodQuantity: 10,
      }),
    );
    ok(await post(`/api/v1/work-report/submit/${report.id}`));
    expect(ok(await post(`/api/v1/work-report/approve/${report.id}`)).status).toBe('inspecting');
    const page = await get('/api/v1/inspection-task/page', {
      category: 'machine-reporting',
      productId: outer.id,
    });
    const first = await get(`/api/v1/inspection-task/info/${page.list[0].id}`);
    expect(first).toMatchObject({ checkKind: 'first', templateId: outerTurning.id, processId: turn.id });
    expect(titles(first)).toEqual(['外径 D', '宽度', '沟道直径', '外观']);
    expect(byTitle(first, '外径 D')).toMatchObject({
      nominal: '52.4000',
      lowerLimit: '52.3500',
      upperLimit: '52.4500',
      limitSource: 'drawing',
      unit: 'mm',
    });
    expect(byTitle(first, '外径 D').limitNote).toMatch(
      /^车削尺寸（含磨量） 52\.4 ±0\.05 mm（成品 52 \+ 留量 0\.4）/,
    );
    // The outer ring's width is ΔCs; turned 15.30 ±0.05.
    expect(byTitle(first, '宽度')).toMatchObject({
      ringCharacteristic: 'Cs',
      lowerLimit: '15.2500',
      upperLimit: '15.3500',
    });
    // The raceway is an internal surface: turned smaller than its finished 46.438.
    expect(byTitle(first, '沟道直径').limitNote).toMatch(/46\.038 ±0\.05 mm（成品 46\.438 − 留量 0\.4）/);

    // A piece turned to size passes; judged by the finished P6 limits it would have failed.
    const d = byTitle(first, '外径 D');
    const judged = ok(
      await t.call('PUT', `/api/v1/inspection-task/results/${first.id}`, {
        token,
        body: { results: [{ taskItemId: d.id, sampleNo: 1, value: '52.41' }] },
      }),
    );
    expect(judged.results[0].conform).toBe(true);
    expect(judged.basis).toMatchObject({
      sizeStage: 'turning',
      partType: 'outer',
      templateId: outerTurning.id,
    });

    // A 过程检验 (patrol) at that step checks the same item set.
    const patrol = await task({ category: 'process', productId: outer.id, processId: turn.id });
    expect(patrol.templateId).toBe(outerTurning.id);
    expect(titles(patrol)).toEqual(['外径 D', '宽度', '沟道直径', '外观']);
  });

  it("an inner ring's turning checks its bore d turned small: 25 − 0.40 = 24.60", async () => {
    ok(
      await template({
        code: 'ST-IR-TURN',
        name: '6205 内圈 车内圈检验',
        productId: inner.id,
        processId: turn.id,
        sizeStage: 'turning',
        items: [
          { itemId: item.bore.id, allowance: '0.40', upperTolerance: '0.05', lowerTolerance: '-0.05' },
          { itemId: item.look.id },
        ],
      }),
    );
    const x = await task({ productId: inner.id, processId: turn.id });
    expect(titles(x)).toEqual(['内径 d', '外观']);
    expect(byTitle(x, '内径 d')).toMatchObject({
      nominal: '24.6000',
      lowerLimit: '24.5500',
      upperLimit: '24.6500',
      limitSource: 'drawing',
    });
  });

  it('超精 checks the raceway: Ra ≤ 0.05 μm and roundness ≤ 1.5 μm, no lower limit', async () => {
    ok(
      await template({
        code: 'ST-OR-SF',
        name: '6205 外圈 超精检验',
        productId: outer.id,
        processId: superfinish.id,
        sizeStage: 'final',
        items: [
          { itemId: item.ra.id, nominal: '0', upperTolerance: '0.05' },
          { itemId: item.round.id, nominal: '0', upperTolerance: '1.5' },
          { itemId: item.look.id },
        ],
      }),
    );
    const x = await task({ category: 'grinding-reporting', productId: outer.id, processId: superfinish.id });
    expect(titles(x)).toEqual(['沟道粗糙度 Ra', '沟道圆度', '外观']);
    expect(byTitle(x, '沟道粗糙度 Ra')).toMatchObject({
      lowerLimit: null,
      upperLimit: '0.0500',
      unit: 'μm',
      limitSource: 'drawing',
    });
    expect(byTitle(x, '沟道粗糙度 Ra').limitNote).toMatch(/^成品尺寸 ≤ 0\.05 μm/);
    expect(byTitle(x, '沟道圆度')).toMatchObject({ lowerLimit: null, upperLimit: '1.5000' });
  });

  it('ground sizes left to the standard take the finished ISO 492 limits of the part’s own ring', async () => {
    ok(
      await template({
        code: 'ST-OR-GR',
        name: '6205 外圈 磨沟道检验',
        productId: outer.id,
        processId: grindRaceway.id,
        sizeStage: 'grinding',
        items: [
          {
            itemId: item.raceway.id,
            nominal: '46.434',
            allowance: '0.004',
            upperTolerance: '0.010',
            lowerTolerance: '-0.010',
          },
          { itemId: item.od.id },
          { itemId: item.width.id },
        ],
      }),
    );
    const x = await task({ category: 'grinding-reporting', productId: outer.id, processId: grindRaceway.id });
    expect(byTitle(x, '沟道直径')).toMatchObject({ lowerLimit: '46.4240', upperLimit: '46.4440' });
    // P6 outer ring, 50 < D ≤ 80: ΔDmp 0/−11 μm; ΔCs (= ΔBs) 0/−120 μm.
    expect(byTitle(x, '外径 D')).toMatchObject({
      lowerLimit: '51.9890',
      upperLimit: '52.0000',
      limitSource: 'standard',
    });
    expect(byTitle(x, '宽度')).toMatchObject({ ringCharacteristic: 'Cs', lowerLimit: '14.8800' });
  });

  it('a generic set gives each part only its own items', async () => {
    const other = await f.create('process-manage', { name: '尺寸检测' });
    ok(
      await template({
        code: 'ST-GEN',
        name: '通用尺寸检验',
        processId: other.id,
        items: [item.bore, item.od, item.ra, item.clearance, item.look].map((i) => ({ itemId: i.id })),
      }),
    );
    const of = async (p: Record<string, any>) =>
      titles(await task({ category: 'inspect-reporting', productId: p.id, processId: other.id }));
    expect(await of(outer)).toEqual(['外径 D', '沟道粗糙度 Ra', '外观']);
    expect(await of(inner)).toEqual(['内径 d', '沟道粗糙度 Ra', '外观']);
    expect(await of(bearing)).toEqual(['内径 d', '外径 D', '径向游隙', '外观']);
    // A product without a part type keeps every item, as before.
    const plain = await f.create('material-info');
    expect(await of(plain)).toEqual(['内径 d', '外径 D', '沟道粗糙度 Ra', '径向游隙', '外观']);
  });
});

describe('the drawing a step set comes from', () => {
  it("must be the product's or the process's; the task's entry screen names it", async () => {
    const foreign = await f.create('technical-document', { title: '别的产品图纸', docType: 'drawing' });
    const base = {
      code: 'ST-DOC',
      name: '外圈成品检验',
      productId: outer.id,
      processId: superfinish.id,
      sizeStage: 'final',
      inspectionKind: 'process',
      items: [{ itemId: item.od.id }],
    };
    const wrong = await template({ ...base, technicalDocumentId: foreign.id });
    refused(wrong, 'technicalDocumentId', `技术文档 ${foreign.docNo} 不属于本模板的产品或工序`);
    const drawing = await f.create('technical-document', {
      title: '6205 外圈零件图',
      docType: 'drawing',
      materialId: outer.id,
    });
    const saved = ok(await template({ ...base, technicalDocumentId: drawing.id }));
    expect(saved.technicalDocumentName).toBe('6205 外圈零件图');
    const x = await task({ category: 'process', productId: outer.id, processId: superfinish.id });
    const results = await get(`/api/v1/inspection-task/results/${x.id}`);
    expect(results.basis).toMatchObject({
      templateId: saved.id,
      sizeStage: 'final',
      partType: 'outer',
      document: { id: drawing.id, docNo: drawing.docNo, title: '6205 外圈零件图' },
    });
  });
});
