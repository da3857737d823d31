import { FileAddOutlined, NodeIndexOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, Input, InputNumber, Modal, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import type { Page } from '../../platform/api/types.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import { ResourceListPage } from '../../platform/resource/resource-list.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { SearchForm } from '../../platform/ui/search-form.tsx';
import { useServerTable } from '../../platform/ui/server-table.ts';
import { qty, type Row } from '../warehouse/warehouse.api.ts';

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
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [chosen, setChosen] = useState<Map<number, Choice>>(new Map());
  const [orderDate, setOrderDate] = useState<Dayjs>(dayjs());
  const [error, setError] = useState<string>();
  const paged = useServerTable({ pageSize: 10 });
  const query = { ...filters, pageNum: paged.query.pageNum, pageSize: paged.query.pageSize };
  const page = useQuery({
    queryKey: ['purchase-requisition', 'open-lines', query],
    queryFn: () => http.get<Page<Row>>('/api/v1/purchase-requisition/open-lines', query),
    placeholderData: keepPreviousData,
  });
  const set = (id: number, patch: Partial<Choice>) =>
    setChosen((m) => new Map(m).set(id, { ...(m.get(id) as Choice), ...patch }));
  const submit = useMutation({
    mutationFn: () =>
      http.post<{ orders: { id: number; docNo: string }[] }>(
        '/api/v1/purchase-requisition/to-orders',
        {
          orderDate: orderDate.format('YYYY-MM-DD'),
          lines: [...chosen].map(([requisitionLineId, c]) => ({
            requisitionLineId,
            quantity: c.quantity == null || c.quantity === '' ? undefined : String(c.quantity),
            supplierId: c.supplierId ?? undefined,
          })),
        },
        { silent: true },
      ),
    onSuccess: ({ orders }) => {
      toast.success(`已生成采购订单 ${orders.map((o) => o.docNo).join('、')}（草稿），请核对单价后审核`);
      void client.invalidateQueries({ queryKey: ['purchase-order'] });
      void client.invalidateQueries({ queryKey: ['purchase-requisition'] });
      onClose();
    },
    onError: (e: Error) => setError(e.message),
  });
  const missingSupplier = [...chosen.values()].some((c) => !c.supplierId);
  return (
    <Modal
      open
      width={1080}
      title="从请购单生成采购订单"
      okText={`生成采购订单${chosen.size ? `（${chosen.size} 行）` : ''}`}
      okButtonProps={{ disabled: !chosen.size || missingSupplier }}
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
        name="req-pick"
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
        <Form.Item name="docNo" label="请购单号">
          <Input placeholder="QG…" allowClear style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="materialId" label="物料">
          <RefSelect field={materialField} placeholder="全部" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="supplierId" label="建议供应商">
          <RefSelect field={supplierField} placeholder="全部" style={{ width: 200 }} />
        </Form.Item>
      </SearchForm>
      <Table<Row>
        rowKey="lineId"
        size="small"
        data-testid="requisition-open-lines"
        loading={page.isFetching}
        dataSource={page.data?.list ?? []}
        scroll={{ x: 'max-content' }}
        pagination={paged.pagination(page.data?.total ?? 0)}
        onChange={paged.onChange}
        locale={{ emptyText: '没有待下单的请购明细（请购单需先审核）' }}
        rowSelection={{
          selectedRowKeys: [...chosen.keys()],
          preserveSelectedRowKeys: true,
          onSelect: (r, on) =>
            setChosen((m) => {
              const next = new Map(m);
              if (on) next.set(r.lineId, { quantity: r.openQuantity, supplierId: r.supplierId });
              else next.delete(r.lineId);
              return next;
            }),
          onSelectAll: (on, _all, changed) =>
            setChosen((m) => {
              const next = new Map(m);
              for (const r of changed) {
                if (on) next.set(r.lineId, { quantity: r.openQuantity, supplierId: r.supplierId });
                else next.delete(r.lineId);
              }
              return next;
            }),
        }}
        columns={[
          { title: '请购单号', dataIndex: 'docNo', width: 150 },
          { title: '物料编码', dataIndex: 'materialCode', width: 120 },
          { title: '物料名称', dataIndex: 'materialName', width: 140, ellipsis: true },
          { title: '规格', dataIndex: 'materialSpec', width: 110, ellipsis: true },
          { title: '需求日期', dataIndex: 'requiredDate', width: 100 },
          { title: '请购', dataIndex: 'baseQuantity', width: 80, align: 'right', render: qty },
          { title: '已下单', dataIndex: 'orderedQuantity', width: 80, align: 'right', render: qty },
          { title: '单位', dataIndex: 'unitName', width: 56 },
          {
            title: '本次下单',
            key: 'quantity',
            width: 120,
            render: (_, r) =>
              chosen.has(r.lineId) ? (
                <InputNumber
                  size="small"
                  min={0.0001}
                  max={Number(r.openQuantity)}
                  precision={4}
                  style={{ width: '100%' }}
                  aria-label={`${r.docNo} ${r.materialName} 下单数量`}
                  value={chosen.get(r.lineId)?.quantity as number}
                  onChange={(v) => set(r.lineId, { quantity: v })}
                />
              ) : (
                qty(r.openQuantity)
              ),
          },
          {
            title: '供应商',
            key: 'supplier',
            width: 200,
            render: (_, r) =>
              chosen.has(r.lineId) ? (
                <RefSelect
                  field={supplierField}
                  placeholder="请选择供应商"
                  style={{ width: 190 }}
                  value={chosen.get(r.lineId)?.supplierId ?? undefined}
                  onChange={(v) => set(r.lineId, { supplierId: v as number | null })}
                />
              ) : (
                (r.supplierName ?? <span className="rm-muted">未指定</span>)
              ),
          },
        ]}
      />
      <Space style={{ marginTop: 12 }} wrap>
        <span>订单日期</span>
        <DatePicker value={orderDate} allowClear={false} onChange={(d) => d && setOrderDate(d)} />
        <span className="rm-muted">
          同一供应商的明细合并为一张采购订单；单价取该供应商上次采购价，没有则取物料标准成本。
          {missingSupplier && <b className="rm-danger-text"> 请为每一行选择供应商。</b>}
        </span>
      </Space>
    </Modal>
  );
}
