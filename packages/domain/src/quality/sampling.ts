/**
 * GB/T 2828.1-2012 (ISO 2859-1:1999) 计数抽样检验: the sample-size code letters (表 1) and the
 * single sampling plans for normal inspection (表 2-A), as typed data.
 *
 * 表 2-A is a staircase: moving one code letter down and one AQL step left gives the same plan,
 * so each cell is fixed by the sum of the letter's index and the AQL's index (`step`). The rows
 * below are that table written out cell by cell (↓ = 使用箭头下面的第一个抽样方案, ↑ = 使用箭头上面的
 * 第一个抽样方案); `samplingPlan` follows the arrows and answers the sample size of the row it lands on.
 */

export type InspectionLevel = 'S-1' | 'S-2' | 'S-3' | 'S-4' | 'I' | 'II' | 'III';

export const INSPECTION_LEVELS: readonly InspectionLevel[] = ['S-1', 'S-2', 'S-3', 'S-4', 'I', 'II', 'III'];

export const CODE_LETTERS = [
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'H',
  'J',
  'K',
  'L',
  'M',
  'N',
  'P',
  'Q',
  'R',
] as const;
export type CodeLetter = (typeof CODE_LETTERS)[number];

/** 表 2-A: the sample size of each code letter. */
export const SAMPLE_SIZE_OF_LETTER: Record<CodeLetter, number> = {
  A: 2,
  B: 3,
  C: 5,
  D: 8,
  E: 13,
  F: 20,
  G: 32,
  H: 50,
  J: 80,
  K: 125,
  L: 200,
  M: 315,
  N: 500,
  P: 800,
  Q: 1250,
  R: 2000,
};

/**
 * 表 1 样本量字码: lot size range → code letter per inspection level
 * (S-1, S-2, S-3, S-4, I, II, III). `max` null: and above.
 */
export const CODE_LETTER_TABLE: readonly {
  min: number;
  max: number | null;
  letters: Record<InspectionLevel, CodeLetter>;
}[] = [
  [2, 8, 'A', 'A', 'A', 'A', 'A', 'A', 'B'],
  [9, 15, 'A', 'A', 'A', 'A', 'A', 'B', 'C'],
  [16, 25, 'A', 'A', 'B', 'B', 'B', 'C', 'D'],
  [26, 50, 'A', 'B', 'B', 'C', 'C', 'D', 'E'],
  [51, 90, 'B', 'B', 'C', 'C', 'C', 'E', 'F'],
  [91, 150, 'B', 'B', 'C', 'D', 'D', 'F', 'G'],
  [151, 280, 'B', 'C', 'D', 'E', 'E', 'G', 'H'],
  [281, 500, 'B', 'C', 'D', 'E', 'F', 'H', 'J'],
  [501, 1200, 'C', 'C', 'E', 'F', 'G', 'J', 'K'],
  [1201, 3200, 'C', 'D', 'E', 'G', 'H', 'K', 'L'],
  [3201, 10000, 'C', 'D', 'F', 'G', 'J', 'L', 'M'],
  [10001, 35000, 'C', 'D', 'F', 'H', 'K', 'M', 'N'],
  [35001, 150000, 'D', 'E', 'G', 'J', 'L', 'N', 'P'],
  [150001, 500000, 'D', 'E', 'G', 'J', 'M', 'P', 'Q'],
  [500001, null, 'D', 'E', 'H', 'K', 'N', 'Q', 'R'],
].map(([min, max, ...l]) => ({
  min: min as number,
  max: max as number | null,
  letters: Object.fromEntries(INSPECTION_LEVELS.map((lv, i) => [lv, l[i]])) as Record<
    InspectionLevel,
    CodeLetter
  >,
}));

/** The AQL series of 表 2-A (≤ 10: 不合格品百分数; above: 每百单位不合格数). */
export const AQL_VALUES = [
  '0.010',
  '0.015',
  '0.025',
  '0.040',
  '0.065',
  '0.10',
  '0.15',
  '0.25',
  '0.40',
  '0.65',
  '1.0',
  '1.5',
  '2.5',
  '4.0',
  '6.5',
  '10',
  '15',
  '25',
  '40',
  '65',
  '100',
  '150',
  '250',
  '400',
  '650',
  '1000',
] as const;
export type Aql = (typeof AQL_VALUES)[number];

/** A cell of 表 2-A: [Ac, Re], or an arrow. */
export type PlanCell = readonly [number, number] | '↓' | '↑';

/** The plans along the staircase, by step = letter index + AQL index. */
const STAIR: Record<number, PlanCell> = {
  14: [0, 1],
  15: '↑',
  16: '↓',
  17: [1, 2],
  18: [2, 3],
  19: [3, 4],
  20: [5, 6],
  21: [7, 8],
  22: [10, 11],
  23: [14, 15],
  24: [21, 22],
  25: [30, 31],
  26: [44, 45],
};

function cellAt(letter: number, aql: number): PlanCell {
  const step = letter + aql;
  if (step < 14) return '↓';
  if (step > 26) return '↑';
  // The percent-nonconforming columns (AQL ≤ 10) stop at Ac 21.
  if (aql <= AQL_VALUES.indexOf('10') && step > 24) return '↑';
  // R is the last row: nothing below it. The cell R × AQL 0.015 is taken as Ac 1 Re 2 (the plan
  // the staircase reaches from above); NOT verified against a readable reproduction of 表 2-A /
  // ISO 2859-1 Table II-A — the copies found by the reference search (pdfcoffee.com「AQL sampling
  // chart」, archive.org IS 2500-1) did not render that row legibly. Check it before relying on it.
  if (letter === CODE_LETTERS.length - 1 && step === 16) return [1, 2];
  return STAIR[step];
}

/** 表 2-A written out: code letter → AQL → cell. */
export const SINGLE_NORMAL_TABLE: Record<CodeLetter, Record<Aql, PlanCell>> = Object.fromEntries(
  CODE_LETTERS.map((letter, li) => [
    letter,
    Object.fromEntries(AQL_VALUES.map((aql, ai) => [aql, cellAt(li, ai)])),
  ]),
) as Record<CodeLetter, Record<Aql, PlanCell>>;

/** 表 1: the code letter of a lot size at an inspection level. */
export function codeLetterFor(lotSize: number, level: InspectionLevel): CodeLetter {
  if (!Number.isFinite(lotSize) || lotSize < 1) throw new Error('批量必须大于 0');
  const row = CODE_LETTER_TABLE.find((r) => lotSize >= r.min && (r.max === null || lotSize <= r.max));
  return (row ?? CODE_LETTER_TABLE[0]).letters[level];
}

export interface SamplingPlan {
  /** The code letter of the lot (表 1). */
  codeLetter: CodeLetter;
  /** The code letter whose plan is used after following the arrows. */
  planLetter: CodeLetter;
  sampleSize: number;
  ac: number;
  re: number;
  /** The sample size reaches the lot size: inspect every piece (100% 检验). */
  hundredPercent: boolean;
}

/** 正常检验一次抽样方案 for a lot size, level and AQL. */
export function samplingPlan(lotSize: number, level: InspectionLevel, aql: Aql): SamplingPlan {
  const codeLetter = codeLetterFor(lotSize, level);
  let li = CODE_LETTERS.indexOf(codeLetter);
  let cell = SINGLE_NORMAL_TABLE[codeLetter][aql];
  while (typeof cell === 'string') {
    li += cell === '↓' ? 1 : -1;
    cell = SINGLE_NORMAL_TABLE[CODE_LETTERS[li]][aql];
  }
  const planLetter = CODE_LETTERS[li];
  const n = SAMPLE_SIZE_OF_LETTER[planLetter];
  return {
    codeLetter,
    planLetter,
    sampleSize: Math.min(n, lotSize),
    ac: cell[0],
    re: cell[1],
    hundredPercent: n >= lotSize,
  };
}
