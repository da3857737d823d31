import { describe, expect, it } from 'vitest';
import { deriveRingLimits } from './ring-standard.ts';
import {
  characteristicForPart,
  deviationText,
  filledNominal,
  finalFromStep,
  finalSizeOf,
  itemFitsPart,
  partsOfItem,
  racewayDiameters,
  sizeFeatureOf,
  stepBasisText,
  stepLineProblem,
  stepNominal,
  surfaceOf,
  toleranceLimits,
  whyNotForPart,
} from './step-sizes.ts';

/**
 * The 6205 worked through its steps: d = 25, D = 52, B = 15, balls 5/16" (7.938 mm). Turning
 * leaves 0.40 mm on each ground diameter and 0.30 mm on the width; raceway grinding leaves
 * 0.004 mm on the diameter for superfinishing; the finished ring meets ISO 492.
 */
const sizes6205 = { d: 25, D: 52, B: 15 };

describe('which items belong to which part', () => {
  const bore = { ringCharacteristic: 'dmp' };
  const od = { ringCharacteristic: 'Dmp' };
  it('an outer ring has no bore d, an inner ring no outside diameter D; the bearing has both', () => {
    expect(itemFitsPart('outer', bore)).toBe(false);
    expect(itemFitsPart('outer', od)).toBe(true);
    expect(itemFitsPart('inner', od)).toBe(false);
    expect(itemFitsPart('inner', bore)).toBe(true);
    expect(itemFitsPart('bearing', bore) && itemFitsPart('bearing', od)).toBe(true);
    expect(itemFitsPart('outer', { feature: 'bore' })).toBe(false);
  });
  it('widths, appearance and hardness belong to every part; raceways to rings, clearance to the bearing', () => {
    expect(partsOfItem({ ringCharacteristic: 'Bs' })).toEqual(['inner', 'outer', 'bearing']);
    expect(partsOfItem({})).toBeNull();
    expect(itemFitsPart('outer', {})).toBe(true);
    expect(itemFitsPart('inner', { feature: 'raceway-roughness' })).toBe(true);
    expect(itemFitsPart('bearing', { feature: 'raceway' })).toBe(false);
    expect(itemFitsPart('outer', { feature: 'radial-clearance' })).toBe(false);
    expect(itemFitsPart('bearing', { feature: 'radial-clearance' })).toBe(true);
    // A product without a part type: every item, as before.
    expect(itemFitsPart(null, bore)).toBe(true);
  });
  it('says why in the engineer’s words', () => {
    expect(whyNotForPart('outer', bore, '内径 d')).toBe(
      '「内径 d」测量内径 d，属于内圈、成套轴承，外圈没有该部位（外圈检外径 D、宽度和沟道）',
    );
    expect(whyNotForPart('inner', od, '外径 D')).toMatch(/内圈没有该部位/);
    expect(whyNotForPart('outer', od, '外径 D')).toBeNull();
  });
  it("a ring's width is its own: ΔBs on an outer ring is read as ΔCs, and back", () => {
    expect(characteristicForPart('Bs', 'outer')).toBe('Cs');
    expect(characteristicForPart('VBs', 'outer')).toBe('VCs');
    expect(characteristicForPart('Cs', 'inner')).toBe('Bs');
    expect(characteristicForPart('dmp', 'outer')).toBe('dmp');
    expect(characteristicForPart('Bs', 'bearing')).toBe('Bs');
  });
});

describe('sizes through the steps', () => {
  it('machining moves external surfaces and widths down, internal ones up', () => {
    expect(surfaceOf('outside', 'outer')).toBe('external');
    expect(surfaceOf('bore', 'inner')).toBe('internal');
    expect(surfaceOf('width', 'outer')).toBe('width');
    expect(surfaceOf('raceway', 'inner')).toBe('external');
    expect(surfaceOf('raceway', 'outer')).toBe('internal');
    expect(surfaceOf('raceway', null)).toBeNull();
    expect(surfaceOf('raceway-roughness', 'inner')).toBeNull();
    expect(sizeFeatureOf({ ringCharacteristic: 'Dmp' })).toBe('outside');
    expect(sizeFeatureOf({ ringCharacteristic: 'Kia' })).toBeNull();
    expect(sizeFeatureOf({ feature: 'raceway-roundness' })).toBeNull();
  });
  it('turning: outer ring D 52 + 0.40 = 52.40, width 15 + 0.30 = 15.30; inner ring d 25 − 0.40 = 24.60', () => {
    expect(finalSizeOf(sizes6205, 'outside')).toBe('52');
    expect(stepNominal(finalSizeOf(sizes6205, 'outside') as string, 'external', '0.40')).toBe('52.4');
    expect(stepNominal(15, 'width', '0.30')).toBe('15.3');
    expect(stepNominal(25, 'internal', '0.40')).toBe('24.6');
    expect(finalFromStep('24.6', 'internal', '0.4')).toBe('25');
    // ±0.05 turning tolerance: 52.35 ~ 52.45 and 24.55 ~ 24.65.
    expect(toleranceLimits('52.4', '0.05', '-0.05')).toEqual({
      lowerLimit: '52.3500',
      upperLimit: '52.4500',
    });
    expect(toleranceLimits('24.6', '0.05', '-0.05')).toEqual({
      lowerLimit: '24.5500',
      upperLimit: '24.6500',
    });
  });
  it('raceways of 6205 (balls 7.938): pitch 38.5, inner 30.562, outer 46.438; turned 30.962 / 46.038', () => {
    const r = racewayDiameters(25, 52, '7.938');
    expect(r).toEqual({ pitch: '38.5', inner: '30.562', outer: '46.438' });
    expect(stepNominal(r.inner, 'external', '0.40')).toBe('30.962');
    expect(stepNominal(r.outer, 'internal', '0.40')).toBe('46.038');
    // Ground before superfinishing, 0.004 mm left on the diameter.
    expect(stepNominal(r.inner, 'external', '0.004')).toBe('30.566');
    expect(stepNominal(r.outer, 'internal', '0.004')).toBe('46.434');
  });
  it('finished P6: D 52 0/−11 μm → 51.989 ~ 52.000, d 25 0/−8 μm → 24.992 ~ 25.000 — not at turning', () => {
    const l = deriveRingLimits({ toleranceClass: 'P6', ...sizes6205, diameterSeries: '2' });
    const dmp = l.find((x) => x.code === 'Dmp');
    expect([dmp?.upper, dmp?.lower]).toEqual([0, -11]);
    expect(toleranceLimits(52, 0, '-0.011')).toEqual({ lowerLimit: '51.9890', upperLimit: '52.0000' });
    expect(toleranceLimits(25, 0, '-0.008')).toEqual({ lowerLimit: '24.9920', upperLimit: '25.0000' });
    // The turned ring (52.35 ~ 52.45) lies wholly above the finished limits: judged by them, every piece fails.
    const turned = toleranceLimits(stepNominal(52, 'external', '0.40'), '0.05', '-0.05');
    expect(Number(turned.lowerLimit)).toBeGreaterThan(Number(toleranceLimits(52, 0, '-0.011').upperLimit));
  });
  it('a maximum (Ra, roundness): nominal 0, no lower limit', () => {
    expect(toleranceLimits(0, '0.05', null)).toEqual({ lowerLimit: null, upperLimit: '0.0500' });
    expect(toleranceLimits(null, 20, 5)).toEqual({ lowerLimit: '5.0000', upperLimit: '20.0000' });
    expect(deviationText('0.05', '-0.05')).toBe('±0.05');
    expect(deviationText(0, '-0.011')).toBe('0/-0.011');
    expect(deviationText('0.05', null)).toBe('+0.05 以内');
  });
});

describe('checking a line of a step’s item set', () => {
  const od = { name: '外径 D', kind: 'measure', ringCharacteristic: 'Dmp' };
  const raceway = { name: '沟道直径', kind: 'measure', feature: 'raceway' };
  const base = { part: 'outer' as const, finalSize: 52 };
  it('at turning, a size without its own tolerance (the finished limits) is refused', () => {
    expect(stepLineProblem({ ...base, stage: 'turning', item: od, line: {} })?.message).toMatch(
      /车削工序检车削尺寸.*成品公差在磨削后才适用/,
    );
  });
  it('at turning, a size without grinding allowance is refused', () => {
    expect(
      stepLineProblem({
        ...base,
        stage: 'turning',
        item: od,
        line: { nominal: 52, upperTolerance: '0.05', lowerTolerance: '-0.05' },
      }),
    ).toMatchObject({ field: 'allowance', message: expect.stringMatching(/须含磨削留量/) });
  });
  it('the nominal must be the finished size moved by the allowance', () => {
    expect(
      stepLineProblem({
        ...base,
        stage: 'turning',
        item: od,
        line: { nominal: '52.3', allowance: '0.4', upperTolerance: '0.05', lowerTolerance: '-0.05' },
      }),
    ).toEqual({
      field: 'nominal',
      message: '「外径 D」的本工序尺寸应为 52 + 0.4 = 52.4（成品尺寸加留量），填写的是 52.3',
    });
    expect(
      stepLineProblem({
        ...base,
        stage: 'turning',
        item: od,
        line: { nominal: '52.40', allowance: '0.40', upperTolerance: '0.05', lowerTolerance: '-0.05' },
      }),
    ).toBeNull();
    // Left blank, the nominal is filled from the allowance.
    expect(
      stepLineProblem({
        ...base,
        stage: 'turning',
        item: od,
        line: { allowance: '0.40', upperTolerance: '0.05', lowerTolerance: '-0.05' },
      }),
    ).toBeNull();
    expect(filledNominal({ part: 'outer', item: od, line: { allowance: '0.40' }, finalSize: 52 })).toBe(
      '52.4',
    );
  });
  it('a raceway has no size on the product: its nominal comes from the drawing', () => {
    expect(
      stepLineProblem({
        stage: 'turning',
        part: 'outer',
        finalSize: null,
        item: raceway,
        line: { allowance: '0.40', upperTolerance: '0.05', lowerTolerance: '-0.05' },
      })?.message,
    ).toMatch(/请填写本工序的名义尺寸/);
  });
  it('after grinding a size may be left to the standard; a count item takes no sizes', () => {
    expect(stepLineProblem({ ...base, stage: 'grinding', item: od, line: {} })).toBeNull();
    expect(stepLineProblem({ ...base, stage: 'final', item: od, line: {} })).toBeNull();
    expect(
      stepLineProblem({
        ...base,
        stage: 'final',
        item: { name: '外观', kind: 'count' },
        line: { upperTolerance: 1 },
      })?.message,
    ).toMatch(/计数项目/);
    expect(
      stepLineProblem({
        ...base,
        stage: 'final',
        item: od,
        line: { nominal: 52, upperTolerance: '-0.02', lowerTolerance: '0' },
      })?.message,
    ).toMatch(/上偏差不能小于下偏差/);
    expect(
      stepLineProblem({
        ...base,
        stage: 'final',
        item: { name: '沟道粗糙度 Ra', kind: 'measure', feature: 'raceway-roughness' },
        line: { nominal: 0, upperTolerance: '0.05', allowance: '0.4' },
      }),
    ).toMatchObject({ field: 'allowance' });
  });
  it('states the basis: stage, size and where it comes from', () => {
    expect(
      stepBasisText({
        stage: 'turning',
        part: 'outer',
        item: od,
        line: { nominal: '52.4', allowance: '0.4', upperTolerance: '0.05', lowerTolerance: '-0.05' },
        unit: 'mm',
      }),
    ).toBe('车削尺寸（含磨量） 52.4 ±0.05 mm（成品 52 + 留量 0.4）');
    expect(
      stepBasisText({
        stage: 'turning',
        part: 'inner',
        item: { ringCharacteristic: 'dmp' },
        line: { nominal: '24.6', allowance: '0.4', upperTolerance: '0.05', lowerTolerance: '-0.05' },
        unit: 'mm',
      }),
    ).toBe('车削尺寸（含磨量） 24.6 ±0.05 mm（成品 25 − 留量 0.4）');
    expect(
      stepBasisText({
        stage: 'final',
        part: 'inner',
        item: { feature: 'raceway-roughness' },
        line: { nominal: 0, upperTolerance: '0.05' },
        unit: 'μm',
      }),
    ).toBe('成品尺寸 ≤ 0.05 μm');
  });
});
