import { ApartmentOutlined } from '@ant-design/icons';
import { PRODUCTION_ORDER_LIFECYCLE, PRODUCTION_ORDER_RESERVING } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { qty, type Row } from '../warehouse/warehouse.api.ts';

const ORDER_DETAIL = '/production-department/production-manage/produce-order-detail';
const STATE = new Map(PRODUCTION_ORDER_LIFECYCLE.states.map((s) => [s.value, s]));

/** `GET /production-order/sub-orders/{id}`: what 生成自制件订单 would make, and what it made. */
interface SubOrderPlan {
  order: { id: number; docNo: string; status: string; plannedStartDate: string };
  parts: Row[];
  made: Row[];
  refusal: string | null;
  rule: { shiftMinutes: number; outsourcedDays: number; withoutRouteDays: number };
}

const planKey = (order: ResourceRow) => [
  'resource',
  'production-order',
  'sub-orders',
  order.id,
  order.version,
];

function usePlan(order: ResourceRow) {
  return useQuery({
    queryKey: planKey(order),
    queryFn: () => http.get<SubOrderPlan>(`/api/v1/production-order/sub-orders/${order.id}`),
    enabled: order.status !== 'draft',
  });
}

export const StateTag = ({ status }: { status: string }) => {
  const s = STATE.get(status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
};

/**
 * 生成自制件订单 on a released bearing order: shown while its BOM has components made in-house
 * (rings) and none were made yet; the dialog lists them with quantities and the dates planned
 * back from this order's start, and makes them as drafts.
 */
export function SubOrdersButton({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const plan = usePlan(order);
  const [open, setOpen] = useState(false);
  const data = plan.data;
  if (
    !can('production:order:add') ||
    !PRODUCTION_ORDER_RESERVING.includes(String(order.status)) ||
    !data?.parts.length
  ) {
    return null;
  }
  const button = (
    <Button
      icon={<ApartmentOutlined />}
      disabled={Boolean(data.refusal)}
      onClick={() => setOpen(true)}
      data-testid="sub-orders-open"
    >
      生成自制件订单
    </Button>
  );
  return (
    <>
      {data.refusal ? <Tooltip title={data.refusal}>{button}</Tooltip> : button}
      {open && <SubOrdersDialog order={order} plan={data} onClose={() => setOpen(false)} />}
    </>
  );
}

function SubOrdersDialog({
  order,
  plan,
  onClose,
}: {
  order: ResourceRow;
  plan: SubOrderPlan;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const make = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>(
        `/api/v1/production-order/sub-orders/${order.id}`,
        {},
      ),
    onSuccess: (r) => {
      toast.success(`已生成自制件订单 ${r.orders.map((o) => o.docNo).join('、')}（草稿），核对后下达`);
      invalidateResource(client, 'production-order');
      onClose();
    },
  });
  const late = plan.parts.filter((p) => p.late);
  return (
    <Modal
      open
      width={960}
      title={`生成自制件订单 · ${plan.order.docNo}`}
      okText={`生成自制件订单（${plan.parts.length} 张）`}
      onOk={() => make.mutate()}
      okButtonProps={{ loading: make.isPending, disabled: Boolean(plan.refusal) }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        BOM中带启用BOM的一级子件（套圈等自制件）按本订单的 MRP 运算生成生产订单（草稿）：数量为净需求（需求 −
        可用库存 −
        在途，按最小批量和批量倍数取整），不是毛需求；沿用本订单的销售订单、客户和备货单。本订单的物料需求改为需要这些自制件（库存部分由本订单预留），钢材由自制件订单预留。
        自制件订单在本订单计划开工（{plan.order.plannedStartDate}
        ）的前一天完工，按物料的提前期倒排；未设提前期的按工艺路线：最慢工序的标准工时 × 数量 ÷ 每班{' '}
        {plan.rule.shiftMinutes} 分钟，另加其余每道本厂工序 1 天、每道委外工序 {plan.rule.outsourcedDays}{' '}
        天；没有工艺路线按 {plan.rule.withoutRouteDays} 天；最早从今天开工。
      </Typography.Paragraph>
      {plan.refusal && <Alert type="warning" showIcon title={plan.refusal} style={{ marginBottom: 12 }} />}
      {late.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={`${late.map((p) => p.productName).join('、')} 从今天开工也来不及在本订单开工前完工，请调整本订单或自制件订单（草稿）的日期`}
        />
      )}
      <Table<Row>
        rowKey="productId"
        size="small"
        bordered
        pagination={false}
        dataSource={plan.parts}
        data-testid="sub-order-parts"
        columns={[
          { title: '产品编码', dataIndex: 'productCode', width: 150 },
          { title: '产品名称', dataIndex: 'productName', width: 160 },
          { title: '规格', dataIndex: 'productSpec', width: 120, ellipsis: true },
          { title: '净需求', dataIndex: 'net', width: 90, align: 'right', render: qty },
          { title: '数量', dataIndex: 'quantity', width: 90, align: 'right', render: qty },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          { title: '提前期(天)', dataIndex: 'leadDays', width: 90, align: 'right' },
          { title: '计划开工', dataIndex: 'plannedStartDate', width: 105 },
          {
            title: '计划完工',
            dataIndex: 'dueDate',
            width: 130,
            render: (v: string, p) => (
              <Space size={4}>
                {v}
                {p.late && <Tag color="red">晚于本订单开工</Tag>}
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}

/**
 * Where an order comes from and what it made: its parent order, sales order and 备货单 as links
 * (for whoever may read them), and its 自制件订单 with state and dates.
 */
export function OrderRelations({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const client = useQueryClient();
  const plan = usePlan(order);
  // The sales order and the 备货单 follow the order's state (生产中, 已完成): a page of theirs
  // already open reads them again.
  const { status, saleOrderId, stockUpOrderId } = order;
  useEffect(() => {
    if (!status) return;
    if (saleOrderId) invalidateResource(client, 'sale-order');
    if (stockUpOrderId) invalidateResource(client, 'stock-up-order');
  }, [client, status, saleOrderId, stockUpOrderId]);
  const made = plan.data?.made ?? [];
  const links: { label: string; name: unknown; open?: () => void }[] = [];
  const link = (label: string, id: unknown, name: unknown, path: string, permission: string) => {
    if (id == null) return;
    links.push({
      label,
      name: name ?? `#${id}`,
      open: can(permission) ? () => openResourcePage(path, Number(id)) : undefined,
    });
  };
  link('上级订单', order.parentOrderId, order.parentOrderName, ORDER_DETAIL, 'production:order:list');
  link(
    '销售订单',
    order.saleOrderId,
    order.saleOrderName,
    '/sale-manage/sale-order-detail',
    'sale:order:list',
  );
  link(
    '备货单',
    order.stockUpOrderId,
    order.stockUpOrderName,
    '/sale-manage/stock-up-detail',
    'sale:stockUp:list',
  );
  if (order.customerName) links.push({ label: '客户', name: order.customerName });
  if (!links.length && !made.length) return null;
  return (
    <div className="rk-form-section" data-testid="order-relations">
      <div className="rk-form-section-title">关联单据</div>
      {links.length > 0 && (
        <Space wrap size={16} style={{ marginBottom: made.length ? 8 : 0 }}>
          {links.map((l) => (
            <span key={l.label}>
              <span className="rm-muted">{l.label}：</span>
              {l.open ? <Typography.Link onClick={l.open}>{String(l.name)}</Typography.Link> : String(l.name)}
            </span>
          ))}
        </Space>
      )}
      {made.length > 0 && (
        <Table<Row>
          rowKey="id"
          size="small"
          bordered
          pagination={false}
          dataSource={made}
          title={() => '自制件订单'}
          data-testid="sub-orders"
          columns={[
            {
              title: '订单编号',
              dataIndex: 'docNo',
              width: 170,
              render: (v: string, r) => (
                <Typography.Link onClick={() => openResourcePage(ORDER_DETAIL, Number(r.id))}>
                  {v}
                </Typography.Link>
              ),
            },
            { title: '状态', dataIndex: 'status', width: 80, render: (v: string) => <StateTag status={v} /> },
            { title: '产品', dataIndex: 'productName', width: 180 },
            { title: '数量', dataIndex: 'quantity', width: 90, align: 'right', render: qty },
            { title: '计划开工', dataIndex: 'plannedStartDate', width: 105 },
            { title: '计划完工', dataIndex: 'dueDate', width: 105 },
          ]}
        />
      )}
    </div>
  );
}
