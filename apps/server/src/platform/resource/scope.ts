import {
  allowedScope,
  allPermissions,
  columnOf,
  MENU_TREE,
  mayAct,
  permissionsFor,
  type ResourceDef,
} from '@ringmes/domain';
import { type SelectQueryBuilder, sql } from 'kysely';
import { type AuthUser, can } from '../auth/sessions.ts';
import { forbidden } from '../errors.ts';
import type { Permission } from '../http/route.ts';

/**
 * Scoped permissions on the server (ResourceDef.scopedPermissions, rule in `mayAct`): routes let
 * in holders of any scoped permission of the action, then every record is checked against the
 * scope field, and lists show only the records in scope.
 */

/** The scoped permissions that also open a route of `action` (its resource-wide one is the route's own). */
export const scopeGate = (def: ResourceDef, action: string) =>
  def.scopedPermissions
    ? (permissionsFor(def, action)
        .slice(1)
        // A view of a kind grants some actions only (采购退货: no 过账): the rest exist nowhere.
        .filter((p) => GRANTABLE.has(p)) as Permission[])
    : undefined;

const GRANTABLE = new Set(allPermissions(MENU_TREE));

/**
 * The permissions that open a route of `action` on `def`. A resource granted per kind only (a
 * workshop's tasks: no menu page grants all four) has no grantable resource-wide permission; the
 * route then opens on its kinds' permissions (and to administrators).
 */
export function gate(
  def: ResourceDef,
  action: string,
): { permission: Permission; alsoAllowedBy?: Permission[] } {
  const own = `${def.permission}:${action}` as Permission;
  const scoped = scopeGate(def, action) ?? [];
  if (GRANTABLE.has(own) || !scoped.length) return { permission: own, alsoAllowedBy: scopeGate(def, action) };
  return { permission: scoped[0], alsoAllowedBy: scoped.slice(1) };
}

/** Refuses (403) unless the user may do `action` on `record` (camelCase keys), judged by its scope field. */
export function assertInScope(user: AuthUser, def: ResourceDef, action: string, record: Record<string, any>) {
  if (!def.scopedPermissions) return;
  if (!mayAct((p) => can(user, p), def, action, record[def.scopedPermissions.field])) throw forbidden();
}

/** Limits a list query (alias `t`) to the records the user may `action`. */
export function inScope<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  user: AuthUser,
  def: ResourceDef,
  action: string,
): Q {
  if (!def.scopedPermissions) return query;
  const values = allowedScope((p) => can(user, p), def, action);
  if (values === null) return query;
  const column = sql.ref(`t.${columnOf(def.scopedPermissions.field)}`);
  return query.where(column, 'in', values.length ? values : ['\u0000']) as Q;
}

/**
 * The user of a command that creates records of `def` on his behalf (派工 makes dispatches, the
 * operator's 报工 a report): his own permissions plus `${def.permission}:${action}`, the command's
 * own permission having been checked by its route.
 */
export const grantingFor = (user: AuthUser, def: ResourceDef, action = 'add'): AuthUser => ({
  ...user,
  permissions: new Set([...user.permissions, `${def.permission}:${action}`]),
});
