import { DownloadOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { workReportResource } from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Segmented,
  Space,
  Statistic,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { download } from '../../../platform/api/download.ts';
import { type ApiQuery, type ApiResult, api } from '../../../platform/api/typed.ts';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { MONEY, numberText, QUANTITY } from '../../../platform/lib/number-text.ts';
import { openResourcePage } from '../../../platform/resource/nav.ts';
import { RefSelect } from '../../../platform/resource/ref-select.tsx';
import { ResourceList } from '../../../platform/resource/resource-list.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../../platform/resource/routes.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';

type Row = Record<string, any>;
/** `GET /api/v1/process-wage/sheet` (modules/finance/wages.ts on the server): per worker or per team. */
type Sheet = ApiResult<'/api/v1/process-wage/sheet'>;
interface Filters {
  month?: Dayjs;
  teamId?: number;
  keyword?: string;
}

const money = (v: unknown) => numberText(v, { ...MONEY, empty: '-' });
/** A wage line's exact amount (a line may be half a fen, 0.005); the sheet pays the month rounded once. */
const lineMoney = (v: unknown) => numberText(v, { min: 2, max: 10, empty: '-' });
const qty = (v: unknown) => numberText(v, { ...QUANTITY, empty: '-' });
const right = 'right' as const;

/** Whether `month` (YYYY-MM) is the latest closed one (`lastClosed` is its first day). */
const isLatestClosed = (lastClosed: string | null | undefined, month: string) =>
  lastClosed != null && lastClosed.slice(0, 7) === month;

/**
 * 工序工资: the monthly piece-rate wage sheet (per worker or team, drill-down to each report's
 * wage line, 结账, Excel in the payroll layout) and the rates (计件单价) with their start dates.
 */
export function ProcessWagePage(props: ResourcePageProps) {
  return (
    <div className="rk-list-page" data-testid="page-process-wage">
      <Tabs
        destroyOnHidden={false}
        items={[
          { key: 'sheet', label: '月度工资表', children: <WageSheet /> },
          { key: 'rates', label: '计件单价', children: <ResourceList def={props.def} embedded /> },
        ]}
      />
    </div>
  );
}

function WageSheet() {
  const can = usePermission();
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [groupBy, setGroupBy] = useState<'worker' | 'team'>('worker');
  const [drill, setDrill] = useState<Row | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const month = (filters.month ?? dayjs()).format('YYYY-MM');
  const query: ApiQuery<'/api/v1/process-wage/sheet'> = {
    month,
    groupBy,
    teamId: filters.teamId,
    keyword: filters.keyword || undefined,
  };
  const sheet = useQuery({
    queryKey: ['/api/v1/process-wage/sheet', query],
    queryFn: (): Promise<Sheet> => api.get('/api/v1/process-wage/sheet', { query }),
    placeholderData: keepPreviousData,
  });
  const periods = useQuery({
    queryKey: ['/api/v1/process-wage/periods'],
    queryFn: () => api.get('/api/v1/process-wage/periods'),
  });
  const [reopening, setReopening] = useState(false);
  const [reason, setReason] = useState('');
  const lineQuery: ApiQuery<'/api/v1/process-wage/sheet/lines'> = {
    month,
    operatorId: groupBy === 'worker' ? drill?.operatorId : undefined,
    teamId: groupBy === 'team' ? (drill?.teamId ?? undefined) : undefined,
    ...page,
  };
  const lines = useQuery({
    queryKey: ['/api/v1/process-wage/sheet/lines', lineQuery],
    queryFn: () => api.get('/api/v1/process-wage/sheet/lines', { query: lineQuery }),
    enabled: drill != null,
  });
  const close = useMutation({
    mutationFn: () => api.post('/api/v1/process-wage/close', { body: { month } }),
    onSuccess: () => {
      toast.success(`${month} 已结账`);
      client.invalidateQueries({ queryKey: ['/api/v1/process-wage/sheet'] });
      client.invalidateQueries({ queryKey: ['/api/v1/process-wage/periods'] });
    },
  });
  const reopen = useMutation({
    mutationFn: () => api.post('/api/v1/process-wage/reopen', { body: { month, reason: reason.trim() } }),
    onSuccess: () => {
      toast.success(`${month} 已反结账`);
      setReopening(false);
      setReason('');
      client.invalidateQueries({ queryKey: ['/api/v1/process-wage/sheet'] });
      client.invalidateQueries({ queryKey: ['/api/v1/process-wage/periods'] });
    },
  });
  // Only the latest closed month can be reopened (the server refuses others with 409).
  const reopenable = isLatestClosed(periods.data?.lastClosed, month);
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { fileName } = await api.get('/api/v1/process-wage/sheet/export', { query });
      await download('/common/download', { fileName, delete: 'true' });
    },
  });
  const data = sheet.data;
  const t: Partial<Sheet['totals']> & Row = data?.totals ?? {};
  const reportDetail = resourceRoutes(workReportResource).detail ?? resourceRoutes(workReportResource).list;
  const lead: ColumnsType<Row> =
    groupBy === 'worker'
      ? [
          { title: '工号', dataIndex: 'userName', width: 110, fixed: 'left' },
          { title: '姓名', dataIndex: 'operatorName', width: 100, fixed: 'left' },
          { title: '班组', dataIndex: 'teamName', width: 120, render: (v) => v ?? '未分班组' },
        ]
      : [
          { title: '班组', dataIndex: 'teamName', width: 160, fixed: 'left' },
          { title: '人数', dataIndex: 'workerCount', width: 80, align: right },
        ];
  const columns: ColumnsType<Row> = [
    ...lead,
    { title: '报工条数', dataIndex: 'lineCount', width: 90, align: right },
    { title: '合格数', dataIndex: 'goodQuantity', width: 100, align: right, render: qty },
    { title: '计件金额', dataIndex: 'goodAmount', width: 120, align: right, render: money },
    { title: '工废数', dataIndex: 'workScrapQuantity', width: 90, align: right, render: qty },
    { title: '工废扣款', dataIndex: 'deductionAmount', width: 110, align: right, render: money },
    { title: '返工数', dataIndex: 'reworkQuantity', width: 90, align: right, render: qty },
    { title: '返工', dataIndex: 'reworkAmount', width: 100, align: right, render: money },
    { title: '调整', dataIndex: 'adjustmentAmount', width: 100, align: right, render: money },
    {
      title: '应发合计',
      dataIndex: 'totalAmount',
      width: 120,
      align: right,
      render: (v) => <strong>{money(v)}</strong>,
    },
    {
      title: '操作',
      key: 'op',
      width: 80,
      fixed: 'right',
      render: (_, r) => (
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
  ];
  const sumKeys = [
    'lineCount',
    'goodQuantity',
    'goodAmount',
    'workScrapQuantity',
    'deductionAmount',
    'reworkQuantity',
    'reworkAmount',
    'adjustmentAmount',
    'totalAmount',
  ];
  const lineColumns: ColumnsType<Row> = [
    {
      title: '报工单号',
      dataIndex: 'docNo',
      width: 150,
      render: (v, r) =>
        reportDetail ? (
          <Typography.Link onClick={() => openResourcePage(reportDetail, r.workReportId)}>
            {v}
          </Typography.Link>
        ) : (
          v
        ),
    },
    { title: '报工日期', dataIndex: 'workDate', width: 105 },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 80,
      render: (v, r) =>
        v === 'adjustment' ? (
          <Tag color="orange" title={r.remark ?? ''}>
            调整
          </Tag>
        ) : (
          <Tag>报工</Tag>
        ),
    },
    ...(groupBy === 'team' ? [{ title: '姓名', dataIndex: 'operatorName', width: 90 }] : []),
    { title: '工序', dataIndex: 'processName', width: 100 },
    { title: '产品', dataIndex: 'productName', width: 140 },
    { title: '生产订单', dataIndex: 'orderNo', width: 150 },
    { title: '合格数', dataIndex: 'quantity', width: 90, align: right, render: qty },
    { title: '计件单价', dataIndex: 'pieceRate', width: 100, align: right },
    { title: '计件金额', dataIndex: 'goodAmount', width: 100, align: right, render: lineMoney },
    { title: '工废数', dataIndex: 'workScrapQuantity', width: 80, align: right, render: qty },
    { title: '扣款单价', dataIndex: 'deductionRate', width: 100, align: right },
    { title: '工废扣款', dataIndex: 'deductionAmount', width: 100, align: right, render: lineMoney },
    { title: '返工数', dataIndex: 'reworkQuantity', width: 80, align: right, render: qty },
    { title: '返工单价', dataIndex: 'reworkRate', width: 100, align: right },
    { title: '返工金额', dataIndex: 'reworkAmount', width: 100, align: right, render: lineMoney },
    {
      title: '金额',
      dataIndex: 'amount',
      width: 100,
      align: right,
      render: (v) => <strong>{lineMoney(v)}</strong>,
    },
  ];
  return (
    <>
      <PageCard>
        <SearchForm<Filters>
          name="wage-sheet"
          form={form}
          onSearch={setFilters}
          onReset={() => setFilters({})}
        >
          <Form.Item name="month" label="月份">
            <DatePicker picker="month" placeholder={dayjs().format('YYYY-MM')} allowClear />
          </Form.Item>
          <Form.Item name="teamId" label="班组">
            <RefSelect
              field={{ name: 'teamId', label: '班组', kind: 'ref', ref: 'production-team' }}
              placeholder="全部"
              style={{ width: 180 }}
            />
          </Form.Item>
          <Form.Item name="keyword" label="工号/姓名">
            <Input allowClear maxLength={40} placeholder="工号或姓名" />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <Space size={40} wrap data-testid="wage-totals">
          <Statistic title="月份" value={month} />
          <Statistic title="人数" value={t.workerCount ?? 0} />
          <Statistic title="计件金额(元)" value={money(t.goodAmount)} />
          <Statistic title="工废扣款(元)" value={money(t.deductionAmount)} />
          <Statistic title="返工(元)" value={money(t.reworkAmount)} />
          <Statistic title="调整(元)" value={money(t.adjustmentAmount)} />
          <Statistic title="应发合计(元)" value={money(t.totalAmount)} />
        </Space>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <Space wrap>
              <Segmented<'worker' | 'team'>
                value={groupBy}
                onChange={setGroupBy}
                options={[
                  { value: 'worker', label: '按员工' },
                  { value: 'team', label: '按班组' },
                ]}
              />
              {data &&
                (data.closed ? (
                  <Tag color="green" icon={<LockOutlined />} data-testid="wage-closed">
                    已结账 {data.closedByName ?? ''}{' '}
                    {data.closedAt ? dayjs(data.closedAt).format('YYYY-MM-DD HH:mm') : ''}
                  </Tag>
                ) : (
                  <Tag color="blue">未结账</Tag>
                ))}
              {(periods.data?.rows.length ?? 0) > 0 && (
                <Typography.Text type="secondary">
                  已结账月份：
                  {periods.data?.rows
                    .slice(0, 6)
                    .map((p) => p.month)
                    .join('、')}
                </Typography.Text>
              )}
            </Space>
          }
          right={
            <Space>
              {can('finance:wage:edit') && data && !data.closed && (
                <Popconfirm
                  title={`结账 ${month}`}
                  description="结账后本月工资表锁定；之后对本月报工的反审核或再审核计入下一个未结账月份的调整。确定结账？"
                  okText="结账"
                  cancelText="取消"
                  onConfirm={() => close.mutate()}
                >
                  <Button type="primary" icon={<LockOutlined />} loading={close.isPending}>
                    结账
                  </Button>
                </Popconfirm>
              )}
              {can('finance:wage:reopen') && data?.closed && reopenable && (
                <Button icon={<UnlockOutlined />} onClick={() => setReopening(true)}>
                  反结账
                </Button>
              )}
              {can('finance:wage:export') && (
                <Button
                  icon={<DownloadOutlined />}
                  loading={exportExcel.isPending}
                  onClick={() => exportExcel.mutate()}
                >
                  导出
                </Button>
              )}
            </Space>
          }
        />
        <Table<Row>
          rowKey={(r) => String(r.key ?? 'none')}
          size="middle"
          data-testid="wage-sheet"
          loading={sheet.isFetching}
          dataSource={data?.rows ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={{ pageSize: 50, showSizeChanger: true, showTotal: (n) => `共 ${n} 条` }}
          summary={() =>
            data?.rows.length ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={lead.length}>
                  合计
                </Table.Summary.Cell>
                {sumKeys.map((k, i) => (
                  <Table.Summary.Cell key={k} index={lead.length + i} align="right">
                    {k === 'lineCount' ? (t[k] ?? 0) : k.endsWith('Quantity') ? qty(t[k]) : money(t[k])}
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={lead.length + sumKeys.length} />
              </Table.Summary.Row>
            ) : null
          }
        />
      </PageCard>
      <Modal
        open={reopening}
        title={`反结账 ${month}`}
        okText="反结账"
        cancelText="取消"
        okButtonProps={{ danger: true, disabled: !reason.trim(), loading: reopen.isPending }}
        onOk={() => reopen.mutate()}
        onCancel={() => setReopening(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          反结账后本月工资表解锁，按报工重新汇总；结账期间计入下月的调整保留在下月。只能反结账最近一个已结账月份。
        </Typography.Paragraph>
        <Input.TextArea
          aria-label="反结账原因"
          placeholder="请填写反结账原因"
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </Modal>
      <Drawer
        open={drill != null}
        onClose={() => setDrill(null)}
        width={1100}
        destroyOnHidden
        title={`${month} 计件明细：${drill?.operatorName ?? drill?.teamName ?? ''}`}
      >
        <Table<Row>
          rowKey="id"
          size="small"
          data-testid="wage-lines"
          loading={lines.isFetching}
          dataSource={lines.data?.rows ?? []}
          columns={lineColumns}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: lines.data?.total ?? 0,
            showTotal: (n) => `共 ${n} 条，金额 ${lineMoney(lines.data?.amount)} 元`,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
        />
      </Drawer>
    </>
  );
}
