import { capabilityBand, MEASURE_CHARACTERISTICS, SPC_FAMILIES, type SpcFamily } from '@ringmes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, DatePicker, Empty, Form, InputNumber, Select, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ScatterChart } from 'echarts/charts';
import { DataZoomComponent, MarkLineComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import type { PageProps } from '../../platform/page.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { EChart, type EChartOption } from '../../platform/ui/echart.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { SearchForm } from '../../platform/ui/search-form.tsx';
import { RingGeometryPanel } from './ring-geometry.tsx';
import { controlChart, fmt, histogramChart, type SpcChart, type Violation } from './spc-charts.ts';
import { SpcLimitsPanel } from './spc-limits-panel.tsx';

// The SPC charts also draw flagged points, control-limit lines and a zoom bar.
echarts.use([ScatterChart, MarkLineComponent, DataZoomComponent]);

interface Filters {
  characteristic?: string;
  equipmentId?: number;
  productId?: number;
  range?: [Dayjs, Dayjs];
  lsl?: number | null;
  usl?: number | null;
}

const BAND_COLOURS = { good: '#52c41a', marginal: '#faad14', poor: '#f5222d', none: '#bfbfbf' };
const BAND_TEXT = { good: '能力充足', marginal: '能力尚可', poor: '能力不足', none: '无规格限' };

interface LatestAlarm {
  characteristic: string;
  equipmentId: number;
  productId: number;
  measuredAt: string;
}

/**
 * 统计报表 (沟道, 角度, 高度, 内外径): for a characteristic of the family, a machine, optionally a
 * product, and a period: the X̄–R (or I-MR) chart with UCL/CL/LCL and the points flagged by the
 * Western Electric rules, the histogram with the specification limits and the fitted normal
 * curve, Cp/Cpk/Pp/Ppk in colour bands and the list of violations. Every figure comes aggregated
 * from the server.
 */
export function SpcReportPage({ family }: PageProps & { family: SpcFamily }) {
  const [search] = useSearchParams();
  const choices = MEASURE_CHARACTERISTICS.filter((c) => c.family === family);
  const initial: Filters = {
    characteristic: choices.some((c) => c.value === search.get('characteristic'))
      ? (search.get('characteristic') as string)
      : choices[0].value,
    equipmentId: Number(search.get('equipmentId')) || undefined,
    productId: Number(search.get('productId')) || undefined,
    range: [dayjs().subtract(42, 'day'), dayjs()],
  };
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>(initial);
  // Opened without a machine (from the menu): the series with the family's latest 失控 alarm.
  const latest = useQuery({
    queryKey: ['spc-latest-alarm', family],
    queryFn: () => http.get<LatestAlarm | null>('/api/v1/spc/latest-alarm', { family }),
    enabled: !initial.equipmentId,
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    const a = latest.data;
    if (!a) return;
    const at = dayjs(a.measuredAt);
    const picked: Filters = {
      ...form.getFieldsValue(),
      characteristic: a.characteristic,
      equipmentId: a.equipmentId,
      productId: a.productId,
      // The period around the alarm; an unreadable time keeps the default period, never 「Invalid Date」.
      range: at.isValid()
        ? [at.subtract(42, 'day'), at.isAfter(dayjs()) ? at : dayjs()]
        : [dayjs().subtract(42, 'day'), dayjs()],
    };
    form.setFieldsValue(picked);
    setFilters((f) => (f.equipmentId ? f : picked));
  }, [latest.data, form]);
  const query = {
    family,
    characteristic: filters.characteristic,
    equipmentId: filters.equipmentId,
    productId: filters.productId,
    from: filters.range?.[0].format('YYYY-MM-DD'),
    to: filters.range?.[1].format('YYYY-MM-DD'),
    lsl: filters.lsl ?? undefined,
    usl: filters.usl ?? undefined,
  };
  const chart = useQuery({
    queryKey: ['spc-chart', query],
    queryFn: () => http.get<SpcChart>('/api/v1/spc/chart', query),
    enabled: Boolean(filters.equipmentId && filters.characteristic && filters.range),
    placeholderData: keepPreviousData,
  });
  const data = chart.data && !chart.data.empty ? chart.data : undefined;
  const xName = data?.kind === 'i-mr' ? '单值 I' : '均值 X̄';
  const rName = data?.kind === 'i-mr' ? '移动极差 MR' : data?.kind === 'xbar-s' ? '标准差 S' : '极差 R';
  const rShort = data?.kind === 'i-mr' ? 'MR' : data?.kind === 'xbar-s' ? 'S' : 'R';
  const seriesKey =
    filters.productId && filters.equipmentId && filters.characteristic
      ? {
          productId: filters.productId,
          characteristic: filters.characteristic,
          equipmentId: filters.equipmentId,
        }
      : null;

  const labels = useMemo(
    () => (data?.points?.t ?? []).map((m) => dayjs(m * 60_000).format('YYYY-MM-DD HH:mm')),
    [data],
  );
  const xOption = useMemo<EChartOption | undefined>(
    () =>
      data?.points && data.limits
        ? controlChart(
            xName,
            labels,
            data.points.x,
            data.limits,
            (data.violations ?? []).filter((v) => v.chart === 'x'),
          )
        : undefined,
    [data, labels, xName],
  );
  const rOption = useMemo<EChartOption | undefined>(
    () =>
      data?.points && data.limits
        ? controlChart(
            rName,
            labels,
            data.points.r,
            { center: data.limits.rCenter, ucl: data.limits.rUcl, lcl: data.limits.rLcl },
            (data.violations ?? []).filter((v) => v.chart === 'r'),
          )
        : undefined,
    [data, labels, rName],
  );
  const histOption = useMemo(() => (data ? histogramChart(data) : undefined), [data]);

  const cap = data?.capability;
  const card = (label: string, v: number | null | undefined) => {
    const band = capabilityBand(v ?? null);
    return (
      <div
        key={label}
        data-testid={`cap-${label.toLowerCase()}`}
        data-band={band}
        style={{
          minWidth: 150,
          padding: '12px 16px',
          borderRadius: 6,
          border: `1px solid ${BAND_COLOURS[band]}`,
          background: `${BAND_COLOURS[band]}1a`,
        }}
      >
        <Statistic title={label} value={fmt(v ?? null, 2)} valueStyle={{ color: BAND_COLOURS[band] }} />
        <span style={{ color: BAND_COLOURS[band] }}>{BAND_TEXT[band]}</span>
      </div>
    );
  };

  return (
    <div data-testid={`spc-report-${family}`}>
      <PageCard>
        <SearchForm<Filters>
          name={`spc-${family}`}
          form={form}
          initialValues={initial}
          onSearch={(v) => setFilters({ ...initial, ...v })}
          onReset={() => setFilters(initial)}
        >
          <Form.Item name="characteristic" label="测量特性">
            <Select style={{ width: 140 }} options={choices.map(({ value, label }) => ({ value, label }))} />
          </Form.Item>
          <Form.Item name="equipmentId" label="机台">
            <RefSelect
              field={{ name: 'equipmentId', label: '机台', kind: 'ref', ref: 'equipment' }}
              placeholder="请选择机台"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="productId" label="产品">
            <RefSelect
              field={{ name: 'productId', label: '产品', kind: 'ref', ref: 'material-info' }}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="range" label="期间">
            <DatePicker.RangePicker allowClear={false} />
          </Form.Item>
          <Form.Item name="lsl" label="LSL" tooltip="不填则取最近一组记录的规格限">
            <InputNumber style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="usl" label="USL" tooltip="不填则取最近一组记录的规格限">
            <InputNumber style={{ width: 110 }} />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <RingGeometryPanel
        family={family}
        characteristic={filters.characteristic}
        productId={filters.productId}
        equipmentId={filters.equipmentId}
        from={query.from}
        to={query.to}
      />
      {!filters.equipmentId ? (
        <PageCard>
          <Empty description="请选择测量特性、机台和期间后查询" />
        </PageCard>
      ) : chart.data?.empty ? (
        <PageCard>
          <Empty description="所选期间没有测量记录" />
        </PageCard>
      ) : (
        data && (
          <>
            <PageCard title={`${SPC_FAMILIES[family].label} · 过程能力`}>
              <Space size={16} wrap data-testid="spc-capability">
                {card('Cp', cap?.cp)}
                {card('Cpk', cap?.cpk)}
                {card('Pp', cap?.pp)}
                {card('Ppk', cap?.ppk)}
                <Statistic title="测量值个数" value={data.count} />
                <Statistic title="子组数" value={data.subgroups} />
                <Statistic title="子组容量" value={data.n} />
                <Statistic title={`均值(${data.unit})`} value={fmt(data.mean)} />
                <Statistic title="σ 组内" value={fmt(data.sigmaWithin, 5)} />
                <Statistic title="σ 整体" value={fmt(data.sigmaOverall, 5)} />
                <Statistic title="LSL / USL" value={`${fmt(data.lsl ?? null)} / ${fmt(data.usl ?? null)}`} />
              </Space>
              {data.lsl == null && data.usl == null && (
                <Alert
                  style={{ marginTop: 12 }}
                  type="info"
                  message="没有规格限：请在测量记录中填写或在上方输入 LSL/USL"
                />
              )}
            </PageCard>
            <SpcLimitsPanel
              family={family}
              seriesKey={seriesKey}
              revision={data.revision}
              period={filters.range}
            />
            {xOption && rOption ? (
              <>
                <PageCard title={`${data.kind === 'i-mr' ? 'I' : 'X̄'} 控制图`}>
                  {data.aggregated && (
                    <Alert
                      style={{ marginBottom: 8 }}
                      type="info"
                      data-testid="spc-aggregated"
                      message={`本期共 ${data.aggregated.subgroups.toLocaleString('zh-CN')} 个子组，超过 50,000 个：图上每 ${data.aggregated.bucket} 组画最高、最低和极差最大的点，失控点全部画出（共 ${data.aggregated.shown.toLocaleString('zh-CN')} 点）；判异按全部子组计算，缩短期间可逐点查看`}
                    />
                  )}
                  <EChart option={xOption} testId="spc-xbar-chart" style={{ height: 320 }} />
                </PageCard>
                <PageCard title={`${rShort} 控制图`}>
                  <EChart option={rOption} testId="spc-r-chart" style={{ height: 240 }} />
                </PageCard>
              </>
            ) : (
              <PageCard>
                <Alert type="info" message="数据太少，无法计算控制限" />
              </PageCard>
            )}
            <PageCard title="直方图（规格限与正态曲线）">
              {histOption && <EChart option={histOption} testId="spc-histogram" style={{ height: 300 }} />}
            </PageCard>
            <PageCard title={`失控点（${data.violations?.length ?? 0}）`}>
              <Table<Violation>
                size="small"
                rowKey={(v) => `${v.chart}-${v.index}-${v.rule}`}
                dataSource={data.violations ?? []}
                pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 条` }}
                data-testid="spc-violations"
                columns={[
                  {
                    title: '测量时间',
                    dataIndex: 'measuredAt',
                    width: 160,
                    render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
                  },
                  { title: '子组序号', dataIndex: 'index', width: 90, render: (i: number) => i + 1 },
                  {
                    title: '控制图',
                    dataIndex: 'chart',
                    width: 90,
                    render: (c: string) => (c === 'x' ? xName : rName),
                  },
                  { title: '值', dataIndex: 'value', width: 110, render: (v: number) => fmt(v) },
                  {
                    title: '判异规则',
                    dataIndex: 'label',
                    render: (l: string) => <Tag color="red">{l}</Tag>,
                  },
                ]}
              />
            </PageCard>
          </>
        )
      )}
    </div>
  );
}
