import { describe, expect, it } from 'vitest';
import {
  AQL_VALUES,
  type Aql,
  acceptNumberOneStepTighter,
  CODE_LETTER_TABLE,
  CODE_LETTERS,
  codeLetterFor,
  INSPECTION_LEVELS,
  type InspectionLevel,
  MASTER_TABLES,
  type PlanLetter,
  resolveCell,
  SamplingInputError,
  type Severity,
  samplingPlan,
  switchingScoreIncrement,
  switchingState,
} from './sampling.ts';

/*
 * What the tables were checked against (issue 38 §1).
 *
 * 1. Every one of the 3 × 16 × 26 = 1248 cells (code letter × AQL × severity, arrows followed)
 *    was compared, resolved plan by resolved plan (row, n, Ac), with a published TypeScript
 *    transcription of GB/T 2828.1-2012 表 2-A/2-B/2-C (an `aql.ts` with MASTER_2A/2B/2C_RAW, which
 *    states it was transcribed double-blind from the scanned standard, pages 15–17): 0 differences.
 * 2. 表 2-A and 表 2-B against ANSI/ASQ Z1.4 (same tables as ISO 2859-1 for normal and tightened
 *    single sampling), as encoded in the R package AQLSchemes (fjgonzalezmgt/AQLSchemesCust,
 *    R/AAZ14Single.R): agree except 表 2-B A × AQL 10 (Z1.4: ↓ to D, n 8, 1/2; GB/T: 0/1 at A). We
 *    follow GB/T 2828.1. Z1.4's reduced table keeps the 1989 gaps (e.g. 1/3, 2/5), which the 1999
 *    edition removed, so only its gap-free cells (Re = Ac + 1) are compared for 表 2-C.
 * 3. MIL-STD-105E as redrawn in a plain-text table (nibs.org AC-TABLE.ASC: normal level II and
 *    tightened level III, AQL 0.65–15) and GB/T 2828.1 exam questions (D × 1.0 → n 13, 0/1;
 *    F × 1.0 → ↑ n 13, 0/1) for the cells marked so below.
 */

type Want = [PlanLetter, number, number, number]; // plan row, n, Ac, Re
const cell = (severity: Severity, letter: PlanLetter, aql: Aql) => {
  const c = resolveCell(severity, letter, aql);
  const t = MASTER_TABLES[severity];
  return [c.letter, t.sampleSizes[c.letter], c.ac, c.re];
};

describe('issue 38 §1: the two defects', () => {
  it('code letter A at AQL 10 (lot 5, level II) gives a plan: ↓ to C, n 5 = the lot, 100 %', () => {
    const p = samplingPlan(5, 'II', '10');
    expect(p).toMatchObject({ codeLetter: 'A', planLetter: 'C', arrow: '↓', ac: 1, re: 2 });
    expect(p.tableSampleSize).toBe(5);
    expect(p.sampleSize).toBe(5);
    expect(p.hundredPercent).toBe(true);
  });

  it('AQL 15, letters K–Q (and R) follow the arrow up to J: n 80, Ac 21, Re 22', () => {
    const lots: [number, InspectionLevel, string][] = [
      [2000, 'II', 'K'],
      [5000, 'II', 'L'],
      [20000, 'II', 'M'],
      [100000, 'II', 'N'],
      [300000, 'II', 'P'],
      [600000, 'II', 'Q'],
      [600000, 'III', 'R'],
    ];
    for (const [lot, level, letter] of lots) {
      const p = samplingPlan(lot, level, '15');
      expect(p, `${letter}`).toMatchObject({ codeLetter: letter, planLetter: 'J', arrow: '↑' });
      expect([p.sampleSize, p.ac, p.re], `${letter}`).toEqual([80, 21, 22]);
    }
  });

  it('rows F–R hold no plan above 21/22 (表 2-A; 2-B 18/19, 2-C 10/11): only A–E go higher', () => {
    const cap: Record<Severity, number> = { normal: 21, tightened: 18, reduced: 10 };
    for (const sev of ['normal', 'tightened', 'reduced'] as Severity[]) {
      for (const letter of CODE_LETTERS.slice(5)) {
        for (const c of MASTER_TABLES[sev].cells[letter] ?? []) {
          if (c && typeof c === 'object') expect(c.ac, `${sev} ${letter}`).toBeLessThanOrEqual(cap[sev]);
        }
      }
    }
    // …so from F on, AQL 100 follows the arrow up to E's 21/22 (n 13), as the cell F × 100 says.
    expect(samplingPlan(100, 'II', '100')).toMatchObject({
      codeLetter: 'F',
      planLetter: 'E',
      ac: 21,
      re: 22,
    });
  });
});

describe('表 2-A normal: hand-checked cells', () => {
  const cases: [PlanLetter, Aql, Want, string][] = [
    ['A', '10', ['C', 5, 1, 2], 'GB/T; Z1.4 n 5 Ac 1'],
    ['A', '6.5', ['A', 2, 0, 1], 'GB/T; Z1.4'],
    ['B', '6.5', ['A', 2, 0, 1], '↑; GB/T; Z1.4'],
    ['D', '1.0', ['E', 13, 0, 1], '↓; exam question'],
    ['F', '1.0', ['E', 13, 0, 1], '↑; exam question'],
    ['H', '0.65', ['J', 80, 1, 2], '↓; MIL-STD-105E level II'],
    ['J', '15', ['J', 80, 21, 22], 'MIL-STD-105E level II (Re 22 at J 15)'],
    ['K', '15', ['J', 80, 21, 22], '↑; issue 38'],
    ['E', '150', ['E', 13, 30, 31], 'GB/T; Z1.4'],
    ['F', '100', ['E', 13, 21, 22], '↑; GB/T; Z1.4 n 13 Ac 21'],
    ['B', '1000', ['B', 3, 44, 45], 'GB/T; Z1.4'],
    ['C', '1000', ['B', 3, 44, 45], '↑; GB/T; Z1.4'],
    ['R', '0.010', ['Q', 1250, 0, 1], '↑; GB/T; Z1.4'],
    ['R', '0.015', ['P', 800, 0, 1], '↑ (no row below R); GB/T; Z1.4 n 800'],
    ['Q', '0.025', ['R', 2000, 1, 2], '↓; GB/T; Z1.4'],
  ];
  it.each(cases)('%s × AQL %s', (letter, aql, want) => {
    expect(cell('normal', letter, aql)).toEqual(want);
  });
});

describe('表 2-B tightened: hand-checked cells', () => {
  const cases: [PlanLetter, Aql, Want, string][] = [
    ['A', '10', ['A', 2, 0, 1], 'GB/T (Z1.4 differs: D 8 1/2)'],
    ['A', '6.5', ['B', 3, 0, 1], '↓; GB/T; Z1.4'],
    ['A', '15', ['C', 5, 1, 2], '↓ twice; GB/T; Z1.4'],
    ['F', '1.0', ['F', 20, 0, 1], 'MIL-STD-105E level III; Z1.4'],
    ['G', '1.0', ['J', 80, 1, 2], '↓ twice; GB/T; Z1.4'],
    ['G', '4.0', ['G', 32, 2, 3], 'MIL-STD-105E level III (Re 3)'],
    ['J', '10', ['J', 80, 12, 13], 'GB/T; Z1.4'],
    ['K', '10', ['K', 125, 18, 19], 'GB/T; Z1.4'],
    ['L', '10', ['K', 125, 18, 19], '↑; GB/T; Z1.4'],
    ['Q', '0.025', ['S', 3150, 1, 2], '↓ to the extra row S; GB/T; Z1.4 n 3150'],
    ['R', '0.015', ['Q', 1250, 0, 1], '↑; GB/T; Z1.4'],
    ['E', '150', ['E', 13, 27, 28], 'GB/T; Z1.4'],
    ['A', '1000', ['A', 2, 27, 28], 'GB/T; Z1.4'],
  ];
  it.each(cases)('%s × AQL %s', (letter, aql, want) => {
    expect(cell('tightened', letter, aql)).toEqual(want);
  });
});

describe('表 2-C reduced: hand-checked cells', () => {
  const cases: [PlanLetter, Aql, Want, string][] = [
    ['A', '10', ['D', 3, 1, 2], '↓ three rows; GB/T'],
    ['C', '6.5', ['E', 5, 1, 2], '↓ twice; GB/T'],
    ['E', '1.0', ['E', 5, 0, 1], 'GB/T; Z1.4'],
    ['H', '10', ['H', 20, 6, 7], 'GB/T (1999: no Ac/Re gap)'],
    ['J', '10', ['J', 32, 8, 9], 'GB/T'],
    ['K', '10', ['K', 50, 10, 11], 'GB/T'],
    ['L', '10', ['K', 50, 10, 11], '↑; GB/T'],
    ['A', '150', ['A', 2, 7, 8], 'GB/T; Z1.4'],
    ['B', '1000', ['B', 2, 30, 31], 'GB/T; Z1.4'],
    ['C', '1000', ['B', 2, 30, 31], '↑; GB/T'],
    ['D', '400', ['D', 3, 21, 22], 'GB/T'],
    ['F', '100', ['E', 5, 10, 11], '↑; GB/T'],
    ['Q', '0.025', ['N', 200, 0, 1], 'long ↑ over P, Q, R; GB/T'],
    ['R', '0.040', ['R', 800, 1, 2], 'GB/T'],
  ];
  it.each(cases)('%s × AQL %s', (letter, aql, want) => {
    expect(cell('reduced', letter, aql)).toEqual(want);
  });
});

describe('the whole tables', () => {
  it('every row has 26 cells and every arrow of every code letter reaches a plan', () => {
    for (const sev of ['normal', 'tightened', 'reduced'] as Severity[]) {
      const t = MASTER_TABLES[sev];
      for (const letter of t.letters) expect(t.cells[letter]).toHaveLength(26);
      for (const letter of CODE_LETTERS)
        for (const aql of AQL_VALUES) {
          const c = resolveCell(sev, letter, aql);
          expect(c.re, `${sev} ${letter} ${aql}`).toBe(c.ac + 1);
          expect(t.sampleSizes[c.letter]).toBeGreaterThan(0);
        }
    }
  });

  it('no cell throws: every lot-size boundary × level × AQL × severity', () => {
    const lots = new Set<number>([1]);
    for (const r of CODE_LETTER_TABLE) {
      lots.add(r.min);
      lots.add(r.min + 1);
      if (r.max) lots.add(r.max);
    }
    lots.add(10_000_000);
    let n = 0;
    for (const lot of lots)
      for (const level of INSPECTION_LEVELS)
        for (const aql of AQL_VALUES)
          for (const sev of ['normal', 'tightened', 'reduced'] as Severity[]) {
            const p = samplingPlan(lot, level, aql, sev);
            expect(p.sampleSize).toBe(Math.min(p.tableSampleSize, lot));
            expect(p.hundredPercent).toBe(p.tableSampleSize >= lot);
            expect(p.re).toBe(p.ac + 1);
            n++;
          }
    expect(n).toBe(lots.size * 7 * 26 * 3);
  });

  it('tightened is never looser than normal, reduced never takes more pieces than normal', () => {
    for (const letter of CODE_LETTERS)
      for (const aql of AQL_VALUES) {
        const nn = cell('normal', letter, aql);
        const tt = cell('tightened', letter, aql);
        const rr = cell('reduced', letter, aql);
        // Same sample size: tightened accepts no more; reduced inspects fewer (or as many) pieces.
        if (nn[1] === tt[1]) expect(tt[2] as number, `${letter} ${aql}`).toBeLessThanOrEqual(nn[2] as number);
        expect(rr[1] as number, `${letter} ${aql}`).toBeLessThanOrEqual(nn[1] as number);
      }
  });

  it('表 1: code letters at the boundaries', () => {
    expect(codeLetterFor(8, 'II')).toBe('A');
    expect(codeLetterFor(9, 'II')).toBe('B');
    expect(codeLetterFor(1200, 'II')).toBe('J');
    expect(codeLetterFor(1201, 'II')).toBe('K');
    expect(codeLetterFor(500000, 'III')).toBe('Q');
    expect(codeLetterFor(500001, 'III')).toBe('R');
    expect(codeLetterFor(500001, 'S-1')).toBe('D');
    expect(codeLetterFor(281, 'I')).toBe('F');
  });

  it('bad input is a SamplingInputError naming the field, in Chinese', () => {
    const bad: [() => unknown, string][] = [
      [() => samplingPlan(0, 'II', '1.0'), 'lotSize'],
      [() => samplingPlan(2.5, 'II', '1.0'), 'lotSize'],
      [() => samplingPlan(Number.NaN, 'II', '1.0'), 'lotSize'],
      [() => samplingPlan(100, 'IV' as InspectionLevel, '1.0'), 'level'],
      [() => samplingPlan(100, 'II', '3' as Aql), 'aql'],
      [() => samplingPlan(100, 'II', '1.0', 'strict' as Severity), 'severity'],
    ];
    for (const [f, field] of bad) {
      try {
        f();
        expect.unreachable(field);
      } catch (e) {
        expect(e).toBeInstanceOf(SamplingInputError);
        expect((e as SamplingInputError).field).toBe(field);
        expect((e as Error).message).toMatch(/[\u4e00-\u9fff]/);
      }
    }
  });

  it('a lot of 500 at level II under each severity (H)', () => {
    expect(samplingPlan(500, 'II', '1.0')).toMatchObject({ table: '表 2-A', sampleSize: 50, ac: 1, re: 2 });
    expect(samplingPlan(500, 'II', '1.0', 'tightened')).toMatchObject({
      table: '表 2-B',
      sampleSize: 80,
      ac: 1,
      re: 2,
    });
    expect(samplingPlan(500, 'II', '1.0', 'reduced')).toMatchObject({
      table: '表 2-C',
      planLetter: 'J',
      sampleSize: 32,
      ac: 1,
      re: 2,
    });
  });

  it('one AQL step tighter on the same row (switching score, Ac ≥ 2)', () => {
    expect(acceptNumberOneStepTighter('J', '2.5')).toBe(3); // J × 1.5 is 3/4
    expect(acceptNumberOneStepTighter('E', '150')).toBe(21); // E × 100 is 21/22
    expect(acceptNumberOneStepTighter('K', '0.10')).toBeNull(); // K × 0.065 is an arrow
    expect(acceptNumberOneStepTighter('Q', '0.010')).toBeNull(); // nothing tighter
  });
});

describe('switching rules (clause 9)', () => {
  const A = { accepted: true };
  const R = { accepted: false };
  const approved = { reducedApproved: true };
  const no = { reducedApproved: false };

  it('starts normal', () => {
    expect(switchingState([], no)).toMatchObject({ severity: 'normal', switchingScore: 0, lots: 0 });
  });

  it('normal → tightened on 2 of 5 consecutive lots not accepted', () => {
    const s = switchingState([R, A, A, A, R], no);
    expect(s.severity).toBe('tightened');
    expect(s.changes).toHaveLength(1);
    expect(s.changes[0]).toMatchObject({ at: 4, from: 'normal', to: 'tightened' });
    expect(s.reason).toContain('转加严');
  });

  it('2 of 6 is not 2 of 5: stays normal, one more rejection switches', () => {
    const s = switchingState([R, A, A, A, A, R], no);
    expect(s.severity).toBe('normal');
    expect(s.rejectedOfLastFive).toBe(1);
    expect(s.next).toContain('再有 1 批不接收即转加严');
    expect(switchingState([R, A, A, A, A, R, R], no).severity).toBe('tightened');
  });

  it('tightened → normal after 5 consecutive accepted; a rejection restarts the count', () => {
    const tight = [R, R];
    expect(switchingState([...tight, A, A, A, A], no)).toMatchObject({
      severity: 'tightened',
      consecutiveAccepted: 4,
    });
    expect(switchingState([...tight, A, A, A, R, A, A, A, A], no).severity).toBe('tightened');
    const back = switchingState([...tight, A, A, A, A, A], no);
    expect(back).toMatchObject({ severity: 'normal', switchingScore: 0, lotsInSeverity: 0 });
    expect(back.changes.map((c) => c.to)).toEqual(['tightened', 'normal']);
  });

  it('discontinued when 5 lots are not accepted on tightened inspection; resumed on tightened', () => {
    const events = [R, R, R, A, R, A, R, A, R, A, R];
    expect(switchingState(events.slice(0, -1), no)).toMatchObject({
      severity: 'tightened',
      rejectedInTightened: 4,
    });
    const stop = switchingState(events, no);
    expect(stop).toMatchObject({ severity: 'tightened', discontinued: true });
    expect(stop.reason).toContain('暂停检验');
    // Lots while discontinued change nothing; a resumption starts tightened afresh.
    expect(switchingState([...events, A, A, A, A, A], no).discontinued).toBe(true);
    const resumed = switchingState([...events, { kind: 'resume' as const }, A, A, A, A], no);
    expect(resumed).toMatchObject({ severity: 'tightened', discontinued: false, consecutiveAccepted: 4 });
    expect(switchingState([...events, { kind: 'resume' as const }, A, A, A, A, A], no).severity).toBe(
      'normal',
    );
  });

  it('switching score, Ac 0 or 1: +2 per accepted lot; 15 lots reach 30 → reduced when approved', () => {
    const lots = Array.from({ length: 15 }, () => ({
      accepted: true,
      items: [{ acceptNumber: 1, defects: 1, tighterAcceptNumber: 0 }],
    }));
    expect(switchingState(lots.slice(0, 14), approved)).toMatchObject({
      severity: 'normal',
      switchingScore: 28,
    });
    expect(switchingState(lots, approved).severity).toBe('reduced');
    const notApproved = switchingState(lots, no);
    expect(notApproved).toMatchObject({ severity: 'normal', switchingScore: 30 });
    expect(notApproved.next).toContain('未批准');
  });

  it('switching score, Ac ≥ 2: +3 when the tighter plan would accept, else back to 0', () => {
    const good = { accepted: true, items: [{ acceptNumber: 3, defects: 2, tighterAcceptNumber: 2 }] };
    const marginal = { accepted: true, items: [{ acceptNumber: 3, defects: 3, tighterAcceptNumber: 2 }] };
    expect(switchingScoreIncrement(good)).toBe(3);
    expect(switchingScoreIncrement(marginal)).toBeNull();
    expect(switchingState([good, good, good, marginal, good], approved).switchingScore).toBe(3);
    const ten = Array.from({ length: 10 }, () => good);
    expect(switchingState(ten.slice(0, 9), approved).switchingScore).toBe(27);
    expect(switchingState(ten, approved).severity).toBe('reduced');
  });

  it('a lot of several items adds the smallest increment, and only when every item adds', () => {
    const both = {
      accepted: true,
      items: [
        { acceptNumber: 1, defects: 0, tighterAcceptNumber: 0 },
        { acceptNumber: 5, defects: 1, tighterAcceptNumber: 3 },
      ],
    };
    expect(switchingScoreIncrement(both)).toBe(2);
    expect(switchingScoreIncrement({ ...both, accepted: false })).toBeNull();
    expect(
      switchingScoreIncrement({
        accepted: true,
        items: [
          { acceptNumber: 1, defects: 0, tighterAcceptNumber: 0 },
          { acceptNumber: 5, defects: 4, tighterAcceptNumber: 3 },
        ],
      }),
    ).toBeNull();
  });

  it('reduced → normal on a lot not accepted, and when the approval is withdrawn', () => {
    const fifteen = Array.from({ length: 15 }, () => A);
    const reduced = switchingState([...fifteen, A, A], approved);
    expect(reduced).toMatchObject({ severity: 'reduced', lotsInSeverity: 2 });
    const back = switchingState([...fifteen, A, R], approved);
    expect(back).toMatchObject({ severity: 'normal', switchingScore: 0 });
    expect(back.changes.map((c) => c.to)).toEqual(['reduced', 'normal']);
    // Without the approval the same history never left normal inspection.
    expect(switchingState([...fifteen, A, A], no).severity).toBe('normal');
  });

  it('a tightened period does not carry its lots into the next normal window', () => {
    // R R → tightened; 5 A → normal; one R right after is only 1 of the new window.
    expect(switchingState([R, R, A, A, A, A, A, R], no).severity).toBe('normal');
    expect(switchingState([R, R, A, A, A, A, A, R, A, R], no).severity).toBe('tightened');
  });
});
