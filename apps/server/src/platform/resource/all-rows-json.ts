import { columnOf, type FieldDef, type ResourceDef, refLabelKey, scopePrefixes } from '@ringmes/domain';
import { CamelCasePlugin, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { AuthUser } from '../auth/sessions.ts';
import { can } from '../auth/sessions.ts';
import { type Db, inColumnNames } from '../db/db.ts';
import { JsonRows } from '../http/serialize.ts';
import {
  ALL_ROWS_MAX,
  checkAllRows,
  countRows,
  type ListOrder,
  orderedBy,
  ROWS_PER_FETCH,
} from '../paging.ts';
import { refTarget } from './refs.ts';

/**
 * Every row of a resource list (`listAll`, a page with pageNum 0) written as JSON by PostgreSQL:
 * each row's text in the answer's shape (camelCase keys, numeric as exact strings, timestamps as
 * `YYYY-MM-DD HH:mm:ss` in the factory's time zone, dates as `YYYY-MM-DD`, the fields the user may
 * not see as null), so the server copies text instead of parsing thousands of rows into objects,
 * renaming their keys, formatting their dates and writing them out again on its one thread (and
 * collecting all that garbage) while everyone's postings wait (issue 34 §3, bench heavy-reads).
 * The rows are fetched ROWS_PER_FETCH at a time. Undefined when a column has a type whose text
 * the driver would answer differently: the caller then reads the rows as before.
 */
export async function allRowsAsJson(
  db: Db,
  query: SelectQueryBuilder<any, any, any>,
  def: ResourceDef,
  user: AuthUser,
  order: ListOrder,
  timeZone: string,
  /** Awaited before each batch after the first: a heavy read gives way to the requests under way. */
  turn?: () => Promise<void>,
): Promise<JsonRows | undefined> {
  const shape = await rowShape(db, def);
  if (!shape) return undefined;
  const has = (p: string) => can(user, p);
  const values = shape.map(({ key, expr, field }) => {
    const visible = field ? visibleWhen(has, user, def, field) : true;
    const value = expr(timeZone);
    const shown =
      visible === true ? value : visible === false ? sql`NULL` : sql`CASE WHEN ${visible} THEN ${value} END`;
    return sql`${shown} AS ${sql.id(key)}`;
  });
  const rows = orderedBy(query, order).limit(ALL_ROWS_MAX + 1);
  const text = inColumnNames(db)
    .selectFrom(sql`(SELECT ${sql.join(values)} FROM (${rows}) AS x)`.as('r'))
    .select(sql<string>`row_to_json(r)::text`.as('j'));
  const out: string[] = [];
  for await (const row of text.stream(ROWS_PER_FETCH)) {
    // The next batch is fetched when this loop asks for the row after a full one: the database's
    // work for it waits too.
    if (turn && out.length && out.length % ROWS_PER_FETCH === 0) await turn();
    out.push((row as { j: string }).j);
  }
  if (out.length > ALL_ROWS_MAX) checkAllRows(await countRows(query));
  return new JsonRows(out);
}

/** One output column: its key, its value from the subquery `x`, and the field it shows. */
interface OutColumn {
  key: string;
  expr: (timeZone: string) => RawBuilder<unknown>;
  field?: FieldDef;
}

const NUMERIC = 1700;
const TIMESTAMPTZ = 1184;
/**
 * Types whose JSON text (`row_to_json`) parses to what the driver answers (db.ts `pgParser`):
 * bool, int8, int2, int4, text, json, float4, float8, bpchar, varchar, date, int4[], text[],
 * int8[], uuid, jsonb. numeric and timestamptz are converted; any other type reads as before.
 */
const AS_JSON = new Set([16, 20, 21, 23, 25, 114, 700, 701, 1042, 1043, 1082, 1007, 1009, 1016, 2950, 3802]);

const keyCase = new (class extends CamelCasePlugin {
  key(s: string) {
    return this.camelCase(s);
  }
})();

const shapes = new WeakMap<Db, Map<string, Promise<OutColumn[] | undefined>>>();

/** The output columns of `baseQuery(def)`: the table's columns, then its labels. */
function rowShape(db: Db, def: ResourceDef): Promise<OutColumn[] | undefined> {
  let byDef = shapes.get(db);
  if (!byDef) {
    byDef = new Map();
    shapes.set(db, byDef);
  }
  let shape = byDef.get(def.name);
  if (!shape) {
    shape = buildShape(db, def);
    byDef.set(def.name, shape);
    shape.catch(() => byDef.delete(def.name));
  }
  return shape;
}

async function buildShape(db: Db, def: ResourceDef): Promise<OutColumn[] | undefined> {
  const fields = new Map(def.fields.map((f) => [columnOf(f.name), f]));
  const out: OutColumn[] = [];
  for (const c of await columnsOf(db, def.table)) {
    const ref = sql.ref(`x.${c.name}`);
    let expr: OutColumn['expr'];
    if (c.oid === NUMERIC) expr = () => sql`${ref}::text`;
    else if (c.oid === TIMESTAMPTZ)
      expr = (tz) => sql`to_char(${ref} AT TIME ZONE ${tz}::text, 'YYYY-MM-DD HH24:MI:SS')`;
    else if (AS_JSON.has(c.oid)) expr = () => ref;
    else return undefined;
    out.push({ key: keyCase.key(c.name), expr, field: fields.get(c.name) });
  }
  // The labels (`baseQuery`): a reference's label column, a `refs` field's joined labels, the
  // creator's and editor's names.
  for (const f of def.fields) {
    if (f.kind !== 'ref' && f.kind !== 'refs') continue;
    const label = columnOf(refLabelKey(f));
    const ref = sql.ref(`x.${label}`);
    if (f.kind === 'ref') {
      const t = refTarget(f);
      const type = (await columnsOf(db, t.table)).find((c) => c.name === t.label)?.oid;
      if (type !== undefined && type !== NUMERIC && type !== TIMESTAMPTZ && !AS_JSON.has(type))
        return undefined;
      out.push({
        key: keyCase.key(label),
        expr: type === NUMERIC ? () => sql`${ref}::text` : () => ref,
      });
    } else out.push({ key: keyCase.key(label), expr: () => ref });
  }
  for (const name of ['created_by_name', 'updated_by_name'])
    out.push({ key: keyCase.key(name), expr: () => sql.ref(`x.${name}`) });
  // A label named like a column is the later of the two (as in the rows the driver answers).
  const last = new Map(out.map((c, i) => [c.key, i]));
  return out.filter((c, i) => last.get(c.key) === i);
}

async function columnsOf(db: Db, table: string): Promise<{ name: string; oid: number }[]> {
  const { rows } = await sql<{ name: string; oid: number }>`
    SELECT a.attname AS name, a.atttypid::int AS oid FROM pg_attribute a
     WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`.execute(db);
  return rows.map((r) => ({ name: r.name, oid: Number(r.oid) }));
}

/**
 * When a user sees field `f` of a row (`maySeeField` as SQL on the subquery `x`): true, false, or a
 * condition on the row's scope and owner columns.
 */
function visibleWhen(
  has: (p: string) => boolean,
  user: AuthUser,
  def: ResourceDef,
  f: FieldDef,
): boolean | RawBuilder<boolean> {
  const rule = f.visibleTo;
  if (!rule) return true;
  if (rule.permissions?.some(has)) return true;
  const terms: RawBuilder<boolean>[] = [];
  const actions = rule.actions ?? [];
  if (actions.some((a) => has(`${def.permission}:${a}`))) return true;
  const scoped = def.scopedPermissions;
  if (scoped && actions.length) {
    const values = Object.keys(scoped.prefixes).filter((v) =>
      actions.some((a) => scopePrefixes(def, v).some((p) => has(`${p}:${a}`))),
    );
    if (values.length)
      terms.push(sql<boolean>`${sql.ref(`x.${columnOf(scoped.field)}`)}::text IN (${sql.join(values)})`);
  }
  if (rule.owner && def.owner)
    terms.push(sql<boolean>`${sql.ref(`x.${columnOf(def.owner.field)}`)} = ${Number(user.id)}`);
  if (!terms.length) return false;
  return sql<boolean>`(${sql.join(terms, sql` OR `)})`;
}
