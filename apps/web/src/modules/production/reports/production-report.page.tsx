import {
  FLOW_CARD_LIFECYCLE,
  type ProductionReportColumn,
  type ProductionReportDef,
  type ProductionReportFilter,
  productionReport,
  workReportResource,
} from '@ringmes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Drawer, Form, Segmented, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { numberText } from '../../../platform/lib/number-text.ts';
import type { PageProps } from '../../../platform/page.ts';
import { ExportButton } from '../../../platform/resource/export-button.tsx';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import { EChart } from '../../../platform/ui/echart.tsx';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';
import { FlowCardDrawer } from '../flow-card/index.ts';
import { chartOption } from './report-chart.ts';

type Row = Record<string, any>;
interface Answer {
  rows: Row[];
  totals: Row;
  total: number;
  series?: Row[];
}
interface Filters {
  period?: [Dayjs, Dayjs];
  workshopId?: number;
  productId?: number;
  operatorId?: number;
  processId?: number;
}
type Params = Record<string, string | number | undefined>;

const ORDER_DETAIL = '/production-department/production-manage/produce-order-detail';
const CARD_STATES = new Map(FLOW_CARD_LIFECYCLE.states.map((s) => [s.value, s]));

const FILTER_INPUTS: Record<
  Exclude<ProductionReportFilter, 'period'>,
  { name: keyof Filters; label: string; ref: string }
> = {
  workshop: { name: 'workshopId', label: '车间', ref: 'workshop' },
  product: { name: 'productId', label: '产品', ref: 'material-info' },
  worker: { name: 'operatorId', label: '操作工', ref: 'user' },
  process: { name: 'processId', label: '工序', ref: 'process-manage' },
};

const number = (v: unknown, digits = 4) => numberText(v, { max: digits, empty: '-' });

function formatCell(c: ProductionReportColumn, v: unknown) {
  switch (c.kind) {
    case 'quantity':
    case 'int':
      return number(v);
    case 'hours':
    case 'minutes':
      return number(v, 2);
    case 'rate':
      return v == null ? '-' : `${Number(v)}%`;
    case 'status': {
      const s = CARD_STATES.get(String(v));
      return s ? <Tag color={s.color}>{s.label}</Tag> : String(v ?? '');
    }
    default:
      return v == null || v === '' ? '-' : String(v);
  }
}

/** This month and the two before (whole months, so both period kinds open alike). */
const defaultPeriod = (): [Dayjs, Dayjs] => [
  dayjs().subtract(2, 'month').startOf('month'),
  dayjs().endOf('month'),
];

/**
 * The query of a report from the search form: the period as days (YYYY-MM-DD, the factory's
 * calendar days as the browser shows them) or, for the monthly analyses, as months (YYYY-MM).
 */
function toParams(def: ProductionReportDef, f: Filters): Params {
  const format = def.periodUnit === 'month' ? 'YYYY-MM' : 'YYYY-MM-DD';
  return {
    from: f.period?.[0].format(format),
    to: f.period?.[1].format(format),
    workshopId: f.workshopId,
    productId: f.productId,
    operatorId: f.operatorId,
    processId: f.processId,
  };
}

/** What a row drills into: the work-report list's filters (报工日期 the row's month or the period). */
function workReportFilters(def: ProductionReportDef, row: Row, params: Params): Params | undefined {
  const d = def.drill;
  if (!d?.workReports) return undefined;
  const out: Params = {};
  for (const [filter, key] of Object.entries(d.workReports)) if (row[key] != null) out[filter] = row[key];
  for (const [filter, target] of Object.entries(d.workReportsFromFilters ?? {})) {
    const name = FILTER_INPUTS[filter as Exclude<ProductionReportFilter, 'period'>]?.name;
    if (target && name && params[name] != null && out[target] == null) out[target] = params[name];
  }
  // The period's days (a month bound covers the month), narrowed to the row's month if it has one.
  let from = params.from
    ? dayjs(String(params.from).length === 7 ? `${params.from}-01` : String(params.from))
    : undefined;
  let to = params.to
    ? String(params.to).length === 7
      ? dayjs(`${params.to}-01`).endOf('month')
      : dayjs(String(params.to))
    : undefined;
  const month: string | undefined = row.month ?? undefined;
  if (month) {
    const start = dayjs(`${month}-01`);
    const end = start.endOf('month');
    from = from?.isAfter(start) ? from : start;
    to = to?.isBefore(end) ? to : end;
  }
  if (from) out.reportDateFrom = from.format('YYYY-MM-DD');
  if (to) out.reportDateTo = to.format('YYYY-MM-DD');
  out.status = 'posted';
  return out;
}

/**
 * A report's chart and table for `params` (the page's filters, or a drill-down's fixed ones):
 * totals in the table's summary row, links to flow cards and orders, and the row's drill-downs.
 */
function ReportView({
  def,
  params,
  chart = true,
}: {
  def: ProductionReportDef;
  params: Params;
  chart?: boolean;
}) {
  const can = usePermission();
  const [groupBy, setGroupBy] = useState(def.groupBy?.[0].value);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [card, setCard] = useState<number>();
  const [drill, setDrill] = useState<{
    title: string;
    reports?: Params;
    cards?: { def: ProductionReportDef; params: Params };
  }>();
  const api = `/api/v1/production-report/${def.name}`;
  const query: Params = { ...params, groupBy: params.groupBy ?? groupBy, ...(def.paged ? page : {}) };
  const report = useQuery({
    queryKey: [api, query],
    queryFn: () => http.get<Answer>(api, query),
    placeholderData: keepPreviousData,
  });
  const data = report.data;
  const option = useMemo(() => chartOption(def, data), [def, data]);
  const right = 'right' as const;
  const columns: ColumnsType<Row> = def.columns.map((c, i) => ({
    title: c.kind === 'rate' ? `${c.label}` : c.label,
    dataIndex: c.key,
    width: c.width ?? 110,
    fixed: i === 0 ? ('left' as const) : undefined,
    align: ['text', 'status'].includes(c.kind) ? undefined : right,
    render: (v: unknown, row: Row) =>
      c.link === 'flowCard' && row.flowCardId ? (
        <Typography.Link onClick={() => setCard(row.flowCardId)}>{String(v)}</Typography.Link>
      ) : c.link === 'productionOrder' && row.productionOrderId ? (
        <Typography.Link onClick={() => openResourcePage(ORDER_DETAIL, row.productionOrderId)}>
          {String(v)}
        </Typography.Link>
      ) : (
        formatCell(c, v)
      ),
  }));
  const target = def.drill?.cards ? productionReport(def.drill.cards.report) : undefined;
  if (def.drill?.workReports || target) {
    columns.push({
      title: '明细',
      key: '__drill',
      fixed: 'right',
      width: 130,
      render: (_: unknown, row: Row) => {
        const reports = workReportFilters(def, row, query);
        const label = row[def.columns[0].key] ?? row.label ?? '';
        return (
          <Space size={4}>
            {reports && (
              <Button
                size="small"
                type="link"
                onClick={() => setDrill({ title: `${label} 的报工单`, reports })}
              >
                报工单
              </Button>
            )}
            {target && def.drill?.cards && (
              <Button
                size="small"
                type="link"
                onClick={() =>
                  setDrill({
                    title: `${label} 的${target.name === def.name ? '订单明细' : '流转卡'}`,
                    // The cards (or lines) behind the row, whenever opened: a snapshot, like the row.
                    cards: {
                      def: target,
                      params: {
                        groupBy: def.drill?.cards?.groupBy,
                        ...Object.fromEntries(
                          Object.entries(def.drill?.cards?.params ?? {}).map(([p, k]) => [p, row[k]]),
                        ),
                      },
                    },
                  })
                }
              >
                {target.name === def.name ? '按订单' : '流转卡'}
              </Button>
            )}
          </Space>
        );
      },
    });
  }
  const totals = data?.totals ?? {};
  return (
    <>
      {chart && option && (
        <PageCard title={def.chart?.title}>
          <EChart option={option} testId="report-chart" />
        </PageCard>
      )}
      <PageCard>
        <TableToolbar
          left={
            def.groupBy &&
            !params.groupBy && (
              <Segmented
                value={groupBy}
                onChange={(v) => setGroupBy(String(v))}
                options={def.groupBy.map((g) => ({ value: g.value, label: g.label }))}
              />
            )
          }
          right={
            can(`${def.permission}:export`) && (
              <ExportButton url={`${api}/export`} params={() => ({ ...query })} />
            )
          }
        />
        <Table<Row>
          rowKey={def.rowKey}
          size="middle"
          data-testid="report-table"
          loading={report.isFetching}
          dataSource={data?.rows ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={
            def.paged
              ? {
                  current: page.pageNum,
                  pageSize: page.pageSize,
                  total: data?.total ?? 0,
                  showSizeChanger: true,
                  showTotal: (n) => `共 ${n} 条`,
                  onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
                }
              : { pageSize: 20, showSizeChanger: true, showTotal: (n) => `共 ${n} 条` }
          }
          summary={() => (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="report-totals">
                {def.columns.map((c, i) => (
                  <Table.Summary.Cell
                    key={c.key}
                    index={i}
                    align={['text', 'status'].includes(c.kind) ? undefined : right}
                  >
                    {i === 0 ? (
                      <b>合计（{data?.total ?? 0} 行）</b>
                    ) : c.total ? (
                      <b>{formatCell(c, totals[c.key])}</b>
                    ) : (
                      ''
                    )}
                  </Table.Summary.Cell>
                ))}
                {columns.length > def.columns.length && <Table.Summary.Cell index={def.columns.length} />}
              </Table.Summary.Row>
            </Table.Summary>
          )}
        />
      </PageCard>
      <FlowCardDrawer id={card} onClose={() => setCard(undefined)} />
      <Drawer
        title={drill?.title}
        open={Boolean(drill)}
        onClose={() => setDrill(undefined)}
        width="min(1200px, 96vw)"
        destroyOnHidden
      >
        {drill?.reports && (
          <div data-testid="drill-work-reports">
            <ResourceList def={workReportResource} fixedFilters={drill.reports} embedded />
          </div>
        )}
        {drill?.cards && <ReportView def={drill.cards.def} params={drill.cards.params} chart={false} />}
      </Drawer>
    </>
  );
}

/** A production report page (生产部 › 统计报表), drawn from its declaration. */
export function ProductionReportPage({ def }: PageProps & { def: ProductionReportDef }) {
  const [form] = Form.useForm<Filters>();
  const initial = useMemo<Filters>(() => ({ period: defaultPeriod() }), []);
  const [filters, setFilters] = useState<Filters>(initial);
  return (
    <div data-testid={`report-${def.name}`}>
      <PageCard>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
          {def.description}
        </Typography.Paragraph>
        <SearchForm<Filters>
          name={`report-${def.name}`}
          form={form}
          initialValues={initial}
          onSearch={setFilters}
          onReset={() => setFilters(initial)}
        >
          {def.filters.includes('period') && (
            <Form.Item name="period" label="期间">
              <DatePicker.RangePicker
                picker={def.periodUnit === 'month' ? 'month' : 'date'}
                allowClear={false}
                data-testid="report-period"
              />
            </Form.Item>
          )}
          {def.filters
            .filter((f): f is Exclude<ProductionReportFilter, 'period'> => f !== 'period')
            .map((f) => {
              const input = FILTER_INPUTS[f];
              return (
                <Form.Item key={f} name={input.name} label={input.label}>
                  <RefSelect
                    field={{ name: input.name, label: input.label, kind: 'ref', ref: input.ref }}
                    placeholder="全部"
                    style={{ width: 200 }}
                  />
                </Form.Item>
              );
            })}
        </SearchForm>
      </PageCard>
      <ReportView def={def} params={toParams(def, filters)} />
    </div>
  );
}
