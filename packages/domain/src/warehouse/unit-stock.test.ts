import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBaseQuantity } from '../resource/unit-conversion.ts';
import {
  allocateIssue,
  looseOf,
  type PartedRow,
  partShare,
  partUnits,
  putStock,
  takeExact,
} from './unit-stock.ts';

// Issue 37 §3: a material counted in 套, bought in kg, 「1 套 = 0.235 kg」. Unit 7 is kg (3 places).
const KG = 7;
const BOX = 8;
const ratio = { unitQuantity: '0.235', baseQuantity: '1' };
const precision = (u: number) => (u === KG ? 3 : 0);
const D = (v: Decimal.Value) => new Decimal(v);
const row = (id = 1): PartedRow => ({ id, onHand: D(0), parts: new Map() });
const kg = (q: Decimal.Value, basePrecision = 4) => ({ unit: { id: KG, quantity: q, ratio, basePrecision } });
/** A receipt of q kg, converted once on its line. */
const receive = (r: PartedRow, q: string, basePrecision = 4) =>
  putStock(r, { base: toBaseQuantity(q, ratio, basePrecision), unitId: KG, unitQuantity: q });
const figures = (a: { takes: { base: Decimal; unitQuantity: Decimal | null }[] }) =>
  a.takes.map((t) => [t.base.toString(), t.unitQuantity?.toString() ?? null]);

describe('ten receipts of 1 kg, then an issue of 10 kg (「可用 42.553，需要 42.5532」)', () => {
  it('takes exactly the 42.5530 套 the ten lines brought, and leaves nothing', () => {
    const r = row();
    for (let i = 0; i < 10; i++) receive(r, '1'); // 10 × round(1 ÷ 0.235, 4) = 10 × 4.2553
    expect(r.onHand.toString()).toBe('42.553');
    expect(r.parts.get(KG)).toEqual({ quantity: D(10), base: D('42.553') });
    // Converting the 10 kg per line would ask 42.5532 > 42.5530: the old refusal.
    expect(toBaseQuantity(10, ratio, 4)).toBe('42.5532');
    const a = allocateIssue([r], kg(10), precision);
    expect(a.missing.toString()).toBe('0');
    expect(figures(a)).toEqual([['42.553', '10']]);
    expect(r.onHand.toString()).toBe('0');
    expect(r.parts.size).toBe(0);
  });

  it('does the same in whole 套: ten receipts of 4 套 (4.255 rounded), the 10 kg take the 40', () => {
    const r = row();
    for (let i = 0; i < 10; i++) receive(r, '1', 0);
    expect(r.onHand.toString()).toBe('40');
    const a = allocateIssue([r], kg(10, 0), precision);
    expect(figures(a)).toEqual([['40', '10']]);
    expect(r.onHand.toString()).toBe('0');
  });
});

describe('three receipts of 1 kg against one issue of 3 kg, and the other way round', () => {
  it('three receipts (3 × 4.2553 = 12.7659) and one issue of 3 kg: 12.7659 out, 0 left (not −0.0001)', () => {
    const r = row();
    for (let i = 0; i < 3; i++) receive(r, '1');
    const a = allocateIssue([r], kg(3), precision);
    expect(figures(a)).toEqual([['12.7659', '3']]);
    expect(r.onHand.isZero()).toBe(true);
  });

  it('one receipt of 3 kg (12.7660) and three issues of 1 kg: 4.2553, 4.2554, 4.2553 — 0 left (not 0.0001)', () => {
    const r = row();
    receive(r, '3');
    expect(r.onHand.toString()).toBe('12.766');
    // A share of the part each: 12.7660 ÷ 3 = 4.25533 → 4.2553; then 8.5107 ÷ 2 = 4.25535 → 4.2554
    // (half up); the last issue empties the part and takes the 4.2553 that are left.
    expect(figures(allocateIssue([r], kg(1), precision))).toEqual([['4.2553', '1']]);
    expect(figures(allocateIssue([r], kg(1), precision))).toEqual([['4.2554', '1']]);
    expect(figures(allocateIssue([r], kg(1), precision))).toEqual([['4.2553', '1']]);
    expect(r.onHand.isZero()).toBe(true);
    expect(r.parts.size).toBe(0);
  });
});

describe('parts and loose stock', () => {
  it('a share is rounded to the base unit and stays below the part; the whole part takes its base', () => {
    const part = { quantity: D(10), base: D('42.553') };
    expect(partShare(part, 1, 4).toString()).toBe('4.2553');
    expect(partShare(part, 10, 4).toString()).toBe('42.553');
    expect(partShare({ quantity: D(3), base: D(1) }, 2, 0).toString()).toBe('0'); // 0.67 → 1 would empty it: one step below
    expect(partUnits({ quantity: D(1), base: D(100) }, 30, 0).toString()).toBe('0'); // 30 套 of a box of 100
    expect(partUnits({ quantity: D(1), base: D(100) }, 70, 0).toString()).toBe('0'); // 0.7 → 1 would empty it
    expect(partUnits({ quantity: D(1), base: D(100) }, 100, 0).toString()).toBe('1');
    expect(partUnits({ quantity: D(10), base: D('42.553') }, '4.2553', 3).toString()).toBe('1');
  });

  it('an issue in kg beyond what came in kg converts the rest per line, from loose stock', () => {
    const r = row();
    putStock(r, { base: 100 }); // 100 套 received in 套
    receive(r, '1'); // + 4.2553
    const a = allocateIssue([r], kg(2), precision);
    // 1 kg from the part (4.2553), the other kg converted: round(1 ÷ 0.235, 4) = 4.2553 loose.
    expect(figures(a)).toEqual([
      ['4.2553', '1'],
      ['4.2553', null],
    ]);
    expect(a.need.toString()).toBe('8.5106');
    expect(r.onHand.toString()).toBe('95.7447');
  });

  it('an issue in the base unit takes loose stock first, then parts by their share', () => {
    const r = row();
    putStock(r, { base: 5 });
    putStock(r, { base: 100, unitId: BOX, unitQuantity: 1 });
    const a = allocateIssue([r], { base: 35 }, precision);
    expect(figures(a)).toEqual([
      ['5', null],
      ['30', '0'], // the box is opened: still 1 箱, now of 70 套
    ]);
    expect(r.parts.get(BOX)).toEqual({ quantity: D(1), base: D(70) });
    expect(looseOf(r).toString()).toBe('0');
  });

  it('takes the unit’s parts row by row before loose stock, and reports what is missing', () => {
    const a = row(1);
    const b = row(2);
    putStock(a, { base: 10 }); // loose, first in
    receive(b, '2');
    const al = allocateIssue([a, b], kg(3), precision);
    // 2 kg from row 2's part (8.5106), then 1 kg per line (4.2553) from row 1's loose stock.
    expect(al.takes.map((t) => [t.rowId, t.base.toString(), t.unitQuantity?.toString() ?? null])).toEqual([
      [2, '8.5106', '2'],
      [1, '4.2553', null],
    ]);
    const short = allocateIssue([a, b], kg(5), precision);
    expect(short.need.toString()).toBe('21.2766'); // 5 ÷ 0.235 = 21.276595…
    expect(short.missing.toString()).toBe('15.5319'); // 21.2766 − 5.7447 on hand
  });

  it('an exact decrement takes the part it names while that part still holds it, else the row', () => {
    const r = row();
    receive(r, '1');
    receive(r, '1');
    const exact = takeExact(r, { base: '4.2553', unitId: KG, unitQuantity: 1 }, precision);
    expect(figures(exact)).toEqual([['4.2553', '1']]);
    putStock(r, { base: 2 });
    // Naming 2 kg the part no longer has: a base-unit take of the row, loose first.
    const fallback = takeExact(r, { base: 5, unitId: KG, unitQuantity: 2 }, precision);
    expect(figures(fallback)).toEqual([
      ['2', null],
      ['3', '0.705'], // 3 × 1 ÷ 4.2553 = 0.70500… kg
    ]);
    expect(r.parts.get(KG)).toEqual({ quantity: D('0.295'), base: D('1.2553') });
  });
});

describe('property: whatever came in in kg goes out with one issue of as many kg', () => {
  // Random receipts in kg and in 套, and issues in kg and in 套 no larger than the row holds, on
  // one row; whenever the kg part holds N kg, an issue of N kg takes exactly its base quantity and
  // leaves the loose stock as it was; the row never goes below zero and its parts never exceed it.
  const step = fc.oneof(
    fc.record({ op: fc.constant('in-kg' as const), q: fc.integer({ min: 1, max: 50_000 }) }),
    fc.record({ op: fc.constant('in-set' as const), q: fc.integer({ min: 1, max: 50_000 }) }),
    fc.record({ op: fc.constant('out-kg' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({ op: fc.constant('out-set' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
  );
  for (const basePrecision of [0, 4])
    it(`holds with 套 to ${basePrecision} places`, () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
          const r = row();
          for (const s of steps) {
            if (s.op === 'in-kg') {
              const q = D(s.q).div(1000).toString(); // grams → kg, 3 places
              if (D(toBaseQuantity(q, ratio, basePrecision)).gt(0)) receive(r, q, basePrecision);
            } else if (s.op === 'in-set')
              putStock(r, { base: D(s.q).div(1000).toDecimalPlaces(basePrecision) });
            else if (s.op === 'out-kg') {
              const part = r.parts.get(KG);
              if (!part) continue;
              const t = part.quantity.times(s.share).toDecimalPlaces(3, Decimal.ROUND_DOWN);
              if (t.lte(0)) continue;
              // Within the part: its share, never short.
              expect(allocateIssue([r], kg(t, basePrecision), precision).missing.isZero()).toBe(true);
            } else {
              const x = r.onHand.times(s.share).toDecimalPlaces(basePrecision, Decimal.ROUND_DOWN);
              if (x.gt(0)) expect(allocateIssue([r], { base: x }, precision).missing.isZero()).toBe(true);
            }
            expect(r.onHand.gte(0)).toBe(true);
            expect(looseOf(r).gte(0)).toBe(true);
          }
          const part = r.parts.get(KG);
          if (!part) return;
          const loose = looseOf(r);
          const a = allocateIssue([r], kg(part.quantity, basePrecision), precision);
          expect(a.missing.isZero()).toBe(true);
          expect(a.need.eq(part.base)).toBe(true);
          expect(r.parts.size).toBe(0);
          expect(r.onHand.eq(loose)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
});
