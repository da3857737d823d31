import { MACHINE_STATE_OPTIONS } from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Col, Empty, Row, Statistic, Tooltip } from 'antd';
import { GaugeChart } from 'echarts/charts';
import * as echarts from 'echarts/core';
import { useMemo } from 'react';
import { http } from '../../../platform/api/client.ts';
import { EChart, type EChartOption } from '../../../platform/ui/echart.tsx';

// The gauge is drawn only here: registered with the OEE pages' chunk, not the shared chart's.
echarts.use([GaugeChart]);

export interface OeeFigures {
  plannedMinutes: number;
  runMinutes: number;
  stopMinutes: number;
  good: number;
  scrap: number;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  oee: number | null;
  target: number | null;
  gap: number | null;
  losses: Record<string, number>;
  states: Record<string, number>;
}

export interface OeeRow extends OeeFigures {
  key: string;
  level: 'plant' | 'workshop' | 'machine';
  id: number | null;
  name: string;
  workshopName: string | null;
  period: string;
}

export interface OeeScope {
  from: string;
  to: string;
  workshopId?: number;
  equipmentId?: number;
  /** A workshop kind (the live dashboards are per kind). */
  workshopType?: string;
}

export interface LossAnswer {
  pareto: { label: string; minutes: number; cumulativePercent: number; loss: string }[];
  bigLosses: { value: string; label: string; factor: string; minutes: number }[];
  topMachines: {
    equipmentId: number;
    name: string;
    workshopName: string;
    lossMinutes: number;
    oee: number | null;
  }[];
}

export const pctText = (v: number | null | undefined) => (v == null ? '—' : `${v}%`);

const clean = (s: OeeScope) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined));

export function useOeeSummary(scope: OeeScope, level: 'plant' | 'workshop' | 'machine', period = 'all') {
  return useQuery({
    queryKey: ['oee', 'summary', scope, level, period],
    queryFn: () =>
      http.get<{ rows: OeeRow[]; total: OeeFigures }>('/api/v1/oee/summary', {
        ...clean(scope),
        level,
        period,
      }),
  });
}

export function useOeeLosses(scope: OeeScope) {
  return useQuery({
    queryKey: ['oee', 'losses', scope],
    queryFn: () => http.get<LossAnswer>('/api/v1/oee/losses', clean(scope)),
  });
}

/** The gap to the target: red when short of it. */
export function Gap({ gap }: { gap: number | null }) {
  if (gap == null) return <span className="rm-muted">—</span>;
  return <span style={{ color: gap < 0 ? '#f5222d' : '#52c41a' }}>{gap > 0 ? `+${gap}` : gap}%</span>;
}

function gaugeOption(name: string, value: number | null, target: number | null): EChartOption {
  return {
    series: [
      {
        type: 'gauge',
        min: 0,
        max: 100,
        radius: '90%',
        progress: { show: true, width: 10 },
        axisLine: { lineStyle: { width: 10 } },
        axisTick: { show: false },
        splitLine: { length: 6 },
        axisLabel: { show: false },
        pointer: { show: false },
        title: { offsetCenter: [0, '70%'], fontSize: 12 },
        detail: {
          valueAnimation: false,
          offsetCenter: [0, '10%'],
          fontSize: 18,
          formatter: (v: number) => `${v}%`,
        },
        itemStyle: { color: target != null && value != null && value < target ? '#f5222d' : '#1890ff' },
        data: [{ value: value ?? 0, name }],
      },
    ],
  };
}

/** One gauge per row (machine or workshop), the target under it with the gap in red when short. */
export function OeeGauges({ rows, onPick }: { rows: OeeRow[]; onPick?: (r: OeeRow) => void }) {
  if (!rows.length) return <Empty description="所选范围内没有设备" />;
  return (
    <Row gutter={[12, 12]} data-testid="oee-gauges">
      {rows.map((r) => (
        <Col key={r.key} xs={12} md={8} lg={6} xl={4}>
          <div
            className="oee-gauge"
            data-testid={`oee-gauge-${r.id}`}
            onClick={() => onPick?.(r)}
            onKeyDown={(e) => e.key === 'Enter' && onPick?.(r)}
            role="button"
            tabIndex={0}
            style={{ cursor: onPick ? 'pointer' : undefined, textAlign: 'center' }}
          >
            <EChart option={gaugeOption(r.name, r.oee, r.target)} style={{ height: 150 }} />
            <div style={{ fontSize: 12 }}>
              A {pctText(r.availability)} · P {pctText(r.performance)} · Q {pctText(r.quality)}
            </div>
            {r.target != null && (
              <div style={{ fontSize: 12 }}>
                目标 {r.target}% 差距 <Gap gap={r.gap} />
              </div>
            )}
          </div>
        </Col>
      ))}
    </Row>
  );
}

/** OEE and its three factors per day. */
export function OeeTrend({ scope }: { scope: OeeScope }) {
  const level = scope.equipmentId ? 'machine' : scope.workshopId ? 'workshop' : 'plant';
  const data = useOeeSummary(scope, level, 'day');
  const rows = data.data?.rows ?? [];
  const option = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['OEE', '时间开动率', '性能开动率', '合格品率'] },
      grid: { left: 40, right: 20, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: rows.map((r) => r.period.slice(5)) },
      yAxis: { type: 'value', name: '%', min: 0, max: 100 },
      series: [
        { name: 'OEE', type: 'line', data: rows.map((r) => r.oee), lineStyle: { width: 3 } },
        { name: '时间开动率', type: 'line', data: rows.map((r) => r.availability) },
        { name: '性能开动率', type: 'line', data: rows.map((r) => r.performance) },
        { name: '合格品率', type: 'line', data: rows.map((r) => r.quality) },
      ],
    }),
    [rows],
  );
  return <EChart option={option} testId="oee-trend" />;
}

/** The loss Pareto: minutes by reason, largest first, with the cumulative share. */
export function LossPareto({ scope }: { scope: OeeScope }) {
  const data = useOeeLosses(scope);
  const items = data.data?.pareto ?? [];
  const option = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['损失(分钟)', '累计占比'] },
      grid: { left: 50, right: 50, top: 40, bottom: 50 },
      xAxis: { type: 'category', data: items.map((r) => r.label), axisLabel: { interval: 0, rotate: 20 } },
      yAxis: [
        { type: 'value', name: '分钟' },
        { type: 'value', name: '%', min: 0, max: 100 },
      ],
      series: [
        {
          name: '损失(分钟)',
          type: 'bar',
          data: items.map((r) => r.minutes),
          itemStyle: { color: '#fa8c16' },
        },
        { name: '累计占比', type: 'line', yAxisIndex: 1, data: items.map((r) => r.cumulativePercent) },
      ],
    }),
    [items],
  );
  return (
    <div data-testid="oee-pareto" data-reasons={items.map((r) => r.label).join('|')}>
      <EChart option={option} />
    </div>
  );
}

/** The board of a workshop or the plant: a gauge per machine, the trend and the loss Pareto. */
export function OeeBoard({ scope, onPickMachine }: { scope: OeeScope; onPickMachine?: (r: OeeRow) => void }) {
  const machines = useOeeSummary(scope, 'machine');
  return (
    <div data-testid="oee-board">
      <OeeGauges rows={machines.data?.rows ?? []} onPick={onPickMachine} />
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} lg={12}>
          <div className="rk-form-section-title">OEE 趋势</div>
          <OeeTrend scope={scope} />
        </Col>
        <Col xs={24} lg={12}>
          <div className="rk-form-section-title">损失帕累托</div>
          <LossPareto scope={scope} />
        </Col>
      </Row>
    </div>
  );
}

const STATE_COLOR: Record<string, string> = {
  run: '#52c41a',
  runNoDispatch: '#a0d911',
  idle: '#fadb14',
  setup: '#722ed1',
  material: '#fa8c16',
  labour: '#eb2f96',
  fault: '#f5222d',
  other: '#fa541c',
  planned: '#1890ff',
  offShift: '#d9d9d9',
};

export interface Segment {
  from: string;
  to: string;
  minutes: number;
  state: string;
  stateLabel: string;
  reason: string | null;
}

const hm = (iso: string) =>
  new Date(iso).toLocaleTimeString('zh-CN', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: 'Asia/Shanghai',
  });

/** A day's states as a strip, each segment as wide as its minutes, with a legend. */
export function StateStrip({ segments }: { segments: Segment[] }) {
  const total = segments.reduce((a, s) => a + s.minutes, 0) || 1;
  return (
    <div>
      <div
        data-testid="oee-strip"
        style={{ display: 'flex', height: 28, borderRadius: 4, overflow: 'hidden' }}
      >
        {segments.map((s) => (
          <Tooltip
            key={s.from}
            title={`${hm(s.from)}–${hm(s.to)} ${s.stateLabel}${s.reason ? `（${s.reason}）` : ''} ${s.minutes} 分钟`}
          >
            <div
              data-state={s.state}
              style={{ width: `${(s.minutes / total) * 100}%`, background: STATE_COLOR[s.state] ?? '#999' }}
            />
          </Tooltip>
        ))}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, color: '#888' }}>
        <span>00:00</span>
        <span>06:00</span>
        <span>12:00</span>
        <span>18:00</span>
        <span>24:00</span>
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, fontSize: 12, marginTop: 4 }}>
        {MACHINE_STATE_OPTIONS.map((o) => (
          <span key={o.value}>
            <span
              style={{
                display: 'inline-block',
                width: 10,
                height: 10,
                marginRight: 4,
                background: STATE_COLOR[o.value],
              }}
            />
            {o.label}
          </span>
        ))}
      </div>
    </div>
  );
}

/** A machine's OEE over the last 30 days on its detail page: the factors, its target with the gap, the trend. */
export function MachineOee({ equipmentId }: { equipmentId: number }) {
  const scope: OeeScope = {
    from: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10),
    to: new Date().toISOString().slice(0, 10),
    equipmentId,
  };
  const data = useOeeSummary(scope, 'machine');
  const r = data.data?.rows[0];
  return (
    <div className="rk-form-section" data-testid="equipment-oee">
      <div className="rk-form-section-title">设备OEE（近 30 天）</div>
      <div className="eq-stats">
        <Statistic title="OEE" value={pctText(r?.oee)} />
        <Statistic title="时间开动率" value={pctText(r?.availability)} />
        <Statistic title="性能开动率" value={pctText(r?.performance)} />
        <Statistic title="合格品率" value={pctText(r?.quality)} />
        <Statistic title="目标" value={pctText(r?.target)} />
        <Statistic title="差距" valueRender={() => <Gap gap={r?.gap ?? null} />} />
      </div>
      <OeeTrend scope={scope} />
    </div>
  );
}

/** The OEE panel of a live dashboard (全厂 or a workshop kind): the last 7 days' gauges and loss Pareto, from its own endpoint. */
export function DashboardOee({ workshopType }: { workshopType?: string }) {
  const scope: OeeScope = {
    from: new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10),
    to: new Date().toISOString().slice(0, 10),
    ...(workshopType ? { workshopType } : {}),
  };
  const machines = useOeeSummary(scope, 'machine');
  return (
    <div data-testid="dashboard-oee">
      <OeeGauges rows={(machines.data?.rows ?? []).filter((r) => r.plannedMinutes > 0)} />
      <LossPareto scope={scope} />
    </div>
  );
}
