import type { ProductionReportDef } from '@ringmes/domain';
import type { EChartOption } from '../../../platform/ui/echart.tsx';

type Row = Record<string, any>;

/**
 * The chart of a report, from its declaration: bars on the left axis, bars of another measure on
 * the right one (named by `axisNames`, 流转卡报表's 卡数 and 数量), or a line in % on the right.
 */
export function chartOption(
  def: ProductionReportDef,
  data: { rows: Row[]; series?: Row[] } | undefined,
): EChartOption | undefined {
  const c = def.chart;
  if (!c || !data) return undefined;
  const source = (c.source === 'series' ? data.series : data.rows)?.slice(0, c.limit ?? 50) ?? [];
  const rightBars = c.bars.some((b) => b.axis === 'right');
  const right = rightBars
    ? [{ type: 'value', name: c.axisNames?.right, splitLine: { show: false } }]
    : c.line
      ? [{ type: 'value', name: '%', min: 0 }]
      : [];
  return {
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 70, right: right.length ? 60 : 20, top: 40, bottom: 60 },
    xAxis: {
      type: 'category',
      data: source.map((r) => String(r[c.category] ?? '-')),
      axisLabel: { interval: 0, rotate: source.length > 8 ? 30 : 0 },
    },
    yAxis: [{ type: 'value', name: rightBars ? c.axisNames?.left : undefined }, ...right],
    series: [
      ...c.bars.map((b) => ({
        name: b.label,
        type: 'bar',
        stack: b.stack,
        yAxisIndex: b.axis === 'right' ? 1 : 0,
        data: source.map((r) => Number(r[b.key] ?? 0)),
      })),
      ...(c.line && !rightBars
        ? [
            {
              name: c.line.label,
              type: 'line',
              yAxisIndex: 1,
              data: source.map((r) => (r[c.line!.key] == null ? null : Number(r[c.line!.key]))),
            },
          ]
        : []),
    ],
  };
}
