import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { http } from '../../../platform/api/client.ts';
import { Auth } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import type { ServerMenu } from '../../../platform/session.ts';
import { FormModal } from '../../../platform/ui/form-modal.tsx';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useServerTable } from '../../../platform/ui/server-table.ts';
import {
  linkedCheckedKeys,
  MenuPermissionTree,
  type PermissionValue,
} from '../role/menu-permission-tree.tsx';
import { menuNodeId } from '../system.api.ts';
import { STATUS_OPTIONS } from '../use-options.ts';
import { WebhookDrawer } from './webhooks.tsx';

interface ApiClient {
  id: number;
  name: string;
  appKey: string;
  scopes: string[];
  ipAllow: string[];
  expiresAt: string | null;
  rateLimit: number;
  status: '0' | '1';
  remark: string | null;
  createdByName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  version: number;
}

interface Values {
  name: string;
  ipAllow: string[];
  expiresAt: Dayjs | null;
  rateLimit: number;
  status: '0' | '1';
  remark?: string;
}

const KEY = ['threeApp'] as const;
const IP_ENTRY = /^(\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?|[0-9a-fA-F:]+(\/\d{1,3})?)$/;

/** Menu node id → its permission string, over the whole tree. */
function permissionsById(menus: readonly ServerMenu[], out = new Map<number, string>()) {
  for (const m of menus) {
    if (m.menuPermissions) out.set(menuNodeId(m), m.menuPermissions);
    if (m.children) permissionsById(m.children, out);
  }
  return out;
}

/** The key and secret of a new (or re-keyed) app, shown once. */
function SecretDialog({
  shown,
  onClose,
}: {
  shown: { appKey: string; secret: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal
      title="应用密钥"
      open={Boolean(shown)}
      onOk={onClose}
      onCancel={onClose}
      okText="我已保存"
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
    >
      <Alert type="warning" showIcon title="密钥（Secret）只显示这一次，关闭后无法再查看，请立即复制保存。" />
      <div style={{ marginTop: 16 }} data-testid="app-secret">
        <div>
          应用标识（X-App-Key）：
          <Typography.Text code copyable data-testid="app-key-value">
            {shown?.appKey}
          </Typography.Text>
        </div>
        <div style={{ marginTop: 8 }}>
          密钥（Secret）：
          <Typography.Text code copyable data-testid="app-secret-value">
            {shown?.secret}
          </Typography.Text>
        </div>
      </div>
    </Modal>
  );
}

function AppFormModal({
  open,
  app,
  onClose,
  onSaved,
}: {
  open: boolean;
  app: ApiClient | null;
  onClose: () => void;
  onSaved: (secret?: { appKey: string; secret: string }) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [linked, setLinked] = useState(true);
  const [perm, setPerm] = useState<PermissionValue>({ checked: [], halfChecked: [] });
  const tree = useQuery({
    queryKey: [...KEY, 'scopeTree'],
    queryFn: () => http.get<ServerMenu[]>('/api/v1/threeApp/scopeTree'),
    enabled: open,
  });
  const byId = useMemo(() => permissionsById(tree.data ?? []), [tree.data]);

  // Filled before the opened dialog is painted: a click or keystroke right after it opens is
  // never overwritten by the reset.
  useLayoutEffect(() => {
    if (!open) return;
    setLinked(true);
    if (app) {
      form.setFieldsValue({
        name: app.name,
        ipAllow: app.ipAllow,
        expiresAt: app.expiresAt ? dayjs(app.expiresAt) : null,
        rateLimit: app.rateLimit,
        status: app.status,
        remark: app.remark ?? undefined,
      });
    } else {
      form.resetFields();
      setPerm({ checked: [], halfChecked: [] });
    }
  }, [open, app, form]);

  useEffect(() => {
    if (!open || !app || !tree.data) return;
    const wanted = new Set(app.scopes);
    const ids = [...byId].filter(([, p]) => wanted.has(p)).map(([id]) => id);
    setPerm({ checked: linkedCheckedKeys(tree.data, ids), halfChecked: [] });
  }, [open, app, tree.data, byId]);

  const save = async (v: Values) => {
    const ids = [...perm.checked, ...(linked ? perm.halfChecked : [])];
    const scopes = [...new Set(ids.map((id) => byId.get(id)).filter((p): p is string => !!p))];
    const body = {
      name: v.name.trim(),
      scopes,
      ipAllow: v.ipAllow ?? [],
      expiresAt: v.expiresAt ? v.expiresAt.toISOString() : null,
      rateLimit: v.rateLimit,
      status: v.status,
      remark: v.remark?.trim() || null,
    };
    if (app) {
      await http.put(`/api/v1/threeApp/edit/${app.id}`, { ...body, version: app.version });
      onSaved();
    } else {
      const made = await http.post<ApiClient & { secret: string }>('/api/v1/threeApp/add', body);
      onSaved({ appKey: made.appKey, secret: made.secret });
    }
  };

  return (
    <FormModal<Values>
      form={form}
      editing={Boolean(app)}
      title={app ? '编辑应用' : '新增应用'}
      open={open}
      width={760}
      name="threeAppForm"
      initialValues={{ status: '1', rateLimit: 60, ipAllow: [], expiresAt: null }}
      save={save}
      onSaved={() => undefined}
      onClose={onClose}
    >
      <Form.Item
        label="应用名称"
        name="name"
        rules={[
          { required: true, whitespace: true, message: '请输入应用名称' },
          { max: 60, message: '应用名称不能超过 60 个字' },
        ]}
      >
        <Input placeholder="如：MES 数据采集网关" maxLength={60} />
      </Form.Item>
      <Form.Item
        label="每分钟调用上限"
        name="rateLimit"
        rules={[{ required: true, message: '请输入每分钟调用上限' }]}
      >
        <InputNumber<number> min={1} max={6000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item
        label="IP 白名单"
        name="ipAllow"
        tooltip="留空表示不限来源；可填 IP 地址或 CIDR 网段，回车添加"
        rules={[
          {
            validator: (_, v: string[] | undefined) =>
              (v ?? []).every((e) => IP_ENTRY.test(e.trim()))
                ? Promise.resolve()
                : Promise.reject(new Error('只能填写 IP 地址或 CIDR 网段，如 10.0.0.5 或 10.0.0.0/24')),
          },
        ]}
      >
        <Select mode="tags" open={false} tokenSeparators={[',', ' ']} placeholder="不限" />
      </Form.Item>
      <Form.Item
        label="到期时间"
        name="expiresAt"
        rules={[
          {
            validator: (_, v: Dayjs | null) =>
              !v || v.isAfter(dayjs())
                ? Promise.resolve()
                : Promise.reject(new Error('到期时间必须晚于现在')),
          },
        ]}
      >
        <DatePicker showTime style={{ width: '100%' }} placeholder="永不过期" />
      </Form.Item>
      <Form.Item label="状态" name="status">
        <Radio.Group options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
      </Form.Item>
      <Form.Item label="授权范围" className="rm-span-2" tooltip="只能授予您自己拥有的权限">
        <MenuPermissionTree
          menus={tree.data ?? []}
          loading={tree.isLoading}
          value={perm}
          onChange={setPerm}
          linked={linked}
          onLinkedChange={setLinked}
        />
      </Form.Item>
      <Form.Item label="备注" name="remark" className="rm-span-2">
        <Input.TextArea rows={2} maxLength={200} showCount />
      </Form.Item>
    </FormModal>
  );
}

/** 第三方应用: API clients that call with an HMAC signature (docs/api.md). */
export function ThreeAppPage() {
  const client = useQueryClient();
  const paged = useServerTable({ pageSize: 10 });
  const [editing, setEditing] = useState<{ open: boolean; app: ApiClient | null }>({
    open: false,
    app: null,
  });
  const [secret, setSecret] = useState<{ appKey: string; secret: string } | null>(null);
  const [hooks, setHooks] = useState<ApiClient | null>(null);
  const list = useQuery({
    queryKey: [...KEY, 'page', paged.query],
    queryFn: () =>
      http.get<{ list: ApiClient[]; total: number }>('/api/v1/threeApp/page', paged.query as any),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });

  const resetSecret = async (app: ApiClient) => {
    const r = await http.post<ApiClient & { secret: string }>(`/api/v1/threeApp/resetSecret/${app.id}`);
    setSecret({ appKey: r.appKey, secret: r.secret });
    void refresh();
  };
  const remove = async (app: ApiClient) => {
    await http.delete(`/api/v1/threeApp/delete/${app.id}`);
    toast.success('删除成功');
    void refresh();
  };

  const expired = (a: ApiClient) => Boolean(a.expiresAt && dayjs(a.expiresAt).isBefore(dayjs()));
  const columns: TableProps<ApiClient>['columns'] = [
    { title: '应用名称', dataIndex: 'name' },
    {
      title: '应用标识',
      dataIndex: 'appKey',
      width: 260,
      render: (v: string) => <span className="rm-code">{v}</span>,
    },
    {
      title: '授权范围',
      dataIndex: 'scopes',
      width: 100,
      render: (v: string[]) => (
        <Tooltip title={v.join('、') || '无'}>
          <span>{v.length} 项</span>
        </Tooltip>
      ),
    },
    {
      title: 'IP 白名单',
      dataIndex: 'ipAllow',
      render: (v: string[]) => (v.length ? v.join(', ') : <span className="rm-muted">不限</span>),
    },
    { title: '每分钟上限', dataIndex: 'rateLimit', width: 100 },
    {
      title: '到期时间',
      dataIndex: 'expiresAt',
      width: 170,
      render: (v: string | null) => (v ? formatTime(v) : <span className="rm-muted">永不过期</span>),
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: string, r) =>
        v === '0' ? (
          <Tag>停用</Tag>
        ) : expired(r) ? (
          <Tag color="warning">已过期</Tag>
        ) : (
          <Tag color="success">正常</Tag>
        ),
    },
    {
      title: '最近调用',
      dataIndex: 'lastUsedAt',
      width: 170,
      render: (v: string | null) => formatTime(v ?? undefined),
    },
    { title: '创建人', dataIndex: 'createdByName', width: 110 },
    {
      title: '操作',
      key: 'actions',
      width: 280,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setHooks(r)}>
            订阅与投递
          </Button>
          <Auth perm="system:app:edit">
            <Button type="link" size="small" onClick={() => setEditing({ open: true, app: r })}>
              编辑
            </Button>
            <Popconfirm
              title="重置密钥"
              description="重置后旧密钥立即失效，确定继续吗？"
              okText="重置"
              cancelText="取消"
              onConfirm={() => resetSecret(r).catch(() => undefined)}
            >
              <Button type="link" size="small">
                重置密钥
              </Button>
            </Popconfirm>
          </Auth>
          <Auth perm="system:app:delete">
            <Popconfirm
              title="删除应用"
              description={`确定删除应用「${r.name}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove(r).catch(() => undefined)}
            >
              <Button type="link" size="small" danger>
                删除
              </Button>
            </Popconfirm>
          </Auth>
        </Space>
      ),
    },
  ];

  return (
    <>
      <PageCard>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title="第三方系统以应用标识和密钥签名调用接口（HMAC-SHA256，见接口文档“第三方应用签名调用”），只能使用授权范围内的权限。"
        />
        <TableToolbar
          left={
            <Auth perm="system:app:add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing({ open: true, app: null })}
              >
                新增应用
              </Button>
            </Auth>
          }
          right={
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label="刷新列表" />
            </Tooltip>
          }
        />
        <Table<ApiClient>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          scroll={{ x: 1200 }}
          onChange={paged.onChange}
          pagination={paged.pagination(list.data?.total ?? 0)}
        />
      </PageCard>
      <AppFormModal
        open={editing.open}
        app={editing.app}
        onClose={() => setEditing({ open: false, app: null })}
        onSaved={(made) => {
          void refresh();
          if (made) setSecret(made);
        }}
      />
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <WebhookDrawer app={hooks} onClose={() => setHooks(null)} />
    </>
  );
}
