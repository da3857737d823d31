import { DownloadOutlined } from '@ant-design/icons';
import {
  type FinanceReportDef,
  type ReportMeasureDef,
  type ReportValueKind,
  resourceByName,
} from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Drawer, Form, Segmented, Space, Statistic, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { download } from '../../../platform/api/download.ts';
import { type ApiQuery, api, type PathOf } from '../../../platform/api/typed.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { moneyText, numberText, quantityText } from '../../../platform/lib/number-text.ts';
import type { PageProps } from '../../../platform/page.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import { resourceRoutes } from '../../../platform/resource/routes.ts';
import { EChart, type EChartOption } from '../../../platform/ui/echart.tsx';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';

type Row = Record<string, any>;
/** A report's summary route (`GET /api/v1/finance-report/{name}`), one per declared report. */
type ReportPath = Exclude<
  Extract<PathOf<'get'>, `/api/v1/finance-report/${string}`>,
  `${string}/detail` | `${string}/export`
>;
/**
 * A report's answer: the generated types per report, read here through the declaration's
 * measures (their names are the rows' keys), so rows are kept as records.
 */
interface Report {
  rows: Row[];
  totals: Row;
}

/** A value of a report as the page shows it. */
export function formatValue(kind: ReportValueKind, v: unknown): string {
  if (v == null || v === '') return '-';
  switch (kind) {
    case 'money':
      return moneyText(v);
    case 'quantity':
      return quantityText(v);
    case 'int':
      return numberText(v, { max: 3 });
    case 'percent':
      return `${Number(v).toFixed(2)}%`;
    default:
      return String(v);
  }
}

type UnitSum = { unitName: string; quantity: string };

/** A per-unit measure's sums on a row or the totals (server: `units`), most facts first. */
const unitsOf = (m: ReportMeasureDef, row: Row | undefined): UnitSum[] | undefined =>
  m.perUnit ? (row?.units?.[m.name] as UnitSum[] | undefined) : undefined;

/**
 * A measure as the page shows it. A quantity counted per unit carries its unit (12,340 件); over
 * several units it is one figure per unit (件 12,340 · kg 5,230.5), never their sum.
 */
export function measureText(m: ReportMeasureDef, row: Row | undefined): string {
  const units = unitsOf(m, row);
  if (!units?.length) return formatValue(m.kind, row?.[m.name]);
  if (units.length === 1)
    return `${formatValue(m.kind, units[0].quantity)}${units[0].unitName ? ` ${units[0].unitName}` : ''}`;
  return units.map((u) => `${u.unitName} ${formatValue(m.kind, u.quantity)}`).join(' · ');
}

/** The same in a table cell: a line per unit. */
function MeasureCell({ m, row }: { m: ReportMeasureDef; row: Row | undefined }) {
  const units = unitsOf(m, row);
  if (!units || units.length < 2) return <>{measureText(m, row)}</>;
  return (
    <span className="rm-unit-lines" data-testid={`units-${m.name}`}>
      {units.map((u) => (
        <span key={u.unitName} style={{ display: 'block', whiteSpace: 'nowrap' }}>
          {u.unitName} {formatValue(m.kind, u.quantity)}
        </span>
      ))}
    </span>
  );
}

/**
 * Every 财务部 report, from its declaration: the search form from its filters, totals, a chart
 * of its charted measures by the current grouping, the grouped table, a drill-down drawer of the
 * facts behind a row (each opening its document) and the Excel export of what is shown.
 */
export function FinanceReportPage({ def }: PageProps & { def: FinanceReportDef }) {
  const can = usePermission();
  const [form] = Form.useForm<Row>();
  const [filters, setFilters] = useState<Row>({});
  const [groupBy, setGroupBy] = useState(def.groups[0].value);
  const [drill, setDrill] = useState<Row | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const path = `/api/v1/finance-report/${def.name}` as ReportPath;
  const query = useMemo(() => {
    const q: Row = { groupBy };
    for (const f of def.filters) {
      const v = filters[f.name];
      if (v == null) continue;
      if (f.kind === 'range') {
        q.from = (v as [Dayjs, Dayjs])[0].format('YYYY-MM-DD');
        q.to = (v as [Dayjs, Dayjs])[1].format('YYYY-MM-DD');
      } else if (f.kind === 'date') q.date = (v as Dayjs).format('YYYY-MM-DD');
      else q[f.name] = v;
    }
    return q;
  }, [def, filters, groupBy]);
  const report = useQuery({
    queryKey: [path, query],
    queryFn: (): Promise<Report> => api.get(path, { query: query as ApiQuery<ReportPath> }),
    placeholderData: keepPreviousData,
  });
  const detail = useQuery({
    queryKey: [path, 'detail', query, drill?.key, page],
    queryFn: (): Promise<{ rows: Row[]; total: number }> =>
      api.get(`${path}/detail`, {
        query: { ...query, key: drill?.key, ...page } as ApiQuery<`${ReportPath}/detail`>,
      }),
    enabled: drill != null,
  });
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { fileName } = await api.get(`${path}/export`, {
        query: query as ApiQuery<`${ReportPath}/export`>,
      });
      await download('/common/download', { fileName, delete: 'true' });
    },
  });
  const data = report.data;
  const by = def.groups.find((g) => g.value === groupBy)?.label.replace(/^按/, '') ?? '';
  const charted = def.measures.filter((m) => m.chart);
  const option = useMemo<EChartOption>(() => {
    const timeline = groupBy === 'month' || groupBy === 'day';
    const rows = (data?.rows ?? []).slice(0, timeline ? 400 : 15);
    // The right axis is for percentages; a line of amounts (单位成本) shares the left one.
    const line = charted.some((m) => m.chart === 'line' && m.kind === 'percent');
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 80, right: line ? 60 : 30, top: 40, bottom: 60 },
      xAxis: {
        type: 'category',
        data: rows.map((r) => r.label ?? '-'),
        axisLabel: { rotate: timeline ? 0 : 30, interval: 0, width: 90, overflow: 'truncate' },
      },
      yAxis: [{ type: 'value' }, ...(line ? [{ type: 'value', name: '%' }] : [])],
      // A per-unit measure is drawn one series per unit (合格数（件）, 合格数（套）): never summed.
      series: charted.flatMap((m) => {
        const units = unitsOf(m, data?.totals);
        if (!units?.length)
          return [
            {
              name: m.label,
              type: m.chart,
              yAxisIndex: m.chart === 'line' && m.kind === 'percent' ? 1 : 0,
              data: rows.map((r) => (r[m.name] == null ? null : Number(r[m.name]))),
            },
          ];
        return units.map((u) => ({
          name: u.unitName ? `${m.label}（${u.unitName}）` : m.label,
          type: m.chart,
          yAxisIndex: 0,
          data: rows.map((r) => {
            const q = unitsOf(m, r)?.find((x) => x.unitName === u.unitName)?.quantity;
            return q == null ? null : Number(q);
          }),
        }));
      }),
    };
  }, [data, groupBy, charted]);

  const right = 'right' as const;
  const measureColumns = def.measures.map((m) => ({
    title: m.label,
    dataIndex: m.name,
    width: m.perUnit ? 150 : 130,
    align: right,
    render: (_: unknown, r: Row) => <MeasureCell m={m} row={r} />,
  }));
  const detailColumns: ColumnsType<Row> = [
    ...def.detail.map((c, i) => ({
      title: c.label,
      dataIndex: c.name,
      width: c.kind === 'date' ? 110 : 150,
      render: (v: unknown, r: Row) => {
        const resource = r.docResource ? resourceByName(r.docResource) : undefined;
        if (i === 0 && resource?.route) {
          const to = resourceRoutes(resource).detail ?? resourceRoutes(resource).edit;
          if (to)
            return (
              <Typography.Link onClick={() => openResourcePage(to, r.docId)}>{String(v)}</Typography.Link>
            );
        }
        return formatValue(c.kind, v);
      },
    })),
    ...def.measures.map((m) => ({
      title: m.label,
      dataIndex: m.name,
      width: 120,
      align: right,
      // A fact is one material: its quantity in that material's unit.
      render: (v: unknown, r: Row) =>
        m.perUnit && r.unitName ? `${formatValue(m.kind, v)} ${r.unitName}` : formatValue(m.kind, v),
    })),
  ];
  const t = data?.totals ?? {};
  return (
    <div data-testid={`report-${def.name}`}>
      <PageCard>
        <SearchForm<Row>
          name={`finance-${def.name}`}
          form={form}
          onSearch={(v) => setFilters(v)}
          onReset={() => setFilters({})}
        >
          {def.filters.map((f) => (
            <Form.Item key={f.name} name={f.name} label={f.label}>
              {f.kind === 'range' ? (
                <DatePicker.RangePicker />
              ) : f.kind === 'date' ? (
                <DatePicker placeholder="今天" disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
              ) : (
                <RefSelect
                  field={{ name: f.name, label: f.label, kind: 'ref', ref: f.ref }}
                  placeholder="全部"
                  style={{ width: 200 }}
                />
              )}
            </Form.Item>
          ))}
        </SearchForm>
      </PageCard>
      <PageCard>
        <Space size={40} wrap data-testid="report-totals">
          {def.measures.map((m) => (
            <Statistic key={m.name} title={m.label} value={measureText(m, t)} />
          ))}
        </Space>
      </PageCard>
      {charted.length > 0 && (
        <PageCard title={`${def.title}（按${by}）`}>
          <EChart option={option} testId="report-chart" />
        </PageCard>
      )}
      <PageCard>
        <TableToolbar
          left={
            <Segmented<string>
              value={groupBy}
              onChange={(v) => setGroupBy(v)}
              options={def.groups.map((g) => ({ value: g.value, label: g.label }))}
            />
          }
          right={
            can(`${def.permission}:export`) && (
              <Button
                icon={<DownloadOutlined />}
                loading={exportExcel.isPending}
                onClick={() => exportExcel.mutate()}
              >
                导出
              </Button>
            )
          }
        />
        <Table<Row>
          rowKey="key"
          size="middle"
          data-testid="report-table"
          loading={report.isFetching}
          dataSource={data?.rows ?? []}
          pagination={{ pageSize: 20, showSizeChanger: true, showTotal: (n) => `共 ${n} 条` }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: by, dataIndex: 'label', width: 180, fixed: 'left', render: (v) => v ?? '-' },
            ...measureColumns,
            {
              title: '操作',
              key: 'op',
              width: 80,
              fixed: 'right',
              render: (_: unknown, r: Row) => (
                <Typography.Link
                  onClick={() => {
                    setPage({ pageNum: 1, pageSize: 20 });
                    setDrill(r);
                  }}
                >
                  明细
                </Typography.Link>
              ),
            },
          ]}
          summary={() =>
            data?.rows.length ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
                {def.measures.map((m, i) => (
                  <Table.Summary.Cell key={m.name} index={i + 1} align="right">
                    <MeasureCell m={m} row={t} />
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={def.measures.length + 1} />
              </Table.Summary.Row>
            ) : null
          }
        />
      </PageCard>
      <Drawer
        open={drill != null}
        onClose={() => setDrill(null)}
        width={1000}
        title={`${def.title}明细：${drill?.label ?? ''}`}
        destroyOnHidden
      >
        <Table<Row>
          rowKey={(r) =>
            `${r.docResource ?? ''}-${r.docId}-${r.docNo ?? ''}-${r.materialCode ?? ''}-${r.warehouseName ?? ''}`
          }
          size="small"
          data-testid="report-detail"
          loading={detail.isFetching}
          dataSource={detail.data?.rows ?? []}
          columns={detailColumns}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: detail.data?.total ?? 0,
            showTotal: (n) => `共 ${n} 条`,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
        />
      </Drawer>
    </div>
  );
}
