import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import OrientedBoundingRect from 'zrender/lib/core/OrientedBoundingRect.js';
import type { DashboardSnapshot } from './dashboard.api.ts';
import { paretoOption } from './dashboard-charts.ts';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, SVGRenderer]);

interface Shown {
  text: string;
  box: OrientedBoundingRect;
  rect: { x: number; y: number; width: number; height: number };
}

/**
 * Draws an option server-side at a size (text measured as the browser's CJK fonts are: a Chinese
 * character as wide as the font size) and answers every text it shows with its rotated box.
 */
function drawn(option: echarts.EChartsCoreOption, width: number, height: number): Shown[] {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption(option);
  const shown: Shown[] = [];
  for (const el of chart.getZr().storage.getDisplayList(true)) {
    const t = el as unknown as {
      type: string;
      style: { text?: string };
      ignore?: boolean;
      invisible?: boolean;
      getBoundingRect(): { clone(): any };
      getComputedTransform(): number[] | null;
    };
    if (t.type !== 'tspan' || !t.style?.text || t.ignore || t.invisible) continue;
    const local = t.getBoundingRect().clone();
    const box = new OrientedBoundingRect(local, t.getComputedTransform() ?? undefined);
    const rect = local.clone();
    const m = t.getComputedTransform();
    if (m) rect.applyTransform(m);
    shown.push({ text: String(t.style.text), box, rect });
  }
  chart.dispose();
  return shown;
}

function overlaps(shown: Shown[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < shown.length; i++)
    for (let j = i + 1; j < shown.length; j++)
      if (shown[i].box.intersect(shown[j].box)) out.push(`「${shown[i].text}」×「${shown[j].text}」`);
  return out;
}

// The demo factory's last 7 days: seven reasons, two with long names.
const snapshot = {
  scope: 'whole',
  quality: {
    pareto: [
      ['size', '尺寸超差', '85', 28.7],
      ['surface', '表面缺陷（磕碰、划伤）', '73', 53.4],
      ['crack', '裂纹', '54', 71.6],
      ['setup', '调机废品', '30', 81.8],
      ['material', '材料缺陷（夹杂、缩孔）', '27', 90.9],
      ['burn', '磨削烧伤', '22', 98.3],
      ['other', '其他', '5', 100],
    ].map(([reason, label, quantity, cumulative]) => ({ reason, label, quantity, cumulative })),
  },
} as unknown as DashboardSnapshot;

describe('废品原因排列图 on the 车间看板', () => {
  // The Pareto panel is 330 × 380 px on a 1440 × 900 screen (three panels a row), 560 at 1920.
  for (const [screen, width] of [
    ['1440', 330],
    ['1920', 560],
  ] as const) {
    it(`shows every reason and every figure without one label over another at ${screen} px`, () => {
      const shown = drawn(paretoOption(snapshot), width, 380);
      expect(overlaps(shown)).toEqual([]);
      // Each bar keeps its reason (shortened if need be, the tooltip has it whole)…
      const axis = shown.filter((s) => !/^\d/.test(s.text) && !['件', '累计%'].includes(s.text));
      for (const reason of ['尺寸', '表面', '裂纹', '调机', '材料', '磨削', '其他'])
        expect(
          axis.some((s) => s.text.startsWith(reason)),
          reason,
        ).toBe(true);
      // …and nothing is drawn outside the chart.
      for (const s of shown) {
        expect(s.rect.x, s.text).toBeGreaterThanOrEqual(0);
        expect(s.rect.x + s.rect.width, s.text).toBeLessThanOrEqual(width);
        expect(s.rect.y, s.text).toBeGreaterThanOrEqual(0);
        expect(s.rect.y + s.rect.height, s.text).toBeLessThanOrEqual(380);
      }
    });
  }
});
