import { stocktakeResource } from '@ringmes/domain';
import type ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { z } from 'zod';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';
import { exceljs } from '../../platform/excel-lib.ts';
import { newExportFile } from '../../platform/export-files.ts';
import type { App } from '../../platform/http/route.ts';
import { route } from '../../platform/http/route.ts';
import { idParams } from '../../platform/http/validation.ts';
import { getRecord } from '../../platform/resource/crud.ts';
import { neutralise } from '../../platform/resource/excel.ts';
import { answerRowSchema } from '../../platform/resource/schema.ts';
import { readFirstSheet } from '../../platform/resource/xlsx-read.ts';

const HEAD = ['物料编码', '物料名称', '规格型号', '库位', '批次号', '质量状态', '账面数量', '实盘数量'];
const QUALITY: Record<string, string> = { qualified: '合格', pending: '待检', rejected: '不合格' };
const QUALITY_BY_LABEL = Object.fromEntries(Object.entries(QUALITY).map(([k, v]) => [v, k]));

/**
 * The count sheet of a stocktake: download the lines as Excel, fill 实盘数量 on the floor, upload
 * it back. Rows match lines by material code, location and batch; a row for stock not on the
 * books adds a line. Every row is checked before anything is written.
 */
export function stocktakeSheetRoutes(app: App) {
  route(app, {
    method: 'GET',
    url: '/api/v1/stocktake/countSheet/:id',
    permission: 'warehouse:stocktake:list',
    params: idParams,
    response: z.object({ fileName: z.string() }),
    async handler({ params, user, app: { db, config } }) {
      const doc = await getRecord(db, stocktakeResource, params.id);
      const rows = await sql<any>`
        SELECT m.code, m.name, m.spec, l.code AS location_code, l.name AS location_name, sl.batch_no, sl.quality_status,
               sl.book_quantity::text AS book, sl.counted_quantity::text AS counted
          FROM stocktake_line sl JOIN material m ON m.id = sl.material_id LEFT JOIN shelf_location l ON l.id = sl.location_id
         WHERE sl.stocktake_id = ${params.id} ORDER BY sl.line_no`.execute(db);
      const wb = new (await exceljs()).Workbook();
      const ws = wb.addWorksheet('盘点表');
      ws.columns = HEAD.map((h) => ({ header: h, key: h, width: h === '物料名称' ? 24 : 14 }));
      for (const r of rows.rows) {
        ws.addRow(
          [
            r.code,
            r.name,
            r.spec,
            r.locationCode ?? '',
            r.batchNo ?? '',
            QUALITY[r.qualityStatus],
            Number(r.book),
            r.counted === null ? null : Number(r.counted),
          ].map(neutralise),
        );
      }
      ws.getRow(1).font = { bold: true };
      ws.views = [{ state: 'frozen', ySplit: 1 }];
      const { file, fileName } = newExportFile(config.exportDir, user.id, `盘点表-${doc.docNo}`);
      await wb.xlsx.writeFile(file);
      return { fileName };
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/stocktake/importCounts/:id',
    permission: 'warehouse:stocktake:edit',
    params: idParams,
    body: z.instanceof(Buffer, { error: '请上传 Excel 文件（Content-Type: application/octet-stream）' }),
    // The stocktake with its lines, as `info` answers it.
    response: z.lazy(() => answerRowSchema(stocktakeResource)),
    async handler({ params, body, user, app: { db } }) {
      const rows = readFirstSheet(body);
      const first = (await rows.next()).value as ExcelJS.Row | undefined;
      const header = new Map<string, number>();
      if (first?.number === 1) first.eachCell((c, col) => header.set(String(c.value ?? '').trim(), col));
      for (const need of ['物料编码', '实盘数量'])
        if (!header.has(need)) {
          await rows.return(undefined);
          throw badRequest(`表头缺少「${need}」列；请使用下载的盘点表`);
        }
      const text = (row: ExcelJS.Row, name: string) => {
        const col = header.get(name);
        if (!col) return '';
        const v: any = row.getCell(col).value;
        return v === null || v === undefined
          ? ''
          : String(typeof v === 'object' && 'result' in v ? v.result : v).trim();
      };
      // Only the cells the count needs are kept while the sheet streams by.
      const sheet: { r: number; values: Record<string, string> }[] = [];
      for await (const row of rows) {
        const values = Object.fromEntries(HEAD.map((h) => [h, text(row, h)]));
        if (values.物料编码 || values.实盘数量) sheet.push({ r: row.number, values });
      }
      await db.transaction().execute(async (trx) => {
        const doc = await trx
          .selectFrom('stocktake')
          .select(['id', 'status', 'warehouseId'])
          .where('id', '=', params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!doc) throw notFound('盘点单不存在或已被删除');
        if (doc.status !== 'draft') throw conflict('只有草稿状态的盘点单可以录入实盘数量');
        const materials = new Map(
          (await trx.selectFrom('material').select(['id', 'code']).execute()).map((m: any) => [
            m.code.toLowerCase(),
            m.id,
          ]),
        );
        const locations = new Map<string, number>();
        for (const l of (await trx
          .selectFrom('shelfLocation')
          .select(['id', 'code', 'name'])
          .where('warehouseId', '=', doc.warehouseId)
          .execute()) as any[]) {
          locations.set(l.code.toLowerCase(), l.id);
          locations.set(l.name.toLowerCase(), l.id);
        }
        const lines = (await trx
          .selectFrom('stocktakeLine')
          .selectAll()
          .where('stocktakeId', '=', params.id)
          .orderBy('lineNo')
          .execute()) as any[];
        const key = (m: number, l: number | null, b: string, q: string) => `${m}/${l ?? ''}/${b}/${q}`;
        const byKey = new Map(
          lines.map((l) => [key(l.materialId, l.locationId, l.batchNo ?? '', l.qualityStatus), l]),
        );
        const errors: { field: string; message: string }[] = [];
        const updates: { id: number; counted: string }[] = [];
        const inserts: any[] = [];
        for (const { r, values } of sheet) {
          const cell = (name: string) => values[name] ?? '';
          const code = cell('物料编码');
          const counted = cell('实盘数量');
          if (!code && !counted) continue;
          const materialId = materials.get(code.toLowerCase());
          if (!materialId) {
            errors.push({ field: `第${r}行 物料编码`, message: `物料「${code}」不存在` });
            continue;
          }
          if (counted === '') continue;
          if (!/^\d+(\.\d{1,4})?$/.test(counted)) {
            errors.push({
              field: `第${r}行 实盘数量`,
              message: '实盘数量必须是不小于 0 的数字，最多 4 位小数',
            });
            continue;
          }
          const locText = cell('库位');
          const locationId = locText ? locations.get(locText.toLowerCase()) : null;
          if (locText && !locationId) {
            errors.push({ field: `第${r}行 库位`, message: `库位「${locText}」不属于本仓库` });
            continue;
          }
          const quality = QUALITY_BY_LABEL[cell('质量状态')] ?? 'qualified';
          const line = byKey.get(key(materialId, locationId ?? null, cell('批次号'), quality));
          if (line) updates.push({ id: line.id, counted });
          else
            inserts.push({
              stocktakeId: params.id,
              materialId,
              locationId: locationId ?? null,
              batchNo: cell('批次号') || null,
              qualityStatus: quality,
              countedQuantity: counted,
            });
        }
        if (errors.length)
          throw new AppError(400, '400', `盘点表有 ${errors.length} 处错误，未录入任何数量`, errors);
        if (updates.length) {
          await sql`UPDATE stocktake_line l SET counted_quantity = r.c
                      FROM unnest(${sql.val(updates.map((u) => u.id))}::bigint[], ${sql.val(updates.map((u) => u.counted))}::numeric[]) AS r(id, c)
                     WHERE l.id = r.id`.execute(trx);
        }
        if (inserts.length) {
          await trx
            .insertInto('stocktakeLine')
            .values(inserts.map((v, i) => ({ ...v, lineNo: lines.length + i + 1 })))
            .execute();
        }
        await sql`UPDATE stocktake_line SET difference = counted_quantity - book_quantity WHERE stocktake_id = ${params.id}`.execute(
          trx,
        );
        await trx
          .updateTable('stocktake')
          .set({ updatedBy: user.id, updatedAt: sql`now()`, version: sql`version + 1` })
          .where('id', '=', params.id)
          .execute();
      });
      return getRecord(db, stocktakeResource, params.id);
    },
  });
}
