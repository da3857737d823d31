import { DownOutlined, StarFilled } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { request } from '../api/client.ts';
import { confirm, toast } from '../feedback.ts';
import type { Sort } from '../ui/server-table.ts';
import type { Filters } from './search-bar.tsx';

/** What a saved view keeps of a list (server: platform/resource/list-views.ts). */
export interface ViewState extends Sort {
  filters?: Filters;
  hidden?: string[];
  pageSize?: number;
}

export interface ListView {
  id: number;
  listKey: string;
  name: string;
  roleId: number | null;
  roleName: string | null;
  ownerId: number;
  ownerName: string | null;
  editable: boolean;
  state: ViewState;
  version: number;
}

interface ListViews {
  views: ListView[];
  defaultId: number | null;
  mayShare: boolean;
  roles: { id: number; name: string }[];
}

const viewKeys = { list: (listKey: string) => ['list-view', listKey] as const };

/** A list's saved views: the user's own and those shared with his roles, and his default. */
export function useListViews(listKey: string, enabled = true) {
  return useQuery({
    queryKey: viewKeys.list(listKey),
    queryFn: () => request<ListViews>({ url: '/api/v1/list-view/list', params: { listKey }, silent: true }),
    enabled,
    staleTime: 60_000,
  });
}

/** Drops empty filter values, so a view keeps only what narrows the list. */
function cleanState(state: ViewState): ViewState {
  const filters: Filters = {};
  for (const [k, v] of Object.entries(state.filters ?? {}))
    if (v !== undefined && v !== null && v !== '') filters[k] = v;
  return {
    filters,
    ...(state.sortField ? { sortField: state.sortField, sortOrder: state.sortOrder ?? 'asc' } : {}),
    hidden: state.hidden ?? [],
    ...(state.pageSize ? { pageSize: state.pageSize } : {}),
  };
}

/**
 * The view picker of a list's toolbar (issue 41 §5): choose a saved view (its filters, sort,
 * columns and page size apply), 保存视图 over the chosen one, 另存为 a new one (personal, or shared
 * with a role for whoever may share), 设为默认 (the list opens with it), 删除.
 */
export function ViewPicker({
  listKey,
  current,
  activeId,
  onApply,
}: {
  listKey: string;
  /** The list's state now, for 保存视图 and 另存为. */
  current: () => ViewState;
  activeId: number | undefined;
  /** Applies a view (undefined: back to the list as it opens without one). */
  onApply: (view: ListView | undefined) => void;
}) {
  const client = useQueryClient();
  const views = useListViews(listKey);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string; roleId?: number }>();
  const data = views.data;
  const active = data?.views.find((v) => v.id === activeId);
  const refresh = () => client.invalidateQueries({ queryKey: viewKeys.list(listKey) });

  const saveAs = useMutation({
    mutationFn: (v: { name: string; roleId?: number }) =>
      request<ListView>({
        url: '/api/v1/list-view/add',
        method: 'POST',
        data: { listKey, name: v.name, roleId: v.roleId ?? null, state: cleanState(current()) },
      }),
    onSuccess: async (view) => {
      toast.success(`已保存视图「${view.name}」`);
      setSaving(false);
      form.resetFields();
      await refresh();
      onApply(view);
    },
  });
  const save = useMutation({
    mutationFn: (view: ListView) =>
      request<ListView>({
        url: `/api/v1/list-view/edit/${view.id}`,
        method: 'PUT',
        data: { state: cleanState(current()), version: view.version },
      }),
    onSuccess: (view) => {
      toast.success(`已更新视图「${view.name}」`);
      void refresh();
    },
  });
  const setDefault = useMutation({
    mutationFn: (viewId: number | null) =>
      request<null>({ url: '/api/v1/list-view/default', method: 'PUT', data: { listKey, viewId } }),
    onSuccess: (_, viewId) => {
      toast.success(viewId ? '已设为默认视图' : '已取消默认视图');
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (view: ListView) =>
      request<null>({ url: `/api/v1/list-view/delete/${view.id}`, method: 'DELETE' }),
    onSuccess: (_, view) => {
      toast.success(`已删除视图「${view.name}」`);
      onApply(undefined);
      void refresh();
    },
  });

  const isDefault = active && data?.defaultId === active.id;
  const items = [
    {
      key: 'save',
      label: '保存视图',
      disabled: !active?.editable,
      onClick: () => active && save.mutate(active),
    },
    { key: 'saveAs', label: '另存为…', onClick: () => setSaving(true) },
    {
      key: 'default',
      label: isDefault ? '取消默认' : '设为默认',
      disabled: !active,
      onClick: () => active && setDefault.mutate(isDefault ? null : active.id),
    },
    {
      key: 'delete',
      label: '删除视图',
      danger: true,
      disabled: !active?.editable,
      onClick: () =>
        active &&
        confirm({
          title: '删除视图',
          content: `确定删除视图「${active.name}」吗？${active.roleId ? `（共享给${active.roleName}）` : ''}`,
          okText: '删除',
          okButtonProps: { danger: true },
          cancelText: '取消',
          onOk: () => remove.mutateAsync(active).catch(() => undefined),
        }),
    },
  ];

  return (
    <>
      <Space.Compact>
        <Select
          allowClear
          placeholder="选择视图"
          style={{ width: 170 }}
          value={active?.id}
          loading={views.isLoading}
          onChange={(id?: number) => onApply(data?.views.find((v) => v.id === id))}
          options={(data?.views ?? []).map((v) => ({
            value: v.id,
            label: (
              <span data-testid={`view-option-${v.name}`}>
                {data?.defaultId === v.id && <StarFilled style={{ color: '#faad14', marginRight: 4 }} />}
                {v.name}
                {v.roleId !== null && <span className="rk-view-shared">（{v.roleName}）</span>}
              </span>
            ),
          }))}
          aria-label="列表视图"
          data-testid="view-picker"
        />
        <Dropdown menu={{ items }} trigger={['click']}>
          <Button aria-label="视图操作" data-testid="view-actions">
            视图 <DownOutlined />
          </Button>
        </Dropdown>
      </Space.Compact>
      <Modal
        title="另存为视图"
        open={saving}
        okText="保存"
        cancelText="取消"
        okButtonProps={{ loading: saveAs.isPending }}
        onCancel={() => setSaving(false)}
        onOk={() =>
          form
            .validateFields()
            .then((v) => saveAs.mutateAsync(v))
            .catch(() => undefined)
        }
        destroyOnHidden
      >
        <p className="rk-view-hint">保存当前的筛选条件、排序、显示的列和每页条数。</p>
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="name"
            label="视图名称"
            rules={[{ required: true, whitespace: true, message: '请填写视图名称' }]}
          >
            <Input maxLength={40} autoFocus placeholder="如：本月待审核" />
          </Form.Item>
          {data?.mayShare && (
            <Form.Item name="roleId" label="共享给角色" tooltip="不选为个人视图，只有自己可见">
              <Select
                allowClear
                placeholder="个人视图"
                options={data.roles.map((r) => ({ value: r.id, label: r.name }))}
              />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
