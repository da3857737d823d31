import { FileAddOutlined } from '@ant-design/icons';
import { PRODUCTION_PRIORITY_OPTIONS } from '@ringmes/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import type { Page } from '../../platform/api/types.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { SearchForm } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { qty, type Row } from '../warehouse/warehouse.api.ts';

const customerField = { name: 'customerId', label: '客户', kind: 'ref' as const, ref: 'customer' };
const materialField = { name: 'materialId', label: '产品', kind: 'ref' as const, ref: 'material-info' };

/** 生产订单 list with 从销售订单生成: approved sales order lines become draft production orders, one per line. */
export function ProductionOrderListPage(props: ResourcePageProps) {
  const can = usePermission();
  const [picking, setPicking] = useState(false);
  return (
    <>
      <ResourceListPage
        {...props}
        toolbarExtra={
          can('production:order:add') && (
            <Button icon={<FileAddOutlined />} onClick={() => setPicking(true)}>
              从销售订单生成
            </Button>
          )
        }
      />
      {picking && <SaleLinePicker onClose={() => setPicking(false)} />}
    </>
  );
}

/** Lines of approved sales orders with planned and unplanned quantities; the chosen ones become orders. */
function SaleLinePicker({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [chosen, setChosen] = useState<Map<number, string | number | null>>(new Map());
  const [start, setStart] = useState<Dayjs>(dayjs());
  const [priority, setPriority] = useState('normal');
  const [error, setError] = useState<string>();
  const paged = useServerTable({ pageSize: 10 });
  const query = { ...filters, pageNum: paged.query.pageNum, pageSize: paged.query.pageSize };
  const page = useQuery({
    queryKey: ['production-order', 'sale-lines', query],
    queryFn: () => http.get<Page<Row>>('/api/v1/production-order/sale-lines', query),
    placeholderData: keepPreviousData,
  });
  const submit = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>(
        '/api/v1/production-order/from-sale-lines',
        {
          plannedStartDate: start.format('YYYY-MM-DD'),
          priority,
          lines: [...chosen].map(([saleOrderLineId, q]) => ({
            saleOrderLineId,
            quantity: q == null || q === '' ? undefined : String(q),
          })),
        },
        { silent: true },
      ),
    onSuccess: ({ orders }) => {
      toast.success(`已生成生产订单 ${orders.map((o) => o.docNo).join('、')}（草稿），核对后下达`);
      invalidateResource(client, 'production-order');
      void client.invalidateQueries({ queryKey: ['production-order'] });
      onClose();
    },
    onError: (e: Error) => setError(e.message),
  });
  const pick = (r: Row, on: boolean, m: Map<number, string | number | null>) => {
    if (on) m.set(r.lineId, r.unplannedQuantity);
    else m.delete(r.lineId);
  };
  return (
    <Modal
      open
      width={1080}
      title="从销售订单生成生产订单"
      okText={`生成生产订单${chosen.size ? `（${chosen.size} 张）` : ''}`}
      okButtonProps={{ disabled: !chosen.size }}
      confirmLoading={submit.isPending}
      onOk={() => {
        setError(undefined);
        submit.mutate();
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <SearchForm
        name="sale-line-pick"
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
        <Form.Item name="docNo" label="销售订单号">
          <Input placeholder="XS…" allowClear style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="customerId" label="客户">
          <RefSelect field={customerField} placeholder="全部" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="materialId" label="产品">
          <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
        </Form.Item>
      </SearchForm>
      <Table<Row>
        rowKey="lineId"
        size="small"
        data-testid="sale-open-lines"
        loading={page.isFetching}
        dataSource={page.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={paged.pagination(page.data?.total ?? 0)}
        onChange={paged.onChange}
        locale={{ emptyText: '没有待安排生产的销售订单明细（销售订单需先审核）' }}
        rowSelection={{
          selectedRowKeys: [...chosen.keys()],
          preserveSelectedRowKeys: true,
          onSelect: (r, on) =>
            setChosen((m) => {
              const next = new Map(m);
              pick(r, on, next);
              return next;
            }),
          onSelectAll: (on, _all, changed) =>
            setChosen((m) => {
              const next = new Map(m);
              for (const r of changed) pick(r, on, next);
              return next;
            }),
        }}
        columns={[
          { title: '销售订单号', dataIndex: 'docNo', width: 150 },
          { title: '客户', dataIndex: 'customerName', width: 160, ellipsis: true },
          { title: '产品编码', dataIndex: 'materialCode', width: 120 },
          { title: '产品名称', dataIndex: 'materialName', width: 140, ellipsis: true },
          { title: '交货日期', dataIndex: 'deliveryDate', width: 100 },
          { title: '订购', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
          { title: '已计划', dataIndex: 'plannedQuantity', width: 80, align: 'right', render: qty },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          {
            title: '本次生产',
            key: 'quantity',
            width: 120,
            render: (_, r) =>
              chosen.has(r.lineId) ? (
                <InputNumber
                  size="small"
                  min={0.0001}
                  max={Number(r.unplannedQuantity)}
                  precision={4}
                  style={{ width: '100%' }}
                  aria-label={`${r.docNo} ${r.materialName} 生产数量`}
                  value={chosen.get(r.lineId) as number}
                  onChange={(v) => setChosen((m) => new Map(m).set(r.lineId, v))}
                />
              ) : (
                qty(r.unplannedQuantity)
              ),
          },
          {
            title: 'BOM',
            dataIndex: 'hasBom',
            width: 70,
            render: (v: boolean) => (v ? <Tag color="green">已启用</Tag> : <Tag color="red">无</Tag>),
          },
        ]}
      />
      <Space style={{ marginTop: 12 }} wrap>
        <span>计划开工</span>
        <DatePicker value={start} allowClear={false} onChange={(d) => d && setStart(d)} />
        <span>优先级</span>
        <Select
          value={priority}
          onChange={setPriority}
          style={{ width: 100 }}
          options={PRODUCTION_PRIORITY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
        />
        <span className="rm-muted">每个销售订单明细生成一张生产订单，计划完工取明细的交货日期。</span>
      </Space>
    </Modal>
  );
}
