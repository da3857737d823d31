import { EllipsisOutlined } from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../../platform/menu/menu-icons.tsx';
import { firstPage, type NavItem } from '../../platform/menu/menu-model.ts';
import { visibleCount } from './top-menu-fit.ts';

export const MORE_MENU_KEY = '__more__';

/** The horizontal menu of the top-level entries, measured against its real width. */
export function TopMenu({ nav, activeKey }: { nav: NavItem[]; activeKey?: string }) {
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) setWidth(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const items = useMemo<MenuProps['items']>(() => {
    if (width === 0) return [];
    const count = visibleCount(nav.length, width);
    const entry = (item: NavItem) => ({
      key: item.key,
      icon: <MenuIcon name={item.icon} />,
      label: <span className="rm-topmenu-label">{item.title}</span>,
      title: item.title,
    });
    const shown = nav.slice(0, count).map(entry);
    const rest = nav.slice(count);
    if (rest.length === 0) return shown;
    return [
      ...shown,
      {
        key: MORE_MENU_KEY,
        icon: <EllipsisOutlined />,
        label: <span className="rm-topmenu-label">更多菜单</span>,
        popupClassName: 'rm-topmenu-more',
        children: rest.map((item) => ({
          key: item.key,
          icon: <MenuIcon name={item.icon} />,
          label: item.title,
        })),
      },
    ];
  }, [nav, width]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = nav.find((n) => n.key === key);
    const target = item && firstPage(item);
    if (target) navigate(target);
  };

  return (
    <div className="rm-topmenu" ref={box} data-testid="top-menu">
      <Menu
        mode="horizontal"
        theme="dark"
        items={items}
        selectedKeys={activeKey ? [activeKey] : []}
        onClick={onClick}
        disabledOverflow
        triggerSubMenuAction="hover"
      />
    </div>
  );
}
