import type { Db } from '../platform/db/db.ts';

/**
 * 轴承套圈标准 demo: the demo bearings and their rings get their part type, tolerance class and catalogue
 * sizes (6204 20×47×14, 6205 25×52×15, 6206 30×62×16, 6305 25×62×17; the second digit of the
 * designation is the diameter series), so the derivation works on them; and one customer
 * tightening with its reason (the 6205-2RS/P6 bore for 浙江钱塘汽车零部件).
 */
const SIZES: Record<string, [d: number, D: number, B: number, series: string]> = {
  '6204': [20, 47, 14, '2'],
  '6205': [25, 52, 15, '2'],
  '6206': [30, 62, 16, '2'],
  '6305': [25, 62, 17, '3'],
};

export async function seedDemoRingStandard(db: Db, userId: number) {
  const rows = await db
    .selectFrom('material')
    .select(['id', 'code', 'spec'])
    .where((w) =>
      w.or([w('code', 'like', 'FG-6%'), w('code', 'like', 'SF-6%-IR-%'), w('code', 'like', 'SF-6%-OR-%')]),
    )
    .execute();
  for (const m of rows) {
    const model = /^(?:FG|SF)-(\d{4})/.exec(m.code)?.[1];
    const size = model ? SIZES[model] : undefined;
    if (!size) continue;
    const [d, D, B, series] = size;
    const grade = /P6/.test(m.code) ? 'P6' : 'P0';
    await db
      .updateTable('material')
      .set({
        // 零件类型: the bearing, or which of its rings (the rings carry their bearing's d, D, B).
        partType: m.code.startsWith('FG-') ? 'bearing' : /-OR-/.test(m.code) ? 'outer' : 'inner',
        toleranceClass: grade,
        boreDiameter: String(d),
        outsideDiameter: String(D),
        bearingWidth: String(B),
        diameterSeries: series,
        // Finished bearings with seals (-2RS) or shields (ZZ) are capped; loose rings are not.
        capped: m.code.startsWith('FG-') && /2RS|ZZ/.test(m.spec ?? ''),
      })
      .where('id', '=', m.id)
      .execute();
  }
  const product = await db
    .selectFrom('material')
    .select('id')
    .where('code', '=', 'FG-6205-2RS-P6')
    .executeTakeFirst();
  const customer = await db
    .selectFrom('customer')
    .select('id')
    .where('code', '=', 'CUS001')
    .executeTakeFirst();
  if (!product || !customer) return;
  // 6205 P6 inner ring, d = 25: Δdmp 0/−8 and Kia 8 by the standard; the customer asks 0/−6 and 6.
  await db
    .insertInto('ringStandardOverride')
    .values([
      {
        materialId: product.id,
        customerId: customer.id,
        characteristic: 'dmp',
        upperLimit: '0',
        lowerLimit: '-6',
        reason: '技术协议 QT-2026-017 第 3.2 条：内径公差带收窄，保证与轮毂轴过盈量',
        createdBy: userId,
        updatedBy: userId,
      },
      {
        materialId: product.id,
        customerId: customer.id,
        characteristic: 'Kia',
        upperLimit: '6',
        lowerLimit: null,
        reason: '技术协议 QT-2026-017 第 3.4 条：电机噪声要求，内圈径向跳动收严',
        createdBy: userId,
        updatedBy: userId,
      },
    ])
    .execute();
}
