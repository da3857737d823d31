import { INSPECTION_CATEGORIES, MENU_TREE, type MenuNode } from '@ringmes/domain';
import type { ServerMenu, UserInfo } from '../user.ts';

/** What the shell knows about a route path, from the static menu tree of the product. */
export interface PageMeta {
  path: string;
  title: string;
  type: '1' | '2';
  hidden: boolean;
  activeMenu?: string;
  noCache: boolean;
  affix: boolean;
  icon?: string;
  /** The chain of nodes from the top-level entry down to this one. */
  trail: MenuNode[];
}

/** 首页: always reachable for a signed-in user, pinned, not cached. */
export const HOME_PATH = '/home/info';
/** The digital cockpit entry: `/` redirects here (spec section 2). */
export const COCKPIT_PATH = '/sale-manage/sale-order';

const HOME_NODE: MenuNode = {
  type: '2',
  name: '首页',
  path: HOME_PATH,
  icon: 'home',
  affix: true,
  noCache: true,
};

const META = new Map<string, PageMeta>();

function index(nodes: readonly MenuNode[], trail: MenuNode[]): void {
  for (const node of nodes) {
    if (node.type === '3') continue;
    const chain = [...trail, node];
    if (node.path && !META.has(node.path)) {
      META.set(node.path, {
        path: node.path,
        title: node.name,
        type: node.type,
        hidden: Boolean(node.hidden),
        activeMenu: node.activeMenu,
        noCache: Boolean(node.noCache),
        affix: Boolean(node.affix),
        icon: node.icon,
        trail: chain,
      });
    }
    if (node.children) index(node.children, chain);
  }
}
index(MENU_TREE, []);
if (!META.has(HOME_PATH)) index([HOME_NODE], []);
{
  // 首页 is pinned and never cached whatever the tree says (spec section 2).
  const home = META.get(HOME_PATH);
  if (home) META.set(HOME_PATH, { ...home, affix: true, noCache: true });
}

export function pageMeta(path: string): PageMeta | undefined {
  return META.get(path);
}

/** Every routable page path of the product (type '2'), hidden pages included. */
export function allPagePaths(): string[] {
  return [...META.values()].filter((m) => m.type === '2').map((m) => m.path);
}

/** Every directory path (type '1'): a route that opens the directory's first page. */
export function allDirectoryPaths(): string[] {
  return [...META.values()].filter((m) => m.type === '1').map((m) => m.path);
}

/** The first page below a node of the static tree (for directory routes). */
export function firstStaticPage(path: string): string | undefined {
  const meta = META.get(path);
  const node = meta?.trail[meta.trail.length - 1];
  const walk = (n: MenuNode): string | undefined => {
    if (n.type === '2' && n.path && !n.hidden) return n.path;
    for (const c of n.children ?? []) {
      const found = walk(c);
      if (found) return found;
    }
    return undefined;
  };
  return node ? walk(node) : undefined;
}

/** Pinned pages (affix) for the tag bar. */
export function affixPages(): PageMeta[] {
  return [...META.values()].filter((m) => m.affix && m.type === '2');
}

export function pageTitle(path: string): string {
  return META.get(path)?.title ?? '';
}

// ---------------------------------------------------------------------------------------------
// The server's menu (what the user's roles grant)

/** One entry of the top menu or the sidebar. */
export interface NavItem {
  key: string;
  path?: string;
  title: string;
  icon?: string;
  type: string;
  children?: NavItem[];
}

export interface MenuParameter {
  activeMenu?: string;
  noCache?: boolean;
  affix?: boolean;
}

export function parseParameter(raw: string | null | undefined): MenuParameter {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as MenuParameter) : {};
  } catch {
    return {};
  }
}

const byLocation = (a: ServerMenu, b: ServerMenu) =>
  (a.location ?? 0) - (b.location ?? 0) || a.menuId - b.menuId;

/**
 * The visible menu: menuStatus '1' only, button permissions (nodeType '3') never, pages that
 * `listed` refuses never, sorted by `location`. A directory whose visible children are all gone
 * is dropped.
 */
export function buildNav(
  menuList: readonly ServerMenu[] | undefined,
  listed: (path: string) => boolean = () => true,
): NavItem[] {
  const walk = (nodes: readonly ServerMenu[]): NavItem[] => {
    const out: NavItem[] = [];
    for (const node of [...nodes].sort(byLocation)) {
      if (node.nodeType === '3' || node.menuStatus !== '1') continue;
      if (node.nodeType === '2' && node.menuPath && !listed(node.menuPath)) continue;
      const children = node.children?.length ? walk(node.children) : [];
      if (node.nodeType === '1' && children.length === 0 && !node.menuPath) continue;
      if (node.nodeType === '1' && children.length === 0) continue;
      out.push({
        key: node.menuPath || `menu-${node.menuId}`,
        path: node.menuPath || undefined,
        title: node.menuName,
        icon: node.menuIco || undefined,
        type: node.nodeType,
        children: children.length ? children : undefined,
      });
    }
    return out;
  };
  return walk(menuList ?? []);
}

/** Every path the server grants (hidden pages included, buttons excluded). */
export function grantedPaths(menuList: readonly ServerMenu[] | undefined): Set<string> {
  const paths = new Set<string>();
  const walk = (nodes: readonly ServerMenu[]) => {
    for (const node of nodes) {
      if (node.nodeType !== '3' && node.menuPath) paths.add(node.menuPath);
      if (node.children) walk(node.children);
    }
  };
  walk(menuList ?? []);
  return paths;
}

/** Server-side `parameter` by path (activeMenu, noCache, affix), for nodes that carry one. */
function serverParameters(menuList: readonly ServerMenu[] | undefined): Map<string, MenuParameter> {
  const map = new Map<string, MenuParameter>();
  const walk = (nodes: readonly ServerMenu[]) => {
    for (const node of nodes) {
      if (node.menuPath && node.parameter) map.set(node.menuPath, parseParameter(node.parameter));
      if (node.children) walk(node.children);
    }
  };
  walk(menuList ?? []);
  return map;
}

export function firstPage(item: NavItem): string | undefined {
  if (item.type === '2' && item.path) return item.path;
  for (const child of item.children ?? []) {
    const found = firstPage(child);
    if (found) return found;
  }
  return item.path;
}

/** The chain of nav items from a top-level entry to the item whose path is `path`. */
export function findNavTrail(items: readonly NavItem[], path: string): NavItem[] | undefined {
  for (const item of items) {
    if (item.path === path) return [item];
    if (item.children) {
      const below = findNavTrail(item.children, path);
      if (below) return [item, ...below];
    }
  }
  return undefined;
}

/** Everything the shell derives from the signed-in user's menu. */
export interface MenuModel {
  nav: NavItem[];
  granted: Set<string>;
  /** The menu entry a path highlights: its activeMenu (hidden add/edit/detail pages) or itself. */
  menuKeyFor(path: string): string;
  /** The chain of visible entries the path highlights (top-level entry first). */
  trailFor(path: string): NavItem[];
  canVisit(path: string): boolean;
  /** Where `/` goes: the cockpit when granted and listed, else the first listed page, else 首页. */
  landingPath(): string;
}

let models = new WeakMap<UserInfo, MenuModel>();

/**
 * Which pages the menus list: those with a real page (`built`), or every page when 系统设置
 * shows unfinished ones. Unfinished pages stay reachable by address; they are only not listed.
 */
export interface MenuFilter {
  built?: ReadonlySet<string>;
  showUnfinished: boolean;
}
let filter: MenuFilter = { showUnfinished: true };

export function setMenuFilter(next: MenuFilter): void {
  filter = next;
  models = new WeakMap();
}

/** Whether the menus list a page (首页 always). */
export function isListed(path: string): boolean {
  return path === HOME_PATH || filter.showUnfinished || Boolean(filter.built?.has(path));
}

/** 首页 as a top-level entry, for users whose server menu does not carry it. */
const HOME_NAV: NavItem = {
  key: '/home',
  path: '/home',
  title: '首页',
  icon: 'HomeOutlined',
  type: '1',
  children: [{ key: HOME_PATH, path: HOME_PATH, title: '首页', type: '2' }],
};

export function menuModel(user: UserInfo): MenuModel {
  const cached = models.get(user);
  if (cached) return cached;
  const granted = grantedPaths(user.menuList);
  // 首页 needs no permission: every signed-in user has it, first in the menu.
  const listed = buildNav(user.menuList, isListed);
  const nav = granted.has(HOME_PATH) ? listed : [HOME_NAV, ...listed];
  const params = serverParameters(user.menuList);
  const menuKeyFor = (path: string) => params.get(path)?.activeMenu || pageMeta(path)?.activeMenu || path;
  const trailFor = (path: string) => {
    const key = menuKeyFor(path);
    return findNavTrail(nav, key) ?? findNavTrail(nav, path) ?? [];
  };
  const canVisit = (path: string) => path === HOME_PATH || granted.has(path);
  // 质检员 (who may judge inspections) land on 首页: its 待检验任务 card lists the tasks waiting
  // for them, with those assigned to them first.
  const inspects = (user.permissions ?? []).some((p) =>
    INSPECTION_CATEGORIES.some((c) => p === `${c.permission}:inspect`),
  );
  const landingPath = () => {
    if (canVisit(COCKPIT_PATH) && isListed(COCKPIT_PATH)) return COCKPIT_PATH;
    if (inspects) return HOME_PATH;
    for (const item of nav) {
      const p = firstPage(item);
      if (p && p !== HOME_PATH) return p;
    }
    return HOME_PATH;
  };
  const model: MenuModel = { nav, granted, menuKeyFor, trailFor, canVisit, landingPath };
  models.set(user, model);
  return model;
}
