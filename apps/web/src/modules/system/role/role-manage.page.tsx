import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Table, type TableProps, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Auth } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import { loadUserInfo } from '../../../platform/session.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useServerTable } from '../../../platform/ui/server-table.ts';
import { type Role, type RoleQuery, roleApi, type Status, systemKeys } from '../system.api.ts';
import { STATUS_OPTIONS } from '../use-options.ts';
import { RoleFormModal } from './role-form.modal.tsx';

interface Filters {
  roleName?: string;
  roleKey?: string;
  status?: Status;
}

/** 角色管理: roles with their menu and button permissions. */
export function RoleManagePage() {
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const paged = useServerTable({ pageSize: 10 });
  const [editing, setEditing] = useState<{ open: boolean; role: Role | null }>({ open: false, role: null });
  const query: RoleQuery = { ...paged.query, ...filters };
  const list = useQuery({
    queryKey: [...systemKeys.roles, 'page', query],
    queryFn: () => roleApi.page(query),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: systemKeys.roles });
    void client.invalidateQueries({ queryKey: systemKeys.users });
  };
  const remove = useMutation({
    mutationFn: roleApi.remove,
    onSuccess: () => {
      toast.success('删除成功');
      refresh();
    },
  });

  const columns: TableProps<Role>['columns'] = [
    { title: '角色编号', dataIndex: 'id', width: 96 },
    { title: '角色名称', dataIndex: 'roleName' },
    { title: '权限字符', dataIndex: 'roleKey', render: (v: string) => <span className="rm-code">{v}</span> },
    { title: '显示顺序', dataIndex: 'orderNum', width: 100 },
    { title: '用户数', dataIndex: 'userCount', width: 90, render: (v?: number) => v ?? 0 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: Status) => (v === '0' ? <Tag color="default">停用</Tag> : <Tag color="success">正常</Tag>),
    },
    {
      title: '备注',
      dataIndex: 'remark',
      ellipsis: true,
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    { title: '创建时间', dataIndex: 'createdAt', width: 170, render: (v?: string) => formatTime(v) },
    {
      title: '操作',
      key: 'actions',
      width: 150,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Auth perm="system:role:edit">
            <Button type="link" size="small" onClick={() => setEditing({ open: true, role: r })}>
              编辑
            </Button>
          </Auth>
          <Auth perm="system:role:delete">
            <Popconfirm
              title="删除角色"
              description={`确定删除角色「${r.roleName}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              disabled={r.roleKey === 'admin'}
              onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
            >
              <Button type="link" size="small" danger disabled={r.roleKey === 'admin'}>
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
        <SearchForm<Filters>
          name="roleSearch"
          form={form}
          onSearch={(v) => {
            setFilters({
              roleName: v.roleName?.trim() || undefined,
              roleKey: v.roleKey?.trim() || undefined,
              status: v.status,
            });
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            paged.firstPage();
          }}
        >
          <Form.Item label="角色名称" name="roleName">
            <Input placeholder="请输入角色名称" allowClear />
          </Form.Item>
          <Form.Item label="权限字符" name="roleKey">
            <Input placeholder="请输入权限字符" allowClear />
          </Form.Item>
          <Form.Item label="状态" name="status">
            <Select placeholder="角色状态" allowClear options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <Auth perm="system:role:add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing({ open: true, role: null })}
              >
                新增角色
              </Button>
            </Auth>
          }
          right={
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新列表" />
            </Tooltip>
          }
        />
        <Table<Role>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          scroll={{ x: 960 }}
          onChange={paged.onChange}
          pagination={paged.pagination(list.data?.total ?? 0)}
        />
      </PageCard>
      <RoleFormModal
        open={editing.open}
        role={editing.role}
        onClose={() => setEditing({ open: false, role: null })}
        onSaved={() => {
          refresh();
          // The signed-in user's own menu may have changed.
          loadUserInfo().catch(() => undefined);
        }}
      />
    </>
  );
}
