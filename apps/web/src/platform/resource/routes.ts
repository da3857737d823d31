import { flattenMenu, MENU_TREE, type MenuNode, type ResourceDef } from '@ringmes/domain';
import { type ComponentType, createElement } from 'react';
import type { PageProps } from '../page.ts';
import type { PageLoader } from './area-pages.ts';
import { prefetchFirstPage } from './resource-api.ts';

/**
 * Where a resource's screens live. The list path is the definition's `route`; the add, edit and
 * detail pages are its hidden siblings in the menu tree (activeMenu = the list path). A resource
 * without an edit page is edited in a modal on its list, one without a detail page shows details
 * in a drawer. `-info` pages (设备信息) are the form for both adding and editing, unless the
 * resource has -add and -edit pages: then `-info` is its detail (委外订单详情).
 */
export interface ResourceRoutes {
  list: string;
  add?: string;
  edit?: string;
  detail?: string;
  /** Add and edit happen on pages (else in a modal on the list). */
  formOnPage: boolean;
}

const cache = new Map<string, ResourceRoutes>();

function hiddenPagesOf(listPath: string): MenuNode[] {
  return flattenMenu(MENU_TREE).filter((n) => n.type === '2' && n.activeMenu === listPath && n.path);
}

export function resourceRoutes(def: ResourceDef): ResourceRoutes {
  const known = cache.get(def.name);
  if (known) return known;
  if (!def.route) throw new Error(`资源 ${def.name} 没有列表路由`);
  const pages = hiddenPagesOf(def.route).map((n) => n.path as string);
  const ending = (suffix: string) => pages.find((p) => p.endsWith(suffix));
  // A `-panel` page adds and edits as an `-info` page does (调拨单编辑).
  const info = ending('-info') ?? ending('-panel');
  const add = ending('-add');
  const edit = ending('-edit') ?? info;
  const routes: ResourceRoutes = {
    list: def.route,
    add: add ?? info,
    edit,
    // With pages of its own to add and edit, an `-info` page is the detail (委外订单详情).
    detail: ending('-detail') ?? (add && ending('-edit') ? info : undefined),
    formOnPage: Boolean(edit),
  };
  cache.set(def.name, routes);
  return routes;
}

/** A page of the kit bound to its definition. */
export type ResourcePageProps = PageProps & { def: ResourceDef };
export type ResourcePageLoader = () => Promise<ComponentType<ResourcePageProps>>;

export interface ResourcePageOverrides {
  list?: ResourcePageLoader;
  /** The list override opens on the kit list's first page (its data can be asked for ahead). */
  listOpensOnFirstPage?: boolean;
  form?: ResourcePageLoader;
  detail?: ResourcePageLoader;
}

const kitList: ResourcePageLoader = () => import('./resource-list.page.tsx').then((m) => m.ResourceListPage);
const kitForm: ResourcePageLoader = () => import('./resource-form.page.tsx').then((m) => m.ResourceFormPage);
const kitDetail: ResourcePageLoader = () =>
  import('./resource-detail.page.tsx').then((m) => m.ResourceDetailPage);

function bind(def: ResourceDef, load: ResourcePageLoader): PageLoader {
  return () => load().then((Page) => (props: PageProps) => createElement(Page, { ...props, def }));
}

/**
 * Route path → loader of every screen of a resource (list, add, edit, detail): the kit's generic
 * pages unless a module overrides one.
 */
export function resourcePageLoaders(
  def: ResourceDef,
  overrides: ResourcePageOverrides = {},
): Record<string, PageLoader> {
  const routes = resourceRoutes(def);
  const form = bind(def, overrides.form ?? kitForm);
  const list = bind(def, overrides.list ?? kitList);
  if (!overrides.list || overrides.listOpensOnFirstPage)
    list.prefetch = (client) => prefetchFirstPage(client, def);
  const out: Record<string, PageLoader> = { [routes.list]: list };
  if (routes.add) out[routes.add] = form;
  if (routes.edit) out[routes.edit] = form;
  if (routes.detail) out[routes.detail] = bind(def, overrides.detail ?? kitDetail);
  return out;
}
