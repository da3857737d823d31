/**
 * GB/T 2828.1-2012 (= ISO 2859-1:1999) 计数抽样检验, single sampling: the sample-size code
 * letters (表 1) and the master tables of single sampling plans for normal (表 2-A), tightened
 * (表 2-B) and reduced (表 2-C) inspection, written out as the standard prints them — one string
 * per code letter, one cell per AQL from 0.010 to 1000: `Ac/Re`, `↓` (使用箭头下面的第一个抽样方案),
 * `↑` (使用箭头上面的第一个抽样方案), `—` (no plan: the extra row S of 表 2-B).
 *
 * Following an arrow changes the sample size: the plan used is the row the arrow lands on, and
 * its sample size is that row's (同行原则). When the sample size reaches the lot size every piece
 * is inspected (100 % 检验). Reduced inspection has its own sample sizes (A–C: 2, … R: 800) and,
 * since the 1999 edition, Re = Ac + 1 everywhere (no gap between Ac and Re).
 *
 * Where the cells come from and how they were checked: sampling.test.ts (every cell was compared
 * with a published transcription of GB/T 2828.1-2012; 表 2-A/2-B also with ANSI/ASQ Z1.4, which
 * differs in one cell: 表 2-B A × AQL 10, Z1.4 ↓ to D 8 1/2, GB/T 2828.1 0/1 — we follow GB/T).
 * The switching rules between the three tables are in sampling-switching.ts.
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
/** A row of a master table: the code letters, and S (n = 3150) which only 表 2-B has. */
export type PlanLetter = CodeLetter | 'S';

/** 检验严格度: 正常 / 加严 / 放宽, each with its master table. */
export type Severity = 'normal' | 'tightened' | 'reduced';
export const SEVERITIES: readonly { value: Severity; label: string; table: string; color: string }[] = [
  { value: 'normal', label: '正常', table: '表 2-A', color: 'blue' },
  { value: 'tightened', label: '加严', table: '表 2-B', color: 'red' },
  { value: 'reduced', label: '放宽', table: '表 2-C', color: 'green' },
];
export const severityLabel = (s: Severity) => SEVERITIES.find((x) => x.value === s)?.label ?? s;

/** 表 2-A / 2-B: the sample size of each row. */
export const SAMPLE_SIZE_OF_LETTER: Record<PlanLetter, number> = {
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
  S: 3150,
};

/** 表 2-C: reduced inspection's sample sizes (A, B and C all 2). */
export const REDUCED_SAMPLE_SIZE_OF_LETTER: Record<CodeLetter, number> = {
  A: 2,
  B: 2,
  C: 2,
  D: 3,
  E: 5,
  F: 8,
  G: 13,
  H: 20,
  J: 32,
  K: 50,
  L: 80,
  M: 125,
  N: 200,
  P: 315,
  Q: 500,
  R: 800,
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

/** The AQL series of the master tables (≤ 10: 不合格品百分数 or 每百单位不合格数; above: 每百单位不合格数 only). */
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

// The master tables. Columns: the AQLs above, in order (0.010 … 1000).
// biome-ignore format: the rows of the standard, aligned by AQL column
const TABLE_2A = [
  'A ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31',
  'B ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31 44/45',
  'C ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31 44/45 ↑',
  'D ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31 44/45 ↑     ↑',
  'E ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31 44/45 ↑     ↑     ↑',
  'F ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑',
  'G ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'H ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'J ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'K ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'L ↓     ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'M ↓     ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'N ↓     ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'P ↓     0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'Q 0/1   ↑     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'R ↑     ↑     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
] as const;

// biome-ignore format: the rows of the standard, aligned by AQL column
const TABLE_2B = [
  'A ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 27/28',
  'B ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 27/28 41/42',
  'C ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 27/28 41/42 ↑',
  'D ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 27/28 41/42 ↑     ↑',
  'E ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 27/28 41/42 ↑     ↑     ↑',
  'F ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑',
  'G ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'H ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'J ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'K ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'L ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'M ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'N ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'P ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'Q ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'R 0/1   ↑     ↓     1/2   2/3   3/4   5/6   8/9   12/13 18/19 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'S —     —     1/2   —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —     —',
] as const;

// biome-ignore format: the rows of the standard, aligned by AQL column
const TABLE_2C = [
  'A ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↓     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31',
  'B ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   7/8   10/11 14/15 21/22 30/31',
  'C ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 14/15 21/22 ↑',
  'D ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 14/15 21/22 ↑     ↑',
  'E ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 14/15 21/22 ↑     ↑     ↑',
  'F ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑',
  'G ↓     ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'H ↓     ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'J ↓     ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'K ↓     ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'L ↓     ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'M ↓     ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'N ↓     ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'P ↓     0/1   ↑     ↓     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'Q 0/1   ↑     ↑     ↓     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
  'R ↑     ↑     ↑     1/2   2/3   3/4   5/6   6/7   8/9   10/11 ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑     ↑',
] as const;

/** A cell of a master table: a plan, an arrow, or no plan (—). */
export type PlanCell = { ac: number; re: number } | '↓' | '↑' | null;

export interface MasterTable {
  severity: Severity;
  /** 表 2-A / 表 2-B / 表 2-C. */
  table: string;
  title: string;
  /** The rows in order (A … R, and S in 表 2-B). */
  letters: readonly PlanLetter[];
  sampleSizes: Readonly<Partial<Record<PlanLetter, number>>>;
  /** Row → the 26 cells, in AQL order. */
  cells: Readonly<Partial<Record<PlanLetter, readonly PlanCell[]>>>;
}

function parseCell(text: string): PlanCell {
  if (text === '↓' || text === '↑') return text;
  if (text === '—') return null;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) throw new Error(`抽样表单元格无法识别：${text}`);
  return { ac: Number(m[1]), re: Number(m[2]) };
}

function masterTable(
  severity: Severity,
  table: string,
  title: string,
  rows: readonly string[],
  sizes: Partial<Record<PlanLetter, number>>,
): MasterTable {
  const cells: Partial<Record<PlanLetter, PlanCell[]>> = {};
  const letters: PlanLetter[] = [];
  for (const row of rows) {
    const [letter, ...texts] = row.trim().split(/\s+/);
    if (texts.length !== AQL_VALUES.length)
      throw new Error(`${table} ${letter} 行应有 ${AQL_VALUES.length} 格`);
    letters.push(letter as PlanLetter);
    cells[letter as PlanLetter] = texts.map(parseCell);
  }
  return { severity, table, title, letters, sampleSizes: sizes, cells };
}

export const MASTER_TABLES: Readonly<Record<Severity, MasterTable>> = {
  normal: /* @__PURE__ */ masterTable(
    'normal',
    '表 2-A',
    '正常检验一次抽样方案',
    TABLE_2A,
    SAMPLE_SIZE_OF_LETTER,
  ),
  tightened: /* @__PURE__ */ masterTable(
    'tightened',
    '表 2-B',
    '加严检验一次抽样方案',
    TABLE_2B,
    SAMPLE_SIZE_OF_LETTER,
  ),
  reduced: /* @__PURE__ */ masterTable(
    'reduced',
    '表 2-C',
    '放宽检验一次抽样方案',
    TABLE_2C,
    REDUCED_SAMPLE_SIZE_OF_LETTER,
  ),
};

/** Bad input to the tables (a lot size, level, AQL or severity they do not know): 400, never 500. */
export class SamplingInputError extends Error {
  constructor(
    readonly field: 'lotSize' | 'level' | 'aql' | 'severity',
    message: string,
  ) {
    super(message);
    this.name = 'SamplingInputError';
  }
}

const isLevel = (v: unknown): v is InspectionLevel => INSPECTION_LEVELS.includes(v as InspectionLevel);
const isAql = (v: unknown): v is Aql => AQL_VALUES.includes(v as Aql);
const isSeverity = (v: unknown): v is Severity => SEVERITIES.some((s) => s.value === v);

function checkLotSize(lotSize: number) {
  if (typeof lotSize !== 'number' || !Number.isInteger(lotSize) || lotSize < 1)
    throw new SamplingInputError('lotSize', '批量必须是不小于 1 的整数');
  if (lotSize > Number.MAX_SAFE_INTEGER) throw new SamplingInputError('lotSize', '批量过大');
}

/** 表 1: the code letter of a lot size at an inspection level (a lot of 1 reads the first row). */
export function codeLetterFor(lotSize: number, level: InspectionLevel): CodeLetter {
  checkLotSize(lotSize);
  if (!isLevel(level)) throw new SamplingInputError('level', '检验水平只能是 S-1、S-2、S-3、S-4、I、II、III');
  const row = CODE_LETTER_TABLE.find((r) => lotSize >= r.min && (r.max === null || lotSize <= r.max));
  return (row ?? CODE_LETTER_TABLE[0]).letters[level];
}

/** Where a table's arrows lead from a row at an AQL: the row holding the plan, and the plan. */
export function resolveCell(
  severity: Severity,
  letter: PlanLetter,
  aql: Aql,
): { letter: PlanLetter; ac: number; re: number; arrow: '↓' | '↑' | null } {
  const t = MASTER_TABLES[severity];
  const col = AQL_VALUES.indexOf(aql);
  let row = t.letters.indexOf(letter);
  const first = t.cells[letter]?.[col];
  let cell = first;
  // An arrow points to the first plan in its direction; every arrow of the three tables reaches
  // one (sampling.test.ts walks all of them), so a missing plan is a broken table, not bad input.
  while (cell === '↓' || cell === '↑') {
    row += cell === '↓' ? 1 : -1;
    const at = t.letters[row];
    cell = at === undefined ? undefined : t.cells[at]?.[col];
  }
  if (!cell) throw new Error(`${t.table} ${letter} × AQL ${aql} 没有抽样方案`);
  return {
    letter: t.letters[row],
    ac: cell.ac,
    re: cell.re,
    arrow: first === '↓' || first === '↑' ? first : null,
  };
}

export interface SamplingPlan {
  severity: Severity;
  /** 表 2-A / 2-B / 2-C. */
  table: string;
  /** The code letter of the lot (表 1). */
  codeLetter: CodeLetter;
  /** The row whose plan is used after following the arrows (its sample size is used). */
  planLetter: PlanLetter;
  /** The arrow followed from the lot's own cell, if any. */
  arrow: '↓' | '↑' | null;
  /** The plan's sample size in the table. */
  tableSampleSize: number;
  /** Pieces to inspect: the table's sample size, or the whole lot when that reaches it. */
  sampleSize: number;
  ac: number;
  re: number;
  /** The sample size reaches the lot size: inspect every piece (100% 检验). */
  hundredPercent: boolean;
}

/**
 * 一次抽样方案 for a lot size, inspection level, AQL and severity (正常 by default): 表 1 gives the
 * code letter, the severity's master table the plan, following its arrows. Throws
 * `SamplingInputError` on input the tables do not cover.
 */
export function samplingPlan(
  lotSize: number,
  level: InspectionLevel,
  aql: Aql,
  severity: Severity = 'normal',
): SamplingPlan {
  if (!isAql(aql)) throw new SamplingInputError('aql', 'AQL 不在 GB/T 2828.1 的优先值中（0.010 … 1000）');
  if (!isSeverity(severity)) throw new SamplingInputError('severity', '检验严格度只能是正常、加严或放宽');
  const codeLetter = codeLetterFor(lotSize, level);
  const t = MASTER_TABLES[severity];
  const cell = resolveCell(severity, codeLetter, aql);
  const n = t.sampleSizes[cell.letter] as number;
  return {
    severity,
    table: t.table,
    codeLetter,
    planLetter: cell.letter,
    arrow: cell.arrow,
    tableSampleSize: n,
    sampleSize: Math.min(n, lotSize),
    ac: cell.ac,
    re: cell.re,
    hundredPercent: n >= lotSize,
  };
}

/**
 * The switching score's question (9.3.3.2, Ac ≥ 2): would the lot have been accepted had the AQL
 * been one step tighter? The acceptance number of the normal plan one AQL column to the left on
 * the same row (same sample size); null where that cell is no plan or there is no tighter AQL.
 */
export function acceptNumberOneStepTighter(planLetter: PlanLetter, aql: Aql): number | null {
  const col = AQL_VALUES.indexOf(aql);
  if (col <= 0) return null;
  const cell = MASTER_TABLES.normal.cells[planLetter]?.[col - 1];
  return cell && typeof cell === 'object' ? cell.ac : null;
}

export * from './sampling-switching.ts';
