import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../../platform/menu/menu-icons.tsx';
import type { NavItem } from '../../platform/menu/menu-model.ts';

type Items = NonNullable<MenuProps['items']>;

function toItems(items: readonly NavItem[], depth: number): Items {
  return items.map((item) =>
    item.children?.length
      ? {
          key: item.key,
          icon: depth === 0 ? <MenuIcon name={item.icon} /> : undefined,
          label: item.title,
          children: toItems(item.children, depth + 1),
        }
      : {
          key: item.key,
          icon: depth === 0 ? <MenuIcon name={item.icon ?? 'ProfileOutlined'} /> : undefined,
          label: item.title,
        },
  );
}

function collectPaths(items: readonly NavItem[], into: Map<string, string>): Map<string, string> {
  for (const item of items) {
    if (item.path && !item.children?.length) into.set(item.key, item.path);
    if (item.children) collectPaths(item.children, into);
  }
  return into;
}

/**
 * The sidebar: only the children of the active top-level entry. `selectedKey` is the entry the
 * current page highlights (hidden pages highlight their list through activeMenu).
 */
export function SideMenu({
  root,
  selectedKey,
  openTrail,
  collapsed,
  onNavigate,
}: {
  root: NavItem | undefined;
  selectedKey: string;
  openTrail: string[];
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const navigate = useNavigate();
  const children = root?.children ?? [];
  const items = useMemo(() => toItems(children, 0), [children]);
  const paths = useMemo(() => collectPaths(children, new Map()), [children]);
  const [openKeys, setOpenKeys] = useState<string[]>(openTrail);
  const trailKey = openTrail.join('|');

  // Open the groups on the way to the current page whenever it changes.
  useEffect(() => {
    const wanted = trailKey ? trailKey.split('|') : [];
    setOpenKeys((prev) => [...new Set([...prev, ...wanted])]);
  }, [trailKey]);

  return (
    <Menu
      className="rm-sidemenu"
      mode="inline"
      theme="light"
      items={items}
      selectedKeys={[selectedKey]}
      inlineCollapsed={collapsed}
      {...(collapsed ? {} : { openKeys, onOpenChange: (keys: string[]) => setOpenKeys(keys) })}
      onClick={({ key }) => {
        const path = paths.get(key);
        if (path) {
          navigate(path);
          onNavigate?.();
        }
      }}
    />
  );
}
