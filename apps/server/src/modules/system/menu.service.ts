import { sql } from 'kysely';
import type { AuthUser } from '../../platform/auth/sessions.ts';
import type { Db } from '../../platform/db/db.ts';

export interface MenuRow {
  id: number;
  parentId: number | null;
  menuName: string;
  menuPath: string | null;
  nodeType: '1' | '2' | '3';
  menuIco: string | null;
  menuPermissions: string | null;
  menuStatus: '0' | '1';
  location: number;
  parameter: string;
  version: number;
}

export interface MenuItem {
  id?: number;
  menuId: number;
  parentId?: number | null;
  menuPath: string;
  menuName: string;
  menuStatus: string;
  menuIco: string;
  nodeType: string;
  menuPermissions: string;
  location: number;
  parameter: string;
  version?: number;
  children: MenuItem[];
}

const COLUMNS = [
  'id',
  'parentId',
  'menuName',
  'menuPath',
  'nodeType',
  'menuIco',
  'menuPermissions',
  'menuStatus',
  'location',
  'parameter',
  'version',
] as const;

export async function allMenus(db: Db): Promise<MenuRow[]> {
  return (await db
    .selectFrom('menu')
    .select(COLUMNS)
    .orderBy('location')
    .orderBy('id')
    .execute()) as MenuRow[];
}

/** The nodes a user's roles grant, with the directories above them; everything for admins. */
export async function grantedMenus(db: Db, user: AuthUser): Promise<MenuRow[]> {
  if (user.isAdmin) return allMenus(db);
  const r = await sql<MenuRow>`
    WITH RECURSIVE granted AS (
      SELECT m.* FROM menu m
       WHERE m.id IN (SELECT rm.menu_id FROM role_menu rm
                        JOIN user_role ur ON ur.role_id = rm.role_id
                        JOIN role r ON r.id = rm.role_id AND r.status = '1'
                       WHERE ur.user_id = ${user.id})
      UNION
      SELECT p.* FROM menu p JOIN granted g ON g.parent_id = p.id
    )
    SELECT id, parent_id, menu_name, menu_path, node_type, menu_ico, menu_permissions, menu_status,
           location, parameter, version
      FROM granted ORDER BY location, id`.execute(db);
  return r.rows;
}

/**
 * The menu rows as a tree. `profile` answers the shape `getUserByToken` promises and nothing more
 * (menuId, menuPath, menuName, menuStatus, menuIco, nodeType, menuPermissions, location,
 * parameter, children): no `id`, `parentId` or `version`, which only the menu editor needs.
 */
export function toTree(rows: MenuRow[], shape: 'editor' | 'profile' = 'editor'): MenuItem[] {
  const byId = new Map<number, MenuItem>();
  for (const r of rows) {
    const node: MenuItem = {
      menuId: r.id,
      menuPath: r.menuPath ?? '',
      menuName: r.menuName,
      menuStatus: r.menuStatus,
      menuIco: r.menuIco ?? '',
      nodeType: r.nodeType,
      menuPermissions: r.menuPermissions ?? '',
      location: r.location,
      parameter: r.parameter ?? '',
      children: [],
    };
    byId.set(
      r.id,
      shape === 'editor' ? { id: r.id, parentId: r.parentId, ...node, version: r.version } : node,
    );
  }
  const roots: MenuItem[] = [];
  for (const r of rows) {
    const item = byId.get(r.id) as MenuItem;
    const parent = r.parentId === null ? undefined : byId.get(r.parentId);
    if (parent) parent.children.push(item);
    else roots.push(item);
  }
  return roots;
}
