import { ReloadOutlined } from '@ant-design/icons';
import { precisionRule, precisionStep } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Form,
  InputNumber,
  Modal,
  Popconfirm,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { http } from '../../platform/api/client.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { formatTime } from '../../platform/lib/time.ts';
import type { PageProps } from '../../platform/page.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { unitPrecisionRule, useCountingUnit } from '../../platform/resource/unit-precision.tsx';
import { loadOptions, type RefOption } from '../../platform/resource/use-options.ts';
import { PageCard } from '../../platform/ui/page-card.tsx';
import { qty } from '../warehouse/warehouse.api.ts';
import { FlowCardDrawer } from './flow-card/index.ts';

const INFO = '/production-department/produce-outsourcing/info';

type Row = Record<string, any>;
const STATES = [
  { value: '', label: '全部' },
  { value: 'waiting', label: '待发出' },
  { value: 'out', label: '在外' },
  { value: 'done', label: '已收回' },
];
const TAG: Record<string, [string, string]> = {
  waiting: ['待发出', 'orange'],
  out: ['在外', 'blue'],
  done: ['已收回', 'green'],
};
/** Supplier classes whose suppliers work for us (热处理外协, 委外加工): the only ones 发出 offers. */
export const OUTSOURCING_CLASS = /热处理|外协|委外|外包/;

/**
 * 委外供应商 of the send dialog: the suppliers of the heat-treatment / outsourcing classes of
 * 供应商分类 (steel, balls, seals… are never sent pieces to), searched on the server.
 */
function OutsourcingSupplierSelect({
  id,
  value,
  onChange,
}: {
  id?: string;
  value?: number;
  onChange?: (v: number | undefined) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: ['resource', 'supplier', 'options', 'outsourcing', keyword],
    queryFn: async () => {
      const classes = (await loadOptions('supplier-classify')).filter((c) =>
        OUTSOURCING_CLASS.test(String(c.name ?? c.label)),
      );
      const lists = await Promise.all(
        classes.map((c) =>
          loadOptions('supplier', { classifyId: c.value, keyword: keyword || undefined, limit: 50 }),
        ),
      );
      return lists.flat().sort((a, b) => String(a.code ?? '').localeCompare(String(b.code ?? '')));
    },
  });
  return (
    <Select<number, RefOption>
      id={id}
      value={value}
      onChange={onChange}
      options={q.data ?? []}
      allowClear
      showSearch={{ filterOption: false, onSearch: (v) => setKeyword(v.trim()) }}
      loading={q.isLoading}
      placeholder="选择热处理供应商"
      notFoundContent={q.isLoading ? '加载中…' : '没有热处理/外协类供应商，请在供应商分类中维护'}
      data-testid="outsourcing-supplier"
    />
  );
}

/**
 * 生产委外: the flow cards' outsourced steps (热处理) — 发出 what arrived (quantity, weight,
 * supplier; on a new 委外订单 at a processing price, or onto an open one), 收回 with the hardness
 * found (the pieces go on to the next step), and 差异核销 of what never came back. Each posts its
 * 委外发料出库 / 委外入库; 详情 opens 生产委外详情 with them, the card number opens the card.
 */
export function ProduceOutsourcingPage(_: PageProps) {
  const can = usePermission();
  const client = useQueryClient();
  const [state, setState] = useState('');
  const [acting, setActing] = useState<{ row: Row; action: 'send' | 'return' }>();
  const [viewing, setViewing] = useState<number>();
  const [form] = Form.useForm();
  // The card's pieces count in its product's unit (no 10.5 件 sent: unit precision).
  const unit = useCountingUnit(acting?.row.productId, undefined);
  const list = useQuery({
    queryKey: ['resource', 'flow-card', 'outsourced', state],
    queryFn: () => http.get<{ list: Row[] }>('/api/v1/flow-card/outsourced', state ? { state } : {}),
  });
  const act = useMutation({
    mutationFn: ({ id, body }: { id: number; body: Record<string, unknown> }) =>
      http.post(`/api/v1/flow-card/outsource/${id}`, body),
    onSuccess: () => {
      toast.success('已保存');
      setActing(undefined);
      form.resetFields();
      void client.invalidateQueries({ queryKey: ['resource', 'flow-card'] });
    },
  });
  const editable = can(['production:outsourcing:edit', 'production:order:dispatch']);
  const supplierId = Form.useWatch('supplierId', form);
  const orders = useQuery({
    queryKey: ['resource', 'flow-card', 'outsourcing-orders', acting?.row.stepId, supplierId],
    enabled: acting?.action === 'send' && Boolean(supplierId),
    queryFn: () =>
      http.get<{ list: Row[] }>(`/api/v1/flow-card/outsourcing-orders/${acting?.row.stepId}`, { supplierId }),
  });
  const open = (row: Row, action: 'send' | 'return') => {
    form.setFieldsValue(
      action === 'send'
        ? {
            quantity: Number(row.inputQuantity) - Number(row.sentQuantity),
            supplierId: row.supplierId ?? undefined,
          }
        : { quantity: Number(row.sentQuantity) - Number(row.returnedQuantity) - Number(row.writtenOff) },
    );
    setActing({ row, action });
  };
  return (
    <PageCard
      title="生产委外"
      extra={
        <Space>
          <Segmented options={STATES} value={state} onChange={(v) => setState(String(v))} />
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={() => list.refetch()} />
          </Tooltip>
        </Space>
      }
    >
      <Table<Row>
        rowKey="stepId"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{ pageSize: 50, showTotal: (n) => `共 ${n} 条` }}
        scroll={{ x: 1940 }}
        columns={[
          {
            title: '流转卡',
            dataIndex: 'cardNo',
            width: 150,
            fixed: 'left',
            render: (v, r) => (
              <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setViewing(r.cardId)}>
                {v}
              </Button>
            ),
          },
          {
            title: '状态',
            dataIndex: 'state',
            width: 80,
            render: (v) => <Tag color={TAG[v]?.[1]}>{TAG[v]?.[0]}</Tag>,
          },
          // At 1440 px what a planner acts on comes first: the product and step, 发出 / 收回 and the
          // supplier; the order, heat, weights and times follow (scroll right).
          {
            title: '产品',
            width: 190,
            ellipsis: true,
            render: (_, r) => `${r.productName} ${r.productSpec ?? ''}`,
          },
          { title: '工序', width: 110, ellipsis: true, render: (_, r) => `${r.seq} ${r.processName}` },
          { title: '到达', dataIndex: 'inputQuantity', width: 70, align: 'right', render: qty },
          { title: '发出', dataIndex: 'sentQuantity', width: 70, align: 'right', render: qty },
          { title: '收回', dataIndex: 'returnedQuantity', width: 70, align: 'right', render: qty },
          { title: '核销', dataIndex: 'writtenOff', width: 60, align: 'right', render: qty },
          { title: '供应商', dataIndex: 'supplierName', width: 140, ellipsis: true },
          { title: '炉号', dataIndex: 'heatNo', width: 100 },
          { title: '生产订单', dataIndex: 'orderNo', width: 150 },
          { title: '委外订单', dataIndex: 'outsourcingOrderNo', width: 160, render: (v) => v ?? '—' },
          {
            title: '重量(kg)',
            dataIndex: 'sentWeight',
            width: 100,
            align: 'right',
            render: (v) => (v ? qty(v) : '—'),
          },
          { title: '硬度(HRC)', dataIndex: 'hardnessHrc', width: 100, render: (v) => v ?? '—' },
          { title: '发出时间', dataIndex: 'inTime', width: 170, render: (v) => (v ? formatTime(v) : '—') },
          {
            title: '操作',
            width: 180,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => openResourcePage(INFO, r.stepId)}>
                  详情
                </Button>
                {editable && r.current && (
                  <>
                    {r.state === 'waiting' && (
                      <Button type="link" size="small" onClick={() => open(r, 'send')}>
                        发出
                      </Button>
                    )}
                    {r.state === 'out' && (
                      <Button type="link" size="small" onClick={() => open(r, 'return')}>
                        收回
                      </Button>
                    )}
                    {r.state === 'out' && Number(r.returnedQuantity) > 0 && (
                      <Popconfirm
                        title="差异核销"
                        description="在外未回的数量计为料废，流转卡转入下道工序。确定核销？"
                        okText="核销"
                        cancelText="取消"
                        onConfirm={() =>
                          act
                            .mutateAsync({ id: r.cardId, body: { action: 'reconcile' } })
                            .catch(() => undefined)
                        }
                      >
                        <Button type="link" size="small" danger>
                          差异核销
                        </Button>
                      </Popconfirm>
                    )}
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={Boolean(acting)}
        title={
          acting ? `${acting.action === 'send' ? '委外发出' : '委外收回'} · ${acting.row.cardNo}` : undefined
        }
        okText={acting?.action === 'send' ? '发出' : '收回'}
        confirmLoading={act.isPending}
        onCancel={() => setActing(undefined)}
        onOk={() =>
          form
            .validateFields()
            .then((v) =>
              act.mutateAsync({
                id: acting?.row.cardId,
                body: {
                  action: acting?.action,
                  quantity: String(v.quantity),
                  ...(acting?.action === 'send'
                    ? {
                        supplierId: v.supplierId,
                        outsourcingOrderId: v.outsourcingOrderId ?? undefined,
                        unitPrice:
                          v.outsourcingOrderId || v.unitPrice == null ? undefined : String(v.unitPrice),
                      }
                    : { hardnessHrc: v.hardnessHrc == null ? undefined : String(v.hardnessHrc) }),
                  weight: v.weight == null ? undefined : String(v.weight),
                },
              }),
            )
            .catch(() => undefined)
        }
        destroyOnHidden
      >
        <Form form={form} layout="vertical" name="outsource" preserve={false}>
          <Form.Item
            name="quantity"
            label="数量"
            rules={[
              { required: true, message: '请填写数量' },
              unitPrecisionRule('数量', client, () => ({ materialId: acting?.row.productId })),
            ]}
          >
            <InputNumber
              min={0.0001}
              precision={unit ? undefined : 4}
              step={unit ? Number(precisionStep(unit.precision)) : undefined}
              placeholder={unit ? precisionRule(unit.precision) : undefined}
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item name="weight" label="重量(kg)">
            <InputNumber min={0} precision={3} style={{ width: '100%' }} />
          </Form.Item>
          {acting?.action === 'send' ? (
            <>
              <Form.Item
                name="supplierId"
                label="委外供应商"
                rules={[{ required: true, message: '请选择委外供应商' }]}
              >
                <OutsourcingSupplierSelect />
              </Form.Item>
              <Form.Item
                name="outsourcingOrderId"
                label="委外订单"
                tooltip="不选则按本次发出新建委外订单（自动审核）；也可发到该供应商未发完的委外订单上"
              >
                <Select
                  allowClear
                  placeholder="新建委外订单"
                  loading={orders.isFetching}
                  options={(orders.data?.list ?? []).map((o) => ({
                    value: o.id,
                    label: `${o.docNo}（未发 ${qty(o.openQuantity)}）`,
                  }))}
                />
              </Form.Item>
              <Form.Item
                name="unitPrice"
                label="加工单价(元)"
                tooltip="新建委外订单的加工单价；不填则取该供应商上次的加工单价"
              >
                <InputNumber min={0} precision={4} style={{ width: '100%' }} />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="hardnessHrc"
              label="硬度(HRC)"
              rules={[{ required: true, message: '请填写硬度检测结果' }]}
            >
              <InputNumber min={0} max={100} precision={1} style={{ width: '100%' }} />
            </Form.Item>
          )}
        </Form>
      </Modal>
      <FlowCardDrawer id={viewing} onClose={() => setViewing(undefined)} />
    </PageCard>
  );
}
