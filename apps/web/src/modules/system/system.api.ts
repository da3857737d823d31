import { http } from '../../platform/api/client.ts';
import type { Page } from '../../platform/api/types.ts';
import type { ServerMenu } from '../../platform/session.ts';

// ------------------------------------------------------------------ users

export type Status = '0' | '1';

export interface UserRow {
  userId: number;
  userName: string;
  firstName: string;
  phone?: string | null;
  email?: string | null;
  avatar?: string | null;
  introduction?: string | null;
  status: Status;
  deptId?: number | null;
  deptName?: string | null;
  roleIds?: number[];
  /** The server answers the names joined with commas; an array is accepted too. */
  roleNames?: string[] | string | null;
  createdAt?: string;
  updatedAt?: string;
  version?: number;
}

export function roleNameList(names: UserRow['roleNames']): string[] {
  if (!names) return [];
  if (Array.isArray(names)) return names;
  return names
    .split(/[,，、]/)
    .map((n) => n.trim())
    .filter(Boolean);
}

export interface UserQuery {
  pageNum: number;
  pageSize: number;
  userName?: string;
  firstName?: string;
  phone?: string;
  deptId?: number;
  status?: Status;
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
}

export interface UserInput {
  userName?: string;
  firstName?: string;
  passWord?: string;
  phone?: string;
  email?: string;
  deptId?: number | null;
  roleIds?: number[];
  status?: Status;
  introduction?: string;
}

export const userApi = {
  list: (q: UserQuery) => http.get<Page<UserRow>>('/api/v1/user/list', { ...q }),
  add: (body: UserInput) => http.post<UserRow>('/api/v1/user/newAddUser', body),
  update: (body: UserInput & { userId: number; version?: number }) =>
    http.put<UserRow>('/api/v1/user/newUpdateUser', body),
  remove: (body: { userId: number } | { userIds: number[] }) =>
    http.delete<null>('/api/v1/user/newDeleteUser', body),
  updatePassword: (userId: number, passWord: string) =>
    http.put<null>('/api/v1/user/newUpdateUserPwd', { userId, passWord }),
  /** True when the name is free (the user being edited excluded). */
  nameIsFree: (userName: string, userId?: number) =>
    http.get<boolean>('/api/v1/user/selectUserNameIsTrue', { userName, userId }, { silent: true }),
};

// ------------------------------------------------------------------ departments

export interface Dept {
  id: number;
  deptName: string;
  parentId?: number | null;
  orderNum?: number | null;
  leader?: string | null;
  phone?: string | null;
  status?: Status;
  createdAt?: string;
  version?: number;
  childDept?: Dept[];
}

export interface DeptInput {
  deptName?: string;
  parentId?: number | null;
  orderNum?: number | null;
  leader?: string;
  phone?: string;
  status?: Status;
}

export const deptApi = {
  tree: (deptName?: string) => http.post<Dept[]>('/api/v1/dept/listDeptTree', deptName ? { deptName } : {}),
  add: (body: DeptInput) => http.post<Dept>('/api/v1/dept/addDept', body),
  update: (body: DeptInput & { id: number; version?: number }) =>
    http.put<Dept>('/api/v1/dept/updateDept', body),
  remove: (id: number) => http.delete<null>('/api/v1/dept/deleteDeptById', undefined, { params: { id } }),
};

// ------------------------------------------------------------------ roles

export interface Role {
  id: number;
  roleName: string;
  roleKey: string;
  orderNum?: number | null;
  status?: Status;
  remark?: string | null;
  menuIds?: number[];
  userCount?: number;
  createdAt?: string;
  version?: number;
}

export interface RoleQuery {
  pageNum: number;
  pageSize: number;
  roleName?: string;
  roleKey?: string;
  status?: Status;
}

export interface RoleInput {
  roleName?: string;
  roleKey?: string;
  orderNum?: number | null;
  status?: Status;
  remark?: string;
  menuIds?: number[];
  version?: number;
}

export const roleApi = {
  page: (q: RoleQuery) => http.get<Page<Role>>('/api/v1/role/page', { ...q }),
  listAll: () => http.get<Pick<Role, 'id' | 'roleName' | 'roleKey'>[]>('/api/v1/role/listAll'),
  info: (id: number) => http.get<Role>(`/api/v1/role/info/${id}`),
  add: (body: RoleInput) => http.post<Role>('/api/v1/role/add', body),
  edit: (id: number, body: RoleInput) => http.put<Role>(`/api/v1/role/edit/${id}`, body),
  remove: (id: number) => http.delete<null>(`/api/v1/role/delete/${id}`),
};

// ------------------------------------------------------------------ menus

export interface MenuInput {
  parentId?: number | null;
  menuName?: string;
  menuPath?: string;
  nodeType?: string;
  menuIco?: string;
  menuPermissions?: string;
  menuStatus?: string;
  location?: number | null;
  parameter?: string;
  version?: number;
}

export const menuApi = {
  tree: () => http.get<ServerMenu[]>('/api/v1/menu/tree'),
  info: (id: number) => http.get<ServerMenu>(`/api/v1/menu/info/${id}`),
  add: (body: MenuInput) => http.post<ServerMenu>('/api/v1/menu/add', body),
  edit: (id: number, body: MenuInput) => http.put<ServerMenu>(`/api/v1/menu/edit/${id}`, body),
  remove: (id: number) => http.delete<null>(`/api/v1/menu/delete/${id}`),
};

export const systemKeys = {
  users: ['system', 'user'] as const,
  depts: ['system', 'dept'] as const,
  roles: ['system', 'role'] as const,
  roleOptions: ['system', 'role', 'all'] as const,
  menus: ['system', 'menu'] as const,
};

/** The id of a menu node (the tree answers `id`; menuList answers `menuId`). */
export function menuNodeId(node: ServerMenu): number {
  return node.id ?? node.menuId;
}
