import { PRODUCTION_REPORTS, productionReport } from '@ringmes/domain';
import { describe, expect, it } from 'vitest';
import { chartOption } from './report-chart.ts';

type Series = { name: string; type: string; yAxisIndex?: number };

describe('production report charts', () => {
  it('流转卡报表 draws 卡数 and 数量 on two axes, each named by what it counts', () => {
    const def = productionReport('processFlowCardReport');
    if (!def) throw new Error('processFlowCardReport');
    const option = chartOption(def, {
      rows: [],
      series: [
        { label: '流转中', cards: 12, quantity: 4800 },
        { label: '已完成', cards: 30, quantity: 12000 },
      ],
    }) as { yAxis: { name?: string }[]; series: Series[] };
    const axis = (name: string) => option.series.find((s) => s.name === name)?.yAxisIndex;
    expect(axis('卡数')).toBe(0);
    expect(axis('数量')).toBe(1);
    expect(option.yAxis.map((y) => y.name)).toEqual(['卡数（张）', '数量']);
  });

  it('puts every other measure on its own axis: bars left, a rate line right, never both on the right', () => {
    for (const def of PRODUCTION_REPORTS) {
      const c = def.chart;
      if (!c) continue;
      const rightBars = c.bars.filter((b) => b.axis === 'right');
      expect(rightBars.length && c.line ? def.name : '', 'right-hand bars and a line').toBe('');
      if (rightBars.length) expect(c.axisNames, def.name).toBeDefined();
      const option = chartOption(def, { rows: [], series: [] }) as { yAxis: unknown[]; series: Series[] };
      const line = option.series.find((s) => s.type === 'line');
      if (line) expect(line.yAxisIndex, def.name).toBe(1);
      expect(option.yAxis.length, def.name).toBe(rightBars.length || c.line ? 2 : 1);
    }
  });
});
