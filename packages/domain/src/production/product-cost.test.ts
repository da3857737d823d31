import { describe, expect, it } from 'vitest';
import { type CostInputs, productionOrderCost, receiptAtActualCost } from './product-cost.ts';

const report = (
  docNo: string,
  workshopId: number | null,
  workshopName: string,
  goodQuantity: string,
  scrapQuantity: string,
  standardMinutes: string | null,
  hours: string | null,
) => ({ docNo, workshopId, workshopName, goodQuantity, scrapQuantity, standardMinutes, hours });

/**
 * 100 rings finished. By hand:
 *  材料 1,500.00 + 240.00 = 1,740.00
 *  工资 15.00 + 19.60 + 12.50 = 47.10
 *  委外 WW-1 line 90.40 for 100 (with 13 % VAT): 100 back → 90.40, tax 90.40 × 13/113 = 10.40, 80.00;
 *       2 returned → −90.40 × 2/100 = −1.808 → −1.81, tax −0.20823 → −0.21, −1.60. Total 78.40
 *  制造费用 车削 0.05 元/标准分钟 × (100 × 2 min) = 10.00; 磨削 30 元/小时 × (1.5 + 0.75) h = 67.50;
 *       装配 has no rate: 0. Total 77.50
 *  废料 0.235 kg × 2.80 元/kg: BG-2 2 pieces 0.47 kg → 1.316 → 1.32; BG-3 1 piece → 0.658 → 0.66. 1.98
 *  Total 1,740.00 + 47.10 + 78.40 + 77.50 − 1.98 = 1,941.02; unit 19.410200.
 */
const example: CostInputs = {
  finishedQuantity: '100',
  issues: [
    { docNo: 'CK-1', materialName: 'GCr15 棒料', quantity: '120', amount: '1500.00' },
    { docNo: 'CK-2', materialName: '钢球', quantity: '800', amount: '240' },
  ],
  wages: [
    { docNo: 'BG-1', processName: '车削', operatorName: '张三', quantity: '100', amount: '15.00' },
    { docNo: 'BG-2', processName: '磨削', operatorName: '李四', quantity: '98', amount: '19.60' },
    { docNo: 'BG-3', processName: '磨削', operatorName: '李四', quantity: '50', amount: '12.5' },
  ],
  outsourcing: [
    {
      docNo: 'RK-9',
      orderNo: 'WW-1',
      supplierName: '热处理厂',
      quantity: '100',
      orderLineAmount: '90.40',
      orderLineQuantity: '100',
      taxRate: '13',
    },
    {
      docNo: 'CK-9',
      orderNo: 'WW-1',
      supplierName: '热处理厂',
      quantity: '-2',
      orderLineAmount: '90.40',
      orderLineQuantity: '100',
      taxRate: '13',
    },
  ],
  reports: [
    report('BG-1', 1, '车削车间', '100', '0', '2', null),
    report('BG-2', 2, '磨削车间', '98', '2', '1', '1.5'),
    report('BG-3', 2, '磨削车间', '50', '1', '1', '0.75'),
    report('BG-4', 3, '装配车间', '100', '0', '3', '2'),
  ],
  overheadRates: [
    { workshopId: 1, basis: 'standard-minute', rate: '0.05' },
    { workshopId: 2, basis: 'hour', rate: '30' },
  ],
  productWeightKg: '0.235',
  scrapPricePerKg: '2.80',
};

describe('actual cost of a production order', () => {
  it('adds material, wages, outsourcing and overhead, less scrap, to the fen (worked example)', () => {
    const c = productionOrderCost(example);
    expect(c.material).toMatchObject({ total: '1740.00', unitCost: '17.400000' });
    expect(c.labour).toMatchObject({ total: '47.10', unitCost: '0.471000' });
    expect(c.outsourcing.total).toBe('78.40');
    expect(c.outsourcing.lines.map((l) => [l.grossAmount, l.taxAmount, l.amount])).toEqual([
      ['90.40', '10.40', '80.00'],
      ['-1.81', '-0.21', '-1.60'],
    ]);
    expect(c.overhead.total).toBe('77.50');
    expect(c.overhead.lines.map((l) => [l.workshopName, l.basis, l.driver, l.amount])).toEqual([
      ['车削车间', 'standard-minute', '200.0000', '10.00'],
      ['磨削车间', 'hour', '2.2500', '67.50'],
      ['装配车间', null, '300.0000', '0.00'],
    ]);
    expect(c.overhead.lines[1].docNos).toEqual(['BG-2', 'BG-3']);
    expect(c.unratedWorkshops).toEqual(['装配车间']);
    expect(c.scrap.lines.map((l) => [l.docNo, l.weightKg, l.amount])).toEqual([
      ['BG-2', '0.4700', '1.32'],
      ['BG-3', '0.2350', '0.66'],
    ]);
    expect(c.scrap.total).toBe('1.98');
    expect(c.total).toBe('1941.02');
    expect(c.unitCost).toBe('19.410200');
  });

  it('has no unit cost before anything is finished and recovers nothing without a weight or a price', () => {
    const c = productionOrderCost({ ...example, finishedQuantity: '0', scrapPricePerKg: null });
    expect(c.unitCost).toBeNull();
    expect(c.material.unitCost).toBeNull();
    expect(c.scrap).toEqual({ total: '0.00', unitCost: null, lines: [] });
    expect(c.total).toBe('1943.00'); // 1,941.02 + the 1.98 not recovered
    expect(productionOrderCost({ ...example, productWeightKg: null }).scrap.lines).toEqual([]);
  });

  it('sums exactly where binary floating point would not: 0.1 + 0.2 of 3 units', () => {
    const c = productionOrderCost({
      ...example,
      finishedQuantity: '3',
      issues: [
        { docNo: 'A', materialName: 'x', quantity: '1', amount: '0.10' },
        { docNo: 'B', materialName: 'x', quantity: '1', amount: '0.20' },
      ],
      wages: [],
      outsourcing: [],
      reports: [],
    });
    expect(c.total).toBe('0.30');
    expect(c.unitCost).toBe('0.100000');
  });

  it("values a 生产入库 at the order's actual cost: what is left over the pieces still expected", () => {
    // 100 planned. First receipt: 60 finished, 1,602.00 spent (all the material, part of the
    // work), nothing scrapped yet: 1,602.00 × 60 ÷ 100 = 961.20, 16.02 a piece; 640.80 stays in WIP.
    const first = { total: '1602.00', plannedQuantity: '100', scrapQuantity: '0', finishedQuantity: '60' };
    expect(receiptAtActualCost({ ...first, receivedQuantity: '0', receivedAmount: '0' }, '60')).toEqual({
      unitCost: '16.020000',
      amount: '961.20',
    });
    // Second: 38 more and 2 scrapped, 1,638.28 spent: 98 expected, 38 still to come, so the
    // receipt takes all that is left, 1,638.28 − 961.20 = 677.08 (17.817895 a piece); the two
    // receipts hold exactly the order's 1,638.28.
    const second = { total: '1638.28', plannedQuantity: '100', scrapQuantity: '2', finishedQuantity: '98' };
    expect(
      receiptAtActualCost({ ...second, receivedQuantity: '60', receivedAmount: '961.20' }, '38'),
    ).toEqual({
      unitCost: '17.817895',
      amount: '677.08',
    });
    // More finished than planned: the finished count is what is expected. 1/3 of 0.10 → 0.03.
    const over = { total: '0.10', plannedQuantity: '2', scrapQuantity: '0', finishedQuantity: '3' };
    expect(receiptAtActualCost({ ...over, receivedQuantity: '0', receivedAmount: '0' }, '1')).toEqual({
      unitCost: '0.030000',
      amount: '0.03',
    });
    // A cost taken back after a receipt leaves nothing for the next; nothing spent: no actual cost.
    expect(receiptAtActualCost({ ...second, receivedQuantity: '60', receivedAmount: '1700' }, '38')).toEqual({
      unitCost: '0.000000',
      amount: '0.00',
    });
    expect(
      receiptAtActualCost({ ...first, total: '0', receivedQuantity: '0', receivedAmount: '0' }, '60'),
    ).toBeNull();
  });
});
