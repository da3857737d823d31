import {
  DeleteOutlined,
  EditOutlined,
  FolderOpenOutlined,
  PlusOutlined,
  SearchOutlined,
} from '@ant-design/icons';
import { materialTypeResource } from '@ringmes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Popconfirm, Skeleton, Tag, Tooltip, Tree } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { usePermission } from '../../../platform/auth/permission.tsx';
import { toast } from '../../../platform/feedback.ts';
import { ResourceFormDialog } from '../../../platform/resource/dialogs.tsx';
import { resourceApi } from '../../../platform/resource/resource-api.ts';
import {
  invalidateResource,
  type RefTreeNode,
  useTreeOptions,
} from '../../../platform/resource/use-options.ts';
import { PageCard } from '../../../platform/ui/page-card.tsx';

const ALL = 'all';

interface TreeItem {
  key: string;
  node?: RefTreeNode;
  children?: TreeItem[];
}

function filterTree(nodes: RefTreeNode[], text: string): RefTreeNode[] {
  if (!text) return nodes;
  const out: RefTreeNode[] = [];
  for (const n of nodes) {
    const children = filterTree(n.children ?? [], text);
    const hit =
      n.label.includes(text) ||
      String(n.code ?? '')
        .toLowerCase()
        .includes(text.toLowerCase());
    if (hit || children.length) out.push({ ...n, children: hit ? n.children : children });
  }
  return out;
}

function toItems(nodes: RefTreeNode[]): TreeItem[] {
  return nodes.map((n) => ({
    key: String(n.value),
    node: n,
    children: n.children?.length ? toItems(n.children) : undefined,
  }));
}

/**
 * 物料类型 tree beside the material list: picking a type filters the list (its sub-types
 * included); add, edit and delete types in place.
 */
export function MaterialTypeTree({
  selected,
  onSelect,
}: {
  selected: number | undefined;
  onSelect: (id: number | undefined) => void;
}) {
  const can = usePermission();
  const client = useQueryClient();
  const { tree, loading } = useTreeOptions(materialTypeResource.name);
  const [text, setText] = useState('');
  const [modal, setModal] = useState<{ open: boolean; id?: number; parentId?: number }>({ open: false });
  const perm = (a: string) => can(`${materialTypeResource.permission}:${a}`);

  const items = useMemo<TreeItem[]>(
    () => [{ key: ALL, children: toItems(filterTree(tree, text.trim())) }],
    [tree, text],
  );

  const remove = async (id: number) => {
    try {
      await resourceApi(materialTypeResource).remove([id]);
      toast.success('删除成功');
      if (selected === id) onSelect(undefined);
      invalidateResource(client, materialTypeResource.name);
    } catch {
      // shown by the request layer (for example: 该记录已被「物料」引用，无法删除)
    }
  };

  const title = (item: TreeItem) => {
    if (!item.node) {
      return (
        <span className="fm-tree-title">
          <FolderOpenOutlined className="fm-tree-icon" />
          <span className="fm-tree-name">全部物料</span>
        </span>
      );
    }
    const n = item.node;
    return (
      <span className={`fm-tree-title${n.disabled ? ' fm-tree-disabled' : ''}`}>
        <span className="fm-tree-name" title={`${n.label}（${n.code}）`}>
          {n.label}
        </span>
        {n.disabled && <Tag className="fm-tree-tag">停用</Tag>}
        <span className="fm-tree-actions">
          {perm('add') && (
            <Tooltip title="新增下级类型">
              <PlusOutlined
                aria-label={`在${n.label}下新增类型`}
                onClick={(e) => {
                  e.stopPropagation();
                  setModal({ open: true, parentId: n.value });
                }}
              />
            </Tooltip>
          )}
          {perm('edit') && (
            <Tooltip title="编辑">
              <EditOutlined
                aria-label={`编辑${n.label}`}
                onClick={(e) => {
                  e.stopPropagation();
                  setModal({ open: true, id: n.value });
                }}
              />
            </Tooltip>
          )}
          {perm('delete') && (
            <Popconfirm
              title="删除物料类型"
              description={`确定删除「${n.label}」吗？有下级类型或物料的类型不能删除。`}
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true }}
              onConfirm={(e) => {
                e?.stopPropagation();
                return remove(n.value);
              }}
              onCancel={(e) => e?.stopPropagation()}
            >
              <DeleteOutlined aria-label={`删除${n.label}`} onClick={(e) => e.stopPropagation()} />
            </Popconfirm>
          )}
        </span>
      </span>
    );
  };

  return (
    <PageCard
      className="fm-type-card"
      title="物料类型"
      extra={
        perm('add') ? (
          <Button size="small" type="link" icon={<PlusOutlined />} onClick={() => setModal({ open: true })}>
            新增
          </Button>
        ) : undefined
      }
    >
      <Input
        allowClear
        prefix={<SearchOutlined className="rm-muted" />}
        placeholder="搜索类型名称或编码"
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="fm-tree-search"
      />
      {loading ? (
        <Skeleton active paragraph={{ rows: 8 }} title={false} />
      ) : tree.length ? (
        <Tree<TreeItem>
          className="fm-tree"
          blockNode
          defaultExpandAll
          key={text.trim()}
          treeData={items}
          fieldNames={{ title: 'key', key: 'key', children: 'children' }}
          titleRender={title}
          selectedKeys={[selected ? String(selected) : ALL]}
          onSelect={(keys: Key[]) => {
            const k = keys[0];
            onSelect(k === undefined || k === ALL ? undefined : Number(k));
          }}
          data-testid="material-type-tree"
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无物料类型" />
      )}
      <ResourceFormDialog
        def={materialTypeResource}
        open={modal.open}
        id={modal.id}
        initialValues={modal.parentId ? { parentId: modal.parentId } : undefined}
        onClose={() => setModal({ open: false })}
      />
    </PageCard>
  );
}
