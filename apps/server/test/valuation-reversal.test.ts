// Stock valuation that adds up (issue 37 §2): reversals mirror the original ledger rows at their
// own amounts and the average follows from quantity and value, so the stock is worth the sum of
// its ledger amounts per material and warehouse at every step. Every figure below is worked out
// by hand in the comments; docs/architecture.md, "Valuation and reversals", has the same example.
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

const reverse = async (kind: string, id: number) =>
  ok(await t.call('POST', `/api/v1/${kind}/reverse/${id}`, { token }));

/** The material's moves in one warehouse, oldest first. */
async function moves(materialId: number, warehouseId = w.warehouseId) {
  const r = ok(
    await t.call('GET', '/api/v1/stock-ledger/page', {
      token,
      query: { materialId, warehouseId, pageNum: 0 },
    }),
  );
  return { list: [...r.list].reverse(), summary: r.summary };
}

/** Quantity, value and unit cost as 库存查询 shows them, and the ledger amounts summed in cents. */
async function stock(materialId: number, warehouseId = w.warehouseId) {
  const page = ok(
    await t.call('GET', '/api/v1/stock-balance/page', {
      token,
      query: { materialId, warehouseId, pageNum: 0, includeZero: 'true' },
    }),
  );
  const ledger = await moves(materialId, warehouseId);
  const cents = ledger.list.reduce((s: number, l: any) => s + Math.round(Number(l.amount) * 100), 0);
  return {
    quantity: page.list.reduce((s: number, b: any) => s + Number(b.quantity), 0),
    value: page.totalAmount,
    unitCost: page.list[0]?.unitCost,
    ledgerSum: (cents / 100).toFixed(2),
    summaryValue: ledger.summary.value,
  };
}

describe('反过账 at the original cost (the mirror convention)', () => {
  it('the worked example: reversing an issue after a dearer receipt keeps value = Σ ledger (1,500.00, not 1,560.00)', async () => {
    const m = await w.material();
    // 100 @ 12.00 = 1,200.00.
    await receive(w, m.id, 100, '12');
    // Issue 60 at the average 12.00: −720.00. Left 40 worth 480.00.
    const i1 = await issue(w, m.id, 60);
    // 20 @ 15.00 = 300.00: 60 worth 780.00, average 780 ÷ 60 = 13.00.
    const r2 = await receive(w, m.id, 20, '15');
    expect(await stock(m.id)).toMatchObject({ quantity: 60, value: '780.00', unitCost: '13.000000' });

    // 反过账 of the issue: the 60 come back at the 720.00 they left at (not at 13.00 = 780.00).
    // 120 worth 780.00 + 720.00 = 1,500.00, average 1,500 ÷ 120 = 12.50. Before the fix the
    // average stayed 13.00 and the stock showed 120 × 13 = 1,560.00 against ledger rows of 1,500.00.
    await reverse('stock-outbound', i1.id);
    const { list } = await moves(m.id);
    const mirror = list.at(-1);
    expect(mirror).toMatchObject({ quantity: '60.0000', unitCost: '12.000000', amount: '720.00' });
    expect(mirror.reversalOf).toBe(list[1].id);
    expect(await stock(m.id)).toEqual({
      quantity: 120,
      value: '1500.00',
      unitCost: '12.500000',
      ledgerSum: '1500.00',
      summaryValue: '1500.00',
    });

    // Issue 50 at 12.50: −625.00. Left 70 worth 875.00.
    await issue(w, m.id, 50);
    expect(await stock(m.id)).toMatchObject({ quantity: 70, value: '875.00', ledgerSum: '875.00' });

    // Reversing the 20 @ 15.00 receipt takes exactly its 300.00 back out: 50 worth 575.00, average
    // 575 ÷ 50 = 11.50 (the mirror convention: not "as if it never happened", which would re-cost
    // the issues after it).
    await reverse('stock-inbound', r2.id);
    expect(await stock(m.id)).toEqual({
      quantity: 50,
      value: '575.00',
      unitCost: '11.500000',
      ledgerSum: '575.00',
      summaryValue: '575.00',
    });

    // The last issue takes everything: −575.00, and the empty stock is worth 0.00.
    await issue(w, m.id, 50);
    expect(await stock(m.id)).toMatchObject({ quantity: 0, value: '0.00', ledgerSum: '0.00' });
  });

  it('writes off what a receipt reversal leaves on empty stock with a 成本调整 row of quantity 0', async () => {
    const m = await w.material();
    // 10 @ 1.00 = 10.00 and 5 @ 4.00 = 20.00: 15 worth 30.00, average 2.00.
    await receive(w, m.id, 10, '1');
    const dear = await receive(w, m.id, 5, '4');
    // Issue 10 at 2.00: −20.00. Left 5 worth 10.00.
    await issue(w, m.id, 10);
    // Reversing the 5 @ 4.00 receipt: −5 at −20.00 would leave no stock worth −10.00; an
    // adjustment of +10.00 on the same document brings it to 0.00.
    await reverse('stock-inbound', dear.id);
    const { list } = await moves(m.id);
    expect(list.slice(-2).map((l: any) => [l.quantity, l.amount, l.docNo, l.reversalOf != null])).toEqual([
      ['-5.0000', '-20.00', dear.docNo, true],
      ['0.0000', '10.00', dear.docNo, false],
    ]);
    expect(await stock(m.id)).toMatchObject({ quantity: 0, value: '0.00', ledgerSum: '0.00' });
    // A new receipt starts clean: 4 @ 2.50 = 10.00, average 2.50.
    await receive(w, m.id, 4, '2.5');
    expect(await stock(m.id)).toMatchObject({ quantity: 4, value: '10.00', unitCost: '2.500000' });
  });

  it('carries the value across a transfer and back on its reversal, to the cent', async () => {
    const m = await w.material();
    // 3 @ 3.333333 = 10.00 (3 × 3.333333 = 9.999999, to the cent).
    await receive(w, m.id, 3, '3.333333');
    const tr = ok(
      await t.call('POST', '/api/v1/stock-transfer/add', {
        token,
        body: {
          fromWarehouseId: w.warehouseId,
          toWarehouseId: w.otherWarehouseId,
          lines: [{ materialId: m.id, quantity: 1 }],
        },
      }),
    );
    ok(await w.post('stock-transfer', tr.id));
    // One of three pieces worth 10.00 leaves at 3.33 and arrives at 3.33; 2 stay worth 6.67.
    expect(await stock(m.id)).toMatchObject({ quantity: 2, value: '6.67', ledgerSum: '6.67' });
    expect(await stock(m.id, w.otherWarehouseId)).toMatchObject({
      quantity: 1,
      value: '3.33',
      ledgerSum: '3.33',
    });
    await reverse('stock-transfer', tr.id);
    expect(await stock(m.id)).toMatchObject({ quantity: 3, value: '10.00', ledgerSum: '10.00' });
    expect(await stock(m.id, w.otherWarehouseId)).toMatchObject({
      quantity: 0,
      value: '0.00',
      ledgerSum: '0.00',
    });
  });
});
