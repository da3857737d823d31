import {
  columnOf,
  editableLines,
  type FieldDef,
  type LineDef,
  type ResourceDef,
  refLabelKey,
} from '@ringmes/domain';
import type ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../audit.ts';
import type { Db } from '../db/db.ts';
import { AppError, badRequest } from '../errors.ts';
import { exceljs } from '../excel-lib.ts';
import { newExportFile } from '../export-files.ts';
import type { App } from '../http/route.ts';
import { type Permission, route } from '../http/route.ts';
import { toFieldErrors } from '../http/validation.ts';
import type { ResourceHooks } from './crud.ts';
import { runExport } from './excel-export.ts';
import { importPrecisionErrors } from './precision.ts';
import { applyFilters, baseQuery, sortableColumns } from './query.ts';
import { refTarget } from './refs.ts';
import { lazyResourceSchemas, lineItemSchema, resourceSchemas } from './schema.ts';
import { gate, hideFields, inScope } from './scope.ts';
import { readFirstSheet } from './xlsx-read.ts';

export const MAX_IMPORT_ROWS = 20_000;

/** Spreadsheet cells starting like a formula are prefixed with ' so no spreadsheet evaluates them. */
export function neutralise(v: unknown): unknown {
  return typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** Fields that appear in exports and import templates. */
function sheetFields(def: ResourceDef): FieldDef[] {
  return def.fields.filter((f) => f.kind !== 'json' && !f.readonly);
}

/** Line fields a line import fills: what the form lets the user type. */
function lineSheetFields(line: LineDef): FieldDef[] {
  return line.fields.filter((f) => f.kind !== 'json' && !f.readonly && !f.hidden);
}

function displayValue(f: FieldDef, row: Record<string, any>): unknown {
  const v = row[f.name];
  if (v === null || v === undefined) return '';
  switch (f.kind) {
    case 'ref':
    case 'refs':
      return row[refLabelKey(f)] ?? '';
    case 'enum':
      return f.options?.find((o) => o.value === String(v))?.label ?? v;
    case 'boolean':
      return v ? '是' : '否';
    case 'int':
      return v;
    case 'decimal':
    case 'quantity':
    case 'money':
    case 'price':
      return Number(v);
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}

function styleHeader(ws: ExcelJS.Worksheet) {
  const header = ws.getRow(1);
  header.font = { bold: true };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE6F4FF' } };
  ws.views = [{ state: 'frozen', ySplit: 1 }];
}

/** A cell's value as text, whatever exceljs made of it (rich text, hyperlink, formula result, date). */
function cellValue(cell: ExcelJS.Cell): unknown {
  const v = cell.value as any;
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date) return v;
  if (typeof v === 'object') {
    if ('result' in v) return v.result;
    if ('richText' in v) return v.richText.map((r: any) => r.text).join('');
    if ('text' in v) return v.text;
    return String(cell.text);
  }
  return v;
}

type Lookup = Map<string, number>;

async function lookups(db: Db, fields: FieldDef[]): Promise<Map<string, Lookup>> {
  const out = new Map<string, Lookup>();
  for (const f of fields) {
    if (f.kind !== 'ref' && f.kind !== 'refs') continue;
    const t = refTarget(f);
    const rows = await db
      .selectFrom(t.table)
      .select(['id', sql.ref(t.label).as('label'), ...(t.code ? [sql.ref(t.code).as('code')] : [])] as any)
      .$if(!!t.active && f.refActiveOnly !== false, (q) =>
        q.where(sql.ref(t.active!.column), '=', t.active!.value),
      )
      .execute();
    const map: Lookup = new Map();
    for (const r of rows as any[]) {
      if (r.code) map.set(String(r.code).toLowerCase(), r.id);
      if (!map.has(String(r.label).toLowerCase())) map.set(String(r.label).toLowerCase(), r.id);
    }
    out.set(f.name, map);
  }
  return out;
}

function fromCell(f: FieldDef, raw: unknown, refs: Map<string, Lookup>): { value?: unknown; error?: string } {
  if (raw === undefined || raw === null || raw === '') return {};
  const text = raw instanceof Date ? raw.toISOString().slice(0, 10) : String(raw).trim();
  if (text === '') return {};
  switch (f.kind) {
    case 'int':
      return { value: Number(text) };
    case 'boolean': {
      if (['是', 'true', '1', 'y', 'yes'].includes(text.toLowerCase())) return { value: true };
      if (['否', 'false', '0', 'n', 'no'].includes(text.toLowerCase())) return { value: false };
      return { error: `${f.label}只能填 是 或 否` };
    }
    case 'enum': {
      const o = f.options?.find((x) => x.label === text || x.value === text);
      return o
        ? { value: o.value }
        : { error: `${f.label}只能是：${f.options?.map((x) => x.label).join('、')}` };
    }
    case 'ref': {
      const id = refs.get(f.name)?.get(text.toLowerCase());
      return id ? { value: id } : { error: `找不到${f.label}「${text}」，或已停用` };
    }
    case 'refs': {
      const ids: number[] = [];
      for (const part of text
        .split(/[、,，;；]/)
        .map((s) => s.trim())
        .filter(Boolean)) {
        const id = refs.get(f.name)?.get(part.toLowerCase());
        if (!id) return { error: `找不到${f.label}「${part}」，或已停用` };
        ids.push(id);
      }
      return { value: ids };
    }
    default:
      return { value: text };
  }
}

export interface ImportReport {
  total: number;
  valid: number;
  imported: number;
  errors: { row: number; column: string; message: string }[];
}

/** Validates every row of a sheet and, when all are valid and `write` is set, inserts them in one transaction. */
export async function importSheet(
  db: Db,
  def: ResourceDef,
  buffer: Buffer,
  opts: { write: boolean; userId: number; hooks?: ResourceHooks; user?: any; requestId?: string },
): Promise<ImportReport> {
  const rows = readFirstSheet(buffer);
  const first = (await rows.next()).value as ExcelJS.Row | undefined;
  if (first?.number !== 1) throw badRequest('Excel 文件中没有工作表或表头');
  const fields = sheetFields(def);
  const columns = headerColumns(first, fields);
  const missing = fields.filter((f) => f.required && ![...columns.values()].includes(f));
  if (missing.length) {
    await rows.return(undefined);
    throw badRequest(`表头缺少必填列：${missing.map((f) => f.label).join('、')}；请使用下载的导入模板`);
  }

  const refs = await lookups(db, def.fields);
  const schema = resourceSchemas(def).create;
  const errors: ImportReport['errors'] = [];
  const records: { row: number; data: Record<string, any> }[] = [];
  const seen = new Map<string, Map<string, number>>();
  let total = 0;
  for await (const row of rows) {
    const r = row.number;
    const raw: Record<string, unknown> = {};
    let empty = true;
    const rowErrors: ImportReport['errors'] = [];
    for (const [col, f] of columns) {
      const cell = cellValue(row.getCell(col));
      if (cell !== undefined && cell !== null && String(cell).trim() !== '') empty = false;
      const { value, error } = fromCell(f, cell, refs);
      if (error) rowErrors.push({ row: r, column: f.label, message: error });
      else if (value !== undefined) raw[f.name] = value;
    }
    if (empty) continue;
    if (++total > MAX_IMPORT_ROWS) throw badRequest(`一次最多导入 ${MAX_IMPORT_ROWS} 行，请分批导入`);
    for (const f of fields.filter((x) => x.unique && raw[x.name] !== undefined)) {
      const key = String(raw[f.name]).toLowerCase();
      const m = seen.get(f.name) ?? new Map<string, number>();
      seen.set(f.name, m);
      if (m.has(key))
        rowErrors.push({
          row: r,
          column: f.label,
          message: `${f.label}「${raw[f.name]}」与第 ${m.get(key)} 行重复`,
        });
      else m.set(key, r);
    }
    const parsed = schema.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      for (const e of toFieldErrors(parsed.error)) {
        const f = fields.find((x) => x.name === e.field);
        if (!rowErrors.some((x) => x.column === f?.label))
          rowErrors.push({ row: r, column: f?.label ?? e.field, message: e.message });
      }
    }
    if (rowErrors.length) errors.push(...rowErrors);
    else records.push({ row: r, data: parsed.data as Record<string, any> });
  }
  // Unique values that already exist in the database.
  for (const f of fields.filter((x) => x.unique)) {
    const values = records.map((x) => x.data[f.name]).filter((v) => v !== undefined && v !== null);
    if (!values.length) continue;
    const col = columnOf(f.name);
    const taken = await db
      .selectFrom(def.table)
      .select(sql.ref(col).as('v') as any)
      .where(
        sql<boolean>`lower(${sql.ref(col)}::text) = ANY(${sql.val(values.map((v) => String(v).toLowerCase()))}::text[])`,
      )
      .execute();
    const set = new Set(taken.map((t: any) => String(t.v).toLowerCase()));
    for (const rec of records) {
      if (set.has(String(rec.data[f.name]).toLowerCase())) {
        errors.push({ row: rec.row, column: f.label, message: `${f.label}「${rec.data[f.name]}」已存在` });
      }
    }
  }
  if (opts.hooks?.validate) {
    for (const rec of records) {
      try {
        await opts.hooks.validate({ db, user: opts.user, def }, rec.data);
      } catch (e: any) {
        if (!(e instanceof AppError)) throw e;
        errors.push({ row: rec.row, column: e.errors?.[0]?.field ?? '', message: e.message });
      }
    }
  }
  errors.push(...(await importPrecisionErrors(db, def, records)));
  errors.sort((a, b) => a.row - b.row);
  const badRows = new Set(errors.map((e) => e.row)).size;
  const report: ImportReport = { total, valid: total - badRows, imported: 0, errors: errors.slice(0, 1000) };
  if (!opts.write || errors.length) return report;
  for (let i = 0; i < records.length; i += 500) {
    const chunk = records.slice(i, i + 500).map(({ data }) => {
      const out: Record<string, unknown> = { created_by: opts.userId, updated_by: opts.userId };
      for (const f of fields) {
        const v = data[f.name] ?? f.default;
        if (v !== undefined) out[columnOf(f.name)] = v;
      }
      return out;
    });
    await db.insertInto(def.table).values(chunk).execute();
  }
  await audit(
    db,
    opts.user,
    { entity: def.name, entityId: null, action: 'import', after: { rows: records.length } },
    opts.requestId,
  );
  report.imported = records.length;
  return report;
}

/** An import template: the columns (required ones starred) and a sheet explaining each. */
async function writeTemplate(file: string, sheetName: string, fields: FieldDef[]) {
  const wb = new (await exceljs()).Workbook();
  const ws = wb.addWorksheet(sheetName);
  ws.columns = fields.map((f) => ({
    header: f.required ? `*${f.label}` : f.label,
    key: f.name,
    width: Math.max(12, f.label.length * 2 + 6),
  }));
  styleHeader(ws);
  const notes = wb.addWorksheet('填写说明');
  notes.columns = [
    { header: '列', key: 'label', width: 16 },
    { header: '必填', key: 'required', width: 8 },
    { header: '填写说明', key: 'help', width: 70 },
  ];
  for (const f of fields) {
    let help = f.help ?? '';
    if (f.kind === 'enum') help = `可选：${f.options?.map((o) => o.label).join('、')}。${help}`;
    if (f.kind === 'ref' || f.kind === 'refs')
      help = `填写${refTarget(f).title}的编码或名称${f.kind === 'refs' ? '，多个用、分隔' : ''}。${help}`;
    if (f.kind === 'boolean') help = `填 是 或 否。${help}`;
    if (f.kind === 'date') help = `日期，如 2026-11-22。${help}`;
    if (f.unique) help = `不能与已有记录重复。${help}`;
    notes.addRow({ label: f.label, required: f.required ? '是' : '', help });
  }
  styleHeader(notes);
  await wb.xlsx.writeFile(file);
}

/** Columns of a sheet's header row matched to fields by label (a leading * ignored) or name. */
function headerColumns(first: ExcelJS.Row, fields: FieldDef[]): Map<number, FieldDef> {
  const columns = new Map<number, FieldDef>();
  first.eachCell((cell, col) => {
    const h = String(cellValue(cell) ?? '').replace(/[*＊\s]/g, '');
    const f = fields.find((x) => x.label === h || x.name === h);
    if (f) columns.set(col, f);
  });
  return columns;
}

export interface LineImport {
  total: number;
  /** The parsed lines, with their reference labels, when every row is valid; empty otherwise. */
  lines: Record<string, unknown>[];
  errors: ImportReport['errors'];
}

/**
 * Reads document lines from a sheet (物料 by code or name, 单位 by name, numbers, dates) and
 * validates each row as the save would. Nothing is written: the form adds the lines, and saving
 * the document checks them again with everything else.
 */
export async function importLines(db: Db, line: LineDef, buffer: Buffer): Promise<LineImport> {
  const rows = readFirstSheet(buffer);
  const first = (await rows.next()).value as ExcelJS.Row | undefined;
  if (first?.number !== 1) throw badRequest('Excel 文件中没有工作表或表头');
  const fields = lineSheetFields(line);
  const columns = headerColumns(first, fields);
  const missing = fields.filter((f) => f.required && ![...columns.values()].includes(f));
  if (missing.length) {
    await rows.return(undefined);
    throw badRequest(`表头缺少必填列：${missing.map((f) => f.label).join('、')}；请使用下载的明细模板`);
  }
  const refs = await lookups(db, fields);
  const labels = new Map<string, Map<number, string>>();
  const schema = lineItemSchema(line);
  const errors: ImportReport['errors'] = [];
  const lines: Record<string, unknown>[] = [];
  const max = line.max ?? 1000;
  let total = 0;
  for await (const row of rows) {
    const raw: Record<string, unknown> = {};
    const texts: Record<string, string> = {};
    let empty = true;
    const rowErrors: ImportReport['errors'] = [];
    for (const [col, f] of columns) {
      const cell = cellValue(row.getCell(col));
      if (cell !== undefined && cell !== null && String(cell).trim() !== '') empty = false;
      const { value, error } = fromCell(f, cell, refs);
      if (error) rowErrors.push({ row: row.number, column: f.label, message: error });
      else if (value !== undefined) {
        raw[f.name] = value;
        texts[f.name] = String(cell).trim();
      }
    }
    if (empty) continue;
    if (++total > max) {
      await rows.return(undefined);
      throw badRequest(`${line.label}最多 ${max} 行，表中超过了`);
    }
    const parsed = schema.safeParse(raw, { reportInput: true });
    if (!parsed.success)
      for (const e of toFieldErrors(parsed.error)) {
        const f = fields.find((x) => x.name === e.field);
        if (!rowErrors.some((x) => x.column === f?.label))
          rowErrors.push({ row: row.number, column: f?.label ?? e.field, message: e.message });
      }
    if (rowErrors.length) {
      errors.push(...rowErrors);
      continue;
    }
    const out: Record<string, unknown> = { ...(parsed.data as Record<string, unknown>) };
    for (const f of fields.filter((x) => x.kind === 'ref' && out[x.name] !== undefined)) {
      const byId = labels.get(f.name) ?? (await refLabels(db, f));
      labels.set(f.name, byId);
      out[refLabelKey(f)] = byId.get(out[f.name] as number) ?? texts[f.name];
    }
    lines.push(out);
  }
  return { total, lines: errors.length ? [] : lines, errors: errors.slice(0, 1000) };
}

/** id → label of a reference field's target ("编码 名称" where it has a code, as the pickers show). */
async function refLabels(db: Db, f: FieldDef): Promise<Map<number, string>> {
  const t = refTarget(f);
  const rows = (await db
    .selectFrom(t.table)
    .select(['id', sql.ref(t.label).as('label')] as any)
    .execute()) as { id: number; label: string }[];
  return new Map(rows.map((r) => [r.id, String(r.label)]));
}

export function isImportable(def: ResourceDef): boolean {
  return !def.readonlyApi && def.importable !== false && !(def.lines ?? []).some((l) => (l.min ?? 0) > 0);
}

/** Excel export of the current filter, the import template and the import itself. */
export function registerExcel(app: App, def: ResourceDef, hooks?: ResourceHooks) {
  const base = `/api/v1/${def.name}`;
  const schemas = lazyResourceSchemas(def);
  const sortable = sortableColumns(def);
  const perm = (a: string) => `${def.permission}:${a}` as Permission;

  route(app, {
    method: 'GET',
    url: `${base}/export`,
    ...gate(def, 'export'),
    query: schemas.query,
    async handler({ query, user, req, app: { db, dbKind, config } }) {
      const fields = sheetFields(def);
      return runExport({ db, dbKind, exportDir: config.exportDir, log: req.log }, user.id, {
        query: inScope(applyFilters(baseQuery(db, def), def, query), user, def, 'export'),
        order: {
          column: (query.sortField && sortable[query.sortField]) || 't.id',
          desc: !!query.sortOrder?.startsWith('desc'),
        },
        title: `${def.label}导出`,
        sheetName: def.label,
        fields,
        cells: (r) => {
          hideFields(user, def, [r]);
          return fields.map((f) => neutralise(displayValue(f, r)));
        },
      });
    },
  });

  // 导入明细 on the add and edit forms of a document: its first editable line table.
  const line = def.readonlyApi ? undefined : editableLines(def)[0];
  if (line) {
    // Whoever may add or edit the document (for documents granted per kind, any kind of it).
    const add = gate(def, 'add');
    const edit = gate(def, 'edit');
    const lineGate = {
      permission: add.permission,
      alsoAllowedBy: [...(add.alsoAllowedBy ?? []), edit.permission, ...(edit.alsoAllowedBy ?? [])],
    };
    const lineQuery = z.strictObject({ line: z.literal(line.name).optional() });
    route(app, {
      method: 'GET',
      url: `${base}/importLinesTemplate`,
      ...lineGate,
      query: lineQuery,
      async handler({ user, app: { config } }) {
        const { file, fileName } = newExportFile(config.exportDir, user.id, `${def.label}${line.label}模板`);
        await writeTemplate(file, line.label, lineSheetFields(line));
        return { fileName };
      },
    });
    route(app, {
      method: 'POST',
      url: `${base}/importLines`,
      ...lineGate,
      query: lineQuery,
      body: z.instanceof(Buffer, { error: '请上传 Excel 文件（Content-Type: application/octet-stream）' }),
      handler: ({ body, app: { db } }) => importLines(db, line, body),
    });
  }

  if (!isImportable(def)) return;

  route(app, {
    method: 'GET',
    url: `${base}/importTemplate`,
    permission: perm('add'),
    async handler({ user, app: { config } }) {
      const { file, fileName } = newExportFile(config.exportDir, user.id, `${def.label}导入模板`);
      await writeTemplate(file, def.label, sheetFields(def));
      return { fileName };
    },
  });

  route(app, {
    method: 'POST',
    url: `${base}/import`,
    permission: perm('add'),
    body: z.instanceof(Buffer, { error: '请上传 Excel 文件（Content-Type: application/octet-stream）' }),
    query: z.strictObject({ dryRun: z.enum(['true', 'false']).optional() }),
    async handler({ body, query, user, req, app: { db } }) {
      const dryRun = query.dryRun === 'true';
      const report = await db
        .transaction()
        .execute((trx) =>
          importSheet(trx, def, body, { write: !dryRun, userId: user.id, hooks, user, requestId: req.id }),
        );
      if (!dryRun && report.errors.length) {
        throw new AppError(
          400,
          '400',
          `导入失败：${report.total} 行中有 ${report.total - report.valid} 行不正确，未导入任何数据`,
          report.errors.map((e) => ({ field: `第${e.row}行 ${e.column}`, message: e.message })),
        );
      }
      return report;
    },
  });
}
