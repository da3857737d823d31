import {
  type EnumOption,
  PRODUCTION_ORDER_LIFECYCLE,
  productionOrderResource,
  STOCK_DOC_STATUS,
  stockInboundResource,
  stockOutboundResource,
} from '@ringmes/domain';
import { useQuery } from '@tanstack/react-query';
import { Button, Table, Tag, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission, useRecordPermission } from '../../platform/auth/permission.tsx';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { type ResourceRow, resourceKeys } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import { useRecord } from '../../platform/resource/resource-detail.tsx';
import { ResourceFormPage } from '../../platform/resource/resource-form.page.tsx';
import { type ResourcePageProps, resourceRoutes } from '../../platform/resource/routes.ts';
import { INBOUND, OUTBOUND, qty, typePaths } from '../warehouse/warehouse.api.ts';
import { SaleOrderAttachments } from './sale-order-attachments.tsx';
import { SaleOrderLinePricing } from './sale-order-line-pricing.tsx';

/** `GET /api/v1/sale-order/progress/{id}`: per-line figures (base unit) and the documents made against the order. */
type Progress = ApiResult<'/api/v1/sale-order/progress/{id}'>;
type DocumentKind = Progress['documents'][number]['kind'];

interface KindInfo {
  label: string;
  states: EnumOption[];
  /** The document's detail page. */
  detail: () => string | undefined;
}

const KINDS: Record<DocumentKind, KindInfo> = {
  'sales-outbound': {
    label: '销售出库',
    states: STOCK_DOC_STATUS,
    detail: () => typePaths(OUTBOUND, 'sales').detail,
  },
  'sales-return': {
    label: '销售退货入库',
    states: STOCK_DOC_STATUS,
    detail: () => typePaths(INBOUND, 'sales-return').detail,
  },
  'production-order': {
    label: '生产订单',
    states: PRODUCTION_ORDER_LIFECYCLE.states,
    detail: () => resourceRoutes(productionOrderResource).detail,
  },
};

const positive = (v: unknown) => Number(v) > 0;

/**
 * 销售订单详情: the kit's detail (header, lines, 审核/反审核/关闭) with 订单执行 — per line ordered,
 * planned in production orders, in stock, shipped and owed —, 关联单据 (its 销售出库, 销售退货入库 and
 * 生产订单, each opening its own detail) and 附件.
 */
export function SaleOrderDetailPage(props: ResourcePageProps) {
  return (
    <ResourceDetailPage
      {...props}
      sections={(row) => (
        <>
          <OrderProgress order={row} />
          <SaleOrderAttachments orderId={Number(row.id)} status={String(row.status)} />
        </>
      )}
    />
  );
}

/** 编辑销售订单: the kit's form with the order's 附件 (uploaded at once, apart from 保存). */
export function SaleOrderFormPage(props: ResourcePageProps) {
  const [search] = useSearchParams();
  const id = idFromSearch(search);
  const record = useRecord(props.def, id);
  return (
    <ResourceFormPage
      {...props}
      extra={
        <>
          <SaleOrderLinePricing orderId={id} />
          {id && record.data ? (
            <SaleOrderAttachments orderId={id} status={String(record.data.status)} />
          ) : undefined}
        </>
      }
    />
  );
}

function OrderProgress({ order }: { order: ResourceRow }) {
  const can = usePermission();
  const mayOutbound = useRecordPermission(stockOutboundResource);
  const mayInbound = useRecordPermission(stockInboundResource);
  const progress = useQuery({
    queryKey: [...resourceKeys.all('sale-order'), 'progress', order.id, order.version],
    queryFn: () => api.get('/api/v1/sale-order/progress/{id}', { path: { id: Number(order.id) } }),
  });
  const mayOpen: Record<DocumentKind, boolean> = {
    'sales-outbound': mayOutbound('list', 'sales'),
    'sales-return': mayInbound('list', 'sales-return'),
    'production-order': can('production:order:list'),
  };
  const lines = progress.data?.lines ?? [];
  const documents = progress.data?.documents ?? [];
  const figure = (title: string, dataIndex: string, tone?: 'owed') => ({
    title,
    dataIndex,
    width: 100,
    align: 'right' as const,
    render: (v: unknown) =>
      tone === 'owed' && positive(v) && order.status !== 'closed' ? (
        <Typography.Text type="warning" strong>
          {qty(v)}
        </Typography.Text>
      ) : (
        qty(v)
      ),
  });

  return (
    <>
      <div className="rk-form-section" data-testid="sale-order-progress">
        <div className="rk-form-section-title">订单执行</div>
        <Table<Progress['lines'][number]>
          rowKey="lineId"
          size="small"
          bordered
          loading={progress.isLoading}
          dataSource={lines}
          pagination={lines.length > 50 ? { pageSize: 50, size: 'small' } : false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '序号', dataIndex: 'lineNo', width: 56, align: 'center' },
            { title: '产品编码', dataIndex: 'materialCode', width: 130 },
            { title: '产品名称', dataIndex: 'materialName', width: 150, ellipsis: true },
            { title: '规格', dataIndex: 'materialSpec', width: 110, ellipsis: true },
            { title: '基本单位', dataIndex: 'unitName', width: 80 },
            figure('订购', 'baseQuantity'),
            figure('已计划', 'plannedQuantity'),
            figure('库存', 'stockQuantity'),
            figure('已发货', 'shippedQuantity'),
            figure('欠发', 'owedQuantity', 'owed'),
          ]}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          数量均为基本单位。已计划：生产订单数量（已关闭的计其已完工数量）；库存：全部仓库的合格库存；欠发：订购减已发货。
        </Typography.Text>
      </div>
      <div className="rk-form-section" data-testid="sale-order-documents">
        <div className="rk-form-section-title">
          关联单据<span className="rk-count">{documents.length}</span>
        </div>
        <Table<Progress['documents'][number]>
          rowKey={(d) => `${d.kind}-${d.id}`}
          size="small"
          bordered
          loading={progress.isLoading}
          dataSource={documents}
          pagination={documents.length > 50 ? { pageSize: 50, size: 'small' } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: '还没有生产订单、出库或退货单据' }}
          columns={[
            { title: '单据类型', dataIndex: 'kind', width: 120, render: (k: DocumentKind) => KINDS[k].label },
            {
              title: '单据编号',
              dataIndex: 'docNo',
              width: 170,
              render: (docNo: string, d) => {
                const path = KINDS[d.kind].detail();
                return path && mayOpen[d.kind] ? (
                  <Button
                    type="link"
                    size="small"
                    style={{ padding: 0 }}
                    onClick={() => openResourcePage(path, d.id)}
                  >
                    {docNo}
                  </Button>
                ) : (
                  docNo
                );
              },
            },
            { title: '日期', dataIndex: 'date', width: 110 },
            {
              title: '状态',
              dataIndex: 'status',
              width: 90,
              render: (s: string, d) => {
                const state = KINDS[d.kind].states.find((x) => x.value === s);
                return <Tag color={state?.color}>{state?.label ?? s}</Tag>;
              },
            },
            { title: '数量(基本单位)', dataIndex: 'quantity', width: 120, align: 'right', render: qty },
          ]}
        />
      </div>
    </>
  );
}
