import { NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Table, type TableProps, Tag, Tooltip } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { Auth } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { parentKeys } from '../../../platform/lib/tree.ts';
import { loadUserInfo, type ServerMenu } from '../../../platform/session.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';
import { useTableHeight } from '../../../platform/ui/use-table-height.ts';
import { menuApi, menuNodeId, systemKeys } from '../system.api.ts';
import { CatalogIcon } from './icon-catalog.tsx';
import { MenuFormModal } from './menu-form.modal.tsx';

interface Filters {
  menuName?: string;
  menuStatus?: '0' | '1';
}

interface Row extends ServerMenu {
  key: number;
  children?: Row[];
}

const TYPES: Record<string, { color: string; label: string }> = {
  '1': { color: 'blue', label: '目录' },
  '2': { color: 'green', label: '菜单' },
  '3': { color: 'orange', label: '按钮' },
};

/** Rows for the tree table. A node that matches the search keeps its whole subtree. */
function toRows(nodes: readonly ServerMenu[], f: Filters): Row[] {
  const out: Row[] = [];
  for (const n of [...nodes].sort((a, b) => (a.location ?? 0) - (b.location ?? 0))) {
    const nameOk = !f.menuName || n.menuName.includes(f.menuName);
    const statusOk = !f.menuStatus || n.menuStatus === f.menuStatus;
    const children = toRows(n.children ?? [], nameOk && statusOk ? {} : f);
    if ((nameOk && statusOk) || children.length) {
      out.push({ ...n, key: menuNodeId(n), children: children.length ? children : undefined });
    }
  }
  return out;
}

/** 菜单管理: the whole menu tree (directories, pages, buttons) as a tree table. */
export function MenuManagePage() {
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [editing, setEditing] = useState<{ open: boolean; node: ServerMenu | null; parentId: number }>({
    open: false,
    node: null,
    parentId: 0,
  });
  const tree = useQuery({ queryKey: [...systemKeys.menus, 'tree'], queryFn: menuApi.tree });
  const rows = useMemo(() => toRows(tree.data ?? [], filters), [tree.data, filters]);
  // ~800 nodes when all are expanded: the table renders only the rows in view.
  const tableHeight = useTableHeight(370);
  const filtering = Boolean(filters.menuName || filters.menuStatus);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: systemKeys.menus });
    // The signed-in user's own navigation may have changed.
    loadUserInfo().catch(() => undefined);
  };
  const remove = useMutation({
    mutationFn: menuApi.remove,
    onSuccess: () => {
      toast.success('删除成功');
      refresh();
    },
  });

  const columns: TableProps<Row>['columns'] = [
    {
      title: '菜单名称',
      dataIndex: 'menuName',
      width: 280,
      render: (name: string, r) => (
        <span className="rm-menu-name">
          {r.nodeType !== '3' && <CatalogIcon name={r.menuIco} />}
          {name}
        </span>
      ),
    },
    {
      title: '类型',
      dataIndex: 'nodeType',
      width: 80,
      render: (t: string) => <Tag color={TYPES[t]?.color}>{TYPES[t]?.label ?? t}</Tag>,
    },
    { title: '排序', dataIndex: 'location', width: 70 },
    {
      title: '权限标识',
      dataIndex: 'menuPermissions',
      width: 220,
      ellipsis: true,
      render: (v?: string) =>
        v ? <span className="rm-code">{v}</span> : <span className="rm-muted">-</span>,
    },
    {
      title: '路由地址',
      dataIndex: 'menuPath',
      width: 260,
      ellipsis: true,
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    {
      title: '可见',
      dataIndex: 'menuStatus',
      width: 80,
      render: (v: string, r) =>
        r.nodeType === '3' ? (
          <span className="rm-muted">-</span>
        ) : v === '1' ? (
          <Tag color="success">显示</Tag>
        ) : (
          <Tag>隐藏</Tag>
        ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {r.nodeType !== '3' && (
            <Auth perm="system:menu:add">
              <Button
                type="link"
                size="small"
                onClick={() => setEditing({ open: true, node: null, parentId: r.key })}
              >
                新增
              </Button>
            </Auth>
          )}
          <Auth perm="system:menu:edit">
            <Button type="link" size="small" onClick={() => setEditing({ open: true, node: r, parentId: 0 })}>
              修改
            </Button>
          </Auth>
          <Auth perm="system:menu:delete">
            <Popconfirm
              title="删除菜单"
              description={`确定删除「${r.menuName}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync(r.key).catch(() => undefined)}
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

  const allParents = parentKeys(rows, (r) => r.key);
  const expandedKeys = filtering ? allParents : expanded;

  return (
    <>
      <PageCard>
        <SearchForm<Filters>
          name="menuSearch"
          form={form}
          onSearch={(v) =>
            setFilters({ menuName: v.menuName?.trim() || undefined, menuStatus: v.menuStatus })
          }
          onReset={() => setFilters({})}
        >
          <Form.Item label="菜单名称" name="menuName">
            <Input placeholder="请输入菜单名称" allowClear />
          </Form.Item>
          <Form.Item label="可见" name="menuStatus">
            <Select
              placeholder="显示状态"
              allowClear
              options={[
                { value: '1', label: '显示' },
                { value: '0', label: '隐藏' },
              ]}
            />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <>
              <Auth perm="system:menu:add">
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing({ open: true, node: null, parentId: 0 })}
                >
                  新增
                </Button>
              </Auth>
              <Button
                icon={expanded.length ? <NodeCollapseOutlined /> : <NodeExpandOutlined />}
                onClick={() => setExpanded(expanded.length ? [] : allParents)}
                disabled={filtering}
              >
                {expanded.length ? '全部折叠' : '全部展开'}
              </Button>
            </>
          }
          right={
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} onClick={refresh} aria-label="刷新列表" />
            </Tooltip>
          }
        />
        <Table<Row>
          rowKey="key"
          columns={columns}
          dataSource={rows}
          loading={tree.isFetching}
          pagination={false}
          size="middle"
          virtual
          scroll={{ x: 1190, y: tableHeight }}
          expandable={{
            expandedRowKeys: expandedKeys,
            onExpandedRowsChange: (keys) => setExpanded([...keys]),
          }}
        />
      </PageCard>
      <MenuFormModal
        open={editing.open}
        menus={tree.data ?? []}
        node={editing.node}
        parentId={editing.parentId}
        onClose={() => setEditing({ open: false, node: null, parentId: 0 })}
        onSaved={refresh}
      />
    </>
  );
}
