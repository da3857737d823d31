import { ReloadOutlined } from '@ant-design/icons';
import { PURCHASE_ORDER_LIFECYCLE } from '@ringmes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Switch, Table, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type ApiQuery, type ApiResult, api } from '../../platform/api/typed.ts';
import type { PageProps } from '../../platform/page.ts';
import { idFromSearch, openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { INBOUND, PURCHASE_RETURN, qty, typePaths } from '../warehouse/warehouse.api.ts';

const ORDER_DETAIL = '/purchase/purchase-detail';
const STATES = PURCHASE_ORDER_LIFECYCLE.states.filter((s) => s.value !== 'draft');
const DOC_STATUS: Record<string, [string, string]> = {
  draft: ['草稿', 'default'],
  posted: ['已过账', 'green'],
  reversed: ['已冲销', 'red'],
};

/** `GET /api/v1/purchase-order/tracking` (modules/purchase/tracking.ts on the server). */
type Tracking = ApiResult<'/api/v1/purchase-order/tracking'>;
type Line = Tracking['list'][number];
type Doc = Line['documents'][number];

const ref = (name: string, label: string, target: string) => ({
  name,
  label,
  kind: 'ref' as const,
  ref: target,
});

/**
 * 采购订单跟踪: per line of approved purchase orders what was ordered, received, returned and is
 * still open, late lines marked; a line expands into its 采购入库 and 采购退货出库 documents.
 * Opened from an order (`?id=`) it shows that order's lines.
 */
export function PurchaseTrackingPage(_: PageProps) {
  const [search] = useSearchParams();
  const orderId = idFromSearch(search);
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const paged = useServerTable();
  const { firstPage } = paged;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new order id starts from page 1
  useEffect(() => firstPage(), [orderId]);
  const query = {
    ...filters,
    orderId,
    open: filters.open ? '1' : undefined,
    late: filters.late ? '1' : undefined,
    pageNum: paged.query.pageNum,
    pageSize: paged.query.pageSize,
  };
  const page = useQuery({
    queryKey: ['purchase-order', 'tracking', query],
    queryFn: (): Promise<Tracking> =>
      api.get('/api/v1/purchase-order/tracking', {
        query: query as ApiQuery<'/api/v1/purchase-order/tracking'>,
      }),
    placeholderData: keepPreviousData,
  });
  const columns = [
    {
      title: '订单编号',
      dataIndex: 'docNo',
      width: 160,
      render: (v: string, r: Line) => (
        <Button type="link" size="small" onClick={() => openResourcePage(ORDER_DETAIL, r.orderId)}>
          {v}
        </Button>
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: string) => {
        const s = STATES.find((x) => x.value === v);
        return <Tag color={s?.color}>{s?.label ?? v}</Tag>;
      },
    },
    { title: '供应商', dataIndex: 'supplierName', width: 170, ellipsis: true },
    { title: '行', dataIndex: 'lineNo', width: 50, align: 'center' as const },
    { title: '物料编码', dataIndex: 'materialCode', width: 120 },
    { title: '物料名称', dataIndex: 'materialName', width: 140, ellipsis: true },
    {
      title: '交货日期',
      dataIndex: 'deliveryDate',
      width: 110,
      render: (v: string, r: Line) =>
        r.late ? (
          <Tooltip title="已过交货日期仍未到齐">
            <Tag color="red">{v} 逾期</Tag>
          </Tooltip>
        ) : (
          v
        ),
    },
    { title: '订购', dataIndex: 'baseQuantity', width: 90, align: 'right' as const, render: qty },
    { title: '已入库', dataIndex: 'receivedQuantity', width: 90, align: 'right' as const, render: qty },
    { title: '已退货', dataIndex: 'returnedQuantity', width: 90, align: 'right' as const, render: qty },
    {
      title: '未到',
      dataIndex: 'openQuantity',
      width: 90,
      align: 'right' as const,
      render: (v: string) => <b>{qty(v)}</b>,
    },
    { title: '单位', dataIndex: 'unitName', width: 60 },
  ];
  return (
    <>
      <PageCard>
        <SearchForm
          name="po-tracking"
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
          <Form.Item name="docNo" label="订单编号">
            <Input placeholder="CG…" allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="supplierId" label="供应商">
            <RefSelect
              field={ref('supplierId', '供应商', 'supplier')}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="materialId" label="物料">
            <RefSelect
              field={ref('materialId', '物料', 'material-info')}
              placeholder="全部"
              style={{ width: 200 }}
            />
          </Form.Item>
          <Form.Item name="status" label="订单状态">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 120 }}
              options={STATES.map((s) => ({ value: s.value, label: s.label }))}
            />
          </Form.Item>
          <Form.Item name="open" label="只看未到齐" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="late" label="只看逾期" valuePropName="checked">
            <Switch />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <span className="rm-muted">
              {orderId ? '当前只显示所选订单的明细；' : ''}数量按物料的基本单位，展开一行查看其入库和退货单据
            </span>
          }
          right={<Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => void page.refetch()} />}
        />
        <Table<Line>
          rowKey="lineId"
          size="middle"
          data-testid="purchase-tracking-table"
          loading={page.isFetching}
          dataSource={page.data?.list ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          pagination={paged.pagination(page.data?.total ?? 0)}
          onChange={paged.onChange}
          locale={{ emptyText: '没有已审核的采购订单明细' }}
          expandable={{
            rowExpandable: (r) => r.documents.length > 0,
            expandedRowRender: (r) => <DocumentTrail docs={r.documents} />,
          }}
        />
      </PageCard>
    </>
  );
}

/** The stock documents made against one order line, each opening its detail page. */
function DocumentTrail({ docs }: { docs: Doc[] }) {
  return (
    <Table<Doc>
      rowKey={(d) => `${d.kind}-${d.id}`}
      size="small"
      pagination={false}
      dataSource={docs}
      style={{ maxWidth: 720 }}
      columns={[
        {
          title: '单据',
          dataIndex: 'docNo',
          render: (v: string, d) => (
            <Button
              type="link"
              size="small"
              onClick={() =>
                openResourcePage(
                  typePaths(d.kind === 'inbound' ? INBOUND : PURCHASE_RETURN, d.type).detail,
                  d.id,
                )
              }
            >
              {v}
            </Button>
          ),
        },
        {
          title: '类型',
          dataIndex: 'kind',
          render: (k: string) => (k === 'inbound' ? '采购入库' : '采购退货出库'),
        },
        { title: '业务日期', dataIndex: 'bizDate' },
        {
          title: '状态',
          dataIndex: 'status',
          render: (s: string) => <Tag color={DOC_STATUS[s]?.[1]}>{DOC_STATUS[s]?.[0] ?? s}</Tag>,
        },
        {
          title: '数量',
          dataIndex: 'quantity',
          align: 'right',
          render: (v: string, d) => (d.kind === 'outbound' ? `-${qty(v)}` : qty(v)),
        },
      ]}
    />
  );
}
