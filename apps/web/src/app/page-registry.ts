import { type LazyExoticComponent, lazy } from 'react';
import { type PageComponent, provideAppPages } from '../platform/page.ts';
import { loadModulePage, loadShell } from './chunks.ts';
import { RESOURCE_PAGES } from './resource-pages.ts';
import { WAREHOUSE_PAGES } from './warehouse-pages.ts';

/** A lazily loaded page from a module's named export (one chunk per page). */
function page<K extends string>(
  loader: () => Promise<Record<K, PageComponent>>,
  name: K,
): LazyExoticComponent<PageComponent> {
  return lazy(() => loader().then((m) => ({ default: m[name] })));
}

/**
 * Route path → page component. Every other page path of the menu tree opens the module
 * placeholder page. A business module plugs in with one line here.
 */
export const PAGE_REGISTRY: Record<string, LazyExoticComponent<PageComponent>> = {
  ...RESOURCE_PAGES,
  ...WAREHOUSE_PAGES,
  '/home/info': page(() => import('../pages/home.page.tsx'), 'HomePage'),
  '/system/user/manage': page(() => import('../modules/system/user/user-manage.page.tsx'), 'UserManagePage'),
  '/system/role/manage': page(() => import('../modules/system/role/role-manage.page.tsx'), 'RoleManagePage'),
  '/system/menu/manage': page(() => import('../modules/system/menu/menu-manage.page.tsx'), 'MenuManagePage'),
  '/system/department/manage': page(
    () => import('../modules/system/department/department-manage.page.tsx'),
    'DepartmentManagePage',
  ),
  '/system/message/index': page(() => import('../modules/system/message/message.page.tsx'), 'MessagePage'),
  '/system/sysSetting/settingInfo': page(
    () => import('../modules/system/setting/setting.page.tsx'),
    'SystemSettingPage',
  ),
  '/system/three-app/manage': page(
    () => import('../modules/system/three-app/three-app.page.tsx'),
    'ThreeAppPage',
  ),
};

/** The placeholder for pages whose module is not built yet. */
export const ModulePlaceholder = page(loadModulePage, 'ModulePage');

provideAppPages({ loadShell, loadModulePage, pagePaths: () => Object.keys(PAGE_REGISTRY) });

export function pageComponent(path: string): LazyExoticComponent<PageComponent> {
  return PAGE_REGISTRY[path] ?? ModulePlaceholder;
}
