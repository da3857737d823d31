/**
 * The declaration of a resource: one plain-data object from which the server derives its
 * validated API routes (page/add/edit/info/delete, import/export) and the web its list, form and
 * detail screens. Business behaviour that does not fit a declaration lives in ordinary functions
 * beside the resource (server hooks, custom routes, custom pages) — never in strings here.
 *
 * Naming: a field `name` is the camelCase API name; its column is the snake_case of it
 * (`safetyStockMin` → `safety_stock_min`). The table's SQL migration is generated from this
 * declaration (`resourceDdl`, `scripts/gen-migration.mjs`); a test checks that every declared
 * field has its column.
 */

import type { LifecycleDef } from './lifecycle.ts';

export type FieldKind =
  | 'text' // varchar(max)
  | 'textarea' // text, multi-line input
  | 'int' // integer
  | 'decimal' // numeric(18, scale); answered as a string, never a binary float
  | 'quantity' // numeric(18,4)
  | 'money' // numeric(18,2)
  | 'price' // numeric(18,6) unit price
  | 'date' // date, 'YYYY-MM-DD'
  | 'datetime' // timestamptz, 'YYYY-MM-DD HH:mm:ss'
  | 'boolean' // boolean
  | 'enum' // varchar with one of `options`
  | 'ref' // bigint id of a record of resource `ref`; answered with `<base>Name` beside it
  | 'refs' // bigint[] of ids of resource `ref` (e.g. labels, members)
  | 'json'; // jsonb (template attributes)

export interface EnumOption {
  value: string;
  label: string;
  /** Ant Design tag colour for lists. */
  color?: string;
}

export interface FieldDef {
  name: string;
  label: string;
  kind: FieldKind;
  /** Data dictionary text, shown as the form tooltip. */
  help?: string;
  required?: boolean;
  /** Unique among the resource's rows (a unique index `<table>_<column>_key` in the migration). */
  unique?: boolean;
  /** Value of a new record; a date may say `'today'` (the form fills in today, the column defaults to CURRENT_DATE). */
  default?: string | number | boolean | null;
  /** text: maximum length (default 100); numbers: maximum value. */
  max?: number;
  /** text: minimum length; numbers: minimum value (quantities default to ≥ 0). */
  min?: number;
  /** decimal: digits after the point. */
  scale?: number;
  /**
   * quantity: counted in a unit whose precision (小数位数) it must fit, on the server and in the form.
   * `unit` names the field holding the chosen unit, `material` the field holding the material whose
   * base unit counts it when no unit is chosen. On a line, a name the line does not declare is read
   * from the header. Server-written (readonly) quantities are not checked.
   */
  unitFrom?: { material?: string; unit?: string };
  pattern?: { regex: string; message: string };
  options?: EnumOption[];
  /** For ref/refs: the referenced resource's name in the registry. */
  ref?: string;
  /** Only records with status '1' (or customers with state 1) may be referenced; default true. */
  refActiveOnly?: boolean;
  /** Shown as a list column (default: true for non-text-area fields in the first 8). */
  list?: boolean;
  /**
   * Appears in the list's search form: `like` for text, `eq` for refs/enums, `range` for dates/numbers.
   * On a line field it filters the headers to those having a matching line (物料 on stock documents).
   */
  filter?: 'like' | 'eq' | 'range';
  /** Can be sorted in lists (implies an index in the migration). */
  sortable?: boolean;
  /** Not on the add/edit form (computed or maintained by the server). */
  readonly?: boolean;
  /** Form layout: take the whole row. */
  wide?: boolean;
  /**
   * Carried in the form's values and the body but never shown: a link the system sets and keeps
   * through edits (a stock document line's `sourceLineId`, the order line it ships).
   */
  hidden?: boolean;
  /**
   * Finance or purchase data beyond money and prices (bank account, tax number): only holders of
   * the resource's read permission see it, never in option lists (see `isConfidential`).
   */
  confidential?: boolean;
  /**
   * date/datetime: a time that has happened (a measuring time): not later than now, a few minutes
   * of clock skew allowed. Every stored date also lies in the business date window (系统设置
   * `dates.earliest` … today + `dates.yearsAhead` years; docs/architecture.md).
   */
  notFuture?: boolean;
  /**
   * Who may see this field's value (money of one person: a report's piece rate and wage). Shown to
   * holders of one of `permissions`, of one of `actions` on the record (resource-wide or in its
   * scope: the workshop head who approves reports), and to the record's owner (`owner`, see
   * `ResourceDef.owner`); to everyone else it is answered as null. Without it a money field is seen
   * by whoever may read the record.
   */
  visibleTo?: { permissions?: string[]; actions?: string[]; owner?: boolean };
}

export interface LineDef {
  /** API name of the array in the body and in info, e.g. `lines`, `contacts`, `attributes`. */
  name: string;
  label: string;
  /** Line table; it has `id`, `<parent>_id` (FK ON DELETE CASCADE), `line_no`, and the fields. */
  table: string;
  /** Column in the line table pointing to the header, e.g. `bom_id`. */
  parentColumn: string;
  fields: FieldDef[];
  /** At least this many lines (default 0). */
  min?: number;
  max?: number;
  /**
   * Written by the server only (a production order's frozen BOM and requirements): answered by
   * info and shown on detail pages, never accepted in a body nor shown on forms.
   */
  readonly?: boolean;
}

/**
 * How a document is numbered (`XS20261122-0001`, `platform/numbering.ts` on the server). `prefix`
 * is the default prefix: it names the type's counter and its row in 系统设置 › 单据编号 for good;
 * 系统设置 only changes what is printed. Every resource with a `docNo` field declares it (a
 * registry test checks), and 单据编号 lists exactly the declared types (`docTypesOf`).
 */
export interface DocNumbering {
  prefix: string;
  /** The type's name in 单据编号 (default: the resource's label). */
  docType?: string;
  /** Further types numbered on the same records, each its own counter (a refund receipt: 退款单 TK…). */
  variants?: { prefix: string; docType: string }[];
  /**
   * The business date (a `date` field) a number is dated by when the kit numbers the document
   * (its hooks set no `docNo`); without it, the day it is saved.
   */
  dateField?: string;
}

/** A numbered document type as 单据编号 lists it: its name and default prefix. */
export interface DocType {
  docType: string;
  defaultPrefix: string;
}

export interface ResourceDef {
  /** Registry key and API segment: `/api/v1/<name>/page`. */
  name: string;
  label: string;
  table: string;
  /** Permission prefix `area:resource`; actions append `:list`, `:add`, `:edit`, `:delete`, `:export`, `:import`. */
  permission: string;
  /** The list page route in the menu tree, e.g. `/factory-info/custom/custom-manage`. */
  route?: string;
  fields: FieldDef[];
  lines?: LineDef[];
  /** Field shown as the record's name in option lists and reference labels (default `name`). */
  labelField?: string;
  /** Field holding the business code, if any (default `code` when declared). */
  codeField?: string;
  /** `status` ('1' enabled / '0' disabled) or customers' `state` (1 active): option lists and references see active rows only. */
  activeField?: { name: string; value: string | number };
  /** Tree resources (material types, classifications): the parent field (a ref to the same resource). */
  parentField?: string;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /**
   * Paths where the spec fixes them differently: supplier uses `update/{id}`; material-template
   * uses `pageList` and POST `edit`/`delete` with the id in the body.
   */
  api?: {
    page?: string;
    edit?: { method: 'PUT' | 'POST'; path: string };
    delete?: { method: 'DELETE' | 'POST'; path: string };
  };
  /**
   * Excel import of header rows (template, validation report, all-or-nothing). On by default
   * for resources whose lines are optional; importing is bulk adding, so it needs `:add`.
   */
  importable?: boolean;
  /** Records can be listed but not created/edited/deleted through the generic API (system enums…). */
  readonlyApi?: boolean;
  /**
   * Permissions per value of one field: a user holding `${prefix}:${action}` may do that action
   * on the records whose `field` has that value, without the resource-wide permission (the
   * inbound and outbound kind pages: 采购入库 grants purchase inbound documents only).
   */
  scopedPermissions?: { field: string; prefixes: Record<string, string | readonly string[]> };
  /**
   * A document with states (`status` column): its transitions are `POST …/<transition>/{id}`,
   * each needing `${permission}:<transition>`; edit and delete only in the `editable` states.
   */
  lifecycle?: LifecycleDef;
  /**
   * Records belong to a person (ERPNext's `if_owner`, Odoo's record rules): `field` holds a user id
   * (a report's operator). A user who holds neither the resource-wide permission of an action nor
   * one of the `liftedBy` actions on the record (resource-wide or in its scope) may read, add,
   * edit, delete and run transitions on his own records only; lists show him only his own. The
   * kit enforces it on every generic call and transition, commands through `assertInScope`.
   */
  owner?: { field: string; liftedBy: string[] };
  /**
   * What dropdowns read through `GET …/options` (and `…/tree`): id, code, label, parent and
   * active flag, plus `fields` (never confidential ones). Master data's options are open to every
   * signed-in user; a document's (a lifecycle or scoped permissions) need its read permission
   * and show the user's scope only (`optionsNeedRead`). `remote`: a big table whose pickers search
   * the server as the user types instead of loading the list.
   */
  options?: { fields?: string[]; remote?: boolean };
  /** A document with a `docNo`: how its numbers are made (see `DocNumbering`). */
  numbering?: DocNumbering;
}

/** Every numbered document type of `defs`, in their order: each resource's, then its variants. */
export function docTypesOf(defs: readonly ResourceDef[]): DocType[] {
  return defs.flatMap((def) =>
    def.numbering
      ? [
          { docType: def.numbering.docType ?? def.label, defaultPrefix: def.numbering.prefix },
          ...(def.numbering.variants ?? []).map((v) => ({ docType: v.docType, defaultPrefix: v.prefix })),
        ]
      : [],
  );
}

/** The default prefix of a numbered resource's documents; a resource that declares none is a bug. */
export function docPrefixOf(def: ResourceDef): string {
  if (!def.numbering) throw new Error(`${def.name} declares no numbering`);
  return def.numbering.prefix;
}

/** Money, prices and fields declared confidential: never shown without the resource's read permission. */
export function isConfidential(f: FieldDef): boolean {
  return f.kind === 'money' || f.kind === 'price' || f.confidential === true;
}

/** The fields an option row of `def` carries besides `id`: code, label, parent, active flag and the declared ones. */
export function optionFieldNames(def: ResourceDef): string[] {
  const code = def.codeField ?? (def.fields.some((f) => f.name === 'code') ? 'code' : undefined);
  return [
    ...new Set(
      [
        code,
        def.labelField ?? 'name',
        def.parentField,
        def.activeField?.name ?? (def.fields.some((f) => f.name === 'status') ? 'status' : undefined),
        ...(def.options?.fields ?? []),
      ].filter((n): n is string => Boolean(n)),
    ),
  ];
}

/** Documents' options need the read permission (and its scope); master data's every signed-in user may read. */
export function optionsNeedRead(def: ResourceDef): boolean {
  return Boolean(def.lifecycle || def.scopedPermissions);
}

/**
 * May a user who holds the permissions `has` answers for do `action` on a record of `def` whose
 * scope field is `value`? The resource-wide permission allows every record; a scoped one only
 * the records of its value. The one rule the server enforces and the web uses to show buttons.
 */
export function mayAct(
  has: (permission: string) => boolean,
  def: ResourceDef,
  action: string,
  value?: unknown,
): boolean {
  if (has(`${def.permission}:${action}`)) return true;
  return value != null && scopePrefixes(def, String(value)).some((p) => has(`${p}:${action}`));
}

/**
 * Is the owner rule of `def` lifted for a user on records of scope `value` and `action`? Yes with
 * the resource-wide permission of the action, or one of the rule's `liftedBy` actions (resource-wide
 * or in the scope). Always yes for a resource without an owner rule.
 */
export function ownerLifted(
  has: (permission: string) => boolean,
  def: ResourceDef,
  action: string,
  value?: unknown,
): boolean {
  if (!def.owner || has(`${def.permission}:${action}`)) return true;
  return def.owner.liftedBy.some((a) => mayAct(has, def, a, value));
}

/**
 * `mayAct` and the owner rule together: may a user (`userId`) do `action` on `record` (camelCase
 * keys)? The one rule the server enforces and the web uses to show a record's buttons.
 */
export function mayActOn(
  has: (permission: string) => boolean,
  userId: number,
  def: ResourceDef,
  action: string,
  record: Record<string, unknown>,
): boolean {
  const value = def.scopedPermissions ? record[def.scopedPermissions.field] : undefined;
  if (def.scopedPermissions ? !mayAct(has, def, action, value) : !has(`${def.permission}:${action}`))
    return false;
  if (!def.owner || ownerLifted(has, def, action, value)) return true;
  return Number(record[def.owner.field]) === Number(userId);
}

/**
 * May a user see field `f` of `record`? Fields without `visibleTo` are seen by whoever reads the
 * record; the others by the permissions, actions and owner the declaration names.
 */
export function maySeeField(
  has: (permission: string) => boolean,
  userId: number,
  def: ResourceDef,
  f: FieldDef,
  record: Record<string, unknown>,
): boolean {
  const rule = f.visibleTo;
  if (!rule) return true;
  if (rule.permissions?.some(has)) return true;
  const value = def.scopedPermissions ? record[def.scopedPermissions.field] : undefined;
  if (rule.actions?.some((a) => mayAct(has, def, a, value))) return true;
  return Boolean(rule.owner && def.owner && Number(record[def.owner.field]) === Number(userId));
}

/** The permission prefixes that scope one value (a kind page's, and another module's view of it). */
export function scopePrefixes(def: ResourceDef, value: string): readonly string[] {
  const p = def.scopedPermissions?.prefixes[value];
  return p === undefined ? [] : typeof p === 'string' ? [p] : p;
}

/** Every scoped permission prefix of a resource. */
export const allScopePrefixes = (def: ResourceDef): string[] =>
  Object.keys(def.scopedPermissions?.prefixes ?? {}).flatMap((v) => [...scopePrefixes(def, v)]);

/** The scope values a user may act on (`null`: every record, through the resource-wide permission). */
export function allowedScope(
  has: (permission: string) => boolean,
  def: ResourceDef,
  action: string,
): string[] | null {
  if (has(`${def.permission}:${action}`)) return null;
  return Object.keys(def.scopedPermissions?.prefixes ?? {}).filter((value) =>
    scopePrefixes(def, value).some((p) => has(`${p}:${action}`)),
  );
}

/** Every permission that can allow `action` on some record of `def`. */
export function permissionsFor(def: ResourceDef, action: string): string[] {
  return [`${def.permission}:${action}`, ...allScopePrefixes(def).map((p) => `${p}:${action}`)];
}

/** The filterable line fields of a resource, each with its line (their names are unique among the filters). */
export function lineFilters(def: ResourceDef): { line: LineDef; field: FieldDef }[] {
  return (def.lines ?? []).flatMap((line) =>
    line.fields.filter((f) => f.filter).map((field) => ({ line, field })),
  );
}

/** The fields a list's keyword searches (contains, any of them): code, label and spec, where declared. */
export function keywordFields(def: ResourceDef): FieldDef[] {
  // Only text columns are searched by "contains": a resource labelled by a date (工序工资's
  // 生效日期, a measurement's time) has no keyword search (the fuzzer found `date ~~*` answering 500).
  return [...new Set(['code', def.labelField ?? 'name', 'spec'])]
    .map((n) => def.fields.find((f) => f.name === n))
    .filter((f): f is FieldDef => Boolean(f) && (f!.kind === 'text' || f!.kind === 'textarea'));
}

/**
 * The keyword box's placeholder: the searched fields' labels, the resource's own name taken off
 * where something meaningful is left (物料编码 → 编码; 报工单号 stays whole, not 「号」).
 */
export function keywordHint(def: ResourceDef): string {
  return keywordFields(def)
    .map((f) => {
      const short = f.label.replace(def.label, '');
      return short.length >= 2 ? short : f.label;
    })
    .join('/');
}

/** Every declared filter of a list: the header's, then the lines'. */
export function filterFieldsOf(def: ResourceDef): FieldDef[] {
  return [...def.fields.filter((f) => f.filter), ...lineFilters(def).map((x) => x.field)];
}

/** The lines a body carries and a form edits: all but the server-written (`readonly`) ones. */
export function editableLines(def: ResourceDef): LineDef[] {
  return (def.lines ?? []).filter((l) => !l.readonly);
}

/** snake_case column name of a camelCase field name. */
export function columnOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** camelCase field name of a snake_case column name (the inverse of `columnOf`). */
export function fieldOf(column: string): string {
  return column.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
}

/** The answer key carrying a reference's label: `workshopId` → `workshopName`, `labelIds` → `labelNames`. */
export function refLabelKey(field: FieldDef): string {
  if (field.kind === 'refs')
    return field.name.replace(/Ids$/, 'Names').replace(/^(?!.*Names$)(.*)$/, '$1Names');
  return field.name.replace(/Id$/, 'Name').replace(/^(?!.*Name$)(.*)$/, '$1Name');
}
