import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  TreeSelect,
} from 'antd';
import { useState } from 'react';
import { Auth, usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import { useUser } from '../../../platform/session.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useServerTable } from '../../../platform/ui/server-table.ts';
import {
  roleNameList,
  type Status,
  systemKeys,
  type UserQuery,
  type UserRow,
  userApi,
} from '../system.api.ts';
import { STATUS_OPTIONS, useDeptTree } from '../use-options.ts';
import { ResetPasswordModal } from './reset-password.modal.tsx';
import { UserFormModal } from './user-form.modal.tsx';

interface Filters {
  deptId?: number;
  userName?: string;
  firstName?: string;
  phone?: string;
  status?: Status;
}

/** 用户管理: department tree, search, paging, sorting, add/edit, reset password, enable/disable, delete. */
export function UserManagePage() {
  const me = useUser();
  const can = usePermission();
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [deptId, setDeptId] = useState<number | undefined>();
  const paged = useServerTable({ pageSize: 10 });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ open: boolean; user: UserRow | null }>({
    open: false,
    user: null,
  });
  const [resetting, setResetting] = useState<UserRow | null>(null);

  const query: UserQuery = { ...paged.query, ...filters, deptId };
  const list = useQuery({
    queryKey: [...systemKeys.users, 'list', query],
    queryFn: () => userApi.list(query),
    placeholderData: keepPreviousData,
  });
  const depts = useDeptTree();
  const refresh = () => client.invalidateQueries({ queryKey: systemKeys.users });

  const remove = useMutation({
    mutationFn: userApi.remove,
    onSuccess: () => {
      toast.success('删除成功');
      setSelected([]);
      void refresh();
    },
  });
  const setStatus = useMutation({
    mutationFn: (u: UserRow) =>
      userApi.update({ userId: u.userId, status: u.status === '1' ? '0' : '1', version: u.version }),
    onSuccess: (_, u) => {
      toast.success(u.status === '1' ? '已停用' : '已启用');
      void refresh();
    },
  });

  const confirmStatus = (u: UserRow) => {
    const enabling = u.status !== '1';
    Modal.confirm({
      title: enabling ? '启用用户' : '停用用户',
      content: enabling
        ? `确认要启用用户「${u.firstName || u.userName}」吗？`
        : `确认要停用用户「${u.firstName || u.userName}」吗？停用后该用户将立即退出并无法登录。`,
      okText: '确定',
      cancelText: '取消',
      onOk: () => setStatus.mutateAsync(u).catch(() => undefined),
    });
  };

  const confirmBatchDelete = () => {
    Modal.confirm({
      title: '批量删除',
      content: `确认删除选中的 ${selected.length} 个用户吗？删除后不可恢复。`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => remove.mutateAsync({ userIds: selected }).catch(() => undefined),
    });
  };

  const columns: TableProps<UserRow>['columns'] = [
    {
      title: '用户名',
      dataIndex: 'userName',
      width: 110,
      sorter: true,
      sortOrder: paged.sortOrderOf('userName'),
      ellipsis: true,
    },
    {
      title: '姓名',
      dataIndex: 'firstName',
      width: 96,
      sorter: true,
      sortOrder: paged.sortOrderOf('firstName'),
      ellipsis: true,
    },
    {
      title: '部门',
      dataIndex: 'deptName',
      width: 110,
      ellipsis: true,
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    {
      title: '角色',
      dataIndex: 'roleNames',
      width: 120,
      render: (names: UserRow['roleNames']) => {
        const list = roleNameList(names);
        return list.length ? list.map((n) => <Tag key={n}>{n}</Tag>) : <span className="rm-muted">-</span>;
      },
    },
    {
      title: '手机号码',
      dataIndex: 'phone',
      width: 120,
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    {
      title: '状态',
      dataIndex: 'status',
      width: 70,
      render: (_: Status, u) => (
        <Switch
          size="small"
          checked={u.status === '1'}
          disabled={!can('system:user:edit') || u.userId === me?.userId}
          onChange={() => confirmStatus(u)}
          aria-label={u.status === '1' ? '停用' : '启用'}
        />
      ),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      width: 150,
      sorter: true,
      sortOrder: paged.sortOrderOf('createdAt'),
      render: (v?: string) => formatTime(v),
    },
    {
      title: '操作',
      key: 'actions',
      width: 156,
      fixed: 'right',
      render: (_, u) => (
        <Space size={0} className="rm-row-actions">
          <Auth perm="system:user:edit">
            <Button type="link" size="small" onClick={() => setEditing({ open: true, user: u })}>
              编辑
            </Button>
          </Auth>
          <Auth perm={['system:user:resetPwd', 'system:user:edit']}>
            <Button type="link" size="small" onClick={() => setResetting(u)}>
              重置密码
            </Button>
          </Auth>
          <Auth perm="system:user:delete">
            <Popconfirm
              title="删除用户"
              description={`确定删除用户「${u.firstName || u.userName}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync({ userId: u.userId }).catch(() => undefined)}
              disabled={u.userId === me?.userId}
            >
              <Button type="link" size="small" danger disabled={u.userId === me?.userId}>
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
          name="userSearch"
          form={form}
          onSearch={(v) => {
            setFilters({
              userName: v.userName?.trim() || undefined,
              firstName: v.firstName?.trim() || undefined,
              phone: v.phone?.trim() || undefined,
              status: v.status,
            });
            setDeptId(v.deptId ?? undefined);
            paged.firstPage();
          }}
          onReset={() => {
            setFilters({});
            setDeptId(undefined);
            paged.reset();
          }}
        >
          <Form.Item label="用户名" name="userName">
            <Input placeholder="请输入用户名" allowClear data-testid="search-userName" />
          </Form.Item>
          <Form.Item label="姓名" name="firstName">
            <Input placeholder="请输入姓名" allowClear />
          </Form.Item>
          <Form.Item label="手机号码" name="phone">
            <Input placeholder="请输入手机号码" allowClear />
          </Form.Item>
          <Form.Item label="部门" name="deptId">
            <TreeSelect
              placeholder="请选择部门"
              allowClear
              treeDefaultExpandAll
              showSearch={{ treeNodeFilterProp: 'deptName' }}
              treeData={depts.data ?? []}
              fieldNames={{ label: 'deptName', value: 'id', children: 'childDept' }}
            />
          </Form.Item>
          <Form.Item label="状态" name="status">
            <Select placeholder="用户状态" allowClear options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <>
              <Auth perm="system:user:add">
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing({ open: true, user: null })}
                >
                  新增用户
                </Button>
              </Auth>
              <Auth perm="system:user:delete">
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={!selected.length}
                  onClick={confirmBatchDelete}
                >
                  批量删除{selected.length ? `（${selected.length}）` : ''}
                </Button>
              </Auth>
            </>
          }
          right={
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label="刷新列表" />
            </Tooltip>
          }
        />
        <Table<UserRow>
          rowKey="userId"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isFetching}
          onChange={paged.onChange}
          scroll={{ x: 980 }}
          rowSelection={
            can('system:user:delete')
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  getCheckboxProps: (u) => ({ disabled: u.userId === me?.userId }),
                }
              : undefined
          }
          pagination={paged.pagination(list.data?.total ?? 0)}
        />
      </PageCard>
      <UserFormModal
        open={editing.open}
        user={editing.user}
        onClose={() => setEditing({ open: false, user: null })}
        onSaved={() => void refresh()}
      />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
