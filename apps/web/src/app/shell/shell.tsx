import './shell.css';
import { MenuFoldOutlined, MenuUnfoldOutlined, ReloadOutlined } from '@ant-design/icons';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../../platform/menu/menu-icons.tsx';
import { affixPages, HOME_PATH, menuModel, type NavItem, pageMeta } from '../../platform/menu/menu-model.ts';
import { useUser } from '../../platform/session.ts';
import { tabsStore } from '../../platform/tabs-store.ts';
import { Logo } from '../../platform/ui/logo.tsx';
import { closeDrawer, toggleSidebar, useSettings } from '../settings.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { Clock } from './clock.tsx';
import { GlobalKeys } from './global-keys.tsx';
import { KeepAliveOutlet, refreshPage } from './keep-alive.tsx';
import { MessageBell } from './message-bell.tsx';
import { SideMenu } from './side-menu.tsx';
import { SizeSwitch } from './size-switch.tsx';
import { TagsView } from './tags-view.tsx';
import { TopMenu } from './top-menu.tsx';
import { UserMenu } from './user-menu.tsx';

export const PRODUCT_TITLE = 'RingMES 轴承制造管理系统';
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 64;

/** A top-level entry that is a single page of the same name (首页) needs no sidebar. */
function needsSidebar(root: NavItem | undefined): boolean {
  const children = root?.children ?? [];
  if (children.length === 0) return false;
  return !(children.length === 1 && !children[0].children?.length && children[0].title === root?.title);
}

/**
 * The application frame of spec section 2: top bar (title, clock, top menu with 更多菜单,
 * messages, user menu), the sidebar of the active top-level entry (a drawer below 992 px),
 * breadcrumb, tag bar and the kept-alive pages.
 */
export function Shell() {
  const user = useUser();
  const location = useLocation();
  const navigate = useNavigate();
  const device = useSettings((s) => s.device);
  const sidebarOpened = useSettings((s) => s.sidebarOpened);
  const drawerOpen = useSettings((s) => s.drawerOpen);
  const path = location.pathname;
  const model = useMemo(() => (user ? menuModel(user) : undefined), [user]);
  const [lastRootKey, setLastRootKey] = useState<string | undefined>(undefined);

  const trail = model?.trailFor(path) ?? [];
  const root = trail[0] ?? model?.nav.find((n) => n.key === lastRootKey);
  const selectedKey = model?.menuKeyFor(path) ?? path;
  const meta = pageMeta(path);
  const mobile = device === 'mobile';
  const showSidebar = needsSidebar(root);

  const rootKey = trail[0]?.key;
  useEffect(() => {
    if (rootKey) setLastRootKey(rootKey);
  }, [rootKey]);

  // Pinned tabs first, then every page the user visits.
  useEffect(() => {
    if (!model) return;
    for (const pinned of affixPages()) {
      if (model.canVisit(pinned.path)) {
        tabsStore.visit({
          path: pinned.path,
          fullPath: pinned.path,
          title: pinned.title,
          affix: true,
          noCache: pinned.noCache,
        });
      }
    }
  }, [model]);

  useEffect(() => {
    if (meta?.type !== '2') return;
    tabsStore.visit({
      path,
      fullPath: `${path}${location.search}`,
      title: meta.title,
      affix: meta.affix,
      noCache: meta.noCache,
    });
  }, [path, location.search, meta]);

  useEffect(() => {
    document.title = meta ? `${meta.title} - RingMES` : PRODUCT_TITLE;
  }, [meta]);

  // Navigating closes the mobile drawer.
  useEffect(() => {
    if (path) closeDrawer();
  }, [path]);

  if (!user || !model) return null;
  const collapsed = !mobile && !sidebarOpened;
  const sideMenu = (
    <SideMenu
      root={root}
      selectedKey={selectedKey}
      openTrail={trail.slice(1, -1).map((t) => t.key)}
      collapsed={collapsed}
      onNavigate={mobile ? closeDrawer : undefined}
    />
  );
  const siderTitle = root && (
    <div className="rm-sider-title" title={root.title}>
      <MenuIcon name={root.icon} />
      {!collapsed && <span>{root.title}</span>}
    </div>
  );

  return (
    <div
      className={`rm-app${mobile ? ' rm-mobile' : ''}${collapsed ? ' rm-collapsed' : ''}`}
      data-device={device}
    >
      <header className="rm-header">
        <Link to="/" className="rm-brand" title={PRODUCT_TITLE}>
          <Logo size={30} />
          <span className="rm-brand-title">{PRODUCT_TITLE}</span>
        </Link>
        <TopMenu nav={model.nav} activeKey={root?.key} />
        <div className="rm-header-right">
          <GlobalKeys model={model} />
          <Clock />
          <SizeSwitch />
          <MessageBell canOpenCenter={model.canVisit('/system/message/index')} />
          <UserMenu />
        </div>
      </header>
      <div className="rm-body">
        {showSidebar && !mobile && (
          <aside
            className="rm-sider"
            style={{ width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH }}
            data-testid="sidebar"
          >
            {siderTitle}
            <div className="rm-sider-scroll">{sideMenu}</div>
          </aside>
        )}
        {mobile && showSidebar && (
          <>
            {drawerOpen && <div className="rm-drawer-mask" onClick={closeDrawer} aria-hidden="true" />}
            <aside
              className={`rm-drawer-panel${drawerOpen ? ' rm-open' : ''}`}
              aria-hidden={!drawerOpen}
              data-testid="sidebar-drawer"
            >
              {siderTitle}
              <div className="rm-sider-scroll">{sideMenu}</div>
            </aside>
          </>
        )}
        <main className="rm-main">
          <div className="rm-navbar">
            {showSidebar && (
              <button
                type="button"
                className="rm-hamburger"
                onClick={toggleSidebar}
                aria-label={mobile ? '打开菜单' : collapsed ? '展开侧边栏' : '收起侧边栏'}
                data-testid="hamburger"
              >
                {mobile ? <MenuUnfoldOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              </button>
            )}
            <Breadcrumbs path={path} />
            <button
              type="button"
              className="rm-navbar-action"
              title="刷新当前页"
              aria-label="刷新当前页"
              onClick={() => {
                refreshPage(path);
                navigate(`/redirect${path}${location.search}`, { replace: true });
              }}
            >
              <ReloadOutlined />
            </button>
          </div>
          <TagsView
            activePath={path}
            fallbackPath={model.canVisit(HOME_PATH) ? HOME_PATH : model.landingPath()}
          />
          <div className="rm-content">
            <KeepAliveOutlet />
          </div>
        </main>
      </div>
    </div>
  );
}
