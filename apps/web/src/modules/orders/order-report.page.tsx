import { DownloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Segmented, Space, Statistic, Table, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { http } from '../../platform/api/client.ts';
import { download } from '../../platform/api/download.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { moneyText, quantityText } from '../../platform/lib/number-text.ts';
import type { PageProps } from '../../platform/page.ts';
import { formatNumber } from '../../platform/resource/format.tsx';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { EChart, type EChartOption } from '../../platform/ui/echart.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../platform/ui/search-form.tsx';

/** What differs between 销售统计报表 and 采购明细报表. */
export interface ReportSpec {
  api: string;
  permission: string;
  party: { label: string; ref: string };
  done: string;
  open: string;
  onTime: string;
  /** How the on-time rate is counted (modules/orders/on-time.ts on the server). */
  onTimeHelp: string;
  /** 平均单价 (订购金额 ÷ 订购数量) in the totals and the table, and its monthly trend in the chart. */
  priceTrend?: boolean;
}

export const SALES_REPORT: ReportSpec = {
  api: '/api/v1/sale-order/report',
  permission: 'sale:report',
  party: { label: '客户', ref: 'customer' },
  done: '已发货',
  open: '未发货',
  onTime: '准时交货率',
  onTimeHelp:
    '按订单明细计：承诺交货日期（明细的交货日期，未填取订单的）已过的明细中，到该日期已发齐的行数 ÷ 到期行数。迟发、部分发货或未发都算逾期；按月份筛选的是承诺交货日期所在的月份',
};

export const PURCHASE_REPORT: ReportSpec = {
  api: '/api/v1/purchase-order/report',
  permission: 'purchase:report',
  party: { label: '供应商', ref: 'supplier' },
  done: '已入库',
  open: '未到货',
  onTime: '准时到货率',
  onTimeHelp:
    '按订单明细计：承诺到货日期（明细的交货日期，未填取订单的）已过的明细中，到该日期已到齐（净入库）的行数 ÷ 到期行数；按月份筛选的是承诺日期所在的月份',
  priceTrend: true,
};

type Row = Record<string, any>;
interface Report {
  rows: Row[];
  totals: Row;
  months: Row[];
  top: Row[];
}
type GroupBy = 'month' | 'party' | 'material';
interface Filters {
  range?: [Dayjs, Dayjs];
  partyId?: number;
  materialId?: number;
}

const money = (v: unknown) => moneyText(v ?? 0);
const quantity = (v: unknown) => quantityText(v ?? 0);
const rate = (v: number | null) => (v == null ? '-' : `${v}%`);
type UnitSum = { unitName: string; quantity: string };
/**
 * A quantity of a row or the totals in base units: with its unit (120 套), or per unit over several
 * (套 120 · 件 40) — the server never adds 套 to 件 (`units`).
 */
function unitQuantity(r: Row | undefined, name: string): string {
  const units = r?.units?.[name] as UnitSum[] | undefined;
  if (!units?.length) return quantity(r?.[name]);
  if (units.length === 1) return `${quantity(units[0].quantity)} ${units[0].unitName}`.trim();
  return units.map((u) => `${u.unitName} ${quantity(u.quantity)}`).join(' · ');
}
/** The same in a table cell: a line per unit. */
function QuantityCell({ r, name }: { r: Row; name: string }) {
  const units = r.units?.[name] as UnitSum[] | undefined;
  if (!units || units.length < 2) return <>{unitQuantity(r, name)}</>;
  return (
    <>
      {units.map((u) => (
        <span key={u.unitName} style={{ display: 'block', whiteSpace: 'nowrap' }}>
          {u.unitName} {quantity(u.quantity)}
        </span>
      ))}
    </>
  );
}
/** The server's exact 6-place average, shown as prices are (at least 元.角分). */
const price = (v: unknown) =>
  v == null ? '-' : formatNumber({ name: 'averagePrice', label: '平均单价', kind: 'price' }, v);
const PRICE_HELP = '订购金额 ÷ 订购数量（基本单位）；按物料筛选即该物料的价格走势';

/**
 * A statistics report of orders (销售统计报表, 采购明细报表): grouped by month, party or material
 * over a range of months, from the server's monthly rollup; a bar chart by month with the
 * on-time rate as a line (and, for purchases, the average price's trend), the top ten parties,
 * and the Excel export.
 */
export function OrderReportPage({ spec }: PageProps & { spec: ReportSpec }) {
  const can = usePermission();
  const [form] = Form.useForm<Filters>();
  // A link may name the months (the cockpit's 本月准时交货率: ?from=YYYY-MM&to=YYYY-MM).
  const [search] = useSearchParams();
  const [initial] = useState<Filters>(() => {
    const from = search.get('from') ?? search.get('to');
    const to = search.get('to') ?? from;
    return from && to && /^\d{4}-\d{2}$/.test(from) && /^\d{4}-\d{2}$/.test(to)
      ? { range: [dayjs(`${from}-01`), dayjs(`${to}-01`)] }
      : {};
  });
  const [filters, setFilters] = useState<Filters>(initial);
  const [groupBy, setGroupBy] = useState<GroupBy>('month');
  const query = {
    groupBy,
    from: filters.range?.[0].format('YYYY-MM'),
    to: filters.range?.[1].format('YYYY-MM'),
    partyId: filters.partyId,
    materialId: filters.materialId,
  };
  const report = useQuery({
    queryKey: [spec.api, query],
    queryFn: () => http.get<Report>(spec.api, query),
    placeholderData: keepPreviousData,
  });
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { fileName } = await http.get<{ fileName: string }>(`${spec.api}/export`, query);
      await download('/common/download', { fileName, delete: 'true' });
    },
  });
  const data = report.data;
  const monthly = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 70, right: spec.priceTrend ? 110 : 50, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: data?.months.map((m) => m.month) ?? [] },
      yAxis: [
        { type: 'value', name: '金额(元)' },
        { type: 'value', name: '%', max: 100, min: 0 },
        // The price on an axis of its own, outside the rate's: it moves in cents, not hundreds.
        ...(spec.priceTrend
          ? [
              {
                type: 'value' as const,
                name: '单价(元)',
                position: 'right' as const,
                offset: 56,
                scale: true,
              },
            ]
          : []),
      ],
      series: [
        { name: '订购金额', type: 'bar', data: data?.months.map((m) => Number(m.orderedAmount)) ?? [] },
        { name: spec.onTime, type: 'line', yAxisIndex: 1, data: data?.months.map((m) => m.onTimeRate) ?? [] },
        ...(spec.priceTrend
          ? [
              {
                name: '平均单价',
                type: 'line' as const,
                yAxisIndex: 2,
                data: data?.months.map((m) => (m.averagePrice == null ? null : Number(m.averagePrice))) ?? [],
              },
            ]
          : []),
      ],
    }),
    [data, spec.onTime, spec.priceTrend],
  );
  const top = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 160, right: 30, top: 10, bottom: 20 },
      xAxis: { type: 'value' },
      yAxis: { type: 'category', inverse: true, data: data?.top.map((t) => t.label) ?? [] },
      series: [{ name: '订购金额', type: 'bar', data: data?.top.map((t) => Number(t.orderedAmount)) ?? [] }],
    }),
    [data],
  );
  const by = { month: '月份', party: spec.party.label, material: '物料' }[groupBy];
  const t = data?.totals ?? {};
  const right = 'right' as const;
  return (
    <>
      <PageCard>
        <SearchForm<Filters>
          name="report"
          form={form}
          initialValues={initial}
          onSearch={setFilters}
          onReset={() => setFilters({})}
        >
          <Form.Item name="range" label="月份">
            <DatePicker.RangePicker picker="month" />
          </Form.Item>
          <Form.Item name="partyId" label={spec.party.label}>
            <RefSelect
              field={{ name: 'partyId', label: spec.party.label, kind: 'ref', ref: spec.party.ref }}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="materialId" label="物料">
            <RefSelect
              field={{ name: 'materialId', label: '物料', kind: 'ref', ref: 'material-info' }}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <Space size={48} wrap data-testid="report-totals">
          <Statistic title="订购金额(元)" value={money(t.orderedAmount)} />
          <Statistic title="订单行数" value={t.lineCount ?? 0} />
          {spec.priceTrend && <Statistic title="平均单价(元)" value={price(t.averagePrice)} />}
          <Statistic title={`${spec.done}数量`} value={unitQuantity(t, 'doneQuantity')} />
          <Statistic title={`${spec.open}金额(元)`} value={money(t.openAmount)} />
          <Statistic
            title={<Tooltip title={spec.onTimeHelp}>{spec.onTime}</Tooltip>}
            value={rate(t.onTimeRate ?? null)}
            suffix={t.dueLines ? `（${t.onTimeLines}/${t.dueLines} 行）` : undefined}
          />
        </Space>
      </PageCard>
      <div className="rm-report-charts">
        <PageCard title={spec.priceTrend ? '按月订购金额、准时率与平均单价' : '按月订购金额与准时率'}>
          <EChart option={monthly} testId="chart-monthly" />
        </PageCard>
        <PageCard title={`${spec.party.label}订购金额前十`}>
          <EChart option={top} testId="chart-top" />
        </PageCard>
      </div>
      <PageCard>
        <TableToolbar
          left={
            <Segmented<GroupBy>
              value={groupBy}
              onChange={setGroupBy}
              options={[
                { value: 'month', label: '按月份' },
                { value: 'party', label: `按${spec.party.label}` },
                { value: 'material', label: '按物料' },
              ]}
            />
          }
          right={
            can(`${spec.permission}:export`) && (
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
            { title: by, dataIndex: 'label', width: 180, fixed: 'left' },
            ...(groupBy === 'month' ? [] : [{ title: '编码', dataIndex: 'code', width: 120 }]),
            { title: '订单行数', dataIndex: 'lineCount', width: 90, align: right },
            {
              title: '订购数量',
              dataIndex: 'orderedQuantity',
              width: 120,
              align: right,
              render: (_: unknown, r: Row) => <QuantityCell r={r} name="orderedQuantity" />,
            },
            { title: '订购金额(元)', dataIndex: 'orderedAmount', width: 130, align: right, render: money },
            ...(spec.priceTrend
              ? [
                  {
                    title: <span title={PRICE_HELP}>平均单价(元)</span>,
                    dataIndex: 'averagePrice',
                    width: 120,
                    align: right,
                    render: price,
                  },
                ]
              : []),
            {
              title: `${spec.done}数量`,
              dataIndex: 'doneQuantity',
              width: 120,
              align: right,
              render: (_: unknown, r: Row) => <QuantityCell r={r} name="doneQuantity" />,
            },
            {
              title: `${spec.open}数量`,
              dataIndex: 'openQuantity',
              width: 120,
              align: right,
              render: (_: unknown, r: Row) => <QuantityCell r={r} name="openQuantity" />,
            },
            {
              title: `${spec.open}金额(元)`,
              dataIndex: 'openAmount',
              width: 130,
              align: right,
              render: money,
            },
            {
              title: <Tooltip title={spec.onTimeHelp}>{spec.onTime}</Tooltip>,
              dataIndex: 'onTimeRate',
              width: 110,
              align: right,
              render: (v: number | null, r: Row) =>
                r.dueLines ? (
                  <span title={`准时 ${r.onTimeLines} 行 / 到期 ${r.dueLines} 行`}>{rate(v)}</span>
                ) : (
                  rate(v)
                ),
            },
          ]}
        />
      </PageCard>
    </>
  );
}
