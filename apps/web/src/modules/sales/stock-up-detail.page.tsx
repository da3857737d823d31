import { FileAddOutlined } from '@ant-design/icons';
import { PRODUCTION_ORDER_LIFECYCLE, productionOrderResource } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, InputNumber, Modal, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { qty, type Row } from '../warehouse/warehouse.api.ts';

/** `GET /api/v1/stock-up-order/progress/{id}`: per line planned and produced, and the orders made. */
/** `GET /api/v1/stock-up-order/progress/{id}`: each line's planned and produced quantities, and its production orders. */
type Progress = ApiResult<'/api/v1/stock-up-order/progress/{id}'>;

const STATE = new Map(PRODUCTION_ORDER_LIFECYCLE.states.map((s) => [s.value, s]));
const PLANNABLE = ['approved', 'producing'];
const open = (l: Row) => Math.max(Number(l.baseQuantity) - Number(l.plannedQuantity), 0);

const progressKey = (order: ResourceRow) => [
  'resource',
  'stock-up-order',
  'progress',
  order.id,
  order.version,
];

function useProgress(order: ResourceRow) {
  return useQuery({
    queryKey: progressKey(order),
    queryFn: (): Promise<Progress> =>
      api.get('/api/v1/stock-up-order/progress/{id}', { path: { id: Number(order.id) } }),
  });
}

/**
 * 备货单详情: the kit's detail with 生成生产订单 (an approved 备货单's unplanned lines become draft
 * production orders, as 从备货单生成 on the production order list does) and 生产进度: per line
 * 已排产 and 已完工, and the production orders made from it (their ring orders too).
 */
export function StockUpDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      actions={(row) => <MakeOrdersButton order={row} />}
      sections={(row) => <StockUpProduction order={row} />}
    />
  );
}

function MakeOrdersButton({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const progress = useProgress(order);
  const [making, setMaking] = useState(false);
  const lines = (progress.data?.lines ?? []).filter((l) => open(l) > 0);
  if (!can('production:order:add') || !PLANNABLE.includes(String(order.status)) || !lines.length) return null;
  return (
    <>
      <Button icon={<FileAddOutlined />} onClick={() => setMaking(true)} data-testid="stock-up-make-orders">
        生成生产订单
      </Button>
      {making && <MakeOrdersDialog order={order} lines={lines} onClose={() => setMaking(false)} />}
    </>
  );
}

function MakeOrdersDialog({
  order,
  lines,
  onClose,
}: {
  order: ResourceRow;
  lines: Row[];
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [start, setStart] = useState<Dayjs>(dayjs());
  const [quantities, setQuantities] = useState<Record<number, number | null>>(() =>
    Object.fromEntries(lines.map((l) => [l.id, open(l)])),
  );
  const chosen = lines.filter((l) => Number(quantities[l.id]) > 0);
  const make = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>('/api/v1/production-order/from-stock-up-lines', {
        plannedStartDate: start.format('YYYY-MM-DD'),
        lines: chosen.map((l) => ({ stockUpLineId: l.id, quantity: String(quantities[l.id]) })),
      }),
    onSuccess: (r) => {
      toast.success(`已生成生产订单 ${r.orders.map((o) => o.docNo).join('、')}（草稿），由计划员核对后下达`);
      invalidateResource(client, 'stock-up-order');
      invalidateResource(client, 'production-order');
      onClose();
    },
  });
  return (
    <Modal
      open
      width={820}
      title={`生成生产订单 · ${order.docNo}`}
      okText={`生成生产订单（${chosen.length} 张）`}
      okButtonProps={{ disabled: !chosen.length, loading: make.isPending }}
      onOk={() => make.mutate()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        每个备货明细生成一张生产订单（草稿，来源「备货单」），计划完工取明细的完成日期；本次生产不超过未排产数量。
      </Typography.Paragraph>
      <Form layout="inline" style={{ marginBottom: 12 }}>
        <Form.Item label="计划开工">
          <DatePicker value={start} allowClear={false} onChange={(d) => d && setStart(d)} />
        </Form.Item>
      </Form>
      <Table<Row>
        rowKey="id"
        size="small"
        bordered
        pagination={false}
        dataSource={lines}
        columns={[
          { title: '行号', dataIndex: 'lineNo', width: 56 },
          { title: '产品编码', dataIndex: 'materialCode', width: 140 },
          { title: '产品名称', dataIndex: 'materialName', width: 160, ellipsis: true },
          { title: '备货', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
          { title: '已排产', dataIndex: 'plannedQuantity', width: 80, align: 'right', render: qty },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          {
            title: '本次生产',
            width: 130,
            render: (_, l) => (
              <InputNumber
                aria-label={`${l.materialName} 本次生产`}
                min={0}
                max={open(l)}
                value={quantities[l.id]}
                onChange={(v) => setQuantities({ ...quantities, [l.id]: v })}
                style={{ width: '100%' }}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}

function StockUpProduction({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const progress = useProgress(order);
  const data = progress.data;
  const detail = resourceRoutes(productionOrderResource).detail;
  const mayOpen = can('production:order:list') && detail;
  return (
    <div className="rk-form-section" data-testid="stock-up-production">
      <div className="rk-form-section-title">生产进度</div>
      {order.status === 'draft' && (
        <Alert
          type="info"
          showIcon
          title="备货单审核后，由计划员生成生产订单。"
          style={{ marginBottom: 8 }}
        />
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        bordered
        loading={progress.isFetching}
        pagination={false}
        dataSource={data?.lines ?? []}
        columns={[
          { title: '行号', dataIndex: 'lineNo', width: 56 },
          { title: '产品编码', dataIndex: 'materialCode', width: 140 },
          { title: '产品名称', dataIndex: 'materialName', width: 160, ellipsis: true },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          { title: '备货', dataIndex: 'baseQuantity', width: 90, align: 'right', render: qty },
          { title: '已排产', dataIndex: 'plannedQuantity', width: 90, align: 'right', render: qty },
          { title: '已完工', dataIndex: 'producedQuantity', width: 90, align: 'right', render: qty },
          { title: '未排产', key: 'open', width: 90, align: 'right', render: (_, l) => qty(open(l)) },
        ]}
      />
      {(data?.orders.length ?? 0) > 0 && (
        <Table<Row>
          rowKey="id"
          size="small"
          bordered
          style={{ marginTop: 8 }}
          pagination={false}
          dataSource={data?.orders ?? []}
          title={() => '生产订单'}
          data-testid="stock-up-orders"
          columns={[
            {
              title: '订单编号',
              dataIndex: 'docNo',
              width: 170,
              render: (v: string, r) =>
                mayOpen ? (
                  <Typography.Link onClick={() => openResourcePage(detail, Number(r.id))}>
                    {v}
                  </Typography.Link>
                ) : (
                  v
                ),
            },
            {
              title: '状态',
              dataIndex: 'status',
              width: 80,
              render: (v: string) => <Tag color={STATE.get(v)?.color}>{STATE.get(v)?.label ?? v}</Tag>,
            },
            {
              title: '产品',
              dataIndex: 'productName',
              width: 180,
              render: (v: string, r) => (r.parentOrderId ? `${v}（自制件）` : v),
            },
            { title: '数量', dataIndex: 'quantity', width: 90, align: 'right', render: qty },
            { title: '已完工', dataIndex: 'producedQuantity', width: 90, align: 'right', render: qty },
            { title: '计划开工', dataIndex: 'plannedStartDate', width: 105 },
            { title: '计划完工', dataIndex: 'dueDate', width: 105 },
          ]}
        />
      )}
    </div>
  );
}
