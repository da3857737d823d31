import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addWorkdays,
  isPlanningDay,
  leadDays,
  lotSize,
  lowLevelCodes,
  type MrpCalendar,
  MrpCycleError,
  type MrpInput,
  type MrpItem,
  type MrpPegRef,
  type MrpResult,
  netBomTree,
  orderDates,
  runMrp,
  SAFETY_PEG,
  STOCK_PEG,
  workdayOnOrAfter,
} from './mrp.ts';

const row = (r: MrpResult, itemId: number) => r.rows.find((x) => x.itemId === itemId);
const orders = (r: MrpResult, itemId: number, firm = false) =>
  r.plannedOrders.filter((o) => o.itemId === itemId && o.firm === firm);
const pegsOf = (o: { pegs: { ref: MrpPegRef; quantity: string }[] }) =>
  Object.fromEntries(o.pegs.map((p) => [p.ref.label, p.quantity]));

describe('issue 37 §1: net each level before exploding the next', () => {
  // P needs 2 S (5 % loss); S is made from 0.5 kg of L2 (10 % loss); 40 S on hand; order of 100 P.
  const P = 1;
  const S = 2;
  const L2 = 3;
  const X: MrpPegRef = { type: 'production-order', id: 9, label: 'SC20261102-0001' };
  const input: MrpInput = {
    today: '2026-10-20',
    items: [
      { id: P, source: 'make', leadTimeDays: 3 },
      { id: S, source: 'make', leadTimeDays: 5, precision: 0, onHand: '40' },
      { id: L2, source: 'buy', leadTimeDays: 7, precision: 3 },
    ],
    bom: [
      { parentId: P, childId: S, quantityPer: '2', lossRate: '5' },
      { parentId: S, childId: L2, quantityPer: '0.5', lossRate: '10' },
    ],
    demands: [],
    firmOrders: [{ itemId: P, quantity: '100', startDate: '2026-11-02', dueDate: '2026-11-20', peg: X }],
  };

  it('nets S to 170 and explodes L2 from 170, not from the gross 210', () => {
    const r = runMrp(input);
    // Gross S = 100 × 2 × 1.05 = 210; less 40 on hand = 170 to make.
    expect(row(r, S)).toMatchObject({ level: 1, gross: '210', onHand: '40', net: '170', planned: '170' });
    // L2 = 170 × 0.5 × 1.10 = 93.5 kg (the gross explosion would ask 210 × 0.55 = 115.5 kg).
    expect(row(r, L2)).toMatchObject({ level: 2, gross: '93.5', net: '93.5', planned: '93.5' });
    expect(row(r, P)).toMatchObject({ level: 0, gross: '0', firm: '100', net: '0', planned: '0' });
  });

  it('offsets by lead time: S is needed when P starts, L2 when S starts', () => {
    const r = runMrp(input);
    const [s] = orders(r, S);
    // P starts 2026-11-02; S takes 5 days: starts 10-28. L2 is needed 10-28, bought 7 days earlier.
    expect(s).toMatchObject({
      quantity: '170',
      needDate: '2026-11-02',
      startDate: '2026-10-28',
      late: false,
    });
    const [l] = orders(r, L2);
    expect(l).toMatchObject({
      quantity: '93.5',
      needDate: '2026-10-28',
      startDate: '2026-10-21',
      late: false,
    });
    // Today 10-25: L2 should have been bought on 10-21.
    expect(orders(runMrp({ ...input, today: '2026-10-25' }), L2)[0].late).toBe(true);
    expect(pegsOf(s)).toEqual({ 'SC20261102-0001': '170' });
    expect(pegsOf(l)).toEqual({ 'SC20261102-0001': '93.5' });
  });

  it('lot sizes the planned order and explodes the lot, the surplus pegged to stock', () => {
    const lot = {
      ...input,
      items: input.items.map((i) => (i.id === S ? { ...i, lotSizeMin: '200', lotSizeMultiple: '50' } : i)),
    };
    const r = runMrp(lot);
    // 170 → at least 200 → a multiple of 50: 200; L2 = 200 × 0.55 = 110.
    expect(orders(r, S)[0]).toMatchObject({ quantity: '200', net: '170' });
    expect(pegsOf(orders(r, S)[0])).toEqual({ 'SC20261102-0001': '170', [STOCK_PEG.label]: '30' });
    expect(row(r, L2)).toMatchObject({ gross: '110', planned: '110' });
    // The surplus's share of L2 is stock's too: 30 × 0.55 = 16.5.
    expect(pegsOf(orders(r, L2)[0])).toEqual({ 'SC20261102-0001': '93.5', [STOCK_PEG.label]: '16.5' });
  });

  it('one order takes neither what others hold nor the safety stock, and does not plan their shortage', () => {
    const withOthers = {
      ...input,
      items: input.items.map((i) =>
        i.id === S ? { ...i, onHand: '100', allocated: '50', safetyStock: '20' } : i,
      ),
    };
    // Free for this order: 100 − 50 held − 20 safety = 30; net 210 − 30 = 180.
    expect(row(runMrp(withOthers), S)).toMatchObject({ net: '180', planned: '180' });
    const short = {
      ...input,
      items: input.items.map((i) => (i.id === S ? { ...i, onHand: '10', allocated: '60' } : i)),
    };
    // Others hold 60 of 10: this order gets nothing and plans its own 210, not their 50.
    const r = runMrp(short);
    expect(row(r, S)).toMatchObject({ net: '210', planned: '210', projected: '-50' });
  });

  it('brings in an open order due after the need date rather than plan a new one, and says so', () => {
    const r = runMrp({
      ...input,
      receipts: [{ itemId: S, quantity: '100', date: '2026-11-10', kind: 'purchase-order' }],
    });
    // S is needed 11-02; the order of 100 due 11-10 is counted (expedite): 210 − 40 − 100 = 70.
    expect(row(r, S)).toMatchObject({ net: '70', planned: '70' });
    expect(r.rescheduled).toEqual([
      {
        itemId: S,
        kind: 'purchase-order',
        ref: null,
        quantity: '100',
        date: '2026-11-10',
        needDate: '2026-11-02',
      },
    ]);
    // Not needed while stock covers the need: 300 on hand, the order stays where it is.
    const plenty = {
      ...input,
      items: input.items.map((i) => (i.id === S ? { ...i, onHand: '300' } : i)),
      receipts: [{ itemId: S, quantity: '100', date: '2026-11-10', kind: 'purchase-order' }],
    };
    expect(runMrp(plenty).rescheduled).toEqual([]);
  });

  it('keeps what was bought or made for the order for it: others’ shortages take only the rest', () => {
    const short = (dedicated: boolean) => ({
      ...input,
      items: input.items.map((i) =>
        i.id === S ? { ...i, onHand: '10', allocated: '60', safetyStock: '5' } : i,
      ),
      receipts: [{ itemId: S, quantity: '210', date: '2026-10-30', kind: 'sub-order', dedicated }],
    });
    // The order's own 自制件订单 of 210 covers its 210, though others are 50 short and 5 are safety.
    expect(row(runMrp(short(true)), S)).toMatchObject({ net: '0', planned: '0', projected: '-50' });
    // Anyone's order of 210 first fills the others' 50 and the safety 5: 55 to make, and the
    // projection ends at the safety stock: 10 − 60 + 210 + 55 − 210 = 5.
    expect(row(runMrp(short(false)), S)).toMatchObject({ net: '55', planned: '55', projected: '5' });
  });

  it('counts open supply: a receipt by the need date nets, a scheduled receipt is supply', () => {
    const r = runMrp({
      ...input,
      receipts: [
        { itemId: S, quantity: '100', date: '2026-10-30', kind: 'production-order' },
        { itemId: L2, quantity: '20', date: '2026-10-01', kind: 'purchase-order' },
      ],
    });
    // S: 210 − 40 − 100 = 70; L2: 70 × 0.55 = 38.5 − 20 = 18.5.
    expect(row(r, S)).toMatchObject({ scheduled: '100', net: '70' });
    expect(row(r, L2)).toMatchObject({ gross: '38.5', scheduled: '20', net: '18.5', planned: '18.5' });
  });
});

describe('a released order’s frozen BOM from its run', () => {
  const line = (
    parentId: number,
    childId: number,
    quantityPer: string,
    lossRate: string,
    lineNo: number,
  ) => ({
    parentId,
    childId,
    quantityPer,
    lossRate,
    lineNo,
    bomId: parentId * 100,
    processId: null,
  });
  // P (1) → 2 S (2, 5 %) → 0.5 L2 (3, 10 %); P → 8 B (4, 0.5 %).
  const rootLines = [line(1, 2, '2', '5', 1), line(1, 4, '8', '0.5', 2)];
  const linesOf = new Map([[2, [line(2, 3, '0.5', '10', 1)]]]);
  const rows = (made: Map<number, string>) =>
    netBomTree({ rootQuantity: '100', rootLines, linesOf, made }).map((r) => [
      r.level,
      r.materialId,
      r.requiredQuantity,
      r.madeQuantity,
      r.exploded,
    ]);

  it('makes 170 of the 210 S and explodes L2 from the 170', () => {
    expect(rows(new Map([[2, '170']]))).toEqual([
      [1, 2, '210', '170', true],
      [2, 3, '93.5', '0', false],
      [1, 4, '804', '0', false],
    ]);
  });

  it('a component covered by stock is not exploded', () => {
    expect(rows(new Map())).toEqual([
      [1, 2, '210', '0', false],
      [1, 4, '804', '0', false],
    ]);
  });

  it('shares a component used twice in proportion to what each row requires', () => {
    // P → 2 S and P → 1 S: 300 S in all (200 + 100), 150 to make: 100 and 50.
    const twice = netBomTree({
      rootQuantity: '100',
      rootLines: [line(1, 2, '2', '0', 1), line(1, 2, '1', '0', 2)],
      linesOf,
      made: new Map([[2, '150']]),
    });
    expect(twice.map((r) => [r.level, r.materialId, r.requiredQuantity, r.madeQuantity])).toEqual([
      [1, 2, '200', '100'],
      [2, 3, '55', '0'],
      [1, 2, '100', '50'],
      [2, 3, '27.5', '0'],
    ]);
  });
});

describe('a textbook multi-period run (Orlicky): weeks, low-level codes, lot sizes, safety stock', () => {
  // Weeks start on Mondays: wk1 2026-01-05 (today) … wk7 2026-02-16.
  const wk = (n: number) => new Date(Date.UTC(2026, 0, 5 + (n - 1) * 7)).toISOString().slice(0, 10);
  const A = 10;
  const B = 20;
  const C = 30;
  const so = (n: number): MrpPegRef => ({ type: 'sale-order', id: n, lineId: n, label: `SO-${n}` });
  // A: made, 1 week, 5 on hand, lot for lot; needs 2 B and 1 C.
  // B: made, 2 weeks, 12 on hand, 10 arriving in wk2, lots of at least 40 in tens; needs 3 C.
  // C: bought, 1 week, none on hand, safety stock 5, lots of 50. C is used at level 1 (under A)
  //    and level 2 (under B): its low-level code is 2, so it is netted once, after B.
  const input: MrpInput = {
    today: wk(1),
    coverShortfalls: true,
    items: [
      { id: A, source: 'make', leadTimeDays: 7, onHand: '5', precision: 0 },
      { id: B, source: 'make', leadTimeDays: 14, onHand: '12', lotSizeMin: '40', lotSizeMultiple: '10' },
      { id: C, source: 'buy', leadTimeDays: 7, safetyStock: '5', lotSizeMultiple: '50' },
    ],
    bom: [
      { parentId: A, childId: B, quantityPer: '2' },
      { parentId: A, childId: C, quantityPer: '1' },
      { parentId: B, childId: C, quantityPer: '3' },
    ],
    demands: [
      { itemId: A, quantity: '20', date: wk(3), peg: so(1) },
      { itemId: A, quantity: '30', date: wk(5), peg: so(2) },
      { itemId: A, quantity: '25', date: wk(7), peg: so(3) },
    ],
    receipts: [{ itemId: B, quantity: '10', date: wk(2), kind: 'production-order' }],
  };
  const r = runMrp(input);
  const plan = (id: number) => orders(r, id).map((o) => [o.startDate, o.needDate, o.quantity, o.late]);

  it('computes low-level codes from the BOM', () => {
    expect(Object.fromEntries(lowLevelCodes(input.bom))).toEqual({ [A]: 0, [B]: 1, [C]: 2 });
  });

  it('A: 5 on hand cover wk3 in part; lot for lot, released a week ahead', () => {
    // wk3: 20 − 5 = 15; wk5: 30; wk7: 25.
    expect(plan(A)).toEqual([
      [wk(2), wk(3), '15', false],
      [wk(4), wk(5), '30', false],
      [wk(6), wk(7), '25', false],
    ]);
  });

  it('B: gross from A’s releases (×2), 12 on hand and 10 arriving, lots of 40', () => {
    // wk2: 30 − (12 + 10) = 8 → 40, projected 32; wk4: 60 − 32 = 28 → 40, projected 12;
    // wk6: 50 − 12 = 38 → 40, projected 2. Two weeks ahead: the wk2 lot was due to start 2025-12-29.
    expect(plan(B)).toEqual([
      ['2025-12-29', wk(2), '40', true],
      [wk(2), wk(4), '40', false],
      [wk(4), wk(6), '40', false],
    ]);
    expect(
      row(r, B)?.periods.map((p) => [p.date, p.gross, p.receipts, p.net, p.planned, p.projected]),
    ).toEqual([
      [wk(2), '30', '10', '8', '40', '32'],
      [wk(4), '60', '0', '28', '40', '12'],
      [wk(6), '50', '0', '38', '40', '2'],
    ]);
  });

  it('C: gross from A (×1) and B (×3) releases together, safety stock 5, lots of 50', () => {
    // 12-29: B 40×3 = 120 → 120 + 5 − 0 = 125 → 150, projected 30.
    // wk2: A 15 + B 120 = 135 → 135 + 5 − 30 = 110 → 150, projected 45.
    // wk4: A 30 + B 120 = 150 → 150 + 5 − 45 = 110 → 150, projected 45.
    // wk6: A 25 → 25 + 5 − 45 < 0: nothing, projected 20.
    expect(row(r, C)?.periods.map((p) => [p.date, p.gross, p.net, p.planned, p.projected])).toEqual([
      ['2025-12-29', '120', '125', '150', '30'],
      [wk(2), '135', '110', '150', '45'],
      [wk(4), '150', '110', '150', '45'],
      [wk(6), '25', '0', '0', '20'],
    ]);
    expect(plan(C)).toEqual([
      ['2025-12-22', '2025-12-29', '150', true],
      [wk(1), wk(2), '150', false],
      [wk(3), wk(4), '150', false],
    ]);
    expect(row(r, C)).toMatchObject({ level: 2, gross: '430', net: '345', planned: '450', late: true });
  });

  it('pegs every planned quantity to the sales order it serves, through the levels', () => {
    const [b1, b2] = orders(r, B);
    // B's wk2 gross (30) serves SO-1; 22 of supply cover it, 8 are netted; the lot adds 32.
    expect(pegsOf(b1)).toEqual({ 'SO-1': '8', [STOCK_PEG.label]: '32' });
    expect(pegsOf(b2)).toEqual({ 'SO-2': '28', [STOCK_PEG.label]: '12' });
    const [c1, c2] = orders(r, C);
    // C 12-29: 3 × B's first lot (SO-1 8 → 24, stock 32 → 96), + 5 safety, + 25 lot surplus.
    expect(pegsOf(c1)).toEqual({ 'SO-1': '24', [SAFETY_PEG.label]: '5', [STOCK_PEG.label]: '121' });
    // C wk2: A's SO-1 15 and B's SO-2 84, stock 36; 25 usable cover SO-1 15 and SO-2 10.
    expect(pegsOf(c2)).toEqual({ 'SO-2': '74', [STOCK_PEG.label]: '76' });
  });
});

describe('the rules of one planned order', () => {
  it('lot size: the minimum, then the multiple, then the unit', () => {
    expect(lotSize('8', { lotSizeMin: '40', lotSizeMultiple: '10' }).toString()).toBe('40');
    expect(lotSize('41', { lotSizeMin: '40', lotSizeMultiple: '10' }).toString()).toBe('50');
    expect(lotSize('8.16', { precision: 0 }).toString()).toBe('9');
    expect(lotSize('1.0001', { lotSizeMultiple: '0.5', precision: 3 }).toString()).toBe('1.5');
    expect(lotSize('0', { lotSizeMin: '40' }).toString()).toBe('0');
  });

  it('lead time from the route: slowest step × quantity over a shift, + a day per step, + 3 per 委外', () => {
    const steps = [
      { standardMinutes: '2', outsourced: false },
      { standardMinutes: '1', outsourced: false },
      { standardMinutes: null, outsourced: true },
    ];
    // 2 × 500 / 480 = 2.08 → 3 days, + 1 further step, + 3 outsourced = 7.
    expect(leadDays(steps, 500)).toBe(7);
    expect(leadDays(undefined, 500)).toBe(10);
  });

  it('a production order finishes the day before it is needed, never starts before today', () => {
    expect(orderDates('2026-11-10', 5, '2026-10-01')).toEqual({
      plannedStartDate: '2026-11-05',
      dueDate: '2026-11-09',
      late: false,
    });
    expect(orderDates('2026-11-10', 5, '2026-11-08')).toEqual({
      plannedStartDate: '2026-11-08',
      dueDate: '2026-11-12',
      late: true,
    });
  });

  it('refuses a BOM cycle, naming its items', () => {
    const e = (() => {
      try {
        lowLevelCodes([
          { parentId: 1, childId: 2 },
          { parentId: 2, childId: 3 },
          { parentId: 3, childId: 2 },
        ]);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(MrpCycleError);
    expect((e as MrpCycleError).itemIds).toEqual([2, 3, 2]);
  });
});

describe('invariants over random plans', () => {
  const qty = fc.integer({ min: 0, max: 500 }).map(String);
  const arb = fc.record({
    // A tree of 6 items: item k's parents are among items < k, so no cycles.
    lines: fc.array(
      fc.record({
        parent: fc.integer({ min: 1, max: 5 }),
        gap: fc.integer({ min: 1, max: 5 }),
        per: fc.constantFrom('1', '2', '0.5', '0.04', '3.25'),
        loss: fc.constantFrom('0', '2', '5', '10', '0.5'),
      }),
      { maxLength: 10 },
    ),
    stock: fc.array(fc.record({ onHand: qty, allocated: qty, safety: qty }), { minLength: 6, maxLength: 6 }),
    lots: fc.array(
      fc.record({ min: fc.constantFrom('', '10', '75'), multiple: fc.constantFrom('', '4', '25') }),
      {
        minLength: 6,
        maxLength: 6,
      },
    ),
    demands: fc.array(
      fc.record({
        item: fc.integer({ min: 1, max: 6 }),
        quantity: qty,
        day: fc.integer({ min: 1, max: 28 }),
      }),
      { minLength: 1, maxLength: 8 },
    ),
    receipts: fc.array(
      fc.record({
        item: fc.integer({ min: 1, max: 6 }),
        quantity: qty,
        day: fc.integer({ min: 1, max: 28 }),
      }),
      { maxLength: 4 },
    ),
    cover: fc.boolean(),
  });

  it('supply balances, pegs add up to every planned order, a whole plan keeps the safety stock', () => {
    fc.assert(
      fc.property(arb, (x) => {
        const seen = new Set<string>();
        const bom = x.lines
          .map((l) => ({
            parentId: l.parent,
            childId: Math.min(6, l.parent + l.gap),
            quantityPer: l.per,
            lossRate: l.loss,
          }))
          .filter(
            (l) =>
              l.childId > l.parentId &&
              !seen.has(`${l.parentId}-${l.childId}`) &&
              seen.add(`${l.parentId}-${l.childId}`),
          );
        const items: MrpItem[] = [1, 2, 3, 4, 5, 6].map((id) => ({
          id,
          source: bom.some((l) => l.parentId === id) ? 'make' : 'buy',
          leadTimeDays: id,
          onHand: x.stock[id - 1].onHand,
          allocated: x.stock[id - 1].allocated,
          safetyStock: x.stock[id - 1].safety,
          lotSizeMin: x.lots[id - 1].min || null,
          lotSizeMultiple: x.lots[id - 1].multiple || null,
        }));
        const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}`;
        const r = runMrp({
          today: day(1),
          coverShortfalls: x.cover,
          items,
          bom,
          demands: x.demands.map((d, i) => ({
            itemId: d.item,
            quantity: d.quantity,
            date: day(d.day),
            peg: { type: 'sale-order', id: i + 1, label: `SO-${i + 1}` },
          })),
          receipts: x.receipts.map((d) => ({
            itemId: d.item,
            quantity: d.quantity,
            date: day(d.day),
            kind: 'po',
          })),
        });
        for (const o of r.plannedOrders) {
          const pegged = o.pegs.reduce((s, p) => s.plus(p.quantity), new Decimal(0));
          expect(pegged.toString()).toBe(new Decimal(o.quantity).toString());
          expect(new Decimal(o.quantity).gte(o.net)).toBe(true);
        }
        for (const row of r.rows) {
          // on hand − allocated + receipts + firm + planned − gross = projected.
          const balance = new Decimal(row.onHand)
            .minus(row.allocated)
            .plus(row.scheduled)
            .plus(row.firm)
            .plus(row.planned)
            .minus(row.gross);
          expect(balance.toString()).toBe(new Decimal(row.projected).toString());
          const it = items[row.itemId - 1];
          for (const p of row.periods) {
            if (x.cover && new Decimal(p.gross).gt(0)) {
              expect(new Decimal(p.projected).gte(it.safetyStock ?? 0)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('without stock, supply or lot sizes, the planned orders of bought items are the gross explosion', () => {
    // P → 2 S (5 %) → 0.5 L2 (10 %) and P → 8 B (0.5 %): 100 P need 115.5 L2 and 804 B.
    const r = runMrp({
      today: '2026-01-01',
      items: [
        { id: 1, source: 'make' },
        { id: 2, source: 'make' },
        { id: 3, source: 'buy' },
        { id: 4, source: 'buy' },
      ],
      bom: [
        { parentId: 1, childId: 2, quantityPer: '2', lossRate: '5' },
        { parentId: 2, childId: 3, quantityPer: '0.5', lossRate: '10' },
        { parentId: 1, childId: 4, quantityPer: '8', lossRate: '0.5' },
      ],
      demands: [{ itemId: 1, quantity: '100', date: '2026-02-01', peg: { type: 'x', id: 1, label: 'x' } }],
    });
    expect(row(r, 3)?.planned).toBe('115.5');
    expect(row(r, 4)?.planned).toBe('804');
  });
});

describe('issue 37 §1: 备货单 demands and lead times on the factory calendar', () => {
  // A five-day week; 国庆 2026-10-01 (Thu) … 10-07 (Wed) off, Saturday 10-10 worked (调休).
  const cal: MrpCalendar = {
    weekdays: [1, 2, 3, 4, 5],
    holidays: ['2026-10-01', '2026-10-02', '2026-10-05', '2026-10-06', '2026-10-07'],
    workdays: ['2026-10-10'],
  };

  it('counts working days: weekends and holidays skipped, the 调休 Saturday worked', () => {
    expect(isPlanningDay('2026-10-03', cal)).toBe(false); // a Saturday
    expect(isPlanningDay('2026-10-05', cal)).toBe(false); // a Monday in the holiday
    expect(isPlanningDay('2026-10-10', cal)).toBe(true); // the 调休 Saturday
    // 3 working days before Monday 10-12: Sat 10-10 (1), Fri 10-09 (2), Thu 10-08 (3).
    expect(addWorkdays('2026-10-12', -3, cal)).toBe('2026-10-08');
    // 5 before Thu 10-08: 10-07 … 10-01 are off; Wed 09-30 (1), 09-29 (2), 09-28 (3), Fri 09-25 (4), Thu 09-24 (5).
    expect(addWorkdays('2026-10-08', -5, cal)).toBe('2026-09-24');
    // Forward: 2 after Wed 09-30 → Thu 10-08 (1), Fri 10-09 (2).
    expect(addWorkdays('2026-09-30', 2, cal)).toBe('2026-10-09');
    expect(addWorkdays('2026-10-12', 0, cal)).toBe('2026-10-12');
    expect(workdayOnOrAfter('2026-10-03', cal)).toBe('2026-10-08');
    // Without a calendar every day works (the calendar days of before).
    expect(addWorkdays('2026-10-12', -3)).toBe('2026-10-09');
    expect(() => addWorkdays('2026-10-12', -1, { weekdays: [], holidays: [], workdays: [] })).toThrow(
      '生产日历中没有工作日',
    );
  });

  it('plans a sales order and a 备货单 together, offset in working days', () => {
    // Bearing P (made in 3 days) needs 2 rings S (bought, 5 days). 40 P in stock. Sales order
    // XS: 100 P on Mon 10-12; 备货单 BH: 50 P on Fri 10-16. Today is Fri 09-25.
    const P = 1;
    const S = 2;
    const XS: MrpPegRef = { type: 'sale-order', id: 7, lineId: 70, label: 'XS20260901-0001' };
    const BH: MrpPegRef = { type: 'stock-up-order', id: 8, lineId: 80, label: 'BH20260910-0001' };
    const input: MrpInput = {
      today: '2026-09-25',
      calendar: cal,
      items: [
        { id: P, source: 'make', leadTimeDays: 3, precision: 0, onHand: '40' },
        { id: S, source: 'buy', leadTimeDays: 5, precision: 0 },
      ],
      bom: [{ parentId: P, childId: S, quantityPer: '2' }],
      demands: [
        { itemId: P, quantity: '100', date: '2026-10-12', peg: XS },
        { itemId: P, quantity: '50', date: '2026-10-16', peg: BH },
      ],
      coverShortfalls: true,
    };
    const r = runMrp(input);
    // P: 150 gross, 40 on hand → 60 for XS on 10-12, 50 for BH on 10-16 = 110 planned.
    expect(row(r, P)).toMatchObject({
      gross: '150',
      onHand: '40',
      net: '110',
      planned: '110',
      projected: '0',
    });
    const [p1, p2] = orders(r, P);
    // 10-12 less 3 working days = Thu 10-08 (calendar days: Fri 10-09).
    expect(p1).toMatchObject({
      quantity: '60',
      needDate: '2026-10-12',
      startDate: '2026-10-08',
      late: false,
    });
    expect(pegsOf(p1)).toEqual({ 'XS20260901-0001': '60' });
    // 10-16 less 3: 10-15, 10-14, 10-13.
    expect(p2).toMatchObject({
      quantity: '50',
      needDate: '2026-10-16',
      startDate: '2026-10-13',
      late: false,
    });
    expect(pegsOf(p2)).toEqual({ 'BH20260910-0001': '50' });
    // S: 120 needed 10-08 (2 × 60) and 100 needed 10-13 (2 × 50).
    const [s1, s2] = orders(r, S);
    // 10-08 less 5 working days across 国庆 = Thu 09-24, before today: late (calendar days: 10-03, in time).
    expect(s1).toMatchObject({
      quantity: '120',
      needDate: '2026-10-08',
      startDate: '2026-09-24',
      late: true,
    });
    // 10-13 less 5: 10-12 (1), Sat 10-10 调休 (2), 10-09 (3), 10-08 (4), 09-30 (5).
    expect(s2).toMatchObject({
      quantity: '100',
      needDate: '2026-10-13',
      startDate: '2026-09-30',
      late: false,
    });
    expect(pegsOf(s2)).toEqual({ 'BH20260910-0001': '100' });
    expect(row(r, S)?.late).toBe(true);
    // On calendar days nothing is late.
    expect(runMrp({ ...input, calendar: null }).plannedOrders.some((o) => o.late)).toBe(false);
  });

  it('dates a production order in working days', () => {
    // Needed Mon 10-12, 3 working days: finish Sat 10-10 (调休), start Thu 10-08.
    expect(orderDates('2026-10-12', 3, '2026-09-25', cal)).toEqual({
      plannedStartDate: '2026-10-08',
      dueDate: '2026-10-10',
      late: false,
    });
    // Today Sat 10-03 is in the holiday: it cannot start before Thu 10-08 anyway.
    expect(orderDates('2026-10-09', 3, '2026-10-03', cal)).toEqual({
      plannedStartDate: '2026-10-08',
      dueDate: '2026-10-10',
      late: true,
    });
  });
});
