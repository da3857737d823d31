import { FileAddOutlined, NodeIndexOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Tooltip } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { LinePicker, quantityColumn, sentQuantity } from '../../platform/ui/line-picker.tsx';
import { qty } from '../warehouse/warehouse.api.ts';

const TRACKING = '/purchase/purchase-manage-detail';
const supplierField = { name: 'supplierId', label: '供应商', kind: 'ref' as const, ref: 'supplier' };
const materialField = { name: 'materialId', label: '物料', kind: 'ref' as const, ref: 'material-info' };

/** 采购订单 list with 从请购单生成: approved requisition lines become draft orders, one per supplier. */
export function PurchaseOrderListPage(props: ResourcePageProps) {
  const can = usePermission();
  const [picking, setPicking] = useState(false);
  return (
    <>
      <ResourceListPage
        {...props}
        toolbarExtra={
          <>
            {can('purchase:order:add') && (
              <Button icon={<FileAddOutlined />} onClick={() => setPicking(true)}>
                从请购单生成
              </Button>
            )}
            <Button icon={<NodeIndexOutlined />} onClick={() => openResourcePage(TRACKING)}>
              采购订单跟踪
            </Button>
          </>
        }
      />
      {picking && <RequisitionPicker onClose={() => setPicking(false)} />}
    </>
  );
}

interface Choice {
  quantity: string | number | null;
  supplierId?: number | null;
}

/** The open lines of approved requisitions; the chosen ones, with quantity and supplier, become orders. */
function RequisitionPicker({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [orderDate, setOrderDate] = useState<Dayjs>(dayjs());
  const missingSupplier = (chosen: Map<number, Choice>) => [...chosen.values()].some((c) => !c.supplierId);
  return (
    <LinePicker<Choice>
      title="从请购单生成采购订单"
      okText={(n) => `生成采购订单${n ? `（${n} 行）` : ''}`}
      url="/api/v1/purchase-requisition/open-lines"
      queryKey={['purchase-requisition', 'open-lines']}
      formName="req-pick"
      testId="requisition-open-lines"
      emptyText="没有待下单的请购明细（请购单需先审核）"
      filters={
        <>
          <Form.Item name="docNo" label="请购单号">
            <Input placeholder="QG…" allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="materialId" label="物料">
            <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="supplierId" label="建议供应商">
            <RefSelect field={supplierField} placeholder="全部" style={{ width: 200 }} />
          </Form.Item>
        </>
      }
      initial={(r) => ({ quantity: r.openQuantity, supplierId: r.supplierId })}
      blocked={missingSupplier}
      columns={(p) => [
        { title: '请购单号', dataIndex: 'docNo', width: 150 },
        // One 物料 column (code and spec on hover), so 本次下单 and 供应商 stay in the dialog at 1440 px.
        {
          title: '物料',
          dataIndex: 'materialName',
          width: 200,
          ellipsis: { showTitle: false },
          render: (v: string, r) => (
            <Tooltip title={[r.materialCode, v, r.materialSpec].filter(Boolean).join(' · ')}>
              <span>{v}</span>
            </Tooltip>
          ),
        },
        { title: '需求日期', dataIndex: 'requiredDate', width: 100 },
        { title: '请购', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
        { title: '已下单', dataIndex: 'orderedQuantity', width: 80, align: 'right', render: qty },
        { title: '单位', dataIndex: 'unitName', width: 56 },
        quantityColumn(p, { title: '本次下单', open: 'openQuantity', aria: '下单数量', format: qty }),
        {
          title: '供应商',
          key: 'supplier',
          width: 200,
          render: (_, r) =>
            p.chosen.has(r.lineId) ? (
              <RefSelect
                field={supplierField}
                placeholder="请选择供应商"
                style={{ width: 190 }}
                value={p.chosen.get(r.lineId)?.supplierId ?? undefined}
                onChange={(v) => p.set(r.lineId, { supplierId: v as number | null })}
              />
            ) : (
              (r.supplierName ?? <span className="rm-muted">未指定</span>)
            ),
        },
      ]}
      submit={(chosen) =>
        api.post('/api/v1/purchase-requisition/to-orders', {
          body: {
            orderDate: orderDate.format('YYYY-MM-DD'),
            lines: [...chosen].map(([requisitionLineId, c]) => ({
              requisitionLineId,
              quantity: sentQuantity(c.quantity),
              supplierId: c.supplierId ?? undefined,
            })),
          },
          silent: true,
        })
      }
      onDone={(answer) => {
        const { orders } = answer as ApiResult<'/api/v1/purchase-requisition/to-orders', 'post'>;
        toast.success(`已生成采购订单 ${orders.map((o) => o.docNo).join('、')}（草稿），请核对单价后审核`);
        void client.invalidateQueries({ queryKey: ['purchase-order'] });
        void client.invalidateQueries({ queryKey: ['purchase-requisition'] });
      }}
      footer={(chosen) => (
        <>
          <span>订单日期</span>
          <DatePicker value={orderDate} allowClear={false} onChange={(d) => d && setOrderDate(d)} />
          <span className="rm-muted">
            同一供应商的明细合并为一张采购订单；单价取该供应商上次采购价，没有则取物料标准成本。
            {missingSupplier(chosen) && <b className="rm-danger-text"> 请为每一行选择供应商。</b>}
          </span>
        </>
      )}
      onClose={onClose}
    />
  );
}
