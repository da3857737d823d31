import { ShoppingCartOutlined } from '@ant-design/icons';
import { PRODUCTION_ORDER_RESERVING, type ResourceDef } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { qty, type Row } from '../warehouse/warehouse.api.ts';
import { OrderFlowCards } from './flow-card/order-flow-cards.tsx';
import { OrderCostSection } from './production-order-cost.tsx';
import { DispatchButton, MrpButton } from './production-order-links.tsx';
import { OrderRelations, SubOrdersButton } from './sub-orders.tsx';

const REQUISITION_DETAIL = '/production-department/buying-requisition-detail';

interface Requirements {
  list: Row[];
  requisitions: { id: number; docNo: string; status: string }[];
}

const positive = (v: unknown) => Number(v) > 0;

/**
 * 生产订单详情: the kit's detail (header, frozen BOM and route) with the material requirements as
 * they stand now — required, issued, free stock, shortage — and 生成请购单 of the order's MRP planned
 * purchases (待请购); the MRP sheet a button away; and
 * its 流转卡 (开卡, 拆分, 合并) in a second tab, its actual 成本 in a third; 派单 and 生成自制件订单 once released, and the orders
 * it is linked to (parent, sales order, 备货单, its 自制件订单).
 */
export function ProductionOrderDetailPage(props: ResourcePageProps) {
  const can = usePermission();
  // The frozen requirement rows show in the live section below, not as a plain line table.
  const def: ResourceDef = useMemo(
    () => ({ ...props.def, lines: props.def.lines?.filter((l) => l.name !== 'materials') }),
    [props.def],
  );
  return (
    <ResourceDetailPage
      {...props}
      def={def}
      actions={(row) => (
        <>
          <MrpButton order={row} />
          <SubOrdersButton order={row} />
          <DispatchButton order={row} />
        </>
      )}
      sections={(row) => (
        <>
          <OrderRelations order={row} />
          <Tabs
            items={[
              { key: 'requirements', label: '物料需求', children: <RequirementsSection order={row} /> },
              { key: 'flow-cards', label: '流转卡', children: <OrderFlowCards order={row} /> },
              ...(can('production:order:cost') && row.status !== 'draft'
                ? [{ key: 'cost', label: '成本', children: <OrderCostSection order={row} /> }]
                : []),
            ]}
          />
        </>
      )}
    />
  );
}

function RequirementsSection({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const client = useQueryClient();
  const key = ['resource', 'production-order', 'requirements', order.id, order.version];
  const data = useQuery({
    queryKey: key,
    queryFn: () => http.get<Requirements>(`/api/v1/production-order/requirements/${order.id}`),
    enabled: order.status !== 'draft',
  });
  const make = useMutation({
    mutationFn: () =>
      http.post<{ id: number; docNo: string }>(`/api/v1/production-order/to-requisition/${order.id}`, {}),
    onSuccess: (r) => {
      toast.success(`已生成请购单 ${r.docNo}（草稿），请审核后交采购`);
      invalidateResource(client, 'production-order');
      invalidateResource(client, 'purchase-requisition');
    },
  });
  if (order.status === 'draft') {
    return (
      <div className="rk-form-section">
        <div className="rk-form-section-title">物料需求</div>
        <Alert
          type="info"
          showIcon
          title="下达时按BOM逐层净算物料需求（MRP）：每层先扣可用库存和在途，再按净需求展开下一层，并与可用库存比对得出缺料。点「MRP运算表」预览。"
        />
      </div>
    );
  }
  const list = data.data?.list ?? [];
  const short = list.filter((r) => positive(r.shortageQuantity));
  const pending = list.some((r) => positive(r.toRequisition));
  const holding = PRODUCTION_ORDER_RESERVING.includes(order.status);
  return (
    <div className="rk-form-section" data-testid="production-requirements">
      <div className="rk-form-section-title">
        物料需求<span className="rk-count">{list.length}</span>
      </div>
      <Space style={{ marginBottom: 8 }} wrap>
        {short.length ? (
          <Tag color="red" data-testid="shortage-count">
            缺料 {short.length} 项
          </Tag>
        ) : (
          <Tag color="green">下达时无缺料</Tag>
        )}
        {holding && can('production:requisition:add') && (
          <Popconfirm
            title="为缺料生成请购单？"
            description="按本订单 MRP 运算的计划采购（扣除可用库存和在途、已请购，按批量取整）生成一张请购单（草稿）。"
            onConfirm={() => make.mutate()}
            disabled={!pending}
          >
            <Button
              type="primary"
              icon={<ShoppingCartOutlined />}
              disabled={!pending}
              loading={make.isPending}
            >
              生成请购单
            </Button>
          </Popconfirm>
        )}
        {(data.data?.requisitions ?? []).map((r) => (
          <Button
            key={r.id}
            type="link"
            size="small"
            onClick={() => openResourcePage(REQUISITION_DETAIL, r.id)}
          >
            {r.docNo}
          </Button>
        ))}
      </Space>
      <Table<Row>
        rowKey="id"
        size="small"
        bordered
        loading={data.isFetching}
        dataSource={list}
        pagination={list.length > 50 ? { pageSize: 50, size: 'small' } : false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '物料编码', dataIndex: 'materialCode', width: 130 },
          { title: '物料名称', dataIndex: 'materialName', width: 150, ellipsis: true },
          { title: '规格', dataIndex: 'materialSpec', width: 110, ellipsis: true },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          { title: '需求', dataIndex: 'requiredQuantity', width: 90, align: 'right', render: qty },
          { title: '已领料', dataIndex: 'issuedQuantity', width: 90, align: 'right', render: qty },
          { title: '下达时预留', dataIndex: 'reservedQuantity', width: 100, align: 'right', render: qty },
          {
            title: '下达时缺料',
            dataIndex: 'shortageQuantity',
            width: 100,
            align: 'right',
            render: (v) =>
              positive(v) ? (
                <Typography.Text type="danger" strong>
                  {qty(v)}
                </Typography.Text>
              ) : (
                qty(v)
              ),
          },
          { title: '现有库存', dataIndex: 'onHand', width: 90, align: 'right', render: qty },
          { title: '其他订单占用', dataIndex: 'reservedByOthers', width: 110, align: 'right', render: qty },
          {
            title: '当前缺料',
            dataIndex: 'currentShortage',
            width: 90,
            align: 'right',
            render: (v) =>
              positive(v) ? (
                <Typography.Text type="danger" strong>
                  {qty(v)}
                </Typography.Text>
              ) : (
                qty(v)
              ),
          },
          { title: '已请购', dataIndex: 'requisitionedQuantity', width: 90, align: 'right', render: qty },
          { title: '待请购', dataIndex: 'toRequisition', width: 90, align: 'right', render: qty },
        ]}
      />
    </div>
  );
}
