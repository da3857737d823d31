import '../warehouse/warehouse.css';
import { DownloadOutlined, MoneyCollectOutlined, PrinterOutlined, SearchOutlined } from '@ant-design/icons';
import {
  AGING_BUCKETS,
  type LedgerSide,
  PAYABLE_SIDE,
  payableResource,
  paymentResource,
  RECEIPT_METHODS,
  RECEIVABLE_SIDE,
  type ResourceDef,
  receiptResource,
  receivableResource,
} from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Statistic,
  Switch,
  Table,
  Tabs,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { download } from '../../platform/api/download.ts';
import { type ApiBody, type ApiQuery, type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceList } from '../../platform/resource/resource-list.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { EChart, type EChartOption } from '../../platform/ui/echart.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { type PrintDoc, PrintView } from '../../platform/ui/print-view.tsx';
import { TableToolbar } from '../../platform/ui/search-form.tsx';

/**
 * 应收管理 / 应付管理: one page per side with four tabs — the items (应收单 / 应付单, each row with
 * 收款 / 付款), the receipts or payments, the aging by party with a chart, and the statement of a
 * party for a period (printed and exported to Excel).
 */

/** Money as a whole number of fen (BigInt), never a binary float; 0 for what is no number. */
function fen(v: unknown): bigint {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(String(v ?? '').trim());
  if (!m || (m[2] === '' && !m[3])) return 0n;
  const frac = (m[3] ?? '').padEnd(3, '0');
  // Half away from zero at the fen, as the server rounds.
  const n = BigInt(`${m[2] || '0'}${frac.slice(0, 2)}`) + (Number(frac[2]) >= 5 ? 1n : 0n);
  return m[1] === '-' ? -n : n;
}
const yuanOf = (f: bigint) => {
  const abs = f < 0n ? -f : f;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${f < 0n ? '-' : ''}${whole}.${(abs % 100n).toString().padStart(2, '0')}`;
};
const money = (v: unknown) => (v == null || v === '' ? '' : yuanOf(fen(v)));
const right = 'right' as const;

interface Ui {
  side: LedgerSide;
  item: ResourceDef;
  settle: ResourceDef;
  party: { name: string; label: string; kind: 'ref'; ref: string };
  verb: string;
}

/** The ledger's own declarations (not the registry of every resource, which this page would load). */
const LEDGER_RESOURCES = [receivableResource, receiptResource, payableResource, paymentResource];
const ledgerResource = (name: string) => LEDGER_RESOURCES.find((d) => d.name === name) as ResourceDef;

function uiOf(side: LedgerSide): Ui {
  return {
    side,
    item: ledgerResource(side.item.name),
    settle: ledgerResource(side.settle.name),
    party: { name: side.party.field, label: side.party.label, kind: 'ref', ref: side.party.ref },
    verb: side.settle.verb,
  };
}

export function ReceivableListPage(props: ResourcePageProps) {
  return <LedgerPage {...props} ui={uiOf(RECEIVABLE_SIDE)} />;
}

export function PayableListPage(props: ResourcePageProps) {
  return <LedgerPage {...props} ui={uiOf(PAYABLE_SIDE)} />;
}

function LedgerPage({ ui }: ResourcePageProps & { ui: Ui }) {
  const can = usePermission();
  const [settling, setSettling] = useState<ResourceRow>();
  const [tab, setTab] = useState('items');
  const settlePerm = ui.side.settle.permission;
  const mayList = can(`${settlePerm}:list`);
  return (
    <div className="rk-list-page" data-testid={`page-${ui.item.name}`}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'items',
            label: ui.item.label,
            children: (
              <ResourceList
                def={ui.item}
                // At 1440 px the amounts and the status stay on screen: 来源单号, 订单号 and 已收/已付
                // (金额 − 未收) wait in 列设置 and on the detail page; 操作 is as wide as its buttons
                // (查看 收款 反审核, or 查看 编辑 审核 删除 on a draft).
                hiddenColumns={['sourceDocNo', 'orderNo', 'settledAmount']}
                actionsWidth={190}
                rowActions={(row) =>
                  (row.status === 'open' || row.status === 'partly') &&
                  can(`${settlePerm}:add`) &&
                  can(`${settlePerm}:approve`) ? (
                    <Button
                      type="link"
                      size="small"
                      icon={<MoneyCollectOutlined />}
                      onClick={() => setSettling(row)}
                    >
                      {isCredit(row) ? ui.side.settle.refund.verb : ui.verb}
                    </Button>
                  ) : null
                }
              />
            ),
          },
          ...(mayList
            ? [
                {
                  key: 'settlements',
                  label: ui.settle.label,
                  children: <ResourceList def={ui.settle} embedded />,
                },
              ]
            : []),
          { key: 'aging', label: '账龄分析', children: <AgingTab ui={ui} /> },
          { key: 'statement', label: '对账单', children: <StatementTab ui={ui} /> },
        ]}
      />
      {settling && <SettleModal ui={ui} row={settling} onClose={() => setSettling(undefined)} />}
    </div>
  );
}

/** A negative item (退货, 多收 / 多付): settled by a refund, money going back. */
const isCredit = (row: ResourceRow) => fen(row.amount) < 0n;

/**
 * 收款 / 付款 for one party: its open items, the clicked one filled in with what is open. From a
 * negative item it is the side's refund (退款 / 收退款): only negative items, sent as `refund`.
 */
function SettleModal({ ui: base, row, onClose }: { ui: Ui; row: ResourceRow; onClose: () => void }) {
  const refund = isCredit(row);
  const ui = refund ? { ...base, verb: base.side.settle.refund.verb } : base;
  const client = useQueryClient();
  const partyId = row[ui.party.name] as number;
  const [amounts, setAmounts] = useState<Record<number, string | null>>({ [row.id]: row.openAmount });
  const [bizDate, setBizDate] = useState<Dayjs>(dayjs());
  const [method, setMethod] = useState('bank');
  const [remark, setRemark] = useState('');
  const [error, setError] = useState<string>();
  const open = useQuery({
    queryKey: [ui.item.name, 'open', partyId, refund],
    queryFn: () =>
      http
        .get<{ list: ResourceRow[] }>(`/api/v1/${ui.item.name}/page`, {
          [ui.party.name]: partyId,
          pageSize: 500,
          sortField: 'dueDate',
          sortOrder: 'asc',
        })
        .then((p) =>
          p.list.filter((r) => (r.status === 'open' || r.status === 'partly') && (!refund || isCredit(r))),
        ),
  });
  const total = Object.values(amounts).reduce<bigint>((s, v) => s + fen(v), 0n);
  const submit = useMutation({
    mutationFn: () =>
      api.post(`/api/v1/${ui.settle.name as Settle}/quick`, {
        body: {
          [ui.party.name]: partyId,
          kind: refund ? 'refund' : 'normal',
          bizDate: bizDate.format('YYYY-MM-DD'),
          method,
          remark: remark || undefined,
          lines: Object.entries(amounts)
            .filter(([, v]) => fen(v) !== 0n)
            .map(([id, v]) => ({ [`${ui.item.name}Id`]: Number(id), amount: String(v) })),
        } as ApiBody<`/api/v1/${Settle}/quick`>,
      }),
    onSuccess: (r) => {
      // 收付款确认人不得为制单人: with the rule on, the document waits for another user to confirm it.
      toast.success(
        `${refund ? base.side.settle.refund.label : ui.settle.label} ${r.docNo} ${
          r.status === 'confirmed' ? '已确认' : '已保存，待他人确认'
        }`,
      );
      invalidateResource(client, ui.item.name);
      invalidateResource(client, ui.settle.name);
      client.invalidateQueries({ queryKey: [ui.item.name] });
      onClose();
    },
    onError: (e: Error) => setError(e.message),
  });
  return (
    <Modal
      open
      width={860}
      title={`${ui.verb}：${row[`${ui.party.ref}Name`] ?? row[ui.party.name.replace(/Id$/, 'Name')] ?? ''}`}
      okText={`确认${ui.verb}`}
      okButtonProps={{ disabled: total === 0n, loading: submit.isPending, 'data-testid': 'settle-ok' } as any}
      onOk={() => submit.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <span>{ui.verb}日期</span>
        <DatePicker value={bizDate} onChange={(d) => d && setBizDate(d)} allowClear={false} />
        <span>{ui.verb}方式</span>
        <Select value={method} onChange={setMethod} options={RECEIPT_METHODS} style={{ width: 120 }} />
        <Input
          placeholder="备注"
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          maxLength={500}
          style={{ width: 220 }}
        />
      </Space>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Table<ResourceRow>
        rowKey="id"
        size="small"
        loading={open.isFetching}
        dataSource={open.data ?? []}
        pagination={false}
        scroll={{ y: 360 }}
        columns={[
          { title: '单号', dataIndex: 'docNo', width: 160 },
          { title: '业务日期', dataIndex: 'bizDate', width: 110 },
          { title: '到期日', dataIndex: 'dueDate', width: 110 },
          { title: '金额(元)', dataIndex: 'amount', width: 110, align: right, render: money },
          { title: `未${ui.verb}(元)`, dataIndex: 'openAmount', width: 110, align: right, render: money },
          {
            title: `本次${ui.verb}(元)`,
            width: 150,
            render: (_: unknown, r: ResourceRow) => (
              <InputNumber<string>
                stringMode
                precision={2}
                value={amounts[r.id] ?? null}
                onChange={(v) => setAmounts((a) => ({ ...a, [r.id]: v }))}
                style={{ width: 130 }}
                aria-label={`本次${ui.verb} ${r.docNo}`}
              />
            ),
          },
        ]}
      />
      <div style={{ textAlign: 'right', marginTop: 8 }} data-testid="settle-total">
        本次{ui.verb}合计：<b>{yuanOf(total)}</b> 元
      </div>
    </Modal>
  );
}

/** The item of a ledger (应收, 应付) and its settlement (收款, 付款), as the routes name them. */
type Item = 'receivable' | 'payable';
type Settle = 'receipt' | 'payment';
/** `GET /api/v1/{receivable|payable}/aging` (modules/finance/receivable.ts on the server). */
type Aging = ApiResult<`/api/v1/${Item}/aging`>;

function AgingTab({ ui }: { ui: Ui }) {
  const can = usePermission();
  const [asOf, setAsOf] = useState<Dayjs>(dayjs());
  const [partyId, setPartyId] = useState<number>();
  const [overdueOnly, setOverdueOnly] = useState(false);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const query = {
    asOf: asOf.format('YYYY-MM-DD'),
    [ui.party.name]: partyId,
    overdueOnly: overdueOnly ? '1' : undefined,
    ...page,
  };
  const aging = useQuery({
    queryKey: [ui.item.name, 'aging', query],
    queryFn: (): Promise<Aging> =>
      api.get(`/api/v1/${ui.item.name as Item}/aging`, {
        query: query as ApiQuery<`/api/v1/${Item}/aging`>,
      }),
    placeholderData: keepPreviousData,
  });
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { fileName } = await api.get(`/api/v1/${ui.item.name as Item}/aging/export`, {
        query: query as ApiQuery<`/api/v1/${Item}/aging/export`>,
      });
      await download('/common/download', { fileName, delete: 'true' });
    },
  });
  const totals: Partial<Aging['totals']> = aging.data?.totals ?? {};
  const chart = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 80, right: 20, top: 20, bottom: 30 },
      xAxis: { type: 'category', data: AGING_BUCKETS.map((b) => b.label) },
      yAxis: { type: 'value', name: '金额(元)' },
      series: [
        {
          name: `未${ui.verb}金额`,
          type: 'bar',
          data: AGING_BUCKETS.map((b) => Number(totals[b.key] ?? 0)),
          itemStyle: { color: '#1677ff' },
        },
      ],
    }),
    [totals, ui.verb],
  );
  return (
    <>
      <PageCard>
        <Space wrap size={16}>
          <span>截至</span>
          <DatePicker value={asOf} onChange={(d) => d && setAsOf(d)} allowClear={false} />
          <RefSelect
            id={`aging-${ui.item.name}-party`}
            field={ui.party}
            value={partyId}
            onChange={(v) => {
              setPartyId((v as number | undefined) ?? undefined);
              setPage((p) => ({ ...p, pageNum: 1 }));
            }}
            placeholder={`全部${ui.party.label}`}
            style={{ width: 240 }}
          />
          <Space>
            <Switch checked={overdueOnly} onChange={setOverdueOnly} aria-label="只看逾期" />
            只看逾期
          </Space>
        </Space>
      </PageCard>
      <PageCard>
        <Space size={40} wrap data-testid="aging-totals">
          <Statistic title={`未${ui.verb}合计(元)`} value={money(totals.total)} />
          {AGING_BUCKETS.map((b) => (
            <Statistic key={b.key} title={b.label} value={money(totals[b.key])} />
          ))}
        </Space>
        <EChart option={chart} testId="chart-aging" />
      </PageCard>
      <PageCard>
        <TableToolbar
          left={<span>账龄按到期日计算逾期天数</span>}
          right={
            can(`${ui.side.item.permission}:export`) && (
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
        <Table
          rowKey="partyId"
          size="middle"
          data-testid="aging-table"
          loading={aging.isFetching}
          dataSource={aging.data?.rows ?? []}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page.pageNum,
            pageSize: page.pageSize,
            total: aging.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (n) => `共 ${n} 个${ui.party.label}`,
            onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
          }}
          columns={[
            { title: `${ui.party.label}编码`, dataIndex: 'code', width: 120, fixed: 'left' },
            { title: `${ui.party.label}名称`, dataIndex: 'name', width: 240 },
            { title: `未${ui.verb}合计(元)`, dataIndex: 'total', width: 130, align: right, render: money },
            ...AGING_BUCKETS.map((b) => ({
              title: b.label,
              dataIndex: b.key,
              width: 120,
              align: right,
              render: money,
            })),
          ]}
          summary={() => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0} colSpan={2}>
                合计
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">
                {money(totals.total)}
              </Table.Summary.Cell>
              {AGING_BUCKETS.map((b, i) => (
                <Table.Summary.Cell key={b.key} index={3 + i} align="right">
                  {money(totals[b.key])}
                </Table.Summary.Cell>
              ))}
            </Table.Summary.Row>
          )}
        />
      </PageCard>
    </>
  );
}

/** `GET /api/v1/{receivable|payable}/statement`: 对账单 of one party. */
type Statement = ApiResult<`/api/v1/${Item}/statement`>;

function StatementTab({ ui }: { ui: Ui }) {
  const can = usePermission();
  const [form] = Form.useForm<{ partyId?: number; range: [Dayjs, Dayjs] }>();
  const [query, setQuery] = useState<Record<string, string | number>>();
  const [printing, setPrinting] = useState(false);
  const st = useQuery({
    queryKey: [ui.item.name, 'statement', query],
    queryFn: (): Promise<Statement> =>
      api.get(`/api/v1/${ui.item.name as Item}/statement`, {
        query: query as ApiQuery<`/api/v1/${Item}/statement`>,
      }),
    enabled: Boolean(query),
  });
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { fileName } = await api.get(`/api/v1/${ui.item.name as Item}/statement/export`, {
        query: query as ApiQuery<`/api/v1/${Item}/statement/export`>,
      });
      await download('/common/download', { fileName, delete: 'true' });
    },
  });
  const run = (v: { partyId?: number; range: [Dayjs, Dayjs] }) =>
    setQuery({
      [ui.party.name]: v.partyId as number,
      from: v.range[0].format('YYYY-MM-DD'),
      to: v.range[1].format('YYYY-MM-DD'),
    });
  const d = st.data;
  const settledTitle = `${ui.verb}金额(元)`;
  const print: PrintDoc | undefined = d && {
    docName: ui.side.side === 'receivable' ? '客户对账单' : '供应商对账单',
    docNo: `DZ-${d.party.code}-${d.from.replaceAll('-', '')}-${d.to.replaceAll('-', '')}`,
    fields: [
      { label: ui.party.label, value: `${d.party.name}（${d.party.code}）` },
      { label: '对账期间', value: `${d.from} 至 ${d.to}` },
      { label: '期初余额(元)', value: money(d.opening) },
      { label: '期末余额(元)', value: money(d.closing) },
    ],
    columns: [
      { title: '日期', render: (l) => l.date, width: '11%' },
      { title: '单号', render: (l) => l.docNo, width: '17%' },
      { title: '类型', render: (l) => l.type, width: '14%' },
      { title: '来源单号', render: (l) => l.sourceDocNo ?? '', width: '16%' },
      { title: '应结金额(元)', render: (l) => money(l.invoiced), numeric: true },
      { title: settledTitle, render: (l) => money(l.settled), numeric: true },
      { title: '余额(元)', render: (l) => money(l.balance), numeric: true },
    ],
    lines: d.rows,
    totals: {
      '应结金额(元)': money(d.invoiced),
      [settledTitle]: money(d.settled),
      '余额(元)': money(d.closing),
    },
    signatures: ['制表', '财务审核', `${ui.party.label}确认（盖章）`],
  };
  return (
    <>
      <PageCard>
        <Form
          form={form}
          name={`statement-${ui.item.name}`}
          layout="inline"
          onFinish={run}
          initialValues={{ range: [dayjs().startOf('month'), dayjs()] }}
        >
          <Form.Item
            name="partyId"
            label={ui.party.label}
            rules={[{ required: true, message: `请选择${ui.party.label}` }]}
          >
            <RefSelect field={ui.party} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="range" label="期间" rules={[{ required: true, message: '请选择期间' }]}>
            <DatePicker.RangePicker allowClear={false} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
          </Form.Item>
        </Form>
      </PageCard>
      {d && (
        <PageCard>
          <TableToolbar
            left={
              <Space size={40} wrap data-testid="statement-totals">
                <Statistic title="期初余额(元)" value={money(d.opening)} />
                <Statistic title="本期应结(元)" value={money(d.invoiced)} />
                <Statistic title={`本期${ui.verb}(元)`} value={money(d.settled)} />
                <Statistic title="期末余额(元)" value={money(d.closing)} />
              </Space>
            }
            right={
              <Space>
                <Button icon={<PrinterOutlined />} onClick={() => setPrinting(true)}>
                  打印
                </Button>
                {can(`${ui.side.item.permission}:export`) && (
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
          <Table
            rowKey={(r) => `${r.kind}-${r.docNo}`}
            size="middle"
            data-testid="statement-table"
            dataSource={d.rows}
            pagination={false}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: '日期', dataIndex: 'date', width: 110 },
              { title: '单号', dataIndex: 'docNo', width: 170 },
              { title: '类型', dataIndex: 'type', width: 140 },
              { title: '来源单号', dataIndex: 'sourceDocNo', width: 170 },
              { title: '摘要', dataIndex: 'remark', width: 200, ellipsis: true },
              { title: '应结金额(元)', dataIndex: 'invoiced', width: 130, align: right, render: money },
              { title: settledTitle, dataIndex: 'settled', width: 130, align: right, render: money },
              { title: '余额(元)', dataIndex: 'balance', width: 130, align: right, render: money },
            ]}
          />
        </PageCard>
      )}
      {printing && print && <PrintView doc={print} onClose={() => setPrinting(false)} />}
    </>
  );
}
