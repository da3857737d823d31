import { describe, expect, it } from 'vitest';
import { costVariance, rollStandardCosts, type StandardCostInput, standardCost } from './standard-cost.ts';

/**
 * Bearing P (the actual-cost example of product-cost.test.ts and docs/costing.md). By hand:
 *  材料 1 S × 12.50 + 8 B × 1.02 (2 % loss) × 0.28 = 12.50 + 2.2848 = 14.7848
 *  人工 车削 0.15 + 磨削 0.20 = 0.35; 委外 热处理 0.80 (without VAT)
 *  制造费用 车削 2 min × 0.05 元/分钟 = 0.10; 磨削 1.5 min ÷ 60 × 30 元/小时 = 0.75: 0.85
 *  标准成本 14.7848 + 0.35 + 0.80 + 0.85 = 16.7848 a piece
 */
const input: StandardCostInput = {
  bom: [
    { materialName: 'S', quantity: '1', ratio: '1', lossRate: '0', standardPrice: '12.50' },
    // 8 balls per bearing counted in 粒 as the base unit; the line in 百粒 would be 0.08 × 100.
    { materialName: 'B', quantity: '0.08', ratio: '100', lossRate: '2', standardPrice: '0.28' },
  ],
  steps: [
    {
      seq: 10,
      processName: '车削',
      workshopId: 1,
      outsourced: false,
      standardMinutes: '2',
      pieceRate: '0.15',
      outsourcingPrice: null,
    },
    {
      seq: 20,
      processName: '热处理',
      workshopId: null,
      outsourced: true,
      standardMinutes: null,
      pieceRate: null,
      outsourcingPrice: '0.8',
    },
    {
      seq: 30,
      processName: '磨削',
      workshopId: 2,
      outsourced: false,
      standardMinutes: '1.5',
      pieceRate: '0.2',
      outsourcingPrice: null,
    },
  ],
  overheadRates: [
    { workshopId: 1, basis: 'standard-minute', rate: '0.05' },
    { workshopId: 2, basis: 'hour', rate: '30' },
  ],
};

describe('standard cost and variance', () => {
  it('prices the BOM and route of a bearing (worked example)', () => {
    expect(standardCost(input)).toEqual({
      material: '14.784800',
      labour: '0.350000',
      outsourcing: '0.800000',
      overhead: '0.850000',
      total: '16.784800',
      missing: [],
    });
  });

  it('names what counts 0: a material without a standard price, a step without rate, minutes or price', () => {
    const s = standardCost({
      bom: [{ ...input.bom[0], standardPrice: null }, input.bom[1]],
      steps: [
        { ...input.steps[0], pieceRate: null },
        { ...input.steps[1], outsourcingPrice: null },
        input.steps[2],
      ],
      overheadRates: [input.overheadRates[1]],
    });
    expect(s.material).toBe('2.284800');
    expect(s.labour).toBe('0.200000');
    expect(s.outsourcing).toBe('0.000000');
    expect(s.overhead).toBe('0.750000');
    expect(s.missing).toEqual([
      'S无标准成本',
      '10 车削无工序工资',
      '10 车削车间无制造费用分摊率',
      '20 热处理无委外价格',
    ]);
  });

  it('splits the order of 98 (actual 1,638.28) into material, labour, outsourcing and overhead variance', () => {
    // Standard for 98: 14.7848 × 98 = 1,448.9104 → 1,448.91; 0.35 × 98 = 34.30; 0.80 × 98 = 78.40;
    // 0.85 × 98 = 83.30: 1,644.91. Actual: material 1,440.00 − scrap 1.32 = 1,438.68, 34.60, 80.00,
    // 85.00: 1,638.28. Variance −10.23, +0.30, +1.60, +1.70: −6.63, −6.63 ÷ 1,644.91 = −0.40 %.
    const v = costVariance(
      { material: '1440.00', labour: '34.60', outsourcing: '80.00', overhead: '85.00', scrap: '1.32' },
      standardCost(input),
      '98',
    );
    expect(v).toEqual({
      standard: {
        material: '1448.91',
        labour: '34.30',
        outsourcing: '78.40',
        overhead: '83.30',
        total: '1644.91',
      },
      actual: {
        material: '1438.68',
        labour: '34.60',
        outsourcing: '80.00',
        overhead: '85.00',
        total: '1638.28',
      },
      variance: { material: '-10.23', labour: '0.30', outsourcing: '1.60', overhead: '1.70', total: '-6.63' },
      rate: '-0.40',
    });
  });

  it('rolls a ring made in house into the bearing at its own standard, not at its 标准成本', () => {
    // Ring R (id 2): 0.3 kg of steel (id 3) at 8.00 = 2.40, turned 0.25 a piece, 3 min × 0.05 = 0.15:
    // 2.80. Bearing P (id 1): 2 R + 8 balls (id 4) at 0.03, assembled 0.10, 1 min × 0.05 = 0.05:
    // material 2 × 2.80 + 0.24 = 5.84, total 5.99 — R's own 标准成本 (0.89) is not used.
    const step = (processName: string, pieceRate: string, minutes: string) => ({
      seq: 10,
      processName,
      workshopId: 1,
      outsourced: false,
      standardMinutes: minutes,
      pieceRate,
      outsourcingPrice: null,
    });
    const line = (materialId: number, materialName: string, quantity: string) => ({
      materialId,
      materialName,
      quantity,
      ratio: '1',
      lossRate: '0',
    });
    const rolled = rollStandardCosts(
      new Map([
        [1, { bom: [line(2, 'R', '2'), line(4, 'B', '8')], steps: [step('装配', '0.10', '1')] }],
        [2, { bom: [line(3, 'S', '0.3')], steps: [step('车削', '0.25', '3')] }],
      ]),
      new Map([
        [2, '0.89'],
        [3, '8'],
        [4, '0.03'],
      ]),
      [{ workshopId: 1, basis: 'standard-minute', rate: '0.05' }],
    );
    expect(rolled.get(2)?.total).toBe('2.800000');
    expect(rolled.get(1)).toMatchObject({
      material: '5.840000',
      labour: '0.100000',
      overhead: '0.050000',
      total: '5.990000',
    });
    // A BOM that contains itself counts the loop 0 and names it.
    const loop = rollStandardCosts(
      new Map([[1, { bom: [line(1, 'P', '1'), line(4, 'B', '8')], steps: [] }]]),
      new Map([[4, '0.03']]),
      [],
    );
    expect(loop.get(1)).toMatchObject({ material: '0.240000', missing: ['P循环引用'] });
  });
});
