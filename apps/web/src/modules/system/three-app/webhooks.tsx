import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Drawer,
  Form,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  type TableProps,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { Auth } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useServerTable } from '../../../platform/ui/server-table.ts';
import { STATUS_OPTIONS } from '../use-options.ts';

interface Option {
  value: string;
  label: string;
}

interface Subscription {
  id: number;
  clientId: number;
  event: string;
  resource: string | null;
  url: string;
  status: '0' | '1';
  remark: string | null;
  createdAt: string;
  version: number;
}

interface Delivery {
  id: number;
  deliveryId: string;
  event: string;
  docKey: string;
  url: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const KEY = ['threeApp', 'webhook'] as const;

const DELIVERY_STATUS: Record<Delivery['status'], { label: string; color: string }> = {
  pending: { label: '发送中', color: 'processing' },
  sent: { label: '已送达', color: 'success' },
  failed: { label: '失败', color: 'error' },
};

function useOptions() {
  return useQuery({
    queryKey: [...KEY, 'options'],
    queryFn: () => http.get<{ events: Option[]; documents: Option[] }>('/api/v1/threeApp/webhook/options'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

function SubscriptionForm({
  clientId,
  open,
  editing,
  onClose,
}: {
  clientId: number;
  open: boolean;
  editing: Subscription | null;
  onClose(): void;
}) {
  const [form] = Form.useForm();
  const options = useOptions();
  const client = useQueryClient();
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      editing
        ? { ...editing, resource: editing.resource ?? undefined }
        : { event: 'document.status', status: '1' },
    );
  }, [open, editing, form]);
  const save = async (v: Record<string, any>) => {
    const body = { ...v, resource: v.resource ?? null, remark: v.remark || null };
    if (editing)
      await http.put(`/api/v1/threeApp/webhook/edit/${editing.id}`, { ...body, version: editing.version });
    else await http.post('/api/v1/threeApp/webhook/add', { ...body, clientId });
  };
  return (
    <FormModal<Record<string, any>>
      form={form}
      editing={Boolean(editing)}
      title={editing ? '编辑订阅' : '新增订阅'}
      open={open}
      width={600}
      name="webhookForm"
      save={save}
      onSaved={() => void client.invalidateQueries({ queryKey: KEY })}
      onClose={onClose}
    >
      <Form.Item label="事件" name="event" rules={[{ required: true, message: '请选择事件' }]}>
        <Select options={options.data?.events} />
      </Form.Item>
      <Form.Item label="单据类型" name="resource" extra="不选则订阅所有单据">
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          options={options.data?.documents}
          placeholder="全部"
        />
      </Form.Item>
      <Form.Item
        label="接收地址"
        name="url"
        className="rm-span-2"
        rules={[
          { required: true, message: '请输入接收地址' },
          { pattern: /^https?:\/\/\S+$/, message: '接收地址必须是 http:// 或 https:// 开头的网址' },
        ]}
      >
        <Input placeholder="https://erp.example.com/ringmes/webhook" maxLength={500} />
      </Form.Item>
      <Form.Item label="状态" name="status">
        <Radio.Group options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
      </Form.Item>
      <Form.Item label="备注" name="remark" className="rm-span-2">
        <Input maxLength={200} />
      </Form.Item>
    </FormModal>
  );
}

function Subscriptions({ clientId }: { clientId: number }) {
  const client = useQueryClient();
  const options = useOptions();
  const [editing, setEditing] = useState<{ open: boolean; sub: Subscription | null }>({
    open: false,
    sub: null,
  });
  const list = useQuery({
    queryKey: [...KEY, 'list', clientId],
    queryFn: () => http.get<Subscription[]>('/api/v1/threeApp/webhook/list', { clientId }),
  });
  const label = (opts: Option[] | undefined, v: string | null) =>
    v === null ? '全部单据' : (opts?.find((o) => o.value === v)?.label ?? v);
  const remove = async (s: Subscription) => {
    await http.delete(`/api/v1/threeApp/webhook/delete/${s.id}`);
    toast.success('删除成功');
    void client.invalidateQueries({ queryKey: KEY });
  };
  const columns: TableProps<Subscription>['columns'] = [
    { title: '事件', dataIndex: 'event', render: (v: string) => label(options.data?.events, v) },
    {
      title: '单据类型',
      dataIndex: 'resource',
      render: (v: string | null) => label(options.data?.documents, v),
    },
    { title: '接收地址', dataIndex: 'url', ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 80,
      render: (v: string) => (v === '1' ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
    },
    { title: '备注', dataIndex: 'remark', ellipsis: true },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      render: (_, r) => (
        <Auth perm="system:app:edit">
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing({ open: true, sub: r })}>
              编辑
            </Button>
            <Popconfirm
              title="删除订阅"
              description="删除后不再推送该事件，确定吗？"
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(r).catch(() => undefined)}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          </Space>
        </Auth>
      ),
    },
  ];
  return (
    <>
      <TableToolbar
        left={
          <Auth perm="system:app:edit">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ open: true, sub: null })}
            >
              新增订阅
            </Button>
          </Auth>
        }
      />
      <Table<Subscription>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
      />
      <SubscriptionForm
        clientId={clientId}
        open={editing.open}
        editing={editing.sub}
        onClose={() => setEditing({ open: false, sub: null })}
      />
    </>
  );
}

function Deliveries({ clientId }: { clientId: number }) {
  const client = useQueryClient();
  const options = useOptions();
  const paged = useServerTable({ pageSize: 10 });
  const [status, setStatus] = useState<string | undefined>();
  const list = useQuery({
    queryKey: [...KEY, 'deliveries', clientId, status, paged.query],
    queryFn: () =>
      http.get<{ list: Delivery[]; total: number }>('/api/v1/threeApp/delivery/page', {
        ...(paged.query as any),
        clientId,
        ...(status ? { status } : {}),
      }),
    placeholderData: keepPreviousData,
    // A delivery in flight changes by itself: the log follows it.
    refetchInterval: (q) => (q.state.data?.list.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const resend = async (d: Delivery) => {
    await http.post(`/api/v1/threeApp/delivery/resend/${d.id}`);
    toast.success('已重新加入发送队列');
    void client.invalidateQueries({ queryKey: [...KEY, 'deliveries'] });
  };
  const columns: TableProps<Delivery>['columns'] = [
    { title: '时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatTime(v) },
    {
      title: '事件',
      dataIndex: 'event',
      width: 120,
      render: (v: string) => options.data?.events.find((o) => o.value === v)?.label ?? v,
    },
    {
      title: '单据',
      key: 'doc',
      render: (_, r) => {
        const p = r.payload as { type?: string; docNo?: string; to?: string; month?: string };
        return p.docNo || p.type ? `${p.type ?? ''} ${p.docNo ?? ''}` : (p.month ?? r.docKey);
      },
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: Delivery['status']) => (
        <Tag color={DELIVERY_STATUS[v].color}>{DELIVERY_STATUS[v].label}</Tag>
      ),
    },
    { title: '次数', dataIndex: 'attempts', width: 60 },
    {
      title: '响应码',
      dataIndex: 'responseCode',
      width: 80,
      render: (v: number | null, r) =>
        r.lastError ? (
          <Tooltip title={r.lastError}>
            <span className="rm-muted">{v ?? '—'}</span>
          </Tooltip>
        ) : (
          (v ?? '—')
        ),
    },
    {
      title: '投递编号',
      dataIndex: 'deliveryId',
      width: 120,
      render: (v: string) => (
        <Typography.Text className="rm-code" copyable={{ text: v }}>
          {v.slice(0, 8)}
        </Typography.Text>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_, r) =>
        r.status === 'pending' ? null : (
          <Auth perm="system:app:edit">
            <Popconfirm
              title="重发"
              description="以同一投递编号再次发送，确定吗？"
              okText="重发"
              cancelText="取消"
              onConfirm={() => resend(r).catch(() => undefined)}
            >
              <Button type="link" size="small">
                重发
              </Button>
            </Popconfirm>
          </Auth>
        ),
    },
  ];
  return (
    <>
      <TableToolbar
        left={
          <Select
            allowClear
            placeholder="全部状态"
            style={{ width: 140 }}
            value={status}
            onChange={setStatus}
            options={Object.entries(DELIVERY_STATUS).map(([value, s]) => ({ value, label: s.label }))}
            aria-label="投递状态"
          />
        }
        right={
          <Tooltip title="刷新">
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void client.invalidateQueries({ queryKey: [...KEY, 'deliveries'] })}
              aria-label="刷新投递记录"
            />
          </Tooltip>
        }
      />
      <Table<Delivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching && !list.data}
        onChange={paged.onChange}
        pagination={paged.pagination(list.data?.total ?? 0)}
        expandable={{
          expandedRowRender: (r) => (
            <pre className="rm-code" style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
              {JSON.stringify({ deliveryId: r.deliveryId, ...r.payload }, null, 2)}
            </pre>
          ),
        }}
      />
    </>
  );
}

/** 订阅 and 投递记录 of one app (webhooks, docs/api.md "Webhooks"). */
export function WebhookDrawer({
  app,
  onClose,
}: {
  app: { id: number; name: string } | null;
  onClose(): void;
}) {
  return (
    <Drawer
      title={app ? `订阅与投递 · ${app.name}` : ''}
      open={!!app}
      onClose={onClose}
      width={1000}
      destroyOnHidden
    >
      {app && (
        <Tabs
          items={[
            { key: 'subscriptions', label: '订阅', children: <Subscriptions clientId={app.id} /> },
            { key: 'deliveries', label: '投递记录', children: <Deliveries clientId={app.id} /> },
          ]}
        />
      )}
    </Drawer>
  );
}
