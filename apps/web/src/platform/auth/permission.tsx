import { allowedScope, mayAct, mayActOn, type ResourceDef } from '@ringmes/domain';
import type { ReactNode } from 'react';
import { type UserInfo, useUser } from '../session.ts';

/** The wildcard permission: grants everything (spec section 6). */
export const ALL_PERMISSIONS = '*:*:*';
export const ADMIN_ROLE_KEY = 'admin';

/** True when the user holds `perm` (any of them, for a list), `*:*:*`, or the admin role. */
export function hasPermission(user: UserInfo | null | undefined, perm: string | readonly string[]): boolean {
  if (!user) return false;
  if ((user.roleDataList ?? []).some((r) => r.roleKey === ADMIN_ROLE_KEY)) return true;
  const granted = user.permissions ?? [];
  if (granted.includes(ALL_PERMISSIONS)) return true;
  const wanted = typeof perm === 'string' ? [perm] : perm;
  return wanted.some((p) => granted.includes(p));
}

/** `const can = usePermission(); can('system:user:add')` */
export function usePermission(): (perm: string | readonly string[]) => boolean {
  const user = useUser();
  return (perm) => hasPermission(user, perm);
}

/**
 * `const may = useRecordPermission(def); may('post', row.type)`: the domain rule `mayAct`, so
 * the kind pages' permissions (采购入库…) show the buttons the server allows. Without a value:
 * may the user do the action on some record (a 新增 button before the kind is chosen).
 */
export function useRecordPermission(def: ResourceDef): (action: string, value?: unknown) => boolean {
  const can = usePermission();
  return (action, value) => {
    if (value !== undefined) return mayAct(can, def, action, value);
    const scope = allowedScope(can, def, action);
    return scope === null || scope.length > 0;
  };
}

/**
 * `const mayOn = useRecordAction(def); mayOn('submit', row)`: may the signed-in user do `action`
 * on this record? The domain rule `mayActOn`, the one the server enforces: the record's scope (its
 * workshop) and, for a resource with an owner (a work report, a dispatch), whose record it is, so an
 * operator is offered the buttons of his own records only (a detail page opened by its address
 * included). For a resource without either it is the plain permission.
 */
export function useRecordAction(
  def: ResourceDef,
): (action: string, record: Record<string, unknown>) => boolean {
  const user = useUser();
  return (action, record) =>
    Boolean(user) && mayActOn((p) => hasPermission(user, p), Number(user?.userId), def, action, record);
}

/** Renders its children only when the user holds the permission (any of a list). */
export function Auth({
  perm,
  children,
  fallback = null,
}: {
  perm: string | readonly string[];
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const can = usePermission();
  return <>{can(perm) ? children : fallback}</>;
}
