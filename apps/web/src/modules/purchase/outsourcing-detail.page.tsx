import { ExportOutlined, ImportOutlined, RollbackOutlined } from '@ant-design/icons';
import { STOCK_DOC_STATUS } from '@ringmes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, InputNumber, Modal, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { type ApiResult, api } from '../../platform/api/typed.ts';
import { usePermission } from '../../platform/auth/permission.tsx';
import { toast } from '../../platform/feedback.ts';
import { openResourcePage } from '../../platform/resource/nav.ts';
import { RefSelect } from '../../platform/resource/ref-select.tsx';
import type { ResourceRow } from '../../platform/resource/resource-api.ts';
import { ResourceDetailPage } from '../../platform/resource/resource-detail.page.tsx';
import type { ResourcePageProps } from '../../platform/resource/routes.ts';
import { invalidateResource } from '../../platform/resource/use-options.ts';
import {
  INBOUND,
  OUTBOUND,
  OUTSOURCING_RETURN,
  qty,
  type Row,
  typeLabel,
  typePaths,
} from '../warehouse/warehouse.api.ts';

type Operation = 'send' | 'receive' | 'return';

/** Each operation: its call, the page of the draft it makes, who may, and what is open on a line. */
const OPERATIONS: Record<
  Operation,
  {
    label: string;
    url: 'send-out' | 'receive-back' | 'return-goods';
    detail: string;
    permissions: string[];
    open: (l: Row) => number;
    icon: React.ReactNode;
  }
> = {
  send: {
    label: '发料',
    url: 'send-out',
    detail: typePaths(OUTBOUND, 'outsourcing').detail,
    permissions: ['warehouse:outbound:add', 'warehouse:outsourcingOutbound:add'],
    open: (l) => Number(l.baseQuantity) - Number(l.sentQuantity),
    icon: <ExportOutlined />,
  },
  receive: {
    label: '收货',
    url: 'receive-back',
    detail: typePaths(INBOUND, 'outsourced').detail,
    permissions: ['warehouse:inbound:add', 'warehouse:outsourcedInbound:add'],
    open: (l) => Number(l.sentQuantity) - (Number(l.receivedQuantity) - Number(l.returnedQuantity)),
    icon: <ImportOutlined />,
  },
  return: {
    label: '退货',
    url: 'return-goods',
    detail: typePaths(OUTSOURCING_RETURN, 'outsourcing-return').detail,
    permissions: [
      'warehouse:outbound:add',
      'warehouse:outsourcingOutbound:add',
      'purchase:outsourcingReturn:add',
    ],
    open: (l) => Number(l.receivedQuantity) - Number(l.returnedQuantity),
    icon: <RollbackOutlined />,
  },
};

const OPEN_STATES = ['approved', 'partly-received'];
const warehouseField = {
  name: 'warehouseId',
  label: '仓库',
  kind: 'ref' as const,
  ref: 'warehouse-management',
};

/**
 * 委外订单详情 (-info): the kit's detail (lines with sent, received and returned quantities and
 * weights) with 发料 / 收货 / 退货, each making the warehouse's draft of the chosen lines, and the
 * trail of the stock documents made against the order.
 */
export function OutsourcingDetailPage(props: ResourcePageProps) {
  const can = usePermission();
  const [doing, setDoing] = useState<{ op: Operation; order: ResourceRow }>();
  const allowed = (order: ResourceRow, op: Operation) =>
    can(OPERATIONS[op].permissions) &&
    (op === 'return' ? order.status !== 'draft' : OPEN_STATES.includes(order.status)) &&
    (order.lines ?? []).some((l: Row) => OPERATIONS[op].open(l) > 0);
  return (
    <>
      <ResourceDetailPage
        {...props}
        actions={(order) =>
          (['send', 'receive', 'return'] as Operation[])
            .filter((op) => allowed(order, op))
            .map((op) => (
              <Button
                key={op}
                icon={OPERATIONS[op].icon}
                data-testid={`outsourcing-${op}`}
                onClick={() => setDoing({ op, order })}
              >
                {OPERATIONS[op].label}
              </Button>
            ))
        }
        sections={(order) => <DocumentTrail order={order} />}
      />
      {doing && <MakeDocument {...doing} onClose={() => setDoing(undefined)} />}
    </>
  );
}

/** 发料 / 收货 / 退货: warehouse, date and a quantity per open line (base unit) → the draft, then its page to post it. */
function MakeDocument({ op, order, onClose }: { op: Operation; order: ResourceRow; onClose: () => void }) {
  const spec = OPERATIONS[op];
  const client = useQueryClient();
  const lines = (order.lines ?? []).filter((l: Row) => spec.open(l) > 0) as Row[];
  const [quantities, setQuantities] = useState<Record<number, number | null>>(() =>
    Object.fromEntries(lines.map((l) => [l.id, spec.open(l)])),
  );
  const [warehouseId, setWarehouseId] = useState<number>();
  const [bizDate, setBizDate] = useState<Dayjs | null>(null);
  const [error, setError] = useState<string>();
  const chosen = lines.filter((l) => Number(quantities[l.id]) > 0);
  const submit = useMutation({
    mutationFn: () =>
      api.post(`/api/v1/outsourcing-order/${spec.url}/{id}`, {
        path: { id: Number(order.id) },
        body: {
          warehouseId: Number(warehouseId),
          bizDate: bizDate ? bizDate.format('YYYY-MM-DD') : undefined,
          lines: chosen.map((l) => ({ lineId: l.id, quantity: String(quantities[l.id]) })),
        },
        silent: true,
      }),
    onSuccess: (doc) => {
      toast.success(`已生成${spec.label}单 ${doc.docNo}（草稿），过账后计入委外订单`);
      invalidateResource(client, op === 'receive' ? 'stock-inbound' : 'stock-outbound');
      void client.invalidateQueries({ queryKey: ['outsourcing-order'] });
      onClose();
      openResourcePage(spec.detail, doc.id);
    },
    onError: (e: Error) => setError(e.message),
  });
  return (
    <Modal
      open
      width={820}
      title={`${spec.label}：${order.docNo}`}
      okText={`生成${spec.label}单`}
      okButtonProps={{ disabled: !warehouseId || !chosen.length, 'data-testid': 'make-document-ok' } as any}
      confirmLoading={submit.isPending}
      onOk={() => {
        setError(undefined);
        submit.mutate();
      }}
      onCancel={onClose}
      destroyOnHidden
    >
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Form layout="inline" name="make-document" style={{ marginBottom: 12 }}>
        <Form.Item label="仓库" required>
          <RefSelect
            id="make-document_warehouseId"
            field={warehouseField}
            value={warehouseId}
            onChange={(v: any) => setWarehouseId(v ?? undefined)}
            style={{ width: 200 }}
          />
        </Form.Item>
        <Form.Item label="业务日期" tooltip="不填则为今天">
          <DatePicker value={bizDate} onChange={setBizDate} />
        </Form.Item>
      </Form>
      <Table<Row>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={lines}
        columns={[
          { title: '行', dataIndex: 'lineNo', width: 50 },
          { title: '物料', dataIndex: 'materialName', ellipsis: true },
          { title: '委外数量', dataIndex: 'baseQuantity', width: 100, render: qty },
          { title: '已发料', dataIndex: 'sentQuantity', width: 90, render: qty },
          { title: '已收回', dataIndex: 'receivedQuantity', width: 90, render: qty },
          { title: '已退货', dataIndex: 'returnedQuantity', width: 90, render: qty },
          {
            title: `本次${spec.label}`,
            width: 140,
            render: (_: unknown, l) => (
              <InputNumber
                aria-label={`第${l.lineNo}行本次${spec.label}`}
                min={0}
                max={spec.open(l)}
                precision={4}
                value={quantities[l.id]}
                onChange={(v) => setQuantities((q) => ({ ...q, [l.id]: v }))}
                style={{ width: '100%' }}
              />
            ),
          },
        ]}
      />
    </Modal>
  );
}

/** `GET /api/v1/outsourcing-order/documents/{id}`: one stock document naming the order. */
type Doc = ApiResult<'/api/v1/outsourcing-order/documents/{id}'>[number];

/** The stock documents made against the order, each opening its page. */
function DocumentTrail({ order }: { order: ResourceRow }) {
  const docs = useQuery({
    queryKey: ['outsourcing-order', 'documents', order.id, order.version],
    queryFn: () => api.get('/api/v1/outsourcing-order/documents/{id}', { path: { id: Number(order.id) } }),
    enabled: order.status !== 'draft',
  });
  if (order.status === 'draft') return null;
  const pathOf = (d: Doc) =>
    d.kind === 'inbound'
      ? typePaths(INBOUND, d.type).detail
      : typePaths(d.type === 'outsourcing-return' ? OUTSOURCING_RETURN : OUTBOUND, d.type).detail;
  return (
    <div className="rk-form-section" data-testid="outsourcing-documents">
      <div className="rk-form-section-title">
        出入库单据<span className="rk-count">{docs.data?.length ?? 0}</span>
      </div>
      <Table<Doc>
        rowKey={(d) => `${d.kind}-${d.id}`}
        size="small"
        bordered
        loading={docs.isFetching}
        dataSource={docs.data ?? []}
        pagination={false}
        locale={{ emptyText: '还没有发料、收货或退货单据' }}
        columns={[
          {
            title: '单据编号',
            dataIndex: 'docNo',
            render: (v: string, d) => (
              <Button type="link" size="small" onClick={() => openResourcePage(pathOf(d), d.id)}>
                {v}
              </Button>
            ),
          },
          {
            title: '类型',
            dataIndex: 'type',
            render: (v: string, d) => typeLabel(d.kind === 'inbound' ? INBOUND : OUTBOUND, v),
          },
          { title: '业务日期', dataIndex: 'bizDate' },
          { title: '仓库', dataIndex: 'warehouseName' },
          { title: '数量(基本单位)', dataIndex: 'quantity', align: 'right', render: qty },
          {
            title: '状态',
            dataIndex: 'status',
            render: (v: string) => {
              const s = STOCK_DOC_STATUS.find((x) => x.value === v);
              return <Tag color={s?.color}>{s?.label ?? v}</Tag>;
            },
          },
        ]}
      />
    </div>
  );
}
