import { DownloadOutlined, ReloadOutlined, RollbackOutlined, SendOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Segmented,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { download } from '../../platform/api/download.ts';
import { type ApiBody, type ApiQuery, type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import type { PageProps } from '../../platform/page.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { INBOUND, OUTBOUND, qty, typePaths } from '../warehouse/warehouse.api.ts';

const ORDER_DETAIL = '/sale-manage/sale-order-detail';

interface Filters {
  docNo?: string;
  customerId?: number;
  materialId?: number;
  late?: boolean;
}

type Mode = 'ship' | 'return';

const ref = (name: string, label: string, target: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: target,
});

/**
 * 销售仓库: the open lines of approved sales orders with what is ordered, shipped, owed and in
 * finished-goods stock. 发货 makes a 销售出库 draft of the chosen lines of one order for the
 * warehouse to post; in 退货 mode the shipped lines are listed and 退货 makes a 销售退货入库 draft.
 */
/** A sales order line still to ship (or shipped, to return): `GET /api/v1/sale-order/open-lines`. */
type OpenLine = ApiResult<'/api/v1/sale-order/open-lines'>['list'][number];

export function SalesWarehousePage(_: PageProps) {
  const can = usePermission();
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  // 首页's 逾期未交货 opens this page with ?late=1: the overdue lines only.
  const [search] = useSearchParams();
  const [initial] = useState<Filters>(() => (search.get('late') === '1' ? { late: true } : {}));
  const [filters, setFilters] = useState<Filters>(initial);
  const [mode, setMode] = useState<Mode>('ship');
  const [selected, setSelected] = useState<OpenLine[]>([]);
  const [dialog, setDialog] = useState(false);
  const paged = useServerTable();
  const query = {
    ...filters,
    late: filters.late ? '1' : undefined,
    shipped: mode === 'return' ? '1' : undefined,
    pageNum: paged.query.pageNum,
    pageSize: paged.query.pageSize,
  };
  const page = useQuery({
    queryKey: ['sale-order', 'open-lines', query],
    queryFn: () =>
      api.get('/api/v1/sale-order/open-lines', {
        query: query as ApiQuery<'/api/v1/sale-order/open-lines'>,
      }),
    placeholderData: keepPreviousData,
  });
  const order = selected[0]?.orderId;
  // Every line the filters hold, not only this page (the server caps it at 5,000).
  const exportExcel = useMutation({
    mutationFn: async () => {
      const { pageNum: _p, pageSize: _s, ...filtered } = query;
      const { fileName } = await api.get('/api/v1/sale-order/open-lines/export', {
        query: filtered as ApiQuery<'/api/v1/sale-order/open-lines/export'>,
      });
      await download('/common/download', { fileName, delete: 'true' });
    },
  });

  const columns = [
    {
      title: '订单号',
      dataIndex: 'docNo',
      width: 150,
      render: (v: string, r: OpenLine) => (
        <Button type="link" size="small" onClick={() => openResourcePage(ORDER_DETAIL, r.orderId)}>
          {v}
        </Button>
      ),
    },
    { title: '行', dataIndex: 'lineNo', width: 44, align: 'center' as const },
    { title: '客户', dataIndex: 'customerName', width: 120, ellipsis: true },
    // One 产品 column (name, code and spec on hover): at 1440 px 欠发, 待出库 and 库存 stay on screen.
    {
      title: '产品',
      dataIndex: 'materialName',
      width: 170,
      ellipsis: { showTitle: false },
      render: (v: string, r: OpenLine) => (
        <Tooltip title={[r.materialCode, v, r.materialSpec].filter(Boolean).join(' · ')}>
          <span>{v}</span>
        </Tooltip>
      ),
    },
    {
      title: '交货日期',
      dataIndex: 'deliveryDate',
      width: 110,
      render: (v: string, r: OpenLine) =>
        r.late && mode === 'ship' ? (
          <Tooltip title="已过交货日期">
            <Tag color="red">{v}</Tag>
          </Tooltip>
        ) : (
          v
        ),
    },
    { title: '订购', dataIndex: 'baseQuantity', width: 80, align: 'right' as const, render: qty },
    { title: '已发', dataIndex: 'shippedQuantity', width: 80, align: 'right' as const, render: qty },
    {
      title: '欠发',
      dataIndex: 'owedQuantity',
      width: 80,
      align: 'right' as const,
      render: (v: string) => <b>{qty(v)}</b>,
    },
    {
      title: '待出库',
      dataIndex: 'pendingQuantity',
      width: 80,
      align: 'right' as const,
      render: (v: string) =>
        Number(v) > 0 ? (
          <Tooltip title="已开销售出库单、尚未过账">
            <Tag color="orange">{qty(v)}</Tag>
          </Tooltip>
        ) : (
          qty(v)
        ),
    },
    {
      title: '库存',
      dataIndex: 'availableQuantity',
      width: 80,
      align: 'right' as const,
      render: (v: string, r: OpenLine) =>
        Number(v) < Number(r.owedQuantity) && mode === 'ship' ? (
          <Tooltip title="合格库存（各仓库合计）不足欠发数量">
            <span className="rm-danger-text">{qty(v)}</span>
          </Tooltip>
        ) : (
          qty(v)
        ),
    },
    { title: '单位', dataIndex: 'unitName', width: 52 },
  ];

  const action = mode === 'ship' ? 'ship' : 'return';
  const allowed = can(`sale:warehouse:${action}`);
  return (
    <>
      <PageCard>
        <SearchForm
          name="sale-wh"
          form={form}
          initialValues={initial}
          onSearch={(v) => {
            setFilters(v);
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            paged.firstPage();
          }}
        >
          <Form.Item name="docNo" label="订单号">
            <Input placeholder="XS…" allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="customerId" label="客户">
            <RefSelect
              field={ref('customerId', '客户', 'customer')}
              placeholder="全部"
              style={{ width: 180 }}
            />
          </Form.Item>
          <Form.Item name="materialId" label="产品">
            <RefSelect
              field={ref('materialId', '产品', 'material-info')}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="late" label="只看逾期" valuePropName="checked">
            <Switch />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <Space wrap>
              <Segmented<Mode>
                value={mode}
                onChange={(m) => {
                  setMode(m);
                  setSelected([]);
                  paged.firstPage();
                }}
                options={[
                  { value: 'ship', label: '待发货' },
                  { value: 'return', label: '已发货（退货）' },
                ]}
              />
              {allowed && (
                <Button
                  type="primary"
                  icon={mode === 'ship' ? <SendOutlined /> : <RollbackOutlined />}
                  disabled={!selected.length}
                  onClick={() => setDialog(true)}
                >
                  {mode === 'ship' ? '发货' : '退货'}
                  {selected.length ? `（${selected.length} 行）` : ''}
                </Button>
              )}
              <span className="rm-muted">一次为一个订单发货或退货；生成的单据由仓库过账</span>
            </Space>
          }
          right={
            <Space>
              {can('sale:warehouse:export') && (
                <Button
                  icon={<DownloadOutlined />}
                  loading={exportExcel.isPending}
                  onClick={() => exportExcel.mutate()}
                >
                  导出
                </Button>
              )}
              <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void page.refetch()} />
            </Space>
          }
        />
        <Table<OpenLine>
          rowKey="lineId"
          size="middle"
          data-testid="sales-warehouse-table"
          loading={page.isFetching}
          dataSource={page.data?.list ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={paged.pagination(page.data?.total ?? 0)}
          onChange={paged.onChange}
          locale={{ emptyText: mode === 'ship' ? '没有待发货的订单明细' : '没有已发货的订单明细' }}
          rowSelection={
            allowed
              ? {
                  selectedRowKeys: selected.map((r) => r.lineId),
                  onChange: (_keys, rows) => setSelected(rows),
                  // The lines of one order per document.
                  getCheckboxProps: (r) => ({ disabled: order !== undefined && r.orderId !== order }),
                }
              : undefined
          }
        />
      </PageCard>
      {dialog && (
        <ShipDialog
          mode={mode}
          lines={selected}
          onClose={(done) => {
            setDialog(false);
            if (done) {
              setSelected([]);
              void client.invalidateQueries({ queryKey: ['sale-order'] });
            }
          }}
        />
      )}
    </>
  );
}

interface ShipValues {
  warehouseId?: number;
  bizDate?: Dayjs;
  remark?: string;
  quantities: Record<string, number | string | null>;
}

/** The 发货 / 退货 dialog: warehouse, date and the quantity of each chosen line. */
function ShipDialog({
  mode,
  lines,
  onClose,
}: {
  mode: Mode;
  lines: OpenLine[];
  onClose: (done: boolean) => void;
}) {
  const can = usePermission();
  const [form] = Form.useForm<ShipValues>();
  const shipping = mode === 'ship';
  const [error, setError] = useState<string>();
  const submit = useMutation({
    mutationFn: (v: ShipValues) =>
      api.post(`/api/v1/sale-order/${shipping ? 'ship' : 'return-goods'}`, {
        body: {
          warehouseId: v.warehouseId,
          bizDate: v.bizDate?.format('YYYY-MM-DD'),
          remark: v.remark || undefined,
          lines: lines
            .map((l) => ({ lineId: l.lineId, quantity: v.quantities[l.lineId] }))
            .filter((l) => l.quantity !== null && l.quantity !== undefined && Number(l.quantity) > 0),
        } as ApiBody<'/api/v1/sale-order/ship'>,
        silent: true,
      }),
    onSuccess: (doc) => {
      toast.success(
        `已生成${shipping ? '销售出库单' : '销售退货入库单'} ${doc.docNo}（草稿），请仓库核对后过账`,
      );
      onClose(true);
      // Open the document where the user may see it (a salesperson usually may not: the keeper posts).
      const [kind, type, scoped] = shipping
        ? [OUTBOUND, 'sales', 'warehouse:salesOutbound:list']
        : [INBOUND, 'sales-return', 'warehouse:salesReturnInbound:list'];
      if (can(scoped) || can(`${kind.def.permission}:list`))
        openResourcePage(typePaths(kind, type).detail, doc.id);
    },
    onError: (e: Error) => setError(e.message),
  });
  return (
    <Modal
      open
      width={760}
      title={shipping ? `发货：${lines[0].docNo} ${lines[0].customerName}` : `退货：${lines[0].docNo}`}
      okText={shipping ? '生成销售出库单' : '生成退货入库单'}
      confirmLoading={submit.isPending}
      onOk={() => form.submit()}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form<ShipValues>
        form={form}
        name="sale-ship"
        layout="vertical"
        initialValues={{
          quantities: Object.fromEntries(
            lines.map((l) => [
              l.lineId,
              shipping
                ? Math.max(
                    0,
                    Math.min(Number(l.owedQuantity) - Number(l.pendingQuantity), Number(l.availableQuantity)),
                  )
                : null,
            ]),
          ),
        }}
        onFinish={(v) => {
          setError(undefined);
          submit.mutate(v);
        }}
      >
        <Space size="large" wrap>
          <Form.Item
            name="warehouseId"
            label={shipping ? '发货仓库' : '退入仓库'}
            rules={[{ required: true, message: '请选择仓库' }]}
          >
            <RefSelect
              field={ref('warehouseId', '仓库', 'warehouse-management')}
              placeholder="请选择仓库"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="bizDate" label="业务日期" tooltip="不填则为今天">
            <DatePicker style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="remark" label="备注">
            <Input maxLength={500} style={{ width: 260 }} />
          </Form.Item>
        </Space>
        <Table<OpenLine>
          rowKey="lineId"
          size="small"
          pagination={false}
          dataSource={lines}
          columns={[
            { title: '行', dataIndex: 'lineNo', width: 44 },
            { title: '产品', dataIndex: 'materialName', ellipsis: true },
            { title: '订购', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
            { title: '已发', dataIndex: 'shippedQuantity', width: 80, align: 'right', render: qty },
            shipping
              ? { title: '成品库存', dataIndex: 'availableQuantity', width: 90, align: 'right', render: qty }
              : { title: '单位', dataIndex: 'unitName', width: 60 },
            {
              title: shipping ? '本次发货' : '本次退货',
              key: 'q',
              width: 140,
              render: (_, l) => (
                <Form.Item
                  name={['quantities', String(l.lineId)]}
                  noStyle
                  rules={[
                    {
                      validator: async (_r, v) => {
                        if (v != null && Number(v) < 0) throw new Error('不能为负数');
                        if (!shipping && v != null && Number(v) > Number(l.shippedQuantity))
                          throw new Error('不能超过已发货数量');
                      },
                    },
                  ]}
                >
                  <InputNumber
                    min={0}
                    precision={4}
                    style={{ width: '100%' }}
                    aria-label={`第 ${l.lineNo} 行${shipping ? '发货' : '退货'}数量`}
                    max={shipping ? undefined : Number(l.shippedQuantity)}
                  />
                </Form.Item>
              ),
            },
          ]}
        />
        <div className="rm-muted" style={{ marginTop: 8 }}>
          数量按产品的基本单位；
          {shipping ? '过账时按订单未发数量（含超发比例）校验。' : '退回的货物先入待检，检验后再转合格。'}
        </div>
      </Form>
    </Modal>
  );
}
