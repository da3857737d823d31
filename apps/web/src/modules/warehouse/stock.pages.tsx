import './warehouse.css';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  Input,
  Result,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnType,
  Tag,
  Tooltip,
} from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ApiResult } from '../../platform/api/typed.ts';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import type { PageProps } from '../../platform/page.ts';
import { leavePage, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { fitColumns, useNarrow } from '../../platform/ui/responsive.ts';
import { SearchForm, TableToolbar } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { Dash, QUALITY_OPTIONS, QualityTag, SignedQty, UnitTotals } from './shared.tsx';
import {
  FINISHED_PATHS,
  INBOUND,
  money,
  OUTBOUND,
  qty,
  type Row,
  STOCKTAKE_PATHS,
  stockApi,
  TRANSFER_PATHS,
  typePaths,
  whKeys,
} from './warehouse.api.ts';

const DOC_NAMES: Record<string, string> = {
  'stock-inbound': '入库',
  'stock-outbound': '出库',
  'stock-transfer': '调拨',
  stocktake: '盘点',
  valuation: '成本调整',
};
const WAREHOUSE_TYPES = [
  { value: 'raw', label: '原材料仓' },
  { value: 'semi', label: '半成品仓' },
  { value: 'finished', label: '成品仓' },
  { value: 'auxiliary', label: '辅料仓' },
  { value: 'scrap', label: '废品仓' },
];
const ref = (name: string, label: string, target: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: target,
});

/** Detail page of the document behind a ledger move. */
function docDetailPath(move: Row): string | undefined {
  switch (move.docType) {
    case 'stock-inbound':
      return typePaths(INBOUND, move.docKind).detail;
    case 'stock-outbound':
      return typePaths(OUTBOUND, move.docKind).detail;
    case 'stock-transfer':
      return TRANSFER_PATHS.detail;
    case 'stocktake':
      return STOCKTAKE_PATHS.detail;
    default:
      return undefined;
  }
}

function docKindLabel(move: Row): string {
  const kind =
    move.docType === 'stock-inbound' ? INBOUND : move.docType === 'stock-outbound' ? OUTBOUND : undefined;
  const label =
    kind?.types.find((t) => t.value === move.docKind)?.label ?? DOC_NAMES[move.docType] ?? move.docType;
  if (move.reversalOf) return `${label}（冲销）`;
  // Quantity 0: a valuation adjustment a reversal wrote (value only; docs "Valuation and reversals").
  return Number(move.quantity) === 0 && move.docType !== 'valuation' ? `${label}（成本调整）` : label;
}

/**
 * The ledger of one material (optionally one warehouse), newest first, a page at a time, with the
 * balance after each move and the totals as the server sums them.
 */
export function MaterialLedger({ materialId, warehouseId }: { materialId: number; warehouseId?: number }) {
  const [direction, setDirection] = useState<'in' | 'out' | undefined>();
  const paged = useServerTable();
  const q = { materialId, warehouseId, direction, ...paged.query };
  const ledger = useQuery({
    queryKey: whKeys.ledger(q),
    queryFn: () => stockApi.ledger(q),
    placeholderData: keepPreviousData,
  });
  const summary = ledger.data?.summary;
  const unitName = ledger.data?.list[0]?.unitName ?? '';
  const narrow = useNarrow();
  return (
    <div data-testid="material-ledger">
      <TableToolbar
        left={
          <div className="wh-totals">
            <span>
              入库合计<b className="wh-gain">{qty(summary?.inQuantity ?? 0)}</b>
            </span>
            <span>
              出库合计<b className="wh-loss">{qty(summary?.outQuantity ?? 0)}</b>
            </span>
            <span>
              结存<b data-testid="ledger-balance">{qty(summary?.balance ?? 0)}</b> {unitName}
            </span>
            <span>
              结存金额<b data-testid="ledger-value">{money(summary?.value ?? 0)}</b> 元
            </span>
          </div>
        }
        right={
          <Space>
            <Select
              aria-label="方向"
              placeholder="全部方向"
              allowClear
              value={direction}
              onChange={(v) => {
                setDirection(v);
                paged.firstPage();
              }}
              options={[
                { value: 'in', label: '入库' },
                { value: 'out', label: '出库' },
              ]}
              style={{ width: 120 }}
            />
            <Button icon={<ReloadOutlined />} aria-label="刷新流水" onClick={() => void ledger.refetch()} />
          </Space>
        }
      />
      <Table<Row>
        size="small"
        rowKey="id"
        loading={ledger.isFetching}
        dataSource={ledger.data?.list ?? []}
        pagination={{ ...paged.pagination(ledger.data?.total ?? 0), size: 'small' }}
        onChange={paged.onChange}
        scroll={narrow ? undefined : { x: 'max-content' }}
        columns={fitColumns<TableColumnType<Row>>(
          [
            {
              title: '业务日期',
              dataIndex: 'bizDate',
              width: 100,
              render: (v: string, r) => <span title={`记账 ${formatTime(r.createdAt)}`}>{v}</span>,
            },
            { title: '单据类型', key: 'kind', width: 116, render: (_, r) => docKindLabel(r) },
            {
              title: '单据编号',
              dataIndex: 'docNo',
              width: 150,
              render: (v: string, r) => {
                const path = docDetailPath(r);
                return path ? (
                  <Button
                    type="link"
                    size="small"
                    className="rm-link-cell"
                    onClick={() => openResourcePage(path, r.docId)}
                  >
                    {v}
                  </Button>
                ) : (
                  v
                );
              },
            },
            { title: '仓库', dataIndex: 'warehouseName', width: 90, ellipsis: true },
            {
              title: '库位',
              dataIndex: 'locationName',
              width: 100,
              ellipsis: true,
              render: (v) => v || <Dash />,
            },
            {
              title: '批次号',
              dataIndex: 'batchNo',
              width: 100,
              ellipsis: true,
              render: (v) => v || <Dash />,
            },
            // Signed and coloured: + in, − out (no separate direction column).
            {
              title: '数量',
              dataIndex: 'quantity',
              width: 96,
              align: 'right',
              render: (v) => <SignedQty value={v} />,
            },
            {
              title: '结存',
              dataIndex: 'balanceAfter',
              width: 96,
              align: 'right',
              render: (v: string) => <span className="wh-num">{qty(v)}</span>,
            },
            {
              title: '成本单价',
              dataIndex: 'unitCost',
              width: 90,
              align: 'right',
              render: (v) => Number(v).toFixed(4),
            },
            {
              title: '金额',
              dataIndex: 'amount',
              width: 100,
              align: 'right',
              render: (v) => <span className={Number(v) < 0 ? 'wh-loss' : undefined}>{money(v)}</span>,
            },
            {
              title: '操作人',
              dataIndex: 'createdByName',
              width: 80,
              ellipsis: true,
              render: (v) => v || <Dash />,
            },
          ],
          narrow,
          ['bizDate', 'docNo', 'quantity', 'balanceAfter'],
        )}
      />
    </div>
  );
}

/** The ledger drawer: its 11 columns (1,118 px) without a horizontal scroll at 1,440 px. */
const LEDGER_DRAWER_WIDTH = () => Math.min(1200, typeof window === 'undefined' ? 1200 : window.innerWidth);

interface BalanceFilters {
  keyword?: string;
  materialId?: number;
  warehouseId?: number;
  batchNo?: string;
  qualityStatus?: string;
  warehouseType?: string;
  includeZero?: boolean;
}

/** Balances straight from stock_balance with totals; a row opens the material's ledger. */
function BalancePage({ finished }: { finished?: boolean }) {
  const [search] = useSearchParams();
  const fromLink = Number(search.get('materialId')) || undefined;
  const [form] = Form.useForm<BalanceFilters>();
  const [filters, setFilters] = useState<BalanceFilters>(fromLink ? { materialId: fromLink } : {});
  const paged = useServerTable();
  const [drill, setDrill] = useState<Row | undefined>();
  const query = {
    ...filters,
    includeZero: filters.includeZero ? 'true' : undefined,
    ...(finished ? { warehouseType: 'finished' } : {}),
    ...paged.query,
  };
  const page = useQuery({
    queryKey: whKeys.balance(query),
    queryFn: () => stockApi.balance(query),
    placeholderData: keepPreviousData,
  });

  const exportCsv = async () => {
    try {
      const all = await stockApi.balance({ ...query, pageNum: 0 });
      const head = [
        '物料编码',
        '物料名称',
        '规格',
        '仓库',
        '库位',
        '批次号',
        '质量状态',
        '数量',
        '单位',
        '成本单价',
        '金额',
      ];
      const label = (v: string) => QUALITY_OPTIONS.find((o) => o.value === v)?.label ?? v;
      const esc = (v: unknown) => `"${String(v ?? '').replace(/"/g, '""')}"`;
      const lines = all.list.map((r) =>
        [
          r.materialCode,
          r.materialName,
          r.spec,
          r.warehouseName,
          r.locationName,
          r.batchNo,
          label(r.qualityStatus),
          r.quantity,
          r.unitName,
          r.unitCost,
          r.amount,
        ]
          .map(esc)
          .join(','),
      );
      // One 合计 row per unit; the money total on the first.
      for (const [i, u] of all.totalsByUnit.entries()) {
        const amount = i === 0 ? all.totalAmount : '';
        lines.push(['合计', '', '', '', '', '', '', u.quantity, u.unitName, '', amount].map(esc).join(','));
      }
      const blob = new Blob([`\ufeff${[head.join(','), ...lines].join('\r\n')}`], {
        type: 'text/csv;charset=utf-8',
      });
      const { saveBlob } = await import('../../platform/api/download.ts');
      saveBlob(blob, `${finished ? '成品库存' : '库存明细'}-${formatTime(Date.now(), 'YYYYMMDDHHmmss')}.csv`);
      toast.success(`已导出 ${all.list.length} 行`);
    } catch {
      // shown by the client
    }
  };

  const narrow = useNarrow();
  const wide: TableColumnType<Row>[] = [
    { title: '物料编码', dataIndex: 'materialCode', width: 130, sorter: true, fixed: 'left' },
    { title: '物料名称', dataIndex: 'materialName', width: 160, sorter: true, ellipsis: true },
    { title: '规格', dataIndex: 'spec', width: 150, ellipsis: true, render: (v) => v || <Dash /> },
    { title: '仓库', dataIndex: 'warehouseName', width: 100, sorter: true },
    { title: '库位', dataIndex: 'locationName', width: 120, render: (v) => v || <Dash /> },
    { title: '批次号', dataIndex: 'batchNo', width: 110, sorter: true, render: (v) => v || <Dash /> },
    { title: '质量状态', dataIndex: 'qualityStatus', width: 90, render: (v) => <QualityTag value={v} /> },
    {
      title: '数量',
      dataIndex: 'quantity',
      width: 110,
      align: 'right',
      sorter: true,
      render: (v) => <span className="wh-num">{qty(v)}</span>,
    },
    { title: '单位', dataIndex: 'unitName', width: 64 },
    {
      title: '成本单价',
      dataIndex: 'unitCost',
      width: 100,
      align: 'right',
      render: (v) => Number(v).toFixed(4),
    },
    {
      title: '金额(元)',
      dataIndex: 'amount',
      width: 120,
      align: 'right',
      render: (v) => <span className="wh-num">{money(v)}</span>,
    },
    { title: '首次入库', dataIndex: 'firstInAt', width: 156, sorter: true, render: (v) => formatTime(v) },
    {
      title: '操作',
      key: 'op',
      width: 90,
      fixed: 'right',
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setDrill(r)}>
          流水
        </Button>
      ),
    },
  ];

  return (
    <>
      <PageCard>
        <SearchForm<BalanceFilters>
          name={finished ? 'wh-finished' : 'wh-balance'}
          form={form}
          initialValues={fromLink ? { materialId: fromLink } : undefined}
          onSearch={(v) => {
            setFilters(v);
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            paged.firstPage();
          }}
        >
          <Form.Item name="keyword" label="物料">
            <Input
              placeholder="编码/名称/规格"
              allowClear
              style={{ width: 170 }}
              data-testid="search-keyword"
            />
          </Form.Item>
          <Form.Item name="materialId" label="指定物料">
            <RefSelect
              field={ref('materialId', '物料', 'material-info')}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="warehouseId" label="仓库">
            <RefSelect
              field={ref('warehouseId', '仓库', 'warehouse-management')}
              placeholder="全部"
              style={{ width: 140 }}
            />
          </Form.Item>
          {!finished && (
            <Form.Item name="warehouseType" label="仓库类型">
              <Select placeholder="全部" allowClear options={WAREHOUSE_TYPES} style={{ width: 120 }} />
            </Form.Item>
          )}
          <Form.Item name="batchNo" label="批次号">
            <Input placeholder="批次号" allowClear style={{ width: 130 }} />
          </Form.Item>
          <Form.Item name="qualityStatus" label="质量状态">
            <Select placeholder="全部" allowClear options={QUALITY_OPTIONS} style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="includeZero" label="含零库存" valuePropName="checked">
            <Switch size="small" />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <div className="wh-totals" data-testid="balance-totals">
              <UnitTotals totals={page.data?.totalsByUnit ?? []} />
              <span>
                金额合计<b data-testid="total-amount">¥{money(page.data?.totalAmount ?? 0)}</b>
              </span>
              <span className="rm-muted">点击行查看该物料的出入库流水</span>
            </div>
          }
          right={
            <Space>
              <Button icon={<DownloadOutlined />} onClick={() => void exportCsv()}>
                导出
              </Button>
              <Tooltip title="刷新">
                <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void page.refetch()} />
              </Tooltip>
            </Space>
          }
        />
        <Table<Row>
          rowKey="id"
          size="middle"
          // Below 992 px: material, quantity, unit and 流水.
          columns={fitColumns(wide, narrow, ['materialName', 'quantity', 'unitName', 'op'])}
          dataSource={page.data?.list ?? []}
          loading={page.isFetching}
          scroll={narrow ? undefined : { x: 'max-content' }}
          onRow={(r) => ({ onClick: () => setDrill(r), style: { cursor: 'pointer' } })}
          pagination={paged.pagination(page.data?.total ?? 0)}
          onChange={paged.onChange}
        />
      </PageCard>
      <Drawer
        open={Boolean(drill)}
        onClose={() => setDrill(undefined)}
        size={LEDGER_DRAWER_WIDTH()}
        title={drill ? `库存流水 · ${drill.materialName}（${drill.materialCode}）` : ''}
        destroyOnHidden
        extra={
          finished && drill ? (
            <Button
              onClick={() => openResourcePage(`${FINISHED_PATHS.detail}?materialId=${drill.materialId}`)}
            >
              详情页
            </Button>
          ) : undefined
        }
      >
        {drill && <MaterialLedger materialId={drill.materialId} />}
      </Drawer>
    </>
  );
}

/** A row of 库存预警 (`GET /api/v1/stock-alert/page`). */
type AlertRow = ApiResult<'/api/v1/stock-alert/page'>['list'][number];

export const InventoryDetailsPage = (_: PageProps) => <BalancePage />;
export const FinishedGoodsPage = (_: PageProps) => <BalancePage finished />;

/** 成品仓库详情: one material's ledger on a page (`?materialId=`). */
export function MaterialLedgerPage({ path }: PageProps) {
  const [search] = useSearchParams();
  const materialId = Number(search.get('materialId')) || undefined;
  const [picked, setPicked] = useState<number | undefined>(materialId);
  const back = () => leavePage(path, FINISHED_PATHS.list);
  return (
    <PageCard
      title="成品库存流水"
      extra={
        <Space>
          <RefSelect
            field={ref('materialId', '物料', 'material-info')}
            value={picked}
            onChange={(v) => setPicked((v as number) ?? undefined)}
            style={{ width: 260 }}
          />
          <Button onClick={back}>返回</Button>
        </Space>
      }
    >
      {picked ? <MaterialLedger materialId={picked} /> : <Result status="info" title="请选择物料" />}
    </PageCard>
  );
}

// ------------------------------------------------------------------------- alert

/** 库存预警: materials below their safety minimum (库存不足) or above their maximum (库存积压). */
export function InventoryAlertPage(_: PageProps) {
  const [form] = Form.useForm<{ kind?: string; keyword?: string }>();
  // `?kind=below` (首页 低于安全库存) opens the list filtered.
  const [address] = useSearchParams();
  const kindInUrl = address.get('kind') || undefined;
  const [filters, setFilters] = useState<{ kind?: string; keyword?: string }>(
    kindInUrl ? { kind: kindInUrl } : {},
  );
  useEffect(() => {
    if (!kindInUrl) return;
    form.setFieldsValue({ kind: kindInUrl });
    setFilters((f) => (f.kind === kindInUrl ? f : { ...f, kind: kindInUrl }));
  }, [kindInUrl, form]);
  const paged = useServerTable();
  const [drill, setDrill] = useState<AlertRow | undefined>();
  const narrow = useNarrow();
  const query = { ...filters, ...paged.query };
  const page = useQuery({
    queryKey: whKeys.alert(query),
    queryFn: () => stockApi.alert(query),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageCard>
        <SearchForm
          name="wh-alert"
          form={form}
          onSearch={(v) => {
            setFilters(v);
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            paged.firstPage();
          }}
        >
          <Form.Item name="kind" label="预警类型">
            <Select
              placeholder="全部"
              allowClear
              style={{ width: 130 }}
              options={[
                { value: 'below', label: '库存不足' },
                { value: 'above', label: '库存积压' },
              ]}
            />
          </Form.Item>
          <Form.Item name="keyword" label="物料">
            <Input placeholder="编码/名称/规格" allowClear style={{ width: 180 }} />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={<span className="rm-muted">按各仓库合格库存合计与物料的安全库存上下限比较</span>}
          right={<Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void page.refetch()} />}
        />
        <Table<AlertRow>
          rowKey="materialId"
          size="middle"
          loading={page.isFetching}
          dataSource={page.data?.list ?? []}
          scroll={narrow ? undefined : { x: 'max-content' }}
          locale={{ emptyText: '暂无预警：所有设置了安全库存的物料都在上下限之间' }}
          pagination={paged.pagination(page.data?.total ?? 0)}
          onChange={paged.onChange}
          columns={fitColumns<TableColumnType<AlertRow>>(
            [
              {
                title: '预警',
                dataIndex: 'kind',
                width: 100,
                render: (v) =>
                  v === 'below' ? <Tag color="red">库存不足</Tag> : <Tag color="orange">库存积压</Tag>,
              },
              { title: '物料编码', dataIndex: 'materialCode', width: 130 },
              { title: '物料名称', dataIndex: 'materialName', width: 160 },
              { title: '规格', dataIndex: 'spec', width: 160, render: (v) => v || <Dash /> },
              { title: '合格库存', dataIndex: 'quantity', width: 110, align: 'right', render: (v) => qty(v) },
              {
                title: '安全库存下限',
                dataIndex: 'safetyStockMin',
                width: 120,
                align: 'right',
                render: (v) => (v == null ? <Dash /> : qty(v)),
              },
              {
                title: '安全库存上限',
                dataIndex: 'safetyStockMax',
                width: 120,
                align: 'right',
                render: (v) => (v == null ? <Dash /> : qty(v)),
              },
              {
                title: '差额',
                dataIndex: 'gap',
                width: 110,
                align: 'right',
                render: (v, r) => (
                  <span className={r.kind === 'below' ? 'wh-loss' : 'wh-gain'}>{qty(v)}</span>
                ),
              },
              { title: '单位', dataIndex: 'unitName', width: 64 },
              {
                title: '操作',
                key: 'op',
                width: 90,
                render: (_, r) => (
                  <Button type="link" size="small" onClick={() => setDrill(r)}>
                    流水
                  </Button>
                ),
              },
            ],
            narrow,
            ['kind', 'materialName', 'gap', 'op'],
          )}
        />
      </PageCard>
      <Drawer
        open={Boolean(drill)}
        onClose={() => setDrill(undefined)}
        size={LEDGER_DRAWER_WIDTH()}
        destroyOnHidden
        title={drill ? `库存流水 · ${drill.materialName}（${drill.materialCode}）` : ''}
      >
        {drill && <MaterialLedger materialId={drill.materialId} />}
      </Drawer>
    </>
  );
}
