import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factory, factory } from './factories.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { type StockWorld, stockInvariantViolations, stockWorld } from './stock-helpers.ts';

/**
 * 选配 over HTTP (issue 38 §4): size groups of the measured ring cards in stock, the proposal for
 * a 6204 in CN, its acceptance for a bearing card (rings recorded, genealogy reaching their
 * measurements), the monthly yield and its export; validation and permissions.
 *
 * Worked by hand (the same example as the domain test): CN for d = 20 mm is 5 … 20 µm
 * (ISO 5753-1 / GB/T 4604.1). Inner grooves 25.5610, 25.5615 (group 25.560～25.562) and 25.5633
 * (25.562～25.564); outer grooves 41.4540 (41.454～41.456), 41.4571 (41.456～41.458) and 41.4700
 * (41.470～41.472); balls Φ7.938 with grades −2 … +2 µm. A 41.454 × 25.560 pair spans
 * (16 − 2g, 20 − 2g) µm of clearance with grade g, so g = +2 gives 12 … 16; the 41.470 ring spans
 * (32 − 2g, 36 − 2g) and fits no grade. Two bearings, one inner ring and the 41.470 ring left.
 */
let t: TestApp;
let token: string;
let f: Factory;
let w: StockWorld;
let bearing: any;
let innerCard: any;
let outerCard: any;
let bearingCard: { id: number; docNo: string };

const ok = <T = any>(r: { status: number; body: any }): T => {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as T;
};

const INNER = ['25.5610', '25.5615', '25.5633'];
const OUTER = ['41.4540', '41.4571', '41.4700'];

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login();
  f = factory(t, async () => token);
  w = await stockWorld(t, f, token);
  const db = t.database.db;
  const userId = ok(await t.call('GET', '/api/v1/sso/getUserByToken', { token })).userId;
  bearing = await f.create('material-info', { name: '深沟球轴承 6204-2RS', spec: '6204-2RS' });
  const inner = await f.create('material-info', { name: '6204 内圈', spec: 'd20' });
  const outer = await f.create('material-info', { name: '6204 外圈', spec: 'D47' });
  const ball = await f.create('material-info', { name: '轴承钢球', spec: 'G10 Φ7.938 (5/16")' });
  await sql`UPDATE material SET part_type = 'bearing', bore_diameter = 20, outside_diameter = 47 WHERE id = ${bearing.id}`.execute(
    db,
  );
  await sql`UPDATE material SET part_type = 'inner', bore_diameter = 20, outside_diameter = 47 WHERE id = ${inner.id}`.execute(
    db,
  );
  await sql`UPDATE material SET part_type = 'outer', bore_diameter = 20, outside_diameter = 47 WHERE id = ${outer.id}`.execute(
    db,
  );
  await f.create('product-bom', {
    productId: bearing.id,
    status: 'active',
    lines: [
      { materialId: inner.id, quantity: 1, unitId: inner.unitId },
      { materialId: outer.id, quantity: 1, unitId: outer.unitId },
      { materialId: ball.id, quantity: 8, unitId: ball.unitId },
    ],
  });
  // Ring cards (the ring lots) and a bearing card, on a released order's card (开卡 made it).
  const card = await f.create('flow-card');
  const mk = async (productId: number, docNo: string, quantity: number) => {
    const r = await sql<{ id: number }>`
      INSERT INTO flow_card (doc_no, status, production_order_id, product_id, quantity, origin, created_by, updated_by)
      VALUES (${docNo}, 'completed', ${card.productionOrderId}, ${productId}, ${quantity}, 'open', ${userId}, ${userId})
      RETURNING id`.execute(db);
    return { id: Number(r.rows[0].id), docNo };
  };
  innerCard = await mk(inner.id, 'LZ-IR-0001', 3);
  outerCard = await mk(outer.id, 'LZ-OR-0001', 3);
  bearingCard = await mk(bearing.id, 'LZ-BR-0001', 10);
  await sql`UPDATE flow_card SET status = 'open' WHERE id = ${bearingCard.id}`.execute(db);
  // The order requires the rings (10 of each), so the matched ones can be issued to it.
  await sql`
    INSERT INTO production_order_material (production_order_id, line_no, material_id, unit_id, required_quantity)
    VALUES (${card.productionOrderId}, 91, ${inner.id}, ${inner.unitId}, 10),
           (${card.productionOrderId}, 92, ${outer.id}, ${outer.unitId}, 10)`.execute(db);
  // In stock, qualified, under the card numbers.
  const doc = await w.inbound(
    [
      { materialId: inner.id, quantity: 3, batchNo: innerCard.docNo },
      { materialId: outer.id, quantity: 3, batchNo: outerCard.docNo },
    ],
    { type: 'other' },
  );
  ok(await w.post('stock-inbound', doc.id));
  // Their groove diameters, one subgroup of three rings per card.
  const equipment = await f.create('equipment');
  for (const [c, values] of [
    [innerCard, INNER],
    [outerCard, OUTER],
  ] as const)
    ok(
      await t.call('POST', '/api/v1/measurement-subgroup/add', {
        token,
        body: {
          productId: c === innerCard ? inner.id : outer.id,
          characteristic: 'raceway-diameter',
          equipmentId: equipment.id,
          operatorId: userId,
          measuredAt: '2026-11-20 08:00:00',
          flowCardId: c.id,
          lsl: c === innerCard ? '25.55' : '41.44',
          usl: c === innerCard ? '25.57' : '41.48',
          values: values.map((value) => ({ value })),
        },
      }),
    );
}, 120_000);
afterAll(() => t?.close());

describe('选配', () => {
  it('groups the measured rings in stock by groove diameter', async () => {
    const g = ok(
      await t.call('GET', '/api/v1/ring-matching/groups', { token, query: { bearingId: bearing.id } }),
    );
    expect(g.bearing).toMatchObject({ boreMm: 20, ballMm: 7.938 });
    expect(g.inner.rings).toBe(3);
    expect(g.inner.grooveGroups).toEqual([
      { label: '25.560～25.562', count: 2 },
      { label: '25.562～25.564', count: 1 },
    ]);
    expect(g.outer.grooveGroups).toEqual([
      { label: '41.454～41.456', count: 1 },
      { label: '41.456～41.458', count: 1 },
      { label: '41.470～41.472', count: 1 },
    ]);
    expect(g.outer.lots).toEqual([{ cardId: outerCard.id, cardNo: 'LZ-OR-0001', rings: 3 }]);
    const options = ok(await t.call('GET', '/api/v1/ring-matching/bearings', { token }));
    expect(options.find((b: any) => b.id === bearing.id)).toMatchObject({ innerRings: 3, outerRings: 3 });
    const cards = ok(
      await t.call('GET', '/api/v1/ring-matching/cards', { token, query: { bearingId: bearing.id } }),
    );
    expect(cards).toEqual([
      { id: bearingCard.id, docNo: 'LZ-BR-0001', quantity: 10, orderNo: expect.any(String), matched: 0 },
    ]);
  });

  it('takes no more sets of a ball grade than its balls in stock fill (8 balls a 6204)', async () => {
    const propose = (ballStock: unknown) =>
      t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'CN', ballStock },
      });
    // Both CN sets take +2 µm balls (next test): 12 of them fill ⌊12 / 8⌋ = 1 bearing, and no other grade is in stock.
    const one = ok(await propose([{ gradeUm: 2, quantity: 12 }]));
    expect(one.assembled).toBe(1);
    expect(one.ballStock).toEqual([
      { gradeUm: -2, quantity: 0, sets: 0, used: 0 },
      { gradeUm: -1, quantity: 0, sets: 0, used: 0 },
      { gradeUm: 0, quantity: 0, sets: 0, used: 0 },
      { gradeUm: 1, quantity: 0, sets: 0, used: 0 },
      { gradeUm: 2, quantity: 12, sets: 1, used: 1 },
    ]);
    expect(one.leftover.outer.reduce((a: number, g: any) => a + g.count, 0)).toBe(2);
    // 16 balls: both bearings; none in stock: none; unlimited (no ballStock): both.
    expect(ok(await propose([{ gradeUm: 2, quantity: 16 }])).assembled).toBe(2);
    expect(ok(await propose([])).assembled).toBe(0);
    const twice = await propose([
      { gradeUm: 2, quantity: 16 },
      { gradeUm: 2, quantity: 8 },
    ]);
    expect(twice.status).toBe(400);
    expect(JSON.stringify(twice.body)).toContain('同一规值的钢球库存只能填一行');
    const negative = await propose([{ gradeUm: 2, quantity: -8 }]);
    expect(negative.status).toBe(400);
  });

  it('proposes two 6204 CN bearings and leaves the 41.470 ring', async () => {
    const p = ok(
      await t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'CN' },
      }),
    );
    expect(p.clearance).toEqual({ min: 5, max: 20 });
    expect(p.offered).toEqual({ inner: 3, outer: 3 });
    expect(p.assembled).toBe(2);
    expect(p.yieldPercent).toBe(66.7);
    for (const s of p.sets) {
      expect(s.ballGradeUm).toBe(2);
      expect(s.ballMm).toBe(7.94);
      expect(s.clearanceLowUm).toBeGreaterThanOrEqual(5);
      expect(s.clearanceHighUm).toBeLessThanOrEqual(20);
    }
    expect(p.leftover.outer).toEqual([{ label: '41.470～41.472', count: 1 }]);
    expect(p.leftover.inner.reduce((a: number, g: any) => a + g.count, 0)).toBe(1);
    // C2 (0 … 10 µm) needs a ball 5 µm over the nominal: none of −2 … +2; with +6 µm both pairs fit.
    const c2 = ok(
      await t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'C2' },
      }),
    );
    expect(c2.assembled).toBe(0);
    const c2big = ok(
      await t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'C2', ballGradesUm: [5, 6] },
      }),
    );
    expect(c2big.assembled).toBe(2);
  });

  it('refuses bad input with Chinese field errors, and users without the permission', async () => {
    const bad = await t.call('POST', '/api/v1/ring-matching/propose', {
      token,
      body: { bearingId: bearing.id, clearanceGroup: 'C9', groupWidthUm: 0.05, extra: 1 },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.errors)).toMatch(/游隙组别/);
    const notBearing = await t.call('POST', '/api/v1/ring-matching/propose', {
      token,
      body: {
        bearingId: innerCard.id === 0 ? 1 : (await f.create('material-info')).id,
        clearanceGroup: 'CN',
      },
    });
    expect(notBearing.status).toBe(400);
    expect(notBearing.body.message).toMatch(/不是轴承成品/);
    // The 报工 a matching is recorded by must be an assembly report on that card.
    expect(
      ok(
        await t.call('GET', '/api/v1/ring-matching/reports', {
          token,
          query: { flowCardId: bearingCard.id },
        }),
      ),
    ).toEqual([]);
    const noReport = await t.call('POST', '/api/v1/ring-matching/accept', {
      token,
      body: {
        bearingId: bearing.id,
        clearanceGroup: 'CN',
        flowCardId: bearingCard.id,
        workReportId: 999_999,
      },
    });
    expect(noReport.status).toBe(400);
    expect(noReport.body.message).toMatch(/报工单不存在/);
    const reader = await t.userWith(['production:assemblyMatching:list']);
    const denied = await t.call('POST', '/api/v1/ring-matching/accept', {
      token: reader.token,
      body: { bearingId: bearing.id, clearanceGroup: 'CN', flowCardId: bearingCard.id },
    });
    expect(denied.status).toBe(403);
    const nobody = await t.userWith([]);
    expect(
      (
        await t.call('GET', '/api/v1/ring-matching/groups', {
          token: nobody.token,
          query: { bearingId: bearing.id },
        })
      ).status,
    ).toBe(403);
  });

  it('accepts the proposal for the bearing card: rings recorded, genealogy reaching their measurements', async () => {
    const a = ok(
      await t.call('POST', '/api/v1/ring-matching/accept', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'CN', flowCardId: bearingCard.id, remark: '首批选配' },
      }),
    );
    expect(a.assembled).toBe(2);
    expect(a.issues).toHaveLength(1);
    const info = ok(await t.call('GET', `/api/v1/ring-matching/info/${a.id}`, { token }));
    expect(info.cardNo).toBe('LZ-BR-0001');
    expect(info.sets.reduce((s: number, x: any) => s + x.count, 0)).toBe(2);
    const rings = await sql<{ role: string; n: number }>`
      SELECT role, count(*)::int AS n FROM ring_match_ring WHERE ring_match_id = ${a.id} GROUP BY role ORDER BY role`.execute(
      t.database.db,
    );
    expect(rings.rows).toEqual([
      { role: 'inner', n: 2 },
      { role: 'outer', n: 2 },
    ]);
    // The bearing card's trace reaches both ring cards and their groove measurements.
    const trace = ok(await t.call('GET', `/api/v1/trace/card/${bearingCard.id}`, { token }));
    const ringCards = trace.cards.filter((c: any) => c.depth === 1).map((c: any) => c.docNo);
    expect(ringCards.sort()).toEqual(['LZ-IR-0001', 'LZ-OR-0001']);
    const own = trace.cards.find((c: any) => c.id === bearingCard.id);
    expect(own.ringMatches.reduce((s: number, x: any) => s + x.count, 0)).toBe(2);
    expect(own.ringMatches[0]).toMatchObject({ clearanceGroup: 'CN', ballGradeUm: 2 });
    expect(own.ringMatches[0].lots).toMatch(/LZ-IR-0001×\d、LZ-OR-0001×\d/);
    expect(trace.links.filter((l: any) => l.kind === 'matching')).toHaveLength(2);
    const measured = trace.cards.find((c: any) => c.docNo === 'LZ-OR-0001').measurements;
    expect(measured[0].values).toBe('41.454 / 41.4571 / 41.47');
    // The matched rings are no longer on offer: one of each side is, and they make no set.
    const again = ok(
      await t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'CN' },
      }),
    );
    expect(again.offered).toEqual({ inner: 1, outer: 1 });
    expect(again.assembled).toBe(0);
    const none = await t.call('POST', '/api/v1/ring-matching/accept', {
      token,
      body: { bearingId: bearing.id, clearanceGroup: 'CN', flowCardId: bearingCard.id },
    });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/配不出/);
    expect(await stockInvariantViolations(t.database.db)).toEqual([]);
  });

  it('issues the matched rings from stock: a 领料出库 draft of the ring cards for the order', async () => {
    const db = t.database.db;
    const match = await sql<{ id: number }>`
      SELECT id FROM ring_match WHERE flow_card_id = ${bearingCard.id} ORDER BY id LIMIT 1`.execute(db);
    const docs = await sql<{ id: number; status: string; productionOrderId: number; remark: string }>`
      SELECT id, status, production_order_id, remark FROM stock_outbound
       WHERE type = 'requisition' AND remark LIKE ${'%流转卡 LZ-BR-0001%'}`.execute(db);
    expect(docs.rows).toHaveLength(1);
    expect(docs.rows[0].status).toBe('draft');
    expect(match.rows[0]).toBeDefined();
    const lines = ok(await t.call('GET', `/api/v1/stock-outbound/info/${docs.rows[0].id}`, { token })).lines;
    // Two rings were matched from each card: each card's number is its line's batch.
    expect(
      lines.map((l: any) => [l.batchNo, Number(l.quantity)]).sort((a: any, b: any) => (a[0] < b[0] ? -1 : 1)),
    ).toEqual([
      ['LZ-IR-0001', 2],
      ['LZ-OR-0001', 2],
    ]);
    // Posted by the keeper: the rings leave the store against the order's requirement, one ring
    // of each card stays in stock and on offer.
    ok(await w.post('stock-outbound', Number(docs.rows[0].id)));
    const issued = await sql<{ n: string }>`
      SELECT sum(issued_quantity)::int::text AS n FROM production_order_material WHERE line_no IN (91, 92)
         AND production_order_id = (SELECT production_order_id FROM flow_card WHERE id = ${bearingCard.id})`.execute(
      db,
    );
    expect(issued.rows[0].n).toBe('4');
    const again = ok(
      await t.call('POST', '/api/v1/ring-matching/propose', {
        token,
        body: { bearingId: bearing.id, clearanceGroup: 'CN' },
      }),
    );
    expect(again.offered).toEqual({ inner: 1, outer: 1 });
    expect(await stockInvariantViolations(db)).toEqual([]);
  });

  it('answers an assembly 报工 its 选配 for the 报工 pages, readable with the 报工 list permission', async () => {
    const clerk = await t.userWith(['production:reportRecord:list']);
    const none = ok(await t.call('GET', '/api/v1/ring-matching/by-report/999999', { token: clerk.token }));
    expect(none).toEqual([]);
    const nobody = await t.userWith(['sale:order:list']);
    expect(
      (await t.call('GET', '/api/v1/ring-matching/by-report/999999', { token: nobody.token })).status,
    ).toBe(403);
  });

  it('reports the matching yield per month and exports it', async () => {
    const month = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' })
      .format(new Date())
      .slice(0, 7);
    const y = ok(
      await t.call('GET', '/api/v1/ring-matching/yield', { token, query: { from: month, to: month } }),
    );
    expect(y.rows).toEqual([
      { month, matches: 1, innerOffered: 3, outerOffered: 3, offered: 3, assembled: 2, yieldPercent: 66.7 },
    ]);
    const x = ok(
      await t.call('GET', '/api/v1/ring-matching/yield/export', { token, query: { from: month, to: month } }),
    );
    expect(x.rows).toBe(1);
    const bad = await t.call('GET', '/api/v1/ring-matching/yield', {
      token,
      query: { from: '2026-13', to: month },
    });
    expect(bad.status).toBe(400);
    const list = ok(
      await t.call('GET', '/api/v1/ring-matching/page', { token, query: { bearingId: bearing.id } }),
    );
    expect(list.total).toBe(1);
  });
});
