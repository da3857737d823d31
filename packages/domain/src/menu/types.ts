/**
 * One node of the seeded menu tree. The server seeds its `menu` table from this tree and
 * answers it (filtered by the user's roles) in `getUserByToken.menuList`; the web app uses the
 * same tree for route titles and for the list page a hidden add/edit/detail page highlights.
 *
 * - `type` '1' directory, '2' menu (a routable page), '3' button permission (never shown).
 * - `path` is the absolute route path of directories and pages (buttons: none).
 * - `hidden` pages (add/edit/detail) are seeded with menuStatus '0' and `activeMenu` set to
 *   the path of the list page they belong to.
 * - `permission` on a page is the permission its list/query API needs (e.g. `sale:order:list`);
 *   on a button the action permission (e.g. `sale:order:add`).
 */
export interface MenuNode {
  type: '1' | '2' | '3';
  name: string;
  path?: string;
  icon?: string;
  hidden?: boolean;
  activeMenu?: string;
  permission?: string;
  /** Pages that must not be cached in the tag bar (首页). */
  noCache?: boolean;
  /** Pinned tab in the tag bar (首页). */
  affix?: boolean;
  children?: MenuNode[];
}
