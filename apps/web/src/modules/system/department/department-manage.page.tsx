import { NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Popconfirm, Select, Space, Table, type TableProps, Tag, Tooltip } from 'antd';
import { type Key, useEffect, useMemo, useState } from 'react';
import { Auth } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { formatTime } from '../../../platform/lib/time.ts';
import { parentKeys } from '../../../platform/lib/tree.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';
import { SearchForm, TableToolbar } from '../../../platform/ui/search-form.tsx';
import { type Dept, deptApi, type Status, systemKeys } from '../system.api.ts';
import { STATUS_OPTIONS } from '../use-options.ts';
import { DepartmentFormModal } from './department-form.modal.tsx';

interface Filters {
  deptName?: string;
  status?: Status;
}

interface Row extends Omit<Dept, 'childDept'> {
  children?: Row[];
}

function toRows(nodes: readonly Dept[], status?: Status): Row[] {
  const out: Row[] = [];
  for (const { childDept, ...n } of [...nodes].sort((a, b) => (a.orderNum ?? 0) - (b.orderNum ?? 0))) {
    const children = toRows(childDept ?? [], status);
    if (!status || n.status === status || children.length)
      out.push({ ...n, children: children.length ? children : undefined });
  }
  return out;
}

/** 部门管理: the department tree; deleting one with users or children answers 409 (shown). */
export function DepartmentManagePage() {
  const client = useQueryClient();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const [editing, setEditing] = useState<{ open: boolean; dept: Dept | null; parentId?: number }>({
    open: false,
    dept: null,
  });
  const tree = useQuery({
    queryKey: [...systemKeys.depts, 'tree', filters.deptName ?? ''],
    queryFn: () => deptApi.tree(filters.deptName),
  });
  const fullTree = useQuery({ queryKey: [...systemKeys.depts, 'tree', ''], queryFn: () => deptApi.tree() });
  const rows = useMemo(() => toRows(tree.data ?? [], filters.status), [tree.data, filters.status]);
  const allKeys = useMemo(() => parentKeys(rows, (r) => r.id), [rows]);
  useEffect(() => {
    if (expanded === null && rows.length) setExpanded(allKeys);
  }, [expanded, rows.length, allKeys]);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: systemKeys.depts });
    void client.invalidateQueries({ queryKey: systemKeys.users });
  };
  const remove = useMutation({
    mutationFn: deptApi.remove,
    onSuccess: () => {
      toast.success('删除成功');
      refresh();
    },
  });

  const columns: TableProps<Row>['columns'] = [
    { title: '部门名称', dataIndex: 'deptName', width: 260 },
    {
      title: '负责人',
      dataIndex: 'leader',
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    {
      title: '联系电话',
      dataIndex: 'phone',
      render: (v?: string) => v || <span className="rm-muted">-</span>,
    },
    { title: '排序', dataIndex: 'orderNum', width: 80 },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (v: Status) => (v === '0' ? <Tag>停用</Tag> : <Tag color="success">正常</Tag>),
    },
    {
      title: '创建时间',
      dataIndex: 'createdAt',
      width: 170,
      render: (v?: string) => formatTime(v) || <span className="rm-muted">-</span>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Auth perm="system:dept:add">
            <Button
              type="link"
              size="small"
              onClick={() => setEditing({ open: true, dept: null, parentId: r.id })}
            >
              新增
            </Button>
          </Auth>
          <Auth perm="system:dept:edit">
            <Button
              type="link"
              size="small"
              onClick={() => setEditing({ open: true, dept: { ...r, childDept: undefined } })}
            >
              修改
            </Button>
          </Auth>
          <Auth perm="system:dept:delete">
            <Popconfirm
              title="删除部门"
              description={`确定删除部门「${r.deptName}」吗？`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={() => remove.mutateAsync(r.id).catch(() => undefined)}
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

  const isExpanded = (expanded?.length ?? 0) > 0;

  return (
    <>
      <PageCard>
        <SearchForm<Filters>
          name="deptSearch"
          form={form}
          onSearch={(v) => {
            setFilters({ deptName: v.deptName?.trim() || undefined, status: v.status });
            setExpanded(null);
          }}
          onReset={() => {
            setFilters({});
            setExpanded(null);
          }}
        >
          <Form.Item label="部门名称" name="deptName">
            <Input placeholder="请输入部门名称" allowClear />
          </Form.Item>
          <Form.Item label="状态" name="status">
            <Select placeholder="部门状态" allowClear options={STATUS_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </SearchForm>
      </PageCard>
      <PageCard>
        <TableToolbar
          left={
            <>
              <Auth perm="system:dept:add">
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setEditing({ open: true, dept: null })}
                >
                  新增
                </Button>
              </Auth>
              <Button
                icon={isExpanded ? <NodeCollapseOutlined /> : <NodeExpandOutlined />}
                onClick={() => setExpanded(isExpanded ? [] : allKeys)}
              >
                {isExpanded ? '全部折叠' : '全部展开'}
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
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={tree.isFetching}
          pagination={false}
          scroll={{ x: 960 }}
          expandable={{
            expandedRowKeys: expanded ?? [],
            onExpandedRowsChange: (keys) => setExpanded([...keys]),
          }}
        />
      </PageCard>
      <DepartmentFormModal
        open={editing.open}
        dept={editing.dept}
        parentId={editing.parentId}
        tree={fullTree.data ?? []}
        onClose={() => setEditing({ open: false, dept: null })}
        onSaved={() => {
          // Show the new department under its parent.
          const parent = editing.parentId;
          if (parent !== undefined) setExpanded((keys) => [...new Set([...(keys ?? []), parent])]);
          refresh();
        }}
      />
    </>
  );
}
