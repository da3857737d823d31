import { useQuery } from '@tanstack/react-query';
import { DatePicker, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import type { PageProps } from '../../../platform/page.ts';
import { ExportButton } from '../../../platform/resource/export-button.tsx';
import { EChart, type EChartOption } from '../../../platform/ui/echart.tsx';
import { PageCard } from '../../../platform/ui/page-card.tsx';

interface YieldRow {
  month: string;
  matches: number;
  innerOffered: number;
  outerOffered: number;
  offered: number;
  assembled: number;
  yieldPercent: number | null;
}

/**
 * 装配车间 › 选配合格率: per month, the bearings assembled by 选配 against the sets the offered rings
 * could make at most (the smaller side), with a chart and the Excel export.
 */
export function RingMatchingYieldPage(_: PageProps) {
  const can = usePermission();
  const [range, setRange] = useState<[Dayjs, Dayjs]>([dayjs().subtract(5, 'month'), dayjs()]);
  const q = { from: range[0].format('YYYY-MM'), to: range[1].format('YYYY-MM') };
  const data = useQuery({
    queryKey: ['ring-matching', 'yield', q],
    queryFn: () =>
      http.get<{ rows: YieldRow[]; totals: Omit<YieldRow, 'month'> }>('/api/v1/ring-matching/yield', q),
  });
  const rows = data.data?.rows ?? [];
  const option = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { data: ['可配套数', '配成套数', '选配合格率'] },
      grid: { left: 50, right: 50, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: rows.map((r) => r.month) },
      yAxis: [
        { type: 'value', name: '套' },
        { type: 'value', name: '%', min: 0, max: 100 },
      ],
      series: [
        { name: '可配套数', type: 'bar', data: rows.map((r) => r.offered) },
        { name: '配成套数', type: 'bar', data: rows.map((r) => r.assembled) },
        { name: '选配合格率', type: 'line', yAxisIndex: 1, data: rows.map((r) => r.yieldPercent) },
      ],
    }),
    [rows],
  );
  const t = data.data?.totals;
  return (
    <PageCard
      title="装配 · 选配合格率"
      extra={
        <Space>
          <DatePicker.RangePicker
            picker="month"
            allowClear={false}
            value={range}
            onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          />
          {can('production:assemblyMatchingYield:export') && (
            <ExportButton url="/api/v1/ring-matching/yield/export" params={() => q} />
          )}
        </Space>
      }
    >
      <EChart option={option} testId="rm-yield-chart" />
      <Table<YieldRow>
        data-testid="rm-yield-table"
        size="middle"
        rowKey="month"
        loading={data.isFetching}
        dataSource={rows}
        pagination={false}
        columns={[
          { title: '月份', dataIndex: 'month' },
          { title: '选配次数', dataIndex: 'matches', align: 'right' },
          { title: '内圈（件）', dataIndex: 'innerOffered', align: 'right' },
          { title: '外圈（件）', dataIndex: 'outerOffered', align: 'right' },
          { title: '可配套数', dataIndex: 'offered', align: 'right' },
          { title: '配成套数', dataIndex: 'assembled', align: 'right' },
          {
            title: '选配合格率',
            dataIndex: 'yieldPercent',
            align: 'right',
            render: (v) => (v == null ? '—' : `${v}%`),
          },
        ]}
        summary={() =>
          t ? (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">
                {t.matches}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {t.innerOffered}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">
                {t.outerOffered}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} align="right">
                {t.offered}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={5} align="right">
                {t.assembled}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">
                {t.yieldPercent == null ? '—' : `${t.yieldPercent}%`}
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
    </PageCard>
  );
}
