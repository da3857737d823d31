// 冲销 of a posted 盘点单 (issue 37 §2): the count's differences go back at the amounts they were
// booked at — a 盘亏 comes back in at what it left at, a 盘盈 goes out at what it came in at — so
// the stock stays worth the sum of its ledger amounts. Refused when the 盘盈 has been issued since
// or a later count covered the same stock; idempotent under a retried request; one of two
// simultaneous reversals wins. Every figure is worked out by hand in the comments
// (docs/architecture.md, "Valuation and reversals", has the example).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers.ts';
import { closeStockWorld, issue, ok, openStockWorld, receive, type StockWorld } from './stock-helpers.ts';

let t: TestApp;
let token: string;
let w: StockWorld;
beforeAll(async () => {
  ({ t, token, w } = await openStockWorld());
});
afterAll(() => closeStockWorld(t));

/** A posted count of one material in the main warehouse. */
async function count(materialId: number, countedQuantity: string) {
  const st = ok(
    await t.call('POST', '/api/v1/stocktake/add', {
      token,
      body: { warehouseId: w.warehouseId, bizDate: '2026-11-22', lines: [{ materialId, countedQuantity }] },
    }),
  );
  return ok(await w.post('stocktake', st.id)) as { id: number; docNo: string };
}
const reverse = (id: number, key?: string) =>
  t.call('POST', `/api/v1/stocktake/reverse/${id}`, {
    token,
    headers: key ? { 'idempotency-key': key } : {},
  });

/** Quantity, value and average of the material in the main warehouse, and Σ its ledger amounts. */
async function stock(materialId: number) {
  const r = await sql<{ quantity: string; value: string; avgCost: string; ledger: string }>`
    SELECT v.quantity::text, v.value::text, v.avg_cost::text,
           (SELECT sum(amount) FROM stock_ledger l WHERE l.material_id = v.material_id AND l.warehouse_id = v.warehouse_id)::text AS ledger
      FROM stock_value v WHERE v.material_id = ${materialId} AND v.warehouse_id = ${w.warehouseId}`.execute(
    t.database.db,
  );
  const x = r.rows[0];
  return { quantity: x.quantity, value: x.value, avgCost: x.avgCost, ledger: x.ledger };
}
/** The stocktake's ledger rows: quantity, unit cost, amount, whether a mirror. */
async function rows(id: number) {
  const r = await sql<{ quantity: string; unitCost: string; amount: string; mirror: boolean }>`
    SELECT quantity::text, unit_cost::text, amount::text, reversal_of IS NOT NULL AS mirror FROM stock_ledger
     WHERE doc_type = 'stocktake' AND doc_id = ${id} ORDER BY id`.execute(t.database.db);
  return r.rows.map((x) => [x.quantity, x.unitCost, x.amount, x.mirror]);
}

describe('冲销 of a posted 盘点单', () => {
  it('the worked example: a 盘亏 comes back at the 7.50 it left at, a 盘盈 goes out at its 3.90', async () => {
    const m = await w.material();
    // 100 @ 2.50 = 250.00.
    await receive(w, m.id, 100, '2.5');
    // Counted 97: 盘亏 3 at the average 2.50 = −7.50. 97 worth 242.50.
    const pd1 = await count(m.id, '97');
    expect(await rows(pd1.id)).toEqual([['-3.0000', '2.500000', '-7.50', false]]);
    // 20 @ 3.10 = 62.00: 117 worth 304.50, average 304.50 ÷ 117 = 2.602564.
    await receive(w, m.id, 20, '3.1');
    expect(await stock(m.id)).toMatchObject({ quantity: '117.0000', value: '304.50', avgCost: '2.602564' });

    // 冲销 PD1: the 3 come back at the 7.50 they left at (not 3 × 2.602564 = 7.81): 120 worth
    // 312.00, average 2.60. Sent twice with one Idempotency-Key (a retried click): one reversal.
    const first = ok(await reverse(pd1.id, 'pd1-reverse'));
    expect(first).toMatchObject({ id: pd1.id, status: 'reversed' });
    expect(ok(await reverse(pd1.id, 'pd1-reverse'))).toEqual(first);
    expect(await rows(pd1.id)).toEqual([
      ['-3.0000', '2.500000', '-7.50', false],
      ['3.0000', '2.500000', '7.50', true],
    ]);
    expect(await stock(m.id)).toEqual({
      quantity: '120.0000',
      value: '312.00',
      avgCost: '2.600000',
      ledger: '312.00',
    });
    const again = await reverse(pd1.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`单据 ${pd1.docNo} 已冲销，不能重复冲销`);
    const doc = ok(await t.call('GET', `/api/v1/stocktake/info/${pd1.id}`, { token }));
    expect(doc.status).toBe('reversed');
    expect(doc.reversedAt).toBeTruthy();

    // Counted 121.5: 盘盈 1.5 at 2.60 = 3.90. 121.5 worth 315.90.
    const pd2 = await count(m.id, '121.5');
    expect(await rows(pd2.id)).toEqual([['1.5000', '2.600000', '3.90', false]]);
    // A later count of the same stock finds it right (no difference, no ledger row): it is the
    // books' truth now, so PD2 cannot be taken back before it.
    const pd3 = await count(m.id, '121.5');
    const refused = await reverse(pd2.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `盘点单 ${pd2.docNo} 之后，盘点单 ${pd3.docNo} 又盘点了物料「${m.name}」，请先冲销 ${pd3.docNo}`,
    );
    expect(await stock(m.id)).toMatchObject({ quantity: '121.5000', value: '315.90' });
    // PD3 reversed (nothing to move), then PD2: −1.5 at −3.90, back to 120 worth 312.00.
    expect(ok(await reverse(pd3.id)).status).toBe('reversed');
    ok(await reverse(pd2.id));
    expect(await rows(pd2.id)).toEqual([
      ['1.5000', '2.600000', '3.90', false],
      ['-1.5000', '2.600000', '-3.90', true],
    ]);
    expect(await stock(m.id)).toEqual({
      quantity: '120.0000',
      value: '312.00',
      avgCost: '2.600000',
      ledger: '312.00',
    });

    // Counted 125: 盘盈 5 at 2.60 = 13.00; all 125 issued (−325.00). The 盘盈 has left: refused.
    const pd4 = await count(m.id, '125');
    await issue(w, m.id, 125);
    const gone = await reverse(pd4.id);
    expect(gone.status).toBe(409);
    expect(gone.body.message).toMatch(/^库存不足：.*可用 0，需要 5；盘盈的货物已被发出，无法冲销$/);
    expect(ok(await t.call('GET', `/api/v1/stocktake/info/${pd4.id}`, { token })).status).toBe('posted');
    expect(await stock(m.id)).toMatchObject({ quantity: '0.0000', value: '0.00', ledger: '0.00' });
  });

  it('lets one of two simultaneous reversals through and refuses the other', async () => {
    const m = await w.material();
    // 10 @ 1.00; counted 8: 盘亏 2 = −2.00.
    await receive(w, m.id, 10, '1');
    const pd = await count(m.id, '8');
    const answers = await Promise.all([reverse(pd.id), reverse(pd.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await rows(pd.id)).toEqual([
      ['-2.0000', '1.000000', '-2.00', false],
      ['2.0000', '1.000000', '2.00', true],
    ]);
    expect(await stock(m.id)).toMatchObject({ quantity: '10.0000', value: '10.00', ledger: '10.00' });
  });

  it('needs 冲销 permission on 库存盘点', async () => {
    const m = await w.material();
    await receive(w, m.id, 5, '1');
    const pd = await count(m.id, '4');
    const poster = (await t.userWith(['warehouse:stocktake:list', 'warehouse:stocktake:post'])).token;
    const r = await t.call('POST', `/api/v1/stocktake/reverse/${pd.id}`, { token: poster });
    expect(r.status).toBe(403);
    const reverser = (await t.userWith(['warehouse:stocktake:list', 'warehouse:stocktake:reverse'])).token;
    expect(ok(await t.call('POST', `/api/v1/stocktake/reverse/${pd.id}`, { token: reverser })).status).toBe(
      'reversed',
    );
  });
});
