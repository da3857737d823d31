import type { EChartOption } from '../../platform/ui/echart.tsx';
import type { DashboardSnapshot } from './dashboard.api.ts';

/** The options of the 车间看板 charts (dark board), apart from the page so they can be drawn without a browser. */

export const TEXT = '#dbe8ff';
export const MUTED = '#8aa4c8';
export const GRID = 'rgba(138,164,200,0.18)';
export const BLUE = '#3ba1ff';
export const GREEN = '#36d399';
export const ORANGE = '#fbbd23';
export const RED = '#f87272';

function axisStyle() {
  return {
    axisLine: { lineStyle: { color: GRID } },
    axisLabel: { color: MUTED, fontSize: 16 },
    splitLine: { lineStyle: { color: GRID } },
  };
}

export function outputOption(s: DashboardSnapshot): EChartOption {
  const byShift = s.scope !== 'whole';
  const rows = byShift
    ? (s.output[0]?.shifts.map((c) => ({ name: c.shiftLabel, planned: c.planned, good: c.good })) ?? [])
    : s.output.map((o) => ({ name: o.workshopName.replace('车间', ''), planned: o.planned, good: o.good }));
  return {
    backgroundColor: 'transparent',
    textStyle: { color: TEXT },
    tooltip: { trigger: 'axis' },
    legend: { data: ['计划', '合格'], textStyle: { color: TEXT, fontSize: 16 }, top: 0 },
    grid: { left: 60, right: 20, top: 40, bottom: 36 },
    xAxis: { type: 'category', data: rows.map((r) => r.name), ...axisStyle() },
    yAxis: { type: 'value', ...axisStyle() },
    series: [
      {
        name: '计划',
        type: 'bar',
        data: rows.map((r) => Number(r.planned)),
        itemStyle: { color: '#2f5b8f' },
        barGap: '10%',
      },
      {
        name: '合格',
        type: 'bar',
        data: rows.map((r) => Number(r.good)),
        itemStyle: { color: GREEN },
        label: { show: true, position: 'top', color: TEXT, fontSize: 16 },
      },
    ],
  };
}

/**
 * 废品原因排列图: scrap per reason (bars, left axis) and the cumulative share (line, right axis, %).
 * Its panel is ~330 px wide at 1440 (three panels a row): reasons lie at 45° and are cut to 5
 * characters (the tooltip names them whole), the axes are named by the legend, and a cumulative
 * label that would cover its neighbour (98.3 % beside 100 %) gives way — ECharts' label layout.
 */
export function paretoOption(s: DashboardSnapshot): EChartOption {
  const p = s.quality.pareto;
  const crowded = p.length > 3;
  return {
    backgroundColor: 'transparent',
    textStyle: { color: TEXT },
    tooltip: {
      trigger: 'axis',
      formatter: (ps: { dataIndex: number; seriesName: string; value: number }[]) => {
        const r = p[ps[0]?.dataIndex];
        return r ? `${r.label}<br/>废品数 ${Number(r.quantity)}<br/>累计占比 ${r.cumulative ?? '—'}%` : '';
      },
    },
    legend: {
      data: ['废品数', '累计占比'],
      textStyle: { color: TEXT, fontSize: 14 },
      top: 0,
      itemHeight: 10,
    },
    grid: { left: 44, right: 48, top: 48, bottom: 8 },
    xAxis: {
      type: 'category',
      data: p.map((r) => r.label.replace(/（.*）/, '')),
      ...axisStyle(),
      axisLabel: {
        color: MUTED,
        fontSize: 14,
        interval: 0,
        rotate: crowded ? 45 : 0,
        width: crowded ? 72 : undefined,
        overflow: 'truncate',
        ellipsis: '…',
      },
    },
    yAxis: [
      { type: 'value', minInterval: 1, ...axisStyle(), axisLabel: { color: MUTED, fontSize: 14 } },
      {
        type: 'value',
        max: 100,
        ...axisStyle(),
        axisLabel: { color: MUTED, fontSize: 14, formatter: '{value}%' },
        splitLine: { show: false },
      },
    ],
    series: [
      { name: '废品数', type: 'bar', data: p.map((r) => Number(r.quantity)), itemStyle: { color: ORANGE } },
      {
        name: '累计占比',
        type: 'line',
        yAxisIndex: 1,
        data: p.map((r) => r.cumulative),
        itemStyle: { color: RED },
        label: { show: true, formatter: '{c}%', color: TEXT, fontSize: 13 },
        labelLayout: { hideOverlap: true },
      },
    ],
  };
}
