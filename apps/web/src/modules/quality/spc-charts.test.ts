import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, LegendComponent, MarkLineComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { controlChart, histogramChart, type SpcChart } from './spc-charts.ts';

echarts.use([
  BarChart,
  LineChart,
  ScatterChart,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  SVGRenderer,
]);

/** Draws an option server-side (SVG, no browser) and answers the texts it shows. */
function drawnTexts(option: echarts.EChartsCoreOption): string[] {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 900, height: 320 });
  chart.setOption(option);
  const svg = chart.renderToSVGString();
  chart.dispose();
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

// An outer ring 52 mm, P6: ΔDmp −11/0 μm → LSL 51.9890, USL 52.0000 (not two decimals apart).
const outerRing: SpcChart = {
  empty: false,
  unit: 'mm',
  lsl: 51.989,
  usl: 52,
  histogram: {
    bins: [
      { from: 51.9885, to: 51.9915, count: 2, expected: 2 },
      { from: 51.9915, to: 51.9945, count: 9, expected: 8 },
      { from: 51.9945, to: 51.9975, count: 14, expected: 15 },
      { from: 51.9975, to: 52.0005, count: 5, expected: 5 },
    ],
    curve: [
      [51.989, 0.5],
      [51.995, 14],
      [52.0, 1],
    ],
  },
};

describe('SPC charts mark the exact limits', () => {
  it('draws the histogram LSL and USL at the specification limits, not rounded to 0.01', () => {
    const texts = drawnTexts(histogramChart(outerRing) as echarts.EChartsCoreOption);
    expect(texts).toContain('LSL 51.9890');
    expect(texts).toContain('USL 52.0000');
    expect(texts).not.toContain('LSL 51.9900');
  });

  it('draws UCL, CL and LCL at the computed control limits', () => {
    const t = ['08:00', '09:00', '10:00', '11:00'];
    const option = controlChart(
      '均值 X̄',
      t,
      [51.9951, 51.9957, 51.9949, 51.9953],
      {
        center: 51.99531,
        ucl: 51.99783,
        lcl: 51.99267,
      },
      [],
    );
    const texts = drawnTexts(option);
    expect(texts).toEqual(expect.arrayContaining(['UCL 51.9978', 'CL 51.9953', 'LCL 51.9927']));
  });
});
