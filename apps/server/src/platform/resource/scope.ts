import {
  allowedScope,
  allPermissions,
  columnOf,
  MENU_TREE,
  mayAct,
  maySeeField,
  ownerLifted,
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

/**
 * Refuses (403) unless the user may do `action` on `record` (camelCase keys): judged by its scope
 * field, then by its owner (`ResourceDef.owner`: his own records only, unless the rule is lifted).
 */
export function assertInScope(user: AuthUser, def: ResourceDef, action: string, record: Record<string, any>) {
  const has = (p: string) => can(user, p);
  const value = def.scopedPermissions ? record[def.scopedPermissions.field] : undefined;
  if (def.scopedPermissions && !mayAct(has, def, action, value)) throw forbidden();
  if (!def.owner || ownerLifted(has, def, action, value)) return;
  if (Number(record[def.owner.field]) !== Number(user.id))
    throw forbidden(
      `只能操作本人的${def.label}，${def.label}${record.docNo ? ` ${record.docNo} ` : ''}不属于你`,
    );
}

/** Is the owner rule lifted for the user on `record` (his head may name another operator)? */
export const ownerRuleLifted = (
  user: AuthUser,
  def: ResourceDef,
  action: string,
  record: Record<string, any>,
) =>
  ownerLifted(
    (p) => can(user, p),
    def,
    action,
    def.scopedPermissions ? record[def.scopedPermissions.field] : undefined,
  );

/**
 * Limits a list query (alias `t`) to the records the user may `action`: those of his scope, and
 * of an owned resource only his own where the owner rule is not lifted for him.
 */
export function inScope<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  user: AuthUser,
  def: ResourceDef,
  action: string,
): Q {
  const has = (p: string) => can(user, p);
  const scoped = def.scopedPermissions;
  const values = scoped ? allowedScope(has, def, action) : null;
  let q = query;
  if (scoped && values !== null) {
    const column = sql.ref(`t.${columnOf(scoped.field)}`);
    q = q.where(column, 'in', values.length ? values : ['\u0000']) as Q;
  }
  if (!def.owner || has(`${def.permission}:${action}`)) return q;
  const mine = sql<boolean>`${sql.ref(`t.${columnOf(def.owner.field)}`)} = ${user.id}`;
  if (!scoped) return (ownerLifted(has, def, action) ? q : q.where(mine)) as Q;
  // Per scope value: everyone's records where the rule is lifted, his own elsewhere.
  const lifted = (values ?? Object.keys(scoped.prefixes)).filter((v) => ownerLifted(has, def, action, v));
  const column = sql.ref(`t.${columnOf(scoped.field)}`);
  if (!lifted.length) return q.where(mine) as Q;
  return q.where(sql<boolean>`(${column} IN (${sql.join(lifted)}) OR ${mine})`) as Q;
}

/**
 * Answers a record (or rows) with the fields the user may not see (`FieldDef.visibleTo`) set to
 * null. The rows are changed in place and returned.
 */
export function hideFields<T extends Record<string, any>>(user: AuthUser, def: ResourceDef, rows: T[]): T[] {
  const hidden = hiddenFieldsOf(def);
  if (!hidden.length) return rows;
  const has = (p: string) => can(user, p);
  for (const row of rows)
    for (const f of hidden)
      if (row[f.name] != null && !maySeeField(has, user.id, def, f, row)) (row as any)[f.name] = null;
  return rows;
}

const hiddenFields = new WeakMap<ResourceDef, ResourceDef['fields']>();
const hiddenFieldsOf = (def: ResourceDef) => {
  let h = hiddenFields.get(def);
  if (!h) {
    h = def.fields.filter((f) => f.visibleTo);
    hiddenFields.set(def, h);
  }
  return h;
};

/**
 * The user of a command that creates records of `def` on his behalf (派工 makes dispatches, the
 * operator's 报工 a report): his own permissions plus `${def.permission}:${action}`, the command's
 * own permission having been checked by its route.
 */
export const grantingFor = (user: AuthUser, def: ResourceDef, action = 'add'): AuthUser => ({
  ...user,
  permissions: new Set([...user.permissions, `${def.permission}:${action}`]),
});
