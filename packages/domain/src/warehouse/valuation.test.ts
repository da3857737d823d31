import { describe, expect, it } from 'vitest';
import { averageCost, type BinState, issueAmount, receiptAmount, valueMoves } from './valuation.ts';

const bin = (quantity: string, value: string, avgCost: string | null = null): BinState => ({
  quantity,
  value,
  avgCost,
});
const one = (b: BinState) => new Map([['A', b]]);

describe('average arithmetic', () => {
  it('is value ÷ quantity to six places, half up; the last one when the bin is empty', () => {
    expect(averageCost('3', '10.00', null)).toBe('3.333333');
    expect(averageCost('3', '20.00', null)).toBe('6.666667');
    expect(averageCost('120', '1500.00', '13.000000')).toBe('12.500000');
    expect(averageCost('0', '0.00', '12.500000')).toBe('12.500000');
    expect(averageCost('0', '0.00', null)).toBeNull();
  });

  it('issues a share of the value rounded to the cent, and the whole value with the last piece', () => {
    // 3 pieces worth 10.00: 1 takes 3.33, 2 of the 3 take 6.67, all 3 take 10.00 exactly.
    expect(issueAmount('1', '3', '10.00', null)).toBe('3.33');
    expect(issueAmount('2', '3', '10.00', null)).toBe('6.67');
    expect(issueAmount('3', '3', '10.00', null)).toBe('10.00');
    // Half a cent rounds up: 1 of 2 pieces worth 0.01.
    expect(issueAmount('1', '2', '0.01', null)).toBe('0.01');
    // 30,000 pieces worth 100,000.00: the average 3.333333 would cost 1 piece 3.33 and all of them
    // 99,999.99; the share costs 10,000 pieces 33,333.33 and the last 20,000 66,666.67.
    expect(issueAmount('10000', '30000', '100000.00', null)).toBe('33333.33');
    expect(issueAmount('20000', '20000', '66666.67', null)).toBe('66666.67');
    expect(issueAmount('0.0001', '3', '10.00', null)).toBe('0.00');
  });

  it('prices a receipt at quantity × unit cost to the cent', () => {
    expect(receiptAmount('120.5', '8.5')).toBe('1024.25');
    expect(receiptAmount('3', '0.333333')).toBe('1.00');
    expect(receiptAmount('0.0001', '0.005')).toBe('0.00');
  });
});

describe('valuing a posting', () => {
  it('the worked example: an issue reversed at its own cost after a dearer receipt', () => {
    // 100 @ 12.00, issue 60 (720.00), 20 @ 15.00: 60 pieces worth 780.00 (average 13.00).
    let b = one(bin('0', '0.00'));
    b = valueMoves(b, [{ bin: 'A', quantity: '100', cost: 'priced', unitCost: '12' }]).bins;
    const issue = valueMoves(b, [{ bin: 'A', quantity: '-60', cost: 'average' }]);
    expect(issue.moves).toEqual([{ unitCost: '12.000000', amount: '-720.00' }]);
    b = valueMoves(issue.bins, [{ bin: 'A', quantity: '20', cost: 'priced', unitCost: '15' }]).bins;
    expect(b.get('A')).toEqual(bin('60.0000', '780.00', '13.000000'));
    // 反过账 of the issue: +60 at exactly +720.00 → 120 pieces worth 1,500.00, average 12.50.
    const rev = valueMoves(b, [
      { bin: 'A', quantity: '60', cost: 'fixed', amount: '720.00', unitCost: '12.000000' },
    ]);
    expect(rev.moves).toEqual([{ unitCost: '12.000000', amount: '720.00' }]);
    expect(rev.bins.get('A')).toEqual(bin('120.0000', '1500.00', '12.500000'));
    expect(rev.adjustments).toEqual([]);
    // Reversing the 20 @ 15.00 receipt: −20 at −300.00 → 100 pieces worth 1,200.00, average 12.00.
    const back = valueMoves(rev.bins, [
      { bin: 'A', quantity: '-20', cost: 'fixed', amount: '-300.00', unitCost: '15.000000' },
    ]);
    expect(back.bins.get('A')).toEqual(bin('100.0000', '1200.00', '12.000000'));
  });

  it('writes off what a reversal leaves in an empty bin, and a negative value, with an adjustment', () => {
    // 10 @ 1 and 5 @ 4 (30.00 for 15, average 2), 10 issued (20.00): 5 worth 10.00. Reversing the
    // 5 @ 4 receipt (−20.00) leaves no stock and −10.00: the adjustment is +10.00.
    const empty = valueMoves(one(bin('5', '10.00', '2.000000')), [
      { bin: 'A', quantity: '-5', cost: 'fixed', amount: '-20.00', unitCost: '4.000000' },
    ]);
    expect(empty.adjustments).toEqual([{ bin: 'A', amount: '10.00' }]);
    expect(empty.bins.get('A')).toEqual(bin('0.0000', '0.00', '2.000000'));
    // The same with 5 more @ 1 received first: 5 pieces would be worth −5.00; brought to 0.
    const negative = valueMoves(one(bin('10', '15.00', '1.500000')), [
      { bin: 'A', quantity: '-5', cost: 'fixed', amount: '-20.00', unitCost: '4.000000' },
    ]);
    expect(negative.adjustments).toEqual([{ bin: 'A', amount: '5.00' }]);
    expect(negative.bins.get('A')).toEqual(bin('5.0000', '0.00', '0.000000'));
  });

  it('values an unpriced receipt at the average before the posting: a status move is worth 0', () => {
    const bins = new Map([
      ['P', bin('3', '10.00', '3.333333')],
      ['Q', bin('0', '0.00', null)],
    ]);
    // Out of P and back into P (待检 → 合格 within one warehouse): −3.33 then +3.33.
    const r = valueMoves(bins, [
      { bin: 'P', quantity: '1', cost: 'average' },
      { bin: 'P', quantity: '-1', cost: 'average' },
    ]);
    expect(r.moves).toEqual([
      { unitCost: '3.333333', amount: '3.33' },
      { unitCost: '3.333333', amount: '-3.33' },
    ]);
    expect(r.bins.get('P')).toEqual(bin('3.0000', '10.00', '3.333333'));
    // An empty bin without history prices it at nothing; with a last average, at that.
    expect(valueMoves(bins, [{ bin: 'Q', quantity: '4', cost: 'average' }]).moves[0].amount).toBe('0.00');
    const last = new Map([['Q', bin('0', '0.00', '2.500000')]]);
    expect(valueMoves(last, [{ bin: 'Q', quantity: '4', cost: 'average' }]).moves[0].amount).toBe('10.00');
  });

  it('values issues one after another at the share as it stands, the last taking the rest', () => {
    const r = valueMoves(one(bin('3', '10.00', '3.333333')), [
      { bin: 'A', quantity: '-1', cost: 'average' },
      { bin: 'A', quantity: '-1', cost: 'average' },
      { bin: 'A', quantity: '-1', cost: 'average' },
    ]);
    expect(r.moves.map((m) => m.amount)).toEqual(['-3.33', '-3.34', '-3.33']);
    expect(r.bins.get('A')).toEqual(bin('0.0000', '0.00', '3.330000'));
    expect(r.adjustments).toEqual([]);
  });

  it('refuses a move on a bin it was not given', () => {
    expect(() => valueMoves(new Map(), [{ bin: 'X', quantity: '1', cost: 'average' }])).toThrow(/bin X/);
  });
});
