import {
  editableLines,
  type FieldDef,
  type FieldKind,
  keywordFields,
  type LineDef,
  type ResourceDef,
  refLabelKey,
} from '@ringmes/domain';
import dayjs from 'dayjs';
import { refTarget } from './ref-targets.ts';

/** What the kit reads from a definition, in one place so the screens agree with the server. */

const NUMERIC: readonly FieldKind[] = ['int', 'decimal', 'quantity', 'money', 'price'];

export const isNumeric = (f: FieldDef) => NUMERIC.includes(f.kind);
export const isDecimal = (f: FieldDef) => isNumeric(f) && f.kind !== 'int';
export const isRef = (f: FieldDef) => f.kind === 'ref' || f.kind === 'refs';

/** Digits after the point: quantity 4, money 2, price 6, decimal its scale (default 4), int 0. */
export function precisionOf(f: FieldDef): number | undefined {
  switch (f.kind) {
    case 'int':
      return 0;
    case 'quantity':
      return 4;
    case 'money':
      return 2;
    case 'price':
      return 6;
    case 'decimal':
      return f.scale ?? 4;
    default:
      return undefined;
  }
}

/** Lower bound as the server applies it: quantities, money and prices are never negative. */
export function minOf(f: FieldDef): number | undefined {
  if (f.min !== undefined) return f.min;
  return f.kind === 'quantity' || f.kind === 'money' || f.kind === 'price' ? 0 : undefined;
}

/** Maximum text length as the server applies it. */
export function maxLengthOf(f: FieldDef): number {
  return f.max ?? (f.kind === 'textarea' ? 2000 : 100);
}

export const labelFieldOf = (def: ResourceDef) => def.labelField ?? 'name';
export function codeFieldOf(def: ResourceDef): string | undefined {
  return def.codeField ?? (def.fields.some((f) => f.name === 'code') ? 'code' : undefined);
}

/** Table columns: every field not switched off, except long text and JSON. */
export function listFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter(
    (f) => f.list !== false && !f.hidden && f.kind !== 'textarea' && f.kind !== 'json',
  );
}

export const formFields = (def: ResourceDef) => def.fields.filter((f) => !f.readonly);

/** Fields the server sorts by: declared sortable, the code and the label field. */
export function isSortable(def: ResourceDef, name: string): boolean {
  if (name === 'createdAt' || name === 'updatedAt') return true;
  const f = def.fields.find((x) => x.name === name);
  return Boolean(f && (f.sortable || f.name === 'code' || f.name === labelFieldOf(def)));
}

/** Mirrors the server: import is for headers whose lines are optional. */
export function isImportable(def: ResourceDef): boolean {
  return !def.readonlyApi && def.importable !== false && !(def.lines ?? []).some((l) => (l.min ?? 0) > 0);
}

export const hasKeyword = (def: ResourceDef) => keywordFields(def).length > 0;

/** Whether a reference points at a tree resource (物料类型), picked in a tree select. */
export const isTreeRef = (f: FieldDef) => Boolean(refTarget(f.ref).tree);

/** Default values of a new record or line, from the declaration. */
export function defaultsOf(fields: readonly FieldDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.kind === 'date' && f.default === 'today') out[f.name] = dayjs().format('YYYY-MM-DD');
    else if (f.default !== undefined && f.default !== null) {
      out[f.name] = isDecimal(f) ? String(f.default) : f.default;
    } else if (f.kind === 'boolean') out[f.name] = false;
    else if (f.kind === 'refs') out[f.name] = [];
  }
  return out;
}

export function newRecordValues(def: ResourceDef): Record<string, unknown> {
  const values = defaultsOf(formFields(def));
  for (const line of editableLines(def)) {
    values[line.name] = Array.from({ length: line.min ?? 0 }, () => defaultsOf(line.fields));
  }
  return values;
}

/** The record's display name: its label field, with the code beside it when there is one. */
export function recordTitle(def: ResourceDef, row: Record<string, any> | undefined): string {
  if (!row) return '';
  const label = row[labelFieldOf(def)];
  const codeField = codeFieldOf(def);
  const code = codeField && codeField !== labelFieldOf(def) ? row[codeField] : undefined;
  return code && label ? `${label}（${code}）` : String(label ?? code ?? row.id ?? '');
}

export function lineByName(def: ResourceDef, name: string): LineDef | undefined {
  return def.lines?.find((l) => l.name === name);
}

export { refLabelKey };
