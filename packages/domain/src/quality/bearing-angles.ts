/**
 * Which angles a bearing or ring has, from its basic designation (GB/T 272-2017 / ISO 15: the type
 * code is the designation's first digit, then the dimension series and the bore code). 角度测量 is
 * recorded only for products that have the angle: a deep-groove ball bearing ring has no rib and
 * no nominal contact angle, so neither 挡边角度 nor 接触角 can be entered for a 6206 ring.
 *  - 7xxx(x): 角接触球轴承 — 接触角 (15° C, 25° AC, 40° B);
 *  - 3xxxx: 圆锥滚子轴承 — 接触角 and 挡边角度 (the cone's guiding rib);
 *  - 6xxx, 16xxx, 4xxx: 深沟球轴承; 1xxx, 2xxx: 调心球轴承; 2xxxx: 调心滚子轴承; 5xxxx: 推力球轴承;
 *    8xxxx: 推力圆柱滚子轴承 — no angle measured as a ring characteristic.
 */

export type AngleCharacteristic = 'contact-angle' | 'rib-angle';

export interface BearingKind {
  /** The basic designation found (6206, 30206, 7206). */
  designation: string;
  /** 轴承类型 as GB/T 272 names it. */
  type: string;
  angles: AngleCharacteristic[];
}

/** The first basic designation (4–5 digits, not part of a longer number) in the texts, classified. */
export function bearingKind(...texts: (string | null | undefined)[]): BearingKind | null {
  for (const text of texts) {
    const m = /(?:^|[^0-9A-Za-z.])(\d{4,5})(?![0-9.])/.exec(text ?? '');
    if (!m) continue;
    const d = m[1];
    const five = d.length === 5;
    const kind = (type: string, angles: AngleCharacteristic[] = []) => ({ designation: d, type, angles });
    if (d[0] === '7') return kind('角接触球轴承', ['contact-angle']);
    if (d[0] === '3' && five) return kind('圆锥滚子轴承', ['contact-angle', 'rib-angle']);
    if (d[0] === '6' || d.startsWith('16') || (d[0] === '4' && !five)) return kind('深沟球轴承');
    if ((d[0] === '1' || d[0] === '2') && !five) return kind('调心球轴承');
    if (d[0] === '2') return kind('调心滚子轴承');
    if (d[0] === '5') return kind('推力球轴承');
    if (d[0] === '8') return kind('推力圆柱滚子轴承');
    return kind('其他轴承');
  }
  return null;
}

/**
 * Why an angle may not be recorded for a product (null: it may). Angles are recorded only where
 * the product's designation shows a bearing type with that angle.
 */
export function angleRefusal(
  characteristic: string,
  product: { name: string; code?: string | null; spec?: string | null },
): string | null {
  if (characteristic !== 'contact-angle' && characteristic !== 'rib-angle') return null;
  const label = characteristic === 'contact-angle' ? '接触角' : '挡边角度';
  const kind = bearingKind(product.spec, product.code, product.name);
  if (!kind)
    return `未能从「${product.name}」的规格或编码识别轴承型号，不能录入${label}；角度只对有该角度的产品录入（如角接触球轴承的接触角、圆锥滚子轴承的挡边角度）`;
  if (kind.angles.includes(characteristic)) return null;
  return `「${product.name}」是${kind.type}（${kind.designation}），没有${label}；角度只对有该角度的产品录入（如角接触球轴承的接触角、圆锥滚子轴承的挡边角度）`;
}
