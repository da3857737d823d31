import { describe, expect, it } from 'vitest';
import { angleRefusal, bearingKind } from './bearing-angles.ts';

/** Type codes of GB/T 272-2017 / ISO 15 basic designations (first digit: type; then series and bore code). */
describe('angles only for products that have them', () => {
  it('reads the bearing type from the designation in the spec, code or name', () => {
    expect(bearingKind('6206')).toMatchObject({ designation: '6206', type: '深沟球轴承', angles: [] });
    expect(bearingKind(null, 'SF-6206-IR-P0')).toMatchObject({ designation: '6206', type: '深沟球轴承' });
    expect(bearingKind('7206C')).toMatchObject({ type: '角接触球轴承', angles: ['contact-angle'] });
    expect(bearingKind('', 'FG-30206')).toMatchObject({
      type: '圆锥滚子轴承',
      angles: ['contact-angle', 'rib-angle'],
    });
    expect(bearingKind('16002')).toMatchObject({ type: '深沟球轴承' });
    expect(bearingKind('1206')).toMatchObject({ type: '调心球轴承' });
    expect(bearingKind('22206')).toMatchObject({ type: '调心滚子轴承' });
    expect(bearingKind('51206')).toMatchObject({ type: '推力球轴承' });
    // A size such as 30.562 or a six-digit number is no designation.
    expect(bearingKind('沟径 30.562', '123456')).toBeNull();
  });

  it('refuses 挡边角度 on a deep-groove ring and takes it on a tapered roller bearing', () => {
    expect(angleRefusal('rib-angle', { name: '6206 内圈', code: 'SF-6206-IR-P0' })).toBe(
      '「6206 内圈」是深沟球轴承（6206），没有挡边角度；角度只对有该角度的产品录入（如角接触球轴承的接触角、圆锥滚子轴承的挡边角度）',
    );
    expect(angleRefusal('contact-angle', { name: '6206 内圈', code: 'SF-6206-IR-P0' })).toMatch(/没有接触角/);
    expect(angleRefusal('rib-angle', { name: '30206 内圈', code: 'SF-30206-IR' })).toBeNull();
    expect(angleRefusal('contact-angle', { name: '7206C 外圈', spec: '7206C' })).toBeNull();
    expect(angleRefusal('rib-angle', { name: '7206C 外圈', spec: '7206C' })).toMatch(
      /角接触球轴承（7206），没有挡边角度/,
    );
    expect(angleRefusal('rib-angle', { name: '试制件' })).toMatch(
      /^未能从「试制件」的规格或编码识别轴承型号/,
    );
    // Not an angle: nothing to refuse.
    expect(angleRefusal('outside-diameter', { name: '试制件' })).toBeNull();
  });
});
