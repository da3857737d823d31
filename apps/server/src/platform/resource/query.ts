import {
  columnOf,
  type FieldDef,
  fieldOf,
  keywordFields,
  type LineDef,
  lineFilters,
  type ResourceDef,
  refLabelKey,
} from '@ringmes/domain';
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { type Db, inColumnNames } from '../db/db.ts';
import { contains, containsAny } from '../db/like.ts';
import { refTarget } from './refs.ts';

const snake = (s: string) => columnOf(s);

/** Label sub-selects for the reference fields of a table aliased `alias`. */
export function refLabelSelects(fields: FieldDef[], alias: string): RawBuilder<unknown>[] {
  const out: RawBuilder<unknown>[] = [];
  for (const f of fields) {
    if (f.kind !== 'ref' && f.kind !== 'refs') continue;
    const t = refTarget(f);
    const col = sql.ref(`${alias}.${columnOf(f.name)}`);
    const key = snake(refLabelKey(f));
    if (f.kind === 'ref') {
      out.push(
        sql`(SELECT r.${sql.ref(t.label)} FROM ${sql.table(t.table)} r WHERE r.id = ${col})`.as(key) as any,
      );
    } else {
      out.push(
        sql`(SELECT string_agg(r.${sql.ref(t.label)}, '、' ORDER BY r.id) FROM ${sql.table(t.table)} r WHERE r.id = ANY(${col}))`.as(
          key,
        ) as any,
      );
    }
  }
  return out;
}

/** A resource's label sub-selects and its creator and editor names, built once per resource. */
const labelSelects = new WeakMap<ResourceDef, RawBuilder<unknown>[]>();

/** SELECT of a resource's rows with reference labels, aliased `t`. */
export function baseQuery(db: Db, def: ResourceDef): SelectQueryBuilder<any, any, any> {
  let labels = labelSelects.get(def);
  if (!labels) {
    labels = [
      ...refLabelSelects(def.fields, 't'),
      sql`(SELECT u.first_name FROM app_user u WHERE u.id = t.created_by)`.as('created_by_name') as any,
      sql`(SELECT u.first_name FROM app_user u WHERE u.id = t.updated_by)`.as('updated_by_name') as any,
    ];
    labelSelects.set(def, labels);
  }
  // Written in column names throughout (here, in the filters, the scope and the paging): the
  // rows are camel-cased, the query is not rewritten.
  return inColumnNames(db)
    .selectFrom(`${def.table} as t`)
    .selectAll('t')
    .select(labels as any);
}

/** Ids of a tree resource's node and all its descendants. */
function subtree(table: string, parentColumn: string, id: number) {
  return sql`(WITH RECURSIVE sub AS (SELECT id FROM ${sql.table(table)} WHERE id = ${id}
              UNION SELECT c.id FROM ${sql.table(table)} c JOIN sub ON c.${sql.ref(parentColumn)} = sub.id)
              SELECT id FROM sub)`;
}

/** The factory's time zone (config `TZ_DISPLAY`): the days of date-range filters on timestamps. */
let businessTimeZone = 'Asia/Shanghai';
export function setBusinessTimeZone(tz: string) {
  businessTimeZone = tz;
}
export function getBusinessTimeZone(): string {
  return businessTimeZone;
}

/** A field's range bounds in a page query (`…From`, `…To`), named once per field. */
const boundKeys = new WeakMap<FieldDef, [string, string]>();

/** The conditions one filter field puts on its column (`alias`.column), from the page query. */
function conditionsOf(f: FieldDef, alias: string, query: Record<string, any>): RawBuilder<boolean>[] {
  let keys = boundKeys.get(f);
  if (!keys) {
    keys = [`${f.name}From`, `${f.name}To`];
    boundKeys.set(f, keys);
  }
  const v = query[f.name];
  const from = query[keys[0]];
  const to = query[keys[1]];
  // A page query names a few of a resource's fields: the rest cost no column reference.
  if ((v === undefined || v === '') && (from === undefined || from === '') && (to === undefined || to === ''))
    return [];
  const col = sql.ref(`${alias}.${columnOf(f.name)}`);
  if (f.filter === 'range' || from !== undefined || to !== undefined) {
    const out: RawBuilder<boolean>[] = [];
    // A day bound of a timestamp is that day in the factory's time zone, not the session's.
    const day = (d: unknown) => f.kind === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(String(d));
    const dayStart = (d: unknown) => sql`((${d}::date)::timestamp AT TIME ZONE ${businessTimeZone})`;
    if (from !== undefined && from !== '')
      out.push(day(from) ? sql<boolean>`${col} >= ${dayStart(from)}` : sql<boolean>`${col} >= ${from}`);
    if (to !== undefined && to !== '') {
      out.push(
        day(to)
          ? sql<boolean>`${col} < ((${to}::date + 1)::timestamp AT TIME ZONE ${businessTimeZone})`
          : sql<boolean>`${col} <= ${to}`,
      );
    }
    return out;
  }
  if (v === undefined || v === '') return [];
  if (f.kind === 'refs') return [sql<boolean>`${v}::bigint = ANY(${col})`];
  if (f.kind === 'ref') {
    const target = refTarget(f);
    const parentField = target.resource?.parentField;
    return parentField
      ? [sql<boolean>`${col} IN ${subtree(target.table, columnOf(parentField), v)}`]
      : [sql<boolean>`${col} = ${v}`];
  }
  if (f.kind === 'boolean') return [sql<boolean>`${col} = ${v === 'true'}`];
  if (f.filter === 'like' || ((f.kind === 'text' || f.kind === 'textarea') && f.filter !== 'eq'))
    return [contains(col, String(v))];
  // Several states at once (`status=open,partly`): links to "everything still open".
  if (f.kind === 'enum' && String(v).includes(','))
    return [sql<boolean>`${col}::text = ANY(${sql.val(String(v).split(','))}::text[])`];
  return [sql<boolean>`${col} = ${v}`];
}

/**
 * Applies the declared filters of a page query: header fields on their columns, line fields as
 * `EXISTS` a matching line (one sub-query per line table, all its conditions on the same line).
 */
export function applyFilters(
  q: SelectQueryBuilder<any, any, any>,
  def: ResourceDef,
  query: Record<string, any>,
) {
  for (const f of def.fields) {
    for (const c of conditionsOf(f, 't', query)) q = q.where(c);
  }
  for (const line of def.lines ?? []) {
    const conditions = lineFilters(def)
      .filter((x) => x.line === line)
      .flatMap(({ field }) => conditionsOf(field, 'l', query));
    if (!conditions.length) continue;
    q = q.where(
      sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(line.table)} l
        WHERE l.${sql.ref(line.parentColumn)} = t.id AND ${sql.join(conditions, sql` AND `)})`,
    );
  }
  if (def.parentField && query[def.parentField] !== undefined) {
    q = q.where(sql<boolean>`${sql.ref(`t.${columnOf(def.parentField)}`)} = ${query[def.parentField]}`);
  }
  if (query.ids)
    q = q.where(sql<boolean>`t.id = ANY(${sql.val(String(query.ids).split(',').map(Number))}::bigint[])`);
  if (query.updatedSince) q = q.where(sql<boolean>`t.updated_at > ${query.updatedSince}::timestamptz`);
  if (query.keyword) {
    const cols = keywordFields(def);
    if (cols.length)
      q = q.where(
        containsAny(
          cols.map((f) => `t.${columnOf(f.name)}`),
          String(query.keyword),
        ),
      );
  }
  return q;
}

/** Sortable API fields of a resource → their columns. */
export function sortableColumns(def: ResourceDef): Record<string, string> {
  const out: Record<string, string> = { id: 't.id', createdAt: 't.created_at', updatedAt: 't.updated_at' };
  for (const f of def.fields) {
    if (f.sortable || f.name === 'code' || f.name === (def.labelField ?? 'name'))
      out[f.name] = `t.${columnOf(f.name)}`;
  }
  return out;
}

/** The sortable columns that order a resource's rows on their own: unique and never null. */
export function totalOrderColumns(def: ResourceDef): ReadonlySet<string> {
  const sortable = sortableColumns(def);
  const out = new Set<string>(['t.id']);
  for (const f of def.fields) {
    const column = sortable[f.name];
    if (column && f.unique && (f.required || f.name === 'docNo')) out.add(column);
  }
  return out;
}

export async function loadLines(db: Db, line: LineDef, parentIds: number[]): Promise<Map<number, any[]>> {
  const map = new Map<number, any[]>();
  if (!parentIds.length) return map;
  const rows = await db
    .selectFrom(`${line.table} as l`)
    .selectAll('l')
    .select(refLabelSelects(line.fields, 'l') as any)
    .where(sql<boolean>`${sql.ref(`l.${line.parentColumn}`)} = ANY(${sql.val(parentIds)}::bigint[])`)
    .orderBy('l.line_no')
    .execute();
  const parentKey = fieldOf(line.parentColumn);
  for (const r of rows as any[]) {
    const list = map.get(r[parentKey]) ?? [];
    list.push(r);
    map.set(r[parentKey], list);
  }
  return map;
}
