import Decimal from 'decimal.js';
import type { EnumOption } from '../resource/types.ts';
import { PART_TYPES, type PartType } from './bearing-size-fields.ts';
import { characteristicOf } from './ring-standard.ts';

/**
 * 工序尺寸: what a process step leaves on a part, so an inspection at that step checks the right
 * dimension of the right part against the step's size — not the finished bearing's. A ring is
 * turned oversize (车削: the grinding allowance left on every ground surface), ground to size
 * (磨削; the raceway keeps a few μm for superfinishing) and superfinished (超精); only then are the
 * ISO 492 limits of the finished ring the ones that apply. Pure arithmetic, no I/O: the server
 * checks templates with it and the web fills a template's lines with it.
 */

export { PART_TYPES, type PartType };

const partLabel = (p: PartType) => PART_TYPES.find((x) => x.value === p)?.label ?? p;

/** 尺寸阶段 of a process step: which drawing sizes its inspection checks. */
export type SizeStage = 'turning' | 'grinding' | 'final';
export const SIZE_STAGES: EnumOption[] = [
  { value: 'turning', label: '车削尺寸（含磨量）', color: 'orange' },
  { value: 'grinding', label: '磨削尺寸（超精前）', color: 'blue' },
  { value: 'final', label: '成品尺寸', color: 'green' },
];
export const sizeStageLabel = (s: string | null | undefined) =>
  SIZE_STAGES.find((x) => x.value === s)?.label ?? null;

/**
 * Which way machining moves a surface: an external one (outside diameter, the inner ring's
 * raceway) and the width shrink as stock is removed, an internal one (bore, the outer ring's
 * raceway) grows.
 */
export type Surface = 'external' | 'internal' | 'width';

interface FeatureDef {
  value: string;
  label: string;
  /** The parts that have this feature. */
  parts: readonly PartType[];
  /** A size that machining moves (allowance applies), per part where it differs. */
  surface?: Surface | Partial<Record<PartType, Surface>>;
  /** The product's nominal size it is (d, D, B); raceways have none on the product. */
  size?: 'd' | 'D' | 'B';
}

/** 测量部位: what an inspection item measures, and on which parts that exists. */
export const PART_FEATURES = [
  { value: 'bore', label: '内径 d', parts: ['inner', 'bearing'], surface: 'internal', size: 'd' },
  { value: 'outside', label: '外径 D', parts: ['outer', 'bearing'], surface: 'external', size: 'D' },
  { value: 'width', label: '宽度 B/C', parts: ['inner', 'outer', 'bearing'], surface: 'width', size: 'B' },
  {
    value: 'raceway',
    label: '沟道直径',
    parts: ['inner', 'outer'],
    surface: { inner: 'external', outer: 'internal' },
  },
  { value: 'raceway-roughness', label: '沟道粗糙度 Ra', parts: ['inner', 'outer'] },
  { value: 'raceway-roundness', label: '沟道圆度', parts: ['inner', 'outer'] },
  { value: 'radial-clearance', label: '径向游隙', parts: ['bearing'] },
  { value: 'vibration', label: '振动/噪声', parts: ['bearing'] },
] as const satisfies readonly FeatureDef[];

export type PartFeature = (typeof PART_FEATURES)[number]['value'];
export const PART_FEATURE_OPTIONS: EnumOption[] = PART_FEATURES.map((f) => ({
  value: f.value,
  label: f.label,
}));
const featureDef = (f: string | null | undefined): FeatureDef | undefined =>
  PART_FEATURES.find((x) => x.value === f);
export const featureLabel = (f: string | null | undefined) => featureDef(f)?.label ?? null;

/** What an item says it measures: its 测量部位 and/or its ISO 492 套圈特性. */
export interface ItemMeasures {
  feature?: string | null;
  ringCharacteristic?: string | null;
}

/** The feature a ring characteristic is a size of: Δdmp → bore, ΔDmp → outside, ΔBs/ΔCs → width; variations none. */
export function featureOfCharacteristic(code: string | null | undefined): PartFeature | null {
  const c = characteristicOf(String(code ?? ''));
  if (!c) return null;
  if (c.dimension === 'B' || c.dimension === 'C') return 'width';
  return c.dimension === 'd' ? 'bore' : 'outside';
}

/** Does the characteristic concern the ring's diameter d/D (Δdmp, Vdsp, Kia…) rather than its width? */
const isWidthCharacteristic = (code: string) => {
  const c = characteristicOf(code);
  return c?.dimension === 'B' || c?.dimension === 'C';
};

/**
 * The parts an item belongs to, or null when it belongs to every part (appearance, hardness,
 * packaging). An inner-ring characteristic (Δdmp, Vdsp, Kia) is the inner ring's and the
 * bearing's; an outer-ring one the outer ring's and the bearing's; widths every part's.
 */
export function partsOfItem(item: ItemMeasures): readonly PartType[] | null {
  if (item.ringCharacteristic) {
    const c = characteristicOf(item.ringCharacteristic);
    if (c) {
      if (isWidthCharacteristic(c.code)) return ['inner', 'outer', 'bearing'];
      return c.ringType === 'inner' ? ['inner', 'bearing'] : ['outer', 'bearing'];
    }
  }
  return featureDef(item.feature)?.parts ?? null;
}

/** Does the item belong to the part? Unknown part (a product without 零件类型): every item does. */
export function itemFitsPart(part: PartType | null | undefined, item: ItemMeasures): boolean {
  if (!part) return true;
  const parts = partsOfItem(item);
  return !parts || parts.includes(part);
}

/**
 * Why an item does not belong to a part, in the words a quality engineer reads (「外圈没有内径 d…」),
 * or null when it does.
 */
export function whyNotForPart(
  part: PartType | null | undefined,
  item: ItemMeasures,
  itemName: string,
): string | null {
  if (itemFitsPart(part, item)) return null;
  const parts = (partsOfItem(item) ?? []).map(partLabel).join('、');
  const what =
    featureLabel(item.feature) ??
    featureLabel(featureOfCharacteristic(item.ringCharacteristic)) ??
    characteristicOf(String(item.ringCharacteristic))?.symbol;
  const hint =
    part === 'outer' ? '外圈检外径 D、宽度和沟道' : part === 'inner' ? '内圈检内径 d、宽度和沟道' : '';
  return `「${itemName}」测量${what ?? '的部位'}，属于${parts}，${partLabel(part as PartType)}没有该部位${hint ? `（${hint}）` : ''}`;
}

/**
 * The characteristic of the part's own ring: an outer ring's width is ΔCs/VCs, an inner ring's
 * ΔBs/VBs (ISO 492 gives the outer ring's ΔCs as the inner ring's ΔBs of the same bearing).
 */
export function characteristicForPart(code: string, part: PartType | null | undefined): string {
  if (part === 'outer') return code === 'Bs' ? 'Cs' : code === 'VBs' ? 'VCs' : code;
  if (part === 'inner') return code === 'Cs' ? 'Bs' : code === 'VCs' ? 'VBs' : code;
  return code;
}

/** The size feature an item measures: its 测量部位, else the size its characteristic is (not a variation). */
export function sizeFeatureOf(item: ItemMeasures): PartFeature | null {
  const f = featureDef(item.feature);
  if (f) return 'surface' in f ? (f.value as PartFeature) : null;
  const c = characteristicOf(String(item.ringCharacteristic ?? ''));
  return c?.kind === 'deviation' ? featureOfCharacteristic(c.code) : null;
}

/** How machining moves the feature on this part; null for what is not a machined size. */
export function surfaceOf(
  feature: string | null | undefined,
  part: PartType | null | undefined,
): Surface | null {
  const f = featureDef(feature);
  if (!f?.surface) return null;
  if (typeof f.surface === 'string') return f.surface;
  return (part && f.surface[part]) || null;
}

/** The product's finished size of a feature (mm), if it has one: d, D or B. */
export function finalSizeOf(
  sizes: { d?: Decimal.Value | null; D?: Decimal.Value | null; B?: Decimal.Value | null },
  feature: string | null | undefined,
): string | null {
  const key = featureDef(feature)?.size;
  const v = key ? sizes[key] : null;
  return v == null ? null : new Decimal(v).toString();
}

/**
 * The size a step leaves (mm): the finished size plus the stock the following steps remove —
 * on a diameter `allowance` is on the diameter, on a width on the width. External surfaces and
 * widths are left larger, internal ones smaller: a 52 mm outside diameter with 0.40 mm grinding
 * allowance is turned to 52.40, a 25 mm bore to 24.60.
 */
export function stepNominal(final: Decimal.Value, surface: Surface, allowance: Decimal.Value): string {
  const a = new Decimal(allowance);
  return (surface === 'internal' ? new Decimal(final).minus(a) : new Decimal(final).plus(a)).toString();
}

/** The finished size a step's size comes to once its allowance is removed (the inverse of `stepNominal`). */
export function finalFromStep(step: Decimal.Value, surface: Surface, allowance: Decimal.Value): string {
  const a = new Decimal(allowance);
  return (surface === 'internal' ? new Decimal(step).plus(a) : new Decimal(step).minus(a)).toString();
}

/**
 * Limits from a nominal and its deviations, all in the item's unit: nominal + upper, nominal +
 * lower. A missing lower deviation means no lower limit (Ra ≤ 0.08 μm: nominal 0, upper 0.08).
 */
export function toleranceLimits(
  nominal: Decimal.Value | null | undefined,
  upper: Decimal.Value | null | undefined,
  lower: Decimal.Value | null | undefined,
): { lowerLimit: string | null; upperLimit: string | null } {
  const n = new Decimal(nominal ?? 0);
  return {
    lowerLimit: lower == null ? null : n.plus(lower).toFixed(4),
    upperLimit: upper == null ? null : n.plus(upper).toFixed(4),
  };
}

/** `+0.05/-0.05` → `±0.05`; `0/-0.011`; `≤ 0.08`. */
export function deviationText(
  upper: Decimal.Value | null | undefined,
  lower: Decimal.Value | null | undefined,
): string {
  const s = (v: Decimal.Value) => {
    const d = new Decimal(v);
    return d.isZero() ? '0' : `${d.isPos() ? '+' : ''}${d.toString()}`;
  };
  if (upper == null && lower == null) return '';
  if (lower == null) return `+${new Decimal(upper as Decimal.Value).toString()} 以内`;
  if (upper == null) return `${s(lower)} 起`;
  if (new Decimal(upper).eq(new Decimal(lower).neg()) && !new Decimal(upper).isZero())
    return `±${new Decimal(upper).toString()}`;
  return `${s(upper)}/${s(lower)}`;
}

/** One line of a step's item set: the sizes its drawing gives, in the item's unit. */
export interface StepLine {
  nominal?: Decimal.Value | null;
  upperTolerance?: Decimal.Value | null;
  lowerTolerance?: Decimal.Value | null;
  /** Stock left for the following steps (mm, on the diameter or the width). */
  allowance?: Decimal.Value | null;
}

/** Does the line carry the step's own limits (rather than leaving them to the standard)? */
export const hasStepValues = (l: StepLine) => l.nominal != null || l.upperTolerance != null;

/** A line's problem and the field of the line it concerns. */
export interface StepLineProblem {
  field: 'nominal' | 'upperTolerance' | 'lowerTolerance' | 'allowance';
  message: string;
}

/**
 * What is wrong with a line of a step's item set, or null. At 车削 every measured size carries
 * its own size with the grinding allowance (the finished limits do not apply before grinding);
 * wherever an allowance and the product's finished size are known, the step's nominal must be
 * the finished size moved by the allowance (`stepNominal`).
 */
export function stepLineProblem(input: {
  stage: SizeStage | null | undefined;
  part: PartType | null | undefined;
  item: ItemMeasures & { name: string; kind: string };
  line: StepLine;
  /** The product's finished size of the item's feature (mm), when it has one. */
  finalSize: Decimal.Value | null | undefined;
}): StepLineProblem | null {
  const { stage, part, item, line, finalSize } = input;
  const name = `「${item.name}」`;
  const at = (field: StepLineProblem['field'], message: string) => ({ field, message });
  if (item.kind !== 'measure')
    return hasStepValues(line) || line.lowerTolerance != null || line.allowance != null
      ? at('nominal', `${name}是计数项目，不填尺寸`)
      : null;
  if ((line.nominal != null || line.lowerTolerance != null) && line.upperTolerance == null)
    return at('upperTolerance', `${name}：请填写本工序的上偏差（或最大值）`);
  if (
    line.upperTolerance != null &&
    line.lowerTolerance != null &&
    new Decimal(line.upperTolerance).lt(line.lowerTolerance)
  )
    return at('upperTolerance', `${name}的上偏差不能小于下偏差`);
  if (line.allowance != null && new Decimal(line.allowance).isNeg())
    return at('allowance', `${name}的留量不能为负`);
  const feature = sizeFeatureOf(item);
  const surface = surfaceOf(feature, part);
  const isSize = feature !== null;
  if (!isSize && line.allowance != null && !new Decimal(line.allowance).isZero())
    return at('allowance', `${name}不是尺寸项目，没有留量`);
  if (stage === 'turning' && (isSize || item.ringCharacteristic)) {
    if (line.upperTolerance == null)
      return at(
        'upperTolerance',
        `${name}：车削工序检车削尺寸，请按工序图填写本工序的偏差（成品公差在磨削后才适用）`,
      );
    if (isSize && (line.allowance == null || new Decimal(line.allowance).lte(0)))
      return at('allowance', `${name}：车削尺寸须含磨削留量，请填写留量（套圈直径常见 0.3–0.5 mm）`);
  }
  if (
    isSize &&
    line.nominal == null &&
    line.upperTolerance != null &&
    (line.allowance == null || finalSize == null || !surface)
  )
    return at('nominal', `${name}：请填写本工序的名义尺寸`);
  if (isSize && surface && line.nominal != null && line.allowance != null && finalSize != null) {
    const expected = stepNominal(finalSize, surface, line.allowance);
    if (!new Decimal(line.nominal).eq(expected)) {
      const sign = surface === 'internal' ? '−' : '+';
      return at(
        'nominal',
        `${name}的本工序尺寸应为 ${new Decimal(finalSize).toString()} ${sign} ${new Decimal(line.allowance).toString()} = ${expected}（成品尺寸${sign === '+' ? '加' : '减'}留量），填写的是 ${new Decimal(line.nominal).toString()}`,
      );
    }
  }
  return null;
}

/**
 * The nominal a line leaves blank but its allowance and the product's finished size give (the
 * template's lines are filled with it on save); null when nothing to fill.
 */
export function filledNominal(input: {
  part: PartType | null | undefined;
  item: ItemMeasures;
  line: StepLine;
  finalSize: Decimal.Value | null | undefined;
}): string | null {
  const { part, item, line, finalSize } = input;
  if (line.nominal != null || line.allowance == null || finalSize == null) return null;
  const surface = surfaceOf(sizeFeatureOf(item), part);
  return surface ? stepNominal(finalSize, surface, line.allowance) : null;
}

/**
 * The basis of a step's limits as the inspection task states it: 「车削尺寸（含磨量） 52.4 ±0.05
 * （成品 52 + 留量 0.4）」.
 */
export function stepBasisText(input: {
  stage: SizeStage | null | undefined;
  part: PartType | null | undefined;
  item: ItemMeasures;
  line: StepLine;
  unit?: string | null;
}): string {
  const { stage, part, item, line, unit } = input;
  const n = line.nominal == null ? null : new Decimal(line.nominal);
  const dev = deviationText(line.upperTolerance, line.lowerTolerance);
  const size =
    n && !n.isZero()
      ? `${n.toString()} ${dev}`
      : line.lowerTolerance == null && line.upperTolerance != null
        ? `≤ ${new Decimal(line.upperTolerance).toString()}`
        : dev;
  const surface = surfaceOf(sizeFeatureOf(item), part);
  let from = '';
  if (n && surface && line.allowance != null && !new Decimal(line.allowance).isZero()) {
    const sign = surface === 'internal' ? '−' : '+';
    from = `（成品 ${finalFromStep(n, surface, line.allowance)} ${sign} 留量 ${new Decimal(line.allowance).toString()}）`;
  }
  return `${sizeStageLabel(stage) ?? '工序图'} ${size}${unit ? ` ${unit}` : ''}${from}`.trim();
}

/**
 * Raceway (groove bottom) diameters of a deep groove ball bearing from its pitch diameter
 * Dpw = (d + D) / 2 and ball diameter Dw: inner ring Dpw − Dw, outer ring Dpw + Dw (the radial
 * clearance is made by matching rings at 合套, not by the nominal). 6205 with 5/16" balls
 * (7.938 mm): 30.562 and 46.438 mm.
 */
export function racewayDiameters(d: Decimal.Value, D: Decimal.Value, ballDiameter: Decimal.Value) {
  const pitch = new Decimal(d).plus(D).div(2);
  return {
    pitch: pitch.toString(),
    inner: pitch.minus(ballDiameter).toString(),
    outer: pitch.plus(ballDiameter).toString(),
  };
}
