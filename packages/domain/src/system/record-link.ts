import { MENU_TREE } from '../menu/menu-tree.ts';
import { flattenMenu } from '../menu/menu-utils.ts';
import type { ResourceDef } from '../resource/types.ts';

/**
 * Where a record opens in the web app, for links the server writes (a mention's message, a
 * search hit): the kit's detail page of its resource (`…-detail?id=12`, or the `-info` page of a
 * resource that has `-add` and `-edit` pages: 委外订单详情), else its list searched for its number
 * or code (`?keyword=…`; master data shows details in a drawer on the list). The rule is the web
 * kit's `resourceRoutes`; a resource without a list route has no link.
 */
export function recordLink(def: ResourceDef, id: number, code?: string | null): string | undefined {
  if (!def.route) return undefined;
  const detail = detailPathOf(def);
  if (detail) return `${detail}?id=${id}`;
  return code ? `${def.route}?keyword=${encodeURIComponent(code)}` : def.route;
}

const detailPaths = new Map<string, string | undefined>();
function detailPathOf(def: ResourceDef): string | undefined {
  if (detailPaths.has(def.name)) return detailPaths.get(def.name);
  const pages = flattenMenu(MENU_TREE)
    .filter((n) => n.type === '2' && n.activeMenu === def.route && n.path)
    .map((n) => n.path as string);
  const ending = (suffix: string) => pages.find((p) => p.endsWith(suffix));
  const info = ending('-info') ?? ending('-panel');
  const detail = ending('-detail') ?? (ending('-add') && ending('-edit') ? info : undefined);
  detailPaths.set(def.name, detail);
  return detail;
}
