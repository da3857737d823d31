import type { Readable } from 'node:stream';
import {
  decodeGaugeText,
  measurementSubgroupResource as def,
  GAUGE_ENCODINGS,
  MAX_SUBGROUP_SIZE,
  MEASURE_CHARACTERISTICS,
  textLines,
  withBusinessOffset,
} from '@ringmes/domain';
import type ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { z } from 'zod';
import { audit } from '../../platform/audit.ts';
import { dayOfInstant, inFuture, outsideWindow } from '../../platform/date-window.ts';
import type { Db } from '../../platform/db/db.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { formParts } from '../../platform/http/multipart.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { parseOrThrow, zx } from '../../platform/http/validation.ts';
import { getBusinessTimeZone } from '../../platform/resource/query.ts';
import { readFirstSheet } from '../../platform/resource/xlsx-read.ts';
import {
  assertAngleOfProduct,
  assertCardOfProduct,
  evaluateAlarms,
  refreshSubgroupStats,
} from './measurement.ts';

/**
 * Import of a gauge's export (CSV or .xlsx): the file is read row by row as it arrives, each row
 * checked, and when every row is good the subgroups and values go in with a few set-based
 * statements (ids drawn from the sequence up front, then `unnest` inserts in batches). Bad rows
 * are reported by their row number and nothing is imported (all or nothing).
 *
 * Mapping: several value columns → each row is one subgroup; one value column → consecutive rows
 * form subgroups of `subgroupSize`, or the rows sharing a value of `groupColumn`. `timeColumn`
 * gives each subgroup its measuring time (else `measuredAt`).
 */

export const MAX_IMPORT_VALUES = 1_000_000;
const MAX_FILE_BYTES = 50 * 1_048_576;
const BATCH = 5_000;

const nullableId = zx.id.nullable().optional();
export const importMeta = z
  .strictObject({
    productId: zx.id,
    characteristic: z.enum(MEASURE_CHARACTERISTICS.map((c) => c.value) as [string, ...string[]], {
      error: '测量特性不正确',
    }),
    equipmentId: zx.id,
    operatorId: zx.id,
    flowCardId: nullableId,
    lsl: z.number().finite().nullable().optional(),
    usl: z.number().finite().nullable().optional(),
    measuredAt: z
      .string()
      .max(30)
      .superRefine((v, ctx) => {
        const t = parseTime(v);
        const why = t ? timeRefused(t) : '测量时间格式不正确（应为 YYYY-MM-DD HH:mm:ss）';
        if (why) ctx.addIssue({ code: 'custom', message: why });
      })
      .optional(),
    subgroupSize: z
      .number()
      .int()
      .min(1, '子组容量至少为 1')
      .max(MAX_SUBGROUP_SIZE, `子组容量最多 ${MAX_SUBGROUP_SIZE}`),
    headerRow: z.boolean().default(true),
    valueColumns: z
      .array(z.number().int().min(0).max(200))
      .min(1, '请至少指定一列测量值')
      .max(MAX_SUBGROUP_SIZE, `测量值最多 ${MAX_SUBGROUP_SIZE} 列`),
    timeColumn: z.number().int().min(0).max(200).nullable().optional(),
    groupColumn: z.number().int().min(0).max(200).nullable().optional(),
    /** The file's text encoding: auto (BOM, else UTF-8 when valid, else GB18030 ⊃ GBK) or named. */
    encoding: z.enum(GAUGE_ENCODINGS, { error: '文件编码应为 auto、utf-8、gbk 或 gb18030' }).default('auto'),
    dryRun: z.boolean().default(false),
  })
  .superRefine((m, ctx) => {
    if (m.lsl != null && m.usl != null && m.lsl >= m.usl)
      ctx.addIssue({ code: 'custom', path: ['usl'], message: '上规格限必须大于下规格限' });
  });
export type ImportMeta = z.infer<typeof importMeta>;

export interface ImportError {
  row: number;
  message: string;
}

export interface MeasurementImportReport {
  rows: number;
  subgroups: number;
  values: number;
  imported: number;
  alarms: number;
  errors: ImportError[];
  /** The encoding the CSV was read in (utf-8, gb18030 …); null for .xlsx. */
  encoding: string | null;
  /** The first rows as read (preview of the mapping). */
  preview: string[][];
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** Splits one CSV line (quotes, the file's delimiter). */
function splitCsv(line: string, delim: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/**
 * The rows of a CSV file: read whole (≤ 50 MB) and decoded as the gauge wrote it — UTF-8, GBK or
 * GB18030 (gauge-text.ts) — then split; the delimiter (tab, semicolon or comma) from the first line.
 */
async function csvFile(stream: Readable, encoding: ImportMeta['encoding']) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const decoded = decodeGaugeText(Buffer.concat(chunks), encoding);
  async function* rows(): AsyncGenerator<string[]> {
    let delim: string | undefined;
    const lines = textLines(decoded.text);
    // A final line break leaves an empty last line: not a row of the file.
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) {
      if (delim === undefined && line.trim()) {
        const tabs = line.split('\t').length;
        const semis = line.split(';').length;
        const commas = line.split(',').length;
        delim = tabs > commas && tabs >= semis ? '\t' : semis > commas ? ';' : ',';
      }
      yield line.trim() ? splitCsv(line, delim ?? ',') : [];
    }
  }
  return { rows: rows(), encoding: decoded.encoding };
}

function cellText(cell: ExcelJS.CellValue): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'object') {
    const v = cell as any;
    if ('result' in v) return String(v.result ?? '');
    if ('richText' in v) return v.richText.map((r: any) => r.text).join('');
    if ('text' in v) return String(v.text);
    return '';
  }
  return String(cell);
}

async function* xlsxRows(buf: Buffer): AsyncGenerator<string[]> {
  let expected = 1;
  for await (const row of readFirstSheet(buf)) {
    // exceljs skips empty rows: keep the numbering of the sheet.
    while (expected < row.number) {
      yield [];
      expected++;
    }
    const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
    yield values.map((v) => v.trim());
    expected++;
  }
}

/** 'YYYY-MM-DD HH:mm[:ss]', 'YYYY/MM/DD …' or ISO; the business time zone when no offset is given. */
function parseTime(s: string): string | undefined {
  const m =
    /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      s,
    );
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', se = '0', tz] = m;
  const wall = `${y}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}T${h.padStart(2, '0')}:${mi}:${se.padStart(2, '0')}`;
  const iso = tz ? `${wall}${tz}` : withBusinessOffset(wall, getBusinessTimeZone());
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return undefined;
  return t.toISOString();
}

/** Why a measuring time may not be stored: outside the date window, or later than now (some skew allowed). */
const timeRefused = (iso: string) =>
  outsideWindow(dayOfInstant(iso), '测量时间') ?? inFuture(iso, '测量时间');

interface Pending {
  values: string[];
  time?: string;
  key?: string;
  row: number;
}

/** Reads and checks every row; the subgroups to insert when no row is bad. */
export async function parseMeasurements(rows: AsyncIterable<string[]>, meta: ImportMeta) {
  const errors: ImportError[] = [];
  const preview: string[][] = [];
  const subgroups: Pending[] = [];
  let current: Pending | undefined;
  let rowNo = 0;
  let dataRows = 0;
  let valueCount = 0;
  const flush = () => {
    if (current?.values.length) subgroups.push(current);
    current = undefined;
  };
  const bad = (row: number, message: string) => {
    if (errors.length < 200) errors.push({ row, message });
    else if (errors.length === 200) errors.push({ row, message: '错误过多，其余行未列出' });
  };
  for await (const cells of rows) {
    rowNo++;
    if (preview.length < 8) preview.push(cells.slice(0, 12));
    if (rowNo === 1 && meta.headerRow) continue;
    if (!cells.some((c) => c !== '')) continue;
    dataRows++;
    const vals: string[] = [];
    let rowBad = false;
    for (const col of meta.valueColumns) {
      const v = cells[col] ?? '';
      if (v === '' && meta.valueColumns.length > 1) continue;
      if (!NUMBER.test(v)) {
        bad(rowNo, v === '' ? `第 ${col + 1} 列测量值为空` : `第 ${col + 1} 列「${v.slice(0, 20)}」不是数字`);
        rowBad = true;
        continue;
      }
      if (Math.abs(Number(v)) >= 1e13) {
        bad(rowNo, `第 ${col + 1} 列测量值超出范围`);
        rowBad = true;
        continue;
      }
      vals.push(v);
    }
    if (!vals.length && !rowBad) {
      bad(rowNo, '没有测量值');
      rowBad = true;
    }
    let time: string | undefined;
    if (meta.timeColumn != null) {
      const raw = cells[meta.timeColumn] ?? '';
      time = parseTime(raw);
      const refused = time && timeRefused(time);
      if (!time) {
        bad(rowNo, `测量时间「${raw.slice(0, 30)}」格式不正确（应为 YYYY-MM-DD HH:mm:ss）`);
        rowBad = true;
      } else if (refused) {
        bad(rowNo, `${refused}（${raw.slice(0, 30)}）`);
        rowBad = true;
      }
    }
    if (rowBad) continue;
    valueCount += vals.length;
    if (valueCount > MAX_IMPORT_VALUES)
      throw badRequest(`一次最多导入 ${MAX_IMPORT_VALUES} 个测量值，请分批导入`);
    if (meta.valueColumns.length > 1) {
      subgroups.push({ values: vals, time, row: rowNo });
      continue;
    }
    const key = meta.groupColumn != null ? (cells[meta.groupColumn] ?? '') : undefined;
    if (current && (key !== undefined ? current.key !== key : current.values.length >= meta.subgroupSize))
      flush();
    if (!current) current = { values: [], time, key, row: rowNo };
    if (current.values.length >= MAX_SUBGROUP_SIZE) {
      bad(rowNo, `同一子组超过 ${MAX_SUBGROUP_SIZE} 个测量值`);
      continue;
    }
    current.values.push(vals[0]);
  }
  flush();
  if (!dataRows && !errors.length) errors.push({ row: rowNo, message: '文件中没有数据行' });
  return { errors, preview, subgroups, dataRows, valueCount };
}

/** Inserts checked subgroups in batches; answers their ids. */
export async function insertSubgroups(
  db: Db,
  meta: Omit<ImportMeta, 'valueColumns' | 'subgroupSize' | 'headerRow' | 'dryRun'>,
  groups: { values: string[]; time?: string }[],
  userId: number,
): Promise<number[]> {
  const ids: number[] = [];
  const fallback = (meta.measuredAt && parseTime(meta.measuredAt)) || new Date().toISOString();
  for (let start = 0; start < groups.length; start += BATCH) {
    const batch = groups.slice(start, start + BATCH);
    const seq = await sql<{ id: number }>`
      SELECT nextval(pg_get_serial_sequence('measurement_subgroup', 'id'))::bigint AS id
        FROM generate_series(1, ${batch.length}::int)`.execute(db);
    const batchIds = seq.rows.map((r) => Number(r.id));
    await sql`
      INSERT INTO measurement_subgroup (id, product_id, characteristic, equipment_id, operator_id, measured_at,
                                        flow_card_id, lsl, usl, created_by, updated_by)
      SELECT u.id, ${meta.productId}, ${meta.characteristic}, ${meta.equipmentId}, ${meta.operatorId}, u.t,
             ${meta.flowCardId ?? null}, ${meta.lsl ?? null}, ${meta.usl ?? null}, ${userId}, ${userId}
        FROM unnest(${sql.val(batchIds)}::bigint[], ${sql.val(batch.map((g) => g.time ?? fallback))}::timestamptz[]) AS u(id, t)`.execute(
      db,
    );
    const vIds: number[] = [];
    const vLine: number[] = [];
    const vVal: string[] = [];
    for (const [i, g] of batch.entries()) {
      for (const [j, v] of g.values.entries()) {
        vIds.push(batchIds[i]);
        vLine.push(j + 1);
        vVal.push(v);
      }
    }
    await sql`
      INSERT INTO measurement_value (measurement_subgroup_id, line_no, value)
      SELECT * FROM unnest(${sql.val(vIds)}::bigint[], ${sql.val(vLine)}::int[], ${sql.val(vVal)}::numeric[])`.execute(
      db,
    );
    await refreshSubgroupStats(db, batchIds);
    ids.push(...batchIds);
  }
  return ids;
}

async function checkRefs(db: Db, meta: ImportMeta) {
  const r = await sql<Record<string, number>>`
    SELECT (SELECT count(*) FROM material WHERE id = ${meta.productId} AND status = '1')::int AS product,
           (SELECT count(*) FROM equipment WHERE id = ${meta.equipmentId})::int AS equipment,
           (SELECT count(*) FROM app_user WHERE id = ${meta.operatorId})::int AS operator,
           (SELECT count(*) FROM flow_card WHERE id = ${meta.flowCardId ?? 0})::int AS card`.execute(db);
  const x = r.rows[0];
  const errs = [
    !x.product && { field: 'productId', message: '产品不存在或已停用' },
    !x.equipment && { field: 'equipmentId', message: '机台不存在' },
    !x.operator && { field: 'operatorId', message: '操作工不存在' },
    meta.flowCardId && !x.card && { field: 'flowCardId', message: '流转卡不存在' },
  ].filter(Boolean) as { field: string; message: string }[];
  if (errs.length) throw badRequest(errs[0].message, errs);
  await assertCardOfProduct(db, meta.flowCardId, meta.productId);
  await assertAngleOfProduct(db, meta.characteristic, meta.productId);
}

export function measurementImportRoutes(app: App) {
  route(app, {
    method: 'POST',
    url: `/api/v1/${def.name}/importValues`,
    permission: 'measure:outsideDiameter:import',
    async handler({ req, user, app: { db } }) {
      if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 上传：先 meta（JSON），再 file');
      let meta: ImportMeta | undefined;
      let parsed: Awaited<ReturnType<typeof parseMeasurements>> | undefined;
      let encoding: string | null = null;
      try {
        for await (const part of formParts(req, {
          fileSize: MAX_FILE_BYTES,
          files: 1,
          fields: 2,
          parts: 3,
        })) {
          if (part.type === 'field') {
            if (part.fieldname !== 'meta') continue;
            let json: unknown;
            try {
              json = JSON.parse(String(part.value));
            } catch {
              throw badRequest('导入设置（meta）不是有效的 JSON');
            }
            meta = parseOrThrow(importMeta, json, '导入设置');
            await checkRefs(db, meta);
            continue;
          }
          if (!meta) throw badRequest('请先提交导入设置（meta），再上传文件');
          const name = part.filename.toLowerCase();
          if (name.endsWith('.xlsx')) {
            const chunks: Buffer[] = [];
            for await (const c of part.file) chunks.push(c as Buffer);
            if (part.file.truncated) throw badRequest('文件超过 50 MB，请分批导入');
            parsed = await parseMeasurements(xlsxRows(Buffer.concat(chunks)), meta);
          } else if (name.endsWith('.csv') || name.endsWith('.txt')) {
            const file = await csvFile(part.file, meta.encoding);
            if (part.file.truncated) throw badRequest('文件超过 50 MB，请分批导入');
            encoding = file.encoding;
            parsed = await parseMeasurements(file.rows, meta);
          } else {
            part.file.resume();
            throw badRequest('只支持 CSV（.csv/.txt）或 Excel（.xlsx）文件');
          }
        }
      } catch (err: any) {
        if (err instanceof AppError) throw err;
        if (err?.code === 'FST_PARTS_LIMIT' || err?.code === 'FST_FILES_LIMIT')
          throw badRequest('一次只能上传一个文件');
        throw err;
      }
      if (!meta || !parsed) throw badRequest('请选择要导入的文件（字段名 file）');
      const report: MeasurementImportReport = {
        rows: parsed.dataRows,
        subgroups: parsed.subgroups.length,
        values: parsed.valueCount,
        imported: 0,
        alarms: 0,
        errors: parsed.errors,
        encoding,
        preview: parsed.preview,
      };
      if (meta.dryRun) return report;
      if (parsed.errors.length)
        throw new AppError(
          400,
          '400',
          `导入失败：有 ${parsed.errors.length >= 200 ? '200 多' : parsed.errors.length} 行数据不正确，未导入任何数据`,
          parsed.errors.map((e) => ({ field: `第${e.row}行`, message: e.message })),
        );
      const m = meta;
      const groups = parsed.subgroups;
      await db.transaction().execute(async (trx) => {
        const ids = await insertSubgroups(trx, m, groups, user.id);
        report.imported = ids.length;
        report.alarms = await evaluateAlarms(trx, ids, user);
        await audit(
          trx,
          user,
          {
            entity: def.name,
            entityId: ids[0],
            action: 'import',
            after: { subgroups: ids.length, values: report.values, equipmentId: m.equipmentId },
          },
          req.id,
        );
      });
      return report;
    },
  });
}
