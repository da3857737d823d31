/** A node of the server's menu tree (getUserByToken.menuList, GET /api/v1/menu/tree). */
export interface ServerMenu {
  id?: number;
  menuId: number;
  parentId?: number | null;
  menuPath?: string | null;
  menuName: string;
  /** '1' visible, '0' hidden. */
  menuStatus: string;
  menuIco?: string | null;
  /** '1' directory, '2' page, '3' button permission (never a menu entry). */
  nodeType: string;
  menuPermissions?: string | null;
  location?: number | null;
  /** JSON string `{ activeMenu?, noCache?, affix? }` or ''. */
  parameter?: string | null;
  version?: number;
  children?: ServerMenu[];
}

export interface UserInfo {
  userId: number;
  userName: string;
  firstName: string;
  avatar?: string | null;
  introduction?: string | null;
  phone?: string | null;
  email?: string | null;
  deptData?: { deptId?: number | null; deptName?: string | null } | null;
  roleDataList?: { roleId?: number; roleName: string; roleKey?: string }[];
  permissions?: string[];
  menuList?: ServerMenu[];
}
