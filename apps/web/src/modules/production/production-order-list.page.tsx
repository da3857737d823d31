import { FileAddOutlined, InboxOutlined } from '@ant-design/icons';
import { PRODUCTION_PRIORITY_OPTIONS } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import { LinePicker, quantityColumn, sentQuantity } from '../../platform/ui/line-picker.tsx';
import { qty } from '../warehouse/warehouse.api.ts';
import { DispatchButton } from './production-order-links.tsx';

const customerField = { name: 'customerId', label: '客户', kind: 'ref' as const, ref: 'customer' };
const materialField = { name: 'materialId', label: '产品', kind: 'ref' as const, ref: 'material-info' };

/**
 * 生产订单 list with 从销售订单生成 and 从备货单生成 (approved sales order or 备货单 lines become
 * draft production orders, one per line) and 派单 on each released or producing order.
 */
export function ProductionOrderListPage(props: ResourcePageProps) {
  const can = usePermission();
  const [picking, setPicking] = useState<'sale' | 'stock-up'>();
  return (
    <>
      <ResourceListPage
        {...props}
        rowActions={(row) => <DispatchButton order={row} link />}
        rowActionsWidth={48}
        toolbarExtra={
          can('production:order:add') && (
            <Space>
              <Button icon={<FileAddOutlined />} onClick={() => setPicking('sale')}>
                从销售订单生成
              </Button>
              <Button icon={<InboxOutlined />} onClick={() => setPicking('stock-up')}>
                从备货单生成
              </Button>
            </Space>
          )
        }
      />
      {picking === 'sale' && <SaleLinePicker onClose={() => setPicking(undefined)} />}
      {picking === 'stock-up' && <StockUpLinePicker onClose={() => setPicking(undefined)} />}
    </>
  );
}

/** Lines of approved sales orders with planned and unplanned quantities; the chosen ones become orders. */
function SaleLinePicker({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [start, setStart] = useState<Dayjs>(dayjs());
  const [priority, setPriority] = useState('normal');
  return (
    <LinePicker<{ quantity: string | number | null }>
      title="从销售订单生成生产订单"
      okText={(n) => `生成生产订单${n ? `（${n} 张）` : ''}`}
      url="/api/v1/production-order/sale-lines"
      queryKey={['production-order', 'sale-lines']}
      formName="sale-line-pick"
      testId="sale-open-lines"
      emptyText="没有待安排生产的销售订单明细（销售订单需先审核）"
      filters={
        <>
          <Form.Item name="docNo" label="销售订单号">
            <Input placeholder="XS…" allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="customerId" label="客户">
            <RefSelect field={customerField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="materialId" label="产品">
            <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
        </>
      }
      initial={(r) => ({ quantity: r.unplannedQuantity })}
      columns={(p) => [
        { title: '销售订单号', dataIndex: 'docNo', width: 150 },
        { title: '客户', dataIndex: 'customerName', width: 140, ellipsis: true },
        // One 产品 column (code on hover), so 本次生产 stays in the dialog at 1440 px.
        {
          title: '产品',
          dataIndex: 'materialName',
          width: 190,
          ellipsis: { showTitle: false },
          render: (v: string, r) => (
            <Tooltip title={[r.materialCode, v].filter(Boolean).join(' · ')}>
              <span>{v}</span>
            </Tooltip>
          ),
        },
        { title: '交货日期', dataIndex: 'deliveryDate', width: 100 },
        { title: '订购', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
        { title: '已计划', dataIndex: 'plannedQuantity', width: 80, align: 'right', render: qty },
        { title: '单位', dataIndex: 'unitName', width: 56 },
        quantityColumn(p, { title: '本次生产', open: 'unplannedQuantity', aria: '生产数量', format: qty }),
        {
          title: 'BOM',
          dataIndex: 'hasBom',
          width: 70,
          render: (v: boolean) => (v ? <Tag color="green">已启用</Tag> : <Tag color="red">无</Tag>),
        },
      ]}
      submit={(chosen) =>
        http.post<{ orders: { id: number; docNo: string }[] }>(
          '/api/v1/production-order/from-sale-lines',
          {
            plannedStartDate: start.format('YYYY-MM-DD'),
            priority,
            lines: [...chosen].map(([saleOrderLineId, c]) => ({
              saleOrderLineId,
              quantity: sentQuantity(c.quantity),
            })),
          },
          { silent: true },
        )
      }
      onDone={(answer) => {
        const { orders } = answer as { orders: { docNo: string }[] };
        toast.success(`已生成生产订单 ${orders.map((o) => o.docNo).join('、')}（草稿），核对后下达`);
        invalidateResource(client, 'production-order');
        void client.invalidateQueries({ queryKey: ['production-order'] });
      }}
      footer={() => (
        <>
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
        </>
      )}
      onClose={onClose}
    />
  );
}

/** Lines of approved 备货单 with planned and unplanned quantities; the chosen ones become orders. */
function StockUpLinePicker({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [start, setStart] = useState<Dayjs>(dayjs());
  const [priority, setPriority] = useState('normal');
  return (
    <LinePicker<{ quantity: string | number | null }>
      title="从备货单生成生产订单"
      okText={(n) => `生成生产订单${n ? `（${n} 张）` : ''}`}
      url="/api/v1/production-order/stock-up-lines"
      queryKey={['production-order', 'stock-up-lines']}
      formName="stock-up-line-pick"
      testId="stock-up-open-lines"
      emptyText="没有待安排生产的备货单明细（备货单需先审核）"
      filters={
        <>
          <Form.Item name="docNo" label="备货单号">
            <Input placeholder="BH…" allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="materialId" label="产品">
            <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
        </>
      }
      initial={(r) => ({ quantity: r.unplannedQuantity })}
      columns={(p) => [
        { title: '备货单号', dataIndex: 'docNo', width: 150 },
        { title: '备货说明', dataIndex: 'purpose', width: 140, ellipsis: true },
        { title: '产品编码', dataIndex: 'materialCode', width: 120 },
        { title: '产品名称', dataIndex: 'materialName', width: 140, ellipsis: true },
        { title: '完成日期', dataIndex: 'requiredDate', width: 100 },
        { title: '备货', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
        { title: '已排产', dataIndex: 'plannedQuantity', width: 80, align: 'right', render: qty },
        { title: '单位', dataIndex: 'unitName', width: 56 },
        quantityColumn(p, { title: '本次生产', open: 'unplannedQuantity', aria: '生产数量', format: qty }),
        {
          title: 'BOM',
          dataIndex: 'hasBom',
          width: 70,
          render: (v: boolean) => (v ? <Tag color="green">已启用</Tag> : <Tag color="red">无</Tag>),
        },
      ]}
      submit={(chosen) =>
        http.post<{ orders: { id: number; docNo: string }[] }>(
          '/api/v1/production-order/from-stock-up-lines',
          {
            plannedStartDate: start.format('YYYY-MM-DD'),
            priority,
            lines: [...chosen].map(([stockUpLineId, c]) => ({
              stockUpLineId,
              quantity: sentQuantity(c.quantity),
            })),
          },
          { silent: true },
        )
      }
      onDone={(answer) => {
        const { orders } = answer as { orders: { docNo: string }[] };
        toast.success(`已生成生产订单 ${orders.map((o) => o.docNo).join('、')}（草稿），核对后下达`);
        invalidateResource(client, 'production-order');
        invalidateResource(client, 'stock-up-order');
        void client.invalidateQueries({ queryKey: ['production-order'] });
      }}
      footer={() => (
        <>
          <span>计划开工</span>
          <DatePicker value={start} allowClear={false} onChange={(d) => d && setStart(d)} />
          <span>优先级</span>
          <Select
            value={priority}
            onChange={setPriority}
            style={{ width: 100 }}
            options={PRODUCTION_PRIORITY_OPTIONS.map((o) => ({ value: o.value, label: o.label }))}
          />
          <span className="rm-muted">每个备货单明细生成一张生产订单，计划完工取明细的完成日期。</span>
        </>
      )}
      onClose={onClose}
    />
  );
}
