import { racewayDiameters, type SizeStage, stepNominal } from '@ringmes/domain';

/**
 * The demo's step-level inspection item sets (检验模板 per product × process step), as the rings'
 * drawings give them: what each inspected step of a ring's route checks, at the size that step
 * leaves. Shared by the quality seed (the templates) and the technology seed (the drawings that
 * state these sizes, and the templates' link to them).
 *
 * Where the figures come from:
 *  - finished sizes: the product's d, D, B and class; their limits are ISO 492's, derived by the
 *    ring standard (lines left without values at the finished stage);
 *  - turning: finished size + grinding allowance, 0.40 mm on diameters (0.3–0.5 mm is usual for
 *    rings of this size) and 0.30 mm on the width, turned to ±0.05 mm;
 *  - raceways: pitch diameter ± ball diameter (`racewayDiameters`); ground to ±0.010 mm leaving
 *    0.004 mm on the diameter for superfinishing (superfinishing removes about 0.5–2 μm a side,
 *    cn-yingfei.com "Superfinishing: how a micron-level process creates quiet bearings");
 *  - raceway roundness and Ra: the demo drawings' values (Ra 0.04–0.08 μm is the usual aim after
 *    superfinishing, zysbearing.com "Function and requirements of finishing of rolling surface");
 *  - radial clearance of the assembled bearing: ISO 5753-1 group N, 5–20 μm for 18 < d ≤ 30
 *    (shjfbearing.com, ktaiballbearing.com "radial internal clearance of deep groove ball bearings").
 */

/** Items the step sets use beyond the generic ones of demo-quality.ts (measured in μm or mm). */
export const STEP_ITEMS: Record<string, unknown>[] = [
  {
    code: 'QI-RW',
    name: '沟道直径',
    kind: 'measure',
    feature: 'raceway',
    unit: 'mm',
    instrument: '沟道测量仪 D022',
    samplingMode: 'fixed',
    sampleSize: 5,
    method: '沟底直径，按工序图的本工序尺寸；车削和磨削后各测一次',
  },
  {
    code: 'QI-RA',
    name: '沟道粗糙度 Ra',
    kind: 'measure',
    feature: 'raceway-roughness',
    unit: 'μm',
    instrument: '粗糙度仪 TR200',
    samplingMode: 'fixed',
    sampleSize: 2,
    method: '沿沟道圆周方向测量，取样长度 0.25 mm',
  },
  {
    code: 'QI-RR',
    name: '沟道圆度',
    kind: 'measure',
    feature: 'raceway-roundness',
    unit: 'μm',
    instrument: '圆度仪',
    samplingMode: 'fixed',
    sampleSize: 2,
  },
  {
    code: 'QI-GR',
    name: '径向游隙',
    kind: 'measure',
    feature: 'radial-clearance',
    unit: 'μm',
    instrument: '游隙仪 X091',
    samplingMode: 'fixed',
    sampleSize: 5,
    method: '成套轴承，测量负荷下径向游隙，按 GB/T 4604.1（ISO 5753-1）组别',
  },
  {
    code: 'QI-VB',
    name: '振动/噪声',
    kind: 'count',
    feature: 'vibration',
    instrument: '振动测量仪 S0910',
    samplingMode: 'aql',
    inspectionLevel: 'II',
    aql: '0.65',
    method: '按 JB/T 7047 振动（速度）分组，注脂压盖后测；听音无异响',
  },
  {
    code: 'QI-RT',
    name: '旋转灵活性',
    kind: 'count',
    samplingMode: 'fixed',
    sampleSize: 5,
    method: '手转内圈，无卡滞、无异响',
  },
];

/** One line of a step set: the item by code and the size its step leaves (item's unit). */
export interface StepLineSpec {
  item: string;
  nominal?: string;
  upperTolerance?: string;
  lowerTolerance?: string;
  allowance?: string;
}

export interface StepSetSpec {
  process: string;
  stage: SizeStage;
  lines: StepLineSpec[];
}

/** Ball diameters (mm) of the demo bearings' models. */
export const BALL_OF_MODEL: Record<string, string> = {
  '6204': '7.938',
  '6205': '7.938',
  '6206': '9.525',
  '6305': '10.319',
};

const GRIND_ALLOWANCE = '0.40';
const WIDTH_ALLOWANCE = '0.30';
const SUPERFINISH_ALLOWANCE = '0.004';
const TURN = { upperTolerance: '0.05', lowerTolerance: '-0.05' };
const GRIND = { upperTolerance: '0.010', lowerTolerance: '-0.010' };

/**
 * A ring's inspected steps: its turning step (车外圈/车内圈, or 精车 for forgings), 磨沟道 and 超精.
 * An outer ring checks D, its width and its raceway; an inner ring d, its width and its raceway.
 */
export function ringStepSets(input: {
  model: string;
  ring: 'IR' | 'OR';
  grade: string;
  d: number;
  D: number;
  turning: string;
}): StepSetSpec[] {
  const { ring, grade, d, D } = input;
  const outer = ring === 'OR';
  const raceway = racewayDiameters(d, D, BALL_OF_MODEL[input.model])[outer ? 'outer' : 'inner'];
  const racewaySurface = outer ? 'internal' : 'external';
  const diameter = outer ? 'QI-DD' : 'QI-D';
  const p6 = grade === 'P6';
  return [
    {
      process: input.turning,
      stage: 'turning',
      lines: [
        // The nominal of d/D and the width is filled from the product's size and the allowance.
        { item: diameter, allowance: GRIND_ALLOWANCE, ...TURN },
        { item: 'QI-B', allowance: WIDTH_ALLOWANCE, ...TURN },
        {
          item: 'QI-RW',
          nominal: stepNominal(raceway, racewaySurface, GRIND_ALLOWANCE),
          allowance: GRIND_ALLOWANCE,
          ...TURN,
        },
        { item: 'QI-V' },
      ],
    },
    {
      process: 'GX100',
      stage: 'grinding',
      lines: [
        {
          item: 'QI-RW',
          nominal: stepNominal(raceway, racewaySurface, SUPERFINISH_ALLOWANCE),
          allowance: SUPERFINISH_ALLOWANCE,
          ...GRIND,
        },
        { item: 'QI-RR', nominal: '0', upperTolerance: p6 ? '2' : '3' },
        // Ground to size before 磨沟道 (磨外径/磨内径, 磨端面): the finished ISO 492 limits.
        { item: diameter },
        { item: 'QI-B' },
        { item: 'QI-V' },
      ],
    },
    {
      process: 'GX110',
      stage: 'final',
      lines: [
        { item: 'QI-RA', nominal: '0', upperTolerance: p6 ? '0.05' : '0.08' },
        { item: 'QI-RR', nominal: '0', upperTolerance: p6 ? '1.5' : '2' },
        { item: 'QI-V' },
      ],
    },
  ];
}

/** The finished bearing's 末检 at 压盖: d, D, B by ISO 492, clearance group N, vibration, rotation. */
export function bearingStepSets(): StepSetSpec[] {
  return [
    {
      process: 'GX200',
      stage: 'final',
      lines: [
        { item: 'QI-D' },
        { item: 'QI-DD' },
        { item: 'QI-B' },
        { item: 'QI-GR', nominal: '0', upperTolerance: '20', lowerTolerance: '5' },
        { item: 'QI-VB' },
        { item: 'QI-RT' },
      ],
    },
  ];
}
