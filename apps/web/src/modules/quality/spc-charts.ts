import type { EChartOption } from '../../platform/ui/echart.tsx';

/**
 * The options of the SPC report's charts (X̄/I, R/MR and the histogram), apart from the page so
 * they can be drawn and checked without a browser.
 */

export interface Violation {
  index: number;
  rule: number;
  chart: 'x' | 'r';
  label: string;
  subgroupId: number;
  measuredAt: string;
  value: number;
}

export interface SpcChart {
  empty: boolean;
  unit: string;
  kind?: 'xbar-r' | 'xbar-s' | 'i-mr';
  /** II: plotted against the series' frozen revision; I: limits from the period shown. */
  phase?: 'I' | 'II';
  revision?: { id: number; version: number; baselineFrom: string; baselineTo: string } | null;
  count?: number;
  subgroups?: number;
  n?: number;
  mean?: number;
  sigmaWithin?: number;
  sigmaOverall?: number;
  lsl?: number | null;
  usl?: number | null;
  capability?: { cp: number | null; cpk: number | null; pp: number | null; ppk: number | null };
  limits?: { center: number; ucl: number; lcl: number; rCenter: number; rUcl: number; rLcl: number } | null;
  /** `t`: minutes since 1970. */
  points?: { t: number[]; x: number[]; r: (number | null)[] };
  /** A long series drawn in buckets (more than 50,000 subgroups). */
  aggregated?: { subgroups: number; shown: number; bucket: number } | null;
  violations?: Violation[];
  histogram?: {
    bins: { from: number; to: number; count: number; expected: number }[];
    curve: [number, number][];
  };
}

export const fmt = (v: number | null | undefined, d = 4) =>
  v == null || !Number.isFinite(v) ? '-' : v.toFixed(d);

/**
 * A mark line sits at its value rounded to `precision` decimals, 2 unless told: a limit of
 * 51.989 mm was drawn (and labelled) at 51.99, and control limits closer than 0.01 fell off the
 * axis. Limits are drawn where they are.
 */
const EXACT = 10;

function limitLines(l: { center: number; ucl: number; lcl: number }) {
  return {
    symbol: 'none',
    silent: true,
    precision: EXACT,
    data: [
      { yAxis: l.ucl, name: 'UCL', lineStyle: { color: '#f5222d', type: 'dashed' } },
      { yAxis: l.center, name: 'CL', lineStyle: { color: '#52c41a' } },
      { yAxis: l.lcl, name: 'LCL', lineStyle: { color: '#f5222d', type: 'dashed' } },
    ],
    label: {
      formatter: (p: { name: string; value: number }) => `${p.name} ${fmt(p.value)}`,
      position: 'end',
    },
  };
}

/** A control chart of one statistic with its limits, flagged points in red. */
export function controlChart(
  title: string,
  t: string[],
  y: (number | null)[],
  limits: { center: number; ucl: number; lcl: number },
  flagged: Violation[],
): EChartOption {
  const byIndex = new Map<number, string[]>();
  for (const v of flagged) byIndex.set(v.index, [...(byIndex.get(v.index) ?? []), v.label]);
  return {
    animation: false,
    tooltip: {
      trigger: 'axis',
      formatter: (ps: { dataIndex: number; value: unknown }[]) => {
        const i = ps[0]?.dataIndex;
        const rules = byIndex.get(i) ?? [];
        return [
          `${t[i]}`,
          `${title}：${fmt(y[i] ?? null)}`,
          ...rules.map((r) => `<span style="color:#f5222d">${r}</span>`),
        ].join('<br/>');
      },
    },
    grid: { left: 70, right: 110, top: 20, bottom: 60 },
    xAxis: { type: 'category', data: t, axisLabel: { hideOverlap: true } },
    yAxis: {
      type: 'value',
      scale: true,
      min: (e: { min: number }) => Math.min(e.min, limits.lcl),
      max: (e: { max: number }) => Math.max(e.max, limits.ucl),
      axisLabel: { formatter: (v: number) => fmt(v, 4) },
    },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 10 }],
    series: [
      {
        name: title,
        type: 'line',
        data: y,
        symbolSize: 4,
        showSymbol: t.length <= 300,
        sampling: t.length > 2000 ? 'lttb' : undefined,
        lineStyle: { width: 1 },
        markLine: limitLines(limits),
      },
      {
        name: '失控点',
        type: 'scatter',
        symbolSize: 9,
        itemStyle: { color: '#f5222d' },
        data: [...byIndex.keys()].map((i) => [i, y[i]]),
      },
    ],
  };
}

/** The histogram of the values with the specification limits (LSL/USL) and the fitted normal curve. */
export function histogramChart(data: SpcChart): EChartOption | undefined {
  const h = data.histogram;
  if (!h) return undefined;
  const specs = [
    data.lsl != null && { xAxis: data.lsl, name: 'LSL' },
    data.usl != null && { xAxis: data.usl, name: 'USL' },
  ].filter(Boolean);
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    grid: { left: 60, right: 30, top: 36, bottom: 30 },
    xAxis: { type: 'value', scale: true, axisLabel: { formatter: (v: number) => fmt(v, 3) } },
    yAxis: { type: 'value', name: '频数' },
    series: [
      {
        name: '频数',
        type: 'bar',
        barCategoryGap: '2%',
        data: h.bins.map((b) => [(b.from + b.to) / 2, b.count]),
        itemStyle: { color: '#69b1ff' },
        markLine: {
          symbol: 'none',
          silent: true,
          precision: EXACT,
          lineStyle: { color: '#f5222d', width: 2 },
          label: { formatter: (p: { name: string; value: number }) => `${p.name} ${fmt(p.value)}` },
          data: specs,
        },
      },
      {
        name: '正态曲线',
        type: 'line',
        smooth: true,
        showSymbol: false,
        data: h.curve,
        lineStyle: { color: '#fa8c16', width: 2 },
      },
    ],
  };
}
