import {
  columnOf,
  type FieldDef,
  type LineDef,
  PRODUCTION_ORDER_RESERVING,
  RESOURCES,
  type ResourceDef,
  resourceByName,
} from '@ringmes/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/db.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { freshDatabase } from './helpers.ts';

/**
 * The SQL migrations are written by hand; this checks them against the resource definitions:
 * every declared field has its column with a compatible type, length, scale and nullability,
 * references have RESTRICT foreign keys, unique fields their `<table>_<column>_key` index,
 * enums a CHECK listing their values, and no table has a column nobody declared.
 */

interface Column {
  dataType: string;
  udtName: string;
  maxLength: number | null;
  precision: number | null;
  scale: number | null;
  nullable: boolean;
  hasDefault: boolean;
}

let database: Database;
let drop: () => Promise<void>;
const columns = new Map<string, Map<string, Column>>();
/** table → column → [referenced table, on-delete action] */
const foreignKeys = new Map<string, Map<string, [string, string]>>();
/** table → index name → its first column */
const indexes = new Map<string, Map<string, string>>();
/** table → definitions of its CHECK constraints */
const checks = new Map<string, string[]>();

const getOrSet = <K, V>(m: Map<K, V>, k: K, v: () => V): V => {
  if (!m.has(k)) m.set(k, v());
  return m.get(k) as V;
};

beforeAll(async () => {
  const fresh = await freshDatabase();
  database = fresh.database;
  drop = fresh.drop;
  const db = database.db;
  await migrate(db);
  // Result keys come back camelCased (CamelCasePlugin): alias with snake_case names.
  const cols = await sql<any>`
    SELECT table_name, column_name, data_type, udt_name, character_maximum_length AS max_length,
           numeric_precision AS precision, numeric_scale AS scale, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = current_schema()`.execute(db);
  for (const r of cols.rows) {
    getOrSet(columns, r.tableName, () => new Map()).set(r.columnName, {
      dataType: r.dataType,
      udtName: r.udtName,
      maxLength: r.maxLength === null ? null : Number(r.maxLength),
      precision: r.precision === null ? null : Number(r.precision),
      scale: r.scale === null ? null : Number(r.scale),
      nullable: r.isNullable === 'YES',
      hasDefault: r.columnDefault !== null,
    });
  }
  const fks = await sql<any>`
    SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name,
           c.confrelid::regclass::text AS target, c.confdeltype AS on_delete
    FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.contype = 'f' AND array_length(c.conkey, 1) = 1
      AND c.connamespace = current_schema()::regnamespace`.execute(db);
  for (const r of fks.rows)
    getOrSet(foreignKeys, r.tableName, () => new Map()).set(r.columnName, [r.target, r.onDelete]);
  const idx = await sql<any>`
    SELECT t.relname AS table_name, i.relname AS index_name, a.attname AS first_column
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
    WHERE t.relnamespace = current_schema()::regnamespace`.execute(db);
  for (const r of idx.rows) getOrSet(indexes, r.tableName, () => new Map()).set(r.indexName, r.firstColumn);
  const chk = await sql<any>`
    SELECT conrelid::regclass::text AS table_name, pg_get_constraintdef(oid) AS def
    FROM pg_constraint WHERE contype = 'c' AND connamespace = current_schema()::regnamespace`.execute(db);
  for (const r of chk.rows) getOrSet(checks, r.tableName, () => [] as string[]).push(r.def);
});

afterAll(async () => {
  await drop?.();
});

/** information_schema data_type (and for numerics, scale) a field kind needs. */
function expectedType(f: FieldDef): { dataType: string; udtName?: string; scale?: number } {
  switch (f.kind) {
    case 'text':
    case 'enum':
      return { dataType: 'character varying' };
    case 'textarea':
      return { dataType: 'text' };
    case 'int':
      return { dataType: 'integer' };
    case 'decimal':
      return { dataType: 'numeric', scale: f.scale ?? 4 };
    case 'quantity':
      return { dataType: 'numeric', scale: 4 };
    case 'money':
      return { dataType: 'numeric', scale: 2 };
    case 'price':
      return { dataType: 'numeric', scale: 6 };
    case 'date':
      return { dataType: 'date' };
    case 'datetime':
      return { dataType: 'timestamp with time zone' };
    case 'boolean':
      return { dataType: 'boolean' };
    case 'ref':
      return { dataType: 'bigint' };
    case 'refs':
      return { dataType: 'ARRAY', udtName: '_int8' };
    case 'json':
      return { dataType: 'jsonb' };
  }
}

const refTable = (f: FieldDef) =>
  f.ref === 'user' ? 'app_user' : f.ref === 'dept' ? 'dept' : resourceByName(f.ref as string)?.table;
const hasIndexOn = (table: string, column: string) =>
  [...(indexes.get(table)?.values() ?? [])].some((first) => first === column);

/** Checks one declared field against its column; answers the column name. */
function checkField(table: string, f: FieldDef): string {
  const column = columnOf(f.name);
  const where = `${table}.${column}`;
  const c = columns.get(table)?.get(column);
  expect(c, `${where} exists`).toBeDefined();
  if (!c) return column;
  const want = expectedType(f);
  expect(c.dataType, `${where} type`).toBe(want.dataType);
  if (want.udtName) expect(c.udtName, `${where} element type`).toBe(want.udtName);
  if (want.scale !== undefined) {
    expect(c.precision, `${where} precision`).toBe(18);
    expect(c.scale, `${where} scale`).toBe(want.scale);
  }
  if (f.kind === 'text') expect(c.maxLength, `${where} length`).toBe(f.max ?? 100);
  if (f.kind === 'enum') {
    const longest = Math.max(...(f.options ?? []).map((o) => o.value.length));
    expect(c.maxLength ?? Number.POSITIVE_INFINITY, `${where} length`).toBeGreaterThanOrEqual(longest);
    const values = (f.options ?? []).map((o) => `'${o.value}'`);
    const check = (checks.get(table) ?? []).find(
      (d) => d.includes(column) && values.every((v) => d.includes(v)),
    );
    expect(check, `${where} CHECK lists ${values.join(', ')}`).toBeDefined();
  }
  if (f.required) expect(c.nullable, `${where} NOT NULL`).toBe(false);
  // NOT NULL without required: the column must fill itself (status, flags, id arrays, json).
  // Document numbers are NOT NULL without a default: the document's `prepare` hook assigns them.
  if (!c.nullable && !f.required && f.name !== 'docNo')
    expect(c.hasDefault, `${where} NOT NULL needs a default`).toBe(true);
  if (f.kind === 'boolean' || f.kind === 'refs' || f.kind === 'json')
    expect(c.nullable, `${where} NOT NULL`).toBe(false);
  if (f.kind === 'ref') {
    const fk = foreignKeys.get(table)?.get(column);
    expect(fk?.[0], `${where} references`).toBe(refTable(f));
    // RESTRICT / NO ACTION: a referenced record cannot be deleted.
    expect(['a', 'r'], `${where} on delete`).toContain(fk?.[1]);
  }
  if (f.unique)
    expect(indexes.get(table)?.get(`${table}_${column}_key`), `${table}_${column}_key`).toBe(column);
  const lowCardinality = f.kind === 'enum' || f.kind === 'boolean';
  if (f.kind === 'ref' || f.kind === 'refs' || f.sortable || (f.filter && !lowCardinality))
    expect(hasIndexOn(table, column), `${where} indexed`).toBe(true);
  return column;
}

const AUDIT: [string, string][] = [
  ['id', 'bigint'],
  ['created_by', 'bigint'],
  ['created_at', 'timestamp with time zone'],
  ['updated_by', 'bigint'],
  ['updated_at', 'timestamp with time zone'],
  ['version', 'integer'],
];

describe('schema matches the resource definitions', () => {
  it.each(RESOURCES.map((d) => [d.name, d] as const))('%s', (_, def: ResourceDef) => {
    const cols = columns.get(def.table);
    expect(cols, `table ${def.table}`).toBeDefined();
    for (const [name, type] of AUDIT) expect(cols?.get(name)?.dataType, `${def.table}.${name}`).toBe(type);
    const declared = new Set([...AUDIT.map(([n]) => n), ...def.fields.map((f) => checkField(def.table, f))]);
    expect(
      [...(cols?.keys() ?? [])].filter((c) => !declared.has(c)),
      `undeclared columns of ${def.table}`,
    ).toEqual([]);

    for (const line of def.lines ?? []) checkLine(def, line);
  });

  it('has a table for nothing but the registered resources and their lines (besides the platform)', () => {
    const registered = new Set(RESOURCES.flatMap((d) => [d.table, ...(d.lines ?? []).map((l) => l.table)]));
    const platform = new Set([
      'dept',
      'app_user',
      'role',
      'user_role',
      'menu',
      'role_menu',
      'user_session',
      'login_attempt',
      'audit_log',
      'doc_counter',
      'message',
      'sys_setting',
      'idempotency_key',
      'menu_seed',
      'schema_migration',
    ]);
    // Later migrations add tables of their own; only the master-data ones must be registered.
    const masterData = [...columns.keys()].filter((t) => !platform.has(t));
    for (const t of registered) expect(masterData, t).toContain(t);
  });

  it('keeps one active BOM and one active route per product', async () => {
    const db = database.db;
    const def = await sql<any>`SELECT indexname, indexdef FROM pg_indexes
      WHERE indexname IN ('bom_active_key', 'process_route_active_key') ORDER BY indexname`.execute(db);
    expect(def.rows.map((r) => r.indexname)).toEqual(['bom_active_key', 'process_route_active_key']);
    for (const r of def.rows) {
      expect(r.indexdef).toMatch(/UNIQUE INDEX .* \(product_id\) WHERE/);
      expect(r.indexdef).toContain(`'active'`);
    }
  });

  it('indexes the reserving production orders by the same states the domain names', async () => {
    const def = await sql<any>`SELECT indexdef FROM pg_indexes
      WHERE indexname = 'production_order_reserving_product_idx'`.execute(database.db);
    const states = [...def.rows[0].indexdef.matchAll(/'([a-z-]+)'::/g)].map((m) => m[1]);
    expect(states.sort()).toEqual([...PRODUCTION_ORDER_RESERVING].sort());
  });
});

function checkLine(def: ResourceDef, line: LineDef) {
  const cols = columns.get(line.table);
  expect(cols, `line table ${line.table}`).toBeDefined();
  expect(line.parentColumn, `${line.table} parent column`).toBe(`${def.table}_id`);
  const parent = cols?.get(line.parentColumn);
  expect(parent?.dataType, `${line.table}.${line.parentColumn}`).toBe('bigint');
  expect(parent?.nullable).toBe(false);
  expect(
    foreignKeys.get(line.table)?.get(line.parentColumn),
    `${line.table}.${line.parentColumn} cascades`,
  ).toEqual([def.table, 'c']);
  expect(hasIndexOn(line.table, line.parentColumn), `${line.table} indexed by parent`).toBe(true);
  expect(cols?.get('line_no')?.dataType).toBe('integer');
  expect(cols?.get('line_no')?.nullable).toBe(false);
  expect(cols?.get('id')?.dataType).toBe('bigint');
  const declared = new Set([
    'id',
    line.parentColumn,
    'line_no',
    ...line.fields.map((f) => checkField(line.table, f)),
  ]);
  expect(
    [...(cols?.keys() ?? [])].filter((c) => !declared.has(c)),
    `undeclared columns of ${line.table}`,
  ).toEqual([]);
}
