import { Button, Checkbox, Spin, Tag, Tree } from 'antd';
import type { Key } from 'react';
import { useMemo, useState } from 'react';
import type { ServerMenu } from '../../../platform/session.ts';
import { menuNodeId } from '../system.api.ts';

interface Node {
  key: number;
  title: React.ReactNode;
  children?: Node[];
}

const TYPE_TAG: Record<string, { color: string; label: string }> = {
  '1': { color: 'blue', label: '目录' },
  '2': { color: 'green', label: '菜单' },
  '3': { color: 'orange', label: '按钮' },
};

function toNodes(menus: readonly ServerMenu[]): Node[] {
  return [...menus]
    .sort((a, b) => (a.location ?? 0) - (b.location ?? 0))
    .map((m) => ({
      key: menuNodeId(m),
      title: (
        <span className="rm-perm-node">
          {m.menuName}
          {m.nodeType === '3' && m.menuPermissions ? (
            <span className="rm-perm-code">{m.menuPermissions}</span>
          ) : null}
          <Tag color={TYPE_TAG[m.nodeType]?.color} className="rm-perm-tag">
            {TYPE_TAG[m.nodeType]?.label ?? m.nodeType}
          </Tag>
        </span>
      ),
      children: m.children?.length ? toNodes(m.children) : undefined,
    }));
}

function collect(
  menus: readonly ServerMenu[],
  keys: number[] = [],
  parents: Map<number, number[]> = new Map(),
) {
  for (const m of menus) {
    keys.push(menuNodeId(m));
    if (m.children?.length) {
      parents.set(
        menuNodeId(m),
        m.children.map((c) => menuNodeId(c)),
      );
      collect(m.children, keys, parents);
    }
  }
  return { keys, parents };
}

/**
 * Ids to show as checked when linked: a node is checked only when it and everything below it is
 * granted, so a half-granted directory shows half-checked instead of checking all its children.
 */
export function linkedCheckedKeys(menus: readonly ServerMenu[], granted: readonly number[]): number[] {
  const set = new Set(granted);
  const out: number[] = [];
  const full = (m: ServerMenu): boolean => {
    const kids = m.children ?? [];
    const all = kids.map(full).every(Boolean);
    const mine = set.has(menuNodeId(m)) && all;
    if (mine) out.push(menuNodeId(m));
    return mine;
  };
  menus.forEach(full);
  return out;
}

export interface PermissionValue {
  checked: number[];
  halfChecked: number[];
}

/** The checkable tree of every menu, page and button node for a role, with 展开/折叠, 全选 and 父子联动. */
export function MenuPermissionTree({
  menus,
  loading,
  value,
  onChange,
  linked,
  onLinkedChange,
}: {
  menus: readonly ServerMenu[];
  loading: boolean;
  value: PermissionValue;
  onChange: (v: PermissionValue) => void;
  linked: boolean;
  onLinkedChange: (v: boolean) => void;
}) {
  const nodes = useMemo(() => toNodes(menus), [menus]);
  const { keys: everyKey, parents } = useMemo(() => collect(menus), [menus]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const allChecked = everyKey.length > 0 && value.checked.length === everyKey.length;

  return (
    <div className="rm-perm">
      <div className="rm-perm-toolbar">
        <Button size="small" onClick={() => setExpanded(expanded.length ? [] : [...parents.keys()])}>
          {expanded.length ? '全部折叠' : '全部展开'}
        </Button>
        <Checkbox
          checked={allChecked}
          indeterminate={!allChecked && value.checked.length > 0}
          onChange={(e) => onChange({ checked: e.target.checked ? everyKey : [], halfChecked: [] })}
        >
          全选/全不选
        </Checkbox>
        <Checkbox checked={linked} onChange={(e) => onLinkedChange(e.target.checked)}>
          父子联动
        </Checkbox>
        <span className="rm-muted" style={{ marginLeft: 'auto' }}>
          已选 {value.checked.length} 项
        </span>
      </div>
      <Spin spinning={loading}>
        <div className="rm-perm-tree" data-testid="role-menu-tree">
          <Tree
            checkable
            blockNode
            selectable={false}
            checkStrictly={!linked}
            treeData={nodes}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys)}
            checkedKeys={linked ? value.checked : { checked: value.checked, halfChecked: value.halfChecked }}
            onCheck={(checked, info) => {
              if (Array.isArray(checked)) {
                onChange({
                  checked: checked.map(Number),
                  halfChecked: (info.halfCheckedKeys ?? []).map(Number),
                });
              } else {
                onChange({ checked: checked.checked.map(Number), halfChecked: [] });
              }
            }}
            height={360}
          />
        </div>
      </Spin>
    </div>
  );
}
