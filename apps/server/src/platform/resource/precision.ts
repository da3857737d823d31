import {
  decimalPlaces,
  editableLines,
  type FieldDef,
  fitsPrecision,
  precisionMessage,
  type ResourceDef,
} from '@ringmes/domain';
import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { badRequest, type FieldError } from '../errors.ts';

/**
 * Unit precision on the server (issue 34 §2): a quantity counted in a unit has no more digits after
 * the point than the unit's 小数位数 (`material_unit.precision`). The kit checks every quantity
 * declared with `unitFrom` when a record is saved (`checkRecordPrecision`, called by `createRecord`
 * and `updateRecord` after `derive`, so server-derived products count too); commands that take
 * quantities outside the kit (flow cards, 委外 pieces) call `assertPrecision`.
 */

/** One quantity to check: its error's field path, its label, and what it is counted in. */
export interface CountedQuantity {
  field: string;
  label: string;
  quantity: string | number;
  /** The material whose base unit counts it when `unitId` is not given. */
  materialId?: number | null;
  unitId?: number | null;
}

export interface UnitPrecision {
  id: number;
  name: string;
  precision: number;
}

const id = (v: unknown): number | null => (v == null || v === '' ? null : Number(v));

/** A value of `name` on a line, else on its header (a line-level `unitFrom` may name a header field). */
function named(
  name: string | undefined,
  item: Record<string, any>,
  fields: FieldDef[],
  head?: Record<string, any>,
) {
  if (!name) return null;
  if (fields.some((f) => f.name === name) || !head) return id(item[name]);
  return id(head[name]);
}

function collect(
  fields: FieldDef[],
  item: Record<string, any>,
  prefix: string,
  out: CountedQuantity[],
  head?: Record<string, any>,
  only?: (f: FieldDef) => boolean,
) {
  for (const f of fields) {
    if (!f.unitFrom || f.readonly || (only && !only(f))) continue;
    const q = item[f.name];
    // A whole number fits every unit: nothing to look up.
    if (q == null || q === '' || decimalPlaces(q) === 0) continue;
    out.push({
      field: prefix + f.name,
      label: f.label,
      quantity: q,
      materialId: named(f.unitFrom.material, item, fields, head),
      unitId: named(f.unitFrom.unit, item, fields, head),
    });
  }
}

/**
 * The quantities of a record being saved that need their unit looked up: the fields declared with
 * `unitFrom`, on the header and every line, holding a fraction. With `changes` (an edit) only the
 * header fields whose quantity, material or unit changed, and the lines sent again.
 */
export function countedQuantities(
  def: ResourceDef,
  data: Record<string, any>,
  changes?: Record<string, any>,
): CountedQuantity[] {
  const out: CountedQuantity[] = [];
  const touched = (f: FieldDef) =>
    !changes || [f.name, f.unitFrom?.material, f.unitFrom?.unit].some((n) => n !== undefined && n in changes);
  collect(def.fields, data, '', out, undefined, touched);
  for (const line of editableLines(def)) {
    if (!line.fields.some((f) => f.unitFrom)) continue;
    if (changes && !(line.name in changes)) continue;
    const items: Record<string, any>[] = data[line.name] ?? [];
    items.forEach((item, i) => {
      collect(line.fields, item, `${line.name}.${i}.`, out, data);
    });
  }
  return out;
}

/** The base units of materials and the named units, with their precision, in one statement. */
export async function unitsOf(
  db: Db,
  materialIds: number[],
  unitIds: number[] = [],
): Promise<{ ofMaterial: Map<number, UnitPrecision>; ofUnit: Map<number, UnitPrecision> }> {
  const ofMaterial = new Map<number, UnitPrecision>();
  const ofUnit = new Map<number, UnitPrecision>();
  if (!materialIds.length && !unitIds.length) return { ofMaterial, ofUnit };
  const r = await sql<{ material: boolean; key: number; id: number; name: string; precision: number }>`
    SELECT true AS material, m.id AS key, u.id, u.name, u.precision
      FROM material m JOIN material_unit u ON u.id = m.unit_id
     WHERE m.id = ANY(${sql.val([...new Set(materialIds)])}::bigint[])
    UNION ALL
    SELECT false, u.id, u.id, u.name, u.precision
      FROM material_unit u WHERE u.id = ANY(${sql.val([...new Set(unitIds)])}::bigint[])`.execute(db);
  for (const x of r.rows) {
    const unit = { id: Number(x.id), name: x.name, precision: Number(x.precision) };
    (x.material ? ofMaterial : ofUnit).set(Number(x.key), unit);
  }
  return { ofMaterial, ofUnit };
}

/**
 * The quantities that do not fit their units, each with its message. A material or unit that is
 * not found is the reference checks' business, not this one's.
 */
export async function precisionFailures<T extends CountedQuantity>(
  db: Db,
  items: T[],
): Promise<{ item: T; message: string }[]> {
  const open = items.filter((x) => decimalPlaces(x.quantity) > 0);
  if (!open.length) return [];
  const { ofMaterial, ofUnit } = await unitsOf(
    db,
    open.filter((x) => x.unitId == null && x.materialId != null).map((x) => Number(x.materialId)),
    open.filter((x) => x.unitId != null).map((x) => Number(x.unitId)),
  );
  const out: { item: T; message: string }[] = [];
  for (const x of open) {
    const unit = x.unitId != null ? ofUnit.get(Number(x.unitId)) : ofMaterial.get(Number(x.materialId));
    if (unit && !fitsPrecision(x.quantity, unit.precision))
      out.push({ item: x, message: precisionMessage(x.label, x.quantity, unit.name, unit.precision) });
  }
  return out;
}

/** The field errors of the quantities that do not fit their units. */
export async function precisionErrors(db: Db, items: CountedQuantity[]): Promise<FieldError[]> {
  return (await precisionFailures(db, items)).map(({ item, message }) => ({ field: item.field, message }));
}

/** Refuses (400, a field error per quantity) quantities that do not fit the units they are counted in. */
export async function assertPrecision(db: Db, items: CountedQuantity[]): Promise<void> {
  const errors = await precisionErrors(db, items);
  if (errors.length) throw badRequest(errors[0].message, errors);
}

/** The kit's check of a record being saved (`changes`: an edit's changed values). */
export async function checkRecordPrecision(
  db: Db,
  def: ResourceDef,
  data: Record<string, any>,
  changes?: Record<string, any>,
): Promise<void> {
  await assertPrecision(db, countedQuantities(def, data, changes));
}

/** The rows of an Excel import whose quantities do not fit their units, as its report lists them. */
export async function importPrecisionErrors(
  db: Db,
  def: ResourceDef,
  records: { row: number; data: Record<string, any> }[],
): Promise<{ row: number; column: string; message: string }[]> {
  const items = records.flatMap((r) => countedQuantities(def, r.data).map((q) => ({ ...q, row: r.row })));
  return (await precisionFailures(db, items)).map(({ item, message }) => ({
    row: item.row,
    column: item.label,
    message,
  }));
}
